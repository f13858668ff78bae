// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * JSON output in the schema of libnftables-json(5): the same walk as
 * print.c, over the same delinearized AST, building jansson values.
 *
 * Property order follows what nft 1.0.6 prints, so that output compares
 * equal byte for byte.  Whatever the AST holds that cannot be written in
 * the schema yet fails the listing with an error naming the rule, rather
 * than printing something that would load back as a different rule.
 */
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/netfilter/nf_nat.h>
#include <libnftnl/chain.h>
#include <libnftnl/object.h>
#include <libnftnl/rule.h>
#include <libnftnl/set.h>
#include <libnftnl/table.h>

#include <cache.h>
#include <ctx.h>
#include <flowtable.h>
#include <delinearize.h>
#include <json.h>
#include <inner.h>
#include <kind.h>
#include <print.h>
#include <proto.h>
#include <set.h>
#include <wire.h>
#include <counter.h>
#include <names.h>

/**
 * struct json_ctx - one listing being built
 * @family:	family of the table being walked (nat prints it in inet)
 * @what:	what failed, for the error message; NULL while all is well
 * @in_set:	depth inside set elements, where ranges print as nft lists
 *		them: a prefix where they are one, one value where it is one
 */
struct json_ctx {
	const struct output_ctx	*octx;
	unsigned int		family;
	const char		*what;
	unsigned int		in_set;	/* inside set elements */
	bool			mask_list; /* a mask compared with a value */
};

/*
 * A string from the kernel as JSON: jansson escapes quotes and control
 * bytes, and refuses bytes that are not UTF-8 (a name another tool made):
 * those are written as \xHH, so that the key is never lost.
 */
static json_t *json_str(const char *s)
{
	json_t *j = s ? json_string(s) : NULL;
	char *buf, *p;

	if (j || !s)
		return j;
	buf = p = xmalloc(strlen(s) * 4 + 1);
	for (; *s; s++)
		if ((unsigned char)*s >= 0x80)
			p += sprintf(p, "\\x%02x", (unsigned char)*s);
		else
			*p++ = *s;
	*p = '\0';
	j = json_string(buf);
	free(buf);
	return j;
}

static json_t *unsupported(struct json_ctx *jc, const char *what)
{
	if (!jc->what)
		jc->what = what;
	return NULL;
}

/* a NULL member marks the whole object as failed */
static json_t *obj_set(json_t *o, const char *key, json_t *v)
{
	return kind_json_set(o, key, v);
}

static json_t *wrap(const char *key, json_t *v)
{
	return kind_json_wrap(key, v);
}


static json_t *text_of(const struct expr *e, const struct output_ctx *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	json_t *s;

	if (!f)
		memory_allocation_error();
	datatype_print(e, o, f);
	fclose(f);
	/* strings and interface names print quoted in the text syntax */
	if (len >= 2 && buf[0] == '"' && buf[len - 1] == '"')
		s = json_stringn(buf + 1, len - 2);
	else
		s = json_string(buf);
	free(buf);
	return s;
}

static bool dtype_is(const struct datatype *dt, const struct datatype *base)
{
	for (; dt; dt = dt->basetype)
		if (dt == base)
			return true;
	return false;
}

static json_t *bitmask_json(const struct expr *e, const struct output_ctx *o)
{
	uint64_t v = expr_value_u64(e), done = 0;
	json_t *a = json_array();

	/* -n: the bits as numbers */
	for (unsigned int b = 0; (o->flags & NFH_OUTPUT_NUMERIC) && b < 64; b++)
		if (v & (1ULL << b))
			json_array_append_new(a, json_integer(1ULL << b));
	if (o->flags & NFH_OUTPUT_NUMERIC)
		done = v;
	/* bit by bit, from the lowest, by name or (without one) as a number,
	 * as nft writes them */
	for (unsigned int b = 0; b < 64; b++) {
		const struct symbol *s = symbol_by_value(e->dtype->symbols, 1ULL << b);

		if (!(v & ~done & (1ULL << b)))
			continue;
		if (s)
			json_array_append_new(a, json_string(s->name));
		else
			json_array_append_new(a, json_integer(1ULL << b));
	}
	if (json_array_size(a) == 1) {
		json_t *one = json_incref(json_array_get(a, 0));

		json_decref(a);
		return one;
	}
	if (json_array_size(a) == 0) {
		json_decref(a);
		return json_integer(0);
	}
	return a;
}

/* decimal or 0x hexadecimal digits, as integers print */
static bool is_number(const char *t)
{
	if (!strncmp(t, "0x", 2) && t[2])
		return strspn(t + 2, "0123456789abcdef") == strlen(t + 2);
	return *t && strspn(t, "0123456789") == strlen(t);
}

/*
 * Several flags as one value of a set, or as a mask, the way nft writes
 * them: "|" of two at a time, { "|": [ { "|": [ "fin", "syn" ] }, "rst" ] }
 */
static json_t *flags_or_json(const struct expr *e, const struct output_ctx *oc)
{
	json_t *a = bitmask_json(e, oc), *o;

	if (!json_is_array(a))
		return a;
	o = json_incref(json_array_get(a, 0));
	for (size_t i = 1; i < json_array_size(a); i++) {
		json_t *pair = json_array();

		json_array_append_new(pair, o);
		json_array_append(pair, json_array_get(a, i));
		o = wrap("|", pair);
	}
	json_decref(a);
	return o;
}

