/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFH_JUMPS_H
#define NFH_JUMPS_H

struct cache;
struct list_head;
struct location;

/*
 * The kernel's check of jumps and gotos from each base chain (at most 15
 * nested, no loops) over the offline model; errors go on the rule of the
 * batch that closed the path, else at @fallback.  0 or -1.
 */
int cache_check_jumps(struct cache *c, struct list_head *msgs,
		      const struct location *fallback);

#endif
