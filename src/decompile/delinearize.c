// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Delinearization: libnftnl expressions -> statements, then the clean-up
 * that turns "payload load 2b @ transport header + 2" back into
 * "tcp dport" and drops the dependencies nft adds implicitly.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/if_arp.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/netfilter/nf_nat.h>
#include <libnftnl/expr.h>
#include <libnftnl/rule.h>
#include <libnftnl/set.h>
#include <libnftnl/table.h>
#include <libnftnl/udata.h>

#include <cache.h>
#include <delinearize.h>
#include <kind.h>
#include <bitwise.h>
#include <inner.h>
#include <elemdump.h>
#include <elems.h>
#include <protoctx.h>
#include <print.h>
#include <payload.h>
#include <proto.h>
#include <set.h>
#include <wire.h>
#include <binding.h>
#include <catchall.h>
#include <exthdr.h>
#include <fib.h>

#define NREGS	(NFT_REG32_15 + 1)

struct delin_ctx {
	struct cache_table	*table;
	bool			in_binding;	/* a chain binding's rule */
	struct rule		*rule;
	unsigned int		family;
	struct expr		*regs[NREGS];
	bool			hton[NREGS];
	bool			cmp_read[NREGS];	/* a cmp read it since set */
};

static void reg_set(struct delin_ctx *ctx, uint32_t reg, struct expr *e)
{
	unsigned int i = reg_index(reg);

	expr_free(ctx->regs[i]);
	ctx->regs[i] = e;
	ctx->hton[i] = false;
	ctx->cmp_read[i] = false;
}

static struct expr *reg_get(struct delin_ctx *ctx, uint32_t reg)
{
	struct expr *e = ctx->regs[reg_index(reg)];

	return e ? expr_clone(e) : NULL;
}

static void add_stmt(struct delin_ctx *ctx, struct stmt *s)
{
	list_add_tail(&s->list, &ctx->rule->stmts);
}

static void type_value(struct expr *v, const struct datatype *dt,
		       enum byteorder bo, unsigned int len);

/* an object map's value: the object's name */
static struct expr *objref_value(const char *name)
{
	size_t n = strnlen(name, NFH_VAL_MAXLEN - 1);
	struct expr *v = constant_expr_alloc(&internal_location, &objref_type,
					     BYTEORDER_HOST, objref_type.size,
					     NULL);

	memcpy(v->val.data, name, n);
	return v;
}

static struct expr *raw_value(const void *data, uint32_t len)
{
	struct expr *v;

	if (!data)	/* a reply may lack the attribute */
		len = 0;
	if (len > NFH_VAL_MAXLEN)
		len = NFH_VAL_MAXLEN;
	v = constant_expr_alloc(&internal_location, &integer_type,
				BYTEORDER_BIG, len * 8, NULL);
	if (len)
		memcpy(v->val.data, data, len);
	return v;
}

static void unsupported(struct delin_ctx *ctx, const char *name)
{
	struct stmt *s = stmt_alloc(&internal_location, STMT_INVALID);

	s->verdict.expr = symbol_expr_alloc(&internal_location, name, false);
	add_stmt(ctx, s);
}

static void kind_reg_set(struct kind_delin *k, uint32_t reg, struct expr *e)
{
	reg_set(k->phase, reg, e);
}

static struct expr *kind_reg_get(struct kind_delin *k, uint32_t reg)
{
	return reg_get(k->phase, reg);
}

static void kind_unsupported(struct kind_delin *k, const char *name)
{
	unsupported(k->phase, name);
}

static void kind_add_stmt(struct kind_delin *k, struct stmt *s)
{
	add_stmt(k->phase, s);
}

static const struct nftnl_set *kind_set(struct kind_delin *k, const char *name,
				       bool has_id, uint32_t id);
static struct expr *kind_map(struct kind_delin *k, uint32_t sreg,
			     const struct nftnl_set *nls);
static struct expr *kind_map_data(struct kind_delin *k, uint32_t sreg,
				  const struct nftnl_set *nls);
static struct cache_set *lookup_set(struct delin_ctx *ctx, const char *name,
				    bool has_id, uint32_t id);

static struct expr *rule_key_of(const struct delin_ctx *ctx, uint32_t sreg,
				const struct nftnl_set *nls);
static struct expr *lookup_lhs(struct delin_ctx *ctx, uint32_t sreg,
			       const struct expr *key);

static void type_value(struct expr *v, const struct datatype *dt,
		       enum byteorder bo, unsigned int len);

/* the constants of concatenation @c, values of the types of @types' parts */
static void concat_type_values(struct expr *c, const struct expr *types)
{
	const struct expr *t = list_first_entry(&types->set.exprs, struct expr,
						list);
	struct expr *i;

	list_for_each_entry(i, &c->set.exprs, list) {
		if (&t->list == &types->set.exprs)
			break;
		if (i->kind == EXPR_VALUE)
			type_value(i, t->dtype, t->byteorder, t->len);
		t = list_next_entry(t, list);
	}
}

static struct expr *kind_set_key(struct kind_delin *k, uint32_t sreg,
				 const struct nftnl_set *nls)
{
	struct expr *key = rule_key_of(k->phase, sreg, nls), *l;

	l = lookup_lhs(k->phase, sreg, key);
	/* constants in the key (add @s { ip saddr . 22 }): the set's types */
	if (l && l->kind == EXPR_VALUE && key->kind != EXPR_CONCAT)
		type_value(l, key->dtype, key->byteorder, key->len);
	else if (l && l->kind == EXPR_CONCAT && key->kind == EXPR_CONCAT)
		concat_type_values(l, key);
	expr_free(key);
	return l;
}

static void delin_stmt_expr(struct delin_ctx *ctx, struct nftnl_expr *e);

static int inner_expr_cb(struct nftnl_expr *e, void *data)
{
	delin_stmt_expr(data, e);
	return 0;
}

static void kind_inner(struct kind_delin *k, const struct nftnl_expr *nle,
		       struct list_head *stmts)
{
	struct delin_ctx *ctx = k->phase;
	struct rule *saved = ctx->rule, *tmp = rule_alloc(&internal_location);

	ctx->rule = tmp;
	nftnl_expr_expr_foreach((struct nftnl_expr *)nle, inner_expr_cb, ctx);
	ctx->rule = saved;
	list_splice_tail_init(&tmp->stmts, stmts);
	rule_free(tmp);
}

static void kind_load(struct kind_delin *k, const struct nftnl_expr *nle)
{
	delin_stmt_expr(k->phase, (struct nftnl_expr *)nle);
}

static void kind_type_value(struct kind_delin *k, struct expr *v,
			    const struct datatype *dt, enum byteorder bo,
			    unsigned int len)
{
	type_value(v, dt, bo, len);
}

static void kind_type_rhs(struct kind_delin *k, struct expr *r,
			  const struct expr *lhs);

#define KIND_DELIN(ctx) {						\
	.phase = (ctx), .family = (ctx)->family, .reg_set = kind_reg_set,	\
	.reg_get = kind_reg_get, .unsupported = kind_unsupported,	\
	.add_stmt = kind_add_stmt, .set = kind_set, .map = kind_map,	\
	.set_key = kind_set_key, .inner = kind_inner,			\
	.map_data = kind_map_data,					\
	.type_value = kind_type_value, .load = kind_load,		\
	.type_rhs = kind_type_rhs,					\
}

/* a kind known by its ops (include/kind.h) */
static void kind_delinearize(struct delin_ctx *ctx, const struct expr_ops *ops,
			     const struct nftnl_expr *e)
{
	struct kind_delin k = KIND_DELIN(ctx);

	ops->delinearize(&k, e);
}

static void kind_delin_stmt(struct delin_ctx *ctx, const struct stmt_ops *ops,
			    const struct nftnl_expr *e)
{
	struct kind_delin k = KIND_DELIN(ctx);

	ops->delinearize(&k, e);
}

/* the shift of a bitwise with an operation: "meta mark << 8" */
static void delin_shift(struct delin_ctx *ctx, struct nftnl_expr *e,
			struct expr *l, uint32_t op)
{
	uint32_t dlen, n;
	const void *data = nftnl_expr_get(e, NFTNL_EXPR_BITWISE_DATA, &dlen);

	if (!l || !data || dlen != sizeof(n) ||
	    (op != NFT_BITWISE_LSHIFT && op != NFT_BITWISE_RSHIFT)) {
		expr_free(l);
		unsupported(ctx, "bitwise");
		return;
	}
	memcpy(&n, data, sizeof(n));
	reg_set(ctx, nftnl_expr_get_u32(e, NFTNL_EXPR_BITWISE_DREG),
		binop_expr_alloc(&internal_location,
				 op == NFT_BITWISE_LSHIFT ? OP_LSHIFT : OP_RSHIFT, l,
				 constant_expr_u64(&internal_location, &integer_type,
						   BYTEORDER_HOST, 32, n)));
}

static bool all_bytes(const uint8_t *p, uint32_t len, uint8_t v)
{
	for (uint32_t i = 0; i < len; i++)
		if (p[i] != v)
			return false;
	return true;
}

/*
 * "(x & mask) ^ xor" as nft lists it: "x & a ^ b | c", each part only when
 * it does something.  c are the bits set whatever x is (out of the mask,
 * in xor), b the bits of x flipped, a what is kept of x, c included.
 */
static void delin_bitwise(struct delin_ctx *ctx, struct nftnl_expr *e)
{
	uint32_t sreg = nftnl_expr_get_u32(e, NFTNL_EXPR_BITWISE_SREG);
	uint32_t len, xlen, sreg2;
	const uint8_t *mask = nftnl_expr_get(e, NFTNL_EXPR_BITWISE_MASK, &len);
	const uint8_t *xor = nftnl_expr_get(e, NFTNL_EXPR_BITWISE_XOR, &xlen);
	uint8_t a[NFH_VAL_MAXLEN], b[NFH_VAL_MAXLEN], c[NFH_VAL_MAXLEN];
	struct expr *l = reg_get(ctx, sreg), *r;
	enum ops op;

	/* "ct mark | meta mark": the kernel's bitwise of two registers */
	if (bitwise_pair_get(e, &op, &sreg2)) {
		r = reg_get(ctx, sreg2);
		if (!l || !r) {
			expr_free(l);
			expr_free(r);
			unsupported(ctx, "bitwise");
			return;
		}
		reg_set(ctx, nftnl_expr_get_u32(e, NFTNL_EXPR_BITWISE_DREG),
			binop_expr_alloc(&internal_location, op, l, r));
		return;
	}
	if (nftnl_expr_is_set(e, NFTNL_EXPR_BITWISE_OP) &&
	    nftnl_expr_get_u32(e, NFTNL_EXPR_BITWISE_OP) != NFT_BITWISE_BOOL) {
		delin_shift(ctx, e, l, nftnl_expr_get_u32(e, NFTNL_EXPR_BITWISE_OP));
		return;
	}
	if (!l || !mask || !xor || len != xlen || len > NFH_VAL_MAXLEN) {
		expr_free(l);
		unsupported(ctx, "bitwise");
		return;
	}
	for (uint32_t i = 0; i < len; i++) {
		c[i] = xor[i] & (uint8_t)~mask[i];
		b[i] = xor[i] & mask[i];
		a[i] = mask[i] | c[i];
	}
	/* a mask of all ones is no mask: nft lists "meta cpu & 4294967295 3"
	 * as "meta cpu 3"; but "ct secmark 3" loads back nowhere, not even
	 * in nft (a constant secmark is refused), so that mask stays */
	if (!all_bytes(a, len, 0xff) ||
	    (l && l->kind == EXPR_CT && l->ct.key == NFT_CT_SECMARK &&
	     all_bytes(b, len, 0) && all_bytes(c, len, 0)))
		l = binop_expr_alloc(&internal_location, OP_AND, l, raw_value(a, len));
	if (!all_bytes(b, len, 0))
		l = binop_expr_alloc(&internal_location, OP_XOR, l, raw_value(b, len));
	if (!all_bytes(c, len, 0))
		l = binop_expr_alloc(&internal_location, OP_OR, l, raw_value(c, len));
	reg_set(ctx, nftnl_expr_get_u32(e, NFTNL_EXPR_BITWISE_DREG), l);
}

static enum ops op_from_cmp(uint32_t op)
{
	switch (op) {
	case NFT_CMP_NEQ:	return OP_NEQ;
	case NFT_CMP_LT:	return OP_LT;
	case NFT_CMP_LTE:	return OP_LTE;
	case NFT_CMP_GT:	return OP_GT;
	case NFT_CMP_GTE:	return OP_GTE;
	default:		return OP_EQ;
	}
}

static void delin_cmp(struct delin_ctx *ctx, struct nftnl_expr *e)
{
	uint32_t sreg = nftnl_expr_get_u32(e, NFTNL_EXPR_CMP_SREG), len;
	const void *data = nftnl_expr_get(e, NFTNL_EXPR_CMP_DATA, &len);
	struct expr *l = reg_get(ctx, sreg), *r;

	if (!l) {
		unsupported(ctx, "cmp");
		return;
	}
	r = raw_value(data, len);
	if (ctx->hton[reg_index(sreg)])
		r->flags |= EXPR_F_BOOLEAN;	/* marks: data is big endian */
	r = relational_expr_alloc(&internal_location,
				  op_from_cmp(nftnl_expr_get_u32(e, NFTNL_EXPR_CMP_OP)),
				  l, r);
	if (ctx->hton[reg_index(sreg)])
		r->flags |= EXPR_F_HTON;
	if (ctx->cmp_read[reg_index(sreg)])
		r->flags |= EXPR_F_REG_AGAIN;
	ctx->cmp_read[reg_index(sreg)] = true;
	add_stmt(ctx, match_stmt_alloc(&internal_location, r));
}

static void delin_range(struct delin_ctx *ctx, struct nftnl_expr *e)
{
	uint32_t sreg = nftnl_expr_get_u32(e, NFTNL_EXPR_RANGE_SREG), l1, l2;
	const void *from = nftnl_expr_get(e, NFTNL_EXPR_RANGE_FROM_DATA, &l1);
	const void *to = nftnl_expr_get(e, NFTNL_EXPR_RANGE_TO_DATA, &l2);
	struct expr *l = reg_get(ctx, sreg), *r;

	if (!l) {
		unsupported(ctx, "range");
		return;
	}
	r = range_expr_alloc(&internal_location, raw_value(from, l1),
			     raw_value(to, l2));
	if (ctx->hton[reg_index(sreg)]) {
		/* as in delin_cmp: the bounds are big endian already */
		r->range.left->flags |= EXPR_F_BOOLEAN;
		r->range.right->flags |= EXPR_F_BOOLEAN;
	}
	r = relational_expr_alloc(&internal_location,
				  nftnl_expr_get_u32(e, NFTNL_EXPR_RANGE_OP) == NFT_RANGE_NEQ ? OP_NEQ : OP_EQ,
				  l, r);
	if (ctx->hton[reg_index(sreg)])
		r->flags |= EXPR_F_HTON;
	add_stmt(ctx, match_stmt_alloc(&internal_location, r));
}

/*
 * The first comment (type 0) in user data.  libnftnl's iterator trusts each
 * record's length byte; a reply is not trusted here: every record (a type
 * byte, a length byte, the value) must lie inside @len.
 */
char *udata_get_comment(const void *ud, uint32_t len)
{
	const uint8_t *p = ud, *end = p + len;

	while (p && end - p >= 2) {
		uint8_t type = p[0], n = p[1];

		if (n > end - p - 2)
			break;
		if (type == 0)
			return xstrndup((const char *)p + 2, n);
		p += 2 + n;
	}
	return NULL;
}

/* --- set elements ------------------------------------------------------------ */

/*
 * One listed element, from sorted records: a record's key alone, or a
 * range from it to the key of record @hi (an exclusive end), to its own
 * closing key, or to the largest value.
 */
enum elem_pair_kind {
	PAIR_VALUE,
	PAIR_KEY_END,
	PAIR_END,
	PAIR_MAX,
};