/* a typed constant: a symbol or a text form as a string, else a number */
static json_t *value_json(const struct expr *e, struct json_ctx *jc)
{
	const struct datatype *dt = e->dtype ? e->dtype : &integer_type;
	const struct symbol *sym;
	json_t *s;

	if ((dt->flags & DTYPE_F_BITMASK) && dt->symbols)
		return jc->in_set ? flags_or_json(e, jc->octx) : bitmask_json(e, jc->octx);
	if (dt == &time_type)		/* nft writes whole seconds */
		return json_integer(expr_value_u64(e) / 1000);
	if (dt == &boolean_type)	/* exists, missing */
		return json_boolean(!expr_value_is_zero(e));
	if (!(jc->octx->flags & NFH_OUTPUT_NUMERIC)) {
		for (const struct datatype *d = dt; d; d = d->basetype) {
			sym = symbol_by_value(d->symbols, expr_value_u64(e));
			if (sym)
				return json_string(sym->name);
		}
	}
	if (dt == &ct_label_type) {
		/* a label is its bit number, or its name from connlabel.conf */
		s = text_of(e, jc->octx);
		if (is_number(json_string_value(s))) {
			json_int_t bit = strtoll(json_string_value(s), NULL, 10);

			json_decref(s);
			return json_integer(bit);
		}
		return s;
	}
	/* nft writes realms, named in rt_realms or not, and cgroups, as
	   strings */
	if (dtype_is(dt, &string_type) || dtype_is(dt, &lladdr_type) ||
	    dt == &ipaddr_type || dt == &ip6addr_type || dt == &realm_type ||
	    dt == &cgroupv2_type || e->len > 64)
		return text_of(e, jc->octx);
	/*
	 * Anything else is a number unless its text form says otherwise
	 * ("1:2" class ids, "09:00" hours, protocol and interface names).
	 */
	s = text_of(e, jc->octx);
	if (is_number(json_string_value(s))) {
		json_decref(s);
		return json_integer(expr_value_u64(e));
	}
	return s;
}

static void value_minus_one(struct expr *v)
{
	be_dec(v->val.data, expr_value_bytes(v));
}

/*
 * A set element's range arrives with an exclusive end; written inclusive,
 * it may turn out a single value or a prefix, as the text listing shows it.
 * A range match outside a set prints as the range it is.
 */
static json_t *range_json(const struct expr *e, struct json_ctx *jc)
{
	struct expr lo = *e->range.left, hi = *e->range.right, r = *e;
	struct output_ctx ro = *jc->octx;
	struct json_ctx rj = *jc;
	unsigned int plen;
	json_t *a;

	if (lo.kind != EXPR_VALUE || hi.kind != EXPR_VALUE)
		return unsupported(jc, "a range of non-constant values");
	if (hi.flags & EXPR_F_INTERVAL_END)
		value_minus_one(&hi);
	if ((hi.flags & EXPR_F_INTERVAL_END) || jc->in_set) {
		if (!expr_value_cmp(&lo, &hi))
			return value_json(&lo, jc);
		r.range.left = &lo;
		r.range.right = &hi;
		if (range_is_wildcard(&r)) {
			lo.flags |= EXPR_F_WILDCARD;
			return value_json(&lo, jc);
		}
		if ((lo.dtype->flags & DTYPE_F_PREFIX) &&
		    range_is_prefix(&r, &plen))
			return wrap("prefix", obj_set(obj_set(json_object(), "addr",
							      value_json(&lo, jc)),
						      "len", json_integer(plen)));
	}
	/* nft -j -S writes a range's ports as numbers (user ids as names) */
	ro.flags &= ~NFH_OUTPUT_SERVICE;
	rj.octx = &ro;
	a = json_array();
	json_array_append_new(a, value_json(&lo, &rj));
	json_array_append_new(a, value_json(&hi, &rj));
	return wrap("range", a);
}

static json_t *verdict_json(const struct expr *e, struct json_ctx *jc)
{
	const char *name = verdict_name(e->verdict.verdict);

	if (e->verdict.chain)
		return wrap(name, wrap("target", json_str(e->verdict.chain)));
	return wrap(name, json_null());
}

static json_t *expr_json(const struct expr *e, struct json_ctx *jc);

static json_t *list_json(const struct expr *e, struct json_ctx *jc)
{
	const struct expr *i;
	json_t *a = json_array();

	list_for_each_entry(i, &e->set.exprs, list) {
		json_t *v = expr_json(i, jc);

		if (!v) {
			json_decref(a);
			return NULL;
		}
		json_array_append_new(a, v);
	}
	return a;
}

static json_t *stmt_json(const struct stmt *s, struct json_ctx *jc);

static json_t *elem_counter_json(json_t *o, const struct expr *e,
				 struct json_ctx *jc)
{
	return obj_set(o, "counter", counter_json_value(e->elem.packets,
							e->elem.bytes,
							jc->octx));
}

/*
 * an element with options; times in whole seconds, as nft writes them;
 * its own statements (quota, limit, ct count) each as a member named by
 * the statement, as nft 1.1.1 writes them
 */
static json_t *elem_json(const struct expr *e, struct json_ctx *jc)
{
	json_t *o = wrap("val", expr_json(e->elem.key, jc));
	const struct stmt *st;
	unsigned int p = 0;

	/* never: nft 1.1.1 writes UINT64_MAX ms in seconds (read back) */
	if (e->elem.timeout)
		o = obj_set(o, "timeout", json_integer(e->elem.timeout / 1000));
	if (e->elem.expires && !(jc->octx->flags & NFH_OUTPUT_STATELESS))
		o = obj_set(o, "expires", json_integer(e->elem.expires / 1000));
	if (e->elem.comment)
		o = obj_set(o, "comment", json_str(e->elem.comment));
	/* the counter in its place among them, as in the set's declaration */
	list_for_each_entry(st, &e->elem.stmts, list) {
		json_t *v;
		const char *key;
		json_t *val;

		if (e->elem.counter && p++ == e->elem.counter_at)
			o = elem_counter_json(o, e, jc);
		v = stmt_json(st, jc);
		if (!v) {
			json_decref(o);
			return NULL;
		}
		/* two of a kind share a name: nft 1.1.1 keeps the first */
		json_object_foreach(v, key, val)
			if (!json_object_get(o, key))
				o = obj_set(o, key, json_incref(val));
		json_decref(v);
	}
	if (e->elem.counter && p <= e->elem.counter_at)
		o = elem_counter_json(o, e, jc);
	return wrap("elem", o);
}

