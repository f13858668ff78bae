// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * limit rate [over] N/UNIT [burst N packets] or in bytes: the kernel's
 * "limit".  A limit object keeps the same fields, so STMT_LIMIT and its
 * fields stay in struct stmt; the rate's text and JSON are shared with the
 * objects' listings from here.
 */
#include <string.h>
#include <jansson.h>
#include <libnftnl/expr.h>
#include <linux/netfilter/nf_tables.h>

#include <datatype.h>
#include <suggest.h>
#include <kind.h>
#include <rule.h>
#include <libnftnl/object.h>
#include <limit.h>
#include <quota.h>

static const struct symbol time_units[] = {
	{ "second",	1 },
	{ "minute",	60 },
	{ "hour",	3600 },
	{ "day",	86400 },
	{ "week",	604800 },
	{ NULL, 0 },
};

int stmt_limit_unit(struct stmt *s, const char *unit,
		    const struct location *loc, struct list_head *msgs)
{
	const struct symbol *sym = symbol_by_name(time_units, unit);
	struct suggest sg;

	if (!sym)
		return error_queue(msgs, loc,
				   "wrong rate format: unknown time unit \"%s\"%s",
				   unit, suggest_symbol(&sg, time_units, unit));
	s->limit.unit = sym->value;
	return 0;
}

int stmt_limit_bytes(struct stmt *s, uint64_t rate, const char *unit,
		     const struct location *loc, struct list_head *msgs)
{
	uint64_t mult;

	if (stmt_bytes_unit(unit, &mult) < 0)
		return error_queue(msgs, loc,
				   "wrong rate format: unknown unit \"%s\"",
				   unit);
	s->limit.rate = rate * mult;
	return 0;
}

const char *limit_per_name(uint64_t unit)
{
	const struct symbol *sym = symbol_by_value(time_units, unit);

	return sym ? sym->name : NULL;
}

void limit_args_print(const struct stmt *s, FILE *f)
{
	const char *per = limit_per_name(s->limit.unit);

	if (!per)
		per = "error";
	fprintf(f, "rate %s", s->limit.flags & NFT_LIMIT_F_INV ? "over " : "");
	if (s->limit.type == NFT_LIMIT_PKT_BYTES) {
		bytes_text_print(f, s->limit.rate);
		fprintf(f, "/%s", per);
		if (s->limit.burst) {
			fprintf(f, " burst ");
			bytes_text_print(f, s->limit.burst);
		}
	} else {
		fprintf(f, "%llu/%s", (unsigned long long)s->limit.rate, per);
		if (s->limit.burst != 5)
			fprintf(f, " burst %u packets", s->limit.burst);
	}
}

struct stmt *limit_args_json_parse(struct kind_jparse *k, json_t *o,
				   const struct location *loc)
{
	const char *ru, *per;
	struct stmt *s;
	struct location l;
	uint64_t rate, burst;

	if (k->get_u64(k, o, "rate", &rate) != 1)
		return k->error(k, o, "limit: property \"rate\" is missing"), NULL;
	s = stmt_alloc(loc, STMT_LIMIT);
	ru = k->get_str(k, o, "rate_unit", false);
	per = k->get_str(k, o, "per", false);
	if (k->get_bool(k, o, "inv"))
		s->limit.flags = NFT_LIMIT_F_INV;
	l = k->loc(k, json_object_get(o, "per"));
	if (stmt_limit_unit(s, per ? per : "second", &l, k->msgs) < 0)
		goto fail;
	if (!ru || !strcmp(ru, "packets")) {
		s->limit.type = NFT_LIMIT_PKTS;
		s->limit.rate = rate;
		s->limit.burst = 5;	/* as "limit rate N/second" without burst */
		if (k->get_u64(k, o, "burst", &burst) < 0)
			goto fail;
		if (json_object_get(o, "burst"))
			s->limit.burst = burst;
	} else {
		s->limit.type = NFT_LIMIT_PKT_BYTES;
		l = k->loc(k, json_object_get(o, "rate_unit"));
		burst = 0;
		if (stmt_limit_bytes(s, rate, ru, &l, k->msgs) < 0 ||
		    bytes_json_parse(k, o, "burst", "burst_unit", &burst) < 0)
			goto fail;
		s->limit.burst = burst;
	}
	return s;
fail:
	stmt_free(s);
	k->failed(k);
	return NULL;
}

