// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * reject [with icmp|icmpv6|icmpx CODE | with tcp reset]: the packet is
 * dropped and answered (the kernel's "reject" expression).  Without a
 * code the answer is port-unreachable of the packet's network protocol:
 * in inet, netdev and bridge that is icmpx unless a match before names
 * the protocol.  STMT_REJECT stays in the enum: the evaluator ends a rule
 * at it, and delinearize's postprocess drops the dependency it added and
 * names the icmp flavour the match before it implies.
 */
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include <libnftnl/expr.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>

#include <ctx.h>
#include <datatype.h>
#include <kind.h>
#include <proto.h>
#include <protoctx.h>
#include <reject.h>

int stmt_reject_with(struct stmt *s, const char *proto,
		     const struct location *ploc, struct expr *code,
		     struct list_head *msgs)
{
	if (!strcmp(proto, "tcp")) {
		if (code->kind != EXPR_SYMBOL || strcmp(code->sym.str, "reset")) {
			error_queue(msgs, &code->loc,
				    "expected \"reset\" after \"reject with tcp\"");
			expr_free(code);
			return -1;
		}
		expr_free(code);
		s->reject.type = NFT_REJECT_TCP_RST;
		return 0;
	}
	if (!strcmp(proto, "icmp")) {
		s->reject.type = NFT_REJECT_ICMP_UNREACH;
		s->reject.family = NFPROTO_IPV4;
	} else if (!strcmp(proto, "icmpv6") || !strcmp(proto, "icmp6")) {
		s->reject.type = NFT_REJECT_ICMP_UNREACH;
		s->reject.family = NFPROTO_IPV6;
	} else if (!strcmp(proto, "icmpx")) {
		s->reject.type = NFT_REJECT_ICMPX_UNREACH;
	} else {
		expr_free(code);
		return error_queue(msgs, ploc,
				   "unknown reject type \"%s\"; expected icmp, icmpv6, icmpx or tcp",
				   proto);
	}
	s->reject.expr = code;
	return 0;
}

/* inet, netdev and bridge: the network protocol is what a match says */
static bool family_mixed(unsigned int family)
{
	return family == NFPROTO_INET || family == NFPROTO_NETDEV ||
	       family == NFPROTO_BRIDGE;
}

/* the network protocols the last set of ether types before @s names */
static unsigned int nh_sets_mask(const struct kind_eval *k,
				 const struct stmt *s)
{
	unsigned int m;

	proto_nh_sets(k->stmts, s, k->family, &m);
	return m;
}

/* a bare reject in inet, netdev and bridge: a known network protocol
   gets its own port-unreachable */
static void reject_default(struct kind_eval *k, struct stmt *s)
{
	const struct proto_desc *nh = k->pctx->desc[PROTO_BASE_NETWORK_HDR];

	/*
	 * as nft, after a set of ether types of one network protocol
	 * ("ether type { ip6 }"); of both, nft takes the last one's
	 * port-unreachable code for either (an ipv4 packet gets icmp
	 * code 4, frag-needed): nfh stays with icmpx there.  The set
	 * counts over an ip or ip6 match before it, as for nft the
	 * last protocol named is the one ("ip saddr x ether type
	 * { ip6 } reject": icmpv6, a rule that matches nothing)
	 */
	if (!nh || (nh != &proto_ip && nh != &proto_ip6) ||
	    k->pctx->set_desc[PROTO_BASE_NETWORK_HDR]) {
		unsigned int m = nh_sets_mask(k, s);

		if (m == 1)
			nh = &proto_ip;
		else if (m == 2)
			nh = &proto_ip6;
	}
	if (nh == &proto_ip || nh == &proto_ip6) {
		s->reject.type = NFT_REJECT_ICMP_UNREACH;
		s->reject.family = nh == &proto_ip ? NFPROTO_IPV4 : NFPROTO_IPV6;
		s->reject.icmp_code = nh == &proto_ip ? 3 : 4;
	}
}

/* "with icmp CODE", "with icmpv6 CODE": the network protocol it answers */
static int reject_icmp_dep(struct kind_eval *k, struct stmt *s,
			   const struct proto_desc *have)
{
	const struct proto_desc *want = s->reject.family == NFPROTO_IPV4 ?
					&proto_ip : &proto_ip6;

	if (family_mixed(k->family)) {
		/* a set of ether types with this protocol among them
		   is the test already, as nft takes it */
		if (have != &proto_ip && have != &proto_ip6 &&
		    proto_nh_sets(k->stmts, s, k->family, NULL) ==
		    (want == &proto_ip ? 1u : 2u))
			return 0;
		return k->dep(k, &s->loc, PROTO_BASE_NETWORK_HDR, want);
	}
	if ((k->family == NFPROTO_IPV4 ? &proto_ip : &proto_ip6) != want)
		/* the table's family decides, not a match before
		   ("ether type arp reject with icmp ..." in ip) */
		return error_queue(k->msgs, &s->loc,
				   "reject with %s is not valid in family %s",
				   want == &proto_ip ? "icmp" : "icmpv6",
				   k->family_name);
	return 0;
}

/* where it may answer: the network and link layer the rule matched */
static int reject_where(struct kind_eval *k, const struct stmt *s)
{
	const struct proto_ctx *pctx = k->pctx;
	const struct proto_desc *have = pctx->desc[PROTO_BASE_NETWORK_HDR];

	/* after "meta protocol arp" nothing is left to answer, as in nft
	   (ip, ip6 and arp know their network header: no match changes it;
	   an inet table takes an explicit icmpx reject after any); a set
	   after it counts as its last element ("meta protocol { ip, arp }") */
	const struct proto_desc *last = pctx->set_desc[PROTO_BASE_NETWORK_HDR] ?
					pctx->set_desc[PROTO_BASE_NETWORK_HDR] : have;

	if (last && last != &proto_ip && last != &proto_ip6 &&
	    k->family != NFPROTO_IPV4 && k->family != NFPROTO_IPV6 &&
	    k->family != NFPROTO_ARP &&
	    (k->family != NFPROTO_INET ||
	     s->reject.type != NFT_REJECT_ICMPX_UNREACH))
		return error_queue(k->msgs, &s->loc,
				   "cannot reject this network family");
	/* netdev answers on ethernet only ("meta iiftype ppp reject") */
	if (k->family == NFPROTO_NETDEV &&
	    pctx->desc[PROTO_BASE_LL_HDR] == &proto_unknown)
		return error_queue(k->msgs, &s->loc,
				   "cannot reject from this link layer protocol");
	if (k->family == NFPROTO_NETDEV &&
	    pctx->set_desc[PROTO_BASE_LL_HDR] == &proto_unknown)
		return error_queue2(k->msgs, &s->loc,
				    pctx->set_loc[PROTO_BASE_LL_HDR],
				    "cannot reject from this link layer protocol (nft takes it from the set's last element, which is not ethernet)");
	return 0;
}

static int reject_eval(struct kind_eval *k, struct stmt *s)
{
	const struct proto_desc *have = k->pctx->desc[PROTO_BASE_NETWORK_HDR];
	const struct datatype *dt = &icmpx_code_type;
	struct expr *lhs;
	int ret;

	if (reject_where(k, s) < 0)
		return -1;
	/* nft puts the dependencies of a reject first in the rule */
	k->deps_before(k, list_first_entry(k->stmts, struct stmt, list));

	if (k->family == NFPROTO_ARP)
		return error_queue(k->msgs, &s->loc,
				   "reject is not supported in the arp family");
	if (s->reject.type < 0 && family_mixed(k->family)) {
		reject_default(k, s);
		return 0;
	}
	if (s->reject.type == NFT_REJECT_TCP_RST) {
		if (k->dep(k, &s->loc, PROTO_BASE_TRANSPORT_HDR, &proto_tcp) < 0)
			return -1;
		return 0;
	}
	if (!s->reject.expr)
		return 0;
	if (s->reject.type == NFT_REJECT_ICMP_UNREACH) {
		dt = s->reject.family == NFPROTO_IPV4 ? &icmp_code_type :
							&icmpv6_code_type;
		if (reject_icmp_dep(k, s, have) < 0)
			return -1;
	}
	lhs = constant_expr_alloc(&internal_location, dt, BYTEORDER_BIG, 8, NULL);
	lhs->kind = EXPR_META;	/* only its type matters */
	ret = k->rhs(k, lhs, &s->reject.expr);
	free(lhs);
	if (ret == 0)
		s->reject.icmp_code = expr_value_u64(s->reject.expr);
	return ret;
}

static int reject_linearize(struct kind_lin *k, const struct stmt *s)
{
	struct nftnl_expr *e = k->add(k, "reject");
	int type = s->reject.type, code = s->reject.icmp_code;

	if (type < 0) {
		/* the default depends on the family, as in nft */
		switch (k->family) {
		case NFPROTO_IPV4:
			type = NFT_REJECT_ICMP_UNREACH;
			code = 3;	/* port-unreachable */
			break;
		case NFPROTO_IPV6:
			type = NFT_REJECT_ICMP_UNREACH;
			code = 4;	/* port-unreachable */
			break;
		default:
			type = NFT_REJECT_ICMPX_UNREACH;
			code = NFT_REJECT_ICMPX_PORT_UNREACH;
			break;
		}
	}
	if (type == NFT_REJECT_TCP_RST)
		code = 0;
	nftnl_expr_set_u32(e, NFTNL_EXPR_REJECT_TYPE, type);
	nftnl_expr_set_u8(e, NFTNL_EXPR_REJECT_CODE, code < 0 ? 0 : code);
	return 0;
}

static void reject_delinearize(struct kind_delin *k,
			       const struct nftnl_expr *e)
{
	struct stmt *s = stmt_alloc(&internal_location, STMT_REJECT);

	s->reject.type = nftnl_expr_get_u32(e, NFTNL_EXPR_REJECT_TYPE);
	s->reject.icmp_code = nftnl_expr_get_u8(e, NFTNL_EXPR_REJECT_CODE);
	s->reject.family = k->family;
	k->add_stmt(k, s);
}

/* the code's type, and the words before it ("with icmp"); NULL: nft
   lists the reject bare */
static const struct datatype *reject_code_type(const struct stmt *s,
					       const char **with)
{
	switch (s->reject.type) {
	case NFT_REJECT_TCP_RST:
		*with = " with tcp reset";
		return NULL;
	case NFT_REJECT_ICMPX_UNREACH:
		if (s->reject.icmp_code == NFT_REJECT_ICMPX_PORT_UNREACH &&
		    !s->reject.print_default)
			return NULL;
		*with = " with icmpx";
		return &icmpx_code_type;
	}
	if (s->reject.family == NFPROTO_IPV4 && s->reject.icmp_code == 3 &&
	    !s->reject.print_default)
		return NULL;
	if (s->reject.family == NFPROTO_IPV6 && s->reject.icmp_code == 4 &&
	    !s->reject.print_default)
		return NULL;
	if (s->reject.family == NFPROTO_IPV6) {
		*with = " with icmpv6";
		return &icmpv6_code_type;
	}
	*with = " with icmp";
	return &icmp_code_type;
}

static void reject_print(struct kind_print *k, const struct stmt *s)
{
	const char *with = "";
	const struct datatype *dt = reject_code_type(s, &with);
	const struct symbol *sym;

	fprintf(k->f, "reject%s", with);
	if (!dt)
		return;
	sym = symbol_by_value(dt->symbols, s->reject.icmp_code);
	if (sym && !(k->octx->flags & NFH_OUTPUT_NUMERIC))
		fprintf(k->f, " %s", sym->name);
	else
		fprintf(k->f, " %d", s->reject.icmp_code);
}

static json_t *reject_json(struct kind_json *k, const struct stmt *s)
{
	const struct datatype *dt;
	const struct symbol *sym;
	const char *type;
	json_t *o;

	switch (s->reject.type) {
	case NFT_REJECT_TCP_RST:
		return kind_json_wrap("reject", kind_json_wrap("type",
					json_string("tcp reset")));
	case NFT_REJECT_ICMPX_UNREACH:
		type = "icmpx";
		dt = &icmpx_code_type;
		break;
	default:
		/* nft knows no family after a set of ether types: null */
		if (s->reject.family_of_set &&
		    s->reject.icmp_code == (s->reject.family == NFPROTO_IPV6 ? 4 : 3))
			return kind_json_wrap("reject", json_null());
		if (s->reject.family == NFPROTO_IPV6) {
			type = "icmpv6";
			dt = &icmpv6_code_type;
		} else {
			type = "icmp";
			dt = &icmp_code_type;
		}
		break;
	}
	o = kind_json_wrap("type", json_string(type));
	sym = symbol_by_value(dt->symbols, s->reject.icmp_code);
	if (k->octx->flags & NFH_OUTPUT_NUMERIC)
		sym = NULL;
	o = kind_json_set(o, "expr", sym ? json_string(sym->name) :
					   json_integer(s->reject.icmp_code));
	return kind_json_wrap("reject", o);
}

/* null, or { "type": "icmp"|"icmpv6"|"icmpx"|"tcp reset", "expr": CODE } */
static struct stmt *reject_parse_json(struct kind_jparse *k, const char *key,
				      json_t *o, const struct location *loc)
{
	static const char *const keys[] = { "type", "expr", NULL };
	struct stmt *s = stmt_alloc(loc, STMT_REJECT);
	const char *type, *proto;
	struct location tloc;
	struct expr *code;

	s->reject.type = -1;
	s->reject.icmp_code = -1;
	if (json_is_null(o))
		return s;
	if (!json_is_object(o) || k->check_keys(k, o, "reject", keys) < 0) {
		k->error(k, o, "reject: expected null or an object");
		goto fail;
	}
	type = k->get_str(k, o, "type", false);
	if (!type) {
		if (json_object_get(o, "expr"))
			k->error(k, o, "reject: an \"expr\" needs a \"type\"");
		else
			return s;
		goto fail;
	}
	tloc = k->loc(k, json_object_get(o, "type"));
	if (!strcmp(type, "tcp reset")) {
		proto = "tcp";
		code = symbol_expr_alloc(&tloc, "reset", false);
	} else {
		proto = type;
		if (!json_object_get(o, "expr")) {
			k->error(k, o, "reject: type \"%s\" needs an \"expr\"", type);
			goto fail;
		}
		code = k->expr(k, json_object_get(o, "expr"));
		if (!code)
			goto fail;
	}
	if (stmt_reject_with(s, proto, &tloc, code, k->msgs) < 0) {
		k->failed(k);
		goto fail;
	}
	return s;
fail:
	stmt_free(s);
	return NULL;
}

static void reject_destroy(struct stmt *s)
{
	expr_free(s->reject.expr);
}

static const struct stmt_ops reject_ops = {
	.name		= "reject",
	.nl_name	= "reject",
	.kind		= STMT_REJECT,
	.bare		= true,	/* "reject" alone answers port-unreachable */
	.eval		= reject_eval,
	.linearize	= reject_linearize,
	.delinearize	= reject_delinearize,
	.print		= reject_print,
	.json		= reject_json,
	.parse_json	= reject_parse_json,
	.destroy	= reject_destroy,
};
STMT_OPS_REGISTER(reject_ops);
