/* SPDX-License-Identifier: GPL-2.0-or-later */
/* the catch-all element "*" (src/kinds/catchall.c) */
#ifndef NFH_CATCHALL_H
#define NFH_CATCHALL_H

#include <expr.h>

/* "*", the catch-all element of a set or map (src/kinds/catchall.c) */
struct expr *catchall_expr_alloc(const struct location *loc);

#endif
