/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFH_HOOKS_H
#define NFH_HOOKS_H

#include <utils.h>

struct nfh_ctx;
struct cmd;

/*
 * list hooks [FAMILY] [device DEV] (CMD_OBJ_HOOKS, cmd->data: DEV or
 * NULL): prints the kernel's netfilter hooks of the namespace as nft
 * 1.0.6 does; errors go to @msgs.
 */
int hooks_list(struct nfh_ctx *ctx, const struct cmd *cmd,
	       struct list_head *msgs);

#endif