struct elem_pair {
	uint32_t	lo;
	uint32_t	hi;
	uint32_t	kind;
};

/*
 * Interval sets come as start and end (exclusive) pairs; a start without
 * an end runs to the next start, the last one to the largest value.
 * Concatenated intervals carry an inclusive end in the same element.
 */
static struct elem_pair *elem_pairs(const struct elem_dump *ed, bool interval,
				    size_t *np)
{
	struct elem_pair *p = xmalloc((ed->n ? ed->n : 1) * sizeof(*p));
	size_t n = 0, start = SIZE_MAX;

	for (size_t i = 0; i < ed->n; i++) {
		const struct elem_drec *r = elem_drec(ed, i);

		if (r->flags & ELEM_D_KEY_END) {
			p[n++] = (struct elem_pair){ i, 0, PAIR_KEY_END };
			continue;
		}
		if (!interval) {
			p[n++] = (struct elem_pair){ i, 0, PAIR_VALUE };
			continue;
		}
		if (r->flags & ELEM_D_END) {
			if (start != SIZE_MAX)
				p[n++] = (struct elem_pair){ start, i, PAIR_END };
			start = SIZE_MAX;
			continue;
		}
		if (start != SIZE_MAX)
			p[n++] = (struct elem_pair){ start, i, PAIR_END };
		start = i;
	}
	if (start != SIZE_MAX)
		p[n++] = (struct elem_pair){ start, 0, PAIR_MAX };
	*np = n;
	return n < ed->n ? xrealloc(p, (n ? n : 1) * sizeof(*p)) : p;
}

/* an element's own quota, limit and ct count, as a rule's statements */
static void elem_own_stmts(struct expr *e, const struct elem_dopts *o)
{
	for (unsigned int i = 0; i < o->nx; i++) {
		struct delin_ctx ctx = { .family = NFPROTO_UNSPEC };

		ctx.rule = rule_alloc(&internal_location);
		delin_stmt_expr(&ctx, o->x[i]);
		for (unsigned int r = 0; r < NREGS; r++)
			expr_free(ctx.regs[r]);
		list_splice_tail_init(&ctx.rule->stmts, &e->elem.stmts);
		rule_free(ctx.rule);
	}
	e->elem.counter_at = o->counter_at;
}

/* an element as raw values, under its options and its value */
static struct expr *elem_pair_expr(const struct elem_dump *ed,
				   const struct elem_pair *p)
{
	const struct elem_drec *r = elem_drec(ed, p->lo);
	const struct elem_dopts *o = elem_dopts(ed, p->lo);
	struct expr *e = raw_value(elem_dkey(ed, p->lo), r->klen), *hi;

	switch (p->kind) {
	case PAIR_KEY_END:
		hi = raw_value(elem_dkey_end(ed, p->lo), r->klen);
		e = range_expr_alloc(&internal_location, e, hi);
		break;
	case PAIR_END:
		hi = raw_value(elem_dkey(ed, p->hi), elem_drec(ed, p->hi)->klen);
		hi->flags |= EXPR_F_INTERVAL_END;
		e = range_expr_alloc(&internal_location, e, hi);
		break;
	case PAIR_MAX:
		/* an inclusive end: no INTERVAL_END flag to subtract from */
		hi = expr_clone(e);
		memset(hi->val.data, 0xff, expr_value_bytes(hi));
		e = range_expr_alloc(&internal_location, e, hi);
		break;
	default:
		break;
	}
	if (o) {
		e = set_elem_expr_alloc(&internal_location, e);
		e->elem.timeout = o->timeout;
		e->elem.expires = o->expires;
		e->elem.comment = o->comment ? xstrdup(o->comment) : NULL;
		e->elem.counter = o->counter;
		e->elem.packets = o->packets;
		e->elem.bytes = o->bytes;
		elem_own_stmts(e, o);
	}
	if (r->flags & ELEM_D_VERDICT) {
		const char *chain;
		int code;

		elem_dverdict(ed, p->lo, &code, &chain);
		e = mapping_expr_alloc(&internal_location, e,
				       verdict_expr_alloc(&internal_location,
							  code, chain));
	} else if (r->flags & ELEM_D_OBJREF) {
		const char *name;
		int code;

		elem_dverdict(ed, p->lo, &code, &name);
		e = mapping_expr_alloc(&internal_location, e,
				       objref_value(name ? name : ""));
	} else if (r->flags & ELEM_D_DATA) {
		e = mapping_expr_alloc(&internal_location, e,
				       raw_value(elem_ddata(ed, p->lo), r->dlen));
	}
	return e;
}

/* a type of named bits (ct state, tcp flags): listed as "a | b" */
static bool flags_type(const struct datatype *dt)
{
	return (dt->flags & DTYPE_F_BITMASK) && dt->symbols;
}

/* how the kernel's bytes of keys like @key sort */
static enum elem_order key_order(const struct expr *key)
{
	if (key->kind == EXPR_CONCAT)
		return ELEM_ORDER_CONCAT;
	if (key->byteorder == BYTEORDER_HOST && key->dtype != &ifname_type &&
	    key->dtype != &string_type)
		return ELEM_ORDER_HOST;
	return ELEM_ORDER_BE;
}

/*
 * Monitor events keep the elements of a set that is no interval set in
 * the order the kernel announced them, as nft monitor prints them.
 */
static bool keep_order;

void delin_keep_order(bool keep)
{
	keep_order = keep;
}

/* the elements of @ed as raw values, typed later against what is looked up */
/*
 * The elements of @ed in order; only those set_elems_pick() picked, if it
 * ran on @cs (NULL: an anonymous set).
 */
static struct elem_pair *pairs_of(const struct cache_set *cs,
				  struct elem_dump *ed, bool interval,
				  const struct expr *key, size_t *np)
{
	struct elem_pair *p;
	size_t n, k = 0;

	bool flags = !interval && key->kind != EXPR_CONCAT &&
		     flags_type(key->dtype);

	if ((!keep_order || interval) && !flags)
		elem_dump_sort(ed, key_order(key));
	p = elem_pairs(ed, interval, &n);
	if (flags && !keep_order) {
		/*
		 * flags sort by their lowest bit (set_sort), and those that
		 * tie stay in the order nft reads them in: the kernel's,
		 * backwards
		 */
		for (size_t i = 0; i < n / 2; i++) {
			struct elem_pair t = p[i];

			p[i] = p[n - 1 - i];
			p[n - 1 - i] = t;
		}
	}
	if (!cs || !cs->pick) {
		*np = n;
		return p;
	}
	for (size_t i = 0; i < n && i < cs->npick; i++)
		if (cs->pick[i / 8] & (1u << (i % 8)))
			p[k++] = p[i];
	*np = k;
	return p;
}

/* the @i-th catch-all element of @ca: "*", with its options and value */
static struct expr *catchall_elem_expr(const struct elem_dump *ca, size_t i)
{
	struct elem_pair cp = { i, 0, PAIR_VALUE };
	struct expr *e = elem_pair_expr(ca, &cp), **k = &e;

	if ((*k)->kind == EXPR_MAPPING)
		k = &(*k)->op.left;
	if ((*k)->kind == EXPR_SET_ELEM)
		k = &(*k)->elem.key;
	expr_free(*k);
	*k = catchall_expr_alloc(&internal_location);
	return e;
}

static struct expr *elems_expr(const struct cache_set *cs,
			       struct elem_dump *ed, bool interval,
			       const struct expr *key)
{
	struct expr *set = compound_expr_alloc(&internal_location, EXPR_SET);
	struct elem_pair *p;
	size_t n;

	p = pairs_of(cs, ed, interval, key, &n);
	for (size_t i = 0; i < n; i++)
		compound_expr_add(set, elem_pair_expr(ed, &p[i]));
	free(p);
	/* the catch-all elements last, as nft lists them */
	for (size_t i = 0; ed->catchall && i < ed->catchall->n; i++)
		compound_expr_add(set, catchall_elem_expr(ed->catchall, i));
	return set;
}

/*
 * The key an interval set's elements are read by: the set keeps numbers of
 * host byte order big endian (elem_host_number()).  NULL: @key itself.
 */
static struct expr *interval_key_of(const struct expr *key)
{
	struct expr *k, *i;
	bool any = false;

	if (key->kind != EXPR_CONCAT) {
		if (!elem_host_number(key))
			return NULL;
		k = expr_clone(key);
		k->byteorder = BYTEORDER_BIG;
		return k;
	}
	k = expr_clone(key);
	list_for_each_entry(i, &k->set.exprs, list)
		if (elem_host_number(i)) {
			i->byteorder = BYTEORDER_BIG;
			any = true;
		}
	if (!any) {
		expr_free(k);
		return NULL;
	}
	return k;
}

/* the bytes of a key that a lookup turned big endian (byteorder hton) */
struct hton_parts {
	unsigned int	n;
	uint8_t		off[NREGS];
	uint8_t		len[NREGS];
};

static void hton_parts_of(const struct delin_ctx *ctx, uint32_t sreg,
			  const struct expr *key, struct hton_parts *hp)
{
	unsigned int slot = reg_index(sreg), off = 0;
	const struct expr *i;

	hp->n = 0;
	if (key->kind != EXPR_CONCAT) {
		if (ctx->hton[slot]) {
			hp->off[0] = 0;
			hp->len[0] = div_round_up(key->len, 8);
			hp->n = 1;
		}
		return;
	}
	list_for_each_entry(i, &key->set.exprs, list) {
		if (slot >= NREGS || off >= NFH_VAL_MAXLEN)
			break;
		if (ctx->hton[slot]) {
			hp->off[hp->n] = off;
			hp->len[hp->n++] = div_round_up(i->len, 8);
		}
		slot += div_round_up(i->len, 32);
		off += div_round_up(i->len, 32) * 4;
	}
}

static void value_ntoh(struct expr *v, const struct hton_parts *hp)
{
	for (unsigned int i = 0; i < hp->n; i++)
		if (hp->off[i] + hp->len[i] <= expr_value_bytes(v))
			bytes_reverse(v->val.data + hp->off[i], hp->len[i]);
}

/* an element's key, big endian where @hp says, back to register order */
static void elem_ntoh(struct expr *e, const struct hton_parts *hp)
{
	switch (e->kind) {
	case EXPR_MAPPING:
		elem_ntoh(e->op.left, hp);
		break;
	case EXPR_SET_ELEM:
		elem_ntoh(e->elem.key, hp);
		break;
	case EXPR_RANGE:
		value_ntoh(e->range.left, hp);
		value_ntoh(e->range.right, hp);
		break;
	case EXPR_VALUE:
		value_ntoh(e, hp);
		break;
	default:
		break;
	}
}

static struct expr *set_key_of(const struct nftnl_set *nls);
static struct expr *lookup_key_of(const struct nftnl_set *nls);

/*
 * The key of a concatenation whose type cannot say how wide its parts
 * are (an integer part: "ip ecn . tcp doff { ... }" in an anonymous set,
 * which has no typeof record): one part for each register the lookup
 * reads, as wide as what the register holds.  NULL if that does not fit.
 */
static struct expr *regs_concat_key(const struct delin_ctx *ctx, uint32_t sreg,
				    const struct nftnl_set *nls)
{
	unsigned int len = nftnl_set_get_u32(nls, NFTNL_SET_KEY_LEN);
	unsigned int slot = reg_index(sreg), bytes = 0, n;
	const struct datatype *sub[NREGS];
	struct expr *c;

	n = set_key_type_parts(nftnl_set_get_u32(nls, NFTNL_SET_KEY_TYPE), sub,
			       array_size(sub));
	if (!n)
		return NULL;
	c = compound_expr_alloc(&internal_location, EXPR_CONCAT);
	for (unsigned int i = 0; i < n; i++) {
		const struct expr *r = slot < NREGS ? ctx->regs[slot] : NULL;
		unsigned int bits = sub[i]->size ? sub[i]->size : r ? r->len : 0;

		if (!r || !bits) {
			expr_free(c);
			return NULL;
		}
		compound_expr_add(c, set_type_placeholder(NULL, sub[i], bits,
							  sub[i]->byteorder));
		slot += div_round_up(bits, 32);
		bytes += div_round_up(bits, 32) * 4;
	}
	if (bytes != len) {
		expr_free(c);
		return NULL;
	}
	c->len = len * 8;
	return c;
}

/* the key a rule's lookup from @sreg in @nls reads */
static struct expr *rule_key_of(const struct delin_ctx *ctx, uint32_t sreg,
				const struct nftnl_set *nls)
{
	struct expr *key = lookup_key_of(nls), *k;

	if (key->kind != EXPR_CONCAT) {
		k = regs_concat_key(ctx, sreg, nls);
		if (k) {
			expr_free(key);
			key = k;
		}
	}
	return key;
}

/*
 * The elements of a set held as libnftnl objects: anonymous sets.  Those
 * that a lookup from @sreg turned big endian first are read big endian,
 * then put back in register order, as the lookup's selectors type them.
 */
static struct expr *set_elements(const struct delin_ctx *ctx, uint32_t sreg,
				 struct nftnl_set *s)
{
	bool interval = nftnl_set_get_u32(s, NFTNL_SET_FLAGS) & NFT_SET_INTERVAL;
	struct elem_dump *ed = elem_dump_from_nftnl(s);
	struct expr *key = rule_key_of(ctx, sreg, s), *order = NULL, *set, *i;
	struct hton_parts hp = { 0 };

	if (interval)
		hton_parts_of(ctx, sreg, key, &hp);
	if (hp.n && key->kind != EXPR_CONCAT) {
		order = expr_clone(key);
		order->byteorder = BYTEORDER_BIG;
	}
	set = elems_expr(NULL, ed, interval, order ? order : key);
	/* the set's own key type, till the match types its elements */
	set->dtype = key->dtype;
	list_for_each_entry(i, &set->set.exprs, list)
		elem_ntoh(i, &hp);
	expr_free(order);
	expr_free(key);
	elem_dump_free(ed);
	return set;
}

static struct expr *set_key_of(const struct nftnl_set *nls)
{
	struct set_udata ud;
	struct expr *k;

	set_udata_parse(nls, &ud);
	free(ud.comment);
	k = set_key_decode(nftnl_set_get_u32(nls, NFTNL_SET_KEY_TYPE),
			   nftnl_set_get_u32(nls, NFTNL_SET_KEY_LEN), ud.key_bo);
	if (!k)
		k = set_type_placeholder(NULL, &integer_type,
					 nftnl_set_get_u32(nls, NFTNL_SET_KEY_LEN) * 8,
					 BYTEORDER_BIG);
	return k;
}

/*
 * The key a rule's lookup in @nls reads.  Its type alone cannot say where
 * the parts of a concatenation of numbers of no fixed size ("typeof meta
 * mark . meta cpu") begin: the typeof record can.
 */
static struct expr *lookup_key_of(const struct nftnl_set *nls)
{
	struct expr *k = set_key_of(nls), *t;
	struct set_udata ud;
	bool verdict = false;

	if (k->kind == EXPR_CONCAT)
		return k;
	set_udata_parse(nls, &ud);
	free(ud.comment);
	if (!ud.key_typeof)
		return k;
	t = set_typeof_parse(ud.key_typeof, ud.key_typeof_len,
			     nftnl_set_get_u32(nls, NFTNL_SET_FAMILY), &verdict);
	if (t && !verdict && t->kind == EXPR_CONCAT &&
	    set_key_bytes(t) == nftnl_set_get_u32(nls, NFTNL_SET_KEY_LEN)) {
		expr_free(k);
		k = set_key_of_selector(t);
	}
	expr_free(t);
	return k;
}