static const char *binop_name(enum ops op)
{
	switch (op) {
	case OP_AND:	return "&";
	case OP_OR:	return "|";
	case OP_XOR:	return "^";
	case OP_LSHIFT:	return "<<";
	case OP_RSHIFT:	return ">>";
	default:	return NULL;
	}
}

static json_t *kind_json_expr(struct kind_json *k, const struct expr *e)
{
	return expr_json(e, k->phase);
}

static json_t *register_value_json(const struct expr *e,
				   const struct datatype *dt,
				   enum byteorder bo, struct json_ctx *jc);

static json_t *kind_json_value(struct kind_json *k, const struct expr *v,
			       const struct datatype *dt, enum byteorder bo)
{
	return register_value_json(v, dt, bo, k->phase);
}

static json_t *kind_json_unsupported(struct kind_json *k, const char *what)
{
	return unsupported(k->phase, what);
}

static json_t *kind_json_stmt(struct kind_json *k, const struct stmt *s)
{
	struct json_ctx *jc = k->phase, ijc = *jc;
	json_t *v;

	ijc.octx = k->octx;
	v = stmt_json(s, &ijc);
	if (!v)
		jc->what = ijc.what;
	return v;
}

static json_t *kind_json_str(struct kind_json *k, const char *s)
{
	return json_str(s);
}

/* a statement JSON has no form of, as its text (nft: a chain binding) */
static char *kind_json_stmt_text(struct kind_json *k, const struct stmt *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		memory_allocation_error();
	stmt_print(s, k->octx, f);
	fclose(f);
	return buf;
}

#define KIND_JSON(jc) {							\
	.phase = (jc), .octx = (jc)->octx, .expr = kind_json_expr,	\
	.value = kind_json_value,					\
	.unsupported = kind_json_unsupported,				\
	.family = (jc)->family, .stmt = kind_json_stmt,			\
	.str = kind_json_str,						\
	.stmt_text = kind_json_stmt_text,				\
}

/* a kind known by its ops (include/kind.h) */
static json_t *kind_json(const struct expr *e, struct json_ctx *jc)
{
	struct kind_json k = KIND_JSON(jc);

	return e->ops->json(&k, e);
}

/* { "&": [ left, right ] }, a mask of flags as their names */
static json_t *binop_json(const struct expr *e, struct json_ctx *jc)
{
	json_t *a, *o;

	if (!binop_name(e->op.op))
		return unsupported(jc, "a binary operation");
	a = json_array();
	json_array_append_new(a, json_null());
	json_array_append_new(a, json_null());
	o = expr_json(e->op.left, jc);
	if (!o)
		goto fail;
	json_array_set_new(a, 0, o);
	if (e->op.right->kind == EXPR_VALUE && !jc->mask_list &&
	    (e->op.right->dtype->flags & DTYPE_F_BITMASK) &&
	    e->op.right->dtype->symbols)
		o = flags_or_json(e->op.right, jc->octx);
	else
		o = expr_json(e->op.right, jc);
	if (!o)
		goto fail;
	json_array_set_new(a, 1, o);
	return wrap(binop_name(e->op.op), a);
fail:
	json_decref(a);
	return NULL;
}

/* a map element: [ key, value ] */
static json_t *mapping_json(const struct expr *e, struct json_ctx *jc)
{
	json_t *a = json_array(), *o;

	o = expr_json(e->op.left, jc);
	if (!o)
		goto fail;
	json_array_append_new(a, o);
	o = expr_json(e->op.right, jc);
	if (!o)
		goto fail;
	json_array_append_new(a, o);
	return a;
fail:
	json_decref(a);
	return NULL;
}

static json_t *expr_json(const struct expr *e, struct json_ctx *jc)
{
	json_t *o;

	if (e->ops && e->ops->json)
		return kind_json(e, jc);
	switch (e->kind) {
	case EXPR_VALUE:
		return value_json(e, jc);
	case EXPR_SYMBOL:
		return json_string(e->sym.str);
	case EXPR_BINOP:
		return binop_json(e, jc);
	case EXPR_PREFIX:
		return wrap("prefix", obj_set(obj_set(json_object(), "addr",
						      expr_json(e->prefix.expr, jc)),
					      "len", json_integer(e->prefix.prefix_len)));
	case EXPR_RANGE:
		return range_json(e, jc);
	case EXPR_SET:
		jc->in_set++;
		o = wrap("set", list_json(e, jc));
		jc->in_set--;
		return o;
	case EXPR_LIST:
		return list_json(e, jc);
	case EXPR_CONCAT:
		return wrap("concat", list_json(e, jc));
	case EXPR_SET_REF: {
		char *ref = xasprintf("@%s", e->setref.name);

		o = json_str(ref);
		free(ref);
		return o;
	}
	case EXPR_VERDICT:
		return verdict_json(e, jc);
	case EXPR_MAP:
		return wrap("map", obj_set(obj_set(json_object(), "key",
						   expr_json(e->op.left, jc)),
					   "data", expr_json(e->op.right, jc)));
	case EXPR_MAPPING:
		return mapping_json(e, jc);
	case EXPR_SET_ELEM:
		return elem_json(e, jc);
	default:		return unsupported(jc, "this expression");
	}
}

