// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Linearization: evaluated commands -> libnftnl objects, in batch order.
 * The expression sequences follow what nft 1.0.6 emits, so that the same
 * input gives the same bytecode.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/netlink.h>
#include <linux/netfilter/nf_nat.h>
#include <libnftnl/chain.h>
#include <libnftnl/expr.h>
#include <libnftnl/object.h>
#include <libnftnl/rule.h>
#include <libnftnl/set.h>
#include <libnftnl/table.h>
#include <libnftnl/udata.h>

#include <cache.h>
#include <delinearize.h>
#include <elems.h>
#include <ctx.h>
#include <cascade.h>
#include <linearize.h>
#include <plan.h>
#include <flowtable.h>
#include <nftables-compat.h>
#include <print.h>
#include <proto.h>
#include <set.h>
#include <nlalloc.h>
#include <wire.h>
#include <kind.h>
#include <bitwise.h>
#include <inner.h>
#include <names.h>

#define REG_VERDICT	NFT_REG_VERDICT
#define REG_1		NFT_REG_1

struct lin_ctx {
	struct nfh_ctx		*nfh;
	struct list_head	*cmds;
	struct nl_batch		*batch;
	struct list_head	*msgs;
	struct cmd		*cmd;
	struct nftnl_rule	*nlr;
	uint32_t		dreg;		/* where selectors load to */
	/* while set, expressions are collected here instead of the rule */
	struct nftnl_expr	**collect;
	unsigned int		ncollect;
	uint32_t		objtype;	/* of the object map being built */
	unsigned int		key_slot;	/* where lookup keys load (slot
						   0 but in nat's port maps) */
	/* where each expression of the rule being built comes from */
	const struct location	*rule_loc, *stmt_loc;
	struct expr_loc		*elocs;
	unsigned int		nelocs, elocs_cap;
	/* the first expression made since want_first was set */
	struct nftnl_expr	*first;
	bool			want_first;
};

/* where @l stands, from command location @r on (first_col 0: not known) */
static struct expr_loc loc_within(const struct location *r,
				  const struct location *l)
{
	struct expr_loc el = { 0 };

	if (l && l->indesc && l->indesc == r->indesc &&
	    l->first_line >= r->first_line &&
	    l->last_line - r->first_line <= UINT16_MAX &&
	    l->first_col <= UINT16_MAX && l->last_col <= UINT16_MAX) {
		el.first_line = l->first_line - r->first_line;
		el.last_line = l->last_line - r->first_line;
		el.first_col = l->first_col;
		el.last_col = l->last_col;
	}
	return el;
}

/* the statement being linearized made the rule's next expression */
static void note_expr_loc(struct lin_ctx *ctx)
{
	const struct location *r = ctx->rule_loc;
	struct expr_loc el;

	if (!r || ctx->nelocs >= UINT16_MAX)
		return;
	el = loc_within(r, ctx->stmt_loc);
	if (ctx->nelocs == ctx->elocs_cap) {
		ctx->elocs_cap = ctx->elocs_cap ? 2 * ctx->elocs_cap : 8;
		ctx->elocs = xrealloc(ctx->elocs,
				      ctx->elocs_cap * sizeof(*ctx->elocs));
	}
	ctx->elocs[ctx->nelocs++] = el;
}

static int lerr(struct lin_ctx *ctx, const struct location *loc,
		const char *msg)
{
	return error_queue(ctx->msgs, loc, "%s", msg);
}

static struct nftnl_expr *add_expr(struct lin_ctx *ctx, const char *name)
{
	struct nftnl_expr *e = xnftnl_expr_alloc(name);

	if (ctx->want_first) {
		ctx->first = e;
		ctx->want_first = false;
	}
	if (ctx->collect) {
		ctx->collect[ctx->ncollect++] = e;
	} else {
		nftnl_rule_add_expr(ctx->nlr, e);
		note_expr_loc(ctx);
	}
	return e;
}

static bool dtype_is_string(const struct datatype *dt)
{
	return dt == &ifname_type || dt == &string_type;
}

/* constant -> bytes as the kernel keeps them in a register */
static unsigned int value_data(const struct expr *v, enum byteorder bo,
			       uint8_t *out)
{
	return value_wire(v, bo, out);
}

static void put_cmp(struct lin_ctx *ctx, enum nft_cmp_ops op,
		    const void *data, unsigned int len)
{
	struct nftnl_expr *e = add_expr(ctx, "cmp");

	nftnl_expr_set_u32(e, NFTNL_EXPR_CMP_SREG, REG_1);
	nftnl_expr_set_u32(e, NFTNL_EXPR_CMP_OP, op);
	nftnl_expr_set(e, NFTNL_EXPR_CMP_DATA, data, len);
}

static void put_bitwise(struct lin_ctx *ctx, const void *mask,
			const void *xor, unsigned int len)
{
	struct nftnl_expr *e = add_expr(ctx, "bitwise");

	nftnl_expr_set_u32(e, NFTNL_EXPR_BITWISE_SREG, ctx->dreg);
	nftnl_expr_set_u32(e, NFTNL_EXPR_BITWISE_DREG, ctx->dreg);
	nftnl_expr_set_u32(e, NFTNL_EXPR_BITWISE_LEN, len);
	nftnl_expr_set(e, NFTNL_EXPR_BITWISE_MASK, mask, len);
	nftnl_expr_set(e, NFTNL_EXPR_BITWISE_XOR, xor, len);
}

static void put_shift(struct lin_ctx *ctx, enum ops op, uint32_t n,
		      unsigned int len)
{
	struct nftnl_expr *e = add_expr(ctx, "bitwise");

	nftnl_expr_set_u32(e, NFTNL_EXPR_BITWISE_SREG, ctx->dreg);
	nftnl_expr_set_u32(e, NFTNL_EXPR_BITWISE_DREG, ctx->dreg);
	nftnl_expr_set_u32(e, NFTNL_EXPR_BITWISE_OP,
			   op == OP_LSHIFT ? NFT_BITWISE_LSHIFT : NFT_BITWISE_RSHIFT);
	nftnl_expr_set_u32(e, NFTNL_EXPR_BITWISE_LEN, len);
	nftnl_expr_set(e, NFTNL_EXPR_BITWISE_DATA, &n, sizeof(n));
}

static void put_byteorder_reg(struct lin_ctx *ctx, uint32_t reg,
			      unsigned int len)
{
	struct nftnl_expr *e = add_expr(ctx, "byteorder");

	nftnl_expr_set_u32(e, NFTNL_EXPR_BYTEORDER_SREG, reg);
	nftnl_expr_set_u32(e, NFTNL_EXPR_BYTEORDER_DREG, reg);
	nftnl_expr_set_u32(e, NFTNL_EXPR_BYTEORDER_OP, NFT_BYTEORDER_HTON);
	nftnl_expr_set_u32(e, NFTNL_EXPR_BYTEORDER_LEN, len);
	nftnl_expr_set_u32(e, NFTNL_EXPR_BYTEORDER_SIZE, len);
}

static void put_byteorder(struct lin_ctx *ctx, unsigned int len)
{
	put_byteorder_reg(ctx, REG_1, len);
}

static void key_load_at(struct lin_ctx *ctx, const struct expr *key,
			unsigned int slot, bool interval);

/* a load of a field narrower than its bytes keeps only the field's bits */
static void put_load_mask(struct lin_ctx *ctx, const struct kind_load *ld)
{
	uint8_t mask[8], zero[8] = { 0 };

	if (!ld->masked)
		return;
	u64_to_be(ld->mask, mask, ld->len);
	put_bitwise(ctx, mask, zero, ld->len);
}

static void binop_load(struct lin_ctx *ctx, const struct expr *e,
		       struct kind_load *ld);
static void selector_load(struct lin_ctx *ctx, const struct expr *e,
			  unsigned int bytes_override, struct kind_load *ld);

static struct nftnl_expr *kind_lin_add(struct kind_lin *k, const char *name)
{
	return add_expr(k->phase, name);
}

static struct nftnl_expr *kind_lin_add_at(struct kind_lin *k,
					   const char *name,
					   const struct location *loc)
{
	struct lin_ctx *ctx = k->phase;
	const struct location *saved = ctx->stmt_loc;
	struct nftnl_expr *e;

	if (saved && loc->indesc)
		ctx->stmt_loc = loc;
	e = add_expr(ctx, name);
	ctx->stmt_loc = saved;
	return e;
}

static void kind_lin_load(struct kind_lin *k, const struct expr *e,
			  uint32_t dreg)
{
	struct lin_ctx *ctx = k->phase;
	uint32_t saved = ctx->dreg;
	struct kind_load ld;

	ctx->dreg = dreg;
	selector_load(ctx, e, 0, &ld);
	ctx->dreg = saved;
}

static struct nftnl_expr *kind_lin_load_first(struct kind_lin *k,
					      const struct expr *e,
					      uint32_t dreg)
{
	struct lin_ctx *ctx = k->phase;

	ctx->first = NULL;
	ctx->want_first = true;
	kind_lin_load(k, e, dreg);
	ctx->want_first = false;
	return ctx->first;
}

static int kind_lin_value(struct kind_lin *k, const struct expr *v,
			  const struct expr *want, enum byteorder bo);
static void lin_immediate(struct lin_ctx *ctx, unsigned int reg,
			  const struct expr *v, enum byteorder bo);
static int nat_value(struct lin_ctx *ctx, uint32_t reg, const struct expr *v);

static void kind_lin_immediate(struct kind_lin *k, uint32_t reg,
			       const struct expr *v, enum byteorder bo)
{
	lin_immediate(k->phase, reg, v, bo);
}

static int kind_lin_reg_value(struct kind_lin *k, uint32_t reg,
			      const struct expr *v)
{
	return nat_value(k->phase, reg, v);
}

static int nat_value_as(struct lin_ctx *ctx, uint32_t reg, const struct expr *v,
			struct expr *data);

static int kind_lin_reg_value_as(struct kind_lin *k, uint32_t reg,
				 const struct expr *v, struct expr *data)
{
	return nat_value_as(k->phase, reg, v, data);
}

static int lin_map(struct lin_ctx *ctx, const struct expr *m,
		   const struct expr *want, uint32_t dreg);

static int kind_lin_objmap(struct kind_lin *k, const struct expr *m,
			   const struct expr *want, uint32_t objtype)
{
	struct lin_ctx *ctx = k->phase;

	ctx->objtype = objtype;
	return lin_map(ctx, m, want, 0);
}
static int kind_lin_bound_chain(struct kind_lin *k, uint32_t id,
				const struct list_head *rules);

static uint32_t lin_meter_set(struct lin_ctx *ctx, const struct stmt *s);

static uint32_t kind_lin_meter_set(struct kind_lin *k, const struct stmt *s)
{
	return lin_meter_set(k->phase, s);
}

static int lin_stmt(struct lin_ctx *ctx, const struct stmt *s);