/* what a lookup reads: one register, or one per concatenated component */
static struct expr *lookup_lhs(struct delin_ctx *ctx, uint32_t sreg,
			       const struct expr *key)
{
	unsigned int slot = reg_index(sreg);
	const struct expr *i;
	struct expr *c;

	if (key->kind != EXPR_CONCAT) {
		unsigned int n = 0, got = 0;

		/*
		 * A key of no known type longer than the register: the
		 * registers that follow hold the rest of a concatenation
		 * ("@nh,0,16 . @nh,16,16"), as nft reads it
		 */
		while (slot + n < NREGS && ctx->regs[slot + n] &&
		       ctx->regs[slot + n]->len && got < key->len) {
			got += div_round_up(ctx->regs[slot + n]->len, 32) * 32;
			n += div_round_up(ctx->regs[slot + n]->len, 32);
		}
		if (key->dtype != &integer_type || n < 2 || got != key->len ||
		    !ctx->regs[slot] || ctx->regs[slot]->len >= key->len)
			return reg_get(ctx, sreg);
		c = compound_expr_alloc(&internal_location, EXPR_CONCAT);
		for (unsigned int k = 0; k < n;
		     k += div_round_up(ctx->regs[slot + k]->len, 32))
			compound_expr_add(c, expr_clone(ctx->regs[slot + k]));
		c->len = key->len;
		return c;
	}
	c = compound_expr_alloc(&internal_location, EXPR_CONCAT);
	list_for_each_entry(i, &key->set.exprs, list) {
		if (slot >= NREGS || !ctx->regs[slot]) {
			expr_free(c);
			return NULL;
		}
		compound_expr_add(c, expr_clone(ctx->regs[slot]));
		slot += div_round_up(i->len, 32);
	}
	c->len = key->len;
	return c;
}

static struct cache_set *lookup_set(struct delin_ctx *ctx, const char *name,
				    bool has_id, uint32_t id)
{
	struct cache_set *cs = name ? cache_set_find(ctx->table, name) : NULL;

	/* offline, a rule still names its anonymous set by batch id */
	if (!cs && has_id)
		cs = cache_set_find_id(ctx->table, id);
	return cs;
}

/* the value a dynset writes into a map: what @sreg holds, a constant
   typed as the map's values */
static struct expr *kind_map_data(struct kind_delin *k, uint32_t sreg,
				  const struct nftnl_set *nls)
{
	struct cache_set cs = { .nls = (struct nftnl_set *)nls };
	struct set *s = delin_set(NULL, &cs, false);
	struct expr *v = NULL;

	if (s && s->data && !s->objtype &&
	    s->data->dtype != &verdict_type) {
		v = lookup_lhs(k->phase, sreg, s->data);
		if (v && v->kind == EXPR_VALUE && s->data->kind != EXPR_CONCAT)
			type_value(v, s->data->dtype, s->data->byteorder,
				   s->data->len);
		else if (v && v->kind == EXPR_CONCAT &&
			 s->data->kind == EXPR_CONCAT)
			concat_type_values(v, s->data);
	}
	set_free(s);
	return v;
}

static const struct nftnl_set *kind_set(struct kind_delin *k, const char *name,
				       bool has_id, uint32_t id)
{
	struct cache_set *cs = lookup_set(k->phase, name, has_id, id);

	return cs ? cs->nls : NULL;
}

static struct expr *kind_map(struct kind_delin *k, uint32_t sreg,
			     const struct nftnl_set *nls)
{
	struct delin_ctx *ctx = k->phase;
	struct expr *key = rule_key_of(ctx, sreg, nls), *l, *r;

	l = lookup_lhs(ctx, sreg, key);
	expr_free(key);
	if (!l)
		return NULL;
	fib_key_check(l);
	if (nftnl_set_get_u32(nls, NFTNL_SET_FLAGS) & NFT_SET_ANONYMOUS)
		r = set_elements(ctx, sreg, (struct nftnl_set *)nls);
	else
		r = set_ref_expr_alloc(&internal_location,
				       nftnl_set_get_str(nls, NFTNL_SET_NAME));
	return map_expr_alloc(&internal_location, l, r);
}

static void delin_lookup(struct delin_ctx *ctx, struct nftnl_expr *e)
{
	uint32_t sreg = nftnl_expr_get_u32(e, NFTNL_EXPR_LOOKUP_SREG);
	const char *name = nftnl_expr_get_str(e, NFTNL_EXPR_LOOKUP_SET);
	struct cache_set *cs = lookup_set(ctx, name,
					  nftnl_expr_is_set(e, NFTNL_EXPR_LOOKUP_SET_ID),
					  nftnl_expr_get_u32(e, NFTNL_EXPR_LOOKUP_SET_ID));
	uint32_t flags = nftnl_expr_is_set(e, NFTNL_EXPR_LOOKUP_FLAGS) ?
			 nftnl_expr_get_u32(e, NFTNL_EXPR_LOOKUP_FLAGS) : 0;
	struct expr *l, *r, *key;

	if (!cs) {
		unsupported(ctx, "lookup");
		return;
	}
	key = rule_key_of(ctx, sreg, cs->nls);
	l = lookup_lhs(ctx, sreg, key);
	expr_free(key);
	if (!l) {
		unsupported(ctx, "lookup");
		return;
	}
	fib_key_check(l);
	if (nftnl_set_get_u32(cs->nls, NFTNL_SET_FLAGS) & NFT_SET_ANONYMOUS)
		r = set_elements(ctx, sreg, cs->nls);
	else
		/* found by id, the lookup may not name it: use the set's name */
		r = set_ref_expr_alloc(&internal_location,
				       nftnl_set_get_str(cs->nls, NFTNL_SET_NAME));
	if (nftnl_expr_is_set(e, NFTNL_EXPR_LOOKUP_DREG)) {
		uint32_t dreg = nftnl_expr_get_u32(e, NFTNL_EXPR_LOOKUP_DREG);
		struct expr *m = map_expr_alloc(&internal_location, l, r);

		/* as wide as its values (nat tells address . port by it) */
		if (nftnl_set_is_set(cs->nls, NFTNL_SET_DATA_LEN))
			m->len = nftnl_set_get_u32(cs->nls, NFTNL_SET_DATA_LEN) * 8;
		if (dreg == NFT_REG_VERDICT)
			add_stmt(ctx, verdict_stmt_alloc(&internal_location, m));
		else
			reg_set(ctx, dreg, m);
		return;
	}
	r = relational_expr_alloc(&internal_location,
				  flags & NFT_LOOKUP_F_INV ? OP_NEQ : OP_EQ, l, r);
	if (ctx->hton[reg_index(sreg)])
		r->flags |= EXPR_F_HTON;
	add_stmt(ctx, match_stmt_alloc(&internal_location, r));
}

static void delin_stmt_expr(struct delin_ctx *ctx, struct nftnl_expr *e);

static struct rule *delin_rule_in(struct cache_table *t,
				  struct nftnl_rule *nlr, bool in_binding);

static void delin_immediate(struct delin_ctx *ctx, struct nftnl_expr *e)
{
	uint32_t dreg = nftnl_expr_get_u32(e, NFTNL_EXPR_IMM_DREG), len;
	const void *data;

	if (dreg == NFT_REG_VERDICT) {
		const char *chain = nftnl_expr_is_set(e, NFTNL_EXPR_IMM_CHAIN) ?
				    nftnl_expr_get_str(e, NFTNL_EXPR_IMM_CHAIN) : NULL;
		struct cache_chain *ch = chain && ctx->table ?
					 cache_chain_find(ctx->table, chain) : NULL;

		if (ch && cache_chain_is_binding(ch) && !ctx->in_binding) {
			/* a chain bound to the rule: its rules in the verdict */
			struct cache_rule *cr;
			LIST_HEAD(rules);

			list_for_each_entry(cr, &ch->rules, list) {
				struct rule *r = delin_rule_in(ctx->table,
							       cr->nlr, true);

				list_add_tail(&r->list, &rules);
			}
			add_stmt(ctx, binding_stmt_alloc(&internal_location,
				nftnl_expr_get_u32(e, NFTNL_EXPR_IMM_VERDICT),
				0, &rules));
			return;
		}

		add_stmt(ctx, verdict_stmt_alloc(&internal_location,
			verdict_expr_alloc(&internal_location,
					   nftnl_expr_get_u32(e, NFTNL_EXPR_IMM_VERDICT),
					   chain)));
		return;
	}
	data = nftnl_expr_get(e, NFTNL_EXPR_IMM_DATA, &len);
	if (!data) {
		unsupported(ctx, "immediate");
		return;
	}
	reg_set(ctx, dreg, raw_value(data, len));
}

static void delin_stmt_expr(struct delin_ctx *ctx, struct nftnl_expr *e)
{
	const char *name = nftnl_expr_get_str(e, NFTNL_EXPR_NAME);
	/* a load inside a tunnel stands for the kernel's inner (inner.h) */
	const struct expr_ops *ops = expr_ops_by_nl_name(inner_carrier(e) ?
							 "inner" : name);
	const struct stmt_ops *sops = stmt_ops_by_nl_name(name);

	if (ops && ops->delinearize)
		kind_delinearize(ctx, ops, e);
	else if (sops && sops->delinearize)
		kind_delin_stmt(ctx, sops, e);
	else if (!strcmp(name, "bitwise"))
		delin_bitwise(ctx, e);
	else if (!strcmp(name, "byteorder")) {
		uint32_t d = nftnl_expr_get_u32(e, NFTNL_EXPR_BYTEORDER_DREG);
		struct expr *x = reg_get(ctx, nftnl_expr_get_u32(e, NFTNL_EXPR_BYTEORDER_SREG));

		reg_set(ctx, d, x);
		ctx->hton[reg_index(d)] = true;
	} else if (!strcmp(name, "cmp"))
		delin_cmp(ctx, e);
	else if (!strcmp(name, "range"))
		delin_range(ctx, e);
	else if (!strcmp(name, "lookup"))
		delin_lookup(ctx, e);
	else if (!strcmp(name, "immediate"))
		delin_immediate(ctx, e);
	else
		unsupported(ctx, name);
}

/* --- turning raw loads back into named fields ---------------------------- */

static void type_value(struct expr *v, const struct datatype *dt,
		       enum byteorder bo, unsigned int len)
{
	unsigned int n = expr_value_bytes(v);
	bool was_be = v->flags & EXPR_F_BOOLEAN;

	if (bo == BYTEORDER_HOST && dt != &ifname_type && dt != &string_type &&
	    !was_be) {
		/* register holds host order: make it big endian again */
		bytes_reverse(v->val.data, n);
	}
	v->flags &= ~EXPR_F_BOOLEAN;
	if ((dt == &ifname_type || dt == &string_type) && len > n * 8 &&
	    n > 0 && !memchr(v->val.data, 0, n)) {
		/* a compare shorter than the name, without its NUL: "eth*" */
		v->flags |= EXPR_F_WILDCARD;
		len = n * 8;
	}
	if (len && len < n * 8 && dt != &ifname_type && dt != &string_type) {
		/* keep the low bytes of a value that was padded to 32 bits */
		uint8_t tmp[NFH_VAL_MAXLEN];
		unsigned int want = div_round_up(len, 8);

		if (want < n) {
			memcpy(tmp, v->val.data + (n - want), want);
			memset(v->val.data, 0, sizeof(v->val.data));
			memcpy(v->val.data, tmp, want);
		}
	}
	v->dtype = dt;
	v->byteorder = bo;
	if (len)
		v->len = len;
}

static const struct expr *elem_low(const struct expr *e)
{
	e = elem_key(e);
	return e->kind == EXPR_RANGE ? e->range.left :
	       e->kind == EXPR_PREFIX ? e->prefix.expr : e;
}

/*
 * Values compare as numbers; strings as nft compares them: as one integer
 * read from the last byte to the first, so "lo" sorts before "eth0" --
 * except in interval sets (@bytewise), which keep them byte by byte.
 */
static int typed_value_cmp(const struct expr *a, const struct expr *b,
			   bool bytewise)
{
	unsigned int n;

	if (flags_type(a->dtype) && flags_type(b->dtype)) {
		/*
		 * nft lists "a | b | c" as an expression whose first operand,
		 * the lowest bit, is what it sorts by; elements that tie keep
		 * the kernel's order (a stable sort)
		 */
		uint64_t x = expr_value_u64(a), y = expr_value_u64(b);

		x &= -x;
		y &= -y;
		return x < y ? -1 : x > y;
	}
	if (a->dtype != &ifname_type && a->dtype != &string_type)
		return expr_value_cmp(a, b);
	n = expr_value_bytes(a) > expr_value_bytes(b) ? expr_value_bytes(a) :
							expr_value_bytes(b);
	if (bytewise)
		return memcmp(a->val.data, b->val.data, n);
	for (unsigned int i = n; i > 0; i--)
		if (a->val.data[i - 1] != b->val.data[i - 1])
			return a->val.data[i - 1] < b->val.data[i - 1] ? -1 : 1;
	return 0;
}

struct elem_at {
	struct expr	*e;
	unsigned int	at;
};

static int elem_cmp(const void *a, const void *b)
{
	const struct elem_at *p = a, *q = b;
	const struct expr *x = p->e, *y = q->e;
	int c;

	/* the catch-all lists last */
	if (elem_is_catchall(x) || elem_is_catchall(y))
		return elem_is_catchall(x) - elem_is_catchall(y) ? :
		       (p->at < q->at ? -1 : p->at > q->at);
	c = typed_value_cmp(elem_low(x), elem_low(y),
				elem_key(x)->kind == EXPR_RANGE ||
				elem_key(y)->kind == EXPR_RANGE);

	return c ? c : p->at < q->at ? -1 : p->at > q->at;
}


/* elements print in ascending order, whatever order the kernel kept */
static void set_sort(struct expr *set)
{
	struct elem_at *v;
	struct expr *i, *next;
	unsigned int n = 0;

	if (keep_order)
		return;
	v = xmalloc(sizeof(*v) * (set->set.size + 1));
	list_for_each_entry_safe(i, next, &set->set.exprs, list) {
		list_del(&i->list);
		v[n].e = i;
		v[n].at = n;
		n++;
	}
	qsort(v, n, sizeof(*v), elem_cmp);
	for (unsigned int k = 0; k < n; k++)
		list_add_tail(&v[k].e->list, &set->set.exprs);
	free(v);
}

static void type_set_elems(struct expr *set, const struct expr *key,
			   const struct expr *data);

static void type_rhs(struct expr *r, const struct expr *lhs)
{
	switch (r->kind) {
	case EXPR_VALUE:
		type_value(r, lhs->dtype, lhs->byteorder, lhs->len);
		break;
	case EXPR_RANGE:
		type_rhs(r->range.left, lhs);
		type_rhs(r->range.right, lhs);
		r->dtype = lhs->dtype;
		break;
	case EXPR_SET:
		type_set_elems(r, lhs, NULL);
		break;
	default:
		break;
	}
}

/* a concatenated key or range, cut into its typed components */
static struct expr *concat_split(struct expr *e, const struct expr *key)
{
	const struct expr *lo = e->kind == EXPR_RANGE ? e->range.left : e;
	const struct expr *hi = e->kind == EXPR_RANGE ? e->range.right : e;
	struct expr *c = compound_expr_alloc(&internal_location, EXPR_CONCAT);
	const struct expr *i;
	unsigned int off = 0;

	list_for_each_entry(i, &key->set.exprs, list) {
		unsigned int w = div_round_up(i->len, 32) * 4;
		unsigned int b = div_round_up(i->len, 8);
		struct expr *l, *h;

		if (off + w > NFH_VAL_MAXLEN)
			break;
		l = raw_value(lo->val.data + off, b);
		type_value(l, i->dtype, i->byteorder, i->len);
		if (lo != hi && memcmp(lo->val.data + off, hi->val.data + off, b)) {
			h = raw_value(hi->val.data + off, b);
			type_value(h, i->dtype, i->byteorder, i->len);
			compound_expr_add(c, range_expr_alloc(&internal_location, l, h));
		} else {
			compound_expr_add(c, l);
		}
		off += w;
	}
	c->len = key->len;
	c->dtype = key->dtype;
	expr_free(e);
	return c;
}

/* a value of a map of ranges: its low end and its high end back to back,
   as a range (of each part of a concatenation) or a single value */
