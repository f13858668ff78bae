/* SPDX-License-Identifier: GPL-2.0-or-later */
/* limit: its statement and object (src/kinds/limit.c) */
#ifndef NFH_LIMIT_H
#define NFH_LIMIT_H

#include <stdio.h>
#include <jansson.h>
#include <kind.h>

/* the rate, unit and burst of a limit statement or object (src/kinds/limit.c) */
struct stmt *limit_args_json_parse(struct kind_jparse *k, json_t *o,
				   const struct location *loc);

/* "rate over 10/second burst 3 packets", of a statement or an object */
void limit_args_print(const struct stmt *s, FILE *f);

/* "second" ... "week", or NULL for another number of seconds */
const char *limit_per_name(uint64_t unit);
int stmt_limit_bytes(struct stmt *s, uint64_t rate, const char *unit,
		     const struct location *loc, struct list_head *msgs);

/* limit rate [over] N/UNIT ... (src/kinds/limit.c): the grammar's helpers, 0 or
   -1 after queueing an error */
int stmt_limit_unit(struct stmt *s, const char *unit,
		    const struct location *loc, struct list_head *msgs);

#endif