static int kind_lin_collect(struct kind_lin *k, const struct list_head *stmts,
			    struct nftnl_expr **v, unsigned int max,
			    unsigned int *n)
{
	struct lin_ctx *ctx = k->phase;
	const struct stmt *i;
	int ret = 0;

	ctx->collect = v;
	ctx->ncollect = 0;
	list_for_each_entry(i, stmts, list) {
		if (ctx->ncollect >= max) {
			ret = lerr(ctx, &i->loc, "too many statements for one element");
			break;
		}
		if (lin_stmt(ctx, i) < 0)
			ret = -1;
	}
	ctx->collect = NULL;
	*n = ctx->ncollect;
	return ret;
}

#define KIND_LIN(ctx) {							\
	.phase = (ctx), .add = kind_lin_add, .load = kind_lin_load,	\
	.value = kind_lin_value, .immediate = kind_lin_immediate,	\
	.reg_value = kind_lin_reg_value, .load_key = kind_lin_load_key,	\
	.family = (ctx)->cmd ? (ctx)->cmd->h.family : 0,		\
	.objmap = kind_lin_objmap,					\
	.meter_set = kind_lin_meter_set, .collect = kind_lin_collect,	\
	.bound_chain = kind_lin_bound_chain,				\
	.reg_value_as = kind_lin_reg_value_as,				\
	.load_first = kind_lin_load_first, .add_at = kind_lin_add_at,	\
	.msgs = (ctx)->msgs,						\
}

static void kind_lin_load_key(struct kind_lin *k, const struct expr *e,
			      uint32_t dreg)
{
	struct lin_ctx *ctx = k->phase;
	uint32_t saved = ctx->dreg;

	key_load_at(ctx, e, dreg <= NFT_REG_4 ? (dreg - NFT_REG_1) * 4 :
			    dreg - NFT_REG32_00, false);
	ctx->dreg = saved;
}

/* a kind known by its ops (include/kind.h) */
static void kind_linearize(struct lin_ctx *ctx, const struct expr *e,
			   uint32_t dreg)
{
	struct kind_lin k = KIND_LIN(ctx);

	e->ops->linearize(&k, e, dreg);
}

/* a header field: a run of bits of the packet, which its kind loads */
static bool is_field(const struct expr *e)
{
	return e->ops && e->ops->load;
}

/* loads the field @e into ctx->dreg (@bytes of it if not 0) */
static void field_load(struct lin_ctx *ctx, const struct expr *e,
		       unsigned int bytes, struct kind_load *ld)
{
	struct kind_lin k = KIND_LIN(ctx);

	e->ops->load(&k, e, ctx->dreg, bytes, ld);
}

static void selector_load(struct lin_ctx *ctx, const struct expr *e,
			  unsigned int bytes_override, struct kind_load *ld)
{
	memset(ld, 0, sizeof(*ld));
	if (inner_child(e) && inner_child(e)->kind == EXPR_PAYLOAD) {
		/* a header field in a tunnel loads as the field does, the
		   load then read through the tunnel */
		ctx->first = NULL;
		ctx->want_first = true;
		selector_load(ctx, inner_child(e), bytes_override, ld);
		ctx->want_first = false;
		inner_load_mark(ctx->first, e);
		return;
	}
	if (is_field(e)) {
		field_load(ctx, e, bytes_override, ld);
		put_load_mask(ctx, ld);
		return;
	}
	if (e->ops && e->ops->linearize) {
		kind_linearize(ctx, e, ctx->dreg);
		ld->len = div_round_up(e->len, 8);
		return;
	}
	if (e->kind == EXPR_BINOP)
		binop_load(ctx, e, ld);
}

/*
 * A value computed from a selector: shifts one bitwise each, and a run of
 * and/or/xor with constants folded into one "(x & mask) ^ xor", as nft
 * does: x & c keeps mask & c, xor & c; x | c clears c from the mask and
 * sets it in xor; x ^ c flips c in xor.
 */
/*
 * The constants of a run of &, | and ^ (run[0] the outermost) folded into
 * the one mask and xor of a bitwise expression on len bytes; sub: the
 * field was shifted down, its constants are plain values
 */
static void binop_run_fold(const struct expr *const *run, unsigned int n,
			   bool sub, unsigned int len, uint8_t *mask, uint8_t *xor)
{
	uint8_t c[NFH_VAL_MAXLEN];

	while (n--) {
		const struct expr *b = run[n];

		memset(c, 0, sizeof(c));
		if (sub)
			u64_to_be(expr_value_u64(b->op.right), c, len);
		else
			value_data(b->op.right, b->byteorder, c);
		for (unsigned int i = 0; i < len; i++) {
			switch (b->op.op) {
			case OP_AND:
				mask[i] &= c[i];
				xor[i] &= c[i];
				break;
			case OP_OR:
				mask[i] &= (uint8_t)~c[i];
				xor[i] |= c[i];
				break;
			default:	/* OP_XOR */
				xor[i] ^= c[i];
				break;
			}
		}
	}
}

static void value_load(struct lin_ctx *ctx, const struct expr *v);

/*
 * "ct mark | meta mark": the left side into ctx->dreg, the right into the
 * register after it, and the kernel's bitwise of the two (Linux 6.13),
 * as nft 1.2 does; the evaluation kept the registers to the four there are
 */
static void binop_pair_load(struct lin_ctx *ctx, const struct expr *e,
			    struct kind_load *ld)
{
	unsigned int len = div_round_up(e->len, 8);
	uint32_t dreg = ctx->dreg, sreg2;

	value_load(ctx, e->op.left);
	sreg2 = dreg <= NFT_REG_4 ? dreg + 1 : dreg + div_round_up(len, 4);
	ctx->dreg = sreg2;
	value_load(ctx, e->op.right);
	ctx->dreg = dreg;
	bitwise_pair_put(add_expr(ctx, "bitwise"), e->op.op, dreg, sreg2, dreg,
			 len);
	memset(ld, 0, sizeof(*ld));
	ld->len = len;
}

static void binop_load(struct lin_ctx *ctx, const struct expr *e,
		       struct kind_load *ld)
{
	uint8_t mask[NFH_VAL_MAXLEN], xor[NFH_VAL_MAXLEN] = { 0 };
	const struct expr *run[64], *base = e;
	unsigned int n = 0;
	bool sub;

	if (e->op.op == OP_LSHIFT || e->op.op == OP_RSHIFT) {
		selector_load(ctx, e->op.left, 0, ld);
		put_shift(ctx, e->op.op, (uint32_t)expr_value_u64(e->op.right),
			  ld->len);
		return;
	}
	if (e->op.right->kind != EXPR_VALUE) {
		binop_pair_load(ctx, e, ld);
		return;
	}
	/* the run of constants ends at a bitwise of two values */
	while (base->kind == EXPR_BINOP && base->op.op != OP_LSHIFT &&
	       base->op.op != OP_RSHIFT && base->op.right->kind == EXPR_VALUE &&
	       n < array_size(run)) {
		run[n++] = base;
		base = base->op.left;
	}
	/*
	 * A field that does not end on a byte boundary, as nft does it: one
	 * that ends the load gets its own mask folded into the run's
	 * ("tcp reserved & 0xf": one bitwise), any other is masked and
	 * shifted down first, and the run's constants are then plain values.
	 */
	if (inner_child(base) && inner_child(base)->kind == EXPR_PAYLOAD) {
		/* a field in a tunnel: its load read through the tunnel */
		ctx->first = NULL;
		ctx->want_first = true;
		field_load(ctx, inner_child(base), 0, ld);
		ctx->want_first = false;
		inner_load_mark(ctx->first, base);
		sub = true;
	} else {
		sub = is_field(base);
		if (sub)
			field_load(ctx, base, 0, ld);
		else
			selector_load(ctx, base, 0, ld);
	}
	sub = sub && ld->masked;
	memset(mask, 0xff, sizeof(mask));
	if (sub && ld->shift) {
		put_load_mask(ctx, ld);
		put_shift(ctx, OP_RSHIFT, ld->shift, ld->len);
	} else if (sub) {
		u64_to_be(ld->mask, mask, ld->len);
	}
	binop_run_fold(run, n, sub, ld->len, mask, xor);
	put_bitwise(ctx, mask, xor, ld->len);
	/* shifted down, what it is compared with is not shifted up */
	if (sub && ld->shift)
		ld->masked = false;
}

/* the constant, shifted into the loaded bytes and in register byte order */
static unsigned int rhs_data(const struct expr *lhs, const struct kind_load *ld,
			     const struct expr *v, uint8_t *out)
{
	const struct expr *sel = lhs->kind == EXPR_BINOP ? lhs->op.left : lhs;
	unsigned int n;

	if (inner_child(sel))
		sel = inner_child(sel);
	memset(out, 0, NFH_VAL_MAXLEN);
	if (is_field(sel) && ld->masked) {
		u64_to_be(expr_value_u64(v) << ld->shift, out, ld->len);
		return ld->len;
	}
	n = value_data(v, sel->byteorder, out);
	if (dtype_is_string(v->dtype) && !(v->flags & EXPR_F_INTERVAL_END) &&
	    v->len == sel->len)
		return div_round_up(sel->len, 8);
	return n;
}

static enum nft_cmp_ops cmp_op(enum ops op)
{
	switch (op) {
	case OP_NEQ:	return NFT_CMP_NEQ;
	case OP_LT:	return NFT_CMP_LT;
	case OP_GT:	return NFT_CMP_GT;
	case OP_LTE:	return NFT_CMP_LTE;
	case OP_GTE:	return NFT_CMP_GTE;
	default:	return NFT_CMP_EQ;
	}
}

static const struct expr *selector_of(const struct expr *e)
{
	return e->kind == EXPR_BINOP ? e->op.left : e;
}

static bool needs_hton(const struct expr *lhs, enum ops op)
{
	const struct expr *sel = selector_of(lhs);

	return sel->byteorder == BYTEORDER_HOST && !dtype_is_string(sel->dtype) &&
	       op != OP_EQ && op != OP_NEQ && op != OP_IMPLICIT &&
	       div_round_up(sel->len, 8) > 1;
}

/* --- registers ------------------------------------------------------------ */

/*
 * Loads a selector into 32-bit slot @slot; for a lookup in an interval set
 * (@interval), a number in host byte order is turned big endian, as the
 * set keeps it (see elem_host_number()).  A field of a few bits that does
 * not end its bytes ("ip dscp") moves down to its value, as nft moves it
 * for a set's key, a concatenation's part, a set update and a hash,
 * unless @in_place: an anonymous set of that field alone holds its
 * elements where the load puts the field (see bits_key()).
 */
static void selector_key_load(struct lin_ctx *ctx, const struct expr *e,
			      unsigned int slot, bool interval, bool in_place)
{
	const struct expr *sel = selector_of(e);
	struct kind_load ld;

	ctx->dreg = reg_of_slot(slot);
	if (e->kind == EXPR_VALUE) {
		/* a constant in a set statement's key (ip saddr . 22) */
		lin_immediate(ctx, ctx->dreg, e, e->byteorder);
		return;
	}
	selector_load(ctx, e, 0, &ld);
	if (!in_place && e == sel && ld.masked && ld.shift &&
	    (is_field(sel) || inner_child(sel)))
		put_shift(ctx, OP_RSHIFT, ld.shift, ld.len);
	if (interval && elem_host_number(sel))
		put_byteorder_reg(ctx, ctx->dreg, div_round_up(sel->len, 8));
}

