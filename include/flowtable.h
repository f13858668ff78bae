/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFH_FLOWTABLE_H
#define NFH_FLOWTABLE_H

/*
 * Flowtables (src/kinds/flowtable.c): the block's lines, the batch message that
 * makes or deletes one, and its listing.  The flow add statement is a kind
 * with its ops there too.
 */
#include <stdio.h>
#include <jansson.h>
#include <rule.h>

struct nftnl_flowtable;
struct kind_print;
struct kind_jparse;
struct output_ctx;

/* "flags offload" or "counter" in a flowtable block: 0, or -1 with an
   error queued for another flag */
int flowtable_flag(struct list_head *msgs, struct flowtable *ft,
		   const char *word, const struct location *loc);

/* the NEWFLOWTABLE (@cmd adds) or DELFLOWTABLE message's object (with
   the block's devices, if any, for a deletion that takes them out) */
struct nftnl_flowtable *flowtable_nl(const struct cmd *cmd);

/* @nlf as a table block lists it, at @indent tabs: "flowtable NAME {"
   to "}" */
void flowtable_print(FILE *f, const struct nftnl_flowtable *nlf,
		     const struct output_ctx *octx, unsigned int indent);
/* a monitor or -e event's line: "add flowtable inet t f { ... } ", a
   deletion likewise, or "delete flowtable inet t f" if it names it alone */
void flowtable_event_print(FILE *f, bool add, const struct nftnl_flowtable *nlf,
			   const struct output_ctx *octx);
/* { "flowtable": { ... } } as nft -j lists it */
json_t *flowtable_json(const struct nftnl_flowtable *nlf);
/* a monitor or -e event's object: as listed, or a deletion that names
   it alone as { "flowtable": { "family", "name", "table", "handle" } } */
json_t *flowtable_event_json(bool add, const struct nftnl_flowtable *nlf);

/* the flowtable of a JSON command or listing entry @o (family and table
   in @h already); NULL with an error queued.  @add: it is made, so hook
   and prio are needed */
struct flowtable *flowtable_parse_json(struct kind_jparse *k, json_t *o,
				       bool add);

/* flow add|offload @NAME (src/kinds/flowtable.c) */
struct stmt *flow_stmt_alloc(const struct location *loc, const char *name,
			     const struct location *name_loc);

#endif
