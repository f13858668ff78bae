// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Evaluation: expand blocks into flat commands, give every expression a
 * datatype, turn symbols into constants, add the protocol tests that nft
 * adds implicitly, and check hooks, types and priorities per family.
 */
#include <ctype.h>
#include <errno.h>
#include <net/if.h>
#include <stdlib.h>
#include <inttypes.h>
#include <string.h>
#include <linux/if_arp.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>

#include <libnftnl/chain.h>
#include <libnftnl/rule.h>
#include <libnftnl/set.h>

#include <cache.h>
#include <delinearize.h>
#include <elems.h>
#include <ctx.h>
#include <evaluate.h>
#include <inner.h>
#include <kind.h>
#include <netlink.h>
#include <parser.h>
#include <plan.h>
#include <print.h>
#include <payload.h>
#include <proto.h>
#include <set.h>
#include <suggest.h>
#include <wire.h>
#include <fib.h>
#include <meta.h>
#include <names.h>

struct eval_ctx {
	struct nfh_ctx		*nfh;
	struct parser_state	*state;
	struct list_head	*msgs;
	struct rule		*rule;
	struct stmt		*stmt;		/* statement being evaluated */
	struct cmd		*cmd;		/* command being evaluated */
	struct list_head	*cmds;		/* all of them, for set lookups */
	unsigned int		family;
	struct proto_ctx	pctx;
	size_t			expanded;	/* expressions made from
						   variables, this rule or command */
	const struct var	*first_var;	/* its first variable */
	struct location		first_loc;	/* and where it is used */
	uint32_t		undef[8];	/* undefined variables named, */
	unsigned int		nundef;		/* this rule or command */
	unsigned int		anon_sets;	/* anonymous sets it made */
	bool			dep_at_head;	/* dependencies open the rule */
	bool			data_ranges;	/* an anonymous map's values
						   may be ranges (nat's) */
	/* the protocols of the packet inside a tunnel, this rule's
	   (inner_pctx_set: one was matched); while a header in a tunnel
	   is evaluated, pctx and inner_pctx are swapped and inner is the
	   tunnel, which each dependency added reads through */
	struct proto_ctx	inner_pctx;
	bool			inner_pctx_set;
	const struct expr	*inner;
	/* a meta or ct key's new value is being evaluated: &, | and ^
	   may take a value of the packet as their right side */
	bool			value_pair;
};

/*
 * Variables expand as they are met, so definitions that each use the one
 * before twice double at every step: past this many expressions made for
 * one rule or command, expanding stops with an error instead of eating memory.
 */
#define EXPAND_MAX	(1UL << 22)

static int expr_eval(struct eval_ctx *ctx, struct expr **e);
/*
 * "ct state 0x10,0x20 / 0x10,0x20": a number after the slash is read as a
 * prefix length, so the list holds 0x10, (0x20 / 16), 0x20; for flags it
 * is the value list 0x10,0x20 masked by the list 16,0x20.  Makes *@e that
 * VALUE / MASK; false if the list holds no prefix.
 */
static bool list_mask_split(struct expr **e)
{
	struct expr *x = *e, *i, *next, *vals, *mask, *p = NULL;
	char buf[32];

	list_for_each_entry(i, &x->set.exprs, list)
		if (i->kind == EXPR_PREFIX) {
			p = i;
			break;
		}
	/* nft's grammar wants a list after the slash of a list (VALUE,
	   VALUE / MASK is a syntax error there) */
	if (!p || (p->list.next == &x->set.exprs && p->list.prev != &x->set.exprs))
		return false;
	vals = compound_expr_alloc(&x->loc, EXPR_LIST);
	mask = compound_expr_alloc(&p->loc, EXPR_LIST);
	list_for_each_entry_safe(i, next, &x->set.exprs, list) {
		list_del(&i->list);
		if (i == p) {
			compound_expr_add(vals, p->prefix.expr);
			p->prefix.expr = NULL;
			snprintf(buf, sizeof(buf), "%u", p->prefix.prefix_len);
			compound_expr_add(mask, symbol_expr_alloc(&p->loc, buf, false));
			expr_free(p);
			p = NULL;
		} else {
			compound_expr_add(p ? vals : mask, i);
		}
	}
	x->set.size = 0;
	*e = binop_expr_alloc(&x->loc, OP_MASK, vals, mask);
	expr_free(x);
	return true;
}

static int rhs_eval(struct eval_ctx *ctx, const struct expr *lhs,
		    struct expr **e);
/* a set without its key's type, or a map without its values' */
static bool set_types_missing(const struct set *s)
{
	return !s->key || (s->is_map && !s->data && !s->objtype);
}

/* what a @name must be where it stands */
enum setref_want {
	SETREF_SET,	/* add @s { ... }: a set */
	SETREF_MAP,	/* map @m, vmap @m */
	SETREF_LOOKUP,	/* ip saddr @s: a set, or a map whose keys are tested */
};

static int setref_eval(struct eval_ctx *ctx, const struct expr *lhs,
		       struct expr *x, enum setref_want want);

static int value_stmt_eval(struct eval_ctx *ctx, struct expr *lhs,
			   struct expr **val);

/* a check is one line: queue the error, return -1 */
#define err(ctx, loc, ...) error_queue((ctx)->msgs, loc, __VA_ARGS__)

/* --- implicit dependencies ---------------------------------------------- */

/* a dependency's match of @lhs, through the tunnel of a header in one */
static struct stmt *dep_stmt(struct eval_ctx *ctx, struct expr *rel)
{
	if (ctx->inner)
		rel->op.left = inner_wrap(ctx->inner, rel->op.left);
	return match_stmt_alloc(&internal_location, rel);
}

static void add_dep(struct eval_ctx *ctx, struct expr *lhs, uint64_t value)
{
	struct expr *rhs, *rel;
	struct stmt *s;

	rhs = constant_expr_u64(&internal_location, lhs->dtype, lhs->byteorder,
				lhs->len, value);
	rel = relational_expr_alloc(&internal_location, OP_EQ, lhs, rhs);
	proto_ctx_update(&ctx->pctx, rel);
	/* --debug=proto-ctx: nft prints the network or transport header
	   that a dependency it adds names twice (the link layer's once) */
	if (!(ctx->pctx.touched & (1u << PROTO_BASE_LL_HDR)))
		proto_ctx_debug_again(&ctx->pctx);
	s = dep_stmt(ctx, rel);
	/*
	 * dependencies go right before the statement that needs them; nft
	 * puts those of ipv6 extension headers first in the rule
	 */
	if (ctx->dep_at_head && ctx->rule)
		list_add(&s->list, &ctx->rule->stmts);
	else
		list_add_tail(&s->list, &ctx->stmt->list);
}

/* a network header a match announced, not the one the family implies */
static bool nh_learned(const struct eval_ctx *ctx)
{
	const struct proto_desc *nh = ctx->pctx.desc[PROTO_BASE_NETWORK_HDR];

	switch (ctx->family) {
	case NFPROTO_IPV4:
		return nh && nh != &proto_ip;
	case NFPROTO_IPV6:
		return nh && nh != &proto_ip6;
	case NFPROTO_ARP:
		return nh && nh != &proto_arp;
	}
	return nh;
}

static int conflict(struct eval_ctx *ctx, const struct expr *p,
		    const struct proto_desc *have, const struct proto_desc *want)
{
	return err(ctx, &p->loc, "conflicting protocols specified: %s vs. %s",
		   have->name, want->name);
}

/*
 * nft refuses a header that a set of protocol values before it does not
 * end with ("meta nfproto { ipv4, ipv6 } ip saddr 1.1.1.1"), and at the
 * transport layer one after a set of several ("meta l4proto { tcp, udp }
 * tcp dport 22": th dport is the way to match both)
 */
static int set_conflict(struct eval_ctx *ctx, const struct expr *p,
			enum proto_base base, const struct proto_desc *want)
{
	const struct proto_ctx *pctx = &ctx->pctx;
	unsigned int i;

	if (base != PROTO_BASE_TRANSPORT_HDR) {
		const struct proto_desc *d = pctx->set_desc[base];

		if (d && d != want)
			return error_queue2(ctx->msgs, &p->loc, pctx->set_loc[base],
					    "conflicting protocols specified: %s vs. %s (nft takes the protocol from the set's last element, %s)",
					    d->name, want->name, d->name);
		return 0;
	}
	for (i = 0; i < pctx->th_nseen; i++)
		if (pctx->th_seen[i] != want)
			return error_queue2(ctx->msgs, &p->loc, pctx->th_loc[i],
					    "conflicting protocols specified: %s vs. %s (%s is matched before; a %s field needs %s alone)",
					    pctx->th_seen[i]->name, want->name,
					    pctx->th_seen[i]->name, want->name,
					    want->name);
	return 0;
}

/* "vlan type 8021q vlan id 10": the id of the inner tag, as nft takes it */
static struct expr *vlan_stack(const struct eval_ctx *ctx, struct expr *p)
{
	if (p->payload.desc == &proto_vlan && p->payload.tmpl &&
	    p->payload.offset == p->payload.tmpl->offset)
		p->payload.offset += 32 * ctx->pctx.vlan_depth;
	return p;
}

/*
 * In a tunnel, the match of the ether type (or the statement whose
 * dependency it is) before the statement being evaluated, which a vlan
 * field's ether type 8021q would contradict; NULL if there is none
 */
static const struct stmt *inner_ether_type(const struct eval_ctx *ctx)
{
	const struct stmt *s;
	const struct expr *c;

	if (!ctx->inner || !ctx->rule || !ctx->stmt)
		return NULL;
	list_for_each_entry(s, &ctx->rule->stmts, list) {
		if (s == ctx->stmt)
			break;
		if (s->kind != STMT_EXPRESSION || s->expr->kind != EXPR_RELATIONAL)
			continue;
		c = inner_child(s->expr->op.left);
		/* nft 1.1.1 compares within one tunnel */
		if (!c || inner_tunnel_desc(s->expr->op.left) !=
			  inner_tunnel_desc(ctx->inner))
			continue;
		if (c->kind != EXPR_PAYLOAD || c->payload.desc != &proto_eth ||
		    !c->payload.tmpl || strcmp(c->payload.tmpl->name, "type"))
			continue;
		/* a dependency stands right before what needed it */
		while (!s->loc.indesc &&
		       s->list.next != &ctx->rule->stmts &&
		       list_next_entry(s, list) != ctx->stmt)
			s = list_next_entry(s, list);
		return s;
	}
	return NULL;
}

/* where nft 1.1.1 points at that match: the whole of one the rule
   wrote, the field of the statement that needed it as a dependency */
static const struct location *inner_ether_type_loc(const struct eval_ctx *ctx)
{
	const struct stmt *s = inner_ether_type(ctx);
	const struct expr *c = inner_child(s->expr->op.left);

	if (c && c->payload.desc == &proto_eth && c->payload.tmpl &&
	    !strcmp(c->payload.tmpl->name, "type"))
		return &s->expr->loc;
	return &s->expr->op.left->loc;
}

/*
 * nft's rule: a header at some base needs the one below it to announce
 * it.  Another header already known at its base is a conflict, and so is
 * a header below that cannot carry it (arp, or "unknown" from a meta key
 * with a value nfh has no header for).  The ethernet header can still
 * grow a vlan tag while nothing above it is known.
 */
static int ll_dep(struct eval_ctx *ctx, const struct expr *p)
{
	const struct proto_desc *have = ctx->pctx.desc[PROTO_BASE_LL_HDR];
	const struct proto_desc *set_ll = ctx->pctx.set_desc[PROTO_BASE_LL_HDR];

	if (have == &proto_unknown)
		return conflict(ctx, p, have, p->payload.desc);
	if (set_ll == &proto_unknown)
		return error_queue2(ctx->msgs, &p->loc,
				    ctx->pctx.set_loc[PROTO_BASE_LL_HDR],
				    "conflicting protocols specified: unknown vs. %s (nft takes the link layer from the set's last element, which is not ethernet)",
				    p->payload.desc->name);
	/* in ip and ip6 the table's own header is above an ethernet header
	   an earlier match named ("ether saddr X vlan id 10"), as in nft */
	/* in a tunnel nft 1.1.1 takes a vlan field after a network
	   header's (nft 1.0.6, which has no tunnels, refuses it outside),
	   unless the ether type was matched */
	if (p->payload.desc == &proto_vlan && !ctx->pctx.vlan &&
	    inner_ether_type(ctx))
		return error_queue2(ctx->msgs, inner_ether_type_loc(ctx),
				    ctx->stmt->kind == STMT_EXPRESSION ?
				    &ctx->stmt->expr->op.left->loc :
				    &ctx->stmt->loc, "conflicting statements");
	if (p->payload.desc == &proto_vlan && !ctx->pctx.vlan &&
	    set_ll != &proto_vlan && !ctx->inner &&
	    (nh_learned(ctx) || ctx->pctx.set_desc[PROTO_BASE_NETWORK_HDR] ||
	     (have == &proto_eth && (ctx->family == NFPROTO_IPV4 ||
				     ctx->family == NFPROTO_IPV6 ||
				     ctx->family == NFPROTO_ARP))))
		return conflict(ctx, p, &proto_eth, &proto_vlan);
	if (have == &proto_eth)
		return 0;
	add_dep(ctx, meta_expr_alloc(&internal_location, NFT_META_IIFTYPE),
		ARPHRD_ETHER);
	return 0;
}

/* the test of the network header want that nh_dep() adds, as nft does in
   each family */
static int nh_dep_add(struct eval_ctx *ctx, const struct expr *p,
		      const struct proto_desc *want)
{
	/* in a tunnel, nft 1.1.1 refuses arp's test of the ether type after
	   a match of it with another value (nft 1.0.6, without tunnels,
	   takes it outside, as nfh) */
	if (want == &proto_arp && !ctx->pctx.vlan && inner_ether_type(ctx))
		return error_queue2(ctx->msgs, inner_ether_type_loc(ctx),
				    &p->loc, "conflicting statements");
	/* after an ether match, nft tests the ether (or vlan) type field */
	if ((ctx->family == NFPROTO_INET || ctx->family == NFPROTO_NETDEV) &&
	    ctx->pctx.desc[PROTO_BASE_LL_HDR] == &proto_eth) {
		const struct proto_desc *ll = ctx->pctx.vlan ? &proto_vlan : &proto_eth;

		add_dep(ctx, vlan_stack(ctx, payload_expr_alloc(&internal_location, ll,
								proto_field_lookup(ll, "type"))),
			want->id);
		return 0;
	}
	switch (ctx->family) {
	case NFPROTO_INET:
		if (want == &proto_arp)
			break;
		add_dep(ctx, meta_expr_alloc(&internal_location, NFT_META_NFPROTO),
			want == &proto_ip ? NFPROTO_IPV4 : NFPROTO_IPV6);
		return 0;
	case NFPROTO_NETDEV:
		add_dep(ctx, meta_expr_alloc(&internal_location, NFT_META_PROTOCOL),
			want->id);
		return 0;
	case NFPROTO_BRIDGE:
		/*
		 * nft tests the link layer's type field for arp, after a vlan
		 * header, and for icmp; a plain ip header gets meta protocol
		 */
		if (ctx->pctx.vlan) {
			add_dep(ctx, vlan_stack(ctx, payload_expr_alloc(&internal_location, &proto_vlan,
									proto_field_lookup(&proto_vlan, "type"))),
				want->id);
			return 0;
		}
		if (want == &proto_arp || p->kind == EXPR_EXTHDR ||
		    p->payload.desc == &proto_icmp ||
		    p->payload.desc == &proto_icmp6 ||
		    p->payload.desc == &proto_igmp) {
			add_dep(ctx, payload_expr_alloc(&internal_location, &proto_eth,
							proto_field_lookup(&proto_eth, "type")),
				want->id);
			return 0;
		}
		add_dep(ctx, meta_expr_alloc(&internal_location, NFT_META_PROTOCOL),
			want->id);
		return 0;
	}
	return err(ctx, &p->loc, "%s header cannot be matched in family %s",
		   want->name, family_name(ctx->family));
}

static int nh_dep(struct eval_ctx *ctx, const struct expr *p,
		  const struct proto_desc *want)
{
	const struct proto_desc *have = ctx->pctx.desc[PROTO_BASE_NETWORK_HDR];

	if (set_conflict(ctx, p, PROTO_BASE_NETWORK_HDR, want) < 0)
		return -1;
	if (have == want)
		return 0;
	if (have && (ctx->family == NFPROTO_IPV4 || ctx->family == NFPROTO_IPV6) &&
	    (want == &proto_ip || want == &proto_ip6))
		/* the table's own header, not one an earlier match set */
		return err(ctx, &p->loc,
			   "conflicting protocols specified: %s vs. %s; a table of family %s sees %s packets only (an inet table sees both)",
			   have->name, want->name, family_name(ctx->family),
			   have->name);
	if (have)
		return conflict(ctx, p, have, want);
	if (ctx->pctx.desc[PROTO_BASE_LL_HDR] == &proto_unknown)
		return conflict(ctx, p, &proto_unknown, want);
	if (ctx->pctx.set_desc[PROTO_BASE_LL_HDR] == &proto_unknown)
		return error_queue2(ctx->msgs, &p->loc,
				    ctx->pctx.set_loc[PROTO_BASE_LL_HDR],
				    "conflicting protocols specified: unknown vs. %s (nft takes the link layer from the set's last element, which is not ethernet)",
				    want->name);
	return nh_dep_add(ctx, p, want);
}

