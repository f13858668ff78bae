/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFH_LINEARIZE_H
#define NFH_LINEARIZE_H

#include <netlink.h>
#include <rule.h>

struct cache;

/*
 * turns evaluated commands into batch messages; 0 or -1.  When a command
 * failed (cmd->failed, or here), the batch holds what the others would
 * send, but for those that name what a failed one would have made: for
 * the offline model's errors, never to be sent.  @missing holds what
 * is missing already (what the parser skipped); the failures are added.
 */
struct cascade;
int lin_cmds(struct nfh_ctx *ctx, struct list_head *cmds,
	     struct nl_batch *b, struct list_head *msgs,
	     struct cascade *missing);

/* one rule of a chain block as it is parsed (src/compile/stream.c); 0 or -1 */
int lin_rule_stream(struct nfh_ctx *nfh, struct rule *r,
		    const struct handle *h, struct nl_batch *b,
		    struct list_head *msgs);

#endif
