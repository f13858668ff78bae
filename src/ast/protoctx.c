// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The protocol context: which header a rule's matches so far put at each
 * base ("meta l4proto tcp": tcp at the transport header), as nft learns it.
 * The evaluator adds dependencies and refuses conflicts with it; the
 * delinearizer reads payload offsets back as header fields with it.
 */
#include <string.h>
#include <linux/if_arp.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>

#include <expr.h>
#include <protoctx.h>
#include <stmt.h>
#include <utils.h>

void proto_ctx_init(struct proto_ctx *pctx, unsigned int family)
{
	memset(pctx, 0, sizeof(*pctx));
	pctx->family = family;
	pctx->icmp_tval = -1;
	switch (family) {
	case NFPROTO_IPV4:
		pctx->desc[PROTO_BASE_NETWORK_HDR] = &proto_ip;
		break;
	case NFPROTO_IPV6:
		pctx->desc[PROTO_BASE_NETWORK_HDR] = &proto_ip6;
		break;
	case NFPROTO_ARP:
		pctx->desc[PROTO_BASE_NETWORK_HDR] = &proto_arp;
		break;
	case NFPROTO_BRIDGE:
		pctx->desc[PROTO_BASE_LL_HDR] = &proto_eth;
		break;
	}
}

/* nft's own name for the link layer of inet and netdev, none known */
static const char *ll_name(const struct proto_ctx *pctx)
{
	return pctx->family == NFPROTO_INET ? "inet" :
	       pctx->family == NFPROTO_NETDEV ? "netdev" : "none";
}

/*
 * the header at @b as nft names it: a vlan tag is the link layer's; one
 * a set of values named (nfh keeps those apart) is the last one's
 */
static const char *desc_name(const struct proto_ctx *pctx, unsigned int b)
{
	if (b == PROTO_BASE_LL_HDR && pctx->vlan)
		return proto_vlan.name;
	if (pctx->desc[b])
		return pctx->desc[b]->name;
	if (b == PROTO_BASE_TRANSPORT_HDR && pctx->th_nseen)
		return pctx->th_seen[pctx->th_nseen - 1]->name;
	if (b != PROTO_BASE_TRANSPORT_HDR && pctx->set_desc[b])
		return pctx->set_desc[b]->name;
	return b == PROTO_BASE_LL_HDR ? ll_name(pctx) : "none";
}

/*
 * as nft prints it: "update network layer protocol context:", then each
 * layer's header, "<-" after the one updated (@elem there: one element
 * of a set, which nft takes in turn); a link layer update after
 * a vlan tag first names the headers below it, as nft stacks them
 * (" saved ll headers: ether", with no line end)
 */
static void debug_print(const struct proto_ctx *pctx, enum proto_base base,
			const struct proto_desc *elem)
{
	static const char *const names[] = {
		[PROTO_BASE_LL_HDR]		= "link layer",
		[PROTO_BASE_NETWORK_HDR]	= "network layer",
		[PROTO_BASE_TRANSPORT_HDR]	= "transport layer",
	};

	if (base == PROTO_BASE_LL_HDR && pctx->vlan) {
		fprintf(pctx->debug, " saved ll headers: %s", proto_eth.name);
		for (unsigned int i = 0; i < pctx->vlan_depth; i++)
			fprintf(pctx->debug, " %s", proto_vlan.name);
	}
	fprintf(pctx->debug, "update %s protocol context:\n", names[base]);
	for (unsigned int b = PROTO_BASE_LL_HDR; b <= PROTO_BASE_TRANSPORT_HDR; b++)
		fprintf(pctx->debug, " %-20s: %s%s\n", names[b],
			b == base && elem ? elem->name : desc_name(pctx, b),
			b == base ? " <-" : "");
	fprintf(pctx->debug, " %-20s: none\n\n", "payload data");
}

/* the header at @base learned (again, maybe the same): nft prints each */
static void set_desc(struct proto_ctx *pctx, enum proto_base base,
		     const struct proto_desc *d)
{
	pctx->desc[base] = d;
	pctx->touched |= 1u << base;
}

