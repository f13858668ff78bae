/* SPDX-License-Identifier: GPL-2.0-or-later */
/* the queue statement (src/kinds/queue.c) */
#ifndef NFH_QUEUE_H
#define NFH_QUEUE_H

#include <stmt.h>

uint32_t queue_flag_lookup(const char *word);

/* queue (src/kinds/queue.c): the grammar's helpers.  @num: a number, a range,
   an expression or NULL; queue_stmt_num() replaces it (the last "num"
   counts); queue_flag_lookup(): NFT_QUEUE_FLAG_* of "bypass" or
   "fanout", 0 for another word */
struct stmt *queue_stmt_alloc(const struct location *loc, struct expr *num,
			      uint32_t flags);
void queue_stmt_flags(struct stmt *s, uint32_t flags);
void queue_stmt_num(struct stmt *s, struct expr *num);

#endif
