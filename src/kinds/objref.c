// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * counter name "x", quota name "x", limit name "x", synproxy name "x",
 * ct helper|timeout|expectation set "x", meta secmark set "x", and the
 * same from a map to names ("counter name ip saddr map @m"): the packet
 * uses a named object of the table (the kernel's "objref" expression, by
 * name or through a map of objects).  STMT_OBJREF stays in the enum: the
 * grammar makes it from each of those statements' words, ct turns "ct
 * helper set" into one, and delinearize's postprocess types its map.  Its
 * JSON keys are those of the object types with no statement of their own
 * (ct helper, ct timeout, ct expectation, secmark); counter, limit, quota
 * and synproxy hand their names and maps to objref_parse_json().
 */
#include <string.h>
#include <jansson.h>
#include <libnftnl/expr.h>
#include <libnftnl/set.h>
#include <linux/netfilter/nf_tables.h>

#include <datatype.h>
#include <kind.h>
#include <nlalloc.h>
#include <rule.h>
#include <set.h>
#include <objref.h>

static struct stmt *objref_alloc(const struct location *loc, uint32_t type,
				 struct expr *e)
{
	struct stmt *s = stmt_alloc(loc, STMT_OBJREF);

	s->objref.type = type;
	s->objref.expr = e;
	return s;
}

/* a map to names: its values must be objects of the statement's type */
static int objref_map_eval(struct kind_eval *k, struct stmt *s)
{
	struct expr *m = s->objref.expr, *want;
	const struct expr *r;
	uint32_t has;
	int ret;

	want = set_type_placeholder(&internal_location, &objref_type,
				    objref_type.size, BYTEORDER_HOST);
	ret = k->map(k, m, want);
	expr_free(want);
	if (ret < 0 || m->op.right->kind != EXPR_SET_REF)
		return ret;
	r = m->op.right;
	has = r->setref.set->objtype;
	if (!has)
		return error_queue(k->msgs, &r->loc,
				   "map @%s holds values, not %s objects",
				   r->setref.name, obj_type_name(s->objref.type));
	if (has != s->objref.type)
		return error_queue(k->msgs, &r->loc,
				   "map @%s holds %s objects, not %s objects",
				   r->setref.name, obj_type_name(has),
				   obj_type_name(s->objref.type));
	return ret;
}

static int objref_eval(struct kind_eval *k, struct stmt *s)
{
	struct expr **e = &s->objref.expr;

	if ((*e)->kind == EXPR_VARIABLE && k->expand(k, e) < 0)
		return -1;
	if ((*e)->kind == EXPR_SYMBOL) {
		if (strlen((*e)->sym.str) >= NFT_OBJ_MAXNAMELEN)
			return error_queue(k->msgs, &(*e)->loc,
					   "object name \"%s\" is too long, %u characters at most",
					   (*e)->sym.str, NFT_OBJ_MAXNAMELEN - 1);
		return 0;
	}
	if ((*e)->kind != EXPR_MAP)
		return error_queue(k->msgs, &(*e)->loc,
				   "a %s name or a map to %s names is expected here",
				   obj_type_name(s->objref.type),
				   obj_type_name(s->objref.type));
	return objref_map_eval(k, s);
}

static int objref_linearize(struct kind_lin *k, const struct stmt *s)
{
	struct nftnl_expr *e;

	if (s->objref.expr->kind == EXPR_MAP) {
		struct expr *want = set_type_placeholder(NULL, &objref_type,
							 objref_type.size,
							 BYTEORDER_HOST);
		int ret = k->objmap(k, s->objref.expr, want, s->objref.type);

		expr_free(want);
		return ret;
	}
	/* a missing object is the name's error (the kernel's ENOENT) */
	e = k->add_at(k, "objref", &s->objref.expr->loc);
	nftnl_expr_set_u32(e, NFTNL_EXPR_OBJREF_IMM_TYPE, s->objref.type);
	xnftnl_expr_set_str(e, NFTNL_EXPR_OBJREF_IMM_NAME,
			    s->objref.expr->sym.str);
	return 0;
}

/* counter name "x", and "counter name KEY map { ... }" */
static void objref_delinearize(struct kind_delin *k,
			       const struct nftnl_expr *e)
{
	uint32_t sreg = nftnl_expr_get_u32(e, NFTNL_EXPR_OBJREF_SET_SREG);
	const struct nftnl_set *nls;
	struct expr *m;

	if (nftnl_expr_is_set(e, NFTNL_EXPR_OBJREF_IMM_NAME)) {
		k->add_stmt(k, objref_alloc(&internal_location,
			nftnl_expr_get_u32(e, NFTNL_EXPR_OBJREF_IMM_TYPE),
			symbol_expr_alloc(&internal_location,
				nftnl_expr_get_str(e, NFTNL_EXPR_OBJREF_IMM_NAME),
				true)));
		return;
	}
	nls = k->set(k, nftnl_expr_get_str(e, NFTNL_EXPR_OBJREF_SET_NAME),
		     nftnl_expr_is_set(e, NFTNL_EXPR_OBJREF_SET_ID),
		     nftnl_expr_get_u32(e, NFTNL_EXPR_OBJREF_SET_ID));
	if (!nls || !(nftnl_set_get_u32(nls, NFTNL_SET_FLAGS) & NFT_SET_OBJECT)) {
		k->unsupported(k, "objref");
		return;
	}
	m = k->map(k, sreg, nls);
	if (!m) {
		k->unsupported(k, "objref");
		return;
	}
	k->add_stmt(k, objref_alloc(&internal_location,
				    nftnl_set_get_u32(nls, NFTNL_SET_OBJ_TYPE),
				    m));
}