static int th_dep(struct eval_ctx *ctx, const struct expr *p,
		  const struct proto_desc *want)
{
	const struct proto_desc *have = ctx->pctx.desc[PROTO_BASE_TRANSPORT_HDR];
	struct expr *lhs;

	if (want == &proto_th)
		return 0;
	/* a header only nft 1.1 knows is unknown to the context, as to
	   nft 1.0.6, but its own protocol number announces it ("meta
	   l4proto gre gre protocol ip") */
	if ((!have || have == &proto_unknown) && want->nft11 &&
	    ctx->pctx.th_id == want->id)
		return 0;
	/* one only nft 1.1 knows is named by its number ("gre vs. udp") */
	if (have == &proto_unknown && proto_by_id(PROTO_BASE_TRANSPORT_HDR,
						  ctx->pctx.th_id) &&
	    proto_by_id(PROTO_BASE_TRANSPORT_HDR, ctx->pctx.th_id)->nft11)
		have = proto_by_id(PROTO_BASE_TRANSPORT_HDR, ctx->pctx.th_id);
	if (have && have != want)
		return conflict(ctx, p, have, want);
	if (set_conflict(ctx, p, PROTO_BASE_TRANSPORT_HDR, want) < 0)
		return -1;
	if (have == want)
		return 0;
	have = ctx->pctx.desc[PROTO_BASE_NETWORK_HDR];
	if (have && have != &proto_ip && have != &proto_ip6)
		return conflict(ctx, p, have, want);
	have = ctx->pctx.set_desc[PROTO_BASE_NETWORK_HDR];
	if (have && have != &proto_ip && have != &proto_ip6)
		return error_queue2(ctx->msgs, &p->loc,
				    ctx->pctx.set_loc[PROTO_BASE_NETWORK_HDR],
				    "conflicting protocols specified: %s vs. %s (nft takes the protocol from the set's last element, %s)",
				    have->name, want->name, have->name);
	/*
	 * icmp, igmp and icmpv6 only exist over their own network protocol;
	 * where the family fixes it (ip, ip6), nft tests meta l4proto alone,
	 * so "icmpv6 type echo-request" in an ip table is valid (and matches
	 * nothing); so does nft after a match of either ip header in inet,
	 * bridge and netdev ("ip6 saddr ::1 icmp type 8")
	 */
	if (ctx->family != NFPROTO_IPV4 && ctx->family != NFPROTO_IPV6 &&
	    !ctx->pctx.desc[PROTO_BASE_NETWORK_HDR] && !have) {
		if ((want == &proto_icmp || want == &proto_igmp) &&
		    nh_dep(ctx, p, &proto_ip) < 0)
			return -1;
		if (want == &proto_icmp6 && nh_dep(ctx, p, &proto_ip6) < 0)
			return -1;
	}
	if (ctx->family == NFPROTO_ARP)
		return err(ctx, &p->loc,
			   "%s header cannot be matched in the arp family",
			   want->name);
	lhs = meta_expr_alloc(&internal_location, NFT_META_L4PROTO);
	add_dep(ctx, lhs, want->id);
	return 0;
}

/* nft names an echo reply by its request: the two share their fields */
static int icmp_type_group(const struct proto_desc *d, int t)
{
	if (d == &proto_icmp && t == 0)
		return 8;
	if (d == &proto_icmp6 && t == 129)
		return 128;
	return t;
}

/*
 * Fields that only exist in some icmp messages test the type first, as
 * nft does: "icmp id 10" is "icmp type { echo-request, echo-reply }";
 * after a match on another type, nft refuses them.
 */
static int icmp_dep(struct eval_ctx *ctx, const struct expr *p)
{
	const struct proto_desc *d = p->payload.desc;
	const struct proto_field *type;
	const uint8_t *types;
	struct expr *lhs, *rhs, *rel;
	struct stmt *s;
	unsigned int n;

	types = proto_icmp_types(d, p->payload.tmpl, &n);
	if (!n)
		return 0;
	if (ctx->pctx.icmp_tval >= 0 &&
	    !proto_icmp_fits(d, p->payload.tmpl, ctx->pctx.icmp_tval))
		return err(ctx, &p->loc, "incompatible icmp match: rule has %d, need %u",
			   icmp_type_group(d, ctx->pctx.icmp_tval), types[0]);
	if (ctx->pctx.icmp_type)
		return 0;
	type = proto_field_lookup(d, "type");
	lhs = payload_expr_alloc(&internal_location, d, type);
	if (n == 1) {
		rhs = constant_expr_u64(&internal_location, type->dtype,
					BYTEORDER_BIG, 8, types[0]);
	} else {
		rhs = compound_expr_alloc(&internal_location, EXPR_SET);
		ctx->anon_sets++;
		for (unsigned int k = 0; k < n; k++)
			compound_expr_add(rhs, constant_expr_u64(&internal_location,
								 type->dtype, BYTEORDER_BIG,
								 8, types[k]));
		rhs->dtype = type->dtype;
		rhs->len = 8;
		rhs->byteorder = BYTEORDER_BIG;
	}
	rel = relational_expr_alloc(&internal_location, OP_EQ, lhs, rhs);
	/* nft 1.1.1 reads this one outside the tunnel, even for a field
	   inside it ("vxlan icmp id 1") */
	s = match_stmt_alloc(&internal_location, rel);
	list_add_tail(&s->list, &ctx->stmt->list);
	ctx->pctx.icmp_type = true;
	ctx->pctx.icmp_tval = types[0];
	return 0;
}

static int payload_eval(struct eval_ctx *ctx, struct expr *p)
{
	const struct proto_desc *d = p->payload.desc;

	if (p->payload.is_raw)
		return 0;
	switch (d->base) {
	case PROTO_BASE_LL_HDR:
		/* every family: in all but bridge and netdev, after iiftype */
		if (ll_dep(ctx, p) < 0)
			return -1;
		if (d == &proto_vlan && !ctx->pctx.vlan)
			add_dep(ctx, payload_expr_alloc(&internal_location, &proto_eth,
							proto_field_lookup(&proto_eth, "type")),
				0x8100);
		vlan_stack(ctx, p);
		return 0;
	case PROTO_BASE_NETWORK_HDR:
		return nh_dep(ctx, p, d);
	case PROTO_BASE_TRANSPORT_HDR:
		if (th_dep(ctx, p, d) < 0)
			return -1;
		if (d == &proto_icmp || d == &proto_icmp6)
			return icmp_dep(ctx, p);
		return 0;
	default:
		return 0;
	}
}

/* "fib daddr oif missing": whether there is a route, not which one (nft
   takes it for any result, "fib daddr type exists" too, which the kernel
   then refuses) */
static void fib_present(struct expr *lhs, const struct expr *rhs)
{
	if (lhs->kind != EXPR_FIB || rhs->kind != EXPR_SYMBOL || rhs->sym.quoted)
		return;
	if (!strcmp(rhs->sym.str, "exists") || !strcmp(rhs->sym.str, "missing"))
		fib_expr_present(lhs);
}

/* --- constants ---------------------------------------------------------- */

static void undef_forget(struct eval_ctx *ctx)
{
	ctx->nundef = 0;
}

static int too_deep(struct eval_ctx *ctx, const struct expr *e)
{
	return err(ctx, &e->loc,
		   "expression nested too deeply: more than %u levels of operators",
		   EXPR_DEPTH_MAX);
}

/* "; did you mean ..." of the parser's variables, or "" */
static const char *var_hint(struct eval_ctx *ctx, struct suggest *sg,
			    const char *name)
{
	if (ctx->state && ctx->state->var_suggest)
		return ctx->state->var_suggest(ctx->state, sg, name);
	suggest_init(sg, name);
	return suggest_hint(sg);
}

static int variable_expand(struct eval_ctx *ctx, struct expr **e)
{
	struct var *v = (*e)->sym.var;
	struct suggest sg;
	struct expr *n;

	if (!v) {
		/* a definition copied many times names it once a rule (by a
		   hash of the name: nothing to free) */
		uint32_t h = 2166136261u;

		for (const char *p = (*e)->sym.str; *p; p++)
			h = (h ^ (unsigned char)*p) * 16777619u;
		for (unsigned int i = 0; i < ctx->nundef; i++)
			if (ctx->undef[i] == h)
				return -1;
		if (ctx->nundef == array_size(ctx->undef))
			return -1;
		ctx->undef[ctx->nundef++] = h;
		return err(ctx, &(*e)->loc, "undefined variable \"$%s\"%s",
			   (*e)->sym.str,
			   var_hint(ctx, &sg, (*e)->sym.str));
	}
	if (expr_depth(v->expr) > EXPR_DEPTH_MAX)
		return too_deep(ctx, *e);	/* before the copy recurses */
	if (ctx->expanded > EXPAND_MAX)
		return -1;	/* said once for the command */
	if (!ctx->expanded) {
		ctx->first_var = v;
		ctx->first_loc = (*e)->loc;
	}
	if (v->nodes > EXPAND_MAX) {
		/* known before any copy is made: definitions that double */
		ctx->expanded = EXPAND_MAX + 1;
		return err(ctx, &(*e)->loc,
			   "variable \"$%s\" expands to more than %lu expressions",
			   v->name, EXPAND_MAX);
	}
	n = expr_clone_counted(v->expr, &ctx->expanded);
	if (ctx->expanded > EXPAND_MAX) {
		expr_free(n);
		return err(ctx, &ctx->first_loc,
			   "variable \"$%s\" expands to more than %lu expressions",
			   ctx->first_var->name, EXPAND_MAX);
	}
	expr_free(*e);
	*e = n;
	return 0;
}

/* not inlined: its message buffer would swell the frame of rhs_eval(),
   which recurses as deep as operators nest */
static __noinline int symbol_to_constant(struct eval_ctx *ctx,
					 const struct expr *lhs,
					 struct expr **e)
{
	struct expr *sym = *e, *c;
	const struct datatype *dt = lhs->dtype;
	char msg[256] = "";
	const char *str = sym->sym.str;
	size_t n = strlen(str);
	unsigned int len = lhs->len;

	if (dt == &invalid_type)
		return err(ctx, &sym->loc, "cannot type \"%s\"", str);
	c = constant_expr_alloc(&sym->loc, dt, lhs->byteorder, len, NULL);
	if (datatype_is_integer(dt) == false && (dt == &ifname_type ||
						 dt == &string_type)) {
		if (n == 0) {
			expr_free(c);
			return err(ctx, &sym->loc, "empty string is not allowed");
		}
		if (!strcmp(str, "*")) {
			expr_free(c);
			return err(ctx, &sym->loc, "all-wildcard strings are not supported");
		}
		/* "eth*" matches every name that starts with "eth" */
		if (str[n - 1] == '*' && (n < 2 || str[n - 2] != '\\')) {
			/* as nft: the '*' counts, as the NUL would */
			if ((n + 1) * 8 > lhs->len) {
				expr_free(c);
				return err(ctx, &sym->loc,
					   "string \"%s\" is too long: %u characters at most",
					   str, lhs->len / 8 - 1);
			}
			c->len = (n - 1) * 8;
			c->flags |= EXPR_F_SINGLETON | EXPR_F_WILDCARD;
			memcpy(c->val.data, str, n - 1);
			expr_free(sym);
			*e = c;
			return 0;
		}
	}
	if (datatype_parse(dt, str, c, msg, sizeof(msg)) < 0) {
		expr_free(c);
		return err(ctx, &sym->loc, "%s", msg);
	}
	if ((dt == &ifname_type || dt == &string_type) && n >= 2 &&
	    !strcmp(str + n - 2, "\\*")) {
		/* "a\*": a name that ends in a literal asterisk */
		c->val.data[n - 2] = '*';
		c->val.data[n - 1] = 0;
	}
	expr_free(sym);
	*e = c;
	return 0;
}

static int constant_fold(struct eval_ctx *ctx, struct expr **e)
{
	struct expr *b = *e, *l = b->op.left, *r = b->op.right;

	if (l->kind != EXPR_VALUE || r->kind != EXPR_VALUE)
		return err(ctx, &b->loc, "expression is not a constant");
	for (unsigned int i = 0; i < NFH_VAL_MAXLEN; i++) {
		switch (b->op.op) {
		case OP_OR:  l->val.data[i] |= r->val.data[i]; break;
		case OP_AND: l->val.data[i] &= r->val.data[i]; break;
		case OP_XOR: l->val.data[i] ^= r->val.data[i]; break;
		default:
			return err(ctx, &b->loc, "unsupported operation on constants");
		}
	}
	l->loc = b->loc;
	b->op.left = NULL;
	expr_free(b);
	*e = l;
	return 0;
}

/* --- sets and maps -------------------------------------------------------- */

static int data_eval(struct eval_ctx *ctx, const struct expr *data,
		     struct expr **v)
{
	struct expr *x = *v;

	if (x->kind == EXPR_VARIABLE) {
		if (variable_expand(ctx, v) < 0)
			return -1;
		return data_eval(ctx, data, v);
	}
	if (data->dtype == &verdict_type) {
		if (x->kind == EXPR_SYMBOL && !x->sym.quoted &&
		    (!strcmp(x->sym.str, "accept") || !strcmp(x->sym.str, "drop"))) {
			*v = verdict_expr_alloc(&x->loc, x->sym.str[0] == 'a' ?
						NF_ACCEPT : NF_DROP, NULL);
			expr_free(x);
			x = *v;
		}
		if (x->kind != EXPR_VERDICT)
			return err(ctx, &x->loc,
				   "a verdict is expected here: accept, drop, jump CHAIN, goto CHAIN, continue or return");
		if (x->verdict.chain &&
		    strlen(x->verdict.chain) >= NFT_CHAIN_MAXNAMELEN)
			return err(ctx, &x->loc, "chain name \"%s\" is too long",
				   x->verdict.chain);
		x->dtype = &verdict_type;
		return 0;
	}
	if (rhs_eval(ctx, data, v) < 0)
		return -1;
	/* "type K : interval V", and anonymous maps as nft takes them */
	if ((ctx->data_ranges || (data->flags & EXPR_F_DATA_INTERVAL)) &&
	    elem_is_interval(*v))
		return 0;
	if ((*v)->kind == EXPR_CONCAT) {
		const struct expr *i;

		list_for_each_entry(i, &(*v)->set.exprs, list)
			if (i->kind != EXPR_VALUE)
				return err(ctx, &i->loc, "map values must be single values");
		return 0;
	}
	if ((*v)->kind != EXPR_VALUE)
		return err(ctx, &(*v)->loc, "a single value is expected here");
	return 0;
}

/* a name wildcard ("eth*") in an element: the first one found, or NULL */
static const struct expr *elem_wildcard(const struct expr *e)
{
	const struct expr *i, *w;

	e = elem_key(e);
	if (e->kind == EXPR_CONCAT) {
		list_for_each_entry(i, &e->set.exprs, list)
			if ((w = elem_wildcard(i)))
				return w;
		return NULL;
	}
	return e->kind == EXPR_VALUE && (e->flags & EXPR_F_WILDCARD) ? e : NULL;
}

/* the kernel refuses an element that expires after its timeout (ERANGE) */
static int expires_err(struct eval_ctx *ctx, const struct expr *k,
		       uint64_t timeout)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int ret;

	if (!f)
		memory_allocation_error();
	fputs("expires ", f);
	time_print(k->elem.expires, f);
	fputs(" is after the element's timeout, ", f);
	time_print(timeout, f);
	fclose(f);
	ret = err(ctx, &k->loc, "%s", buf);
	free(buf);
	return ret;
}

/* "eth*" in a set: the range of the names that start with "eth" */
static struct expr *wildcard_range(struct expr *w, const struct expr *key)
{
	unsigned int n = w->len / 8, full = div_round_up(key->len, 8);
	struct expr *hi = expr_clone(w);

	w->flags &= ~(EXPR_F_WILDCARD | EXPR_F_SINGLETON);
	hi->flags = w->flags;
	w->len = hi->len = key->len;
	memset(hi->val.data + n, 0xff, full - n);
	return range_expr_alloc(&w->loc, w, hi);
}

static void wildcards_to_ranges(struct expr **e, const struct expr *key)
{
	struct expr *x = *e, *i, *next, *r;
	const struct expr *k;

	switch (x->kind) {
	case EXPR_MAPPING:
		wildcards_to_ranges(&x->op.left, key);
		break;
	case EXPR_SET_ELEM:
		wildcards_to_ranges(&x->elem.key, key);
		break;
	case EXPR_CONCAT:
		if (key->kind != EXPR_CONCAT)
			break;
		k = list_first_entry(&key->set.exprs, struct expr, list);
		list_for_each_entry_safe(i, next, &x->set.exprs, list) {
			if (&k->list == &key->set.exprs)
				break;
			if (i->kind == EXPR_VALUE && (i->flags & EXPR_F_WILDCARD)) {
				list_del(&i->list);
				r = wildcard_range(i, k);
				list_add_tail(&r->list, &next->list);
			}
			k = list_next_entry(k, list);
		}
		break;
	case EXPR_VALUE:
		if (x->flags & EXPR_F_WILDCARD)
			*e = wildcard_range(x, key);
		break;
	default:
		break;
	}
}

static int elem_eval(struct eval_ctx *ctx, const struct expr *key,
		     const struct expr *data, struct expr **e)
{
	struct expr *x = *e;
	const struct expr *w;

	if (x->kind == EXPR_MAPPING) {
		if (!data)
			return err(ctx, &x->loc,
				   "a \"key : value\" element belongs in a map, not in a set");
		/* the catch-all "*" has no key to check */
		if ((!elem_is_catchall(x) && rhs_eval(ctx, key, &x->op.left) < 0) ||
		    data_eval(ctx, data, &x->op.right) < 0)
			return -1;
		x->dtype = key->dtype;
		x->len = key->len;
		x->byteorder = key->byteorder;
		w = elem_is_catchall(x) ? NULL : elem_wildcard(x->op.left);
	} else {
		if (data)
			return err(ctx, &x->loc, "a map element needs a value: KEY : VALUE");
		if (elem_is_catchall(x))
			return 0;
		if (rhs_eval(ctx, key, e) < 0)
			return -1;
		w = elem_wildcard(*e);
	}
	/* as nft stores them: ranges of names, so intervals */
	if (w)
		wildcards_to_ranges(e, key);
	x = *e;
	if (x->kind == EXPR_MAPPING)
		x = x->op.left;
	/* the kernel refuses an expiry without a timeout (EOPNOTSUPP) */
	if (x->kind == EXPR_SET_ELEM && x->elem.expires &&
	    x->elem.timeout == ELEM_TIMEOUT_NEVER)
		return err(ctx, &x->loc,
			   "an element with timeout never cannot expire");
	if (x->kind == EXPR_SET_ELEM && x->elem.timeout &&
	    x->elem.expires > x->elem.timeout)
		return expires_err(ctx, x, x->elem.timeout);
	return 0;
}

/*
 * Elements are checked against the key (and a map's values against @data).
 * Every element is checked, so that all bad ones are reported; a variable
 * holding a set is merged into this one.
 */
