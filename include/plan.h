/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFH_PLAN_H
#define NFH_PLAN_H

#include <stddef.h>
#include <stdint.h>

struct nfh_ctx;
struct cmd;
struct cache;
struct list_head;

/* reads what @cmd needs of the ruleset (the kernel's, or --offline's
   model) before it is evaluated; -1 with an error in @msgs if it could
   not be read */
int plan_reads(struct nfh_ctx *nfh, const struct cmd *cmd,
	       struct list_head *msgs);
/* the same for a rule compiled as it was parsed: the kernel's sets (a
   failed read leaves them unknown, and the rule says so) */
void plan_rule_stream(struct nfh_ctx *nfh);

/* what plan_reads() read for @cmd: the rules' handles of its chain ... */
const uint64_t *plan_rule_handles(const struct nfh_ctx *nfh,
				  const struct cmd *cmd, size_t *n);
/* ... its chain's handle (0 if there is no such chain) ... */
uint64_t plan_chain_handle(const struct nfh_ctx *nfh, const struct cmd *cmd);
/* ... and a ruleset holding its set with the set's elements, or NULL */
struct cache *plan_set_elems(const struct nfh_ctx *nfh, const struct cmd *cmd);

/* the sets read for the run (the kernel's, or the model's) */
struct cache *plan_sets(const struct nfh_ctx *nfh);

/* frees what the plan read for a run */
void plan_free(struct nfh_ctx *nfh);

#endif
