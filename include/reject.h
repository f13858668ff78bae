/* SPDX-License-Identifier: GPL-2.0-or-later */
/* the reject statement (src/kinds/reject.c) */
#ifndef NFH_REJECT_H
#define NFH_REJECT_H

#include <stmt.h>

int stmt_reject_with(struct stmt *s, const char *proto,
		     const struct location *ploc, struct expr *code,
		     struct list_head *msgs);

#endif
