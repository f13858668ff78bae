/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFH_TRACE_H
#define NFH_TRACE_H

#include <linux/netlink.h>

struct cache;
struct nfh_ctx;

/**
 * struct trace_ctx - what printing a packet trace needs
 * @ctx:	output flags and streams
 * @cache:	the ruleset, to print the rule a trace names by handle
 * @refresh:	dumps @cache again; called once when a handle is not in it
 */
struct trace_ctx {
	struct nfh_ctx	*ctx;
	struct cache	*cache;
	int		(*refresh)(struct trace_ctx *tc);
};

/**
 * trace_event - print one NFT_MSG_TRACE message as nft monitor trace does
 *
 * Returns -1, printing nothing, for a message that lacks the id, type,
 * family, table or chain, or that libnftnl cannot parse.
 */
int trace_event(struct trace_ctx *tc, const struct nlmsghdr *nlh);

#endif