/*
 * Loads a selector, or each part of a concatenation into adjacent slots,
 * starting at 32-bit slot @slot; @in_place: see selector_key_load().
 */
static void key_load_in(struct lin_ctx *ctx, const struct expr *key,
			unsigned int slot, bool interval, bool in_place)
{
	const struct expr *i;

	if (key->kind != EXPR_CONCAT) {
		selector_key_load(ctx, key, slot, interval, in_place);
		ctx->dreg = REG_1;
		return;
	}
	list_for_each_entry(i, &key->set.exprs, list) {
		const struct expr *sel = selector_of(i);

		selector_key_load(ctx, i, slot, interval, false);
		/*
		 * nft converts a one-byte host-order part too, in two-byte
		 * units: hton(reg, 2, 1), which changes nothing
		 */
		if (interval && sel->byteorder == BYTEORDER_HOST &&
		    !dtype_is_string(sel->dtype) && div_round_up(sel->len, 8) == 1) {
			struct nftnl_expr *e = add_expr(ctx, "byteorder");
			uint32_t reg = reg_of_slot(slot);

			nftnl_expr_set_u32(e, NFTNL_EXPR_BYTEORDER_SREG, reg);
			nftnl_expr_set_u32(e, NFTNL_EXPR_BYTEORDER_DREG, reg);
			nftnl_expr_set_u32(e, NFTNL_EXPR_BYTEORDER_OP, NFT_BYTEORDER_HTON);
			nftnl_expr_set_u32(e, NFTNL_EXPR_BYTEORDER_LEN, 1);
			nftnl_expr_set_u32(e, NFTNL_EXPR_BYTEORDER_SIZE, 2);
		}
		slot += div_round_up(i->len, 32);
	}
	ctx->dreg = REG_1;
}

static void key_load_at(struct lin_ctx *ctx, const struct expr *key,
			unsigned int slot, bool interval)
{
	key_load_in(ctx, key, slot, interval, false);
}

/* --- set elements --------------------------------------------------------- */

static bool elems_have_interval(const struct expr *set)
{
	const struct expr *i;

	list_for_each_entry(i, &set->set.exprs, list)
		if (elem_is_interval(i))
			return true;
	return false;
}

/* a map's element whose value is a range */
static bool data_has_interval(const struct expr *set)
{
	const struct expr *i;

	list_for_each_entry(i, &set->set.exprs, list)
		if (i->kind == EXPR_MAPPING && elem_is_interval(i->op.right))
			return true;
	return false;
}

/* packs the elements of @elems (which it empties) into @st */
static void pack_elems(struct elem_store *st, const struct expr *key,
		       const struct expr *data, struct expr *elems)
{
	struct expr *i, *next;

	list_for_each_entry_safe(i, next, &elems->set.exprs, list) {
		list_del(&i->list);
		elem_store_add(st, key, data, i);
	}
	elems->set.size = 0;
}


/* a statement kept in each element (the set's, or an element's own quota,
   limit or ct count) as the expressions a rule's would be: their number,
   at most @max, or -1 */
static int stmt_exprs(void *priv, const struct stmt *s,
			   struct nftnl_expr **out, unsigned int max)
{
	struct lin_ctx *ctx = priv;
	struct nftnl_expr *v[4];
	int ret;

	ctx->collect = v;
	ctx->ncollect = 0;
	ret = lin_stmt(ctx, s);
	ctx->collect = NULL;
	for (unsigned int k = 0; k < ctx->ncollect; k++)
		if (ret < 0 || k >= max)
			nftnl_expr_free(v[k]);
		else
			out[k] = v[k];
	if (ret < 0)
		return -1;
	return ctx->ncollect < max ? (int)ctx->ncollect : (int)max;
}

static int lin_elems(struct lin_ctx *ctx, struct elem_emit *em,
		     struct elem_store *st, uint32_t set_flags)
{
	em->stmt_exprs = stmt_exprs;
	em->stmt_priv = ctx;
	em->batch = ctx->batch;
	em->msgs = ctx->msgs;
	em->interval = (set_flags & NFT_SET_INTERVAL) &&
		       em->key->kind != EXPR_CONCAT;
	em->concat_interval = (set_flags & NFT_SET_INTERVAL) &&
			      em->key->kind == EXPR_CONCAT;
	return elem_emit(em, st);
}

/* --- sets --------------------------------------------------------------- */

/* the records in the order nft writes them, so that both read alike */
static void set_udata_put(struct nftnl_set *nls, const struct expr *key,
			  const struct expr *data, bool merge,
			  const char *comment, const struct set *s)
{
	struct nftnl_udata_buf *b = xnftnl_udata_buf_alloc(NFT_USERDATA_MAXLEN);

	nftnl_udata_put_u32(b, SET_UDATA_KEYBYTEORDER, key->byteorder);
	if (data)
		nftnl_udata_put_u32(b, SET_UDATA_DATABYTEORDER,
				    data->dtype == &verdict_type ?
				    BYTEORDER_INVALID : data->byteorder);
	if (merge)
		nftnl_udata_put_u32(b, SET_UDATA_MERGE_ELEMENTS, 1);
	if (s && s->key_sel) {
		set_typeof_put(b, SET_UDATA_KEY_TYPEOF, s->key_sel);
		/* a typeof map of verdicts says so with a verdict record */
		if (data && (s->data_sel || data->dtype == &verdict_type))
			set_typeof_put(b, SET_UDATA_DATA_TYPEOF, s->data_sel);
	}
	if (data)	/* values are single values or ranges */
		nftnl_udata_put_u32(b, SET_UDATA_DATA_INTERVAL,
				    !!(data->flags & EXPR_F_DATA_INTERVAL));
	if (comment)
		nftnl_udata_put_strz(b, SET_UDATA_COMMENT, comment);
	xnftnl_set_set_data(nls, NFTNL_SET_USERDATA, nftnl_udata_buf_data(b),
			   nftnl_udata_buf_len(b));
	nftnl_udata_buf_free(b);
}

/* the attributes every set message names its set by */
static void set_ident(struct nftnl_set *nls, unsigned int family,
		      const char *table, const char *name, uint32_t id)
{
	xnftnl_set_set_str(nls, NFTNL_SET_TABLE, table);
	xnftnl_set_set_str(nls, NFTNL_SET_NAME, name);
	nftnl_set_set_u32(nls, NFTNL_SET_FAMILY, family);
	if (id)
		nftnl_set_set_u32(nls, NFTNL_SET_ID, id);
}

static void set_key_put(struct nftnl_set *nls, const struct expr *key,
			const struct expr *data, uint32_t flags)
{
	nftnl_set_set_u32(nls, NFTNL_SET_KEY_TYPE, set_key_type(key));
	nftnl_set_set_u32(nls, NFTNL_SET_KEY_LEN, set_key_bytes(key));
	if (key->kind == EXPR_CONCAT && (flags & NFT_SET_CONCAT)) {
		/* the field layout, which concatenated intervals need */
		uint8_t field_len[NFT_REG32_COUNT];
		unsigned int n = 0;
		const struct expr *i;

		list_for_each_entry(i, &key->set.exprs, list)
			field_len[n++] = div_round_up(i->len, 8);
		xnftnl_set_set_data(nls, NFTNL_SET_DESC_CONCAT, field_len, n);
	}
	if (!data)
		return;
	if (data->dtype == &objref_type)
		return;		/* an object map: the objects' type says it all */
	if (data->dtype == &verdict_type) {
		nftnl_set_set_u32(nls, NFTNL_SET_DATA_TYPE, NFT_DATA_VERDICT);
		nftnl_set_set_u32(nls, NFTNL_SET_DATA_LEN, 16);
	} else {
		nftnl_set_set_u32(nls, NFTNL_SET_DATA_TYPE, set_key_type(data));
		nftnl_set_set_u32(nls, NFTNL_SET_DATA_LEN, set_key_bytes(data) *
				  (data->flags & EXPR_F_DATA_INTERVAL ? 2 : 1));
	}
}

static void kernel_spans(struct lin_ctx *ctx, struct cmd *cmd,
			 const struct set *s, struct set_spans **sp);

static int lin_stmt(struct lin_ctx *ctx, const struct stmt *s);

/* the statements each element keeps, as the set's expressions */
static int lin_set_stmts(struct lin_ctx *ctx, struct nftnl_set *nls,
			 const struct set *s)
{
	struct nftnl_expr *v[4];
	const struct stmt *i;
	unsigned int n = 0;
	int ret = 0, k;

	list_for_each_entry(i, &s->stmts, list) {
		if (n == 2)
			return lerr(ctx, &i->loc,
				    "a set keeps at most two statements in each element (the kernel says \"Argument list too long\")");
		n++;
		if (i->kind == STMT_COUNTER && !i->counter.packets &&
		    !i->counter.bytes) {
			/* as nft: a counter without values */
			nftnl_set_add_expr(nls, xnftnl_expr_alloc("counter"));
			continue;
		}
		k = stmt_exprs(ctx, i, v, array_size(v));
		if (k < 0)
			ret = -1;
		for (int x = 0; x < k; x++)
			nftnl_set_add_expr(nls, v[x]);
	}
	/* as nft: more than one, and the set says so */
	if (n > 1)
		nftnl_set_set_u32(nls, NFTNL_SET_FLAGS,
				  nftnl_set_get_u32(nls, NFTNL_SET_FLAGS) | NFT_SET_EXPR);
	return ret;
}

static int lin_set_decl(struct lin_ctx *ctx, struct cmd *cmd)
{
	struct set *s = cmd->set;
	struct nftnl_set *nls = xnftnl_set_alloc();
	struct elem_emit em = {
		.msg_type = NFT_MSG_NEWSETELEM, .flags = NLM_F_CREATE,
		.family = cmd->h.family, .table = cmd->h.table, .set = cmd->h.set,
		.loc = &cmd->loc, .key = s->key, .data = s->data,
		.automerge = s->automerge,
	};
	int ret = 0;

	s->id = ++ctx->nfh->set_id;
	em.set_id = s->id;
	set_ident(nls, cmd->h.family, cmd->h.table, cmd->h.set, s->id);
	nftnl_set_set_u32(nls, NFTNL_SET_FLAGS, s->flags);
	set_key_put(nls, s->key, s->data, s->flags);
	if (s->objtype)
		nftnl_set_set_u32(nls, NFTNL_SET_OBJ_TYPE, s->objtype);
	if (s->timeout)
		nftnl_set_set_u64(nls, NFTNL_SET_TIMEOUT, s->timeout);
	if (s->gc_int)
		nftnl_set_set_u32(nls, NFTNL_SET_GC_INTERVAL, s->gc_int);
	/* nft sends no policy for performance, the kernel's default, nor
	   for a constant set, which its elements size */
	if (s->policy > 0 && !(s->flags & NFT_SET_CONSTANT))
		nftnl_set_set_u32(nls, NFTNL_SET_POLICY, s->policy);
	if (s->size && !(s->flags & NFT_SET_CONSTANT))
		nftnl_set_set_u32(nls, NFTNL_SET_DESC_SIZE, s->size);
	/* nft keeps no value records for object maps */
	set_udata_put(nls, s->key, s->objtype ? NULL : s->data, s->automerge,
		      s->comment, s);
	if (!list_empty(&s->stmts) && lin_set_stmts(ctx, nls, s) < 0)
		ret = -1;
	nl_batch_add(ctx->batch, NFT_MSG_NEWSET,
		     NLM_F_CREATE | (cmd->op == CMD_CREATE ? NLM_F_EXCL : 0),
		     cmd->h.family, NLO_SET, nls, &cmd->loc);
	if (s->init && s->init->set.size) {
		if (!s->store)
			s->store = elem_store_new(s->key, s->data);
		pack_elems(s->store, s->key, s->data, s->init);
	}
	if (s->init && !s->store) {
		/* "elements = $e", an empty set: nft's message even so */
		s->store = elem_store_new(s->key, s->data);
		em.given = true;
	}
	if (s->store && (s->store->n || s->store->catchall || em.given)) {
		kernel_spans(ctx, cmd, s, &em.have);
		ret = lin_elems(ctx, &em, s->store, s->flags);
		/* nft sizes a constant set by what it holds */
		if (ret == 0 && (s->flags & NFT_SET_CONSTANT))
			nftnl_set_set_u32(nls, NFTNL_SET_DESC_SIZE, em.size);
		set_spans_free(em.have);
		/* the messages hold them now */
		elem_store_free(s->store);
		s->store = NULL;
	}
	return ret;
}

