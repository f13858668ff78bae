/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFH_PRINT_H
#define NFH_PRINT_H

#include <rule.h>

struct cache;
struct cache_table;
struct output_ctx;
struct nftnl_rule;

void expr_print(const struct expr *e, const struct output_ctx *octx, FILE *f);
void stmt_print(const struct stmt *s, const struct output_ctx *octx, FILE *f);
/* nfh describe: an expression's datatype, byte order, size and symbols */
void describe_print(const struct expr *e, FILE *f);
void rule_print(const struct rule *r, const struct output_ctx *octx, FILE *f);

/* the comment in an object's user data, or NULL; checks every length */
char *udata_comment_get(const void *ud, uint32_t len);

/* delinearize.c: kernel expressions back into statements */
struct rule *delin_rule(struct cache_table *t, struct nftnl_rule *nlr);
struct cache_set;
/* a kernel set as a declaration; its elements too if @elems */
struct set *delin_set(struct cache_table *t, struct cache_set *cs, bool elems);
/* a set's elements one at a time, sorted and typed as delin_set types them,
 * each a new expression for the caller to free; NULL after the last */
struct set_elem_iter;
struct set_elem_iter *set_elem_iter_new(struct cache_set *cs,
					const struct set *s);
struct expr *set_elem_iter_next(struct set_elem_iter *it);
void set_elem_iter_free(struct set_elem_iter *it);

enum list_what {
	LIST_RULESET,
	LIST_TABLES,
	LIST_TABLE,
	LIST_CHAINS,
	LIST_CHAIN,
	LIST_SETS,
	LIST_MAPS,
	LIST_SET,	/* also a map; its name is passed as @chain */
};

void set_decl_print(const struct set *s, const struct output_ctx *o, FILE *f);

/* prints the listing as nft list does; returns -1 if the object is missing */
int print_listing(struct cache *c, enum list_what what, unsigned int family,
		  const char *table, const char *chain,
		  const struct output_ctx *octx, FILE *f);

#endif