static int limit_linearize(struct kind_lin *k, const struct stmt *s)
{
	struct nftnl_expr *e = k->add(k, "limit");

	nftnl_expr_set_u64(e, NFTNL_EXPR_LIMIT_RATE, s->limit.rate);
	nftnl_expr_set_u64(e, NFTNL_EXPR_LIMIT_UNIT, s->limit.unit);
	nftnl_expr_set_u32(e, NFTNL_EXPR_LIMIT_BURST, s->limit.burst);
	nftnl_expr_set_u32(e, NFTNL_EXPR_LIMIT_TYPE, s->limit.type);
	nftnl_expr_set_u32(e, NFTNL_EXPR_LIMIT_FLAGS, s->limit.flags);
	return 0;
}

static void limit_delinearize(struct kind_delin *k,
			      const struct nftnl_expr *nle)
{
	struct stmt *s = stmt_alloc(&internal_location, STMT_LIMIT);

	s->limit.rate = nftnl_expr_get_u64(nle, NFTNL_EXPR_LIMIT_RATE);
	s->limit.unit = nftnl_expr_get_u64(nle, NFTNL_EXPR_LIMIT_UNIT);
	s->limit.burst = nftnl_expr_get_u32(nle, NFTNL_EXPR_LIMIT_BURST);
	s->limit.type = nftnl_expr_get_u32(nle, NFTNL_EXPR_LIMIT_TYPE);
	s->limit.flags = nftnl_expr_get_u32(nle, NFTNL_EXPR_LIMIT_FLAGS);
	k->add_stmt(k, s);
}

static void limit_print(struct kind_print *k, const struct stmt *s)
{
	fprintf(k->f, "limit ");
	limit_args_print(s, k->f);
}

static json_t *limit_json(struct kind_json *k, const struct stmt *s)
{
	uint64_t rate = s->limit.rate, burst = s->limit.burst;
	const char *ru = NULL, *bu = NULL;
	json_t *o = json_object();

	if (!limit_per_name(s->limit.unit)) {
		json_decref(o);
		return k->unsupported(k, "a limit per unusual time unit");
	}
	if (s->limit.type == NFT_LIMIT_PKT_BYTES) {
		ru = bytes_json_unit(&rate);
		bu = bytes_json_unit(&burst);
	}
	o = kind_json_set(o, "rate", json_integer(rate));
	o = kind_json_set(o, "burst", json_integer(burst));
	o = kind_json_set(o, "per", json_string(limit_per_name(s->limit.unit)));
	if (s->limit.flags & NFT_LIMIT_F_INV)
		o = kind_json_set(o, "inv", json_true());
	if (ru) {
		o = kind_json_set(o, "rate_unit", json_string(ru));
		o = kind_json_set(o, "burst_unit", json_string(bu));
	}
	return kind_json_wrap("limit", o);
}

/* an object's values, or a named limit ("l1", a map) */
static struct stmt *limit_parse_json(struct kind_jparse *k, const char *key,
				     json_t *o, const struct location *loc)
{
	static const char *const keys[] = {
		"rate", "rate_unit", "per", "burst", "burst_unit", "inv", NULL
	};

	if (json_is_string(o) || json_is_object(json_object_get(o, "map")))
		return k->objref(k, NFT_OBJECT_LIMIT, o, loc);
	if (!json_is_object(o) || k->check_keys(k, o, "limit", keys) < 0)
		return k->error(k, o, "limit: expected an object"), NULL;
	return limit_args_json_parse(k, o, loc);
}

static const struct stmt_ops limit_ops = {
	.name		= "limit",
	.nl_name	= "limit",
	.kind		= STMT_LIMIT,
	.linearize	= limit_linearize,
	.delinearize	= limit_delinearize,
	.print		= limit_print,
	.json		= limit_json,
	.parse_json	= limit_parse_json,
};
STMT_OPS_REGISTER(limit_ops);

/* --- the named limit object: its values in ob->stmt, a limit's --- */

static int limit_obj_parse_json(struct kind_jparse *k, json_t *o,
				struct obj *ob)
{
	struct location loc = k->loc(k, o);