void proto_ctx_debug(struct proto_ctx *pctx, FILE *f)
{
	pctx->debug = f;
	for (unsigned int b = PROTO_BASE_LL_HDR; f && b <= PROTO_BASE_TRANSPORT_HDR; b++)
		if (pctx->desc[b] || (b == PROTO_BASE_LL_HDR &&
				      strcmp(ll_name(pctx), "none")))
			debug_print(pctx, b, NULL);
}

static bool rel_is_eq_const(const struct expr *rel)
{
	return rel->kind == EXPR_RELATIONAL &&
	       (rel->op.op == OP_EQ || rel->op.op == OP_IMPLICIT) &&
	       rel->op.right->kind == EXPR_VALUE;
}

/*
 * A meta key names the header above it even when nfh knows no such
 * header; nft then records "unknown", and nothing can be matched above
 * it ("meta l4proto 21 tcp dport 1" is a conflict).  A payload field
 * with an unknown value leaves the context open, as in nft.
 */
static const struct proto_desc *or_unknown(const struct proto_desc *d)
{
	return d ? d : &proto_unknown;
}

static void th_seen_add(struct proto_ctx *pctx, const struct proto_desc *d,
			const struct location *loc)
{
	unsigned int i;

	if (!d)
		return;
	for (i = 0; i < pctx->th_nseen; i++)
		if (pctx->th_seen[i] == d)
			return;
	if (pctx->th_nseen < array_size(pctx->th_seen)) {
		pctx->th_loc[pctx->th_nseen] = loc;
		pctx->th_seen[pctx->th_nseen++] = d;
	}
}

/* the transport header of protocol @v, but one only nft 1.1 knows where
   @pctx is not a listing's (nft 1.0.6 takes it as unknown) */
static const struct proto_desc *th_by_id(const struct proto_ctx *pctx,
					 uint64_t v)
{
	const struct proto_desc *d = proto_by_id(PROTO_BASE_TRANSPORT_HDR, v);

	return d && d->nft11 && !pctx->nft11 ? NULL : d;
}

/* set_elem_desc() of a meta key */
static const struct proto_desc *meta_elem_desc(const struct proto_ctx *pctx,
					       enum nft_meta_keys key, uint64_t v,
					       enum proto_base *base)
{
	switch (key) {
	case NFT_META_L4PROTO:
		*base = PROTO_BASE_TRANSPORT_HDR;
		return or_unknown(th_by_id(pctx, v));
	case NFT_META_NFPROTO:
		return v == NFPROTO_IPV4 ? &proto_ip :
		       v == NFPROTO_IPV6 ? &proto_ip6 : &proto_unknown;
	case NFT_META_PROTOCOL:
		if (pctx->family != NFPROTO_NETDEV &&
		    pctx->family != NFPROTO_BRIDGE)
			return NULL;
		if (v == 0x8100 || v == 0x88a8)
			return &proto_vlan;
		return or_unknown(proto_by_id(PROTO_BASE_NETWORK_HDR, v));
	case NFT_META_IIFTYPE:
		if (pctx->family == NFPROTO_BRIDGE)
			return NULL;
		*base = PROTO_BASE_LL_HDR;
		return v == ARPHRD_ETHER ? &proto_eth : &proto_unknown;
	default:
		return NULL;
	}
}

/*
 * The header one element of a set names, as nft takes it: at the
 * network layer the base of a meta key or a type field; NULL where nft
 * learns nothing from the value (a payload field with an unknown value,
 * a vlan tag).
 */
