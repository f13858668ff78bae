/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fib lookups (src/kinds/fib.c) */
#ifndef NFH_FIB_H
#define NFH_FIB_H

#include <expr.h>

struct expr *fib_expr_parse(const struct location *loc, unsigned int flags,
			    const char *result, const struct location *rloc,
			    struct list_head *msgs);

/* "fib ... oif exists": only whether there is a route */
void fib_expr_present(struct expr *e);

/* fib: NFTA_FIB_F_* lookup flags and an NFT_FIB_RESULT_* */
int fib_flag_lookup(const char *name);

/* the key of a lookup or map: a route check lists as "check" there */
void fib_key_check(struct expr *key);

#endif