static int set_eval_data(struct eval_ctx *ctx, const struct expr *key,
			 const struct expr *data, struct expr *set)
{
	struct list_head *pos = set->set.exprs.next, *nextpos;
	int ret = 0;

	for (; pos != &set->set.exprs; pos = nextpos) {
		struct expr *n = list_entry(pos, struct expr, list);

		nextpos = pos->next;
		list_del(&n->list);
		if (n->kind == EXPR_VARIABLE && variable_expand(ctx, &n) < 0) {
			expr_free(n);
			set->set.size--;
			ret = -1;
			continue;
		}
		if (n->kind == EXPR_SET) {
			/* a set in a variable or in braces: its elements here */
			struct expr *j, *jn;
			struct list_head *first = NULL;

			list_for_each_entry_safe(j, jn, &n->set.exprs, list) {
				list_del(&j->list);
				list_add_tail(&j->list, nextpos);
				if (!first)
					first = &j->list;
				set->set.size++;
			}
			set->set.size--;
			expr_free(n);
			if (first)
				nextpos = first;
			continue;
		}
		if (elem_eval(ctx, key, data, &n) < 0) {
			expr_free(n);
			set->set.size--;
			ret = -1;
			continue;
		}
		list_add_tail(&n->list, nextpos);
	}
	set->dtype = key->dtype;
	set->len = key->len;
	set->byteorder = key->byteorder;
	return ret;
}

/*
 * "ct original saddr" has no type of its own outside ip and ip6 tables,
 * and nft looks up no set or map (anonymous or named) keyed by it in any
 * family: it asks for ct original ip saddr or ip6 saddr, as nfh does
 */
static int anon_key_check(struct eval_ctx *ctx, const struct expr *key)
{
	const struct expr *i;

	if (key->kind == EXPR_CONCAT) {
		list_for_each_entry(i, &key->set.exprs, list)
			if (anon_key_check(ctx, i) < 0)
				return -1;
		return 0;
	}
	if (key->kind == EXPR_CT &&
	    (key->ct.key == NFT_CT_SRC || key->ct.key == NFT_CT_DST))
	{
		const char *d = key->ct.dir ? "reply" : "original";
		const char *k = key->ct.key == NFT_CT_SRC ? "saddr" : "daddr";

		return err(ctx, &key->loc,
			   "ct %s %s has no address family to look up a set or map with: say ct %s ip %s or ct %s ip6 %s",
			   d, k, d, k, d, k);
	}
	return 0;
}

static int set_eval(struct eval_ctx *ctx, const struct expr *lhs,
		    struct expr *set)
{
	return set_eval_data(ctx, lhs, NULL, set);
}

static bool type_compatible(const struct expr *a, const struct expr *b)
{
	const struct expr *i, *j;

	if (a->kind == EXPR_CONCAT || b->kind == EXPR_CONCAT) {
		if (a->kind != EXPR_CONCAT || b->kind != EXPR_CONCAT)
			return false;
		j = list_first_entry(&b->set.exprs, struct expr, list);
		list_for_each_entry(i, &a->set.exprs, list) {
			if (&j->list == &b->set.exprs || !type_compatible(i, j))
				return false;
			j = list_next_entry(j, list);
		}
		return &j->list == &b->set.exprs;
	}
	if (div_round_up(a->len, 8) != div_round_up(b->len, 8))
		return false;
	return a->dtype == b->dtype || a->dtype == &integer_type ||
	       b->dtype == &integer_type ||
	       (a->dtype->basetype == b->dtype->basetype && a->dtype->basetype &&
		a->dtype->basetype != &integer_type) ||
	       (a->dtype->basetype == b->dtype && b->dtype != &integer_type) ||
	       (b->dtype->basetype == a->dtype && a->dtype != &integer_type);
}

static char *type_name(const struct expr *e)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		memory_allocation_error();
	set_key_print(e, f);
	fclose(f);
	return buf;
}

static struct set *ext_set_lookup(struct eval_ctx *ctx, unsigned int family,
				  const char *table, const char *name)
{
	struct nfh_ctx *nfh = ctx->nfh;
	struct cache_table *t;
	struct cache_set *cs;
	struct cache *c;
	struct set *s;

	list_for_each_entry(s, &nfh->ext_sets, list)
		if (s->h.family == family && !strcmp(s->h.table, table) &&
		    !strcmp(s->h.set, name))
			return s;
	/* what the plan read (compile/plan.c) */
	c = plan_sets(nfh);
	t = c ? cache_table_find(c, family, table) : NULL;
	cs = t ? cache_set_find(t, name) : NULL;
	if (!cs)
		return NULL;
	s = delin_set(t, cs, false);
	if (!s)
		return NULL;
	list_add_tail(&s->list, &nfh->ext_sets);
	return s;
}

static struct set *set_lookup(struct eval_ctx *ctx, unsigned int family,
			      const char *table, const char *name)
{
	struct cmd *c;

	list_for_each_entry(c, ctx->cmds, list)
		if ((c->obj == CMD_OBJ_SET || c->obj == CMD_OBJ_MAP) && c->set &&
		    (c->op == CMD_ADD || c->op == CMD_CREATE) &&
		    c->h.family == family && !strcmp(c->h.table, table) &&
		    !strcmp(c->h.set, name))
			return c->set;
	return ext_set_lookup(ctx, family, table, name);
}

/* "; did you mean ..." for set @name among those of the table, in the
   input and in the kernel (as set_lookup() looks them up) */
static const char *set_suggest(struct eval_ctx *ctx, struct suggest *sg,
			       unsigned int family, const char *table,
			       const char *name)
{
	struct nfh_ctx *nfh = ctx->nfh;
	struct cache *c = plan_sets(nfh);
	struct cache_table *t = c ? cache_table_find(c, family, table) : NULL;
	struct cache_set *cs;
	struct cmd *cmd;

	suggest_init(sg, name);
	list_for_each_entry(cmd, ctx->cmds, list)
		if ((cmd->obj == CMD_OBJ_SET || cmd->obj == CMD_OBJ_MAP) &&
		    cmd->set && (cmd->op == CMD_ADD || cmd->op == CMD_CREATE) &&
		    cmd->h.family == family && !strcmp(cmd->h.table, table))
			suggest_add(sg, cmd->h.set);
	if (t)
		list_for_each_entry(cs, &t->sets, list)
			if (!(nftnl_set_get_u32(cs->nls, NFTNL_SET_FLAGS) &
			      NFT_SET_ANONYMOUS))
				suggest_add(sg, nftnl_set_get_str(cs->nls,
								  NFTNL_SET_NAME));
	return suggest_hint(sg);
}

static int setref_eval(struct eval_ctx *ctx, const struct expr *lhs,
		       struct expr *x, enum setref_want want)
{
	bool want_map = want == SETREF_MAP;

	struct set *s = set_lookup(ctx, ctx->family, ctx->cmd->h.table,
				   x->setref.name);
	struct suggest sg;

	if (!s)
		return err(ctx, &x->loc, "%s \"%s\" does not exist in table %s %s%s",
			   want_map ? "map" : "set",
			   x->setref.name, family_name(ctx->family),
			   ctx->cmd->h.table,
			   set_suggest(ctx, &sg, ctx->family, ctx->cmd->h.table,
				       x->setref.name));
	/* its declaration was wrong: already reported (a map without a value
	   type is one, however its reading ended) */
	if (set_types_missing(s))
		return -1;
	if (s->is_map && want == SETREF_SET)
		return err(ctx, &x->loc,
			   "@%s is a map: look it up with \"map @%s\" or \"vmap @%s\"",
			   x->setref.name, x->setref.name, x->setref.name);
	if (!s->is_map && want_map)
		return err(ctx, &x->loc, "@%s is a set, not a map", x->setref.name);
	/* a route check is a boolean as wide as the fib result it tests
	   (the kernel stores its byte and clears the rest of the
	   register): a set of booleans reads that byte */
	if (!type_compatible(lhs, s->key) &&
	    !(lhs->kind == EXPR_FIB && lhs->dtype == &boolean_type &&
	      s->key->dtype == &boolean_type)) {
		char *h = type_name(lhs), *w = type_name(s->key);

		err(ctx, &x->loc, "datatype mismatch: the expression is %s, set @%s holds %s",
		    h, x->setref.name, w);
		free(h);
		free(w);
		return -1;
	}
	x->setref.set = s;
	x->dtype = s->key->dtype;
	x->len = s->key->len;
	x->byteorder = s->key->byteorder;
	return 0;
}

/* sel map { ... } and sel map @m; @want is the type the value must have */
/* the constant value @v, or the key of a set element or a mapping that
   is one */
static struct expr *xor_target(struct expr *v)
{
	if (v->kind == EXPR_MAPPING)
		v = v->op.left;
	if (v && v->kind == EXPR_SET_ELEM)
		v = v->elem.key;
	return v && v->kind == EXPR_VALUE ? v : NULL;
}

/*
 * "meta mark ^ 0x1 == 0x3" is "meta mark == 0x2", as nft compiles it:
 * the outermost xor of the left side moves to the constants on the
 * right, a value or each element of an anonymous set (not a range, nor
 * a named set); the same in an anonymous map's keys (map_eval()).
 */
static void xor_transfer(struct expr **lhs, struct expr *rhs)
{
	struct expr *b = *lhs, *x, *i, *v;

	if (b->kind != EXPR_BINOP || b->op.op != OP_XOR ||
	    b->op.right->kind != EXPR_VALUE)
		return;
	x = b->op.right;
	if (rhs->kind == EXPR_SET) {
		list_for_each_entry(i, &rhs->set.exprs, list)
			if (!xor_target(i))
				return;
		list_for_each_entry(i, &rhs->set.exprs, list) {
			v = xor_target(i);
			for (unsigned int k = 0; k < NFH_VAL_MAXLEN; k++)
				v->val.data[k] ^= x->val.data[k];
		}
	} else if (rhs->kind == EXPR_VALUE) {
		for (unsigned int k = 0; k < NFH_VAL_MAXLEN; k++)
			rhs->val.data[k] ^= x->val.data[k];
	} else {
		return;
	}
	*lhs = b->op.left;
	b->op.left = NULL;
	expr_free(b);
}

static int map_eval(struct eval_ctx *ctx, struct expr *m,
		    const struct expr *want)
{
	struct expr *r;

	if (expr_eval(ctx, &m->op.left) < 0)
		return -1;
	/* nft 1.1: map $m, vmap $vm: the variable's value is the map */
	if (m->op.right->kind == EXPR_VARIABLE &&
	    variable_expand(ctx, &m->op.right) < 0)
		return -1;
	r = m->op.right;
	if (r->kind == EXPR_SET_REF) {
		const struct expr *data;

		if (anon_key_check(ctx, m->op.left) < 0 ||
		    setref_eval(ctx, m->op.left, r, SETREF_MAP) < 0)
			return -1;
		data = r->setref.set->data;
		if (!type_compatible(want, data)) {
			char *h = type_name(data), *w = type_name(want);

			err(ctx, &r->loc, "datatype mismatch: map @%s gives %s, %s is needed here",
			    r->setref.name, h, w);
			free(h);
			free(w);
			return -1;
		}
	} else if (r->kind == EXPR_SET) {
		if (anon_key_check(ctx, m->op.left) < 0 ||
		    set_eval_data(ctx, m->op.left, want, r) < 0)
			return -1;
		if (list_empty(&r->set.exprs))
			return err(ctx, &r->loc, "the map is empty");
		xor_transfer(&m->op.left, r);
	} else {
		return err(ctx, &r->loc, "a map { ... } or @map is expected here");
	}
	m->dtype = want->dtype;
	m->len = want->len;
	m->byteorder = want->byteorder;
	return 0;
}

/* what the elements need of the set's flags */
/* an element that expires without its own timeout: the set's must hold it */
static int elem_expiry_check(struct eval_ctx *ctx, const struct set *s,
			     const struct expr *k)
{
	if (k->kind != EXPR_SET_ELEM || !k->elem.expires || k->elem.timeout)
		return 0;
	if (!s->timeout)
		return err(ctx, &k->loc,
			   "expires needs a timeout: the element's or that of %s %s",
			   s->is_map ? "map" : "set", s->h.set);
	if (k->elem.expires > s->timeout)
		return expires_err(ctx, k, s->timeout);
	return 0;
}

static const char *stmt_word(const struct stmt *st)
{
	return st->ops ? st->ops->name : "counter";
}

/* the kind of the @p-th statement @k keeps, its counter included */
static const char *elem_stmt_word(const struct expr *k, unsigned int p,
				  const struct location **loc)
{
	const struct stmt *st;
	unsigned int i = 0;

	*loc = &k->loc;
	if (k->elem.counter && p == k->elem.counter_at)
		return "counter";
	if (k->elem.counter && p > k->elem.counter_at)
		p--;
	list_for_each_entry(st, &k->elem.stmts, list)
		if (i++ == p) {
			*loc = &st->loc;
			return stmt_word(st);
		}
	return "";
}

/*
 * An element's counter, or its own quota, limit or ct count (nft 1.1):
 * nft takes one only as the set declares it, every statement of the
 * declaration in its order
 */
static int elem_stmts_check(struct eval_ctx *ctx, const struct set *s,
			    const struct expr *k)
{
	const char *what = s->is_map ? "map" : "set";
	const struct location *loc;
	const struct stmt *want;
	unsigned int have = 0, n, p = 0;

	if (k->kind != EXPR_SET_ELEM || !elem_stmts_count(k))
		return 0;
	list_for_each_entry(want, &s->stmts, list)
		have++;
	n = elem_stmts_count(k);
	if (!have) {
		const char *w = elem_stmt_word(k, 0, &loc);

		return err(ctx, loc,
			   "an element's %s needs one in the declaration of %s %s, which each element then keeps",
			   w, what, s->h.set);
	}
	if (n != have)
		return err(ctx, &k->loc,
			   "%s %s keeps %u statement%s in each element; this element gives %u",
			   what, s->h.set, have, have == 1 ? "" : "s", n);
	list_for_each_entry(want, &s->stmts, list) {
		const char *w = elem_stmt_word(k, p++, &loc);

		if (strcmp(w, stmt_word(want)))
			return err(ctx, loc,
				   "%s %s keeps %s here (statement %u of its declaration), not %s",
				   what, s->h.set, stmt_word(want), p, w);
	}
	return 0;
}

static int elems_check(struct eval_ctx *ctx, const struct set *s,
		       const struct expr *elems)
{
	const struct expr *i;
	int ret = 0;

	list_for_each_entry(i, &elems->set.exprs, list) {
		const struct expr *k = i->kind == EXPR_MAPPING ? i->op.left : i;

		if (elem_is_interval(i) && !(s->flags & NFT_SET_INTERVAL))
			ret = err(ctx, &i->loc,
				  "ranges, prefixes and wildcard names need \"flags interval\" in the declaration of %s %s",
				  s->is_map ? "map" : "set", s->h.set);
		if (k->kind == EXPR_SET_ELEM && (k->elem.timeout || k->elem.expires) &&
		    !(s->flags & NFT_SET_TIMEOUT))
			ret = err(ctx, &k->loc,
				  "element timeouts need \"flags timeout\" in the declaration of %s %s",
				  s->is_map ? "map" : "set", s->h.set);
		else if (elem_expiry_check(ctx, s, k) < 0)
			ret = -1;
		if (elem_stmts_check(ctx, s, k) < 0)
			ret = -1;
	}
	return ret;
}

static struct expr *type_list_eval(struct eval_ctx *ctx, struct expr *t,
				   bool is_data, bool is_typeof);

/* a concatenation of types: each part's, in registers of 32 bits */
static struct expr *type_concat_eval(struct eval_ctx *ctx, struct expr *t,
				     bool is_data, bool is_typeof)
{
	unsigned int bits = 0;
	struct expr *c, *i, *n;

	c = compound_expr_alloc(&t->loc, EXPR_CONCAT);
	list_for_each_entry(i, &t->set.exprs, list) {
		n = type_list_eval(ctx, i, is_data, is_typeof);
		if (!n) {
			expr_free(c);
			return NULL;
		}
		if (n->dtype == &verdict_type) {
			expr_free(n);
			expr_free(c);
			err(ctx, &i->loc, "a verdict cannot be part of a concatenation");
			return NULL;
		}
		bits += div_round_up(n->len, 32) * 32;
		compound_expr_add(c, n);
	}
	if (bits > NFT_REG32_COUNT * 32) {
		expr_free(c);
		err(ctx, &t->loc, "the concatenation is longer than the %u bytes of all registers",
		    NFT_REG32_COUNT * 4);
		return NULL;
	}
	c->len = bits;
	return c;
}

/* typeof: the selector itself says what it holds */
static struct expr *type_selector_eval(struct eval_ctx *ctx, struct expr *t)
{
	/* a header field, or a kind that writes typeof records (kind.h) */
	if (!(t->ops && t->ops->typeof_put)) {
		err(ctx, &t->loc, "typeof needs a header field or a selector such as meta, ct, rt, fib or socket");
		return NULL;
	}
	if (!set_typeof_ok(t)) {
		if (t->kind == EXPR_PAYLOAD)
			err(ctx, &t->loc, "typeof of a raw payload expression is not supported");
		else if (t->kind == EXPR_EXTHDR)
			err(ctx, &t->loc, "typeof of this extension header field is not supported");
		else
			err(ctx, &t->loc, "typeof of this %s expression is not supported",
			    t->ops->name);
		return NULL;
	}
	if (t->kind == EXPR_PAYLOAD && t->payload.is_raw &&
	    t->payload.base == PROTO_BASE_TRANSPORT_HDR) {
		/* as nft: @th,0,16 is th sport, @th,16,16 th dport */
		const struct proto_field *f = proto_th.fields;

		for (; f < proto_th.fields + 2; f++)
			if (f->offset == t->payload.offset && f->len == t->len) {
				t->payload.is_raw = false;
				t->payload.desc = &proto_th;
				t->payload.tmpl = f;
				t->dtype = f->dtype;
				t->byteorder = f->byteorder;
			}
	}
	return set_type_placeholder(&t->loc, t->dtype, t->len, t->byteorder);
}