static const struct proto_desc *set_elem_desc(const struct proto_ctx *pctx,
					      const struct expr *l, uint64_t v,
					      enum proto_base *base)
{
	*base = PROTO_BASE_NETWORK_HDR;
	if (l->kind == EXPR_META)
		return meta_elem_desc(pctx, l->meta.key, v, base);
	if (l->kind == EXPR_CT && l->ct.key == NFT_CT_PROTOCOL) {
		/* nft: only above a known network header */
		*base = PROTO_BASE_TRANSPORT_HDR;
		if (!pctx->desc[PROTO_BASE_NETWORK_HDR])
			return NULL;
		return th_by_id(pctx, v);
	}
	if (l->kind == EXPR_CT && l->ct.key == NFT_CT_L3PROTOCOL) {
		if (pctx->family != NFPROTO_INET &&
		    pctx->family != NFPROTO_BRIDGE &&
		    pctx->family != NFPROTO_NETDEV)
			return NULL;
		return v == NFPROTO_IPV4 ? &proto_ip :
		       v == NFPROTO_IPV6 ? &proto_ip6 : NULL;
	}
	if (l->kind != EXPR_PAYLOAD || !l->payload.tmpl || l->payload.is_raw)
		return NULL;
	if ((l->payload.desc == &proto_ip && !strcmp(l->payload.tmpl->name, "protocol")) ||
	    (l->payload.desc == &proto_ip6 && !strcmp(l->payload.tmpl->name, "nexthdr"))) {
		*base = PROTO_BASE_TRANSPORT_HDR;
		return th_by_id(pctx, v);
	}
	if ((l->payload.desc == &proto_eth || l->payload.desc == &proto_vlan) &&
	    !strcmp(l->payload.tmpl->name, "type")) {
		/* a vlan tag stacks on the link layer */
		if (v == 0x8100 || v == 0x88a8) {
			*base = PROTO_BASE_LL_HDR;
			return &proto_vlan;
		}
		return proto_by_id(PROTO_BASE_NETWORK_HDR, v);
	}
	return NULL;
}

/*
 * "meta l4proto { tcp, udp }": nft takes each element in turn, so the
 * network and link layers end with the last one it knows, and the
 * transport layer holds several; a header that needs another is then a
 * conflict (set_conflict()).  Sets of ranges or prefixes teach nothing.
 */
static void proto_ctx_update_set(struct proto_ctx *pctx, const struct expr *rel)
{
	const struct expr *l = rel->op.left, *set = rel->op.right;
	const struct expr *i, *k;
	const struct proto_desc *d;
	enum proto_base base;

	list_for_each_entry(i, &set->set.exprs, list) {
		k = i->kind == EXPR_SET_ELEM ? i->elem.key : i;
		if (!k || k->kind != EXPR_VALUE)
			continue;
		d = set_elem_desc(pctx, l, expr_value_u64(k), &base);
		if (!d)
			continue;
		if (base == PROTO_BASE_TRANSPORT_HDR) {
			th_seen_add(pctx, d, &rel->loc);
		} else {
			pctx->set_desc[base] = d;
			pctx->set_loc[base] = &rel->loc;
		}
		if (pctx->debug)
			debug_print(pctx, base, d);
	}
}

/*
 * nft takes the transport protocol from a set of them too ("meta l4proto
 * { tcp, udp } dnat to 1.1.1.1:53"): each element it knows updates its
 * context, so a port after the set has a protocol (th_seen[]: every
 * l4proto value does, an unknown one being "unknown")
 */
bool proto_ctx_th_known(const struct proto_ctx *pctx)
{
	return pctx->desc[PROTO_BASE_TRANSPORT_HDR] || pctx->th_nseen;
}

/* a single value: nft's context is nfh's again */
static void update_single(struct proto_ctx *pctx, const struct expr *rel)
{
	const struct proto_desc *d;
	enum proto_base base;

	d = set_elem_desc(pctx, rel->op.left, expr_value_u64(rel->op.right),
			  &base);
	if (d && base == PROTO_BASE_TRANSPORT_HDR)
		th_seen_add(pctx, d, &rel->loc);
	else if (d)
		pctx->set_desc[base] = NULL;
}

static bool is_icmp_type_eq(const struct expr *rel)
{
	const struct expr *l = rel->op.left;

	return rel->kind == EXPR_RELATIONAL && l->kind == EXPR_PAYLOAD &&
	       l->payload.tmpl &&
	       (l->payload.desc == &proto_icmp || l->payload.desc == &proto_icmp6) &&
	       !strcmp(l->payload.tmpl->name, "type") &&
	       (rel->op.op == OP_EQ || rel->op.op == OP_IMPLICIT);
}

static void update_icmp_type(struct proto_ctx *pctx, const struct expr *rel)
{
	const struct expr *t = rel->op.right;

	/* a set counts as its first type, as in nft */
	if (t->kind == EXPR_SET && !list_empty(&t->set.exprs))
		t = list_first_entry(&t->set.exprs, struct expr, list);
	pctx->icmp_type = true;
	if (t->kind == EXPR_VALUE)
		pctx->icmp_tval = expr_value_u64(t);
}

