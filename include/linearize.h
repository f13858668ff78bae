/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFH_LINEARIZE_H
#define NFH_LINEARIZE_H

#include <netlink.h>
#include <rule.h>

struct cache;

/* turns evaluated commands into batch messages; 0 or -1 */
int lin_cmds(struct nfh_ctx *ctx, struct list_head *cmds,
	     struct nl_batch *b, struct cache *cache, struct list_head *msgs);

/* when evaluation failed: the element checks of the set and element
   commands that did evaluate, for their errors (no batch) */
void lin_check_elems(struct nfh_ctx *nfh, struct list_head *cmds,
		     struct list_head *msgs);

/* one rule of a chain block as it is parsed (src/stream.c); 0 or -1 */
int lin_rule_stream(struct nfh_ctx *nfh, struct rule *r,
		    const struct handle *h, struct nl_batch *b,
		    struct list_head *msgs);

#endif