static struct expr *type_list_eval(struct eval_ctx *ctx, struct expr *t,
				   bool is_data, bool is_typeof)
{
	const struct datatype *dt;
	struct suggest sg;

	if (t->kind == EXPR_CONCAT)
		return type_concat_eval(ctx, t, is_data, is_typeof);
	if (t->kind != EXPR_SYMBOL)
		return type_selector_eval(ctx, t);
	if (is_typeof && (!is_data || strcmp(t->sym.str, "verdict"))) {
		err(ctx, &t->loc, "typeof needs a header field, meta or ct expression, not the datatype \"%s\"",
		    t->sym.str);
		return NULL;
	}
	dt = datatype_lookup_byname(t->sym.str);
	if (!dt) {
		err(ctx, &t->loc, "unknown datatype \"%s\"%s", t->sym.str,
		    suggest_datatype(&sg, t->sym.str));
		return NULL;
	}
	if (dt == &verdict_type) {
		if (!is_data) {
			err(ctx, &t->loc, "verdict can only be the value type of a map");
			return NULL;
		}
		return set_type_placeholder(&t->loc, dt, 0, BYTEORDER_INVALID);
	}
	if (!dt->size) {
		err(ctx, &t->loc, "datatype %s has no fixed size: use \"typeof EXPR\" instead",
		    dt->name);
		return NULL;
	}
	return set_type_placeholder(&t->loc, dt, dt->size,
				    dt->byteorder == BYTEORDER_INVALID ?
				    BYTEORDER_BIG : dt->byteorder);
}

/* the key and value types; once, so that elements can stream in */
static int set_types_eval(struct eval_ctx *ctx, struct set *s)
{
	struct expr *k;

	if (s->types_done)
		return s->key ? 0 : -1;
	s->types_done = true;
	k = type_list_eval(ctx, s->key, false, s->key_typeof);
	if (k && s->key_typeof)
		s->key_sel = s->key;	/* for userdata and listing */
	else
		expr_free(s->key);
	s->key = k;
	if (s->data && s->data_typeof && s->data->kind == EXPR_CT &&
	    s->data->ct.key == NFT_CT_HELPER && s->data->ct.dir < 0)
		s->objtype = NFT_OBJECT_CT_HELPER;	/* typeof K : ct helper */
	if (s->objtype) {
		/* the objects' names, which the kernel resolves */
		expr_free(s->data);
		s->data = set_type_placeholder(&s->loc, &objref_type,
					       objref_type.size, BYTEORDER_HOST);
		s->data_typeof = false;
	} else if (s->data) {
		struct expr *d = type_list_eval(ctx, s->data, true, s->data_typeof);

		if (d && s->data_typeof && s->data->kind != EXPR_SYMBOL)
			s->data_sel = s->data;
		else
			expr_free(s->data);
		s->data = d;
		if (!d) {
			expr_free(s->key);
			s->key = NULL;
		} else if (s->data_interval) {
			d->flags |= EXPR_F_DATA_INTERVAL;
		}
	}
	return s->key ? 0 : -1;
}

/* "elements = $var": the variable must hold a set, as nft requires */
static int elems_var_expand(struct eval_ctx *ctx, struct expr **e)
{
	char *name = xstrdup((*e)->sym.str);
	struct location loc = (*e)->loc;
	int ret = variable_expand(ctx, e);

	if (ret == 0 && (*e)->kind != EXPR_SET)
		ret = err(ctx, &loc,
			  "\"$%s\" is not a set: \"elements =\" needs one, such as { $%s }",
			  name, name);
	free(name);
	return ret;
}

/*
 * Streams each element of the set expression E into S, then frees E.  The
 * first element may find the set's types wrong (error reported, key gone):
 * the rest are freed, not kept for later.
 */
static void elems_stream_all(struct nfh_ctx *nfh, struct parser_state *state,
			     struct set *s, struct expr *e)
{
	struct expr *i, *next;

	list_for_each_entry_safe(i, next, &e->set.exprs, list) {
		list_del(&i->list);
		if (!eval_elem_stream(nfh, state, s, i))
			expr_free(i);
	}
	expr_free(e);
}

bool eval_elems_var_stream(struct nfh_ctx *nfh, struct parser_state *state,
			   struct set *s, struct expr *e)
{
	struct eval_ctx ctx = { .nfh = nfh, .state = state, .msgs = state->msgs };

	if (!s->key)
		return false;
	if (elems_var_expand(&ctx, &e) < 0) {
		expr_free(e);
		return true;
	}
	elems_stream_all(nfh, state, s, e);
	return true;
}

bool eval_elem_stream(struct nfh_ctx *nfh, struct parser_state *state,
		      struct set *s, struct expr *e)
{
	struct eval_ctx ctx = { .nfh = nfh, .state = state, .msgs = state->msgs };

	/* without its types yet, later */
	if (!s->key)
		return false;
	if (!s->types_done && set_types_eval(&ctx, s) < 0) {
		expr_free(e);
		return true;
	}
	if (e->kind == EXPR_VARIABLE) {
		/* a set in a variable: its elements where it is named, in order */
		if (variable_expand(&ctx, &e) < 0) {
			expr_free(e);
			return true;
		}
		if (e->kind != EXPR_SET)
			return eval_elem_stream(nfh, state, s, e);
	}
	if (e->kind == EXPR_SET) {
		/* or in braces (its elements streamed as they were read) */
		elems_stream_all(nfh, state, s, e);
		return true;
	}
	if (!s->key || elem_eval(&ctx, s->key, s->data, &e) < 0) {
		expr_free(e);
		return true;
	}
	if (!s->store)
		s->store = elem_store_new(s->key, s->data);
	elem_store_add(s->store, s->key, s->data, e);
	return true;
}

/*
 * The elements the grammar packed as it read them (elemstore.h): what
 * they need of the set's flags and statements
 */
static int store_check(struct eval_ctx *ctx, const struct set *s,
		       const struct elem_store *st)
{
	const char *what = s->is_map ? "map" : "set";
	int ret = 0;

	if (st->has_interval && !(s->flags & NFT_SET_INTERVAL))
		ret = err(ctx, &st->interval_loc,
			  "ranges, prefixes and wildcard names need \"flags interval\" in the declaration of %s %s",
			  what, s->h.set);
	if (st->has_timeout && !(s->flags & NFT_SET_TIMEOUT))
		ret = err(ctx, &st->timeout_loc,
			  "element timeouts need \"flags timeout\" in the declaration of %s %s",
			  what, s->h.set);
	if (!st->has_stmts && !(st->has_timeout && (s->flags & NFT_SET_TIMEOUT)))
		return ret;
	for (size_t i = 0; i < st->n; i++) {
		const struct expr *x = elem_rec(st, i)->extra;

		if (x && x->kind == EXPR_MAPPING)
			x = x->op.left;
		if (!x)
			continue;
		if (st->has_stmts && elem_stmts_check(ctx, s, x) < 0)
			ret = -1;
		if (st->has_timeout && (s->flags & NFT_SET_TIMEOUT) &&
		    elem_expiry_check(ctx, s, x) < 0)
			ret = -1;
	}
	return ret;
}

/*
 * A declaration refused for its types: without a key, as when its types
 * fail, so that the rules naming it say nothing more (setref_eval)
 */
static int set_decl_refuse(struct eval_ctx *ctx, struct set *s,
			   const char *fmt)
{
	err(ctx, &s->loc, fmt, s->h.set);
	expr_free(s->key);
	s->key = NULL;
	s->types_done = true;
	return -1;
}

static int set_decl_eval(struct eval_ctx *ctx, struct cmd *cmd, struct set *s)
{
	const char *what = s->is_map ? "map" : "set";
	int ret = 0;

	if (s->types_done && !s->key)
		return -1;	/* reported while its elements were read */
	if (s->read_errors && set_types_missing(s))
		return -1;	/* what was wrong with its type is told */
	if (!s->key)
		return err(ctx, &s->loc, "%s %s needs a type: add \"type TYPE\" or \"typeof EXPR\"",
			   what, s->h.set);
	if (s->is_map && !s->data && !s->objtype)
		return set_decl_refuse(ctx, s, "map %s needs a value type: \"type KEY : VALUE\"");
	if (!s->is_map && (s->data || s->objtype))
		return set_decl_refuse(ctx, s, "set %s cannot have values: declare it as a map");
	if (set_types_eval(ctx, s) < 0)
		return -1;
	if (s->objtype)
		s->flags |= NFT_SET_OBJECT;
	else if (s->is_map)
		s->flags |= NFT_SET_MAP;
	if (s->key->kind == EXPR_CONCAT && (s->flags & NFT_SET_INTERVAL))
		s->flags |= NFT_SET_CONCAT;
	if (s->init && s->init->kind == EXPR_VARIABLE &&
	    elems_var_expand(ctx, &s->init) < 0)
		return -1;
	if (s->init) {
		if (set_eval_data(ctx, s->key, s->data, s->init) < 0 ||
		    elems_check(ctx, s, s->init) < 0)
			ret = -1;
	}
	if (s->store && store_check(ctx, s, s->store) < 0)
		ret = -1;
	(void)cmd;
	return ret;
}

/*
 * The set elements of @cmd go into.  Commands go in in order: a
 * declaration later in the input is not made yet when they do, so the
 * set is the kernel's (or the in-memory ruleset's) as it is then, and
 * with none, there is none yet.
 */
static struct set *elems_set_lookup(struct eval_ctx *ctx, struct cmd *cmd)
{
	bool later = false;
	struct cmd *c;

	list_for_each_entry(c, ctx->cmds, list) {
		if (c == cmd)
			later = true;
		if ((c->obj == CMD_OBJ_SET || c->obj == CMD_OBJ_MAP) && c->set &&
		    (c->op == CMD_ADD || c->op == CMD_CREATE) &&
		    c->h.family == cmd->h.family &&
		    !strcmp(c->h.table, cmd->h.table) &&
		    !strcmp(c->h.set, cmd->h.set))
			return later ? ext_set_lookup(ctx, cmd->h.family,
						      cmd->h.table, cmd->h.set) :
				       c->set;
	}
	return ext_set_lookup(ctx, cmd->h.family, cmd->h.table, cmd->h.set);
}

static int elems_cmd_eval(struct eval_ctx *ctx, struct cmd *cmd)
{
	struct set *s = elems_set_lookup(ctx, cmd);
	const struct expr *data = NULL;
	struct suggest sg;

	if (!s)
		return err(ctx, &cmd->h.set_loc, "set \"%s\" does not exist in table %s %s%s",
			   cmd->h.set, family_name(cmd->h.family), cmd->h.table,
			   set_suggest(ctx, &sg, cmd->h.family, cmd->h.table,
				       cmd->h.set));
	if (!s->key)
		return -1;
	if (cmd->elems->kind == EXPR_VARIABLE &&
	    variable_expand(ctx, &cmd->elems) < 0)
		return -1;
	/* delete, get and reset name keys; a value given is checked too */
	if (s->is_map && cmd->elems->kind == EXPR_SET &&
	    ((cmd->op != CMD_DELETE && cmd->op != CMD_GET &&
	      cmd->op != CMD_RESET) ||
	     (!list_empty(&cmd->elems->set.exprs) &&
	      list_first_entry(&cmd->elems->set.exprs, struct expr, list)->kind ==
	      EXPR_MAPPING)))
		data = s->data;
	if (cmd->elems->kind != EXPR_SET)
		return err(ctx, &cmd->elems->loc, "a set of elements { ... } is expected here");
	if (set_eval_data(ctx, s->key, data, cmd->elems) < 0 ||
	    elems_check(ctx, s, cmd->elems) < 0)
		return -1;
	cmd->target = s;
	return 0;
}

static bool set_in_batch(struct eval_ctx *ctx, const struct set *set)
{
	struct cmd *c;

	list_for_each_entry(c, ctx->cmds, list)
		if ((c->obj == CMD_OBJ_SET || c->obj == CMD_OBJ_MAP) && c->set == set &&
		    (c->op == CMD_ADD || c->op == CMD_CREATE))
			return true;
	return false;
}

static int name_chars_check(struct eval_ctx *ctx, const char *name,
			    const struct location *loc, const char *what);

static int concat_rhs_eval(struct eval_ctx *ctx, const struct expr *lhs,
			   struct expr *x)
{
	struct expr *i, *next, *l;
	unsigned int n = 0, want = 0;
	int ret = 0;

	list_for_each_entry(l, &lhs->set.exprs, list)
		want++;
	list_for_each_entry(i, &x->set.exprs, list)
		n++;
	if (n != want)
		return err(ctx, &x->loc,
			   "a concatenation of %u values is expected here, not %u",
			   want, n);
	l = list_first_entry(&lhs->set.exprs, struct expr, list);
	list_for_each_entry_safe(i, next, &x->set.exprs, list) {
		struct expr *v = i;

		list_del(&i->list);
		if (rhs_eval(ctx, l, &v) < 0)
			ret = -1;
		else if (v->kind != EXPR_VALUE && v->kind != EXPR_RANGE &&
			 v->kind != EXPR_PREFIX)
			ret = err(ctx, &v->loc,
				  "a value, range or prefix is expected in a concatenation");
		list_add_tail(&v->list, &next->list);
		l = list_next_entry(l, list);
	}
	x->dtype = lhs->dtype;
	x->len = lhs->len;
	x->byteorder = lhs->byteorder;
	return ret;
}

/* x takes the type of the selector lhs it is compared with */
static void rhs_typed(struct expr *x, const struct expr *lhs)
{
	x->dtype = lhs->dtype;
	x->len = lhs->len;
	x->byteorder = lhs->byteorder;
}

static int rhs_concat(struct eval_ctx *ctx, const struct expr *lhs,
		      struct expr **e)
{
	struct expr *x = *e;

	if (lhs->kind != EXPR_CONCAT)
		return err(ctx, &x->loc,
			   "a concatenation cannot be compared with %s",
			   lhs->dtype->name);
	return concat_rhs_eval(ctx, lhs, x);
}

static int rhs_set_elem(struct eval_ctx *ctx, const struct expr *lhs,
			struct expr **e)
{
	struct expr *x = *e;

	if (rhs_eval(ctx, lhs, &x->elem.key) < 0)
		return -1;
	rhs_typed(x, lhs);
	return 0;
}

static int rhs_variable(struct eval_ctx *ctx, const struct expr *lhs,
			struct expr **e)
{
	if (variable_expand(ctx, e) < 0)
		return -1;
	return rhs_eval(ctx, lhs, e);
}

/* a plain integer, as "define p = -10" makes one: as nft, it matches only
   a plain integer field that can hold it */
static int rhs_value(struct eval_ctx *ctx, const struct expr *lhs,
		     struct expr **e)
{
	struct expr *x = *e;

	if (x->dtype != &integer_type || lhs->kind == EXPR_CONCAT)
		return 0;
	if (lhs->len < 64 && expr_value_u64(x) >> lhs->len)
		return err(ctx, &x->loc, "value %llu exceeds valid range 0-%llu",
			   (unsigned long long)expr_value_u64(x),
			   (1ULL << lhs->len) - 1);
	/* a statement writes it whatever the field's type */
	if (lhs->dtype != &integer_type &&
	    (!ctx->stmt || ctx->stmt->kind == STMT_EXPRESSION))
		return err(ctx, &x->loc,
			   "datatype mismatch, expected %s, expression has type integer",
			   lhs->dtype->desc);
	return 0;
}

static int rhs_binop(struct eval_ctx *ctx, const struct expr *lhs,
		     struct expr **e)
{
	struct expr *x = *e;

	if (x->depth > EXPR_DEPTH_MAX)
		return too_deep(ctx, x);
	if (rhs_eval(ctx, lhs, &x->op.left) < 0 ||
	    rhs_eval(ctx, lhs, &x->op.right) < 0)
		return -1;
	if (x->op.op == OP_MASK) {
		if (x->op.left->kind != EXPR_VALUE ||
		    x->op.right->kind != EXPR_VALUE)
			return err(ctx, &x->loc, "VALUE / MASK needs constants on both sides");
		rhs_typed(x, lhs);
		return 0;
	}
	return constant_fold(ctx, e);
}

static int rhs_prefix(struct eval_ctx *ctx, const struct expr *lhs,
		      struct expr **e)
{
	struct expr *x = *e;

	if (rhs_eval(ctx, lhs, &x->prefix.expr) < 0)
		return -1;
	if (!(lhs->dtype->flags & DTYPE_F_PREFIX) &&
	    !datatype_is_integer(lhs->dtype))
		return err(ctx, &x->loc, "%s values cannot have a prefix",
			   lhs->dtype->name);
	if (x->prefix.prefix_len > lhs->len)
		return err(ctx, &x->loc,
			   "prefix length %u is invalid for type of %u bits",
			   x->prefix.prefix_len, lhs->len);
	rhs_typed(x, lhs);
	return 0;
}

static int rhs_range(struct eval_ctx *ctx, const struct expr *lhs,
		     struct expr **e)
{
	struct expr *x = *e;

	if (rhs_eval(ctx, lhs, &x->range.left) < 0 ||
	    rhs_eval(ctx, lhs, &x->range.right) < 0)
		return -1;
	if (expr_value_cmp(x->range.left, x->range.right) > 0)
		return err(ctx, &x->loc,
			   "range is backwards: the first value is larger than the second");
	rhs_typed(x, lhs);
	return 0;
}

static int rhs_set(struct eval_ctx *ctx, const struct expr *lhs,
		   struct expr **e)
{
	struct expr *x = *e;

	/* a single element is a plain compare, as in nft (unless concatenated) */
	if ((x->set.size != 1 || lhs->kind == EXPR_CONCAT) &&
	    anon_key_check(ctx, lhs) < 0)
		return -1;
	if (set_eval(ctx, lhs, x) < 0)
		return -1;
	/* as nft: all its elements were empty variables */
	if (list_empty(&x->set.exprs))
		return err(ctx, &x->loc, "the set is empty");
	return 0;
}

/* a list of flags is a set whose values are ORed together */
static int rhs_list(struct eval_ctx *ctx, const struct expr *lhs,
		    struct expr **e)
{
	struct expr *x = *e, *i, *acc;

	if (lhs->dtype->flags & DTYPE_F_BITMASK && list_mask_split(e))
		return rhs_eval(ctx, lhs, e);
	if (set_eval(ctx, lhs, x) < 0)
		return -1;
	if (!(lhs->dtype->flags & DTYPE_F_BITMASK)) {
		i = list_first_entry(&x->set.exprs, struct expr, list);
		return err(ctx, &i->loc, "Basetype of type %s is not bitmask",
			   lhs->dtype->desc ? lhs->dtype->desc :
			   lhs->dtype->name);
	/* "tcp dport 22, 80": only flags make a list, as in nft */
	}
	acc = constant_expr_alloc(&x->loc, lhs->dtype, lhs->byteorder,
				  lhs->len, NULL);
	list_for_each_entry(i, &x->set.exprs, list) {
		if (i->kind != EXPR_VALUE) {
			expr_free(acc);
			return err(ctx, &i->loc, "expected a flag value");
		}
		for (unsigned int b = 0; b < NFH_VAL_MAXLEN; b++)
			acc->val.data[b] |= i->val.data[b];
	}
	expr_free(x);
	*e = acc;
	return 0;
}

