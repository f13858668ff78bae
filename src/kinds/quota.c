// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * quota [over|until] N UNIT [used N UNIT]: the kernel's "quota".  A quota
 * object and a set element keep the same fields, so STMT_QUOTA and its
 * fields stay in struct stmt.  The text and JSON of a number of bytes,
 * which limit and the objects' listings share, are here too.
 */
#include <jansson.h>
#include <libnftnl/expr.h>
#include <linux/netfilter/nf_tables.h>

#include <ctx.h>
#include <kind.h>
#include <rule.h>
#include <libnftnl/object.h>
#include <quota.h>

static const char *const byte_unit_names[] = { "bytes", "kbytes", "mbytes" };

/* the largest unit that divides @b evenly, and @b in it */
static unsigned int bytes_scale(uint64_t *b)
{
	unsigned int u = 0;

	while (u < 2 && *b && *b % 1024 == 0) {
		*b /= 1024;
		u++;
	}
	return u;
}

void bytes_text_print(FILE *f, uint64_t b)
{
	unsigned int u = bytes_scale(&b);

	fprintf(f, "%llu %s", (unsigned long long)b, byte_unit_names[u]);
}

const char *bytes_json_unit(uint64_t *b)
{
	return byte_unit_names[bytes_scale(b)];
}

int bytes_json_parse(struct kind_jparse *k, json_t *o, const char *key,
		     const char *ukey, uint64_t *res)
{
	const char *unit = k->get_str(k, o, ukey, false);
	uint64_t v = 0, mult = 1;
	int r = k->get_u64(k, o, key, &v);

	if (r < 0)
		return -1;
	if (unit && stmt_bytes_unit(unit, &mult) < 0)
		return k->error(k, json_object_get(o, ukey), "wrong unit \"%s\"", unit);
	*res = v * mult;
	return r;
}

void quota_args_print(const struct stmt *s, const struct output_ctx *o,
		      FILE *f)
{
	fprintf(f, "%s", s->quota.flags & NFT_QUOTA_F_INV ? "over " : "");
	bytes_text_print(f, s->quota.bytes);
	if (s->quota.used && !(o->flags & NFH_OUTPUT_STATELESS)) {
		fprintf(f, " used ");
		bytes_text_print(f, s->quota.used);
	}
}

static int quota_linearize(struct kind_lin *k, const struct stmt *s)
{
	struct nftnl_expr *e = k->add(k, "quota");

	nftnl_expr_set_u64(e, NFTNL_EXPR_QUOTA_BYTES, s->quota.bytes);
	nftnl_expr_set_u64(e, NFTNL_EXPR_QUOTA_CONSUMED, s->quota.used);
	nftnl_expr_set_u32(e, NFTNL_EXPR_QUOTA_FLAGS, s->quota.flags);
	return 0;
}

static void quota_delinearize(struct kind_delin *k,
			      const struct nftnl_expr *nle)
{
	struct stmt *s = stmt_alloc(&internal_location, STMT_QUOTA);

	s->quota.bytes = nftnl_expr_get_u64(nle, NFTNL_EXPR_QUOTA_BYTES);
	s->quota.used = nftnl_expr_get_u64(nle, NFTNL_EXPR_QUOTA_CONSUMED);
	s->quota.flags = nftnl_expr_get_u32(nle, NFTNL_EXPR_QUOTA_FLAGS);
	k->add_stmt(k, s);
}

static void quota_print(struct kind_print *k, const struct stmt *s)
{
	fprintf(k->f, "quota ");
	quota_args_print(s, k->octx, k->f);
}

static json_t *quota_json(struct kind_json *k, const struct stmt *s)
{
	uint64_t val = s->quota.bytes, used = s->quota.used;
	const char *vu = bytes_json_unit(&val);
	json_t *o = json_object();

	o = kind_json_set(o, "val", json_integer(val));
	o = kind_json_set(o, "val_unit", json_string(vu));
	if (s->quota.flags & NFT_QUOTA_F_INV)
		o = kind_json_set(o, "inv", json_true());
	if (used && !(k->octx->flags & NFH_OUTPUT_STATELESS)) {
		const char *uu = bytes_json_unit(&used);

		o = kind_json_set(o, "used", json_integer(used));
		o = kind_json_set(o, "used_unit", json_string(uu));
	}
	return kind_json_wrap("quota", o);
}