/*
 * Whether what the kernel's set holds now is what these elements add to:
 * nothing before in the batch flushes or deletes it or its elements, and
 * an add element names a set that was not declared in this batch (whose
 * elements are checked among themselves).  A declaration adds to the
 * kernel's set of that name, if there is one.
 */
static bool adds_to_kernel_set(struct lin_ctx *ctx, struct cmd *cmd,
			       const struct set *s)
{
	bool kernels = cmd->obj == CMD_OBJ_SET;
	const struct set *e;
	const struct cmd *c;

	list_for_each_entry(e, &ctx->nfh->ext_sets, list)
		kernels |= e == s;
	if (!kernels)
		return false;
	for (c = list_prev_entry(cmd, list); &c->list != ctx->cmds;
	     c = list_prev_entry(c, list)) {
		if (c->op != CMD_FLUSH && c->op != CMD_DELETE &&
		    c->op != CMD_DESTROY)
			continue;
		if (c->obj == CMD_OBJ_RULESET ||
		    (c->h.family == cmd->h.family && c->h.table &&
		     !strcmp(c->h.table, cmd->h.table) &&
		     (c->obj == CMD_OBJ_TABLE ||
		      ((c->obj == CMD_OBJ_SET || c->obj == CMD_OBJ_MAP ||
			c->obj == CMD_OBJ_ELEMENTS) && c->h.set &&
		       !strcmp(c->h.set, cmd->h.set)))))
			return false;
	}
	return true;
}

/* moves a value (or the ends of a range) of @e into the loaded bytes */
static void elem_shift(struct expr *e, unsigned int shift, unsigned int len)
{
	uint64_t v;

	switch (e->kind) {
	case EXPR_SET_ELEM:
		elem_shift(e->elem.key, shift, len);
		break;
	case EXPR_MAPPING:
		elem_shift(e->op.left, shift, len);
		break;
	case EXPR_RANGE:
		elem_shift(e->range.left, shift, len);
		elem_shift(e->range.right, shift, len);
		break;
	case EXPR_VALUE:
		v = expr_value_u64(e);
		e->len = len;
		expr_value_set_u64(e, v << shift);
		break;
	default:
		break;
	}
	e->len = len;
}

/*
 * A key of a few bits ("ip6 dscp { cs1, cs2 }") is the bytes its load
 * reads, masked: the set's key is that long and each element sits at
 * the key's bits in it, as nft stores them.  NULL if the key is whole.
 */
static struct expr *bits_key(const struct expr *sel, struct expr *set,
			     unsigned int *shift)
{
	struct expr *k, *i;
	struct kind_load ld;

	if (inner_child(sel))
		sel = inner_child(sel);
	if (!is_field(sel))
		return NULL;
	kind_load_bits(sel->ops->bit_offset(sel), sel->len, 0, &ld);
	/* one that ends its bytes keeps its values (and its width) */
	if (!ld.masked || !ld.shift || ld.len > 8)
		return NULL;
	*shift = ld.shift;
	k = expr_clone(sel);
	k->len = ld.len * 8;
	list_for_each_entry(i, &set->set.exprs, list)
		elem_shift(i, ld.shift, k->len);
	return k;
}

/* the concatenation of an element (a key, or a mapping's), or NULL */
static struct expr *elem_concat(struct expr *e)
{
	if (e->kind == EXPR_MAPPING)
		e = e->op.left;
	if (e->kind == EXPR_SET_ELEM)
		e = e->elem.key;
	return e->kind == EXPR_CONCAT ? e : NULL;
}

/*
 * A part of a few bits shifted down from a load of more bytes than it
 * needs ("ip6 dscp": two) takes those bytes in an anonymous set's
 * concatenated elements, as nft sends them; the key with such parts that
 * wide, or NULL if it has none.
 */
static struct expr *wide_parts_key(const struct expr *key, struct expr *set)
{
	struct expr *k = NULL, *i, *e, *c, *part;
	unsigned int n = 0;
	struct kind_load ld;

	if (key->kind != EXPR_CONCAT)
		return NULL;
	list_for_each_entry(i, &key->set.exprs, list) {
		n++;
		if (!is_field(i))
			continue;
		kind_load_bits(i->ops->bit_offset(i), i->len, 0, &ld);
		if (!ld.masked || !ld.shift || ld.len <= div_round_up(i->len, 8) ||
		    ld.len > 8)
			continue;
		if (!k)
			k = expr_clone(key);
		part = list_entry(k->set.exprs.next, struct expr, list);
		for (unsigned int m = 1; m < n; m++)
			part = list_next_entry(part, list);
		part->len = ld.len * 8;
		list_for_each_entry(e, &set->set.exprs, list) {
			c = elem_concat(e);
			if (!c)
				continue;
			part = list_entry(c->set.exprs.next, struct expr, list);
			for (unsigned int m = 1; m < n && &part->list != &c->set.exprs; m++)
				part = list_next_entry(part, list);
			if (&part->list != &c->set.exprs)
				elem_shift(part, 0, ld.len * 8);
		}
	}
	return k;
}

/*
 * The intervals the kernel's set (or, with --offline, the ruleset read so
 * far) holds, for add element to check against or join, as the plan read
 * them (compile/plan.c); none if not needed.
 */
static void kernel_spans(struct lin_ctx *ctx, struct cmd *cmd,
			 const struct set *s, struct set_spans **sp)
{
	struct cache_table *t;
	struct cache_set *cs;
	struct cache *c;
	struct set *ks;

	*sp = NULL;
	if ((cmd->op != CMD_ADD && cmd->op != CMD_CREATE) ||
	    !(s->flags & NFT_SET_INTERVAL) || s->key->kind == EXPR_CONCAT ||
	    s->is_anon || !adds_to_kernel_set(ctx, cmd, s))
		return;
	c = plan_set_elems(ctx->nfh, cmd);
	t = c ? cache_table_find(c, cmd->h.family, cmd->h.table) : NULL;
	cs = t ? cache_set_find(t, cmd->h.set) : NULL;
	if (!cs)
		return;		/* gone: the kernel says so */
	ks = delin_set(t, cs, false);
	/* one declared anew must be the same kind, or the kernel says no */
	if (ks && ks->key && ks->key->kind != EXPR_CONCAT &&
	    (ks->flags & NFT_SET_INTERVAL) &&
	    set_key_bytes(ks->key) == set_key_bytes(s->key))
		*sp = set_spans_new(cs, ks);
	set_free(ks);
}

static int lin_elems_cmd(struct lin_ctx *ctx, struct cmd *cmd)
{
	struct set *s = cmd->target;
	bool del = cmd->op == CMD_DELETE || cmd->op == CMD_DESTROY;
	const struct expr *data = del ? NULL : s->data;
	struct elem_emit em = {
		/* destroy: as delete, but the kernel takes a missing one */
		.msg_type = cmd->op == CMD_DESTROY ? NFT_MSG_DESTROYSETELEM :
			    del ? NFT_MSG_DELSETELEM : NFT_MSG_NEWSETELEM,
		/* create: one the set holds already is an error */
		.flags = del ? 0 : NLM_F_CREATE |
				   (cmd->op == CMD_CREATE ? NLM_F_EXCL : 0),
		.family = cmd->h.family,
		.table = cmd->h.table, .set = cmd->h.set, .set_id = s->id,
		.loc = &cmd->loc, .key = s->key, .data = data,
		.automerge = s->automerge, .given = true,
	};
	struct elem_store *st;
	int ret;

	kernel_spans(ctx, cmd, s, &em.have);
	st = elem_store_new(s->key, data);
	pack_elems(st, s->key, data, cmd->elems);
	ret = lin_elems(ctx, &em, st, s->flags);
	elem_store_free(st);
	set_spans_free(em.have);
	return ret;
}

/* the flags of the anonymous set (or map, with data) of the elements set,
   keyed by sel */
static uint32_t anon_set_flags(const struct expr *set, const struct expr *sel,
			       const struct expr *data, bool objmap)
{
	uint32_t flags = NFT_SET_ANONYMOUS | NFT_SET_CONSTANT;

	if (objmap)
		flags |= NFT_SET_OBJECT;
	else if (data)
		flags |= NFT_SET_MAP;
	if (elems_have_interval(set)) {
		flags |= NFT_SET_INTERVAL;
		if (sel->kind == EXPR_CONCAT)
			flags |= NFT_SET_CONCAT;
	}
	return flags;
}

/* the lookup in the anonymous set or map (name, id) of the key loaded, or
   the objref of an object map */
static void anon_lookup_put(struct lin_ctx *ctx, const char *name,
			    unsigned int id, bool objmap, bool map,
			    uint32_t dreg, bool invert)
{
	struct nftnl_expr *e;

	if (objmap) {
		e = add_expr(ctx, "objref");
		nftnl_expr_set_u32(e, NFTNL_EXPR_OBJREF_SET_SREG, REG_1);
		xnftnl_expr_set_str(e, NFTNL_EXPR_OBJREF_SET_NAME, name);
		nftnl_expr_set_u32(e, NFTNL_EXPR_OBJREF_SET_ID, id);
		return;
	}
	e = add_expr(ctx, "lookup");
	nftnl_expr_set_u32(e, NFTNL_EXPR_LOOKUP_SREG, reg_of_slot(ctx->key_slot));
	xnftnl_expr_set_str(e, NFTNL_EXPR_LOOKUP_SET, name);
	nftnl_expr_set_u32(e, NFTNL_EXPR_LOOKUP_SET_ID, id);
	if (map)
		nftnl_expr_set_u32(e, NFTNL_EXPR_LOOKUP_DREG, dreg);
	if (invert)
		nftnl_expr_set_u32(e, NFTNL_EXPR_LOOKUP_FLAGS, NFT_LOOKUP_F_INV);
}