static int rhs_set_ref(struct eval_ctx *ctx, const struct expr *lhs,
		       struct expr **e)
{
	if (anon_key_check(ctx, lhs) < 0)
		return -1;
	/* as nft, a map's keys too: "ip saddr @m" */
	return setref_eval(ctx, lhs, *e, SETREF_LOOKUP);
}

static int rhs_verdict(struct eval_ctx *ctx, const struct expr *lhs,
		       struct expr **e)
{
	return 0;
}

static int rhs_mapping(struct eval_ctx *ctx, const struct expr *lhs,
		       struct expr **e)
{
	return err(ctx, &(*e)->loc, "a \"key : value\" element belongs in a map");
}

/* what each kind of right-hand side is checked and typed by */
static int (*const rhs_evals[__EXPR_KIND_MAX])(struct eval_ctx *,
						const struct expr *,
						struct expr **) = {
	[EXPR_CONCAT]	= rhs_concat,
	[EXPR_SET_ELEM]	= rhs_set_elem,
	[EXPR_VARIABLE]	= rhs_variable,
	[EXPR_SYMBOL]	= symbol_to_constant,
	[EXPR_VALUE]	= rhs_value,
	[EXPR_BINOP]	= rhs_binop,
	[EXPR_PREFIX]	= rhs_prefix,
	[EXPR_RANGE]	= rhs_range,
	[EXPR_SET]	= rhs_set,
	[EXPR_LIST]	= rhs_list,
	[EXPR_SET_REF]	= rhs_set_ref,
	[EXPR_VERDICT]	= rhs_verdict,
	[EXPR_MAPPING]	= rhs_mapping,
};

static int rhs_eval(struct eval_ctx *ctx, const struct expr *lhs,
		    struct expr **e)
{
	struct expr *x = *e;

	if (lhs->kind == EXPR_CONCAT && x->kind != EXPR_CONCAT &&
	    x->kind != EXPR_SET && x->kind != EXPR_SET_ELEM &&
	    x->kind != EXPR_VARIABLE && x->kind != EXPR_SET_REF)
		return err(ctx, &x->loc, "a concatenation is expected here");
	if (!rhs_evals[x->kind])
		return err(ctx, &x->loc, "unexpected expression on the right-hand side");
	return rhs_evals[x->kind](ctx, lhs, e);
}

/* meta secmark, ct secmark: the security ID of the packet or connection */
static bool is_secmark(const struct expr *e)
{
	return (e->kind == EXPR_META && e->meta.key == NFT_META_SECMARK) ||
	       (e->kind == EXPR_CT && e->ct.key == NFT_CT_SECMARK);
}

/* an evaluated value, set, range, prefix or flag list of constants */
static bool rhs_is_constant(const struct expr *e)
{
	switch (e->kind) {
	case EXPR_VALUE:
	case EXPR_SET:
	case EXPR_RANGE:
	case EXPR_PREFIX:
	case EXPR_LIST:
		return true;
	case EXPR_BINOP:
		return e->op.op == OP_MASK;
	default:
		return false;
	}
}

static bool has_shift(const struct expr *e)
{
	const struct expr *top = e;
	bool shift = false;

	for (; e->kind == EXPR_BINOP; e = e->op.left)
		if (e->op.op == OP_LSHIFT || e->op.op == OP_RSHIFT)
			shift = true;
	/*
	 * Raw bits shifted and then masked compare as they are: nft lists a
	 * sub-byte raw match so, "(@th,0,8 & 0x80) >> 7 & 0x1 == 0x0"
	 */
	if (shift && top->op.op != OP_LSHIFT && top->op.op != OP_RSHIFT &&
	    e->kind == EXPR_PAYLOAD && e->payload.is_raw)
		return false;
	return shift;
}

/*
 * A one-element anonymous set is the element itself, as nft makes it:
 * "ct state { invalid }" tests the bit as "ct state invalid" does, and
 * "iifname { "eth*" }" compares the prefix instead of holding a range.
 */
static void unwrap_singleton(const struct expr *lhs, struct expr **e)
{
	struct expr *set = *e, *i;

	/* "tcp flags & (syn | ack) { syn }" stays an exact compare, as in nft */
	if (set->kind != EXPR_SET || lhs->kind == EXPR_CONCAT ||
	    lhs->kind == EXPR_BINOP ||
	    list_empty(&set->set.exprs) ||
	    set->set.exprs.next != set->set.exprs.prev)
		return;
	i = list_first_entry(&set->set.exprs, struct expr, list);
	if (elem_is_catchall(i))	/* "{ * }" stays a set, as in nft */
		return;
	switch (i->kind) {
	case EXPR_VARIABLE:	/* may hold a set of its own */
	case EXPR_SET_ELEM:	/* an element with options stays one */
	case EXPR_MAPPING:
	case EXPR_SET:
		return;
	default:
		break;
	}
	list_del(&i->list);
	expr_free(set);
	*e = i;
}

/* "ct status ! snat,dnat": none of these bits, (x & bits) == 0 as in nft */
static int neg_eval(struct eval_ctx *ctx, struct expr *rel)
{
	struct expr *lhs = rel->op.left, *r = rel->op.right;

	if (r->kind == EXPR_SET && r->set.exprs.next == r->set.exprs.prev &&
	    !list_empty(&r->set.exprs)) {
		struct expr *i = list_entry(r->set.exprs.next, struct expr, list);

		if (i->kind == EXPR_SET_ELEM && i->elem.key &&
		    i->elem.key->kind == EXPR_VALUE && !i->elem.timeout &&
		    !i->elem.comment && !i->elem.counter) {
			r = i->elem.key;
			i->elem.key = NULL;
		} else if (i->kind == EXPR_VALUE) {
			list_del(&i->list);
			r = i;
		}
		if (r != rel->op.right) {
			expr_free(rel->op.right);
			rel->op.right = r;
		}
	}
	if (lhs->kind == EXPR_BINOP)
		return error_queue2(ctx->msgs, &lhs->loc, &r->loc,
				    "cannot combine negation with binary expression");
	if (!(lhs->dtype->flags & DTYPE_F_BITMASK) || r->kind != EXPR_VALUE)
		return error_queue2(ctx->msgs, &lhs->loc, &r->loc,
				    "negation can only be used with singleton bitmask values");
	rel->op.left = binop_expr_alloc(&rel->loc, OP_AND, lhs, r);
	rel->op.right = constant_expr_u64(&internal_location, r->dtype,
					  r->byteorder, r->len, 0);
	rel->op.op = OP_EQ;
	return 0;
}

/*
 * "meta hour "23:00"-"02:00"" crosses midnight (in UTC, which the kernel
 * compares): as nft, the range between the two the other way round, and
 * the match inverted
 */
static int hour_range_eval(struct eval_ctx *ctx, struct expr *rel)
{
	struct expr *r = rel->op.right, *t;

	if (rhs_eval(ctx, rel->op.left, &r->range.left) < 0 ||
	    rhs_eval(ctx, rel->op.left, &r->range.right) < 0)
		return -1;
	if (expr_value_cmp(r->range.left, r->range.right) <= 0)
		return 0;
	if (rel->op.op != OP_IMPLICIT && rel->op.op != OP_EQ &&
	    rel->op.op != OP_NEQ)
		return 0;	/* refused as any range with "<" */
	t = r->range.left;
	r->range.left = r->range.right;
	r->range.right = t;
	rel->op.op = rel->op.op == OP_NEQ ? OP_EQ : OP_NEQ;
	return 0;
}

/* "x v / m" is "x & m == v"; lhs is x */
static int mask_rhs_eval(struct eval_ctx *ctx, struct expr *rel,
			 struct expr *lhs)
{
	struct expr *m = rel->op.right;

	if (rel->op.op != OP_IMPLICIT && rel->op.op != OP_EQ &&
	    rel->op.op != OP_NEQ)
		return err(ctx, &rel->loc, "VALUE / MASK can only be compared with == or !=");
	rel->op.left = binop_expr_alloc(&lhs->loc, OP_AND, lhs, m->op.right);
	rel->op.left->dtype = lhs->dtype;
	rel->op.left->len = lhs->len;
	rel->op.left->byteorder = lhs->byteorder;
	rel->op.right = m->op.left;
	if (!(lhs->dtype->flags & DTYPE_F_BITMASK))
		/*
		 * a netmask, 10.1.2.3/255.255.0.0, is the network
		 * 10.1.0.0 (the host bits would never match); flags
		 * keep theirs, as nft keeps them
		 */
		for (unsigned int i = 0; i < expr_value_bytes(m->op.right); i++)
			rel->op.right->val.data[i] &= m->op.right->val.data[i];
	m->op.left = m->op.right = NULL;
	expr_free(m);
	if (rel->op.op == OP_IMPLICIT)
		rel->op.op = OP_EQ;
	return 0;
}

/* a comparison without an operator: == but for flags, which it tests */
static void implicit_op_eval(struct expr *rel, const struct expr *lhs)
{
	struct expr *set = rel->op.right, *v;

	switch (rel->op.right->kind) {
	case EXPR_VALUE:
		if (!(lhs->dtype->flags & DTYPE_F_BITMASK))
			rel->op.op = OP_EQ;
		break;
	case EXPR_SET:
		/* "ct state { new }" tests the flag, as nft has it */
		v = list_first_entry(&set->set.exprs, struct expr, list);
		if (set->set.size == 1 && v->kind == EXPR_VALUE &&
		    lhs->kind != EXPR_BINOP &&
		    (lhs->dtype->flags & DTYPE_F_BITMASK)) {
			list_del(&v->list);
			set->set.size = 0;
			expr_free(set);
			rel->op.right = v;
			break;
		}
		rel->op.op = OP_EQ;
		break;
	default:
		rel->op.op = OP_EQ;
		break;
	}
}

/* a constant past the largest value @lhs gives (numgen inc mod 4 5), as
   nft refuses it: in a value, a range or an anonymous set */
static int maxval_check(struct eval_ctx *ctx, const struct expr *lhs,
			const struct expr *x)
{
	uint64_t max = lhs->ops && lhs->ops->maxval ? lhs->ops->maxval(lhs) :
						      UINT64_MAX;
	const struct expr *i;

	if (max == UINT64_MAX)
		return 0;
	switch (x->kind) {
	case EXPR_VALUE:
		if (expr_value_u64(x) > max)
			return err(ctx, &x->loc, "value %llu exceeds valid range 0-%llu",
				   (unsigned long long)expr_value_u64(x),
				   (unsigned long long)max);
		return 0;
	case EXPR_RANGE:
		if (maxval_check(ctx, lhs, x->range.left) < 0)
			return -1;
		return maxval_check(ctx, lhs, x->range.right);
	case EXPR_SET_ELEM:
		return x->elem.key ? maxval_check(ctx, lhs, x->elem.key) : 0;
	case EXPR_SET:
		list_for_each_entry(i, &x->set.exprs, list)
			if (maxval_check(ctx, lhs, i) < 0)
				return -1;
		return 0;
	default:
		return 0;
	}
}

static int relational_eval(struct eval_ctx *ctx, struct expr **e)
{
	struct expr *rel = *e, *lhs;

	if (expr_eval(ctx, &rel->op.left) < 0)
		return -1;
	lhs = rel->op.left;
	fib_present(lhs, rel->op.right);
	/* before a set of one range is that range: it is not turned */
	if (lhs->dtype == &hour_type && rel->op.right->kind == EXPR_RANGE &&
	    hour_range_eval(ctx, rel) < 0)
		return -1;
	/* nft 1.1.1 compares a flags field in a tunnel with a set of one
	   flag exactly ("vxlan tcp flags { syn }") */
	if (inner_child(lhs) && rel->op.op == OP_IMPLICIT &&
	    rel->op.right->kind == EXPR_SET)
		rel->op.op = OP_EQ;
	unwrap_singleton(lhs, &rel->op.right);
	if (rhs_eval(ctx, lhs, &rel->op.right) < 0)
		return -1;
	if (rel->op.op == OP_NEG && neg_eval(ctx, rel) < 0)
		return -1;
	if (maxval_check(ctx, rel->op.left, rel->op.right) < 0)
		return -1;
	if (rel->op.op == OP_EQ || rel->op.op == OP_NEQ ||
	    rel->op.op == OP_IMPLICIT)
		xor_transfer(&rel->op.left, rel->op.right);
	lhs = rel->op.left;
	if (has_shift(lhs) && rel->op.right->kind != EXPR_SET_REF)
		/* nft 1.0.6 refuses these too, as a datatype mismatch; a
		   named set's lookup it takes, as it lists one typed by a
		   raw load ("(@th,0,8 & 0x80) >> 7 == @s") */
		return err(ctx, &lhs->loc,
			   "a shifted value can be assigned (meta mark set ct mark << 8), not compared");
	if (is_secmark(lhs) && rhs_is_constant(rel->op.right))
		return err(ctx, &rel->op.right->loc,
			   "a secmark is a security ID the kernel assigns: it cannot be compared with a constant");
	if (rel->op.right->kind == EXPR_BINOP && rel->op.right->op.op == OP_MASK &&
	    mask_rhs_eval(ctx, rel, lhs) < 0)
		return -1;
	if (rel->op.op == OP_IMPLICIT)
		implicit_op_eval(rel, lhs);
	if (rel->op.right->kind == EXPR_SET || rel->op.right->kind == EXPR_RANGE ||
	    rel->op.right->kind == EXPR_PREFIX || rel->op.right->kind == EXPR_SET_REF) {
		if (rel->op.op != OP_EQ && rel->op.op != OP_NEQ)
			return err(ctx, &rel->loc,
				   "%s cannot be used with a %s",
				   expr_op_name(rel->op.op),
				   rel->op.right->kind == EXPR_SET ||
				   rel->op.right->kind == EXPR_SET_REF ? "set" :
				   rel->op.right->kind == EXPR_RANGE ? "range" : "prefix");
	}
	if (inner_child(lhs)) {
		/* a match inside a tunnel tells of the inner packet */
		struct expr in = *rel;

		in.op.left = (struct expr *)inner_child(lhs);
		proto_ctx_update(&ctx->inner_pctx, &in);
		return 0;
	}
	proto_ctx_update(&ctx->pctx, rel);
	return 0;
}

static bool binop_of_packet(const struct expr *e);
static int binop_pair_eval(struct eval_ctx *ctx, struct expr *b);

static int binop_eval(struct eval_ctx *ctx, struct expr **e)
{
	struct expr *b = *e;

	if (b->depth > EXPR_DEPTH_MAX)
		return too_deep(ctx, b);
	if (expr_eval(ctx, &b->op.left) < 0)
		return -1;
	if ((b->op.op == OP_AND || b->op.op == OP_OR || b->op.op == OP_XOR) &&
	    binop_of_packet(b->op.right)) {
		if (!ctx->value_pair)
			return err(ctx, &b->op.right->loc,
				   "right-hand side of %s must be a constant: only a meta or ct key's new value may combine two values of the packet",
				   expr_op_name(b->op.op));
		return binop_pair_eval(ctx, b);
	}
	if (rhs_eval(ctx, b->op.left, &b->op.right) < 0)
		return -1;
	if (b->op.right->kind != EXPR_VALUE)
		return err(ctx, &b->op.right->loc,
			   "right-hand side of %s must be a constant",
			   expr_op_name(b->op.op));
	if ((b->op.op == OP_LSHIFT || b->op.op == OP_RSHIFT) &&
	    expr_value_u64(b->op.right) >= 32)
		return err(ctx, &b->op.right->loc,
			   "a shift is by 0 to 31 bits (the kernel's limit)");
	b->dtype = b->op.left->dtype;
	b->len = b->op.left->len;
	b->byteorder = b->op.left->byteorder;
	return 0;
}

/*
 * "ct mark & 0xffff0000 | meta mark & 0xffff" (nft 1.2): both sides are
 * values of the packet, which the kernel's bitwise with a second source
 * register (Linux 6.13) combines; they load as long as each other
 */
/* the registers a value takes while it is computed: one, and one more
   for each right side that is a value of the packet, while it loads */
static unsigned int pair_regs(const struct expr *e)
{
	unsigned int l, r;

	if (e->kind != EXPR_BINOP)
		return 1;
	l = pair_regs(e->op.left);
	if (e->op.right->kind == EXPR_VALUE)
		return l;
	r = 1 + pair_regs(e->op.right);
	return l > r ? l : r;
}

static int binop_pair_eval(struct eval_ctx *ctx, struct expr *b)
{
	struct expr *l = b->op.left, *r;
	int ret;

	if (b->op.right->kind == EXPR_BINOP)
		ret = binop_eval(ctx, &b->op.right);
	else
		ret = expr_eval(ctx, &b->op.right);
	if (ret < 0)
		return -1;
	r = b->op.right;
	if (r->kind == EXPR_CONCAT || r->kind == EXPR_MAP ||
	    l->kind == EXPR_CONCAT || l->kind == EXPR_MAP)
		return err(ctx, &r->loc, "%s takes one value on each side",
			   expr_op_name(b->op.op));
	if (r->dtype != l->dtype && r->dtype != &integer_type &&
	    l->dtype != &integer_type)
		return err(ctx, &r->loc,
			   "datatype mismatch: %s %s %s",
			   l->dtype->desc, expr_op_name(b->op.op), r->dtype->desc);
	if (div_round_up(l->len, 8) != div_round_up(r->len, 8))
		return err(ctx, &r->loc,
			   "%s is %u bits long, but the left-hand side of %s is %u bits",
			   r->dtype->name, r->len, expr_op_name(b->op.op), l->len);
	b->dtype = l->dtype != &integer_type ? l->dtype : r->dtype;
	b->len = l->len;
	b->byteorder = l->byteorder;
	if (pair_regs(b) > NFT_REG_4 - NFT_REG_1 + 1)
		return err(ctx, &r->loc,
			   "this needs more than the kernel's %u registers: combine fewer values on the right-hand side",
			   NFT_REG_4 - NFT_REG_1 + 1);
	return 0;
}

