/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFH_PRINT_H
#define NFH_PRINT_H

#include <netlink.h>
#include <rule.h>
#include <listing.h>

struct cache;
struct cache_table;
struct output_ctx;
struct nftnl_rule;

/* a name bare, or in quotes where it must be (keywords, "a/b"), escaped
   where no name made here could hold it */
/*
 * Whether @name, written bare, reads back as the name @name: the parser
 * knows (parser_name_is_bare) and sets this as it is loaded, so that the
 * printer calls nothing of the parser's.  NULL: every name in quotes.
 */
extern bool (*print_name_is_bare)(const char *name);
void name_print(FILE *f, const char *name);
void expr_print(const struct expr *e, const struct output_ctx *octx, FILE *f);
void stmt_print(const struct stmt *s, const struct output_ctx *octx, FILE *f);
/* nfh describe: an expression's datatype, byte order, size and symbols */
void describe_print(const struct expr *e, FILE *f);
/* one match as a rule shows it; "==" before an exact bitmask value */
void print_match(const struct expr *rel, const struct output_ctx *o, FILE *f);
void rule_print(const struct rule *r, const struct output_ctx *octx, FILE *f);
struct nftnl_obj;
/* a listed ct timeout: its l3proto (the table's if it gave none), and the
 * timeout of its state @i in @v if that is not the default */

void set_decl_print(const struct set *s, const struct output_ctx *o, FILE *f);

/* prints the listing as nft list does; returns -1 if the object is missing */
int print_listing(struct cache *c, enum list_what what, unsigned int family,
		  const char *table, const char *chain,
		  const struct output_ctx *octx, FILE *f);

/* list counters|quotas|...: the objects of one type, or the one named;
 * -1 if @name is given and not found */
int print_objs(struct cache *c, unsigned int family, const char *table,
	       uint32_t type, const char *name, const struct output_ctx *octx,
	       FILE *f);

/* what a monitor event did, in nft's words: "delete", "add", "insert" */
enum mon_op { MON_OP_DELETE, MON_OP_ADD, MON_OP_INSERT };

/* prints one ruleset change as nft monitor does ("add rule ip t c ...") */
void print_monitor_event(enum mon_op op, enum nl_obj type, void *obj,
			 struct cache_table *t, const struct output_ctx *o,
			 FILE *f);

struct set;
void print_monitor_set(const struct set *s, const struct output_ctx *o, FILE *f);
void print_monitor_elem(bool add, const struct set *s, const struct expr *elem,
			const struct output_ctx *o, FILE *f);

#endif