	ob->stmt = limit_args_json_parse(k, o, &loc);
	return ob->stmt ? 0 : -1;
}

static int limit_obj_eval(struct kind_eval *k, struct obj *o)
{
	if (!o->stmt)
		return error_queue(k->msgs, &o->loc,
				   "limit %s needs a rate: limit %s { rate N/second }",
				   o->h.obj, o->h.obj);
	return 0;
}

static void limit_obj_linearize(struct kind_lin *k, struct nftnl_obj *nlo,
				const struct obj *ob)
{
	const struct stmt *s = ob->stmt;

	nftnl_obj_set_u64(nlo, NFTNL_OBJ_LIMIT_RATE, s->limit.rate);
	nftnl_obj_set_u64(nlo, NFTNL_OBJ_LIMIT_UNIT, s->limit.unit);
	nftnl_obj_set_u32(nlo, NFTNL_OBJ_LIMIT_BURST, s->limit.burst);
	nftnl_obj_set_u32(nlo, NFTNL_OBJ_LIMIT_TYPE, s->limit.type);
	nftnl_obj_set_u32(nlo, NFTNL_OBJ_LIMIT_FLAGS, s->limit.flags);
}

static void limit_obj_print(struct kind_print *k, struct nftnl_obj *nlo)
{
	struct stmt *s = stmt_alloc(&internal_location, STMT_LIMIT);

	s->limit.rate = nftnl_obj_get_u64(nlo, NFTNL_OBJ_LIMIT_RATE);
	s->limit.unit = nftnl_obj_get_u64(nlo, NFTNL_OBJ_LIMIT_UNIT);
	s->limit.burst = nftnl_obj_get_u32(nlo, NFTNL_OBJ_LIMIT_BURST);
	s->limit.type = nftnl_obj_get_u32(nlo, NFTNL_OBJ_LIMIT_TYPE);
	s->limit.flags = nftnl_obj_get_u32(nlo, NFTNL_OBJ_LIMIT_FLAGS);
	kind_obj_line(k);
	limit_args_print(s, k->f);
	kind_obj_eol(k, false);
	stmt_free(s);
}

/* a limit object's rate: nft writes no burst of 0, and no packets unit */
static void limit_obj_json(struct kind_json *k, json_t *o,
			   struct nftnl_obj *n)
{
	uint64_t rate = nftnl_obj_get_u64(n, NFTNL_OBJ_LIMIT_RATE);
	uint64_t burst = nftnl_obj_get_u32(n, NFTNL_OBJ_LIMIT_BURST);
	bool bytes = nftnl_obj_get_u32(n, NFTNL_OBJ_LIMIT_TYPE) == NFT_LIMIT_PKT_BYTES;
	const char *per = limit_per_name(nftnl_obj_get_u64(n, NFTNL_OBJ_LIMIT_UNIT));
	const char *ru = bytes ? bytes_json_unit(&rate) : NULL;
	const char *bu = bytes ? bytes_json_unit(&burst) : NULL;

	json_object_set_new(o, "rate", json_integer(rate));
	json_object_set_new(o, "per", json_string(per ? per : "error"));
	if (nftnl_obj_get_u32(n, NFTNL_OBJ_LIMIT_FLAGS) & NFT_LIMIT_F_INV)
		json_object_set_new(o, "inv", json_true());
	if (ru)
		json_object_set_new(o, "rate_unit", json_string(ru));
	if (burst) {
		json_object_set_new(o, "burst", json_integer(burst));
		if (bu)
			json_object_set_new(o, "burst_unit", json_string(bu));
	}
}
static const char *const limit_obj_json_keys[] = {
	"rate", "rate_unit", "per", "burst", "burst_unit", "inv", NULL,
};

static const struct obj_ops limit_obj_ops = {
	.type		= NFT_OBJECT_LIMIT,
	.name		= "limit",
	.plural		= "limits",
	.json_keys	= limit_obj_json_keys,
	.parse_json	= limit_obj_parse_json,
	.eval		= limit_obj_eval,
	.linearize	= limit_obj_linearize,
	.print		= limit_obj_print,
	.json		= limit_obj_json,
};
OBJ_OPS_REGISTER(limit_obj_ops);