static int concat_eval(struct eval_ctx *ctx, struct expr *c)
{
	struct list_head *pos, *nextpos;
	unsigned int bits = 0;

	for (pos = c->set.exprs.next; pos != &c->set.exprs; pos = nextpos) {
		struct expr *n = list_entry(pos, struct expr, list);

		nextpos = pos->next;
		list_del(&n->list);
		if (expr_eval(ctx, &n) < 0) {
			expr_free(n);
			return -1;
		}
		list_add_tail(&n->list, nextpos);
		if (n->kind == EXPR_CONCAT || n->kind == EXPR_RELATIONAL)
			return err(ctx, &n->loc, "this cannot be part of a concatenation");
		bits += div_round_up(n->len, 32) * 32;
	}
	if (bits > NFT_REG32_COUNT * 32)
		return err(ctx, &c->loc,
			   "the concatenation is longer than the %u bytes of all registers",
			   NFT_REG32_COUNT * 4);
	c->len = bits;
	return 0;
}

static int kind_eval_expr(struct kind_eval *k, struct expr **e)
{
	return expr_eval(k->phase, e);
}

static int stmt_eval(struct eval_ctx *ctx, struct stmt *s);

static int kind_proto_need(struct kind_eval *k, const struct expr *e,
			   enum proto_base base, const struct proto_desc *want)
{
	struct eval_ctx *ctx = k->phase;
	const struct proto_desc *have = ctx->pctx.desc[base];

	if (set_conflict(ctx, e, base, want) < 0)
		return -1;
	if (have && have != want)
		return conflict(ctx, e, have, want);
	return 0;
}

static int kind_value(struct kind_eval *k, struct expr *lhs, struct expr **v)
{
	return value_stmt_eval(k->phase, lhs, v);
}

static int kind_rhs(struct kind_eval *k, const struct expr *lhs,
		    struct expr **e)
{
	return rhs_eval(k->phase, lhs, e);
}

static int kind_stmt(struct kind_eval *k, struct stmt *s)
{
	return stmt_eval(k->phase, s);
}

static int kind_expand(struct kind_eval *k, struct expr **e)
{
	return variable_expand(k->phase, e);
}

static int kind_map(struct kind_eval *k, struct expr *m,
		    const struct expr *want)
{
	return map_eval(k->phase, m, want);
}

static int kind_map_ranges(struct kind_eval *k, struct expr *m,
			   const struct expr *want)
{
	struct eval_ctx *ctx = k->phase;
	int ret;

	ctx->data_ranges = true;
	ret = map_eval(ctx, m, want);
	ctx->data_ranges = false;
	return ret;
}

static const struct set *kind_set_lookup(struct kind_eval *k,
					 const char *name)
{
	struct eval_ctx *ctx = k->phase;

	return set_lookup(ctx, ctx->family, ctx->cmd->h.table, name);
}

static void kind_deps_before(struct kind_eval *k, struct stmt *s)
{
	struct eval_ctx *ctx = k->phase;

	ctx->stmt = s;
}

static int kind_dep(struct kind_eval *k, const struct location *loc,
		    enum proto_base base, const struct proto_desc *want)
{
	const struct expr at = { .loc = *loc };

	if (base == PROTO_BASE_TRANSPORT_HDR)
		return th_dep(k->phase, &at, want);
	return nh_dep(k->phase, &at, want);
}
static int kind_rule(struct kind_eval *k, struct rule *r);

/* a header field (payload.c): the matches that announce its header */
static int kind_header(struct kind_eval *k, struct expr *e)
{
	return payload_eval(k->phase, e);
}

static int kind_inner(struct kind_eval *k, struct expr **e,
		      const struct expr *tunnel, unsigned int family)
{
	struct eval_ctx *ctx = k->phase;
	unsigned int outer_family = ctx->family;
	struct proto_ctx outer = ctx->pctx;
	int ret;

	const struct proto_desc *ll;

	if (!ctx->inner_pctx_set) {
		proto_ctx_init(&ctx->inner_pctx, family);
		/* nft 1.1 alone reads tunnels: it knows gre inside */
		ctx->inner_pctx.nft11 = true;
		ctx->inner_pctx_set = true;
	}
	ctx->pctx = ctx->inner_pctx;
	/* a tunnel without a link layer (gre) tests the network header
	   by meta protocol, whatever another tunnel of the rule carried */
	ll = ctx->pctx.desc[PROTO_BASE_LL_HDR];
	if (family == NFPROTO_NETDEV)
		ctx->pctx.desc[PROTO_BASE_LL_HDR] = NULL;
	ctx->family = family;
	ctx->inner = tunnel;
	ret = expr_eval(ctx, e);
	ctx->inner = NULL;
	ctx->family = outer_family;
	if (family == NFPROTO_NETDEV)
		ctx->pctx.desc[PROTO_BASE_LL_HDR] = ll;
	ctx->inner_pctx = ctx->pctx;
	ctx->pctx = outer;
	return ret;
}

static int kind_setref(struct kind_eval *k, const struct expr *lhs,
		       struct expr *x, bool want_map)
{
	return setref_eval(k->phase, lhs, x, want_map ? SETREF_MAP : SETREF_SET);
}

static int kind_name_check(struct kind_eval *k, const char *name,
			   const struct location *loc, const char *what)
{
	return name_chars_check(k->phase, name, loc, what);
}

static bool kind_set_in_batch(struct kind_eval *k, const struct set *set)
{
	return set_in_batch(k->phase, set);
}

static struct set *kind_set_find(struct kind_eval *k, const char *name)
{
	struct eval_ctx *ctx = k->phase;

	return set_lookup(ctx, ctx->family, ctx->cmd->h.table, name);
}

static int kind_head_dep(struct kind_eval *k, const struct expr *e,
			 const struct proto_desc *want)
{
	struct eval_ctx *ctx = k->phase;
	int ret;

	ctx->dep_at_head = true;
	ret = nh_dep(ctx, e, want);
	ctx->dep_at_head = false;
	return ret;
}

/* whether the rule's table has flowtable @name (include/kind.h) */
static int kind_flowtable(struct kind_eval *k, const char *name)
{
	struct eval_ctx *ctx = k->phase;
	const struct cmd *c = ctx->cmd;
	struct cache *oc = ctx->nfh->offline_cache;
	struct cache_table *t;
	struct cmd *i;

	list_for_each_entry(i, ctx->cmds, list)
		if (i->obj == CMD_OBJ_FLOWTABLE &&
		    (i->op == CMD_ADD || i->op == CMD_CREATE) &&
		    i->h.family == c->h.family && i->h.obj &&
		    !strcmp(i->h.table, c->h.table) && !strcmp(i->h.obj, name))
			return 1;
	if (!ctx->nfh->offline)
		return -1;
	t = oc ? cache_table_find(oc, c->h.family, c->h.table) : NULL;
	return t && cache_flowtable_find(t, name, 0) ? 1 : 0;
}

#define KIND_EVAL(ctx) {						\
	.phase = (ctx), .msgs = (ctx)->msgs, .family = (ctx)->family,	\
	.expr = kind_eval_expr, .pctx = &(ctx)->pctx,			\
	.proto_need = kind_proto_need, .value = kind_value,		\
	.stmt = kind_stmt, .family_name = family_name((ctx)->family),	\
	.rhs = kind_rhs,						\
	.stmts = (ctx)->rule ? &(ctx)->rule->stmts : NULL,		\
	.deps_before = kind_deps_before, .dep = kind_dep,		\
	.expand = kind_expand, .map = kind_map,				\
	.setref = kind_setref,						\
	.name_check = kind_name_check, .set_in_batch = kind_set_in_batch,	\
	.set_find = kind_set_find,					\
	.head_dep = kind_head_dep,					\
	.rule = kind_rule,						\
	.table = (ctx)->cmd ? (ctx)->cmd->h.table : NULL,		\
	.flowtable = kind_flowtable,					\
	.set_lookup = kind_set_lookup, .map_ranges = kind_map_ranges,	\
	.inner = kind_inner, .header = kind_header,			\
}

/* a kind known by its ops (include/kind.h) */
static int kind_eval(struct eval_ctx *ctx, struct expr *e)
{
	struct kind_eval k = KIND_EVAL(ctx);

	return e->ops->eval(&k, e);
}

/* a statement kind known by its ops */
static int kind_stmt_eval(struct eval_ctx *ctx, struct stmt *s)
{
	struct kind_eval k = KIND_EVAL(ctx);

	return s->ops->eval(&k, s);
}

static int expr_eval(struct eval_ctx *ctx, struct expr **e)
{
	struct expr *x = *e;

	if (x->ops && x->ops->eval)
		return kind_eval(ctx, x);
	switch (x->kind) {
	case EXPR_CONCAT:
		return concat_eval(ctx, x);
	case EXPR_SELECTOR:	/* a kind with nothing to check */
		return 0;
	case EXPR_RELATIONAL:
		return relational_eval(ctx, e);
	case EXPR_BINOP:
		return binop_eval(ctx, e);
	case EXPR_VARIABLE:
		if (variable_expand(ctx, e) < 0)
			return -1;
		return expr_eval(ctx, e);
	default:
		return err(ctx, &x->loc, "expression cannot be used here");
	}
}

/* --- statements --------------------------------------------------------- */

static int verdict_stmt_eval(struct eval_ctx *ctx, struct stmt *s)
{
	struct expr *v = s->verdict.expr;

	if (v->kind == EXPR_MAP) {
		struct expr *want = set_type_placeholder(NULL, &verdict_type, 0,
							 BYTEORDER_INVALID);
		int ret = map_eval(ctx, v, want);

		expr_free(want);
		return ret;
	}

	if (v->verdict.chain && strlen(v->verdict.chain) >= NFT_CHAIN_MAXNAMELEN)
		return err(ctx, &v->loc, "chain name \"%s\" is too long",
			   v->verdict.chain);
	return 0;
}

/* "meta mark & 0xff", not "1 | 2" (a constant, as in a match) */
static bool binop_of_packet(const struct expr *e)
{
	while (e->kind == EXPR_BINOP)
		e = e->op.left;
	return expr_is_selector(e);
}

static int value_stmt_eval(struct eval_ctx *ctx, struct expr *lhs,
			   struct expr **val)
{
	if ((*val)->kind == EXPR_MAP)
		return map_eval(ctx, *val, lhs);
	if (expr_is_selector(*val) ||
	    ((*val)->kind == EXPR_BINOP && binop_of_packet(*val))) {
		/* a value taken from the packet: "ct mark set meta mark" */
		const struct expr *v;

		if ((*val)->kind == EXPR_BINOP) {
			int ret;

			ctx->value_pair = lhs->kind == EXPR_META ||
					  lhs->kind == EXPR_CT;
			ret = binop_eval(ctx, val);
			ctx->value_pair = false;
			if (ret < 0)
				return -1;
		}
		if ((*val)->kind != EXPR_BINOP && expr_eval(ctx, val) < 0)
			return -1;
		v = *val;
		/* as nft: a value of the target's own type, or a plain
		   integer (which the kernel takes in the target's size) */
		if (v->dtype != lhs->dtype && v->dtype != &integer_type)
			return err(ctx, &v->loc,
				   "datatype mismatch: expected %s, expression has type %s",
				   lhs->dtype->desc, v->dtype->desc);
		/* nft 1.1.1 wants an integer from a tunnel as long as the
		   target ("meta mark set vxlan vni" is 24 bits) */
		if (inner_child(v) && v->dtype == &integer_type &&
		    v->len != lhs->len)
			return err(ctx, &v->loc,
				   "datatype mismatch: expected %s, expression has type integer with length %u",
				   lhs->dtype->desc, v->len);
		if (lhs->ops && lhs->ops->load &&	/* a header field */
		    div_round_up(v->len, 8) != div_round_up(lhs->len, 8))
			return err(ctx, &v->loc,
				   "%s is %u bits long, but %u bits are needed here",
				   v->dtype->name, v->len, lhs->len);
		return 0;
	}
	if (rhs_eval(ctx, lhs, val) < 0)
		return -1;
	if ((*val)->kind != EXPR_VALUE)
		return err(ctx, &(*val)->loc, "expected a constant value");
	return 0;
}

/* counter name "x", ct helper set "x", and maps to such names */
static int stmt_eval(struct eval_ctx *ctx, struct stmt *s)
{
	ctx->stmt = s;
	if (s->ops)		/* a kind without eval has nothing to check */
		return s->ops->eval ? kind_stmt_eval(ctx, s) : 0;
	switch (s->kind) {
	case STMT_EXPRESSION:
		if (s->expr->kind != EXPR_RELATIONAL)
			return err(ctx, &s->loc, "expected a match");
		return expr_eval(ctx, &s->expr);
	case STMT_VERDICT:
		return verdict_stmt_eval(ctx, s);
	default:
		return err(ctx, &s->loc, "statement is not supported yet");
	}
}

static bool implied_by_family(const struct eval_ctx *ctx, const struct stmt *s)
{
	const struct expr *rel, *l;
	uint64_t want;

	if (s->kind != STMT_EXPRESSION || s->expr->kind != EXPR_RELATIONAL)
		return false;
	rel = s->expr;
	l = rel->op.left;
	if (rel->op.op != OP_EQ || rel->op.right->kind != EXPR_VALUE ||
	    l->kind != EXPR_META || l->meta.key != NFT_META_PROTOCOL)
		return false;
	if (ctx->family == NFPROTO_IPV4)
		want = 0x0800;
	else if (ctx->family == NFPROTO_IPV6)
		want = 0x86dd;
	else
		return false;
	return expr_value_u64(rel->op.right) == want;
}

/* the header field a match's left side reads: itself, or the field
   inside a tunnel (whose loads merge as nft 1.1.1 merges them) */
static const struct expr *merge_field(const struct expr *l)
{
	return inner_child(l) ? inner_child(l) : l;
}

/* the tunnel of @l: none (NULL), or its own header */
static const struct proto_desc *merge_tunnel(const struct expr *l)
{
	return inner_child(l) ? inner_tunnel_desc(l) : NULL;
}

/* "FIELD == VALUE" on a whole-byte header field */
static bool mergeable(const struct stmt *s)
{
	const struct expr *rel, *l;

	if (s->kind != STMT_EXPRESSION || s->expr->kind != EXPR_RELATIONAL)
		return false;
	rel = s->expr;
	l = merge_field(rel->op.left);
	return rel->op.op == OP_EQ && rel->op.right->kind == EXPR_VALUE &&
	       l->kind == EXPR_PAYLOAD && l->payload.offset % 8 == 0 &&
	       l->len % 8 == 0 && l->dtype != &string_type &&
	       l->dtype != &ifname_type;
}

/*
 * As nft: adjacent fields merge into one load while it fits the 4 bytes
 * the kernel loads fastest, or one 16-byte register at the link layer or
 * where either side is wider than 4 bytes already ("arp operation 1 arp
 * saddr ether X" is one 8-byte load; "ip saddr X ip daddr Y" two)
 */
static bool can_merge(const struct expr *a, const struct expr *b)
{
	unsigned int total = a->len + b->len;

	if (merge_tunnel(a) != merge_tunnel(b))
		return false;
	a = merge_field(a);
	b = merge_field(b);
	if (a->payload.base != b->payload.base ||
	    a->payload.offset + a->len != b->payload.offset)
		return false;
	return total <= 32 ||
	       (total <= 128 && (a->payload.base == PROTO_BASE_LL_HDR ||
				 a->len > 32 || b->len > 32));
}

/* the field that names the next header: ether type, ip protocol ... */
static bool is_protocol_field(const struct expr *p)
{
	const char *f;

	p = merge_field(p);
	f = p->payload.tmpl ? p->payload.tmpl->name : "";

	if (p->payload.is_raw)
		return false;
	if (p->payload.desc == &proto_eth || p->payload.desc == &proto_vlan)
		return !strcmp(f, "type");
	if (p->payload.desc == &proto_ip)
		return !strcmp(f, "protocol");
	if (p->payload.desc == &proto_ip6)
		return !strcmp(f, "nexthdr");
	return false;
}

static int merge_cmp(const void *x, const void *y)
{
	const struct expr *a = (*(struct stmt *const *)x)->expr->op.left;
	const struct expr *b = (*(struct stmt *const *)y)->expr->op.left;

	/* as nft 1.1.1, fields in tunnels sort among the others (a field
	   outside then stands between two inside, which then do not merge) */
	a = merge_field(a);
	b = merge_field(b);
	if (a->payload.base != b->payload.base)
		return (int)a->payload.base - (int)b->payload.base;
	if (a->payload.offset != b->payload.offset)
		return a->payload.offset < b->payload.offset ? -1 : 1;
	return 0;
}

/* @keep becomes one match on both fields; @gone goes */
static void merge_into(struct stmt *keep, struct stmt *lo, struct stmt *hi,
		       struct stmt *gone)
{
	const struct expr *a = merge_field(lo->expr->op.left);
	const struct expr *b = merge_field(hi->expr->op.left);
	struct expr *v, *p;
	unsigned int la = a->len / 8, lb = b->len / 8;

	v = constant_expr_alloc(&keep->expr->op.right->loc, &integer_type,
				BYTEORDER_BIG, a->len + b->len, NULL);
	memcpy(v->val.data, lo->expr->op.right->val.data, la);
	memcpy(v->val.data + la, hi->expr->op.right->val.data, lb);
	p = payload_raw_alloc(&keep->expr->op.left->loc, a->payload.base,
			      a->payload.offset, a->len + b->len);
	if (merge_tunnel(keep->expr->op.left))
		p = inner_wrap(keep->expr->op.left, p);
	expr_free(keep->expr->op.left);
	expr_free(keep->expr->op.right);
	keep->expr->op.left = p;
	keep->expr->op.right = v;
	list_del(&gone->list);
	stmt_free(gone);
}

/*
 * Matches on adjacent header fields load once, as in nft 1.0.6: all the
 * rule's "FIELD == VALUE" matches, in header order, merge while adjacent
 * ("udp sport 67 udp dport 68" is one 4-byte load and compare).  The
 * merged match takes the place of the first, or of the one on a next
 * header's field, so that it still comes before what depends on it.
 */
