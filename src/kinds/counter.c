// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * counter [packets N] [bytes N]: the kernel's "counter".  A counter object
 * and a set element keep the same fields, so STMT_COUNTER and its fields
 * stay in struct stmt (the object code and dynset's eval test for it).
 */
#include <jansson.h>
#include <libnftnl/expr.h>
#include <linux/netfilter/nf_tables.h>

#include <ctx.h>
#include <kind.h>
#include <rule.h>
#include <libnftnl/object.h>
#include <counter.h>

struct stmt *counter_stmt_alloc(const struct location *loc, uint64_t packets,
				uint64_t bytes)
{
	struct stmt *s = stmt_alloc(loc, STMT_COUNTER);

	s->counter.packets = packets;
	s->counter.bytes = bytes;
	return s;
}

json_t *counter_json_value(uint64_t packets, uint64_t bytes,
			   const struct output_ctx *octx)
{
	if (octx->flags & NFH_OUTPUT_STATELESS)
		return json_null();
	return kind_json_set(kind_json_wrap("packets", json_integer(packets)),
			     "bytes", json_integer(bytes));
}

static int counter_linearize(struct kind_lin *k, const struct stmt *s)
{
	struct nftnl_expr *e = k->add(k, "counter");

	nftnl_expr_set_u64(e, NFTNL_EXPR_CTR_PACKETS, s->counter.packets);
	nftnl_expr_set_u64(e, NFTNL_EXPR_CTR_BYTES, s->counter.bytes);
	return 0;
}

static void counter_delinearize(struct kind_delin *k,
				const struct nftnl_expr *nle)
{
	k->add_stmt(k, counter_stmt_alloc(&internal_location,
		nftnl_expr_get_u64(nle, NFTNL_EXPR_CTR_PACKETS),
		nftnl_expr_get_u64(nle, NFTNL_EXPR_CTR_BYTES)));
}

static void counter_print(struct kind_print *k, const struct stmt *s)
{
	if (k->octx->flags & NFH_OUTPUT_STATELESS)
		fprintf(k->f, "counter");
	else
		fprintf(k->f, "counter packets %llu bytes %llu",
			(unsigned long long)s->counter.packets,
			(unsigned long long)s->counter.bytes);
}

static json_t *counter_json(struct kind_json *k, const struct stmt *s)
{
	return kind_json_wrap("counter", counter_json_value(s->counter.packets,
							    s->counter.bytes,
							    k->octx));
}

/* null, { "packets": N, "bytes": N }, or a named counter ("c1", a map) */
static struct stmt *counter_parse_json(struct kind_jparse *k, const char *key,
				       json_t *o, const struct location *loc)
{
	static const char *const keys[] = { "packets", "bytes", NULL };
	struct stmt *s;

	if (json_is_string(o) || json_is_object(json_object_get(o, "map")))
		return k->objref(k, NFT_OBJECT_COUNTER, o, loc);
	if (!json_is_null(o) && (!json_is_object(o) ||
				 k->check_keys(k, o, "counter", keys) < 0))
		return k->error(k, o, "counter: expected null or { \"packets\", \"bytes\" }"), NULL;
	s = counter_stmt_alloc(loc, 0, 0);
	if (json_is_object(o) &&
	    (k->get_u64(k, o, "packets", &s->counter.packets) < 0 ||
	     k->get_u64(k, o, "bytes", &s->counter.bytes) < 0)) {
		stmt_free(s);
		return NULL;
	}
	return s;
}

static const struct stmt_ops counter_ops = {
	.name		= "counter",
	.nl_name	= "counter",
	.kind		= STMT_COUNTER,
	.bare		= true,
	.linearize	= counter_linearize,
	.delinearize	= counter_delinearize,
	.print		= counter_print,
	.json		= counter_json,
	.parse_json	= counter_parse_json,
};
STMT_OPS_REGISTER(counter_ops);

/* --- the named counter object: its values in ob->stmt, a counter's --- */

static int counter_obj_parse_json(struct kind_jparse *k, json_t *o,
				  struct obj *ob)
{
	struct location loc = k->loc(k, o);

	ob->stmt = stmt_alloc(&loc, STMT_COUNTER);
	if (k->get_u64(k, o, "packets", &ob->stmt->counter.packets) < 0 ||
	    k->get_u64(k, o, "bytes", &ob->stmt->counter.bytes) < 0)
		return -1;
	return 0;
}

static void counter_obj_linearize(struct kind_lin *k, struct nftnl_obj *nlo,
				  const struct obj *ob)
{
	nftnl_obj_set_u64(nlo, NFTNL_OBJ_CTR_PKTS, ob->stmt->counter.packets);
	nftnl_obj_set_u64(nlo, NFTNL_OBJ_CTR_BYTES, ob->stmt->counter.bytes);
}

static void counter_obj_print(struct kind_print *k, struct nftnl_obj *nlo)
{
	/* -s: a counter has nothing else to say */
	if (k->octx->flags & NFH_OUTPUT_STATELESS)
		return;
	kind_obj_line(k);
	fprintf(k->f, "packets %llu bytes %llu",
		(unsigned long long)nftnl_obj_get_u64(nlo, NFTNL_OBJ_CTR_PKTS),
		(unsigned long long)nftnl_obj_get_u64(nlo, NFTNL_OBJ_CTR_BYTES));
	kind_obj_eol(k, false);
}

static void counter_obj_json(struct kind_json *k, json_t *o,
			     struct nftnl_obj *nlo)
{
	json_object_set_new(o, "packets",
			    json_integer(nftnl_obj_get_u64(nlo, NFTNL_OBJ_CTR_PKTS)));
	json_object_set_new(o, "bytes",
			    json_integer(nftnl_obj_get_u64(nlo, NFTNL_OBJ_CTR_BYTES)));
}

static const char *const counter_obj_json_keys[] = { "packets", "bytes", NULL };

static const struct obj_ops counter_obj_ops = {
	.type		= NFT_OBJECT_COUNTER,
	.name		= "counter",
	.plural		= "counters",
	.json_keys	= counter_obj_json_keys,
	.parse_json	= counter_obj_parse_json,
	.linearize	= counter_obj_linearize,
	.print		= counter_obj_print,
	.json		= counter_obj_json,
};
OBJ_OPS_REGISTER(counter_obj_ops);
