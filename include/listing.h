/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFH_LISTING_H
#define NFH_LISTING_H

#include <stdbool.h>
#include <stdint.h>

struct cache;
struct cache_table;
struct cache_chain;
struct cache_rule;
struct cache_set;
struct cache_obj;
struct cache_flowtable;

enum list_what {
	LIST_RULESET,
	LIST_TABLES,
	LIST_TABLE,
	LIST_CHAINS,
	LIST_CHAIN,
	LIST_SETS,
	LIST_MAPS,
	LIST_SET,	/* also a map; its name is passed as @chain */
	LIST_METERS,	/* the sets meter statements fill */
	LIST_METER,	/* one of them, as LIST_SET */
	LIST_OBJS,	/* list counters|quotas|...: listing_walk_objs() */
	LIST_FLOWTABLES,
	LIST_FLOWTABLE,	/* its name is passed as @chain */
};

/**
 * struct listing_emitter - one output format of a listing (text: print.c,
 * JSON: json.c).  The walker (listing.c) chooses what is listed and in
 * which order; the emitter writes it.  Each callback gets the emitter's
 * own @d; those that return int give -1 for what could not be written (an
 * error queued by the emitter), and the walker goes on.  @n counts what
 * the table listed before (objects, sets, chains), for separators.
 * @table_name:	a table's line in "list tables"
 * @table_begin: a table opens, for @what (its handle, comment and flags
 *		only for a whole table); @table_end closes it
 * @obj, @set:	an object, a named set or map
 * @chain_begin: a chain opens, with its rules to follow if @rules
 * @rule, @chain_end: one of its rules, and its end
 * @flowtable:	a flowtable (after the sets, before the chains)
 */
struct listing_emitter {
	void	(*table_name)(void *d, struct cache_table *t);
	void	(*table_begin)(void *d, struct cache_table *t,
			       enum list_what what);
	int	(*table_end)(void *d, struct cache_table *t, enum list_what what);
	void	(*obj)(void *d, struct cache_table *t, struct cache_obj *co,
		       enum list_what what, unsigned int n);
	int	(*set)(void *d, struct cache_table *t, struct cache_set *cs,
		       enum list_what what, unsigned int n);
	void	(*chain_begin)(void *d, struct cache_table *t,
			       struct cache_chain *ch, enum list_what what,
			       unsigned int n, bool rules);
	int	(*rule)(void *d, struct cache_table *t, struct cache_chain *ch,
			struct cache_rule *cr);
	void	(*chain_end)(void *d, struct cache_table *t,
			     struct cache_chain *ch, bool rules);
	void	(*flowtable)(void *d, struct cache_table *t,
			     struct cache_flowtable *cf, enum list_what what,
			     unsigned int n);
};

/*
 * A listing of @what, the tables of @family (0: all) and @table (NULL:
 * all), @chain naming the chain or set where @what needs one, through @em.
 * Returns -1 if the table, chain or set asked for is missing, -2 if
 * something could not be written, 0 otherwise.
 */
int listing_walk(struct cache *c, enum list_what what, unsigned int family,
		 const char *table, const char *chain,
		 const struct listing_emitter *em, void *d);

/* the objects of @type (0: all), or the one called @name, as listing_walk */
int listing_walk_objs(struct cache *c, unsigned int family, const char *table,
		      uint32_t type, const char *name,
		      const struct listing_emitter *em, void *d);

#endif
