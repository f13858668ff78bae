// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Packet traces: the NFT_MSG_TRACE messages the kernel multicasts on
 * NFNLGRP_NFTRACE for packets with nftrace set, printed as nft monitor
 * trace prints them.
 *
 * A trace message is untrusted input: libnftnl checks each attribute's type
 * and length, and the header dumps are decoded only as far as their bytes
 * go.  The rule a message names by handle is looked up in a dumped cache,
 * which is dumped again once when a handle is not in it.
 */
#include <arpa/inet.h>
#include <string.h>
#include <net/if_arp.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include <libnftnl/rule.h>
#include <libnftnl/trace.h>

#include <cache.h>
#include <ctx.h>
#include <delinearize.h>
#include <erec.h>
#include <print.h>
#include <payload.h>
#include <proto.h>
#include <trace.h>
#include <nlalloc.h>
#include <meta.h>

/*
 * The fields a trace shows of each header, in the order nft shows them.
 * Fields another field implies (ether type, ip version and hdrlength) and
 * the ones that say little about the packet (checksums, tcp sequence
 * numbers) are left out.
 */
struct trace_hdr {
	const struct proto_desc	*desc;
	const char		*fields[9];
};

static const struct trace_hdr trace_hdrs[] = {
	{ &proto_eth,	{ "saddr", "daddr" } },
	{ &proto_arp,	{ "operation" } },
	{ &proto_ip,	{ "saddr", "daddr", "dscp", "ecn", "ttl", "id",
			  "protocol", "length" } },
	{ &proto_ip6,	{ "saddr", "daddr", "dscp", "ecn", "hoplimit",
			  "flowlabel", "nexthdr", "length" } },
	{ &proto_icmp,	{ "type", "code" } },
	{ &proto_icmp6,	{ "type", "code" } },
	{ &proto_tcp,	{ "sport", "dport", "flags", "window" } },
	{ &proto_udp,	{ "sport", "dport", "length" } },
};

static const struct trace_hdr *trace_hdr(const struct proto_desc *d)
{
	for (unsigned int i = 0; i < array_size(trace_hdrs); i++)
		if (trace_hdrs[i].desc == d)
			return &trace_hdrs[i];
	return NULL;
}

/* @len bits at bit @off of @p, for fields up to 64 bits long */
static uint64_t bits_get(const uint8_t *p, unsigned int off, unsigned int len)
{
	uint64_t v = 0;

	for (unsigned int i = off; i < off + len; i++)
		v = v << 1 | ((p[i / 8] >> (7 - i % 8)) & 1);
	return v;
}

static void match_add(struct list_head *out, struct expr *lhs,
		      struct expr *rhs)
{
	struct expr *rel = relational_expr_alloc(&internal_location, OP_EQ,
						 lhs, rhs);

	list_add_tail(&rel->list, out);
}

static void field_add(struct list_head *out, const struct proto_desc *d,
		      const struct proto_field *f, const uint8_t *p)
{
	struct expr *v;

	if (f->len > 64) {
		/* addresses: whole bytes */
		v = constant_expr_alloc(&internal_location, f->dtype,
					f->byteorder, f->len, p + f->offset / 8);
	} else {
		v = constant_expr_u64(&internal_location, f->dtype,
				      f->byteorder, f->len,
				      bits_get(p, f->offset, f->len));
	}
	match_add(out, payload_expr_alloc(&internal_location, d, f), v);
}

static void fields_add(struct list_head *out, const struct proto_desc *d,
		       const uint8_t *p, unsigned int bits)
{
	const struct trace_hdr *h = trace_hdr(d);
	const struct proto_field *f;

	for (unsigned int i = 0; h && i < array_size(h->fields) && h->fields[i]; i++) {
		f = proto_field_lookup(d, h->fields[i]);
		if (f && f->offset + f->len <= bits)
			field_add(out, d, f, p);
	}
}

/* icmp echo messages carry an id and a sequence number after the checksum */
static unsigned int icmp_echo_add(struct list_head *out,
				  const struct proto_desc *d, const uint8_t *p,
				  unsigned int bits)
{
	unsigned int type = p[0];
	bool echo = d == &proto_icmp ? type == 0 || type == 8 :
				       type == 128 || type == 129;

	if (!echo || bits < 64)
		return 32;
	field_add(out, d, proto_field_lookup(d, "id"), p);
	field_add(out, d, proto_field_lookup(d, "sequence"), p);
	return 64;
}

/* the transport header's bytes past the decoded fields, as raw bits */
static void raw_add(struct list_head *out, const uint8_t *p, unsigned int from,
		    unsigned int bits)
{
	unsigned int len = bits - from;

	if (from >= bits || len > NFH_VAL_MAXLEN * 8)
		return;
	match_add(out, payload_raw_alloc(&internal_location,
					 PROTO_BASE_TRANSPORT_HDR, from, len),
		  constant_expr_alloc(&internal_location, &integer_type,
				      BYTEORDER_BIG, len, p + from / 8));
}