static void objref_print(struct kind_print *k, const struct stmt *s)
{
	uint32_t type = s->objref.type;
	FILE *f = k->f;

	if (type == NFT_OBJECT_SYNPROXY)
		fprintf(f, "synproxy name ");
	else if (type == NFT_OBJECT_SECMARK)
		fprintf(f, "meta secmark set ");
	else if (type == NFT_OBJECT_CT_HELPER ||
		 type == NFT_OBJECT_CT_TIMEOUT ||
		 type == NFT_OBJECT_CT_EXPECT)
		fprintf(f, "%s set ", obj_type_name(type));
	else
		fprintf(f, "%s name ", obj_type_name(type) ?
			obj_type_name(type) : "unknown");
	if (s->objref.expr->kind == EXPR_SYMBOL)
		quoted_print(f, s->objref.expr->sym.str);
	else
		k->expr(k, s->objref.expr);
}

/* {"counter": "c1"}, {"ct helper": {"map": {"key": ..., "data": "@m"}}} */
static json_t *objref_json(struct kind_json *k, const struct stmt *s)
{
	const char *name = obj_type_name(s->objref.type);
	const struct expr *e = s->objref.expr;

	if (!name)
		return k->unsupported(k, "a reference to an unknown object type");
	if (e->kind == EXPR_SYMBOL)
		return kind_json_wrap(name, json_string(e->sym.str));
	if (e->kind != EXPR_MAP)
		return k->unsupported(k, "an object reference");
	return kind_json_wrap(name, kind_json_wrap("map",
		kind_json_set(kind_json_wrap("key", k->expr(k, e->op.left)),
			      "data", k->expr(k, e->op.right))));
}

struct stmt *objref_parse_json(struct kind_jparse *k, uint32_t type,
			       json_t *o, const struct location *loc)
{
	static const char *const keys[] = { "key", "data", NULL };
	struct expr *key, *data;
	json_t *m;

	if (json_is_string(o))
		return objref_alloc(loc, type,
				    symbol_expr_alloc(loc, json_string_value(o),
						      true));
	m = json_object_get(o, "map");
	if (json_object_size(o) != 1 || k->check_keys(k, m, "map", keys) < 0)
		return k->error(k, o, "%s: expected a name or { \"map\": ... }",
				obj_type_name(type)), NULL;
	if (!json_object_get(m, "key") || !json_object_get(m, "data"))
		return k->error(k, m, "%s: \"%s\" and \"%s\" are required",
				"map", "key", "data"), NULL;
	key = k->expr(k, json_object_get(m, "key"));
	data = key ? k->expr(k, json_object_get(m, "data")) : NULL;
	if (!data) {
		expr_free(key);
		return NULL;
	}
	return objref_alloc(loc, type, map_expr_alloc(loc, key, data));
}

/* {"ct helper"|"ct timeout"|"ct expectation": NAME or { "map": ... }},
   {"secmark": NAME or { "map": ... }} (as "meta secmark set") */
static struct stmt *objref_key_parse_json(struct kind_jparse *k,
					  const char *key, json_t *v,
					  const struct location *loc)
{
	uint32_t type;

	if (!strcmp(key, "secmark"))
		return objref_parse_json(k, NFT_OBJECT_SECMARK, v, loc);
	type = !strcmp(key, "ct helper") ? NFT_OBJECT_CT_HELPER :
	       !strcmp(key, "ct timeout") ? NFT_OBJECT_CT_TIMEOUT :
	       NFT_OBJECT_CT_EXPECT;
	if (!json_is_string(v) && !json_is_object(json_object_get(v, "map")))
		return k->error(k, v, "%s: expected a name or { \"map\": ... }",
				key), NULL;
	return objref_parse_json(k, type, v, loc);
}

static void objref_destroy(struct stmt *s)
{
	expr_free(s->objref.expr);
}

static const char *const objref_json_names[] = {
	"ct helper", "ct timeout", "ct expectation", "secmark", NULL,
};

/* no keyword of its own (the statements' words make it): no name */
static const struct stmt_ops objref_ops = {
	.nl_name	= "objref",
	.kind		= STMT_OBJREF,
	.eval		= objref_eval,
	.linearize	= objref_linearize,
	.delinearize	= objref_delinearize,
	.print		= objref_print,
	.json		= objref_json,
	.parse_json	= objref_key_parse_json,
	.destroy	= objref_destroy,
	.json_names	= objref_json_names,
};
STMT_OPS_REGISTER(objref_ops);