static void update_meta(struct proto_ctx *pctx, enum nft_meta_keys key,
			uint64_t v)
{
	const struct proto_desc *d;

	switch (key) {
	case NFT_META_L4PROTO:
		d = th_by_id(pctx, v);
		set_desc(pctx, PROTO_BASE_TRANSPORT_HDR, or_unknown(d));
		pctx->th_id = v;
		break;
	case NFT_META_PROTOCOL:
		/* in inet nft learns the header from nfproto alone:
		   "meta protocol ip ip saddr x" tests nfproto too */
		if (pctx->family == NFPROTO_INET)
			break;
		/* nor in the families whose hook sits above the link layer
		   (ip, ip6, arp); in netdev and bridge it names the network
		   header again even over one known already ("ip frag-off 1
		   meta protocol ip6 ip ecn ce" is a conflict, as in nft) */
		if (pctx->family != NFPROTO_NETDEV &&
		    pctx->family != NFPROTO_BRIDGE)
			break;
		d = proto_by_id(PROTO_BASE_NETWORK_HDR, v);
		set_desc(pctx, PROTO_BASE_NETWORK_HDR, or_unknown(d));
		break;
	case NFT_META_NFPROTO:
		set_desc(pctx, PROTO_BASE_NETWORK_HDR,
			 v == NFPROTO_IPV4 ? &proto_ip :
			 v == NFPROTO_IPV6 ? &proto_ip6 : &proto_unknown);
		break;
	case NFT_META_IIFTYPE:
		/* the bridge family's link layer is ethernet whatever it says */
		if (pctx->family != NFPROTO_BRIDGE)
			set_desc(pctx, PROTO_BASE_LL_HDR,
				 v == ARPHRD_ETHER ? &proto_eth : &proto_unknown);
		break;
	default:
		break;
	}
}

static void update_ct(struct proto_ctx *pctx, enum nft_ct_keys key, uint64_t v)
{
	/* ct protocol names the transport header, as nft takes it: over a
	   network header known already (not in inet alone) */
	/* a value nft knows no header for leaves the context as it was */
	const struct proto_desc *d = NULL;

	if (key == NFT_CT_PROTOCOL &&
	    (pctx->desc[PROTO_BASE_NETWORK_HDR] == &proto_ip ||
	     pctx->desc[PROTO_BASE_NETWORK_HDR] == &proto_ip6))
		d = th_by_id(pctx, v);
	if (d)
		set_desc(pctx, PROTO_BASE_TRANSPORT_HDR, d);
	/* nft takes ct l3proto as the network protocol, as meta nfproto,
	   where the family leaves it open: an ip6 table stays ip6 */
	if (key == NFT_CT_L3PROTOCOL &&
	    (pctx->family == NFPROTO_INET || pctx->family == NFPROTO_BRIDGE ||
	     pctx->family == NFPROTO_NETDEV) &&
	    (v == NFPROTO_IPV4 || v == NFPROTO_IPV6))
		set_desc(pctx, PROTO_BASE_NETWORK_HDR,
			 v == NFPROTO_IPV4 ? &proto_ip : &proto_ip6);
}

static void update_payload(struct proto_ctx *pctx, const struct expr *l,
			   uint64_t v)
{
	const char *name = l->payload.tmpl->name;
	const struct proto_desc *d;

	if ((l->payload.desc == &proto_ip && !strcmp(name, "protocol")) ||
	    (l->payload.desc == &proto_ip6 && !strcmp(name, "nexthdr"))) {
		/* a protocol nft knows no header for: nft prints nothing */
		pctx->desc[PROTO_BASE_TRANSPORT_HDR] = th_by_id(pctx, v);
		if (pctx->desc[PROTO_BASE_TRANSPORT_HDR])
			pctx->touched |= 1u << PROTO_BASE_TRANSPORT_HDR;
		pctx->th_id = v;
	} else if ((l->payload.desc == &proto_eth || l->payload.desc == &proto_vlan) &&
		   !strcmp(name, "type")) {
		/* 8021ad is a vlan tag too, as nft takes it; a type nfh
		   knows no header for leaves an ip, ip6 or arp table's own */
		d = proto_by_id(PROTO_BASE_NETWORK_HDR, v);
		if ((v == 0x8100 || v == 0x88a8) && l->payload.desc == &proto_vlan &&
		    pctx->vlan)
			pctx->vlan_depth++;
		if (v == 0x8100 || v == 0x88a8) {
			pctx->vlan = true;
			pctx->touched |= 1u << PROTO_BASE_LL_HDR;
		} else if (d) {
			set_desc(pctx, PROTO_BASE_NETWORK_HDR, d);
		}
	}
}

