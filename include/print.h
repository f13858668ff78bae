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
void rule_print(const struct rule *r, const struct output_ctx *octx, FILE *f);

/* the comment in an object's user data, or NULL; checks every length */
char *udata_comment(const void *ud, uint32_t len);

/* delinearize.c: kernel expressions back into statements */
struct rule *delin_rule(struct cache_table *t, struct nftnl_rule *nlr);

enum list_what {
	LIST_RULESET,
	LIST_TABLES,
	LIST_TABLE,
	LIST_CHAINS,
	LIST_CHAIN,
};

/* prints the listing as nft list does; returns -1 if the object is missing */
int print_listing(struct cache *c, enum list_what what, unsigned int family,
		  const char *table, const char *chain,
		  const struct output_ctx *octx, FILE *f);

#endif
