// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel support behind each nf_tables expression that comes in a
 * module of its own: what a user calls it, its kernel option and module.
 * The kernel answers a rule that needs a missing one with a bare ENOENT
 * (no expression type of that name, and none to load); nfh names the
 * feature instead.  Expressions built into nf_tables (payload, cmp, meta,
 * lookup, immediate, ...) and those whose ENOENT can mean a missing name
 * (objref, lookup, dynset, a jump) are not here.
 *
 * Chain types come the same way, one module each or built into nf_tables
 * with their family; set types (hash, bitmap, rbtree, pipapo) are all
 * built into nf_tables (Linux 6.12 has no kernel option for any of them),
 * and the kernel refuses a set none of them can hold with EOPNOTSUPP, as
 * it does some combinations of flags before it looks for one.
 */
#include <string.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>

#include <netlink.h>
#include <kfeature.h>

static const struct kfeature kfeatures[] = {
	/* expression, family (0: any), what, option, module[, or else] */
	{ "queue",	0, "queue",		"CONFIG_NFT_QUEUE",	"nft_queue", NULL },
	/* the kernel's flowtables are not read to check a rule against */
	{ "flow_offload", 0, "flow offload",	"CONFIG_NFT_FLOW_OFFLOAD", "nft_flow_offload",
	  "or the table has no such flowtable" },
	{ "numgen",	0, "numgen",		"CONFIG_NFT_NUMGEN",	"nft_numgen", NULL },
	{ "hash",	0, "jhash and symhash",	"CONFIG_NFT_HASH",	"nft_hash", NULL },
	{ "fib",	NFPROTO_IPV4, "fib",	"CONFIG_NFT_FIB_IPV4",	"nft_fib_ipv4", NULL },
	{ "fib",	NFPROTO_IPV6, "fib",	"CONFIG_NFT_FIB_IPV6",	"nft_fib_ipv6", NULL },
	{ "fib",	NFPROTO_INET, "fib",	"CONFIG_NFT_FIB_INET",	"nft_fib_inet", NULL },
	{ "fib",	NFPROTO_NETDEV, "fib",	"CONFIG_NFT_FIB_NETDEV", "nft_fib_netdev", NULL },
	{ "osf",	0, "osf",		"CONFIG_NFT_OSF",	"nft_osf", NULL },
	{ "socket",	0, "socket",		"CONFIG_NFT_SOCKET",	"nft_socket", NULL },
	{ "tproxy",	0, "tproxy",		"CONFIG_NFT_TPROXY",	"nft_tproxy", NULL },
	{ "synproxy",	0, "synproxy",		"CONFIG_NFT_SYNPROXY",	"nft_synproxy", NULL },
	{ "xfrm",	0, "ipsec",		"CONFIG_NFT_XFRM",	"nft_xfrm", NULL },
	{ "ct",		0, "ct",		"CONFIG_NFT_CT",	"nft_ct", NULL },
	{ "notrack",	0, "notrack",		"CONFIG_NFT_CT",	"nft_ct", NULL },
	{ "connlimit",	0, "ct count",		"CONFIG_NFT_CONNLIMIT",	"nft_connlimit", NULL },
	{ "limit",	0, "limit",		"CONFIG_NFT_LIMIT",	"nft_limit", NULL },
	{ "quota",	0, "quota",		"CONFIG_NFT_QUOTA",	"nft_quota", NULL },
	{ "nat",	0, "nat",		"CONFIG_NFT_NAT",	"nft_nat", NULL },
	{ "masq",	0, "masquerade",	"CONFIG_NFT_MASQ",	"nft_masq", NULL },
	{ "redir",	0, "redirect",		"CONFIG_NFT_REDIR",	"nft_redir", NULL },
	{ "reject",	NFPROTO_IPV4, "reject",	"CONFIG_NFT_REJECT_IPV4", "nft_reject_ipv4", NULL },
	{ "reject",	NFPROTO_IPV6, "reject",	"CONFIG_NFT_REJECT_IPV6", "nft_reject_ipv6", NULL },
	{ "reject",	NFPROTO_INET, "reject",	"CONFIG_NFT_REJECT_INET", "nft_reject_inet", NULL },
	{ "reject",	NFPROTO_NETDEV, "reject", "CONFIG_NFT_REJECT_NETDEV", "nft_reject_netdev", NULL },
	{ "reject",	NFPROTO_BRIDGE, "reject", "CONFIG_NFT_BRIDGE_REJECT", "nft_reject_bridge", NULL },
	{ "dup",	NFPROTO_IPV4, "dup",	"CONFIG_NFT_DUP_IPV4",	"nft_dup_ipv4", NULL },
	{ "dup",	NFPROTO_IPV6, "dup",	"CONFIG_NFT_DUP_IPV6",	"nft_dup_ipv6", NULL },
	{ "dup",	NFPROTO_NETDEV, "dup",	"CONFIG_NFT_DUP_NETDEV", "nft_dup_netdev", NULL },
	{ "fwd",	0, "fwd",		"CONFIG_NFT_FWD_NETDEV", "nft_fwd_netdev", NULL },
	{ "tunnel",	0, "tunnel",		"CONFIG_NFT_TUNNEL",	"nft_tunnel", NULL },
};