static int lin_anon_set(struct lin_ctx *ctx, const struct expr *lhs,
			struct expr *set, bool invert, const struct expr *data,
			uint32_t dreg)
{
	struct nftnl_set *nls = xnftnl_set_alloc();
	/* under a mask the field is shifted down first (binop_load()) */
	unsigned int shift = 0;
	struct expr *bits = lhs->kind == EXPR_BINOP ? NULL :
			    bits_key(selector_of(lhs), set, &shift);
	struct expr *wide = wide_parts_key(lhs, set);
	const struct expr *sel = bits ? bits : wide ? wide : selector_of(lhs);
	uint32_t flags;
	bool objmap = data && data->dtype == &objref_type;
	const char *name = objmap ? "__objmap%d" : data ? "__map%d" : "__set%d";
	unsigned int id = ++ctx->nfh->set_id;
	struct elem_emit em = {
		.msg_type = NFT_MSG_NEWSETELEM, .flags = NLM_F_CREATE,
		.family = ctx->cmd->h.family, .table = ctx->cmd->h.table,
		.set = name, .set_id = id, .loc = &set->loc, .key = sel,
		.data = data, .anonymous = true, .shift = shift,
		/* nft joins an anonymous set's overlapping intervals */
		.automerge = !data,
	};
	struct elem_store *st;
	struct expr *idata = NULL;
	int ret;

	/* as nft: an anonymous map with a range among its values is a map
	   of ranges */
	if (data && !objmap && data->dtype != &verdict_type &&
	    data_has_interval(set)) {
		idata = expr_clone(data);
		idata->flags |= EXPR_F_DATA_INTERVAL;
		em.data = data = idata;
	}
	flags = anon_set_flags(set, sel, data, objmap);
	set_ident(nls, ctx->cmd->h.family, ctx->cmd->h.table, name, id);
	nftnl_set_set_u32(nls, NFTNL_SET_FLAGS, flags);
	set_key_put(nls, sel, data, flags);
	if (objmap)
		nftnl_set_set_u32(nls, NFTNL_SET_OBJ_TYPE, ctx->objtype);
	nl_batch_add(ctx->batch, NFT_MSG_NEWSET, NLM_F_CREATE,
		     ctx->cmd->h.family, NLO_SET, nls, &set->loc);
	st = elem_store_new(sel, data);
	pack_elems(st, sel, data, set);
	ret = lin_elems(ctx, &em, st, flags);
	elem_store_free(st);
	if (ret >= 0) {
		nftnl_set_set_u32(nls, NFTNL_SET_DESC_SIZE, em.size);
		set_udata_put(nls, sel, objmap ? NULL : data, false, NULL, NULL);
	}
	expr_free(bits);
	expr_free(wide);
	expr_free(idata);
	if (ret < 0)
		return -1;
	key_load_in(ctx, lhs, ctx->key_slot, flags & NFT_SET_INTERVAL, bits != NULL);
	anon_lookup_put(ctx, name, id, objmap, data != NULL, dreg, invert);
	return 0;
}

/* a lookup in a named set or map */
static void lin_set_lookup(struct lin_ctx *ctx, const struct expr *lhs,
			   const struct expr *ref, bool invert, bool map,
			   uint32_t dreg)
{
	const struct set *s = ref->setref.set;
	struct nftnl_expr *e;

	/* "ip dscp @s": the elements are plain dscp values */
	key_load_at(ctx, lhs, ctx->key_slot, s->flags & NFT_SET_INTERVAL);
	if (s->objtype) {
		e = add_expr(ctx, "objref");
		nftnl_expr_set_u32(e, NFTNL_EXPR_OBJREF_SET_SREG, REG_1);
		xnftnl_expr_set_str(e, NFTNL_EXPR_OBJREF_SET_NAME, s->h.set);
		if (s->id)
			nftnl_expr_set_u32(e, NFTNL_EXPR_OBJREF_SET_ID, s->id);
		return;
	}
	e = add_expr(ctx, "lookup");
	nftnl_expr_set_u32(e, NFTNL_EXPR_LOOKUP_SREG, reg_of_slot(ctx->key_slot));
	xnftnl_expr_set_str(e, NFTNL_EXPR_LOOKUP_SET, s->h.set);
	if (s->id)
		nftnl_expr_set_u32(e, NFTNL_EXPR_LOOKUP_SET_ID, s->id);
	if (map)
		nftnl_expr_set_u32(e, NFTNL_EXPR_LOOKUP_DREG, dreg);
	if (invert)
		nftnl_expr_set_u32(e, NFTNL_EXPR_LOOKUP_FLAGS, NFT_LOOKUP_F_INV);
}

/* sel map { ... } / map @m, its value into @dreg (0: the verdict) */
static int lin_map(struct lin_ctx *ctx, const struct expr *m,
		   const struct expr *want, uint32_t dreg)
{
	if (m->op.right->kind == EXPR_SET_REF) {
		lin_set_lookup(ctx, m->op.left, m->op.right, false, true, dreg);
		return 0;
	}
	return lin_anon_set(ctx, m->op.left, m->op.right, false, want, dreg);
}

static int lin_stmt(struct lin_ctx *ctx, const struct stmt *s);

/* a meter's set: anonymous, filled by the rule, keyed as the meter is */
static uint32_t lin_meter_set(struct lin_ctx *ctx, const struct stmt *s)
{
	const struct expr *sel = selector_of(s->set.key);
	struct nftnl_set *nls = xnftnl_set_alloc();
	uint32_t flags = NFT_SET_ANONYMOUS | NFT_SET_EVAL;
	unsigned int id = ++ctx->nfh->set_id;
	struct elem_emit em = {
		.msg_type = NFT_MSG_NEWSETELEM, .flags = NLM_F_CREATE,
		.family = ctx->cmd->h.family, .table = ctx->cmd->h.table,
		.loc = &s->loc, .anonymous = true,
	};
	struct elem_store *st;

	if (s->set.timeout)
		flags |= NFT_SET_TIMEOUT;
	set_ident(nls, ctx->cmd->h.family, ctx->cmd->h.table,
		  s->set.set->setref.name, id);
	nftnl_set_set_u32(nls, NFTNL_SET_FLAGS, flags);
	set_key_put(nls, sel, NULL, flags);
	if (s->set.size)
		nftnl_set_set_u32(nls, NFTNL_SET_DESC_SIZE, s->set.size);
	set_udata_put(nls, sel, NULL, false, NULL, NULL);
	nl_batch_add(ctx->batch, NFT_MSG_NEWSET, NLM_F_CREATE,
		     ctx->cmd->h.family, NLO_SET, nls, &s->loc);
	em.key = sel;
	em.set = s->set.set->setref.name;
	em.set_id = id;
	st = elem_store_new(sel, NULL);
	lin_elems(ctx, &em, st, flags);
	elem_store_free(st);
	return id;
}

/* --- relational --------------------------------------------------------- */

static int lin_relational(struct lin_ctx *ctx, const struct expr *rel);

/* a comparison with a value: flags, a name's wildcard prefix or a plain cmp */
static int lin_rel_value(struct lin_ctx *ctx, const struct expr *rel)
{
	const struct expr *lhs = rel->op.left, *rhs = rel->op.right;
	const struct expr *sel = selector_of(lhs);
	uint8_t data[NFH_VAL_MAXLEN];
	enum ops op = rel->op.op;
	struct kind_load ld;
	unsigned int n;

	if (op == OP_IMPLICIT || op == OP_NEG) {
		/* flags: any of the bits set (none of them: "!") */
		uint8_t zero[NFH_VAL_MAXLEN] = { 0 };

		selector_load(ctx, lhs, 0, &ld);
		n = rhs_data(lhs, &ld, rhs, data);
		put_bitwise(ctx, data, zero, n);
		put_cmp(ctx, op == OP_NEG ? NFT_CMP_EQ : NFT_CMP_NEQ, zero, n);
		return 0;
	}
	if (dtype_is_string(rhs->dtype) && rhs->len < sel->len) {
		/* wildcard: compare only the given prefix */
		selector_load(ctx, lhs, 0, &ld);
		put_cmp(ctx, cmp_op(op), rhs->val.data,
			expr_value_bytes(rhs));
		return 0;
	}
	selector_load(ctx, lhs, 0, &ld);
	n = rhs_data(lhs, &ld, rhs, data);
	if (needs_hton(lhs, op)) {
		put_byteorder(ctx, n);
		n = expr_value_bytes(rhs);
		memcpy(data, rhs->val.data, n);
	}
	put_cmp(ctx, cmp_op(op), data, n);
	return 0;
}

/* a comparison with a prefix: the masked value, or its bytes alone */
static int lin_rel_prefix(struct lin_ctx *ctx, const struct expr *rel)
{
	const struct expr *lhs = rel->op.left, *rhs = rel->op.right;
	const struct expr *sel = selector_of(lhs);
	unsigned int plen = rhs->prefix.prefix_len;
	const struct expr *v = rhs->prefix.expr;
	uint8_t mask[NFH_VAL_MAXLEN] = { 0 }, zero[NFH_VAL_MAXLEN] = { 0 };
	uint8_t data[NFH_VAL_MAXLEN];
	enum ops op = rel->op.op;
	struct kind_load ld;
	unsigned int n;

	for (unsigned int b = 0; b < plen && b < NFH_VAL_MAXLEN * 8; b++)
		mask[b / 8] |= 0x80 >> (b % 8);
	/*
	 * host bits cleared, as nft does: 10.1.2.3/16 is 10.1.0.0; a
	 * host-order key (meta mark 3/1) takes both in its byte order
	 */
	n = value_data(v, sel->byteorder, data);
	if (sel->byteorder == BYTEORDER_HOST && !dtype_is_string(v->dtype))
		bytes_reverse(mask, n);
	for (unsigned int i = 0; i < n; i++)
		data[i] &= mask[i];
	/*
	 * A byte-aligned prefix compares only its bytes, as nft does;
	 * a header field loads only those.  /0 has none: as nft, it
	 * is "& 0 == 0" (a zero-length cmp the kernel refuses).
	 */
	if (plen && !(plen % 8) && lhs == sel &&
	    sel->byteorder == BYTEORDER_BIG) {
		const struct expr *ps = inner_child(sel) ? inner_child(sel) : sel;

		if (ps->kind == EXPR_PAYLOAD && !(ps->payload.offset % 8))
			selector_load(ctx, lhs, plen / 8, &ld);
		else
			selector_load(ctx, lhs, 0, &ld);
		put_cmp(ctx, cmp_op(op), data, plen / 8);
		return 0;
	}
	selector_load(ctx, lhs, 0, &ld);
	put_bitwise(ctx, mask, zero, n);
	put_cmp(ctx, cmp_op(op), data, n);
	return 0;
}