static void payload_merge(struct rule *r)
{
	struct stmt *s, **sa, *last;
	size_t n = 0, i;

	list_for_each_entry(s, &r->stmts, list)
		n += mergeable(s);
	if (n < 2)
		return;
	sa = xmalloc(n * sizeof(*sa));
	n = 0;
	list_for_each_entry(s, &r->stmts, list)
		if (mergeable(s))
			sa[n++] = s;
	qsort(sa, n, sizeof(*sa), merge_cmp);
	last = sa[0];
	for (i = 1; i < n; i++) {
		struct stmt *this = sa[i];

		if (!can_merge(last->expr->op.left, this->expr->op.left)) {
			last = this;
		} else if (is_protocol_field(this->expr->op.left)) {
			merge_into(this, last, this, last);
			last = this;
		} else {
			merge_into(last, last, this, this);
		}
	}
	free(sa);
}

/*
 * What nft 1.0.6 takes for the end of a rule, which nothing may follow: a
 * verdict (not continue, not a verdict map), reject, nat and fwd.  NULL
 * if @s is none; else what to call it.
 */
static const char *terminal_name(const struct stmt *s)
{
	switch (s->kind) {
	case STMT_VERDICT:
		if (s->verdict.expr->kind != EXPR_VERDICT ||
		    s->verdict.expr->verdict.verdict == NFT_CONTINUE)
			return NULL;
		return "a verdict";
	case STMT_REJECT:
		return "reject";
	case STMT_NAT:
		return "nat";
	case STMT_FWD:
		return "fwd";
	default:
		return s->ops ? s->ops->terminal : NULL;
	}
}

/* the declaration of base chain @name of the table, if this run has one:
   the block being read, a command, or the offline model's; NULL if not */
static const struct chain *chain_decl(struct eval_ctx *ctx,
				      const char *name)
{
	const struct handle *h = &ctx->cmd->h;
	struct list_head *lists[2] = { ctx->cmds,
				       ctx->state ? ctx->state->cmds : NULL };
	const struct cmd *c;

	if (ctx->state && name == ctx->state->stream_chain)
		return ctx->state->cur_chain;
	for (unsigned int i = 0; i < 2; i++)
		if (lists[i] && (i == 0 || lists[1] != lists[0]))
			list_for_each_entry(c, lists[i], list)
				if (c->obj == CMD_OBJ_CHAIN && c->chain &&
				    (c->op == CMD_ADD || c->op == CMD_CREATE) &&
				    c->h.family == h->family && c->h.chain &&
				    !strcmp(c->h.table, h->table) &&
				    !strcmp(c->h.chain, name))
					return c->chain;
	return NULL;
}

/*
 * The type and hook of the base chain the rule goes into, from its
 * declaration in this run or the offline model's: false when it is not
 * known, or no base chain
 */
static bool rule_chain_hook(struct eval_ctx *ctx, const char **type,
			    int *hook, const struct location **type_loc)
{
	const struct handle *h = &ctx->cmd->h;
	const struct chain *c;
	struct cache_table *t;
	struct cache_chain *ch;
	struct cache *m;

	if (!h->chain || !h->table)
		return false;
	c = chain_decl(ctx, h->chain);
	if (c) {
		if (!c->base || !c->type || !c->hook)
			return false;
		*type = c->type;
		*hook = hook_lookup(h->family, c->hook);
		*type_loc = &c->type_loc;
		return *hook >= 0;
	}
	m = ctx->nfh->offline ? plan_sets(ctx->nfh) : NULL;
	t = m ? cache_table_find(m, h->family, h->table) : NULL;
	ch = t ? cache_chain_find(t, h->chain) : NULL;
	if (!ch || !nftnl_chain_is_set(ch->nlc, NFTNL_CHAIN_HOOKNUM) ||
	    !nftnl_chain_is_set(ch->nlc, NFTNL_CHAIN_TYPE))
		return false;
	*type = nftnl_chain_get_str(ch->nlc, NFTNL_CHAIN_TYPE);
	*hook = nftnl_chain_get_u32(ch->nlc, NFTNL_CHAIN_HOOKNUM);
	*type_loc = NULL;
	return true;
}

/*
 * A nat statement in a base chain that the kernel refuses it in (when
 * the ruleset is committed, so nft -c does not tell): one of a type
 * other than nat, or at a hook where it has no use (nft_nat_validate():
 * snat at postrouting and input, masquerade at postrouting, dnat and
 * redirect at prerouting and output).  A chain reached by a jump is
 * judged by the kernel along the jumps, not here.
 */
static int nat_chain_check(struct eval_ctx *ctx, const struct rule *r)
{
	static const char *const name[] = {
		[NFH_NAT_SNAT] = "snat", [NFH_NAT_DNAT] = "dnat",
		[NFH_NAT_MASQ] = "masquerade", [NFH_NAT_REDIR] = "redirect",
	};
	static const char *const where[] = {
		[NFH_NAT_SNAT] = "postrouting or input",
		[NFH_NAT_DNAT] = "prerouting or output",
		[NFH_NAT_MASQ] = "postrouting",
		[NFH_NAT_REDIR] = "prerouting or output",
	};
	const struct location *type_loc;
	const struct stmt *s;
	const char *type;
	int hook, ret = 0;

	list_for_each_entry(s, &r->stmts, list) {
		unsigned int ok;

		if (s->kind != STMT_NAT)
			continue;
		if (!rule_chain_hook(ctx, &type, &hook, &type_loc))
			return 0;
		ok = s->nat.type == NFH_NAT_SNAT ?
		     1 << NF_INET_POST_ROUTING | 1 << NF_INET_LOCAL_IN :
		     s->nat.type == NFH_NAT_MASQ ? 1 << NF_INET_POST_ROUTING :
		     1 << NF_INET_PRE_ROUTING | 1 << NF_INET_LOCAL_OUT;
		if (strcmp(type, "nat"))
			ret = error_queue2(ctx->msgs, &s->loc, type_loc,
					   "%s needs a chain of type nat, this one is of type %s (the kernel refuses it when the ruleset is committed)",
					   name[s->nat.type], type);
		else if (hook < 0 || hook >= 32 || !(ok & 1u << hook))
			ret = err(ctx, &s->loc,
				  "%s has no use at the %s hook: it goes in a nat chain at %s",
				  name[s->nat.type],
				  hook_name(ctx->cmd->h.family, hook),
				  where[s->nat.type]);
	}
	return ret;
}

static int rule_eval(struct eval_ctx *ctx, struct rule *r, unsigned int family)
{
	struct stmt *s, *next;
	int ret = 0;

	ctx->rule = r;
	ctx->expanded = 0;
	undef_forget(ctx);
	ctx->family = family;
	proto_ctx_init(&ctx->pctx, family);
	/* --debug=proto-ctx: with the output, as nft prints it */
	proto_ctx_debug(&ctx->pctx, ctx->nfh && (ctx->nfh->debug & NFH_DEBUG_PROTO_CTX) ?
			ctx->nfh->octx.out : NULL);
	ctx->inner_pctx_set = false;
	list_for_each_entry_safe(s, next, &r->stmts, list) {
		if (stmt_eval(ctx, s) < 0)
			ret = -1;
		else if (&next->list != &r->stmts && implied_by_family(ctx, s)) {
			/* "meta protocol ip6" in an ip6 table: nft drops it,
			   but not at the end of the rule, where it stays */
			list_del(&s->list);
			stmt_free(s);
			continue;
		}
		if (terminal_name(s) && &next->list != &r->stmts) {
			/* nft refuses statements after one, too (not after a
			   verdict map: a key it lacks goes on) */
			ret = err(ctx, &next->loc,
				  "statement after %s is never reached",
				  terminal_name(s));
			break;
		}
	}
	if (ret == 0 && nat_chain_check(ctx, r) < 0)
		ret = -1;
	if (ret == 0)
		payload_merge(r);
	return ret;
}

/* a chain binding's rule: a rule of its own, then the outer one goes on */
static int kind_rule(struct kind_eval *k, struct rule *r)
{
	struct eval_ctx *ctx = k->phase, saved = *ctx;
	int ret;

	ret = rule_eval(ctx, r, ctx->family);
	saved.anon_sets = ctx->anon_sets;	/* the block's count too */
	*ctx = saved;
	return ret;
}

/* --- tables and chains -------------------------------------------------- */

static int name_check(struct eval_ctx *ctx, const char *name,
		      const struct location *loc, const char *what,
		      unsigned int max)
{
	if (!name)
		return 0;
	if (strlen(name) >= max)
		return err(ctx, loc, "%s name \"%s\" is too long, %u characters at most",
			   what, name, max - 1);
	if (!name[0])
		return err(ctx, loc, "%s name is empty", what);
	return 0;
}

/*
 * A name made here holds only what nft's bare identifiers hold: letters,
 * digits and _ . / - :.  Quotes, braces, semicolons, blanks or newlines in
 * a quoted or JSON name would list as other objects ("x }\ntable ip evil
 * {"), and nft reads none of them back.
 */
static int name_chars_check(struct eval_ctx *ctx, const char *name,
			    const struct location *loc, const char *what)
{
	const char *p;

	if (!name)
		return 0;
	for (p = name; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("_./-:", *p))
			break;
	if (!*p)
		return 0;
	/* the name itself only where it prints as it is */
	for (const char *q = name; *q; q++)
		if (!isprint((unsigned char)*q)) {
			p = q;
			break;
		}
	if (isprint((unsigned char)*p))
		return err(ctx, loc, "%s name \"%s\" holds '%c': a name is letters, digits and _ . / - : only",
			   what, name, *p);
	return err(ctx, loc, "%s name holds byte 0x%02x: a name is letters, digits and _ . / - : only",
		   what, (unsigned char)*p);
}

static int handle_eval(struct eval_ctx *ctx, struct cmd *cmd)
{
	int ret = 0;

	/* the name of what is made; the others name what exists */
	if (cmd->op == CMD_ADD || cmd->op == CMD_CREATE) {
		switch (cmd->obj) {
		case CMD_OBJ_TABLE:
			ret = name_chars_check(ctx, cmd->h.table, &cmd->h.table_loc,
					       "table");
			break;
		case CMD_OBJ_CHAIN:
			ret = name_chars_check(ctx, cmd->h.chain, &cmd->h.chain_loc,
					       "chain");
			break;
		case CMD_OBJ_SET:
		case CMD_OBJ_MAP:
			ret = name_chars_check(ctx, cmd->h.set, &cmd->h.set_loc,
					       cmd->obj == CMD_OBJ_MAP ? "map" : "set");
			break;
		case CMD_OBJ_OBJ:
			ret = name_chars_check(ctx, cmd->h.obj, &cmd->h.obj_loc,
					       obj_type_name(cmd->h.obj_type));
			break;
		case CMD_OBJ_FLOWTABLE:
			ret = name_chars_check(ctx, cmd->h.obj, &cmd->h.obj_loc,
					       "flowtable");
			break;
		default:
			break;
		}
		if (ret < 0)
			return -1;
	}

	if (name_check(ctx, cmd->h.table, &cmd->h.table_loc, "table",
		       NFT_TABLE_MAXNAMELEN) < 0)
		ret = -1;
	if (name_check(ctx, cmd->h.chain, &cmd->h.chain_loc, "chain",
		       NFT_CHAIN_MAXNAMELEN) < 0)
		ret = -1;
	if (name_check(ctx, cmd->h.set, &cmd->h.set_loc, "set",
		       NFT_SET_MAXNAMELEN) < 0)
		ret = -1;
	if (name_check(ctx, cmd->h.obj, &cmd->h.obj_loc,
		       obj_type_name(cmd->h.obj_type), NFT_OBJ_MAXNAMELEN) < 0)
		ret = -1;
	return ret;
}

static int priority_eval(struct eval_ctx *ctx, struct chain *c,
			 unsigned int family)
{
	struct suggest sg;
	struct expr *p = c->priority;
	char name[64];
	long long off = 0, v;
	int base;
	char sign = 0;

	if (p->kind == EXPR_VARIABLE && variable_expand(ctx, &c->priority) < 0)
		return -1;
	p = c->priority;
	if (p->kind == EXPR_VALUE) {
		c->prio = (int32_t)expr_value_u64(p);
		return 0;
	}
	if (p->kind != EXPR_SYMBOL)
		return err(ctx, &p->loc, "invalid priority expression");
	if (sscanf(p->sym.str, "%63s %c %lld", name, &sign, &off) < 1)
		return err(ctx, &p->loc, "invalid priority \"%s\"", p->sym.str);
	if (sign == '-')
		off = -off;
	{
		char *end;

		errno = 0;
		v = strtoll(name, &end, 10);
		if (!*end && !errno && v >= INT32_MIN && v <= INT32_MAX) {
			c->prio = v;
			return 0;
		}
		if (!*end)
			return err(ctx, &p->loc,
				   "priority %s exceeds valid range %d-%d",
				   name, INT32_MIN, INT32_MAX);
	}
	if (prio_lookup(family, c->hooknum, name, &base) < 0)
		return err(ctx, &p->loc,
			   "'%s' is not a valid priority in this family/hook%s",
			   name, suggest_prio(&sg, family, c->hooknum, name));
	v = base + off;
	if (off > INT32_MAX || off < -(long long)INT32_MAX || v < INT32_MIN || v > INT32_MAX)
		return err(ctx, &p->loc, "priority %s %c %lld exceeds valid range %d-%d",
			   name, sign, off < 0 ? -off : off, INT32_MIN, INT32_MAX);
	c->prio = v;
	return 0;
}

/*
 * A trailing "*" makes a device-name prefix ("veth*" hooks every device
 * whose name starts with "veth", "*" every device), which the kernel takes
 * as NFTA_DEVICE_PREFIX since Linux 6.17.  A star anywhere else would be
 * part of an exact name that no one means; the prefix itself is held to
 * the kernel's IFNAMSIZ like a name.
 */
static int device_name_eval(struct eval_ctx *ctx, const struct expr *i)
{
	const char *s = i->sym.str, *star = strchr(s, '*');
	size_t len = strlen(s);
	struct location loc = i->loc;

	if (star && star[1]) {
		/* the caret under the star when the name is written as is */
		if (loc.first_line == loc.last_line &&
		    loc.last_col - loc.first_col + 1 == len + 2 * i->sym.quoted)
			loc.first_col = loc.last_col = loc.first_col +
				i->sym.quoted + (star - s);
		return err(ctx, &loc,
			   "\"*\" must be the last character of device name \"%s\" (a prefix is written \"%.*s*\")",
			   s, (int)(star - s), s);
	}
	if (star && len - 1 >= IFNAMSIZ)
		return err(ctx, &i->loc,
			   "device name prefix \"%s\" is too long, %u characters at most before the \"*\"",
			   s, IFNAMSIZ - 1);
	if (!star && len >= IFNAMSIZ)
		return err(ctx, &i->loc,
			   "device name \"%s\" is too long, %u characters at most",
			   s, IFNAMSIZ - 1);
	return 0;
}

/*
 * The kernel hooks a chain once per device: it refuses (EEXIST) two
 * entries of one chain where one would match what the other does, as it
 * compares them by the shorter one (a prefix without its star, a name with
 * its end), exact duplicates included.  Said here, with both places.
 */
static size_t dev_cmp_len(const char *s)
{
	return dev_is_prefix(s) ? strlen(s) - 1 : strlen(s) + 1;
}

static int device_overlap(struct eval_ctx *ctx, struct chain *c,
			  const struct expr *i, const char *what)
{
	const char *s = i->sym.str;
	const struct expr *j;

	list_for_each_entry(j, &c->devices, list) {
		const char *t = j->sym.str;
		size_t n = dev_cmp_len(s) < dev_cmp_len(t) ?
			   dev_cmp_len(s) : dev_cmp_len(t);

		if (j == i)
			return 0;
		if (strncmp(s, t, n))
			continue;
		if (!strcmp(s, t))
			return error_queue2(ctx->msgs, &i->loc, &j->loc,
					    "device \"%s\" is listed twice", s);
		return error_queue2(ctx->msgs, &i->loc, &j->loc,
				    "\"%s\" and \"%s\" overlap: a %s hooks each device once, by one name or prefix",
				    t, s, what);
	}
	return 0;
}

/* the devices of chain @c, or of a flowtable (@c its hook): @what says
   which, for the messages */
static int devices_eval(struct eval_ctx *ctx, struct chain *c,
			const char *what)
{
	struct expr *e, *next, *i;
	unsigned int n = 0;
	LIST_HEAD(flat);

	list_for_each_entry_safe(e, next, &c->devices, list) {
		bool braced = e->kind == EXPR_SET;

		list_del(&e->list);
		if (e->kind == EXPR_VARIABLE && variable_expand(ctx, &e) < 0) {
			expr_free(e);
			goto fail;
		}
		if (e->kind == EXPR_SET || e->kind == EXPR_LIST) {
			struct expr *j, *jn;

			list_for_each_entry_safe(j, jn, &e->set.exprs, list) {
				list_del(&j->list);
				/* as nft 1.0.6: a bare wildcard (iifname br-*)
				   is no device name in braces */
				if (braced && j->kind == EXPR_SYMBOL &&
				    !j->sym.quoted && j->sym.str[0] &&
				    j->sym.str[strlen(j->sym.str) - 1] == '*') {
					err(ctx, &j->loc,
					    "a device name with a wildcard needs quotes in a device list: \"%s\"",
					    j->sym.str);
					expr_free(j);
					expr_free(e);
					goto fail;
				}
				if (j->kind == EXPR_VARIABLE &&
				    variable_expand(ctx, &j) < 0) {
					expr_free(j);
					expr_free(e);
					goto fail;
				}
				list_add_tail(&j->list, &flat);
			}
			expr_free(e);
		} else {
			list_add_tail(&e->list, &flat);
		}
	}
	list_splice_tail_init(&flat, &c->devices);
	list_for_each_entry(i, &c->devices, list) {
		/* the kernel's NFT_NETDEVICE_MAX */
		if (++n > 256)
			return err(ctx, &i->loc,
				   "too many devices: a %s hooks 256 at most", what);
		if (i->kind != EXPR_SYMBOL)
			return err(ctx, &i->loc, "expected a device name");
		if (device_name_eval(ctx, i) < 0)
			return -1;
		if (device_overlap(ctx, c, i, what) < 0)
			return -1;
	}
	return 0;
fail:
	/* those flattened so far go with the chain */
	list_splice_tail_init(&flat, &c->devices);
	return -1;
}

/*
 * "add chain netdev t c { devices = { d2 }; }" (nft 1.1): devices for a
 * base chain the kernel holds, added (or, with delete chain, removed); the
 * kernel knows its hook and priority
 */
