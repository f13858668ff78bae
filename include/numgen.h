/* SPDX-License-Identifier: GPL-2.0-or-later */
/* numgen, jhash and symhash (src/kinds/numgen.c) */
#ifndef NFH_NUMGEN_H
#define NFH_NUMGEN_H

#include <expr.h>

/* checks the numbers of "jhash KEY mod M seed S offset O" */
struct expr *hash_expr_parse(const struct location *loc, unsigned int type,
			     struct expr *key, uint64_t mod, int64_t seed,
			     uint64_t offset, struct list_head *msgs);

/* numgen (NFT_NG_*) and jhash/symhash (NFT_HASH_*) */
struct expr *numgen_expr_parse(const struct location *loc, const char *type,
			       const struct location *tloc, uint64_t mod,
			       uint64_t offset, struct list_head *msgs);

#endif