static struct expr *data_range_split(struct expr *v, const struct expr *data)
{
	unsigned int half = set_key_bytes(data), n = expr_value_bytes(v);
	struct expr *lo = raw_value(v->val.data, half);
	struct expr *hi = n >= 2 * half ? raw_value(v->val.data + half, half) :
					  raw_value(v->val.data, half);
	struct expr *r;

	expr_free(v);
	if (data->kind == EXPR_CONCAT)
		return concat_split(range_expr_alloc(&internal_location, lo, hi),
				    data);
	type_value(lo, data->dtype, data->byteorder, data->len);
	if (!memcmp(lo->val.data, hi->val.data, half)) {
		/* as nft: an address alone is a prefix of its full length */
		expr_free(hi);
		if (data->dtype->flags & DTYPE_F_PREFIX)
			return prefix_expr_alloc(&internal_location, lo,
						 data->len);
		return lo;
	}
	type_value(hi, data->dtype, data->byteorder, data->len);
	r = range_expr_alloc(&internal_location, lo, hi);
	r->dtype = data->dtype;
	return r;
}

static struct expr *type_elem(struct expr *e, const struct expr *key,
			      const struct expr *data)
{
	if (e->kind == EXPR_CATCHALL)	/* "*" has no key to type */
		return e;
	switch (e->kind) {
	case EXPR_MAPPING:
		e->op.left = type_elem(e->op.left, key, NULL);
		if (data && (data->flags & EXPR_F_DATA_INTERVAL) &&
		    e->op.right->kind == EXPR_VALUE)
			e->op.right = data_range_split(e->op.right, data);
		else if (data && data->kind == EXPR_CONCAT &&
		    e->op.right->kind == EXPR_VALUE)
			e->op.right = concat_split(e->op.right, data);
		else if (data && e->op.right->kind == EXPR_VALUE &&
			 data->dtype != &objref_type)	/* names stay as read */
			type_value(e->op.right, data->dtype, data->byteorder,
				   data->len);
		return e;
	case EXPR_SET_ELEM:
		e->elem.key = type_elem(e->elem.key, key, NULL);
		return e;
	default:
		break;
	}
	if (key->kind == EXPR_CONCAT)
		return concat_split(e, key);
	type_rhs(e, key);
	return e;
}

/* elements typed by the key (and a map's values by @data), in order */
static void type_set_elems(struct expr *set, const struct expr *key,
			   const struct expr *data)
{
	struct expr *i, *next;

	list_for_each_entry_safe(i, next, &set->set.exprs, list) {
		struct expr *n;

		list_del(&i->list);
		n = type_elem(i, key, data);
		list_add_tail(&n->list, &next->list);
	}
	set->dtype = key->dtype;
	set->len = key->len;
	set->byteorder = key->byteorder;
	if (key->kind != EXPR_CONCAT)
		set_sort(set);
}

/* --- a named set's elements, one at a time, for listing ---------------------- */

struct set_elem_iter {
	struct elem_dump	*ed;
	struct elem_dump	*owned;		/* converted from libnftnl */
	struct elem_pair	*pairs;
	size_t			n;
	size_t			next;
	const struct expr	*key;
	struct expr		*be_key;	/* owned, when @key is it */
	const struct expr	*data;
};

/* the key a named set's elements are typed by */
static struct expr *interval_key(const struct set *s)
{
	if (!(s->flags & NFT_SET_INTERVAL))
		return NULL;
	return interval_key_of(s->key);
}

/* an element's lowest value, typed as type_set_elems types it */
static void pair_low(const struct set_elem_iter *it, const struct elem_pair *p,
		     struct expr *v)
{
	const struct elem_drec *r = elem_drec(it->ed, p->lo);

	memset(v->val.data, 0, sizeof(v->val.data));
	memcpy(v->val.data, elem_dkey(it->ed, p->lo), r->klen);
	v->flags = 0;
	v->len = r->klen * 8;
	type_value(v, it->key->dtype, it->key->byteorder, it->key->len);
}

static int pair_cmp(const void *a, const void *b, void *data)
{
	struct expr x, y;

	const struct elem_pair *p = a, *q = b;
	int c;

	pair_low(data, a, &x);
	pair_low(data, b, &y);
	c = typed_value_cmp(&x, &y, p->kind != PAIR_VALUE);
	/* ties (flags, see pairs_of) keep the records' order backwards */
	return c ? c : p->lo > q->lo ? -1 : p->lo < q->lo;
}

struct set_elem_iter *set_elem_iter_new(struct cache_set *cs,
					const struct set *s)
{
	struct set_elem_iter *it = xzalloc(sizeof(*it));
	bool concat = s->key->kind == EXPR_CONCAT;

	it->ed = cs->elems;
	if (!it->ed)
		it->ed = it->owned = elem_dump_from_nftnl(cs->nls);
	it->be_key = interval_key(s);
	it->key = it->be_key ? it->be_key : s->key;
	it->data = s->data;
	it->pairs = pairs_of(cs, it->ed, s->flags & NFT_SET_INTERVAL, it->key,
			     &it->n);
	if (!concat) {
		/* values in ascending order, as set_sort puts them */
		for (size_t i = 1; i < it->n; i++)
			if (pair_cmp(&it->pairs[i - 1], &it->pairs[i], it) > 0) {
				qsort_r(it->pairs, it->n, sizeof(*it->pairs),
					pair_cmp, it);
				break;
			}
	}
	return it;
}

struct expr *set_elem_iter_next(struct set_elem_iter *it)
{
	const struct elem_dump *ca = it->ed->catchall;

	if (it->next >= it->n) {
		/* then the catch-all elements */
		if (!ca || it->next - it->n >= ca->n)
			return NULL;
		return type_elem(catchall_elem_expr(ca, it->next++ - it->n),
				 it->key, it->data);
	}
	return type_elem(elem_pair_expr(it->ed, &it->pairs[it->next++]),
			 it->key, it->data);
}

void set_elem_iter_free(struct set_elem_iter *it)
{
	if (!it)
		return;
	elem_dump_free(it->owned);
	expr_free(it->be_key);
	free(it->pairs);
	free(it);
}


static bool is_dep(const struct stmt *s, unsigned int key, uint64_t *value)
{
	const struct expr *rel;

	if (!s || s->kind != STMT_EXPRESSION)
		return false;
	rel = s->expr;
	if (rel->op.op != OP_EQ || rel->op.right->kind != EXPR_VALUE)
		return false;
	if (rel->op.left->kind != EXPR_META || rel->op.left->meta.key != key)
		return false;
	*value = expr_value_u64(rel->op.right);
	return true;
}

static bool is_ether_type(const struct stmt *s, uint64_t *value)
{
	const struct expr *rel, *l;

	if (!s || s->kind != STMT_EXPRESSION)
		return false;
	rel = s->expr;
	l = rel->op.left;
	if (rel->op.op != OP_EQ || rel->op.right->kind != EXPR_VALUE ||
	    l->kind != EXPR_PAYLOAD || !l->payload.tmpl ||
	    (l->payload.desc != &proto_eth && l->payload.desc != &proto_vlan) ||
	    strcmp(l->payload.tmpl->name, "type"))
		return false;
	*value = expr_value_u64(rel->op.right);
	return true;
}

struct inner_deps;

struct deps {
	struct stmt	*ll;		/* meta iiftype ether */
	struct stmt	*vlan;		/* ether type 8021q */
	struct stmt	*nh;		/* meta protocol / nfproto / ether type */
	const struct proto_desc *nh_is;	/* the header nh announces */
	bool		nh_ether;	/* nh is a bridge's ether type: only an
					   extension header's dependency */
	struct stmt	*th;		/* meta l4proto */
	struct stmt	*icmp;		/* icmp type, for icmp id and such */
	struct stmt	*cur;		/* the statement that needs them */
	struct stmt	*grp[2];	/* the matches of the last merged load */
	struct list_head *head;		/* the rule's statements */
	unsigned int	family;		/* the table's */
	struct inner_deps *in;		/* the packets in tunnels' */
};

static void drop(struct stmt **s)
{
	list_del(&(*s)->list);
	stmt_free(*s);
	*s = NULL;
}

static bool is_dep_stmt(const struct deps *deps, const struct stmt *i)
{
	return i == deps->ll || i == deps->vlan || i == deps->nh ||
	       i == deps->th || i == deps->icmp;
}

static bool in_group(const struct deps *deps, const struct stmt *i)
{
	const struct stmt *g;

	if (!deps->grp[0])
		return false;
	for (g = deps->grp[0]; ; g = list_next_entry(g, list)) {
		if (g == i)
			return true;
		if (g == deps->grp[1])
			return false;
	}
}

static bool is_igmp_match(const struct stmt *i)
{
	const struct expr *l;

	if (i->kind != STMT_EXPRESSION || i->expr->kind != EXPR_RELATIONAL)
		return false;
	l = i->expr->op.left;
	if (l->kind == EXPR_BINOP)
		l = l->op.left;
	return l->kind == EXPR_PAYLOAD && l->payload.desc == &proto_igmp;
}

/*
 * A dependency goes if only other dependencies stand between it and the
 * statement that needs it, where compiling the listing puts it back:
 * "meta l4proto tcp counter tcp dport 22" keeps its protocol test.  The
 * matches of the load it was merged into may stand there too: they merge
 * with it again ("icmp code 1 icmp mtu 5" merges code and the type).
 */
static void kill(struct deps *deps, struct stmt **s)
{
	const struct list_head *p;
	const struct stmt *i;

	if (!*s)
		return;
	for (p = (*s)->list.next; deps->cur && p != &deps->cur->list; p = p->next) {
		i = list_entry(p, struct stmt, list);
		if (is_dep_stmt(deps, i) || (in_group(deps, *s) && in_group(deps, i)))
			continue;
		/* an igmp match needs the ipv4 test too: compiled again, it
		   comes back there ("igmp mrt 255 ip ttl 1" in inet) */
		if (*s == deps->nh && is_igmp_match(i))
			break;
		return;
	}
	if (*s == deps->grp[0] || *s == deps->grp[1])
		deps->grp[0] = deps->grp[1] = NULL;
	drop(s);
}

/* the fields of d that tile the bits [off, end) of a load, at most max of
   them into f, the last maybe a prefix; 0 unless two or more do */
/* the header @d is used: its implicit test goes */
static void header_used(struct deps *deps, const struct proto_desc *d)
{
	switch (d->base) {
	case PROTO_BASE_LL_HDR:
		kill(deps, &deps->ll);
		if (d == &proto_vlan)
			kill(deps, &deps->vlan);
		break;
	case PROTO_BASE_NETWORK_HDR:
		/* nft 1.0.6 tests meta protocol for an ip or ip6 field
		   in bridge (the ether type for an arp field), and a
		   listing without the ether type would load back so */
		if (!deps->nh_ether || d == &proto_arp)
			kill(deps, &deps->nh);
		break;
	case PROTO_BASE_TRANSPORT_HDR:
		kill(deps, &deps->th);
		/* icmp implies ip, icmpv6 ip6: "meta nfproto ipv6 icmp type 1"
		   keeps its test of the other one */
		if ((d == &proto_icmp && deps->nh_is != &proto_ip6) ||
		    (d == &proto_icmp6 && deps->nh_is != &proto_ip))
			kill(deps, &deps->nh);
		break;
	default:
		break;
	}
}

/* a raw load that a lookup or map reads, named again; NULL: unchanged */
static struct expr *field_resolve(struct proto_ctx *pctx, struct deps *deps,
				  const struct expr *p)
{
	const struct proto_desc *d;
	const struct proto_field *f;

	if (p->kind != EXPR_PAYLOAD || !p->payload.is_raw)
		return NULL;
	d = payload_desc_th(pctx, p);
	f = d ? payload_field_at(pctx, d, p->payload.offset, p->len) : NULL;
	if (!f)
		return NULL;
	header_used(deps, d);
	return payload_expr_alloc(&internal_location, d, f);
}

static void binop_type(struct expr *b);
static bool reg_selector(const struct expr *e);
static bool bits_shift_resolve(struct proto_ctx *pctx, struct deps *deps,
			       struct expr **e);
static bool bits_mask_resolve(struct proto_ctx *pctx, struct deps *deps,
			      struct expr **e);

static void inner_key_resolve(struct deps *deps, struct expr **e);

static void selector_resolve(struct proto_ctx *pctx, struct deps *deps,
			     struct expr **e)
{
	struct expr *p = *e, *i, *n;

	if (inner_child(p) && deps->in) {
		inner_key_resolve(deps, e);
		return;
	}

	/* a field of a few bits moved down to its value: "add @s { ip dscp }",
	   or one that ends its bytes under its mask: "add @s { vlan id }" */
	if (bits_shift_resolve(pctx, deps, e) ||
	    bits_mask_resolve(pctx, deps, e))
		return;

	if (p->kind == EXPR_BINOP && (p->op.op == OP_AND || p->op.op == OP_XOR ||
				      p->op.op == OP_OR)) {
		struct expr **in = &p->op.left;

		while ((*in)->kind == EXPR_BINOP)
			in = &(*in)->op.left;
		/* "tcp flags & (syn | ack) vmap { ... }": the field under a mask */
		n = field_resolve(pctx, deps, *in);
		if (n) {
			expr_free(*in);
			*in = n;
		}
		/* the mask of "meta mark & 0xff vmap" (the xor of "meta mark
		   ^ 0x1 vmap") in the key's byte order */
		if (n || reg_selector(*in))
			binop_type(p);
		return;
	}
	if (p->kind != EXPR_CONCAT) {
		n = field_resolve(pctx, deps, p);
		if (n) {
			expr_free(p);
			*e = n;
		}
		return;
	}
	list_for_each_entry(i, &p->set.exprs, list) {
		struct list_head *pos = i->list.prev;

		/* "ip saddr . ip dscp": the part in the shift's place */
		list_del(&i->list);
		n = i;
		if (inner_child(n) && deps->in) {
			inner_key_resolve(deps, &n);
			list_add(&n->list, pos);
			i = n;
			continue;
		}
		if (bits_shift_resolve(pctx, deps, &n) ||
		    bits_mask_resolve(pctx, deps, &n)) {
			list_add(&n->list, pos);
			i = n;
			continue;
		}
		list_add(&i->list, pos);
		n = field_resolve(pctx, deps, i);
		if (!n)
			continue;
		list_add(&n->list, &i->list);
		list_del(&i->list);
		expr_free(i);
		i = n;
	}
}

/*
 * A key of a few bits under its mask ("ip dscp vmap { cs1 : accept }"),
 * named again, its elements moved down from where the load holds them;
 * false if the key is not one
 */
static bool bits_key_resolve(struct proto_ctx *pctx, struct deps *deps,
			     struct expr *m)
{
	struct expr *b = m->op.left, *p, *mask;
	const struct proto_desc *d;
	const struct proto_field *f;
	unsigned int first, mlen, shift;

	if (b->kind != EXPR_BINOP || b->op.op != OP_AND ||
	    m->op.right->kind != EXPR_SET)
		return false;
	p = b->op.left;
	mask = b->op.right;
	if (p->kind != EXPR_PAYLOAD || !p->payload.is_raw || mask->kind != EXPR_VALUE ||
	    p->len > 64)
		return false;
	mlen = mask_bits(mask, &first);
	d = payload_desc(pctx, p);
	f = d ? payload_field_at(pctx, d, p->payload.offset + first, mlen) : NULL;
	if (!f || !(f->offset % 8 || f->len % 8) || first + mlen > p->len)
		return false;
	shift = p->len - (first + mlen);
	shift_rhs_right(m->op.right, shift, p->len / 8, mlen);
	m->op.left = payload_expr_alloc(&internal_location, d, f);
	expr_free(b);
	header_used(deps, d);
	return true;
}

/*
 * The field of a few bits that @mask selects in the raw load @p, a
 * header field or an extension header's, named again if its bits sit
 * @shift bits above the end of the load; NULL if it is none.
 */