static const char *relop_name(enum ops op)
{
	switch (op) {
	case OP_IMPLICIT:	return "in";	/* flags: any of these bits */
	case OP_EQ:		return "==";
	case OP_NEQ:		return "!=";
	case OP_LT:		return "<";
	case OP_GT:		return ">";
	case OP_LTE:		return "<=";
	case OP_GTE:		return ">=";
	case OP_NEG:		return "!";	/* flags: none of these bits */
	default:		return NULL;
	}
}

/*
 * Several flags compared exactly, as nft writes them: a number for a
 * header field, "|" of two at a time elsewhere (a list would be "any of");
 * NULL for anything else
 */
static json_t *exact_flags_json(const struct expr *rel, struct json_ctx *jc)
{
	const struct expr *l = rel->op.left, *r = rel->op.right;
	uint64_t v;

	if ((rel->op.op != OP_EQ && rel->op.op != OP_NEQ) ||
	    l->kind == EXPR_BINOP || r->kind != EXPR_VALUE ||
	    !(r->dtype->flags & DTYPE_F_BITMASK) || !r->dtype->symbols)
		return NULL;
	v = expr_value_u64(r);
	if (!(v & (v - 1)))
		return NULL;
	if (l->kind == EXPR_PAYLOAD ||
	    (inner_child(l) && inner_child(l)->kind == EXPR_PAYLOAD))
		return json_integer(v);
	return flags_or_json(r, jc->octx);
}

static json_t *match_json(const struct expr *rel, struct json_ctx *jc)
{
	json_t *o;

	if (rel->kind != EXPR_RELATIONAL || !relop_name(rel->op.op))
		return unsupported(jc, "a match");
	o = json_object();
	o = obj_set(o, "op", json_string(relop_name(rel->op.op)));
	/* nft lists the mask of "tcp flags syn / syn,ack" as a list */
	jc->mask_list = rel->op.right->kind == EXPR_VALUE &&
			!(rel->op.left->kind == EXPR_BINOP &&
			  inner_child(rel->op.left->op.left));
	o = obj_set(o, "left", expr_json(rel->op.left, jc));
	jc->mask_list = false;
	o = obj_set(o, "right", exact_flags_json(rel, jc) ?: expr_json(rel->op.right, jc));
	return wrap("match", o);
}




struct flag_name {
	uint32_t	flag;
	const char	*name;
};

/* the names of the flags of @names set in @flags, as an array */
static json_t *flag_names_json(uint32_t flags, const struct flag_name *names,
			       size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		if (flags & names[i].flag)
			json_array_append_new(a, json_string(names[i].name));
	return a;
}





/* a value that went through a register, typed as what it is written to */
static json_t *register_value_json(const struct expr *e,
				   const struct datatype *dt,
				   enum byteorder bo, struct json_ctx *jc)
{
	struct expr v;

	if (!e)
		return unsupported(jc, "a statement without its value");
	if (e->kind != EXPR_VALUE)
		return expr_json(e, jc);
	v = *e;
	if (bo == BYTEORDER_HOST && dt != &ifname_type && dt != &string_type)
		bytes_reverse(v.val.data, expr_value_bytes(&v));
	v.dtype = dt;
	return value_json(&v, jc);
}

static json_t *stmt_json(const struct stmt *s, struct json_ctx *jc);

/* a statement kind known by its ops (include/kind.h) */
static json_t *kind_stmt_json(const struct stmt *s, struct json_ctx *jc)
{
	struct kind_json k = KIND_JSON(jc);

	return s->ops->json(&k, s);
}

static json_t *stmt_json(const struct stmt *s, struct json_ctx *jc)
{
	if (s->ops && s->ops->json)
		return kind_stmt_json(s, jc);
	switch (s->kind) {
	case STMT_EXPRESSION:
		return match_json(s->expr, jc);
	case STMT_VERDICT:
		if (s->verdict.expr->kind == EXPR_MAP)
			return wrap("vmap", obj_set(obj_set(json_object(), "key",
					expr_json(s->verdict.expr->op.left, jc)),
				"data", expr_json(s->verdict.expr->op.right, jc)));
		return expr_json(s->verdict.expr, jc);
	default:
		return unsupported(jc, s->verdict.expr && s->verdict.expr->kind == EXPR_SYMBOL ?
				   s->verdict.expr->sym.str : "a statement");
	}
}

/* --- listings ----------------------------------------------------------- */

/* "ipv4_addr", or [ "ipv4_addr", "inet_service" ] for a concatenation */
static json_t *set_type_json(const struct expr *key)
{
	const struct expr *i;
	json_t *a;

	if (key->kind != EXPR_CONCAT)
		return json_string(key->dtype->name);
	a = json_array();
	list_for_each_entry(i, &key->set.exprs, list)
		json_array_append_new(a, json_string(i->dtype->name));
	return a;
}

/* nft writes a map's concatenated value type as one string */
static json_t *map_type_json(const struct expr *data)
{
	const struct expr *i;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	json_t *s;

	if (data->kind != EXPR_CONCAT)
		return json_string(data->dtype->name);
	f = open_memstream(&buf, &len);
	if (!f)
		memory_allocation_error();
	list_for_each_entry(i, &data->set.exprs, list)
		fprintf(f, "%s%s", i == list_first_entry(&data->set.exprs, struct expr, list) ?
			"" : " . ", i->dtype->name);
	fclose(f);
	s = json_string(buf);
	free(buf);
	return s;
}