/* a comparison with a range: cmp gte + cmp lte, or a range expression for != */
static int lin_rel_range(struct lin_ctx *ctx, const struct expr *rel)
{
	const struct expr *lhs = rel->op.left, *rhs = rel->op.right;
	uint8_t data[NFH_VAL_MAXLEN], data2[NFH_VAL_MAXLEN];
	struct kind_load ld;
	unsigned int n;

	selector_load(ctx, lhs, 0, &ld);
	n = rhs_data(lhs, &ld, rhs->range.left, data);
	rhs_data(lhs, &ld, rhs->range.right, data2);
	if (needs_hton(lhs, OP_LT)) {
		put_byteorder(ctx, n);
		memcpy(data, rhs->range.left->val.data, n);
		memcpy(data2, rhs->range.right->val.data, n);
	}
	if (rel->op.op == OP_NEQ) {
		struct nftnl_expr *e = add_expr(ctx, "range");

		nftnl_expr_set_u32(e, NFTNL_EXPR_RANGE_SREG, REG_1);
		nftnl_expr_set_u32(e, NFTNL_EXPR_RANGE_OP, NFT_RANGE_NEQ);
		nftnl_expr_set(e, NFTNL_EXPR_RANGE_FROM_DATA, data, n);
		nftnl_expr_set(e, NFTNL_EXPR_RANGE_TO_DATA, data2, n);
		return 0;
	}
	put_cmp(ctx, NFT_CMP_GTE, data, n);
	put_cmp(ctx, NFT_CMP_LTE, data2, n);
	return 0;
}

/* a match on an anonymous set: a lookup, or a comparison with its one element */
static int lin_rel_set(struct lin_ctx *ctx, const struct expr *rel)
{
	const struct expr *lhs = rel->op.left, *rhs = rel->op.right;

	if (rhs->set.size == 1 && lhs->kind != EXPR_CONCAT &&
	    list_first_entry(&rhs->set.exprs, struct expr, list)->kind != EXPR_SET_ELEM &&
	    !elem_is_catchall(list_first_entry(&rhs->set.exprs, struct expr, list))) {
		/* a one-element set is an ordinary comparison */
		struct expr r = *rel, w;

		r.op.right = list_first_entry(&rhs->set.exprs, struct expr, list);
		if (r.op.right->kind == EXPR_RANGE &&
		    range_is_wildcard(r.op.right)) {
			/* { "veth*" } compares the name's first bytes,
			   as "veth*" alone does */
			const struct expr *lo = r.op.right->range.left;
			const struct expr *hi = r.op.right->range.right;
			unsigned int b = 0;

			while (b < expr_value_bytes(lo) &&
			       lo->val.data[b] == hi->val.data[b])
				b++;
			w = *lo;
			w.len = b * 8;
			if (b)
				r.op.right = &w;
		}
		return lin_relational(ctx, &r);
	}
	return lin_anon_set(ctx, lhs, (struct expr *)rhs, rel->op.op == OP_NEQ,
			    NULL, 0);
}

static int lin_rel_set_ref(struct lin_ctx *ctx, const struct expr *rel)
{
	lin_set_lookup(ctx, rel->op.left, rel->op.right, rel->op.op == OP_NEQ,
		       false, 0);
	return 0;
}

/* how a comparison is linearized, by the kind of its right-hand side */
static int (*const lin_rels[__EXPR_KIND_MAX])(struct lin_ctx *,
					      const struct expr *) = {
	[EXPR_VALUE]	= lin_rel_value,
	[EXPR_PREFIX]	= lin_rel_prefix,
	[EXPR_RANGE]	= lin_rel_range,
	[EXPR_SET]	= lin_rel_set,
	[EXPR_SET_REF]	= lin_rel_set_ref,
};

static int lin_relational(struct lin_ctx *ctx, const struct expr *rel)
{
	const struct expr *rhs = rel->op.right;

	if (!lin_rels[rhs->kind])
		return lerr(ctx, &rhs->loc, "unsupported right-hand side");
	return lin_rels[rhs->kind](ctx, rel);
}

/* --- statements --------------------------------------------------------- */

static void lin_verdict(struct lin_ctx *ctx, const struct expr *v)
{
	struct nftnl_expr *e = add_expr(ctx, "immediate");

	nftnl_expr_set_u32(e, NFTNL_EXPR_IMM_DREG, REG_VERDICT);
	nftnl_expr_set_u32(e, NFTNL_EXPR_IMM_VERDICT, v->verdict.verdict);
	if (v->verdict.chain)
		xnftnl_expr_set_str(e, NFTNL_EXPR_IMM_CHAIN, v->verdict.chain);
}

static void lin_immediate(struct lin_ctx *ctx, unsigned int reg,
			  const struct expr *v, enum byteorder bo)
{
	struct nftnl_expr *e = add_expr(ctx, "immediate");
	uint8_t data[NFH_VAL_MAXLEN];
	unsigned int n = value_data(v, bo, data);

	nftnl_expr_set_u32(e, NFTNL_EXPR_IMM_DREG, reg);
	nftnl_expr_set(e, NFTNL_EXPR_IMM_DATA, data, n);
}


/* a nat address or port: a constant, or looked up in a map (whose values
   are @data, or the type of @v) */
static int nat_value_as(struct lin_ctx *ctx, uint32_t reg, const struct expr *v,
			struct expr *data)
{
	struct expr *want = data;
	uint32_t dreg = ctx->dreg;
	int ret;

	if (v->kind != EXPR_MAP) {
		lin_immediate(ctx, reg, v, BYTEORDER_BIG);
		return 0;
	}
	if (!want)
		want = set_type_placeholder(NULL, v->dtype, v->len, BYTEORDER_BIG);
	/* the key loads into the register the value comes back in */
	ctx->key_slot = (reg - NFT_REG_1) * 4;
	ret = lin_map(ctx, v, want, reg);
	ctx->key_slot = 0;
	ctx->dreg = dreg;
	expr_free(want);
	return ret;
}

static int nat_value(struct lin_ctx *ctx, uint32_t reg, const struct expr *v)
{
	return nat_value_as(ctx, reg, v, NULL);
}


/*
 * A value to write: a field that does not end its bytes is shifted down
 * to its own value, as nft does (meta mark set @th,0,1 sets 1, not 0x80)
 */
static void value_load(struct lin_ctx *ctx, const struct expr *v)
{
	struct kind_load ld;

	selector_load(ctx, v, 0, &ld);
	if (is_field(v) && ld.masked && ld.shift)
		put_shift(ctx, OP_RSHIFT, ld.shift, ld.len);
}

static int kind_lin_value(struct kind_lin *k, const struct expr *v,
			  const struct expr *want, enum byteorder bo)
{
	struct lin_ctx *ctx = k->phase;

	if (v->kind == EXPR_MAP)
		return lin_map(ctx, v, want, NFT_REG_1) < 0 ? -1 : 0;
	if (v->kind != EXPR_VALUE)
		value_load(ctx, v);
	else
		lin_immediate(ctx, NFT_REG_1, v, bo);
	return 0;
}

/* a statement kind known by its ops (include/kind.h) */
static int kind_lin_stmt(struct lin_ctx *ctx, const struct stmt *s)
{
	struct kind_lin k = KIND_LIN(ctx);

	return s->ops->linearize(&k, s);
}

static int lin_stmt(struct lin_ctx *ctx, const struct stmt *s)
{
	if (s->ops && s->ops->linearize)
		return kind_lin_stmt(ctx, s);
	switch (s->kind) {
	case STMT_EXPRESSION:
		return lin_relational(ctx, s->expr);
	case STMT_VERDICT:
		if (s->verdict.expr->kind == EXPR_MAP) {
			struct expr *want = set_type_placeholder(NULL, &verdict_type, 0,
								 BYTEORDER_INVALID);
			int ret = lin_map(ctx, s->verdict.expr, want, REG_VERDICT);

			expr_free(want);
			return ret;
		}
		lin_verdict(ctx, s->verdict.expr);
		return 0;
	default:
		return lerr(ctx, &s->loc, "statement is not supported yet");
	}
}

/* --- objects ------------------------------------------------------------ */

static void udata_comment(struct nftnl_udata_buf *b, unsigned int type,
			  const char *comment)
{
	nftnl_udata_put_strz(b, type, comment);
}

static void lin_table(struct lin_ctx *ctx, struct cmd *cmd)
{
	struct nftnl_table *t = xnftnl_table_alloc();
	uint16_t flags = NLM_F_CREATE;

	nftnl_table_set_u32(t, NFTNL_TABLE_FAMILY, cmd->h.family);
	xnftnl_table_set_str(t, NFTNL_TABLE_NAME, cmd->h.table);
	/*
	 * nft always sends the flags, 0 when none are given: "add table t"
	 * wakes a dormant table, and the kernel refuses a second change of
	 * them in one batch (nft(8)'s dormant example in one file)
	 */
	nftnl_table_set_u32(t, NFTNL_TABLE_FLAGS,
			    cmd->table && cmd->table->flags_set ? cmd->table->flags : 0);
	if (cmd->table && cmd->table->comment) {
		struct nftnl_udata_buf *b = xnftnl_udata_buf_alloc(NFT_USERDATA_MAXLEN);

		udata_comment(b, 0 /* NFTNL_UDATA_TABLE_COMMENT */,
			      cmd->table->comment);
		xnftnl_table_set_data(t, NFTNL_TABLE_USERDATA,
				     nftnl_udata_buf_data(b),
				     nftnl_udata_buf_len(b));
		nftnl_udata_buf_free(b);
	}
	if (cmd->op == CMD_CREATE)
		flags |= NLM_F_EXCL;
	nl_batch_add(ctx->batch, NFT_MSG_NEWTABLE, flags, cmd->h.family,
		     NLO_TABLE, t, &cmd->loc);
}


/* a chain's devices: NFTA_HOOK_DEV holds a name only, a prefix or more
   than one go in the list */
static void chain_devs_put(struct nftnl_chain *c, const struct chain *ch)
{
	struct expr *d;
	unsigned int ndev = 0;
	bool prefix = false;

	list_for_each_entry(d, &ch->devices, list) {
		ndev++;
		prefix |= dev_is_prefix(d->sym.str);
	}
	if (ndev == 1 && !prefix) {
		d = list_first_entry(&ch->devices, struct expr, list);
		xnftnl_chain_set_str(c, NFTNL_CHAIN_DEV, d->sym.str);
	} else if (ndev > 0) {
		const char **devs = xzalloc((ndev + 1) * sizeof(*devs));
		unsigned int k = 0;

		list_for_each_entry(d, &ch->devices, list)
			devs[k++] = d->sym.str;
		xnftnl_chain_set_data(c, NFTNL_CHAIN_DEVICES, devs,
				     sizeof(*devs) * (ndev + 1));
		free(devs);
	}
}

static void lin_chain(struct lin_ctx *ctx, struct cmd *cmd)
{
	struct nftnl_chain *c = xnftnl_chain_alloc();
	struct chain *ch = cmd->chain;
	uint16_t flags = NLM_F_CREATE;

	nftnl_chain_set_u32(c, NFTNL_CHAIN_FAMILY, cmd->h.family);
	xnftnl_chain_set_str(c, NFTNL_CHAIN_TABLE, cmd->h.table);
	xnftnl_chain_set_str(c, NFTNL_CHAIN_NAME, cmd->h.chain);
	if (ch && ch->base) {
		nftnl_chain_set_u32(c, NFTNL_CHAIN_HOOKNUM, ch->hooknum);
		nftnl_chain_set_s32(c, NFTNL_CHAIN_PRIO, ch->prio);
		xnftnl_chain_set_str(c, NFTNL_CHAIN_TYPE, ch->type);
	}
	/* a base chain's, or those added to one the kernel holds */
	if (ch && (ch->base || ch->devices_only))
		chain_devs_put(c, ch);
	if (ch && ch->policy >= 0)
		nftnl_chain_set_u32(c, NFTNL_CHAIN_POLICY, ch->policy);
	if (ch && ch->comment) {
		struct nftnl_udata_buf *b = xnftnl_udata_buf_alloc(NFT_USERDATA_MAXLEN);

		udata_comment(b, 0 /* NFTNL_UDATA_CHAIN_COMMENT */, ch->comment);
		xnftnl_chain_set_data(c, NFTNL_CHAIN_USERDATA,
				     nftnl_udata_buf_data(b),
				     nftnl_udata_buf_len(b));
		nftnl_udata_buf_free(b);
	}
	if (cmd->op == CMD_CREATE)
		flags |= NLM_F_EXCL;
	nl_batch_add(ctx->batch, NFT_MSG_NEWCHAIN, flags, cmd->h.family,
		     NLO_CHAIN, c, &cmd->loc);
}