static struct expr *bits_field(struct proto_ctx *pctx, struct deps *deps,
			       const struct expr *p, const struct expr *mask,
			       unsigned int shift)
{
	const struct exthdr_desc *xd;
	const struct proto_desc *d;
	const struct proto_field *f;
	unsigned int first, mlen;

	if (mask->kind != EXPR_VALUE || p->len > 64)
		return NULL;
	mlen = mask_bits(mask, &first);
	if (!mlen || first + mlen + shift != p->len ||
	    !mask_is_run(mask, first, mlen))
		return NULL;
	if (p->kind == EXPR_PAYLOAD && p->payload.is_raw) {
		d = payload_desc(pctx, p);
		f = d ? payload_field_at(pctx, d, p->payload.offset + first, mlen) : NULL;
		if (!f || !(f->offset % 8 || f->len % 8))
			return NULL;
		header_used(deps, d);
		return payload_expr_alloc(&internal_location, d, f);
	}
	if (p->kind == EXPR_EXTHDR && !p->exthdr.tmpl &&
	    !(p->exthdr.flags & NFT_EXTHDR_F_PRESENT)) {
		f = exthdr_field_at(p->exthdr.op, p->exthdr.type,
				    p->exthdr.offset + first, mlen, &xd);
		if (!f || !(f->offset % 8 || f->len % 8))
			return NULL;
		if (p->exthdr.op == NFT_EXTHDR_OP_IPV4)
			header_used(deps, &proto_ip);
		return exthdr_expr_alloc(&internal_location, xd, f);
	}
	return NULL;
}

/*
 * "(load & mask) >> n", a field of a few bits moved down to its value
 * for a named set ("ip dscp @s"), a set update or a concatenation, named
 * again; true if it was one
 */
static bool bits_shift_resolve(struct proto_ctx *pctx, struct deps *deps,
			       struct expr **e)
{
	struct expr *sh = *e, *b, *n;

	if (sh->kind != EXPR_BINOP || sh->op.op != OP_RSHIFT ||
	    sh->op.right->kind != EXPR_VALUE)
		return false;
	b = sh->op.left;
	if (b->kind != EXPR_BINOP || b->op.op != OP_AND ||
	    expr_value_u64(sh->op.right) >= 64)
		return false;
	n = bits_field(pctx, deps, b->op.left, b->op.right,
		       expr_value_u64(sh->op.right));
	if (!n)
		return false;
	*e = n;
	expr_free(sh);
	return true;
}

/*
 * "load & mask", the mask exactly a field of a few bits that ends the
 * load ("vlan id", "ip ecn"), as a set update or a concatenation reads
 * it, named again; true if it was one
 */
static bool bits_mask_resolve(struct proto_ctx *pctx, struct deps *deps,
			      struct expr **e)
{
	struct expr *b = *e, *n;

	if (b->kind != EXPR_BINOP || b->op.op != OP_AND)
		return false;
	n = bits_field(pctx, deps, b->op.left, b->op.right, 0);
	if (!n)
		return false;
	*e = n;
	expr_free(b);
	return true;
}

/*
 * The bytes each part of a concatenation was loaded in where a part of a
 * few bits was shifted down from more bytes than it needs ("ip6 dscp":
 * two), which an anonymous set's elements give it too; 0 for the others.
 * Read before the parts are named again.
 */
static void wide_parts_of(const struct expr *key, unsigned int *wide)
{
	const struct expr *i, *b;
	unsigned int n = 0;

	memset(wide, 0, NREGS * sizeof(*wide));
	if (key->kind != EXPR_CONCAT)
		return;
	list_for_each_entry(i, &key->set.exprs, list) {
		if (n == NREGS)
			break;
		b = i->kind == EXPR_BINOP && i->op.op == OP_RSHIFT ? i->op.left : NULL;
		if (b && b->kind == EXPR_BINOP && b->op.op == OP_AND &&
		    b->op.left->kind == EXPR_PAYLOAD)
			wide[n] = b->op.left->len / 8;
		n++;
	}
}

/* a value of the concatenation @key, each wide part cut to its own bytes */
static void value_narrow(struct expr *v, const struct expr *key,
			 const unsigned int *wide)
{
	unsigned int off = 0, n = 0;
	const struct expr *i;

	if (v->kind == EXPR_RANGE) {
		value_narrow(v->range.left, key, wide);
		value_narrow(v->range.right, key, wide);
		return;
	}
	if (v->kind != EXPR_VALUE)
		return;
	list_for_each_entry(i, &key->set.exprs, list) {
		unsigned int b = div_round_up(i->len, 8);

		if (n == NREGS)
			break;
		if (wide[n] > b && wide[n] <= 4 &&
		    off + wide[n] <= expr_value_bytes(v)) {
			memmove(v->val.data + off, v->val.data + off + wide[n] - b, b);
			memset(v->val.data + off + b, 0, wide[n] - b);
		}
		off += div_round_up(i->len, 32) * 4;
		n++;
	}
}

static void elems_narrow(struct expr *set, const struct expr *key,
			 const unsigned int *wide)
{
	struct expr *i, *k;

	if (set->kind != EXPR_SET || key->kind != EXPR_CONCAT)
		return;
	list_for_each_entry(i, &set->set.exprs, list) {
		k = i->kind == EXPR_MAPPING ? i->op.left : i;
		if (k->kind == EXPR_SET_ELEM)
			k = k->elem.key;
		value_narrow(k, key, wide);
	}
}

static void map_resolve(struct proto_ctx *pctx, struct deps *deps,
			struct expr *m, const struct expr *data)
{
	unsigned int wide[NREGS];

	if (m->op.right->kind == EXPR_SET_REF &&
	    bits_shift_resolve(pctx, deps, &m->op.left))
		return;
	wide_parts_of(m->op.left, wide);
	if (!bits_key_resolve(pctx, deps, m))
		selector_resolve(pctx, deps, &m->op.left);
	elems_narrow(m->op.right, m->op.left, wide);
	if (m->op.right->kind == EXPR_SET)
		type_set_elems(m->op.right, m->op.left, data);
}

/* "meta mark | 0x10" as a value: the constant takes the selector's type */
static void binop_type(struct expr *b)
{
	const struct expr *sel = b->op.left;

	if (sel->kind == EXPR_BINOP) {
		binop_type(b->op.left);
		sel = b->op.left;
	}
	/* a value of the packet on the right: "ct mark | meta mark & 0xff" */
	if (b->op.right->kind == EXPR_BINOP)
		binop_type(b->op.right);
	/* a shift's bit count stays a plain number */
	if (b->op.right->kind == EXPR_VALUE && b->op.op != OP_LSHIFT &&
	    b->op.op != OP_RSHIFT)
		type_value(b->op.right, sel->dtype, sel->byteorder, sel->len);
	b->dtype = sel->dtype;
	b->len = sel->len;
	b->byteorder = sel->byteorder;
}

