/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFH_OFFLINE_H
#define NFH_OFFLINE_H

struct cache;
struct list_head;
struct nl_batch;

/* applies a batch to the in-memory ruleset (offline mode) as the kernel
   would: all or nothing; -1 with the errors queued on @msgs */
int offline_apply(struct cache *c, struct nl_batch *b, struct list_head *msgs);
/* the same answer, and @c is left as it was */
int offline_check(struct cache *c, struct nl_batch *b, struct list_head *msgs);

#endif
