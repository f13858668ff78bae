/* SPDX-License-Identifier: GPL-2.0-or-later */
/* the log statement (src/kinds/log.c) */
#ifndef NFH_LOG_H
#define NFH_LOG_H

#include <stmt.h>

struct stmt *log_stmt_alloc(const struct location *loc);

/* takes @prefix; NULL: an empty one */
void log_stmt_prefix(struct stmt *s, char *prefix);

/* @what: LOG_F_GROUP, _SNAPLEN or _QTHRESH, set to @v; LOG_F_FLAGS: more
   of NF_LOG_* */
void log_stmt_set(struct stmt *s, unsigned int what, uint32_t v);

/* "level NAME": 0, or -1 after queueing an error */
int stmt_log_level(struct stmt *s, const char *level,
		   const struct location *loc, struct list_head *msgs);

#endif