/* the attributes that name an object */
static struct nftnl_obj *obj_ident(struct cmd *cmd)
{
	struct nftnl_obj *o = xnftnl_obj_alloc();

	nftnl_obj_set_u32(o, NFTNL_OBJ_FAMILY, cmd->h.family);
	xnftnl_obj_set_str(o, NFTNL_OBJ_TABLE, cmd->h.table);
	if (cmd->h.obj)
		xnftnl_obj_set_str(o, NFTNL_OBJ_NAME, cmd->h.obj);
	nftnl_obj_set_u32(o, NFTNL_OBJ_TYPE, cmd->h.obj_type);
	if (cmd->h.handle)
		nftnl_obj_set_u64(o, NFTNL_OBJ_HANDLE, cmd->h.handle);
	return o;
}

/* an object type known by its ops (include/kind.h) */
static void kind_obj_linearize(struct lin_ctx *ctx, const struct obj_ops *ops,
			       struct nftnl_obj *o, const struct obj *ob)
{
	struct kind_lin k = KIND_LIN(ctx);

	ops->linearize(&k, o, ob);
}

static void lin_obj(struct lin_ctx *ctx, struct cmd *cmd)
{
	struct nftnl_obj *o = obj_ident(cmd);
	const struct obj *ob = cmd->object;
	const struct obj_ops *ops = obj_ops_by_type(ob->type);

	if (ops && ops->linearize)
		kind_obj_linearize(ctx, ops, o, ob);
	if (ob->comment) {
		struct nftnl_udata_buf *b = xnftnl_udata_buf_alloc(NFT_USERDATA_MAXLEN);

		udata_comment(b, 0 /* NFTNL_UDATA_OBJ_COMMENT */, ob->comment);
		xnftnl_obj_set_data(o, NFTNL_OBJ_USERDATA, nftnl_udata_buf_data(b),
				   nftnl_udata_buf_len(b));
		nftnl_udata_buf_free(b);
	}
	nl_batch_add(ctx->batch, NFT_MSG_NEWOBJ,
		     NLM_F_CREATE | (cmd->op == CMD_CREATE ? NLM_F_EXCL : 0),
		     cmd->h.family, NLO_OBJ, o, &cmd->loc);
}

/* where the rule goes (add, insert, replace, index): its message flags */
static uint16_t rule_place(struct nftnl_rule *r, const struct cmd *cmd)
{
	uint16_t flags = NLM_F_CREATE;

	switch (cmd->op) {
	case CMD_ADD:
	case CMD_CREATE:
		flags |= NLM_F_APPEND;
		if (cmd->h.position)
			nftnl_rule_set_u64(r, NFTNL_RULE_POSITION, cmd->h.position);
		break;
	case CMD_INSERT:
		if (cmd->h.position)
			nftnl_rule_set_u64(r, NFTNL_RULE_POSITION, cmd->h.position);
		break;
	case CMD_REPLACE:
		flags |= NLM_F_REPLACE;
		nftnl_rule_set_u64(r, NFTNL_RULE_HANDLE, cmd->h.handle);
		break;
	default:
		break;
	}
	/* "index N" placed a later rule next to this one, or this one next
	   to an earlier rule of the batch */
	if (cmd->h.rule_id)
		nftnl_rule_set_u32(r, NFTNL_RULE_ID, cmd->h.rule_id);
	if (cmd->h.position_id)
		nftnl_rule_set_u32(r, NFTNL_RULE_POSITION_ID, cmd->h.position_id);
	return flags;
}

static int lin_rule(struct lin_ctx *ctx, struct cmd *cmd)
{
	struct nftnl_rule *r = xnftnl_rule_alloc();
	struct nl_item *it;
	struct stmt *s;
	uint16_t flags;
	int ret = 0;

	ctx->nlr = r;
	nftnl_rule_set_u32(r, NFTNL_RULE_FAMILY, cmd->h.family);
	xnftnl_rule_set_str(r, NFTNL_RULE_TABLE, cmd->h.table);
	if (cmd->h.chain)	/* a chain binding's rule names it by id */
		xnftnl_rule_set_str(r, NFTNL_RULE_CHAIN, cmd->h.chain);
	flags = rule_place(r, cmd);
	ctx->rule_loc = &cmd->loc;
	ctx->nelocs = 0;
	list_for_each_entry(s, &cmd->rule->stmts, list) {
		ctx->stmt_loc = &s->loc;
		if (lin_stmt(ctx, s) < 0)
			ret = -1;
	}
	ctx->rule_loc = ctx->stmt_loc = NULL;
	if (cmd->rule->comment) {
		struct nftnl_udata_buf *b = xnftnl_udata_buf_alloc(NFT_USERDATA_MAXLEN);

		udata_comment(b, 0 /* NFTNL_UDATA_RULE_COMMENT */,
			      cmd->rule->comment);
		xnftnl_rule_set_data(r, NFTNL_RULE_USERDATA,
				    nftnl_udata_buf_data(b),
				    nftnl_udata_buf_len(b));
		nftnl_udata_buf_free(b);
	}
	it = nl_batch_add(ctx->batch, NFT_MSG_NEWRULE, flags, cmd->h.family,
			  NLO_RULE, r, &cmd->loc);
	if (ctx->nelocs) {
		it->elocs = xmalloc(ctx->nelocs * sizeof(*it->elocs));
		memcpy(it->elocs, ctx->elocs, ctx->nelocs * sizeof(*it->elocs));
		it->nelocs = ctx->nelocs;
	}
	return ret;
}

/*
 * A chain binding: its chain, by id and without a name, then its rules,
 * each a rule message of its own (nft's order), before the rule that
 * jumps to it.
 */
static int kind_lin_bound_chain(struct kind_lin *k, uint32_t id,
				const struct list_head *rules)
{
	struct lin_ctx *ctx = k->phase;
	const struct handle *h = &ctx->cmd->h;
	struct nftnl_chain *c = xnftnl_chain_alloc();
	struct rule *r;
	int ret = 0;

	nftnl_chain_set_u32(c, NFTNL_CHAIN_FAMILY, h->family);
	xnftnl_chain_set_str(c, NFTNL_CHAIN_TABLE, h->table);
	nftnl_chain_set_u32(c, NFTNL_CHAIN_FLAGS, NFT_CHAIN_BINDING);
	nl_batch_add(ctx->batch, NFT_MSG_NEWCHAIN, NLM_F_CREATE, h->family,
		     NLO_CHAIN, c, ctx->stmt_loc ? ctx->stmt_loc :
		     &ctx->cmd->loc)->chain_id = id;
	list_for_each_entry(r, rules, list) {
		struct cmd cmd = { .op = CMD_ADD, .obj = CMD_OBJ_RULE,
				   .loc = r->loc, .rule = r };
		struct lin_ctx in = { .nfh = ctx->nfh, .cmds = ctx->cmds,
				      .batch = ctx->batch, .msgs = ctx->msgs,
				      .dreg = REG_1, .cmd = &cmd };

		cmd.h.family = h->family;
		cmd.h.table = h->table;
		if (lin_rule(&in, &cmd) < 0)
			ret = -1;
		list_entry(ctx->batch->items.prev, struct nl_item,
			   list)->chain_id = id;
		free(in.elocs);
	}
	return ret;
}

/* rules compiled as they were parsed: their messages, in place */
static int lin_rule_pack(struct lin_ctx *ctx, struct rule_pack *p)
{
	bool failed = !list_empty(&p->lin_errs);

	list_splice_tail_init(&p->lin_errs, ctx->msgs);
	list_splice_tail_init(&p->items, &ctx->batch->items);
	return failed ? -1 : 0;
}

int lin_rule_stream(struct nfh_ctx *nfh, struct rule *r,
		    const struct handle *h, struct nl_batch *b,
		    struct list_head *msgs)
{
	struct cmd cmd = { .op = CMD_ADD, .obj = CMD_OBJ_RULE, .h = *h,
			   .loc = r->loc, .rule = r };
	struct lin_ctx ctx = { .nfh = nfh, .batch = b, .msgs = msgs,
			       .dreg = REG_1, .cmd = &cmd };
	int ret;

	ret = lin_rule(&ctx, &cmd);
	free(ctx.elocs);
	return ret;
}

/* what names the object a delete or destroy removes */
static void *del_table(struct cmd *cmd)
{
	struct nftnl_table *t = xnftnl_table_alloc();

	nftnl_table_set_u32(t, NFTNL_TABLE_FAMILY, cmd->h.family);
	if (cmd->h.table)
		xnftnl_table_set_str(t, NFTNL_TABLE_NAME, cmd->h.table);
	if (cmd->h.handle)
		nftnl_table_set_u64(t, NFTNL_TABLE_HANDLE, cmd->h.handle);
	return t;
}

static void *del_chain(struct cmd *cmd)
{
	struct nftnl_chain *c = xnftnl_chain_alloc();

	nftnl_chain_set_u32(c, NFTNL_CHAIN_FAMILY, cmd->h.family);
	xnftnl_chain_set_str(c, NFTNL_CHAIN_TABLE, cmd->h.table);
	if (cmd->h.chain)
		xnftnl_chain_set_str(c, NFTNL_CHAIN_NAME, cmd->h.chain);
	if (cmd->h.handle)
		nftnl_chain_set_u64(c, NFTNL_CHAIN_HANDLE, cmd->h.handle);
	/* devices removed from a base chain, which stays (nft 1.1), given
	   alone or with the chain's type, hook and priority */
	if (cmd->chain && (cmd->chain->devices_only ||
			   (cmd->chain->base &&
			    !list_empty(&cmd->chain->devices))))
		chain_devs_put(c, cmd->chain);
	return c;
}

static void *del_rule(struct cmd *cmd)
{
	struct nftnl_rule *r = xnftnl_rule_alloc();

	nftnl_rule_set_u32(r, NFTNL_RULE_FAMILY, cmd->h.family);
	xnftnl_rule_set_str(r, NFTNL_RULE_TABLE, cmd->h.table);
	xnftnl_rule_set_str(r, NFTNL_RULE_CHAIN, cmd->h.chain);
	if (cmd->h.handle)
		nftnl_rule_set_u64(r, NFTNL_RULE_HANDLE, cmd->h.handle);
	return r;
}