static struct stmt *quota_parse_json(struct kind_jparse *k, const char *key,
				     json_t *o, const struct location *loc)
{
	static const char *const keys[] = {
		"val", "val_unit", "used", "used_unit", "inv", NULL
	};
	struct stmt *s;

	if (json_is_string(o) || json_is_object(json_object_get(o, "map")))
		return k->objref(k, NFT_OBJECT_QUOTA, o, loc);
	if (!json_is_object(o) || k->check_keys(k, o, "quota", keys) < 0)
		return k->error(k, o, "quota: expected an object"), NULL;
	s = stmt_alloc(loc, STMT_QUOTA);
	if (k->get_bool(k, o, "inv"))
		s->quota.flags = NFT_QUOTA_F_INV;
	if (bytes_json_parse(k, o, "val", "val_unit", &s->quota.bytes) != 1 ||
	    bytes_json_parse(k, o, "used", "used_unit", &s->quota.used) < 0) {
		if (!json_object_get(o, "val"))
			k->error(k, o, "quota: property \"val\" is missing");
		stmt_free(s);
		return NULL;
	}
	return s;
}

static const struct stmt_ops quota_ops = {
	.name		= "quota",
	.nl_name	= "quota",
	.kind		= STMT_QUOTA,
	.linearize	= quota_linearize,
	.delinearize	= quota_delinearize,
	.print		= quota_print,
	.json		= quota_json,
	.parse_json	= quota_parse_json,
};
STMT_OPS_REGISTER(quota_ops);

/* --- the named quota object: its values in ob->stmt, a quota's --- */

static int quota_obj_parse_json(struct kind_jparse *k, json_t *o,
				struct obj *ob)
{
	struct location loc = k->loc(k, o);
	uint64_t n;

	ob->stmt = stmt_alloc(&loc, STMT_QUOTA);
	if (k->get_bool(k, o, "inv"))
		ob->stmt->quota.flags = NFT_QUOTA_F_INV;
	if (k->get_u64(k, o, "used", &ob->stmt->quota.used) < 0)
		return -1;
	switch (k->get_u64(k, o, "bytes", &n)) {
	case 1:
		ob->stmt->quota.bytes = n;
		return 0;
	case 0:
		return k->error(k, o, "quota: property \"bytes\" is missing");
	default:
		return -1;
	}
}

static int quota_obj_eval(struct kind_eval *k, struct obj *o)
{
	if (!o->stmt)
		return error_queue(k->msgs, &o->loc,
				   "quota %s needs a size: quota %s { N bytes }",
				   o->h.obj, o->h.obj);
	return 0;
}

static void quota_obj_linearize(struct kind_lin *k, struct nftnl_obj *nlo,
				const struct obj *ob)
{
	const struct stmt *s = ob->stmt;

	nftnl_obj_set_u64(nlo, NFTNL_OBJ_QUOTA_BYTES, s->quota.bytes);
	nftnl_obj_set_u64(nlo, NFTNL_OBJ_QUOTA_CONSUMED, s->quota.used);
	nftnl_obj_set_u32(nlo, NFTNL_OBJ_QUOTA_FLAGS, s->quota.flags);
}

static void quota_obj_print(struct kind_print *k, struct nftnl_obj *nlo)
{
	struct stmt *s = stmt_alloc(&internal_location, STMT_QUOTA);

	s->quota.bytes = nftnl_obj_get_u64(nlo, NFTNL_OBJ_QUOTA_BYTES);
	s->quota.used = nftnl_obj_get_u64(nlo, NFTNL_OBJ_QUOTA_CONSUMED);
	s->quota.flags = nftnl_obj_get_u32(nlo, NFTNL_OBJ_QUOTA_FLAGS);
	kind_obj_line(k);
	quota_args_print(s, k->octx, k->f);
	kind_obj_eol(k, false);
	stmt_free(s);
}

static void quota_obj_json(struct kind_json *k, json_t *o,
			   struct nftnl_obj *nlo)
{
	json_object_set_new(o, "bytes",
			    json_integer(nftnl_obj_get_u64(nlo, NFTNL_OBJ_QUOTA_BYTES)));
	json_object_set_new(o, "used",
			    json_integer(nftnl_obj_get_u64(nlo, NFTNL_OBJ_QUOTA_CONSUMED)));
	json_object_set_new(o, "inv", json_boolean(nftnl_obj_get_u32(nlo,
			    NFTNL_OBJ_QUOTA_FLAGS) & NFT_QUOTA_F_INV));
}

static const char *const quota_obj_json_keys[] = { "bytes", "used", "inv", NULL };

static const struct obj_ops quota_obj_ops = {
	.type		= NFT_OBJECT_QUOTA,
	.name		= "quota",
	.plural		= "quotas",
	.json_keys	= quota_obj_json_keys,
	.parse_json	= quota_obj_parse_json,
	.eval		= quota_obj_eval,
	.linearize	= quota_obj_linearize,
	.print		= quota_obj_print,
	.json		= quota_obj_json,
};
OBJ_OPS_REGISTER(quota_obj_ops);