static int chain_devices_eval(struct eval_ctx *ctx, struct chain *c,
			      unsigned int family)
{
	if (family != NFPROTO_NETDEV && family != NFPROTO_INET)
		return err(ctx, &c->dev_loc,
			   "devices can only be given for netdev chains and inet ingress");
	if (!list_empty(&c->rules))
		return err(ctx, &list_first_entry(&c->rules, struct rule,
						  list)->loc,
			   "a chain given by its devices alone takes no rules: add them with add rule");
	if (devices_eval(ctx, c, "chain") < 0)
		return -1;
	if (list_empty(&c->devices))
		return err(ctx, &c->dev_loc, "no device is given");
	return 0;
}

/*
 * A base chain's policy, type, hook and priority, each error told (the
 * priority's names depend on the hook: not checked without one)
 */
static int chain_eval(struct eval_ctx *ctx, struct chain *c,
		      unsigned int family)
{
	struct suggest sg;
	int hook, ret = 0;

	if (c->policy_expr) {
		struct expr *pe = c->policy_expr;

		if (pe->kind == EXPR_VARIABLE && variable_expand(ctx, &c->policy_expr) < 0)
			return -1;
		pe = c->policy_expr;
		if (pe->kind == EXPR_SYMBOL && !strcmp(pe->sym.str, "accept"))
			c->policy = NF_ACCEPT;
		else if (pe->kind == EXPR_SYMBOL && !strcmp(pe->sym.str, "drop"))
			c->policy = NF_DROP;
		else if (pe->kind == EXPR_SYMBOL) {
			suggest_init(&sg, pe->sym.str);
			suggest_add(&sg, "accept");
			suggest_add(&sg, "drop");
			ret = err(ctx, &pe->loc, "policy must be accept or drop%s",
				  suggest_hint(&sg));
		} else
			ret = err(ctx, &pe->loc,
				  "policy must be accept or drop");
		if (!c->base)
			return err(ctx, &pe->loc,
				   "a policy needs a base chain (type, hook and priority)");
	}
	if (!c->base)
		return c->devices_only ? chain_devices_eval(ctx, c, family) : ret;
	if (!chain_type_valid(family, c->type))
		ret = err(ctx, &c->type_loc,
			  "chain type \"%s\" is not supported in family %s%s",
			  c->type, family_name(family),
			  suggest_chain_type(&sg, family, c->type));
	hook = hook_lookup(family, c->hook);
	if (hook < 0)
		return err(ctx, &c->hook_loc,
			   "unknown hook \"%s\" for family %s%s", c->hook,
			   family_name(family), suggest_hook(&sg, family, c->hook));
	c->hooknum = hook;
	if (!strcmp(c->type, "nat") &&
	    (hook == NF_INET_FORWARD || hook == NF_INET_INGRESS))
		ret = err(ctx, &c->hook_loc,
			  "nat chains cannot use the %s hook", c->hook);
	if (priority_eval(ctx, c, family) < 0)
		ret = -1;
	if (devices_eval(ctx, c, "chain") < 0)
		return -1;
	if (family == NFPROTO_NETDEV && list_empty(&c->devices))
		return err(ctx, &c->hook_loc,
			   "netdev base chains need a device: add \"device NAME\"");
	if (family != NFPROTO_NETDEV && !list_empty(&c->devices) &&
	    !(family == NFPROTO_INET && hook == NF_INET_INGRESS))
		return err(ctx, &c->dev_loc,
			   "devices can only be given for netdev chains and inet ingress");
	return ret;
}

/* --- commands ----------------------------------------------------------- */

/* a flowtable's hook (ingress; that and priority 0 without a hook line, as
   nft sends them), priority and devices, read as a netdev chain's */
static int flowtable_eval(struct eval_ctx *ctx, struct flowtable *ft)
{
	struct chain *c = ft->hook;

	if (ft->read_errors)
		return -1;	/* what is wrong with it is told */
	if (c->hook) {
		if (strcmp(c->hook, "ingress"))
			return err(ctx, &c->hook_loc,
				   "a flowtable hooks ingress, not \"%s\"", c->hook);
		c->hooknum = NF_NETDEV_INGRESS;
		if (priority_eval(ctx, c, NFPROTO_NETDEV) < 0)
			return -1;
	}
	return devices_eval(ctx, c, "flowtable");
}

static int obj_eval(struct eval_ctx *ctx, struct obj *o)
{
	const struct obj_ops *ops = obj_ops_by_type(o->type);

	if (o->read_errors)
		return -1;	/* what is wrong with it is told */
	if (o->type != NFT_OBJECT_CT_EXPECT && o->expect.given)
		return err(ctx, &o->loc, "dport, timeout and size are for ct expectations");
	if (ops && ops->eval) {
		struct kind_eval k = KIND_EVAL(ctx);

		return ops->eval(&k, o);
	}
	return 0;
}

static struct cmd *flat_cmd(struct list_head *out, enum cmd_obj obj,
			    const struct handle *h, const char *chain,
			    const struct location *loc, void *data)
{
	struct handle nh;
	struct cmd *cmd;

	handle_copy(&nh, h);
	if (chain) {
		free(nh.chain);
		nh.chain = xstrdup(chain);
	}
	cmd = cmd_alloc(CMD_ADD, obj, &nh, loc, data);
	list_add_tail(&cmd->list, out);
	return cmd;
}

/* table t { chain c { rules } } becomes add table, add chain, add rule */
static void expand_table(struct cmd *cmd, struct list_head *out)
{
	struct table *t = cmd->table;
	struct chain *c, *cn;
	struct rule *r, *rn;
	struct set *st, *stn;
	struct obj *o, *on;
	struct flowtable *ft, *ftn;
	LIST_HEAD(rules);

	cmd->table = NULL;
	list_for_each_entry_safe(c, cn, &t->chains, list) {
		struct cmd *cc;

		list_del(&c->list);
		list_for_each_entry_safe(r, rn, &c->rules, list) {
			list_del(&r->list);
			flat_cmd(&rules, CMD_OBJ_RULE, &cmd->h, c->h.chain, &r->loc, r);
		}
		cc = flat_cmd(out, CMD_OBJ_CHAIN, &cmd->h, c->h.chain, &c->loc, c);
		cc->h.chain_loc = c->h.chain_loc;
		cc->op = cmd->op;
	}
	list_for_each_entry_safe(o, on, &t->objs, list) {
		struct cmd *oc;

		list_del(&o->list);
		oc = flat_cmd(out, CMD_OBJ_OBJ, &cmd->h, NULL, &o->loc, o);
		oc->h.obj = xstrdup(o->h.obj);
		oc->h.obj_loc = o->h.obj_loc;
		oc->h.obj_type = o->type;
		oc->op = cmd->op;
	}
	list_for_each_entry_safe(st, stn, &t->sets, list) {
		struct cmd *sc;

		list_del(&st->list);
		sc = flat_cmd(out, st->is_map ? CMD_OBJ_MAP : CMD_OBJ_SET, &cmd->h,
			      NULL, &st->loc, st);
		free(sc->h.set);
		sc->h.set = xstrdup(st->h.set);
		sc->h.set_loc = st->h.set_loc;
		free(st->h.table);
		st->h.table = xstrdup(cmd->h.table);
		st->h.family = cmd->h.family;
		sc->op = cmd->op;
	}
	list_for_each_entry_safe(ft, ftn, &t->flowtables, list) {
		struct cmd *fc;

		list_del(&ft->list);
		fc = flat_cmd(out, CMD_OBJ_FLOWTABLE, &cmd->h, NULL, &ft->loc, ft);
		fc->h.obj = xstrdup(ft->h.obj);
		fc->h.obj_loc = ft->h.obj_loc;
		fc->op = cmd->op;
	}
	list_splice_tail_init(&rules, out);
	/* the table command itself keeps the flags and comment */
	cmd->table = t;
}

static void expand_chain(struct cmd *cmd, struct list_head *out)
{
	struct chain *c = cmd->chain;
	struct rule *r, *rn;

	list_for_each_entry_safe(r, rn, &c->rules, list) {
		list_del(&r->list);
		flat_cmd(out, CMD_OBJ_RULE, &cmd->h, NULL, &r->loc, r);
	}
}

/* a place in a chain as a transaction builds it: a kernel rule or a command */
struct slot {
	uint64_t	handle;
	struct cmd	*cmd;
	struct nl_item	*item;	/* a rule compiled as it was parsed */
};

static uint32_t slot_id(const struct slot *s)
{
	return s->item ? s->item->rule_id : s->cmd ? s->cmd->h.rule_id : 0;
}

static void slot_insert(struct slot **sl, size_t *n, size_t *cap, size_t at,
			struct slot v)
{
	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 64;
		*sl = xrealloc(*sl, *cap * sizeof(**sl));
	}
	memmove(*sl + at + 1, *sl + at, (*n - at) * sizeof(**sl));
	(*sl)[at] = v;
	(*n)++;
}

static bool same_chain(const struct cmd *c, const struct cmd *cmd)
{
	return c->h.family == cmd->h.family && c->h.table && c->h.chain &&
	       !strcmp(c->h.table, cmd->h.table) &&
	       !strcmp(c->h.chain, cmd->h.chain);
}

/* what command @c of this transaction does to the chain's list of rules */
static void slots_replay(struct slot **sl, size_t *n, size_t *cap,
			 struct cmd *c)
{
	size_t i, at = *n;
	bool anchored = c->h.position || c->h.position_id;

	if (c->op == CMD_DELETE || c->op == CMD_DESTROY) {
		for (i = 0; i < *n; i++)
			if (!(*sl)[i].cmd && (*sl)[i].handle == c->h.handle) {
				memmove(*sl + i, *sl + i + 1, (*n - i - 1) * sizeof(**sl));
				(*n)--;
				break;
			}
		return;
	}
	if (c->rule && c->rule->pack) {
		struct nl_item *it;

		/* rules compiled as they were parsed: appended, in order */
		list_for_each_entry(it, &c->rule->pack->items, list)
			if (it->msg_type == NFT_MSG_NEWRULE)
				slot_insert(sl, n, cap, *n,
					    (struct slot){ .cmd = c, .item = it });
		return;
	}
	for (i = 0; anchored && i < *n; i++)
		if ((c->h.position_id && slot_id(&(*sl)[i]) == c->h.position_id) ||
		    (c->h.position && !(*sl)[i].cmd &&
		     (*sl)[i].handle == c->h.position))
			break;
	if (c->op == CMD_REPLACE) {
		for (i = 0; i < *n; i++)
			if (!(*sl)[i].cmd && (*sl)[i].handle == c->h.handle)
				(*sl)[i].cmd = c;
		return;
	}
	if (anchored && i == *n)
		return;		/* the kernel refuses it */
	if (c->op == CMD_INSERT)
		at = anchored ? i : 0;
	else
		at = anchored ? i + 1 : *n;
	slot_insert(sl, n, cap, at, (struct slot){ .cmd = c });
}

/*
 * "add|insert rule ... index N" names the Nth rule (from 0) of the chain
 * as this transaction has built it so far, as nft does: a rule the kernel
 * holds goes by its handle, one of this batch by its batch id.
 */
static int rule_index_eval(struct eval_ctx *ctx, struct cmd *cmd)
{
	struct nfh_ctx *nfh = ctx->nfh;
	const uint64_t *handles;
	struct slot *sl = NULL;
	size_t n, cap, i;
	struct cmd *c;

	/* the chain's rules now, in the kernel or the offline model, as
	   the plan read them (compile/plan.c) */
	handles = plan_rule_handles(nfh, cmd, &n);
	cap = n;
	sl = xmalloc((cap ? cap : 1) * sizeof(*sl));
	for (i = 0; i < n; i++)
		sl[i] = (struct slot){ .handle = handles[i] };
	list_for_each_entry(c, ctx->cmds, list) {
		if (c == cmd)
			break;
		if (c->op == CMD_FLUSH &&
		    (c->obj == CMD_OBJ_RULESET ||
		     (c->h.family == cmd->h.family && c->h.table &&
		      !strcmp(c->h.table, cmd->h.table) &&
		      (c->obj == CMD_OBJ_TABLE || same_chain(c, cmd)))))
			n = 0;
		else if (c->obj == CMD_OBJ_RULE && same_chain(c, cmd) &&
			 (c->rule || c->op == CMD_DELETE || c->op == CMD_DESTROY))
			slots_replay(&sl, &n, &cap, c);
	}
	if (cmd->h.index >= n) {
		free(sl);
		return err(ctx, &cmd->h.handle_loc,
			   "index %llu is past the last rule of chain %s (it holds %zu rule%s)",
			   (unsigned long long)cmd->h.index, cmd->h.chain, n,
			   n == 1 ? "" : "s");
	}
	if (sl[cmd->h.index].item) {
		nl_item_set_rule_id(sl[cmd->h.index].item, ++nfh->rule_id);
		cmd->h.position_id = sl[cmd->h.index].item->rule_id;
	} else if (sl[cmd->h.index].cmd) {
		c = sl[cmd->h.index].cmd;
		if (!c->h.rule_id)
			c->h.rule_id = ++nfh->rule_id;
		cmd->h.position_id = c->h.rule_id;
	} else {
		cmd->h.position = sl[cmd->h.index].handle;
	}
	cmd->h.index_set = false;
	free(sl);
	return 0;
}

/*
 * rename chain T C NEW: the kernel renames a chain it finds by handle, so
 * the handle is read now (offline: from the model), as nft reads it
 * from its cache
 */
static int rename_eval(struct eval_ctx *ctx, struct cmd *cmd)
{
	struct nfh_ctx *nfh = ctx->nfh;
	const struct handle *nh = &cmd->chain->h;
	uint64_t handle;

	if (name_check(ctx, nh->chain, &nh->chain_loc, "chain",
		       NFT_CHAIN_MAXNAMELEN) < 0 ||
	    name_chars_check(ctx, nh->chain, &nh->chain_loc, "chain") < 0)
		return -1;
	/* read by the plan (compile/plan.c) */
	handle = plan_chain_handle(nfh, cmd);
	if (!handle)
		return err(ctx, &cmd->h.chain_loc,
			   "Could not process chain: No such file or directory");
	cmd->h.handle = handle;
	return 0;
}

static int cmd_eval(struct eval_ctx *ctx, struct cmd *cmd)
{
	unsigned int family = cmd->h.family;

	ctx->cmd = cmd;
	ctx->expanded = 0;
	undef_forget(ctx);
	if (handle_eval(ctx, cmd) < 0)
		return -1;
	if (cmd->op == CMD_RENAME)
		return rename_eval(ctx, cmd);
	switch (cmd->obj) {
	case CMD_OBJ_SET:
	case CMD_OBJ_MAP:
		if (!cmd->set)
			return 0;
		return set_decl_eval(ctx, cmd, cmd->set);
	case CMD_OBJ_ELEMENTS:
		return elems_cmd_eval(ctx, cmd);
	case CMD_OBJ_OBJ:
		ctx->family = cmd->h.family;	/* the table's, for its kind */
		return cmd->object ? obj_eval(ctx, cmd->object) : 0;
	case CMD_OBJ_FLOWTABLE:
		return cmd->flowtable ? flowtable_eval(ctx, cmd->flowtable) : 0;
	case CMD_OBJ_TABLE:
		/* comments were held to 128 bytes as they were read */
		return 0;
	case CMD_OBJ_CHAIN:
		if (!cmd->chain)
			return 0;
		return chain_eval(ctx, cmd->chain, family);
	case CMD_OBJ_RULE:
		if (!cmd->rule)
			return 0;
		if (cmd->rule->pack) {
			/* evaluated as parsed: their errors come out here */
			struct rule_pack *p = cmd->rule->pack;
			bool failed = p->eval_failed ||
				      !list_empty(&p->eval_errs);

			list_splice_tail_init(&p->eval_errs, ctx->msgs);
			return failed ? -1 : 0;
		}
		if (cmd->rule->evaluated)
			return 0;	/* as it was parsed, without errors */
		if (cmd->op == CMD_REPLACE && !cmd->h.handle)
			return err(ctx, &cmd->loc,
				   "replace rule needs a handle: replace rule TABLE CHAIN handle N ...");
		if (cmd->h.index_set && rule_index_eval(ctx, cmd) < 0)
			return -1;
		return rule_eval(ctx, cmd->rule, family);
	default:
		return 0;
	}
}

int eval_rule_stream(struct nfh_ctx *nfh, struct parser_state *state,
		     struct rule *r, const struct handle *h,
		     struct list_head *msgs, bool *anon)
{
	struct cmd cmd = { .op = CMD_ADD, .obj = CMD_OBJ_RULE, .h = *h,
			   .loc = r->loc, .rule = r };
	LIST_HEAD(none);
	struct eval_ctx ctx = {
		.nfh = nfh, .state = state, .msgs = msgs, .cmd = &cmd,
		.cmds = &none,
	};

	int ret;

	plan_rule_stream(nfh);
	ret = rule_eval(&ctx, r, h->family);
	undef_forget(&ctx);
	*anon = ctx.anon_sets > 0;
	return ret;
}

int eval_cmds(struct nfh_ctx *nfh, struct parser_state *state,
	      struct list_head *cmds, struct list_head *msgs)
{
	struct eval_ctx ctx = {
		.nfh = nfh, .state = state, .msgs = msgs,
	};
	struct cmd *cmd, *next;
	LIST_HEAD(flat);
	int ret = 0;

	list_for_each_entry_safe(cmd, next, cmds, list) {
		list_del(&cmd->list);
		list_add_tail(&cmd->list, &flat);
		if ((cmd->op == CMD_ADD || cmd->op == CMD_CREATE) &&
		    cmd->obj == CMD_OBJ_TABLE && cmd->table)
			expand_table(cmd, &flat);
		else if ((cmd->op == CMD_ADD || cmd->op == CMD_CREATE) &&
			 cmd->obj == CMD_OBJ_CHAIN && cmd->chain)
			expand_chain(cmd, &flat);
	}
	list_splice_tail_init(&flat, cmds);
	ctx.cmds = cmds;
	list_for_each_entry(cmd, cmds, list) {
		struct list_head *last = msgs->prev;

		/* what it needs of the kernel first (compile/plan.c); one
		   that failed without an error of its own (its set's
		   declaration was wrong) failed too */
		cmd->failed = plan_reads(nfh, cmd, msgs) < 0 ||
			      cmd_eval(&ctx, cmd) < 0 || msgs->prev != last;
		if (cmd->failed)
			ret = -1;
	}
	undef_forget(&ctx);
	return ret;
}