static uint64_t be_to_u64(const uint8_t *p, unsigned int n)
{
	uint64_t v = 0;

	for (unsigned int i = 0; i < n && i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

static void hash_resolve(struct proto_ctx *pctx, struct deps *deps,
			 struct expr *e);

/*
 * A load-modify-write of the header d (load, & mask keeping the other
 * bits, | value): the field the mask leaves open, with the value written
 * to it put in place of the operation.  NULL if none.
 */
static const struct proto_field *masked_write_resolve(struct proto_ctx *pctx,
						      const struct proto_desc *d,
						      struct stmt *s)
{
	struct expr *p = s->payload.expr, *v = s->payload.val, *n;
	const struct proto_field *f;
	unsigned int bytes = p->len / 8;
	const struct expr *and = v->kind == EXPR_BINOP && v->op.op == OP_OR ?
				 v->op.left : v;
	const struct expr *mask, *x = v->kind == EXPR_BINOP &&
				     v->op.op == OP_OR ? v->op.right : NULL;
	uint64_t m, bits, val;
	unsigned int first, len;

	if (bytes > 8 || bytes == 0 || (x && x->kind != EXPR_VALUE) ||
	    (and->kind == EXPR_BINOP && and->op.right->kind != EXPR_VALUE))
		return NULL;
	if (and->kind == EXPR_BINOP && and->op.op == OP_AND) {
		mask = and->op.right;
		/* the and keeps the or'ed bits too: the field is the rest */
		m = ~be_to_u64(mask->val.data, bytes);
		if (x)
			m |= be_to_u64(x->val.data, bytes);
	} else if (x && and->kind == EXPR_PAYLOAD) {
		/* the field set to all ones: an or alone */
		m = be_to_u64(x->val.data, bytes);
	} else {
		return NULL;
	}
	if (bytes < 8)
		m &= (1ULL << (bytes * 8)) - 1;
	if (!m)
		return NULL;
	first = __builtin_clzll(m) - (64 - bytes * 8);
	len = 64 - __builtin_clzll(m) - __builtin_ctzll(m);
	f = payload_field_at(pctx, d, p->payload.offset + first, len);
	if (!f)
		return NULL;
	bits = m >> __builtin_ctzll(m);
	val = x ? (be_to_u64(x->val.data, bytes) >> __builtin_ctzll(m)) & bits : 0;
	n = constant_expr_u64(&internal_location, f->dtype, BYTEORDER_BIG,
			      f->len, val);
	n->byteorder = f->byteorder;
	expr_free(s->payload.val);
	s->payload.val = n;
	return f;
}

/*
 * A header write back to "FIELD set VALUE": a whole field written from an
 * immediate, or the bits a mask leaves open in a load-modify-write.
 */
static void payload_set_resolve(struct proto_ctx *pctx, struct deps *deps,
				struct stmt *s)
{
	struct expr *p = s->payload.expr, *v = s->payload.val, *n;
	const struct proto_desc *d = payload_desc_th(pctx, p);
	const struct proto_field *f;

	if (!d)
		return;
	if (v->kind == EXPR_VALUE) {
		f = payload_field_at(pctx, d, p->payload.offset, p->len);
		if (!f)
			return;
		type_value(v, f->dtype, f->byteorder, f->len);
	} else if (v->kind == EXPR_MAP) {
		/* "ip daddr set numgen inc mod 2 map { 0 : 1.1.1.1, ... }" */
		f = payload_field_at(pctx, d, p->payload.offset, p->len);
		if (!f)
			return;
		n = payload_expr_alloc(&internal_location, d, f);
		hash_resolve(pctx, deps, v);
		map_resolve(pctx, deps, v, n);
		expr_free(n);
	} else {
		f = masked_write_resolve(pctx, d, s);
		if (!f)
			return;
	}
	expr_free(s->payload.expr);
	s->payload.expr = payload_expr_alloc(&internal_location, d, f);
	header_used(deps, d);
}

/* the raw loads a jhash reads, named again */
static void hash_resolve(struct proto_ctx *pctx, struct deps *deps,
			 struct expr *e)
{
	if (e && e->kind == EXPR_MAP)
		e = e->op.left;
	if (e && e->kind == EXPR_HASH && e->hash.expr)
		selector_resolve(pctx, deps, &e->hash.expr);
}

/* a statement that writes a value to a field (include/kind.h) */
static void value_stmt_resolve(struct proto_ctx *pctx, struct deps *deps,
			       struct stmt *s)
{
	struct expr *want, **v = s->ops->value(s, &want);

	hash_resolve(pctx, deps, *v);
	if (*v && (*v)->kind == EXPR_BINOP)
		binop_type(*v);
	if (*v && (*v)->kind == EXPR_MAP)
		map_resolve(pctx, deps, *v, want);
	expr_free(want);
}

/* statements that read the packet besides matches: maps and set updates */
/* "dup to ip saddr", "dup to ip daddr map { ... }" */
static void dup_resolve(struct proto_ctx *pctx, struct deps *deps,
			struct stmt *s)
{
	struct expr *want;

	if (s->fwd.addr && s->fwd.addr->kind == EXPR_MAP) {
		const struct datatype *dt = s->fwd.family == NFPROTO_IPV6 ?
					    &ip6addr_type : &ipaddr_type;

		want = set_type_placeholder(NULL, dt, dt->size, BYTEORDER_BIG);
		map_resolve(pctx, deps, s->fwd.addr, want);
		expr_free(want);
	} else if (s->fwd.addr && s->fwd.addr->kind != EXPR_VALUE) {
		struct expr **sel = &s->fwd.addr;

		while ((*sel)->kind == EXPR_BINOP)
			sel = &(*sel)->op.left;
		selector_resolve(pctx, deps, sel);
		if (s->fwd.addr->kind == EXPR_BINOP)
			binop_type(s->fwd.addr);
	}
}

/* a reject's icmp flavour and the dependency it added */
static void reject_resolve(const struct proto_ctx *pctx, struct deps *deps,
			   struct stmt *s)
{
	/* inet: after another network protocol a bare reject does not
	   load ("meta nfproto 153 reject with icmpx port-unreachable") */
	if (s->reject.type == NFT_REJECT_ICMPX_UNREACH &&
	    pctx->family == NFPROTO_INET) {
		const struct proto_desc *nh = pctx->set_desc[PROTO_BASE_NETWORK_HDR] ?
			pctx->set_desc[PROTO_BASE_NETWORK_HDR] :
			pctx->desc[PROTO_BASE_NETWORK_HDR];

		if (nh && nh != &proto_ip && nh != &proto_ip6)
			s->reject.print_default = true;
	}
	/* in inet, netdev and bridge the icmp flavour follows the match */
	if (s->reject.type == NFT_REJECT_ICMP_UNREACH &&
	    s->reject.family != NFPROTO_IPV4 && s->reject.family != NFPROTO_IPV6) {
		const struct proto_desc *nh = pctx->desc[PROTO_BASE_NETWORK_HDR];
		unsigned int mask, m = proto_nh_sets(deps->head, s, s->reject.family, &mask);
		bool other = (nh == &proto_ip && m == 2) ||
			     (nh == &proto_ip6 && m == 1);

		/* nft names it there: a bare reject is icmpx */
		s->reject.print_default = true;
		s->reject.family = nh == &proto_ip6 ? NFPROTO_IPV6 : NFPROTO_IPV4;
		/* after a set of ether types, the protocol of the last
		   one: its port-unreachable is a bare reject there, and
		   so it is after an ip match of the other protocol
		   ("ip saddr x ether type { ip6 } reject", a rule that
		   matches nothing): a reload takes the set's protocol */
		if (other && (mask != m || s->reject.icmp_code != (m == 2 ? 4 : 3)))
			other = false;
		if (m && (other || (nh != &proto_ip && nh != &proto_ip6))) {
			s->reject.family = m == 2 ? NFPROTO_IPV6 : NFPROTO_IPV4;
			s->reject.print_default = false;
			s->reject.family_of_set = true;
		}
		/* the protocol test is the reject's own dependency,
		   which nft (and nfh) put first in the rule; an ether
		   type is not what the reject adds, so it stays (and
		   a test of the other protocol is no dependency) */
		if (!other && deps->nh && deps->nh->list.prev == deps->head &&
		    (is_dep(deps->nh, NFT_META_NFPROTO, &(uint64_t){ 0 }) ||
		     is_dep(deps->nh, NFT_META_PROTOCOL, &(uint64_t){ 0 })))
			drop(&deps->nh);
	}
	/* in ip and ip6, nft lists a tcp reset without its tcp test */
	if (s->reject.type == NFT_REJECT_TCP_RST &&
	    (s->reject.family == NFPROTO_IPV4 || s->reject.family == NFPROTO_IPV6) &&
	    pctx->desc[PROTO_BASE_TRANSPORT_HDR] == &proto_tcp &&
	    is_dep(deps->th, NFT_META_L4PROTO, &(uint64_t){ 0 }) &&
	    deps->th->list.prev == deps->head)
		drop(&deps->th);
}

static void stmt_resolve(struct proto_ctx *pctx, struct deps *deps,
			 struct stmt *s)
{
	struct expr *want;

	if (s->ops && s->ops->value) {
		value_stmt_resolve(pctx, deps, s);
		return;
	}
	switch (s->kind) {
	case STMT_VERDICT:
		if (s->verdict.expr->kind != EXPR_MAP)
			break;
		want = set_type_placeholder(NULL, &verdict_type, 0,
					    BYTEORDER_INVALID);
		map_resolve(pctx, deps, s->verdict.expr, want);
		expr_free(want);
		break;
	case STMT_SET:
		selector_resolve(pctx, deps, &s->set.key);
		if (s->set.data)	/* add @m { KEY : DATA } */
			selector_resolve(pctx, deps, &s->set.data);
		break;
	case STMT_OBJREF:
		/* the values are names already */
		if (s->objref.expr->kind == EXPR_MAP)
			map_resolve(pctx, deps, s->objref.expr, NULL);
		break;
	case STMT_PAYLOAD:
		payload_set_resolve(pctx, deps, s);
		break;
	case STMT_NAT:
		/* "dnat to tcp dport map { 80 : 10.0.0.1 } : tcp dport map ..." */
		hash_resolve(pctx, deps, s->nat.addr);	/* jhash ip saddr map */
		if (s->nat.addr && s->nat.addr->kind == EXPR_MAP) {
			const struct datatype *dt = s->nat.family == NFPROTO_IPV6 ?
						    &ip6addr_type : &ipaddr_type;

			want = s->nat.concat ? stmt_nat_concat_type(s->nat.family) :
			       set_type_placeholder(NULL, dt, dt->size, BYTEORDER_BIG);
			if (s->nat.interval)
				want->flags |= EXPR_F_DATA_INTERVAL;
			map_resolve(pctx, deps, s->nat.addr, want);
			expr_free(want);
		}
		if (s->nat.proto && s->nat.proto->kind == EXPR_MAP) {
			/* as nft lists it, the port map's key needs the
			   protocol match before it: it stays */
			struct deps keep = { 0 };

			want = set_type_placeholder(NULL, &inet_service_type, 16,
						    BYTEORDER_BIG);
			map_resolve(pctx, &keep, s->nat.proto, want);
			expr_free(want);
		}
		break;
	case STMT_DUP:
		dup_resolve(pctx, deps, s);
		break;
	case STMT_REJECT:
		reject_resolve(pctx, deps, s);
		break;
	default:
		break;
	}
}

/*
 * An address prefix on a ct, rt or other register selector that compares
 * only the prefix's bytes: "ct original ip saddr 10.0.0.0/8".
 */
static bool reg_prefix_match(struct expr *rel)
{
	struct expr *sel = rel->op.left, *r = rel->op.right;
	unsigned int n;

	if (r->kind != EXPR_VALUE || !(sel->dtype->flags & DTYPE_F_PREFIX) ||
	    sel->byteorder != BYTEORDER_BIG || sel->kind == EXPR_BINOP ||
	    (rel->op.op != OP_EQ && rel->op.op != OP_NEQ))
		return false;
	n = expr_value_bytes(r);
	if (n >= div_round_up(sel->len, 8))
		return false;
	r->len = sel->len;
	type_value(r, sel->dtype, sel->byteorder, sel->len);
	rel->op.right = prefix_expr_alloc(&internal_location, r, n * 8);
	return true;
}

/* selectors that are not header fields: typed as they load */
static bool reg_selector(const struct expr *e)
{
	return expr_is_selector(e) && e->kind != EXPR_PAYLOAD &&
	       e->kind != EXPR_EXTHDR;
}

static bool kind_match(struct delin_ctx *ctx, const struct proto_ctx *pctx,
		       struct expr *rel);

static void tcp_dep_used(struct deps *deps)
{
	uint64_t v;

	if (is_dep(deps->th, NFT_META_L4PROTO, &v) && v == IPPROTO_TCP)
		kill(deps, &deps->th);
}

/*
 * A match on an exthdr: its kind names a raw load (exthdr.c's match), and
 * the dependencies the named header makes redundant go; true if the match
 * is one on an exthdr.
 */
static bool exthdr_match(struct delin_ctx *ctx, const struct proto_ctx *pctx,
			 struct deps *deps, const struct stmt *s,
			 struct expr *rel)
{
	const struct expr *x = rel->op.left, *n;

	if (x->kind == EXPR_BINOP && x->op.op == OP_AND)
		x = x->op.left;
	if (x->kind != EXPR_EXTHDR)
		return false;
	if (!kind_match(ctx, pctx, rel))
		return true;
	n = rel->op.left;
	/*
	 * nft puts the dependency of an ipv6 extension header or an ip option
	 * first in the rule, and lists it where a statement other than a
	 * match came between
	 */
	if ((n->exthdr.op == NFT_EXTHDR_OP_IPV6 ||
	     n->exthdr.op == NFT_EXTHDR_OP_IPV4) && deps->nh &&
	    /* in bridge that dependency is the ether type, not meta
	       protocol (which would not come back) */
	    (deps->nh_ether || deps->family != NFPROTO_BRIDGE)) {
		const struct stmt *i = deps->nh;

		/* a vmap is an expression statement to nft too */
		while (i != s && (i->kind == STMT_EXPRESSION ||
				  (i->kind == STMT_VERDICT &&
				   i->verdict.expr->kind == EXPR_MAP)))
			i = list_next_entry(i, list);
		if (i == s) {
			if (deps->nh == deps->grp[0] || deps->nh == deps->grp[1])
				deps->grp[0] = deps->grp[1] = NULL;
			drop(&deps->nh);
		}
	}
	if (n->exthdr.op == NFT_EXTHDR_OP_IPV4)
		header_used(deps, &proto_ip);
	/* a tcp option implies tcp: the meta l4proto tcp that a later
	   statement needs (reject with tcp reset) goes, as nft lists it */
	if (n->exthdr.op == NFT_EXTHDR_OP_TCPOPT)
		tcp_dep_used(deps);
	return true;
}

/*
 * "x & m != 0" on flags is "x m" (any of the bits), and "x & m == 0" is
 * "x ! m" (none of them), as nft lists them
 */
static void flags_test(struct expr *rel)
{
	struct expr *lhs = rel->op.left, *r = rel->op.right, *sel, *m;

	if (lhs->kind != EXPR_BINOP || lhs->op.op != OP_AND ||
	    (rel->op.op != OP_NEQ && rel->op.op != OP_EQ) ||
	    r->kind != EXPR_VALUE || !expr_value_is_zero(r) ||
	    !(lhs->op.left->dtype->flags & DTYPE_F_BITMASK))
		return;
	sel = lhs->op.left;
	m = lhs->op.right;
	lhs->op.left = lhs->op.right = NULL;
	expr_free(lhs);
	expr_free(r);
	rel->op.left = sel;
	rel->op.right = m;
	rel->op.op = rel->op.op == OP_NEQ ? OP_IMPLICIT : OP_NEG;
}

/* the selector under a chain of binary operations */
static const struct expr *binop_sel(const struct expr *e)
{
	while (e->kind == EXPR_BINOP)
		e = e->op.left;
	return e;
}

/* a match on a concatenation: each part named, the constants cut to the
   parts' widths and typed */
static void concat_match(struct proto_ctx *pctx, struct deps *deps, struct stmt *s)
{
	unsigned int wide[NREGS];

	wide_parts_of(s->expr->op.left, wide);
	selector_resolve(pctx, deps, &s->expr->op.left);
	elems_narrow(s->expr->op.right, s->expr->op.left, wide);
	if (s->expr->op.right->kind == EXPR_SET)
		type_set_elems(s->expr->op.right, s->expr->op.left, NULL);
}

/*
 * cmp gte + cmp lte on the same load is a range; not with a load between
 * (meta cpu >= 7 meta mark <= 3).  The lte's statement goes, and *next
 * moves past it.
 */
static void range_fold(struct list_head *stmts, struct expr *rel, struct stmt **next)
{
	struct stmt *n2 = *next;

	if (rel->op.op != OP_GTE || &n2->list == stmts ||
	    n2->kind != STMT_EXPRESSION || n2->expr->op.op != OP_LTE ||
	    !(n2->expr->flags & EXPR_F_REG_AGAIN) ||
	    n2->expr->op.right->kind != EXPR_VALUE ||
	    rel->op.right->kind != EXPR_VALUE)
		return;
	rel->op.right = range_expr_alloc(&internal_location, rel->op.right,
					 n2->expr->op.right);
	n2->expr->op.right = NULL;
	rel->op.op = OP_EQ;
	*next = list_next_entry(n2, list);
	list_del(&n2->list);
	n2->expr->op.right = constant_expr_u64(NULL, &integer_type,
					       BYTEORDER_BIG, 8, 0);
	stmt_free(n2);
}

/* as nft: "meta mark & 0xffff0000 == v" is v/16 */
static void mask_to_prefix(struct expr *rel, const struct expr *sel)
{
	struct expr *lhs = rel->op.left;
	unsigned int plen;

	if (lhs->kind != EXPR_BINOP || lhs->op.op != OP_AND ||
	    (rel->op.op != OP_EQ && rel->op.op != OP_NEQ) ||
	    rel->op.right->kind != EXPR_VALUE ||
	    !(sel->dtype->flags & DTYPE_F_PREFIX) ||
	    !mask_is_prefix(lhs->op.right, &plen))
		return;
	if (plen < sel->len)
		rel->op.right = prefix_expr_alloc(&internal_location,
						  rel->op.right, plen);
	rel->op.left = expr_clone(sel);
	expr_free(lhs);
}

/* which dependency of a later match a register match s may be */
static void reg_dep_note(const struct delin_ctx *ctx, struct deps *deps,
			 struct stmt *s, const struct expr *rel)
{
	uint64_t v;

	/*
	 * meta l4proto is the transport header's dependency that compiling
	 * the listing gives back; a ct protocol match names the header (the
	 * context) but is no dependency: nft drops it, and its listing loads
	 * back as meta l4proto, another match (untracked packets)
	 */
	if (is_dep(s, NFT_META_L4PROTO, &v))
		deps->th = s;
	/*
	 * The network header's dependency is the one that compiling the
	 * listing gives back: meta protocol in netdev and bridge, meta
	 * nfproto in inet.  Elsewhere (and ct l3proto anywhere) the match
	 * stays: nft drops "meta protocol 8021q" in arp and "ct l3proto
	 * ipv4" in ip6, and its listing then matches what the rule did not
	 */
	else if ((is_dep(s, NFT_META_PROTOCOL, &v) &&
		  (ctx->family == NFPROTO_NETDEV ||
		   ctx->family == NFPROTO_BRIDGE)) ||
		 (is_dep(s, NFT_META_NFPROTO, &v) &&
		  ctx->family == NFPROTO_INET)) {
		deps->nh = s;
		deps->nh_ether = false;
	}
	else if (is_dep(s, NFT_META_IIFTYPE, &v) && v == ARPHRD_ETHER)
		/* not an ether field: the ether type after it is
		   no dependency of the network header then, as
		   recompiling it would give meta nfproto */
		deps->ll = s;
}

/* a match on a register selector (meta, ct, ...), maybe masked */
static void reg_match(const struct delin_ctx *ctx, struct proto_ctx *pctx,
		      struct deps *deps, struct stmt *s, struct expr *rel)
{
	struct expr *lhs = rel->op.left;
	const struct expr *sel = lhs->kind == EXPR_BINOP ? lhs->op.left : lhs;

	if (lhs->kind == EXPR_BINOP) {
		type_value(lhs->op.right, sel->dtype, sel->byteorder, sel->len);
		lhs->dtype = sel->dtype;
		lhs->len = sel->len;
		lhs->byteorder = sel->byteorder;
	}
	if (!reg_prefix_match(rel))
		type_rhs(rel->op.right, sel);
	flags_test(rel);
	mask_to_prefix(rel, sel);
	reg_dep_note(ctx, deps, s, rel);
	proto_ctx_update(pctx, rel);
	if (deps->nh == s)
		deps->nh_is = pctx->desc[PROTO_BASE_NETWORK_HDR];
}

/* an icmp or icmpv6 match p: a lone type is the dependency of a later
   field; a field that implies the type it follows makes it redundant */
static void icmp_dep(struct deps *deps, struct stmt *s, const struct expr *rel,
		     const struct expr *p)
{
	const struct proto_desc *d = p->payload.desc;
	const char *fn;
	const uint8_t *t;
	unsigned int n;

	if ((d != &proto_icmp && d != &proto_icmp6) || !p->payload.tmpl)
		return;
	fn = p->payload.tmpl->name;
	/* nft drops a single type it implied, not a set */
	t = proto_icmp_types(d, p->payload.tmpl, &n);
	if (!strcmp(fn, "type") && rel->op.op == OP_EQ &&
	    rel->op.right->kind == EXPR_VALUE)
		deps->icmp = s;
	else if (n == 1 && deps->icmp &&
		 expr_value_u64(deps->icmp->expr->op.right) == t[0])
		kill(deps, &deps->icmp);
}

/* an ether type match s of value v, on the payload p: the dependency of
   what follows it may be */
static void ether_type_dep(const struct delin_ctx *ctx, struct deps *deps,
			   struct stmt *s, const struct expr *p, uint64_t v,
			   bool ll_seen)
{
	const struct proto_desc *d = p->payload.desc;
	bool nh = v == 0x0806 || v == 0x0800 || v == 0x86dd;

	/* in inet and netdev nft tests it for the network
	   header after another ether match only */
	/* a tag inside a tag ("vlan type 8021q"): nft
	   lists the ether type 8021q before it */
	if ((v == 0x8100 || v == 0x88a8) &&
	    p->payload.desc == &proto_vlan)
		deps->vlan = NULL;
	else if (v == 0x8100)
		deps->vlan = s;
	else if (nh && (ctx->family == NFPROTO_BRIDGE ||
			((ctx->family == NFPROTO_INET ||
			  ctx->family == NFPROTO_NETDEV) &&
			 (ll_seen || d == &proto_vlan)))) {
		/* after ether type 8021q, the network
		   header's test is a vlan type */
		deps->nh = s;
		deps->nh_ether = ctx->family == NFPROTO_BRIDGE &&
				 d != &proto_vlan;
		deps->nh_is = v == 0x0800 ? &proto_ip :
			      v == 0x86dd ? &proto_ip6 : NULL;
	}
}

/*
 * A payload match: the dependencies it makes redundant killed, and those
 * of later matches it may be noted.  *ll_seen: an ether or vlan field
 * other than the type came before.
 */
static void payload_deps(const struct delin_ctx *ctx, struct deps *deps,
			 struct stmt *s, const struct expr *rel, bool *ll_seen)
{
	const struct expr *lhs = rel->op.left;
	const struct expr *p = lhs->kind == EXPR_BINOP ? lhs->op.left : lhs;
	const struct proto_desc *d = p->payload.desc;
	uint64_t v;

	icmp_dep(deps, s, rel, p);
	/*
	 * A lone "vlan type ip" (or != ip) keeps its "ether
	 * type 8021q" in the families with a link layer, as
	 * nft lists it; a set, a range or a comparison does
	 * not, nor any in ip and ip6
	 */
	if (d == &proto_vlan && p->payload.tmpl &&
	    !strcmp(p->payload.tmpl->name, "type") &&
	    rel->op.right->kind == EXPR_VALUE &&
	    (rel->op.op == OP_EQ || rel->op.op == OP_NEQ) &&
	    (ctx->family == NFPROTO_BRIDGE || ctx->family == NFPROTO_INET ||
	     ctx->family == NFPROTO_NETDEV))
		kill(deps, &deps->ll);
	else
		header_used(deps, d);
	if (is_ether_type(s, &v))
		ether_type_dep(ctx, deps, s, p, v, *ll_seen);
	else if (d == &proto_eth || d == &proto_vlan)
		*ll_seen = true;
}

/* "meta mark & 0xff | 0x3 == 0x13": each constant in the register's byte
   order */
static bool binop_chain_match(struct proto_ctx *pctx, struct expr *rel)
{
	struct expr *lhs = rel->op.left;

	if (lhs->kind != EXPR_BINOP || lhs->op.left->kind != EXPR_BINOP ||
	    !reg_selector(binop_sel(lhs)))
		return false;
	binop_type(lhs);
	type_rhs(rel->op.right, binop_sel(lhs));
	proto_ctx_update(pctx, rel);
	return true;
}

static void kind_type_rhs(struct kind_delin *k, struct expr *r,
			  const struct expr *lhs)
{
	type_rhs(r, lhs);
}

/* a match on a raw load (masked or not) named by its kind as the field
   the rule's protocols (@pctx) say (include/kind.h); false if not */
static bool kind_match(struct delin_ctx *ctx, const struct proto_ctx *pctx,
		       struct expr *rel)
{
	struct kind_delin k = KIND_DELIN(ctx);
	const struct expr *sel = rel->op.left;

	k.pctx = pctx;
	if (sel->kind == EXPR_BINOP && sel->op.op == OP_AND)
		sel = sel->op.left;
	if (!sel->ops || !sel->ops->match)
		return false;
	return sel->ops->match(&k, rel);
}

/* a merged load split by its kind into the fields it covers: @s and the
   matches after it, the group that shares its dependencies; false if not */
static bool kind_expand(struct delin_ctx *ctx, const struct proto_ctx *pctx,
			struct stmt *s, struct stmt *grp[2])
{
	struct kind_delin k = KIND_DELIN(ctx);
	const struct expr *sel = s->expr->op.left;
	struct stmt *last;

	k.pctx = pctx;
	if (!sel->ops || !sel->ops->expand)
		return false;
	last = sel->ops->expand(&k, s);
	if (!last)
		return false;
	grp[0] = s;
	grp[1] = last;
	return true;
}

/* a match: its raw loads named, the dependencies it makes redundant
   killed; @expand: a merged load may be split into its fields */
static void match_resolve(struct delin_ctx *ctx, struct proto_ctx *pctx,
			  struct deps *deps, struct stmt *s, bool *ll_seen,
			  struct stmt **next, bool expand)
{
	struct expr *rel, *lhs;

	if (s->expr->op.left->kind == EXPR_CONCAT) {
		concat_match(pctx, deps, s);
		return;
	}
	rel = s->expr;
	if (rel->op.right->kind == EXPR_SET_REF &&
	    bits_shift_resolve(pctx, deps, &rel->op.left))
		return;
	range_fold(&ctx->rule->stmts, rel, next);
	lhs = rel->op.left;
	if (exthdr_match(ctx, pctx, deps, s, rel))
		return;
	hash_resolve(pctx, deps, lhs);
	if (binop_chain_match(pctx, rel))
		return;
	if (reg_selector(lhs) ||
	    (lhs->kind == EXPR_BINOP && reg_selector(lhs->op.left))) {
		reg_match(ctx, pctx, deps, s, rel);
		return;
	}
	if (expand && kind_expand(ctx, pctx, s, deps->grp)) {
		rel = s->expr;
		*next = list_next_entry(s, list);
	}
	if (!kind_match(ctx, pctx, rel))
		return;
	flags_test(rel);
	payload_deps(ctx, deps, s, rel, ll_seen);
	proto_ctx_update(pctx, rel);
}

/* "(load & fmask) >> n & mask", a field of a few bits shifted down and
   masked again: its "load & fmask"; NULL if the match is not that */
static struct expr *shifted_mask_of(struct expr *l)
{
	struct expr *sh, *b;

	if (l->kind != EXPR_BINOP || l->op.op != OP_AND)
		return NULL;
	sh = l->op.left;
	if (sh->kind != EXPR_BINOP || sh->op.op != OP_RSHIFT ||
	    sh->op.right->kind != EXPR_VALUE ||
	    expr_value_u64(sh->op.right) >= 64)
		return NULL;
	b = sh->op.left;
	if (b->kind != EXPR_BINOP || b->op.op != OP_AND)
		return NULL;
	return b;
}

/* where a match reads inside a tunnel: its left side, or the selector of
   a masked one (of a shifted field of a few bits under a mask too); NULL
   if it does not */
static struct expr **inner_slot(struct stmt *s)
{
	struct expr *l = s->expr->op.left, *b = shifted_mask_of(l);

	if (b)
		return inner_child(b->op.left) ? &b->op.left : NULL;
	if (l->kind == EXPR_BINOP)
		return inner_child(l->op.left) ? &l->op.left : NULL;
	return inner_child(l) ? &s->expr->op.left : NULL;
}

/*
 * The field of a few bits that bits [@at, @at+@mlen) of a load from @off
 * to @end sit in and that ends the load; the field's own bits are no
 * mask of it
 */
static const struct proto_field *field_ending(const struct proto_ctx *pctx,
					      const struct proto_desc *d,
					      unsigned int off, unsigned int at,
					      unsigned int mlen, unsigned int end)
{
	const struct proto_field *f = NULL;

	for (unsigned int i = 0; i < PROTO_FIELDS_MAX && d->fields[i].name; i++) {
		const struct proto_field *g = &d->fields[i];
		unsigned int go = g->offset + payload_stack_off(pctx, d);

		if (go <= at && at + mlen <= go + g->len &&
		    go + g->len == end && go >= off && !g->listed_raw &&
		    !(go == at && g->len == mlen))
			f = g;
	}
	return f;
}

/*
 * A field of a few bits under a mask, in a tunnel (nft 1.1 text, which
 * nft 1.0.6 has no form for, and the only one that loads back: nft's
 * grammar takes no raw load in a tunnel): "(@th,96,8 & 0xf0) >> 4 & 3 !=
 * 2" is "tcp doff & 3 != 2", as nft 1.1.1 lists it, and "@nh,0,8 & 0xe
 * == 4", a mask inside the field that ends the load, "ip hdrlength & 14
 * == 4", which nft 1.1.1 lists raw (its dependency printed outside the
 * tunnel).  true if the match was named.
 */
static bool inner_bits_match(struct proto_ctx *pctx, struct stmt *s)
{
	struct expr *rel = s->expr, *l = rel->op.left, *b = shifted_mask_of(l);
	struct expr *p, *fmask, *mask;
	const struct proto_desc *d;
	const struct proto_field *f = NULL;
	unsigned int first, mlen, off, end;

	if (l->kind != EXPR_BINOP || l->op.op != OP_AND ||
	    l->op.right->kind != EXPR_VALUE ||
	    rel->op.right->kind != EXPR_VALUE ||
	    (rel->op.op != OP_EQ && rel->op.op != OP_NEQ))
		return false;
	fmask = b ? b->op.right : l->op.right;
	p = b ? b->op.left : l->op.left;
	if (p->kind != EXPR_PAYLOAD || !p->payload.is_raw || p->len > 64 ||
	    fmask->kind != EXPR_VALUE)
		return false;
	d = payload_desc_th(pctx, p);
	mlen = mask_bits(fmask, &first);
	if (!d || !mlen || !mask_is_run(fmask, first, mlen) ||
	    first + mlen > p->len)
		return false;
	off = p->payload.offset;
	end = off + p->len;
	if (b) {
		/* the shift moves exactly the field down */
		if (first + mlen + expr_value_u64(l->op.left->op.right) != p->len)
			return false;
		f = payload_field_at(pctx, d, off + first, mlen);
	} else {
		f = field_ending(pctx, d, off, off + first, mlen, end);
	}
	if (!f || !(f->offset % 8 || f->len % 8))
		return false;
	mask = l->op.right;
	l->op.right = NULL;
	if (!b)
		shift_rhs_right(mask, 0, div_round_up(f->len, 8), 64);
	shift_rhs_right(rel->op.right, 0, div_round_up(f->len, 8), 64);
	expr_free(rel->op.left);
	rel->op.left = binop_expr_alloc(&internal_location, OP_AND,
					payload_expr_alloc(&internal_location, d, f),
					mask);
	l = rel->op.left;
	type_value(mask, f->dtype, f->byteorder, f->len);
	l->dtype = f->dtype;
	l->byteorder = f->byteorder;
	l->len = f->len;
	type_rhs(rel->op.right, l->op.left);
	return true;
}

/**
 * struct inner_deps - what postprocess() knows of the packets in tunnels
 * @pctx, @deps, @ll_seen: as the rule's, for all its tunnels (nft keeps
 *	one context of the inner packet)
 * @set: a tunnel's match was met, @pctx is set up
 */
struct inner_deps {
	struct proto_ctx	pctx;
	struct deps		deps;
	bool			ll_seen;
	bool			set;
};

static struct inner_deps *inner_deps_of(struct deps *outer,
				       const struct expr *w);

/* gre's test of the outer protocol dropped */
static void gre_dep_drop(struct deps *outer)
{
	uint64_t v;

	if (is_dep(outer->th, NFT_META_L4PROTO, &v) && v == IPPROTO_GRE) {
		if (outer->th == outer->grp[0] || outer->th == outer->grp[1])
			outer->grp[0] = outer->grp[1] = NULL;
		drop(&outer->th);
	}
}

/* a match on gre's own header (nft 1.1.1 drops the outer test then,
   wherever it stands) */
static bool gre_field(const struct stmt *s)
{
	const struct expr *l = s->expr->op.left;

	if (l->kind == EXPR_BINOP)
		l = l->op.left;
	return l->kind == EXPR_PAYLOAD && l->payload.desc == &proto_gre;
}

/* a concatenation that starts with a field in gre (nft 1.1.1 drops the
   outer test then too) */
static bool concat_in_gre(const struct stmt *s)
{
	const struct expr *l = s->expr->op.left, *first;

	if (l->kind != EXPR_CONCAT || list_empty(&l->set.exprs))
		return false;
	first = list_first_entry(&l->set.exprs, struct expr, list);
	return inner_child(first) && inner_on_gre(first);
}

/*
 * A raw transport load in a tunnel left unnamed by the header known
 * there (th sport { 23, 9261-57018 } after an ah field): th sport or th
 * dport, as nft 1.1.1 lists it; a raw load in a tunnel does not load
 * back
 */
static void inner_th_name(struct expr *rel)
{
	struct expr **l = &rel->op.left, *n;
	const struct proto_field *f;

	if ((*l)->kind == EXPR_BINOP)
		return;
	if ((*l)->kind != EXPR_PAYLOAD || !(*l)->payload.is_raw ||
	    (*l)->payload.base != PROTO_BASE_TRANSPORT_HDR || (*l)->len != 16 ||
	    ((*l)->payload.offset != 0 && (*l)->payload.offset != 16))
		return;
	f = proto_field_lookup(&proto_th, (*l)->payload.offset ? "dport" :
								"sport");
	if (!f)
		return;
	n = payload_expr_alloc(&internal_location, &proto_th, f);
	type_rhs(rel->op.right, n);
	expr_free(*l);
	*l = n;
}

/*
 * A match inside a tunnel, resolved as a rule of the family whose
 * dependencies nft adds inside, on the field the tunnel reads: then
 * wrapped again (each field of a merged load too).  gre's test of the
 * outer protocol is one nft adds back.
 */
static void inner_match_resolve(struct delin_ctx *ctx, struct deps *outer,
				struct inner_deps *in, struct stmt *s,
				struct stmt **next)
{
	struct expr **slot = inner_slot(s), *w = *slot;
	unsigned int family = ctx->family;

	const struct expr *rel = s->expr;
	/*
	 * nft 1.1.1 drops gre's test of the outer protocol, wherever it
	 * stands, at a field in the tunnel that is compared with a value
	 * (== or !=) or read under a mask (a field of a few bits, a flag
	 * test): not at a set, a range or an order on a whole field
	 */
	bool gre_dep = inner_on_gre(w) && inner_child(w)->kind == EXPR_PAYLOAD &&
		       !shifted_mask_of(rel->op.left) &&
		       (slot != &s->expr->op.left ||
			((rel->op.op == OP_EQ || rel->op.op == OP_NEQ) &&
			 rel->op.right->kind == EXPR_VALUE));

	inner_deps_of(outer, w);
	in->deps.cur = s;
	ctx->family = inner_family(w);
	*slot = inner_unwrap(w);
	if (inner_bits_match(&in->pctx, s))
		payload_deps(ctx, &in->deps, s, s->expr, &in->ll_seen);
	else
		match_resolve(ctx, &in->pctx, &in->deps, s, &in->ll_seen, next,
			      true);
	inner_th_name(s->expr);
	if (in->deps.grp[0] == s && in->deps.grp[1] != s) {
		/* a load nft merged, split: each field read in the tunnel */
		struct stmt *i = s;

		do {
			i = list_next_entry(i, list);
			i->expr->op.left = inner_wrap(w, i->expr->op.left);
		} while (i != in->deps.grp[1]);
	}
	/* nft 1.1.1 drops an ether type in a tunnel that a network header
	   after it needs (a bridge's own it keeps, but for extension
	   headers) */
	in->deps.nh_ether = false;
	ctx->family = family;
	slot = s->expr->op.left->kind == EXPR_BINOP ? &s->expr->op.left->op.left :
						      &s->expr->op.left;
	*slot = inner_rewrap(w, *slot);
	if (gre_dep)
		gre_dep_drop(outer);
}

/* the context of the packet in @w's tunnel, set up on first use */
static struct inner_deps *inner_deps_of(struct deps *outer, const struct expr *w)
{
	struct inner_deps *in = outer->in;

	if (!in->set) {
		proto_ctx_init(&in->pctx, inner_family(w));
		in->pctx.nft11 = true;
		in->deps = (struct deps){ .head = outer->head };
		in->set = true;
	}
	in->pctx.desc[PROTO_BASE_TUN_HDR] = inner_tunnel_desc(w);
	in->deps.family = inner_family(w);
	return in;
}

/* a set's or map's key read inside a tunnel ("vxlan ip saddr vmap") */
static void inner_key_resolve(struct deps *deps, struct expr **e)
{
	struct inner_deps *in = inner_deps_of(deps, *e);
	struct expr *w = *e, *c = inner_unwrap(w);

	in->deps.cur = deps->cur;
	selector_resolve(&in->pctx, &in->deps, &c);
	*e = inner_rewrap(w, c);
}

static void postprocess(struct delin_ctx *ctx)
{
	struct proto_ctx pctx;
	struct stmt *s, *next;
	struct deps deps = { 0 };
	struct inner_deps in = { 0 };
	bool ll_seen = false;	/* an ether or vlan field other than the type */

	proto_ctx_init(&pctx, ctx->family);
	pctx.nft11 = true;	/* "gre protocol ip" is named, as nft 1.1.1 */
	deps.head = &ctx->rule->stmts;
	deps.family = ctx->family;
	deps.in = &in;
	list_for_each_entry_safe(s, next, &ctx->rule->stmts, list) {
		deps.cur = s;
		if (s->kind != STMT_EXPRESSION) {
			stmt_resolve(&pctx, &deps, s);
			/* a vmap is an expression statement to nft, whose
			   tests before it are dependencies still */
			if (s->kind == STMT_VERDICT &&
			    s->verdict.expr->kind == EXPR_MAP)
				continue;
			/*
			 * A test before a statement stays, as nft lists it:
			 * "meta l4proto tcp counter tcp dport 22" counts tcp
			 * packets only.
			 */
			deps = (struct deps){ .head = deps.head,
					      .family = deps.family, .in = &in };
			in.deps = (struct deps){ .head = deps.head };
			continue;
		}
		if (inner_slot(s)) {
			inner_match_resolve(ctx, &deps, &in, s, &next);
			continue;
		}
		match_resolve(ctx, &pctx, &deps, s, &ll_seen, &next, true);
		if (concat_in_gre(s) || gre_field(s))
			gre_dep_drop(&deps);
	}
}

static struct rule *delin_rule_in(struct cache_table *t,
				  struct nftnl_rule *nlr, bool in_binding)
{
	struct delin_ctx ctx = { .table = t, .in_binding = in_binding };
	struct nftnl_expr_iter *it = nftnl_expr_iter_create(nlr);
	struct nftnl_expr *e;

	ctx.rule = rule_alloc(&internal_location);
	ctx.family = nftnl_rule_get_u32(nlr, NFTNL_RULE_FAMILY);
	ctx.rule->h.handle = nftnl_rule_get_u64(nlr, NFTNL_RULE_HANDLE);
	while ((e = nftnl_expr_iter_next(it)))
		delin_stmt_expr(&ctx, e);
	nftnl_expr_iter_destroy(it);
	for (unsigned int i = 0; i < NREGS; i++)
		expr_free(ctx.regs[i]);
	postprocess(&ctx);
	if (nftnl_rule_is_set(nlr, NFTNL_RULE_USERDATA)) {
		uint32_t len;
		const void *ud = nftnl_rule_get_data(nlr, NFTNL_RULE_USERDATA, &len);

		ctx.rule->comment = udata_get_comment(ud, len);
	}
	return ctx.rule;
}

struct rule *delin_rule(struct cache_table *t, struct nftnl_rule *nlr)
{
	return delin_rule_in(t, nlr, false);
}

static int set_expr_cb(struct nftnl_expr *e, void *data)
{
	struct set *s = data;
	struct delin_ctx ctx = { .family = s->h.family };

	/* each one a statement, as a rule's would be (no registers) */
	ctx.rule = rule_alloc(&internal_location);
	delin_stmt_expr(&ctx, e);
	for (unsigned int i = 0; i < NREGS; i++)
		expr_free(ctx.regs[i]);
	list_splice_tail_init(&ctx.rule->stmts, &s->stmts);
	rule_free(ctx.rule);
	return 0;
}

/*
 * The selectors a typeof declaration named, where the userdata holds ones
 * that fit the key the kernel keeps; the key is then typed by them.
 */
static void set_typeof_read(struct set *s, const struct set_udata *ud,
			    const struct nftnl_set *nls)
{
	struct expr *k, *d = NULL;
	bool verdict = false;

	k = set_typeof_parse(ud->key_typeof, ud->key_typeof_len,
			     s->h.family, &verdict);
	if (!k || verdict)
		goto out;
	if (set_key_bytes(k) != nftnl_set_get_u32(nls, NFTNL_SET_KEY_LEN))
		goto out;
	if (s->is_map && !s->objtype) {
		d = set_typeof_parse(ud->data_typeof, ud->data_typeof_len,
				     s->h.family, &verdict);
		if (verdict ? s->data->dtype != &verdict_type :
		    !d || s->data->dtype == &verdict_type ||
		    set_key_bytes(d) != nftnl_set_get_u32(nls, NFTNL_SET_DATA_LEN))
			goto out;
	}
	expr_free(s->key);
	s->key = set_key_of_selector(k);
	s->key_sel = k;
	if (d) {
		expr_free(s->data);
		s->data = set_key_of_selector(d);
		s->data_sel = d;
	}
	return;
out:
	expr_free(k);
	expr_free(d);
}

/* a map's data type: an object, a verdict, or a value of the type the
   set's user data or data type say */
static void set_data_of(struct set *s, struct nftnl_set *nls,
			const struct set_udata *ud)
{
	uint32_t dt, len = nftnl_set_get_u32(nls, NFTNL_SET_DATA_LEN);

	if (s->flags & NFT_SET_OBJECT) {
		s->objtype = nftnl_set_get_u32(nls, NFTNL_SET_OBJ_TYPE);
		s->data = set_type_placeholder(NULL, &objref_type,
					       objref_type.size, BYTEORDER_HOST);
		return;
	}
	if (!s->is_map)
		return;
	dt = nftnl_set_get_u32(nls, NFTNL_SET_DATA_TYPE);
	/* "type K : interval V": a low and a high end each */
	s->data_interval = ud->data_interval && dt != NFT_DATA_VERDICT &&
			   len % 2 == 0;
	if (s->data_interval)
		len /= 2;
	if (dt == NFT_DATA_VERDICT)
		s->data = set_type_placeholder(NULL, &verdict_type, 0,
					       BYTEORDER_INVALID);
	else
		s->data = set_key_decode(dt, len, ud->data_bo);
	if (!s->data)
		s->data = set_type_placeholder(NULL, &integer_type, len * 8,
					       BYTEORDER_BIG);
	if (s->data_interval)
		s->data->flags |= EXPR_F_DATA_INTERVAL;
}

/* the set's elements, typed as its key and data */
static void set_elems_of(struct set *s, struct cache_set *cs)
{
	struct elem_dump *ed = cs->elems ? cs->elems :
			       elem_dump_from_nftnl(cs->nls);
	struct expr *be_key = interval_key(s);
	const struct expr *key = be_key ? be_key : s->key;

	s->init = elems_expr(cs, ed, s->flags & NFT_SET_INTERVAL, key);
	if (ed != cs->elems)
		elem_dump_free(ed);
	type_set_elems(s->init, key, s->data);
	expr_free(be_key);
}

struct set *delin_set(struct cache_table *t, struct cache_set *cs, bool elems)
{
	struct nftnl_set *nls = cs->nls;
	struct set *s = set_alloc(NULL);
	struct set_udata ud;

	(void)t;
	set_udata_parse(nls, &ud);
	s->h.family = nftnl_set_get_u32(nls, NFTNL_SET_FAMILY);
	s->h.table = xstrdup(nftnl_set_get_str(nls, NFTNL_SET_TABLE));
	s->h.set = xstrdup(nftnl_set_get_str(nls, NFTNL_SET_NAME));
	if (nftnl_set_is_set(nls, NFTNL_SET_HANDLE))
		s->h.handle = nftnl_set_get_u64(nls, NFTNL_SET_HANDLE);
	s->flags = nftnl_set_get_u32(nls, NFTNL_SET_FLAGS);
	s->is_map = s->flags & (NFT_SET_MAP | NFT_SET_OBJECT);
	s->is_anon = s->flags & NFT_SET_ANONYMOUS;
	s->key = set_key_of(nls);
	set_data_of(s, nls, &ud);
	if (nftnl_set_is_set(nls, NFTNL_SET_TIMEOUT))
		s->timeout = nftnl_set_get_u64(nls, NFTNL_SET_TIMEOUT);
	if (nftnl_set_is_set(nls, NFTNL_SET_GC_INTERVAL))
		s->gc_int = nftnl_set_get_u32(nls, NFTNL_SET_GC_INTERVAL);
	if (nftnl_set_is_set(nls, NFTNL_SET_DESC_SIZE))
		s->size = nftnl_set_get_u32(nls, NFTNL_SET_DESC_SIZE);
	if (nftnl_set_is_set(nls, NFTNL_SET_POLICY))
		s->policy = nftnl_set_get_u32(nls, NFTNL_SET_POLICY);
	s->comment = ud.comment;
	s->automerge = ud.merge;
	if (!s->objtype)	/* nft 1.0.6 lists object maps by type */
		set_typeof_read(s, &ud, nls);
	nftnl_set_expr_foreach(nls, set_expr_cb, s);
	if (elems)
		set_elems_of(s, cs);
	return s;
}

/* --- the elements that hold given values (get element) --------------------- */

/* an element's bounds as the kernel keeps keys, both inclusive */
static void pair_bounds(const struct elem_dump *ed, const struct elem_pair *p,
			uint8_t *lo, uint8_t *hi)
{
	const struct elem_drec *r = elem_drec(ed, p->lo);

	memset(lo, 0, ed->klen);
	memset(hi, 0, ed->klen);
	memcpy(lo, elem_dkey(ed, p->lo), r->klen);
	switch (p->kind) {
	case PAIR_KEY_END:
		memcpy(hi, elem_dkey_end(ed, p->lo), r->klen);
		break;
	case PAIR_END:
		/* the end is exclusive: one less */
		memcpy(hi, elem_dkey(ed, p->hi), elem_drec(ed, p->hi)->klen);
		be_dec(hi, ed->klen);
		break;
	case PAIR_MAX:
		memset(hi, 0xff, r->klen);
		break;
	default:
		memcpy(hi, lo, ed->klen);
		break;
	}
}

/*
 * Whether [elo, ehi] holds [lo, hi]: keys compare byte by byte as the
 * kernel orders them, each field of a concatenation on its own.
 */
static bool bounds_hold(const struct expr *key, unsigned int klen,
			const uint8_t *elo, const uint8_t *ehi,
			const uint8_t *lo, const uint8_t *hi)
{
	const struct expr *i;
	unsigned int off = 0;

	if (key->kind != EXPR_CONCAT)
		return memcmp(elo, lo, klen) <= 0 && memcmp(hi, ehi, klen) <= 0;
	list_for_each_entry(i, &key->set.exprs, list) {
		unsigned int n = div_round_up(i->len, 32) * 4;

		if (off + n > klen)
			return false;
		if (memcmp(elo + off, lo + off, n) > 0 ||
		    memcmp(hi + off, ehi + off, n) > 0)
			return false;
		off += n;
	}
	return true;
}

struct pick_ctx {
	const struct elem_dump	*ed;
	const struct elem_pair	*p;
};

static int pair_lo_cmp(const void *a, const void *b, void *data)
{
	const struct pick_ctx *pc = data;
	const struct elem_pair *x = &pc->p[*(const uint32_t *)a];
	const struct elem_pair *y = &pc->p[*(const uint32_t *)b];

	return memcmp(elem_dkey(pc->ed, x->lo), elem_dkey(pc->ed, y->lo),
		      pc->ed->klen);
}

/* marks the @i-th element picked if it holds @lo..@hi */
static bool pick_one(struct cache_set *cs, const struct pick_ctx *pc,
		     const struct expr *key, size_t i, const uint8_t *lo,
		     const uint8_t *hi)
{
	uint8_t elo[NFH_VAL_MAXLEN], ehi[NFH_VAL_MAXLEN];

	pair_bounds(pc->ed, &pc->p[i], elo, ehi);
	if (!bounds_hold(key, pc->ed->klen, elo, ehi, lo, hi))
		return false;
	cs->pick[i / 8] |= 1u << (i % 8);
	return true;
}

/* intervals do not overlap: the one that can hold a value starts last at
   or below it (@order: the elements by their start) */
static bool pick_sorted(struct cache_set *cs, const struct pick_ctx *pc,
			const struct expr *key, const uint32_t *order,
			size_t n, const uint8_t *lo, const uint8_t *hi)
{
	size_t a = 0, b = n;

	/* the first start above the value's low end */
	while (a < b) {
		size_t m = a + (b - a) / 2;

		if (memcmp(elem_dkey(pc->ed, pc->p[order[m]].lo), lo,
			   pc->ed->klen) <= 0)
			a = m + 1;
		else
			b = m;
	}
	return a > 0 && pick_one(cs, pc, key, order[a - 1], lo, hi);
}

/* concatenated intervals are boxes, searched one by one */
static bool pick_scan(struct cache_set *cs, const struct pick_ctx *pc,
		      const struct expr *key, size_t n, const uint8_t *lo,
		      const uint8_t *hi)
{
	bool found = false;

	for (size_t i = 0; i < n; i++)
		found |= pick_one(cs, pc, key, i, lo, hi);
	return found;
}

static uint32_t *pairs_by_start(struct pick_ctx *pc, size_t n)
{
	uint32_t *order = xmalloc(n * sizeof(*order));

	for (size_t i = 0; i < n; i++)
		order[i] = i;
	qsort_r(order, n, sizeof(*order), pair_lo_cmp, pc);
	return order;
}

void set_elems_pick(struct cache_set *cs, const struct set *s,
		    const struct expr *want, bool *found)
{
	struct expr *be_key = interval_key(s);
	const struct expr *key = be_key ? be_key : s->key;
	struct elem_dump *ed = cs->elems ? cs->elems : elem_dump_from_nftnl(cs->nls);
	bool boxes = (s->flags & NFT_SET_INTERVAL) && key->kind == EXPR_CONCAT;
	uint8_t lo[NFH_VAL_MAXLEN], hi[NFH_VAL_MAXLEN];
	struct pick_ctx pc = { .ed = ed };
	uint32_t *order = NULL;
	const struct expr *w;
	unsigned int k = 0;
	size_t n;

	free(cs->pick);
	pc.p = pairs_of(cs, ed, s->flags & NFT_SET_INTERVAL, key, &n);
	cs->npick = n;
	cs->pick = xzalloc(n / 8 + 1);
	if (!boxes && n)
		order = pairs_by_start(&pc, n);
	list_for_each_entry(w, &want->set.exprs, list) {
		key_wire(key, elem_key(w), false, lo);
		key_wire(key, elem_key(w), true, hi);
		found[k++] = order ? pick_sorted(cs, &pc, key, order, n, lo, hi) :
				     pick_scan(cs, &pc, key, n, lo, hi);
	}
	free(order);
	free((void *)pc.p);
	if (ed != cs->elems)
		elem_dump_free(ed);
	expr_free(be_key);
}

size_t set_elems_picked(struct cache_set *cs, const struct set *s,
			uint32_t **recs)
{
	struct expr *be_key = interval_key(s);
	struct elem_pair *p;
	size_t n, k = 0;

	p = pairs_of(cs, cs->elems, s->flags & NFT_SET_INTERVAL,
		     be_key ? be_key : s->key, &n);
	*recs = xmalloc((2 * n + 1) * sizeof(**recs));
	for (size_t i = 0; i < n; i++) {
		(*recs)[k++] = p[i].lo;
		/* an interval's end is an element of its own */
		if (p[i].kind == PAIR_END &&
		    (elem_drec(cs->elems, p[i].hi)->flags & ELEM_D_END))
			(*recs)[k++] = p[i].hi;
	}
	free(p);
	expr_free(be_key);
	return k;
}

/* --- the intervals a set holds (add element next to them) ------------------- */

struct set_spans {
	struct elem_dump	*ed;
	struct elem_dump	*owned;
	struct elem_pair	*p;
	size_t			n;
};

struct set_spans *set_spans_new(struct cache_set *cs, const struct set *s)
{
	struct set_spans *sp = xzalloc(sizeof(*sp));
	struct expr *be_key = interval_key(s);

	sp->ed = cs->elems;
	if (!sp->ed)
		sp->ed = sp->owned = elem_dump_from_nftnl(cs->nls);
	/* plain intervals sort byte by byte, as the kernel keeps them */
	sp->p = pairs_of(NULL, sp->ed, true, be_key ? be_key : s->key, &sp->n);
	expr_free(be_key);
	return sp;
}

void set_spans_free(struct set_spans *sp)
{
	if (!sp)
		return;
	elem_dump_free(sp->owned);
	free(sp->p);
	free(sp);
}

size_t set_spans_count(const struct set_spans *sp)
{
	return sp->n;
}

void set_spans_bounds(const struct set_spans *sp, size_t i, uint8_t *lo,
		      uint8_t *hi)
{
	pair_bounds(sp->ed, &sp->p[i], lo, hi);
}

size_t set_spans_from(const struct set_spans *sp, const uint8_t *lo)
{
	uint8_t elo[NFH_VAL_MAXLEN], ehi[NFH_VAL_MAXLEN];
	size_t a = 0, b = sp->n;

	/* the first whose end is at or above @lo: they do not overlap */
	while (a < b) {
		size_t m = a + (b - a) / 2;

		pair_bounds(sp->ed, &sp->p[m], elo, ehi);
		if (memcmp(ehi, lo, sp->ed->klen) < 0)
			a = m + 1;
		else
			b = m;
	}
	return a;
}

unsigned int set_spans_recs(const struct set_spans *sp, size_t i,
			    const uint8_t **keys, uint32_t *flags)
{
	const struct elem_pair *p = &sp->p[i];

	keys[0] = elem_dkey(sp->ed, p->lo);
	flags[0] = 0;
	if (p->kind != PAIR_END ||
	    !(elem_drec(sp->ed, p->hi)->flags & ELEM_D_END))
		return 1;
	keys[1] = elem_dkey(sp->ed, p->hi);
	flags[1] = NFT_SET_ELEM_INTERVAL_END;
	return 2;
}
