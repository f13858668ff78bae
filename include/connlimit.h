/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ct count (src/kinds/connlimit.c) */
#ifndef NFH_CONNLIMIT_H
#define NFH_CONNLIMIT_H

#include <stmt.h>

/* ct count [over] N (src/kinds/connlimit.c) */
struct stmt *connlimit_stmt_alloc(const struct location *loc, uint64_t count,
				  uint32_t flags);

#endif
