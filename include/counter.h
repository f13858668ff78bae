/* SPDX-License-Identifier: GPL-2.0-or-later */
/* counter: its statement and object (src/kinds/counter.c) */
#ifndef NFH_COUNTER_H
#define NFH_COUNTER_H

#include <jansson.h>
#include <kind.h>

/* a counter's values: null under -s (src/kinds/counter.c) */
json_t *counter_json_value(uint64_t packets, uint64_t bytes,
			   const struct output_ctx *octx);

/* counter [packets N] [bytes N] (src/kinds/counter.c) */
struct stmt *counter_stmt_alloc(const struct location *loc, uint64_t packets,
				uint64_t bytes);

#endif