static void *del_set(struct cmd *cmd)
{
	struct nftnl_set *st = xnftnl_set_alloc();

	if (cmd->h.set) {
		set_ident(st, cmd->h.family, cmd->h.table, cmd->h.set, 0);
	} else {
		/* delete set TABLE handle N */
		xnftnl_set_set_str(st, NFTNL_SET_TABLE, cmd->h.table);
		nftnl_set_set_u32(st, NFTNL_SET_FAMILY, cmd->h.family);
		nftnl_set_set_u64(st, NFTNL_SET_HANDLE, cmd->h.handle);
	}
	return st;
}

static void *del_obj(struct cmd *cmd)
{
	return obj_ident(cmd);
}

static void *del_flowtable(struct cmd *cmd)
{
	return flowtable_nl(cmd);
}

static const struct {
	enum cmd_obj	obj;
	uint16_t	del, destroy;	/* NFT_MSG_* */
	enum nl_obj	nlo;
	void		*(*ident)(struct cmd *cmd);
} deletes[] = {
	{ CMD_OBJ_TABLE, NFT_MSG_DELTABLE, NFT_MSG_DESTROYTABLE, NLO_TABLE, del_table },
	{ CMD_OBJ_CHAIN, NFT_MSG_DELCHAIN, NFT_MSG_DESTROYCHAIN, NLO_CHAIN, del_chain },
	{ CMD_OBJ_RULE, NFT_MSG_DELRULE, NFT_MSG_DESTROYRULE, NLO_RULE, del_rule },
	{ CMD_OBJ_SET, NFT_MSG_DELSET, NFT_MSG_DESTROYSET, NLO_SET, del_set },
	{ CMD_OBJ_MAP, NFT_MSG_DELSET, NFT_MSG_DESTROYSET, NLO_SET, del_set },
	{ CMD_OBJ_OBJ, NFT_MSG_DELOBJ, NFT_MSG_DESTROYOBJ, NLO_OBJ, del_obj },
	{ CMD_OBJ_FLOWTABLE, NFT_MSG_DELFLOWTABLE, NFT_MSG_DESTROYFLOWTABLE,
	  NLO_FLOWTABLE, del_flowtable },
};

/* a flowtable's devices taken out: where each stands, in the message's
   order, for an error that names one (nl_item_expr_loc) */
static void flowtable_dev_locs(struct nl_item *it, const struct cmd *cmd)
{
	const struct expr *d;
	unsigned int n = 0;

	if (!cmd->flowtable)
		return;
	list_for_each_entry(d, &cmd->flowtable->hook->devices, list)
		n++;
	if (!n || n > UINT16_MAX)
		return;
	it->elocs = xmalloc(n * sizeof(*it->elocs));
	list_for_each_entry(d, &cmd->flowtable->hook->devices, list)
		it->elocs[it->nelocs++] = loc_within(&cmd->loc, &d->loc);
}

static void lin_delete(struct lin_ctx *ctx, struct cmd *cmd)
{
	struct nl_item *it;

	for (unsigned int i = 0; i < array_size(deletes); i++) {
		if (deletes[i].obj != cmd->obj)
			continue;
		it = nl_batch_add(ctx->batch, cmd->op == CMD_DESTROY ?
				  deletes[i].destroy : deletes[i].del, 0,
				  cmd->h.family, deletes[i].nlo,
				  deletes[i].ident(cmd), &cmd->loc);
		if (cmd->obj == CMD_OBJ_FLOWTABLE)
			flowtable_dev_locs(it, cmd);
	}
}

/* the chain by its handle, its new name: no flags, as nft sends it */
static void lin_rename(struct lin_ctx *ctx, struct cmd *cmd)
{
	struct nftnl_chain *c = xnftnl_chain_alloc();

	nftnl_chain_set_u32(c, NFTNL_CHAIN_FAMILY, cmd->h.family);
	xnftnl_chain_set_str(c, NFTNL_CHAIN_TABLE, cmd->h.table);
	xnftnl_chain_set_str(c, NFTNL_CHAIN_NAME, cmd->chain->h.chain);
	nftnl_chain_set_u64(c, NFTNL_CHAIN_HANDLE, cmd->h.handle);
	nl_batch_add(ctx->batch, NFT_MSG_NEWCHAIN, 0, cmd->h.family,
		     NLO_CHAIN, c, &cmd->loc);
}

static void lin_flush(struct lin_ctx *ctx, struct cmd *cmd)
{
	struct nftnl_table *t;
	struct nftnl_rule *r;

	switch (cmd->obj) {
	case CMD_OBJ_RULESET:
		/* deleting tables without a name deletes every table */
		t = xnftnl_table_alloc();
		nftnl_table_set_u32(t, NFTNL_TABLE_FAMILY, cmd->h.family);
		nl_batch_add(ctx->batch, NFT_MSG_DELTABLE, 0, cmd->h.family,
			     NLO_TABLE, t, &cmd->loc);
		break;
	case CMD_OBJ_TABLE:
	case CMD_OBJ_CHAIN:
		r = xnftnl_rule_alloc();
		nftnl_rule_set_u32(r, NFTNL_RULE_FAMILY, cmd->h.family);
		xnftnl_rule_set_str(r, NFTNL_RULE_TABLE, cmd->h.table);
		if (cmd->h.chain)
			xnftnl_rule_set_str(r, NFTNL_RULE_CHAIN, cmd->h.chain);
		nl_batch_add(ctx->batch, NFT_MSG_DELRULE, 0, cmd->h.family,
			     NLO_RULE, r, &cmd->loc);
		break;
	case CMD_OBJ_SET:
	case CMD_OBJ_MAP: {
		/* a set element message without elements empties the set */
		struct nftnl_set *st = xnftnl_set_alloc();

		set_ident(st, cmd->h.family, cmd->h.table, cmd->h.set, 0);
		nl_batch_add(ctx->batch, NFT_MSG_DELSETELEM, 0, cmd->h.family,
			     NLO_SETELEM, st, &cmd->loc);
		break;
	}
	default:
		break;
	}
}

/* one command's messages; -1 if its linearization failed */
static int lin_cmd(struct lin_ctx *ctx, struct cmd *cmd)
{
	switch (cmd->op) {
	case CMD_ADD:
	case CMD_CREATE:
	case CMD_INSERT:
	case CMD_REPLACE:
		if (cmd->obj == CMD_OBJ_TABLE)
			lin_table(ctx, cmd);
		else if (cmd->obj == CMD_OBJ_CHAIN)
			lin_chain(ctx, cmd);
		else if (cmd->obj == CMD_OBJ_RULE && cmd->rule && cmd->rule->pack)
			return lin_rule_pack(ctx, cmd->rule->pack);
		else if (cmd->obj == CMD_OBJ_RULE)
			return lin_rule(ctx, cmd);
		else if ((cmd->obj == CMD_OBJ_SET || cmd->obj == CMD_OBJ_MAP) &&
			 cmd->set)
			return lin_set_decl(ctx, cmd);
		else if (cmd->obj == CMD_OBJ_ELEMENTS)
			return lin_elems_cmd(ctx, cmd);
		else if (cmd->obj == CMD_OBJ_OBJ && cmd->object)
			lin_obj(ctx, cmd);
		else if (cmd->obj == CMD_OBJ_FLOWTABLE && cmd->flowtable)
			/* nft: a kernel error is the name's */
			nl_batch_add(ctx->batch, NFT_MSG_NEWFLOWTABLE,
				     NLM_F_CREATE | (cmd->op == CMD_CREATE ?
						     NLM_F_EXCL : 0),
				     cmd->h.family, NLO_FLOWTABLE,
				     flowtable_nl(cmd), &cmd->h.obj_loc);
		return 0;
	case CMD_DELETE:
	case CMD_DESTROY:
		if (cmd->obj == CMD_OBJ_ELEMENTS)
			return lin_elems_cmd(ctx, cmd);
		lin_delete(ctx, cmd);
		return 0;
	case CMD_FLUSH:
		lin_flush(ctx, cmd);
		return 0;
	case CMD_RENAME:
		lin_rename(ctx, cmd);
		return 0;
	default:
		return 0;
	}
}

/*
 * The batch's items after @from, freed: all of them, or with @missing
 * those that name something missing (the rules of a pack are each their
 * own)
 */
static void items_drop(struct nl_batch *b, struct list_head *from,
		       const struct cascade *missing)
{
	struct list_head *p, *next;
	LIST_HEAD(drop);

	for (p = from->next; p != &b->items; p = next) {
		next = p->next;
		if (missing &&
		    !cascade_item(missing, list_entry(p, struct nl_item, list)))
			continue;
		list_del(p);
		list_add_tail(p, &drop);
	}
	nl_items_free(&drop);
}

/* whether an item after @from names something missing */
static bool items_name_missing(struct nl_batch *b, struct list_head *from,
			       const struct cascade *missing)
{
	for (struct list_head *p = from->next; p != &b->items; p = p->next)
		if (cascade_item(missing, list_entry(p, struct nl_item, list)))
			return true;
	return false;
}

static bool is_pack(const struct cmd *cmd)
{
	return cmd->obj == CMD_OBJ_RULE && cmd->rule && cmd->rule->pack;
}

static bool lin_skip(const struct cmd *cmd, const struct cascade *missing)
{
	if (is_pack(cmd))
		return false;
	return cmd->failed ||
	       (cmd->obj == CMD_OBJ_ELEMENTS && cascade_cmd(missing, cmd));
}

/*
 * The evaluated @cmds as messages into @b, in order.  When a command
 * fails (in evaluation, or here), what it would have made is missing, and
 * a command that names it (a rule of its chain, a lookup of its set, a
 * jump to it) would be refused for that alone: such a command is still
 * linearized, for errors of its own, but its messages are left out.  So
 * when anything failed, @b holds what the rest would send, for the
 * offline model to judge, never to be sent.  A batch without failures is
 * the same as ever.  0, or -1 if a command failed (here or before).
 */
int lin_cmds(struct nfh_ctx *nfh, struct list_head *cmds,
	     struct nl_batch *b, struct list_head *msgs,
	     struct cascade *missing)
{
	struct lin_ctx ctx = { .nfh = nfh, .cmds = cmds, .batch = b,
			       .msgs = msgs, .dreg = REG_1 };
	struct cmd *cmd;
	int ret = 0;

	list_for_each_entry(cmd, cmds, list) {
		struct list_head *from = b->items.prev, *last = msgs->prev;
		bool failed = cmd->failed && !is_pack(cmd);

		if (cmd->failed) {
			cascade_note(missing, cmd);
			ret = -1;
		}
		if (lin_skip(cmd, missing))
			continue;
		ctx.cmd = cmd;
		if (lin_cmd(&ctx, cmd) < 0 || msgs->prev != last) {
			/* a rule that failed was sent as far as it went */
			failed = cmd->failed = true;
			cascade_note(missing, cmd);
			ret = -1;
		}
		/* a pack that failed in evaluation holds the rules that did not */
		if (failed || cascade_cmd(missing, cmd) ||
		    (!is_pack(cmd) && items_name_missing(b, from, missing)))
			items_drop(b, from, NULL);
		else if (is_pack(cmd) && cascade_any(missing))
			items_drop(b, from, missing);
	}
	free(ctx.elocs);
	return ret;
}