static json_t *set_flags_json(uint32_t flags)
{
	/* "dynamic" as nft 1.1.1 lists it (nft 1.0.6 left it out, and
	   lost it on a JSON round trip) */
	static const struct flag_name names[] = {
		{ NFT_SET_CONSTANT, "constant" }, { NFT_SET_INTERVAL, "interval" },
		{ NFT_SET_TIMEOUT, "timeout" }, { NFT_SET_EVAL, "dynamic" },
	};
	json_t *a = flag_names_json(flags, names, array_size(names));

	if (!json_array_size(a)) {
		json_decref(a);
		return NULL;
	}
	return a;
}

/* a named set or map with its elements; NULL with jc->what set on failure */
/* a set's per-element statements: templates without values, as nft
   lists them; NULL if one cannot be listed */
static json_t *set_stmts_json(const struct set *s, struct json_ctx *jc)
{
	struct output_ctx so = *jc->octx;
	struct json_ctx sjc = *jc;
	const struct stmt *i;
	json_t *a = json_array();

	so.flags |= NFH_OUTPUT_STATELESS;
	sjc.octx = &so;
	list_for_each_entry(i, &s->stmts, list) {
		json_t *v = stmt_json(i, &sjc);

		if (!v) {
			jc->what = sjc.what;
			json_decref(a);
			return NULL;
		}
		json_array_append_new(a, v);
	}
	return a;
}

static json_t *set_json(const struct set *s, struct json_ctx *jc)
{
	json_t *o = json_object(), *flags;

	o = obj_set(o, "family", json_string(family_name(s->h.family)));
	o = obj_set(o, "name", json_string(s->h.set));
	o = obj_set(o, "table", json_string(s->h.table));
	o = obj_set(o, "type", set_type_json(s->key));
	o = obj_set(o, "handle", json_integer(s->h.handle));
	if (s->objtype)
		o = obj_set(o, "map", json_string(obj_type_name(s->objtype) ?
						  obj_type_name(s->objtype) :
						  "unknown"));
	else if (s->data)
		o = obj_set(o, "map", map_type_json(s->data));
	if (s->comment)
		o = obj_set(o, "comment", json_str(s->comment));
	if (s->policy == NFT_SET_POL_MEMORY)
		o = obj_set(o, "policy", json_string("memory"));
	/* a constant set's size is its element count, which nft does not show */
	if (s->size && !(s->flags & NFT_SET_CONSTANT))
		o = obj_set(o, "size", json_integer(s->size));
	flags = set_flags_json(s->flags);
	if (flags)
		o = obj_set(o, "flags", flags);
	if (s->timeout)
		o = obj_set(o, "timeout", json_integer(s->timeout / 1000));
	if (s->gc_int)
		o = obj_set(o, "gc-interval", json_integer(s->gc_int / 1000));
	/* nft 1.0.6 leaves it out, and loses it on a JSON round trip */
	if (s->automerge)
		o = obj_set(o, "auto-merge", json_true());
	if (s->init && !list_empty(&s->init->set.exprs) &&
	    !(jc->octx->flags & NFH_OUTPUT_TERSE)) {
		jc->in_set++;
		o = obj_set(o, "elem", list_json(s->init, jc));
		jc->in_set--;
	}
	if (!list_empty(&s->stmts)) {
		json_t *a = set_stmts_json(s, jc);

		if (!a) {
			json_decref(o);
			return NULL;
		}
		o = obj_set(o, "stmt", a);
	}
	return wrap(s->is_map ? "map" : "set", o);
}

/* the named sets of @t: all (-1), sets only (0) or maps only (1) */
/* a named set or map, NULL (an error queued) if it cannot be listed */
static json_t *kernel_set_json(struct cache_table *t, struct cache_set *cs,
			       const struct output_ctx *octx,
			       struct list_head *msgs)
{
	struct json_ctx jc = { .octx = octx,
			       .family = nftnl_set_get_u32(cs->nls, NFTNL_SET_FAMILY) };
	struct set *s = delin_set(t, cs, true);
	json_t *v = set_json(s, &jc);

	if (!v)
		error_queue(msgs, &internal_location,
			    "%s %s %s %s: %s cannot be written as JSON yet",
			    s->is_map ? "map" : "set", family_name(s->h.family),
			    s->h.table, s->h.set, jc.what ? jc.what : "an element");
	set_free(s);
	return v;
}

static void comment_json(json_t *o, const void *ud, const uint32_t *len);

/*
 * a named object as nft 1.0.6 writes it: {"counter": {...}}; its values
 * print even with -s, as nft's do
 */
static json_t *obj_json(struct nftnl_obj *n, const char *table)
{
	uint32_t type = nftnl_obj_get_u32(n, NFTNL_OBJ_TYPE), len = 0;
	const struct obj_ops *ops = obj_ops_by_type(type);
	const char *tname = obj_type_name(type);
	json_t *o = json_object();

	json_object_set_new(o, "family",
			    json_string(family_name(nftnl_obj_get_u32(n, NFTNL_OBJ_FAMILY))));
	json_object_set_new(o, "name", json_str(nftnl_obj_get_str(n, NFTNL_OBJ_NAME)));
	json_object_set_new(o, "table", json_str(table));
	json_object_set_new(o, "handle", json_integer(nftnl_obj_get_u64(n, NFTNL_OBJ_HANDLE)));
	comment_json(o, nftnl_obj_is_set(n, NFTNL_OBJ_USERDATA) ?
		     nftnl_obj_get_data(n, NFTNL_OBJ_USERDATA, &len) : NULL, &len);
	if (ops && ops->json) {
		/* an object has no sub-expressions: no phase, no callbacks */
		struct kind_json k = { .phase = NULL };

		ops->json(&k, o, n);
	}
	return wrap(tname ? tname : "unknown", o);
}

/* whether an object's event carries its values (its type's attributes,
   NFTNL_OBJ_BASE on, or its comment) and not just what names it */
