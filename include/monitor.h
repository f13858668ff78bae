/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFH_MONITOR_H
#define NFH_MONITOR_H

#include <erec.h>

struct nfh_ctx;

/*
 * monitor.c: "monitor [new|destroy] [tables|chains|rules|sets|elements|ruleset]" (the
 * words after "monitor" in @args); prints events until killed, returns -1
 * with an error queued when it cannot go on
 */
int monitor_run(struct nfh_ctx *ctx, const char *args,
		const struct location *loc, struct list_head *msgs);

#endif
