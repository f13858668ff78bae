// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Header fields: "tcp dport", "ip saddr", "@th,16,16".  The protocols and
 * their fields are data (src/ast/proto.c); this file is the kind.  The
 * evaluator's dependency engine (which header a field needs announced)
 * and the delinearizer's postprocess (a raw load read back as the field
 * the rule's protocols name) test for it by its enum entry, EXPR_PAYLOAD.
 */
#include <stdio.h>
#include <string.h>
#include <libnftnl/expr.h>
#include <linux/netfilter/nf_tables.h>

#include <kind.h>
#include <proto.h>

/* the kernel's numbers of the bases; PROTO_BASE_TUN_HDR is nfh's own
   (inner.h: a load inside a tunnel stands for the inner expression) */
static const uint32_t nl_bases[] = {
	[PROTO_BASE_LL_HDR]		= NFT_PAYLOAD_LL_HEADER,
	[PROTO_BASE_NETWORK_HDR]	= NFT_PAYLOAD_NETWORK_HEADER,
	[PROTO_BASE_TRANSPORT_HDR]	= NFT_PAYLOAD_TRANSPORT_HEADER,
	[PROTO_BASE_INNER_HDR]		= NFT_PAYLOAD_INNER_HEADER,
	[PROTO_BASE_TUN_HDR]		= NFT_PAYLOAD_INNER_HEADER + 1,
};

/* --- linearize ------------------------------------------------------------ */

/* the bytes around the field into @dreg */
static void payload_load(struct kind_lin *k, const struct expr *p,
			 uint32_t dreg, unsigned int bytes, struct kind_load *ld)
{
	struct nftnl_expr *e = k->add(k, "payload");

	kind_load_bits(p->payload.offset, p->len, bytes, ld);
	nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_DREG, dreg);
	nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_BASE, nl_bases[p->payload.base]);
	nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_OFFSET, p->payload.offset / 8);
	nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_LEN, ld->len);
}

static unsigned int payload_bit_offset(const struct expr *p)
{
	return p->payload.offset;
}

static const struct expr_ops payload_ops = {
	.name		= "payload",
	.nl_name	= "payload",
	.kind		= EXPR_PAYLOAD,
	.load		= payload_load,
	.bit_offset	= payload_bit_offset,
};
EXPR_OPS_REGISTER(payload_ops);