static bool obj_event_has_data(const struct nftnl_obj *n)
{
	uint16_t a;

	if (nftnl_obj_is_set(n, NFTNL_OBJ_USERDATA))
		return true;
	for (a = NFTNL_OBJ_BASE; a < 32; a++)
		if (nftnl_obj_is_set(n, a))
			return true;
	return false;
}

/* a deleted object: what names it, as a deleted set */
static json_t *obj_deleted_json(struct nftnl_obj *n)
{
	const char *tname = obj_type_name(nftnl_obj_get_u32(n, NFTNL_OBJ_TYPE));
	json_t *o = json_object();

	json_object_set_new(o, "family",
			    json_string(family_name(nftnl_obj_get_u32(n, NFTNL_OBJ_FAMILY))));
	json_object_set_new(o, "name", json_string(nftnl_obj_get_str(n, NFTNL_OBJ_NAME)));
	json_object_set_new(o, "table", json_string(nftnl_obj_get_str(n, NFTNL_OBJ_TABLE)));
	json_object_set_new(o, "handle", json_integer(nftnl_obj_get_u64(n, NFTNL_OBJ_HANDLE)));
	return wrap(tname ? tname : "unknown", o);
}

/* the objects of @t: of one @type (0: all), the one @name if not NULL */
static json_t *metainfo_json(void)
{
	json_t *m = json_object();

	json_object_set_new(m, "version", json_string(PACKAGE_VERSION));
	json_object_set_new(m, "release_name", json_string("nfhook"));
	json_object_set_new(m, "json_schema_version", json_integer(1));
	return wrap("metainfo", m);
}

/*
 * nft 1.0.6 leaves table and chain comments out of its JSON, so they would
 * not survive a JSON round trip; later nft prints them, and so do we.
 */
static void comment_json(json_t *o, const void *ud, const uint32_t *len)
{
	char *cm = ud ? udata_get_comment(ud, *len) : NULL;

	if (cm)
		json_object_set_new(o, "comment", json_str(cm));
	free(cm);
}

static json_t *table_json(struct nftnl_table *t)
{
	unsigned int family = nftnl_table_get_u32(t, NFTNL_TABLE_FAMILY);
	json_t *o = json_object();
	uint32_t len = 0;

	json_object_set_new(o, "family", json_string(family_name(family)));
	json_object_set_new(o, "name", json_str(nftnl_table_get_str(t, NFTNL_TABLE_NAME)));
	json_object_set_new(o, "handle",
			    json_integer(nftnl_table_get_u64(t, NFTNL_TABLE_HANDLE)));
	comment_json(o, nftnl_table_is_set(t, NFTNL_TABLE_USERDATA) ?
		     nftnl_table_get_data(t, NFTNL_TABLE_USERDATA, &len) : NULL, &len);
	/*
	 * nft 1.0.6 prints garbage here (freed memory); the schema wants the
	 * flag names, one as a string, more as an array.
	 */
	if (nftnl_table_is_set(t, NFTNL_TABLE_FLAGS)) {
		uint32_t fl = nftnl_table_get_u32(t, NFTNL_TABLE_FLAGS);

		if ((fl & NFT_TABLE_F_DORMANT) && (fl & TABLE_F_PERSIST)) {
			json_t *a = json_array();

			json_array_append_new(a, json_string("dormant"));
			json_array_append_new(a, json_string("persist"));
			json_object_set_new(o, "flags", a);
		} else if (fl & (NFT_TABLE_F_DORMANT | TABLE_F_PERSIST)) {
			json_object_set_new(o, "flags", json_string(
				fl & NFT_TABLE_F_DORMANT ? "dormant" : "persist"));
		}
	}
	return wrap("table", o);
}

static json_t *chain_devices_json(struct nftnl_chain *c)
{
	if (nftnl_chain_is_set(c, NFTNL_CHAIN_DEVICES)) {
		const char **devs = nl_chain_devs_sorted(c);	/* as nft */
		json_t *a = json_array();

		for (unsigned int i = 0; devs[i]; i++)
			json_array_append_new(a, json_string(devs[i]));
		free(devs);
		if (json_array_size(a) == 0) {
			json_decref(a);	/* all removed (nft 1.1): none */
			return NULL;
		}
		if (json_array_size(a) == 1) {
			json_t *one = json_incref(json_array_get(a, 0));

			json_decref(a);
			return one;
		}
		return a;
	}
	if (nftnl_chain_is_set(c, NFTNL_CHAIN_DEV))
		return json_str(nftnl_chain_get_str(c, NFTNL_CHAIN_DEV));
	return NULL;
}

static json_t *chain_json(struct nftnl_chain *c, const char *table)
{
	unsigned int family = nftnl_chain_get_u32(c, NFTNL_CHAIN_FAMILY);
	json_t *o = json_object(), *dev;
	uint32_t len = 0;

	json_object_set_new(o, "family", json_string(family_name(family)));
	json_object_set_new(o, "table", json_str(table));
	json_object_set_new(o, "name", json_str(nftnl_chain_get_str(c, NFTNL_CHAIN_NAME)));
	json_object_set_new(o, "handle",
			    json_integer(nftnl_chain_get_u64(c, NFTNL_CHAIN_HANDLE)));
	comment_json(o, nftnl_chain_is_set(c, NFTNL_CHAIN_USERDATA) ?
		     nftnl_chain_get_data(c, NFTNL_CHAIN_USERDATA, &len) : NULL, &len);
	if (nftnl_chain_is_set(c, NFTNL_CHAIN_HOOKNUM)) {
		unsigned int hook = nftnl_chain_get_u32(c, NFTNL_CHAIN_HOOKNUM);

		json_object_set_new(o, "type",
				    json_string(nftnl_chain_get_str(c, NFTNL_CHAIN_TYPE)));
		json_object_set_new(o, "hook", json_string(hook_name(family, hook)));
		json_object_set_new(o, "prio",
				    json_integer(nftnl_chain_get_s32(c, NFTNL_CHAIN_PRIO)));
		json_object_set_new(o, "policy", json_string(
			nftnl_chain_get_u32(c, NFTNL_CHAIN_POLICY) == NF_DROP ?
			"drop" : "accept"));
		/*
		 * nft 1.0.6 leaves the devices out of listed chains, so its
		 * JSON cannot load a netdev chain back; later nft prints them
		 * here, and so do we.
		 */
		dev = chain_devices_json(c);
		if (dev)
			json_object_set_new(o, "dev", dev);
	}
	return wrap("chain", o);
}