const struct kfeature *kfeature_of_expr(const char *name, unsigned int family)
{
	for (size_t i = 0; i < array_size(kfeatures); i++)
		if (!strcmp(kfeatures[i].expr, name) &&
		    (!kfeatures[i].family || kfeatures[i].family == family))
			return &kfeatures[i];
	return NULL;
}

static const struct kfeature chain_types[] = {
	/* chain type, family, what, option, module */
	{ "nat",	NFPROTO_IPV4, "nat chains",	"CONFIG_NFT_NAT", "nft_chain_nat", NULL },
	{ "nat",	NFPROTO_IPV6, "nat chains",	"CONFIG_NFT_NAT", "nft_chain_nat", NULL },
	{ "nat",	NFPROTO_INET, "nat chains",	"CONFIG_NFT_NAT", "nft_chain_nat", NULL },
	/* built into nf_tables with the family (nft_chain_route.c) */
	{ "route",	NFPROTO_IPV4, "route chains",	"CONFIG_NF_TABLES_IPV4", "nf_tables", NULL },
	{ "route",	NFPROTO_IPV6, "route chains",	"CONFIG_NF_TABLES_IPV6", "nf_tables", NULL },
	{ "route",	NFPROTO_INET, "route chains",	"CONFIG_NF_TABLES_INET", "nf_tables", NULL },
};

const struct kfeature *kfeature_of_chain_type(const char *type,
					      unsigned int family,
					      bool *elsewhere)
{
	*elsewhere = false;
	for (size_t i = 0; i < array_size(chain_types); i++) {
		if (strcmp(chain_types[i].expr, type))
			continue;
		if (chain_types[i].family == family)
			return &chain_types[i];
		*elsewhere = true;
	}
	return NULL;
}

const char *kfeature_set_refusal(uint32_t flags, unsigned int fields)
{
	/* the features of each set type (nft_set_*.c, Linux 6.12): the
	   hash types take dynamic (NFT_SET_EVAL) and no intervals, rbtree
	   and pipapo intervals and no dynamic, rbtree one field, pipapo
	   two or more */
	/* nf_tables_newset() refuses these before it looks for one */
	if ((flags & (NFT_SET_EVAL | NFT_SET_OBJECT)) ==
	    (NFT_SET_EVAL | NFT_SET_OBJECT))
		return "rules cannot add to a map of objects (flags dynamic in a map to counters, quotas or other objects)";
	if ((flags & (NFT_SET_CONSTANT | NFT_SET_TIMEOUT)) ==
	    (NFT_SET_CONSTANT | NFT_SET_TIMEOUT))
		return "a constant set has no timeouts (flags constant and timeout)";
	if ((flags & (NFT_SET_EVAL | NFT_SET_INTERVAL)) ==
	    (NFT_SET_EVAL | NFT_SET_INTERVAL))
		return "no set type holds intervals that rules add to (flags dynamic and interval): the hash types take dynamic, rbtree and pipapo interval";
	if ((flags & NFT_SET_INTERVAL) && fields > 1)
		return "this kernel has no set type for intervals of a concatenation: that is pipapo, in nf_tables since Linux 5.6 (no kernel option of its own)";
	return NULL;
}