static void transport_add(struct list_head *out, const struct nftnl_trace *t,
			  unsigned int l4proto)
{
	const struct proto_desc *d;
	const uint8_t *p;
	unsigned int bits, used = 0;
	uint32_t n;

	if (!nftnl_trace_is_set(t, NFTNL_TRACE_TRANSPORT_HEADER))
		return;
	p = nftnl_trace_get_data(t, NFTNL_TRACE_TRANSPORT_HEADER, &n);
	bits = n * 8;
	d = proto_by_id(PROTO_BASE_TRANSPORT_HDR, l4proto);
	if (d && trace_hdr(d) && bits >= 32) {
		fields_add(out, d, p, bits);
		if (d == &proto_icmp || d == &proto_icmp6)
			used = icmp_echo_add(out, d, p, bits);
		else if (d == &proto_udp)
			used = 64;
		else if (d == &proto_tcp)
			used = bits >= 104 ? (p[12] >> 4) * 32 : bits;
	}
	raw_add(out, p, used, bits);
}

/* returns the transport protocol, or -1 */
static int network_add(struct list_head *out, const struct nftnl_trace *t,
		       const struct proto_desc *d)
{
	const uint8_t *p;
	unsigned int bits;
	uint32_t n;

	if (!d || !nftnl_trace_is_set(t, NFTNL_TRACE_NETWORK_HEADER))
		return -1;
	p = nftnl_trace_get_data(t, NFTNL_TRACE_NETWORK_HEADER, &n);
	bits = n * 8;
	fields_add(out, d, p, bits);
	if (d == &proto_ip && bits >= 160 && !(bits_get(p, 50, 14)))
		return p[9];
	if (d == &proto_ip6 && bits >= 320)
		return p[6];
	return -1;
}

static const struct proto_desc *link_add(struct list_head *out,
					 const struct nftnl_trace *t)
{
	const uint8_t *p;
	uint32_t n;

	if (!nftnl_trace_is_set(t, NFTNL_TRACE_LL_HEADER) ||
	    !nftnl_trace_is_set(t, NFTNL_TRACE_IIFTYPE) ||
	    nftnl_trace_get_u16(t, NFTNL_TRACE_IIFTYPE) != ARPHRD_ETHER)
		return NULL;
	p = nftnl_trace_get_data(t, NFTNL_TRACE_LL_HEADER, &n);
	if (n < 14)
		return NULL;
	fields_add(out, &proto_eth, p, n * 8);
	return proto_by_id(PROTO_BASE_NETWORK_HDR, p[12] << 8 | p[13]);
}

static void meta_add(struct list_head *out, const struct nftnl_trace *t,
		     uint16_t attr, unsigned int key)
{
	if (nftnl_trace_is_set(t, attr))
		match_add(out, meta_expr_alloc(&internal_location, key),
			  constant_expr_u64(&internal_location,
					    meta_template(key)->dtype,
					    BYTEORDER_HOST, 32,
					    nftnl_trace_get_u32(t, attr)));
}

/*
 * The packet's interfaces and headers, as matches.  The kernel dumps the
 * packet at the chain's first traced rule, after that rule ran: a mark
 * shows on the policy line instead, as nft shows it.
 */
static void packet_decode(struct list_head *out, const struct nftnl_trace *t)
{
	const struct proto_desc *nh = NULL;
	uint32_t nfproto;

	meta_add(out, t, NFTNL_TRACE_IIF, NFT_META_IIF);
	meta_add(out, t, NFTNL_TRACE_OIF, NFT_META_OIF);
	nh = link_add(out, t);
	if (!nh && nftnl_trace_is_set(t, NFTNL_TRACE_NFPROTO)) {
		nfproto = nftnl_trace_get_u32(t, NFTNL_TRACE_NFPROTO);
		nh = nfproto == NFPROTO_IPV4 ? &proto_ip :
		     nfproto == NFPROTO_IPV6 ? &proto_ip6 : NULL;
	}
	transport_add(out, t, network_add(out, t, nh));
}

static bool has_packet(const struct nftnl_trace *t)
{
	return nftnl_trace_is_set(t, NFTNL_TRACE_LL_HEADER) ||
	       nftnl_trace_is_set(t, NFTNL_TRACE_NETWORK_HEADER) ||
	       nftnl_trace_is_set(t, NFTNL_TRACE_TRANSPORT_HEADER);
}

static struct cache_rule *rule_find(struct cache *c, const struct nftnl_trace *t,
				    struct cache_table **table)
{
	struct cache_chain *ch;
	struct cache_rule *r;
	uint64_t handle = nftnl_trace_get_u64(t, NFTNL_TRACE_RULE_HANDLE);

	*table = cache_table_find(c, nftnl_trace_get_u32(t, NFTNL_TRACE_FAMILY),
				  nftnl_trace_get_str(t, NFTNL_TRACE_TABLE));
	ch = *table ? cache_chain_find(*table, nftnl_trace_get_str(t, NFTNL_TRACE_CHAIN)) : NULL;
	if (!ch)
		return NULL;
	list_for_each_entry(r, &ch->rules, list)
		if (nftnl_rule_get_u64(r->nlr, NFTNL_RULE_HANDLE) == handle)
			return r;
	return NULL;
}

