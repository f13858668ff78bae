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

/*
 * -e: the kernel echoes what a batch adds (NLM_F_ECHO), printed as the
 * monitor prints events.  monitor_echo_new() reads the ruleset first, so
 * that rules can be printed; NULL with an error queued if it cannot.
 */
struct nlmsghdr;
/* @json_input: the JSON document run, if it was one (-j -e echoes it) */
struct monitor *monitor_echo_new(struct nfh_ctx *ctx, struct list_head *msgs,
				 const char *json_input);
/* the batch sender's echo callback (nfh_ctx.echo), @m a struct monitor */
void monitor_echo(void *m, const struct nlmsghdr *nlh);
/* the batch went in: -j -e prints a JSON document even if nothing echoed */
void monitor_echo_ok(struct monitor *m);
void monitor_echo_free(struct monitor *m);

#endif