/* a rule object, or NULL with an error queued for what cannot be written */
static json_t *rule_json(struct cache_table *t, struct nftnl_rule *nlr,
			 const struct output_ctx *octx, struct list_head *msgs)
{
	unsigned int family = nftnl_rule_get_u32(nlr, NFTNL_RULE_FAMILY);
	const char *table = nftnl_rule_get_str(nlr, NFTNL_RULE_TABLE);
	const char *chain = nftnl_rule_get_str(nlr, NFTNL_RULE_CHAIN);
	struct json_ctx jc = { .octx = octx, .family = family };
	struct rule *r = delin_rule(t, nlr);
	json_t *o = json_object(), *exprs = json_array();
	const struct stmt *s;

	json_object_set_new(o, "family", json_string(family_name(family)));
	json_object_set_new(o, "table", json_str(table));
	json_object_set_new(o, "chain", json_str(chain));
	json_object_set_new(o, "handle", json_integer(r->h.handle));
	if (r->comment)
		json_object_set_new(o, "comment", json_str(r->comment));
	list_for_each_entry(s, &r->stmts, list) {
		json_t *v = stmt_json(s, &jc);

		if (!v)
			break;
		json_array_append_new(exprs, v);
	}
	json_object_set_new(o, "expr", exprs);
	if (jc.what) {
		json_decref(o);
		error_queue(msgs, &internal_location,
			    "rule %llu in chain %s %s %s: %s cannot be written as JSON yet",
			    (unsigned long long)r->h.handle, family_name(family),
			    table, chain, jc.what);
		rule_free(r);
		return NULL;
	}
	rule_free(r);
	return wrap("rule", o);
}

/* --- the JSON emitter of the listing walker (listing.c) ----------------- */

/* one array of objects, as nft orders them: a table, its objects, sets
   and chains, then the rules of its chains */
struct json_listing {
	const struct output_ctx	*o;
	struct list_head	*msgs;
	json_t			*out;
	json_t			*rules;		/* of the table being listed */
};

static void json_table_name(void *d, struct cache_table *t)
{
	struct json_listing *jl = d;

	json_array_append_new(jl->out, table_json(t->nlt));
}

/* list chain(s), sets and objects have no table object */
static void json_table_begin(void *d, struct cache_table *t,
			     enum list_what what)
{
	struct json_listing *jl = d;

	if (what == LIST_RULESET || what == LIST_TABLE)
		json_array_append_new(jl->out, table_json(t->nlt));
}

static int json_table_end(void *d, struct cache_table *t, enum list_what what)
{
	struct json_listing *jl = d;

	json_array_extend(jl->out, jl->rules);
	json_array_clear(jl->rules);
	return 0;
}

static void json_obj(void *d, struct cache_table *t, struct cache_obj *co,
		     enum list_what what, unsigned int n)
{
	struct json_listing *jl = d;

	json_array_append_new(jl->out, obj_json(co->nlo,
			      nftnl_table_get_str(t->nlt, NFTNL_TABLE_NAME)));
}

static int json_set(void *d, struct cache_table *t, struct cache_set *cs,
		    enum list_what what, unsigned int n)
{
	struct json_listing *jl = d;
	json_t *v = kernel_set_json(t, cs, jl->o, jl->msgs);

	if (!v)
		return -1;
	if (what == LIST_METERS || what == LIST_METER) {
		/* { "meter": { ... } }, the set's members */
		json_t *m = json_object_get(v, "set");

		json_incref(m);
		json_decref(v);
		v = wrap("meter", m);
	}
	json_array_append_new(jl->out, v);
	return 0;
}

static void json_chain_begin(void *d, struct cache_table *t,
			     struct cache_chain *ch, enum list_what what,
			     unsigned int n, bool rules)
{
	struct json_listing *jl = d;

	json_array_append_new(jl->out, chain_json(ch->nlc,
			      nftnl_table_get_str(t->nlt, NFTNL_TABLE_NAME)));
}

static int json_rule(void *d, struct cache_table *t, struct cache_chain *ch,
		     struct cache_rule *cr)
{
	struct json_listing *jl = d;
	json_t *r = rule_json(t, cr->nlr, jl->o, jl->msgs);

	if (!r)
		return -1;
	json_array_append_new(jl->rules, r);
	return 0;
}

static void json_chain_end(void *d, struct cache_table *t,
			   struct cache_chain *ch, bool rules)
{
}

static void json_flowtable(void *d, struct cache_table *t,
			   struct cache_flowtable *cf, enum list_what what,
			   unsigned int n)
{
	struct json_listing *jl = d;

	json_array_append_new(jl->out, flowtable_json(cf->nlf));
}

static const struct listing_emitter json_emitter = {
	.table_name	= json_table_name,
	.table_begin	= json_table_begin,
	.table_end	= json_table_end,
	.obj		= json_obj,
	.set		= json_set,
	.chain_begin	= json_chain_begin,
	.rule		= json_rule,
	.chain_end	= json_chain_end,
	.flowtable	= json_flowtable,
};

