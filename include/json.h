/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFH_JSON_H
#define NFH_JSON_H

#include <print.h>

struct cache;
struct output_ctx;
struct parser_state;

/*
 * json.c: prints a listing in nft's JSON schema; -1 if the table or chain
 * asked for is missing, -2 (errors queued, nothing printed) if a rule
 * holds something the schema cannot express yet
 */
int json_listing(struct cache *c, enum list_what what, unsigned int family,
		 const char *table, const char *chain,
		 const struct output_ctx *o, FILE *f, struct list_head *msgs);

/* list counters|quotas|...: as print_objs(), in nft's JSON schema */
int json_objs(struct cache *c, unsigned int family, const char *table,
	      uint32_t type, const char *name, FILE *f);

/* one ruleset change as nft -j monitor prints it: {"add": {"rule": ...}} */
int json_monitor_event(enum mon_op op, enum nl_obj type, void *obj,
		       struct cache_table *t, const struct output_ctx *o,
		       FILE *f, struct list_head *msgs);

struct set;
/* an added (or, announced whole, deleted) set or map, and one element of
   one, as nft -j monitor prints them */
void json_monitor_set(bool add, const struct set *s,
		      const struct output_ctx *o, FILE *f);
int json_monitor_elem(bool add, const struct set *s, const struct expr *elem,
		      const struct output_ctx *o, FILE *f, struct list_head *msgs);

#endif