static void proto_ctx_update_one(struct proto_ctx *pctx,
				 const struct expr *rel);

/* nft prints each header a match names, the same one again too */
void proto_ctx_update(struct proto_ctx *pctx, const struct expr *rel)
{
	pctx->touched = 0;
	proto_ctx_update_one(pctx, rel);
	proto_ctx_debug_again(pctx);
}

void proto_ctx_debug_again(const struct proto_ctx *pctx)
{
	for (unsigned int b = PROTO_BASE_LL_HDR; pctx->debug &&
					       b <= PROTO_BASE_TRANSPORT_HDR; b++)
		if (pctx->touched & (1u << b))
			debug_print(pctx, b, NULL);
}

static void proto_ctx_update_one(struct proto_ctx *pctx,
				 const struct expr *rel)
{
	const struct expr *l;
	uint64_t v;

	if (rel->kind == EXPR_RELATIONAL &&
	    (rel->op.op == OP_EQ || rel->op.op == OP_IMPLICIT) &&
	    rel->op.right->kind == EXPR_SET)
		proto_ctx_update_set(pctx, rel);
	if (rel_is_eq_const(rel))
		update_single(pctx, rel);
	if (is_icmp_type_eq(rel))
		update_icmp_type(pctx, rel);
	if (!rel_is_eq_const(rel))
		return;
	l = rel->op.left;
	v = expr_value_u64(rel->op.right);
	if (l->kind == EXPR_CT)
		update_ct(pctx, l->ct.key, v);
	else if (l->kind == EXPR_META)
		update_meta(pctx, l->meta.key, v);
	else if (l->kind == EXPR_PAYLOAD && l->payload.tmpl)
		update_payload(pctx, l, v);
}

unsigned int proto_nh_sets(const struct list_head *stmts, const struct stmt *upto,
			   unsigned int family, unsigned int *mask)
{
	const struct stmt *i;
	unsigned int last = 0, m = 0;
	bool nfproto;

	list_for_each_entry(i, stmts, list) {
		const struct expr *rel, *l, *e;
		unsigned int n = 0, nl = 0;

		if (i == upto)
			break;
		if (i->kind != STMT_EXPRESSION || i->expr->kind != EXPR_RELATIONAL)
			continue;
		rel = i->expr;
		l = rel->op.left;
		if (rel->op.right->kind != EXPR_SET ||
		    (rel->op.op != OP_EQ && rel->op.op != OP_IMPLICIT))
			continue;
		if (!(l->kind == EXPR_PAYLOAD && l->payload.tmpl &&
		      (l->payload.desc == &proto_eth || l->payload.desc == &proto_vlan) &&
		      !strcmp(l->payload.tmpl->name, "type")) &&
		    !(l->kind == EXPR_META && l->meta.key == NFT_META_PROTOCOL &&
		      family != NFPROTO_INET) &&
		    !(l->kind == EXPR_META && l->meta.key == NFT_META_NFPROTO &&
		      family == NFPROTO_INET))
			continue;
		nfproto = l->kind == EXPR_META && l->meta.key == NFT_META_NFPROTO;
		list_for_each_entry(e, &rel->op.right->set.exprs, list) {
			const struct expr *k = e->kind == EXPR_SET_ELEM ? e->elem.key : e;
			uint64_t v;

			if (!k || k->kind != EXPR_VALUE)
				continue;
			v = expr_value_u64(k);
			if (v == (nfproto ? NFPROTO_IPV4 : 0x0800))
				n |= 1, nl = 1;
			else if (v == (nfproto ? NFPROTO_IPV6 : 0x86dd))
				n |= 2, nl = 2;
		}
		m = n;
		last = nl;
	}
	if (mask)
		*mask = m;
	return last;
}