/* { "nftables": [ metainfo, ... ] } on @f, unless the walk gave @ret < 0
   (nothing half-written: the errors say what is missing) */
static int json_listing_end(struct json_listing *jl, int ret, FILE *f)
{
	json_t *root;

	json_decref(jl->rules);
	if (ret < 0) {
		json_decref(jl->out);
		return ret;
	}
	root = wrap("nftables", jl->out);
	json_dumpf(root, f, 0);
	fputc('\n', f);
	json_decref(root);
	return 0;
}

int json_listing(struct cache *c, enum list_what what, unsigned int family,
		 const char *table, const char *chain,
		 const struct output_ctx *o, FILE *f, struct list_head *msgs)
{
	struct json_listing jl = {
		.o = o, .msgs = msgs, .out = json_array(), .rules = json_array(),
	};

	json_array_append_new(jl.out, metainfo_json());
	return json_listing_end(&jl, listing_walk(c, what, family, table, chain,
						  &json_emitter, &jl), f);
}

int json_objs(struct cache *c, unsigned int family, const char *table,
	      uint32_t type, const char *name, FILE *f)
{
	struct json_listing jl = {
		.out = json_array(), .rules = json_array(),
	};

	json_array_append_new(jl.out, metainfo_json());
	return json_listing_end(&jl, listing_walk_objs(c, family, table, type,
						       name, &json_emitter, &jl),
				f);
}

/* a deleted set that a kernel names alone (table, name and handle: 6.18;
   6.12 announces it whole, src/monitor.c prints that as an added one) */
static json_t *set_deleted_json(struct nftnl_set *s)
{
	const struct datatype *dt = nftnl_set_is_set(s, NFTNL_SET_KEY_TYPE) ?
		datatype_lookup(nftnl_set_get_u32(s, NFTNL_SET_KEY_TYPE)) : NULL;
	json_t *o = json_object();

	json_object_set_new(o, "family",
			    json_string(family_name(nftnl_set_get_u32(s, NFTNL_SET_FAMILY))));
	json_object_set_new(o, "name", json_str(nftnl_set_get_str(s, NFTNL_SET_NAME)));
	json_object_set_new(o, "table", json_str(nftnl_set_get_str(s, NFTNL_SET_TABLE)));
	json_object_set_new(o, "type", json_string(dt ? dt->name : "invalid"));
	json_object_set_new(o, "handle",
			    json_integer(nftnl_set_get_u64(s, NFTNL_SET_HANDLE)));
	return wrap("set", o);
}

int json_monitor_event(enum mon_op op, enum nl_obj type, void *obj,
		       struct cache_table *t, const struct output_ctx *o,
		       FILE *f, struct list_head *msgs)
{
	static const char *const ops[] = {
		[MON_OP_DELETE] = "delete", [MON_OP_ADD] = "add",
		[MON_OP_INSERT] = "insert",
	};
	json_t *v;

	switch (type) {
	case NLO_TABLE:
		v = table_json(obj);
		break;
	case NLO_CHAIN:
		v = chain_json(obj, nftnl_chain_get_str(obj, NFTNL_CHAIN_TABLE));
		break;
	case NLO_RULE:
		v = rule_json(t, obj, o, msgs);
		if (!v)
			return -1;
		break;
	case NLO_SET:
		v = set_deleted_json(obj);
		break;
	case NLO_OBJ:
		/* a deleted object comes with its name alone from Linux
		   6.18, whole from 6.12: then nft prints it whole */
		if (op == MON_OP_DELETE && !obj_event_has_data(obj))
			v = obj_deleted_json(obj);
		else
			v = obj_json(obj, nftnl_obj_get_str(obj, NFTNL_OBJ_TABLE));
		break;
	case NLO_FLOWTABLE:
		v = flowtable_event_json(op != MON_OP_DELETE, obj);
		break;
	default:
		return 0;
	}
	v = wrap(ops[op], v);
	json_dumpf(v, f, 0);
	fputc('\n', f);
	json_decref(v);
	return 0;
}

/* {"add": {"set": {...}}}, without elements: they follow as their own
   events; {"delete": ...} for a deleted set a kernel announces whole */
void json_monitor_set(bool add, const struct set *s,
		      const struct output_ctx *o, FILE *f)
{
	struct json_ctx jc = { .octx = o, .family = s->h.family };
	json_t *v = set_json(s, &jc);

	v = wrap(add ? "add" : "delete", v);
	if (!v)
		return;
	json_dumpf(v, f, 0);
	fputc('\n', f);
	json_decref(v);
}

/* {"add": {"element": {"family", "table", "name", "elem": {"set": [E]}}}} */
int json_monitor_elem(bool add, const struct set *s, const struct expr *elem,
		      const struct output_ctx *o, FILE *f, struct list_head *msgs)
{
	struct json_ctx jc = { .octx = o, .family = s->h.family, .in_set = 1 };
	json_t *v = json_object(), *a = json_array(), *e = expr_json(elem, &jc);

	if (!e) {
		json_decref(v);
		json_decref(a);
		return error_queue(msgs, &internal_location,
				   "an element of set %s %s %s: %s cannot be written as JSON yet",
				   family_name(s->h.family), s->h.table, s->h.set,
				   jc.what ? jc.what : "it");
	}
	json_array_append_new(a, e);
	json_object_set_new(v, "family", json_string(family_name(s->h.family)));
	json_object_set_new(v, "table", json_string(s->h.table));
	json_object_set_new(v, "name", json_string(s->h.set));
	json_object_set_new(v, "elem", wrap("set", a));
	v = wrap(add ? "add" : "delete", wrap("element", v));
	json_dumpf(v, f, 0);
	fputc('\n', f);
	json_decref(v);
	return 0;
}