static void rule_text_print(struct trace_ctx *tc, const struct nftnl_trace *t)
{
	const struct output_ctx *o = &tc->ctx->octx;
	struct cache_table *table;
	struct cache_rule *cr;
	struct rule *r;

	cr = rule_find(tc->cache, t, &table);
	if (!cr && tc->refresh && tc->refresh(tc) == 0)
		cr = rule_find(tc->cache, t, &table);
	if (!cr) {
		fprintf(o->out, "handle %llu ", (unsigned long long)
			nftnl_trace_get_u64(t, NFTNL_TRACE_RULE_HANDLE));
		return;
	}
	r = delin_rule(table, cr->nlr);
	rule_print(r, o, o->out);
	fputc(' ', o->out);
	rule_free(r);
}

static void verdict_print(const struct nftnl_trace *t, FILE *f)
{
	const char *target = NULL;
	int v;

	if (!nftnl_trace_is_set(t, NFTNL_TRACE_VERDICT))
		return;
	v = (int)nftnl_trace_get_u32(t, NFTNL_TRACE_VERDICT);
	if (nftnl_trace_is_set(t, NFTNL_TRACE_JUMP_TARGET))
		target = nftnl_trace_get_str(t, NFTNL_TRACE_JUMP_TARGET);
	fprintf(f, "(verdict %s", verdict_name(v));
	if (target)
		fputc(' ', f), name_print(f, target);
	fputc(')', f);
}

static void head_print(const struct nftnl_trace *t, FILE *f)
{
	fprintf(f, "trace id %08x %s ",
		nftnl_trace_get_u32(t, NFTNL_TRACE_ID),
		family_name(nftnl_trace_get_u32(t, NFTNL_TRACE_FAMILY)));
	name_print(f, nftnl_trace_get_str(t, NFTNL_TRACE_TABLE));
	fputc(' ', f);
	name_print(f, nftnl_trace_get_str(t, NFTNL_TRACE_CHAIN));
	fputc(' ', f);
}

static void matches_print(struct list_head *l, const struct output_ctx *o)
{
	struct expr *e, *next;

	list_for_each_entry_safe(e, next, l, list) {
		print_match(e, o, o->out);
		fputc(' ', o->out);
		list_del(&e->list);
		expr_free(e);
	}
}

static void event_print(struct trace_ctx *tc, const struct nftnl_trace *t)
{
	const struct output_ctx *o = &tc->ctx->octx;
	uint32_t type = nftnl_trace_get_u32(t, NFTNL_TRACE_TYPE);
	LIST_HEAD(l);


	if (has_packet(t)) {
		head_print(t, o->out);
		fputs("packet: ", o->out);
		packet_decode(&l, t);
		matches_print(&l, o);
		fputc('\n', o->out);
	}
	/*
	 * Falling off a chain's last rule is a rule event without a rule;
	 * the policy or the caller's next rule says what happened next.
	 */
	if (type == NFT_TRACETYPE_RULE &&
	    !nftnl_trace_is_set(t, NFTNL_TRACE_RULE_HANDLE))
		return;
	head_print(t, o->out);
	switch (type) {
	case NFT_TRACETYPE_RULE:
		fputs("rule ", o->out);
		rule_text_print(tc, t);
		verdict_print(t, o->out);
		break;
	case NFT_TRACETYPE_RETURN:
		fputs("return ", o->out);
		verdict_print(t, o->out);
		break;
	case NFT_TRACETYPE_POLICY:
		fprintf(o->out, "policy %s ", verdict_name(
			nftnl_trace_is_set(t, NFTNL_TRACE_POLICY) ?
			(int)nftnl_trace_get_u32(t, NFTNL_TRACE_POLICY) :
			(int)nftnl_trace_get_u32(t, NFTNL_TRACE_VERDICT)));
		meta_add(&l, t, NFTNL_TRACE_MARK, NFT_META_MARK);
		matches_print(&l, o);
		break;
	default:
		fprintf(o->out, "unknown trace type %u", type);
		break;
	}
	fputc('\n', o->out);
}

int trace_event(struct trace_ctx *tc, const struct nlmsghdr *nlh)
{
	struct nftnl_trace *t = xnftnl_trace_alloc();
	int ret = -1;

	/* these four name the event; without them it says nothing */
	if (nftnl_trace_nlmsg_parse(nlh, t) < 0 ||
	    !nftnl_trace_is_set(t, NFTNL_TRACE_ID) ||
	    !nftnl_trace_is_set(t, NFTNL_TRACE_TYPE) ||
	    !nftnl_trace_is_set(t, NFTNL_TRACE_TABLE) ||
	    !nftnl_trace_is_set(t, NFTNL_TRACE_CHAIN) ||
	    !nftnl_trace_is_set(t, NFTNL_TRACE_FAMILY))
		goto out;
	event_print(tc, t);
	fflush(tc->ctx->octx.out);
	ret = 0;
out:
	nftnl_trace_free(t);
	return ret;
}
