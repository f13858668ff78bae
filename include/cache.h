/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFH_CACHE_H
#define NFH_CACHE_H

#include <netlink.h>

struct nftnl_table;
struct nftnl_chain;
struct nftnl_rule;
struct nftnl_set;
struct nftnl_obj;
struct elem_dump;

/*
 * struct name_link - an entry in a name hash (struct name_hash): tables
 * by family and name, chains and sets by name.  Lists alone made each
 * lookup walk them, and 20,000 chains or tables quadratic.
 */
struct name_link {
	struct name_link	*next;
	uint32_t		hash;
};

struct name_hash {
	struct name_link	**b;
	unsigned int		size;	/* a power of two, or 0 */
	unsigned int		n;
};

/**
 * struct cache - a ruleset as libnftnl objects: read from the kernel for
 * listing, or built by applying batches in offline mode
 */
struct cache_set {
	struct list_head	list;
	struct name_link	hlink;
	struct nftnl_set	*nls;
	struct elem_dump	*elems;	/* a named set's elements as dumped for
					   listing; NULL: those in @nls */
	uint8_t			*pick;	/* set_elems_pick(): a bit per listed
					   element, set if it is listed */
	size_t			npick;
};

struct cache_rule {
	struct list_head	list;
	struct nftnl_rule	*nlr;
	const struct nl_item	*item;	/* the batch item that added it, while
					   offline_apply() runs; else NULL */
};

struct cache_chain {
	struct list_head	list;
	struct name_link	hlink;
	struct nftnl_chain	*nlc;
	struct list_head	rules;
};

struct cache_obj {
	struct list_head	list;
	struct nftnl_obj	*nlo;
};

struct nftnl_flowtable;
struct cache_flowtable {
	struct list_head	list;
	struct nftnl_flowtable	*nlf;
};

/* whether @co is of @type (0: any) and named @name (NULL: any) */
bool cache_obj_matches(const struct cache_obj *co, uint32_t type,
		       const char *name);

struct cache_table {
	struct list_head	list;
	struct name_link	hlink;
	struct nftnl_table	*nlt;
	struct list_head	chains;
	struct name_hash	chain_hash;
	struct list_head	sets;
	struct name_hash	set_hash;
	struct list_head	objs;
	uint64_t		next_handle;
	struct list_head	flowtables;
	unsigned int		next_anon_set;
	bool			flags_changed;	/* in the batch being applied */
};

/* a table a listing selects: any @family if 0, any @name if NULL */
bool cache_table_matches(const struct cache_table *t, unsigned int family,
			 const char *name);

struct elems_memo;

struct cache {
	struct list_head	tables;
	struct name_hash	table_hash;
	uint64_t		next_table_handle;
	/* the offline model, while it applies a batch: the set elements
	   checked last (offline_elems.h), and the devices the batch adds
	   to base chains that were there ("family table chain dev"): the
	   kernel holds them apart until it commits */
	struct elems_memo	*elems_memo;
	char			**pending_devs;
	size_t			npending_devs;
};

struct cache *cache_alloc(void);
void cache_free(struct cache *c);
void cache_flush(struct cache *c);

struct cache_table *cache_table_find(struct cache *c, unsigned int family,
				     const char *name);
struct cache_chain *cache_chain_find(struct cache_table *t, const char *name);
/* a chain bound to a rule ("jump { ... }"): listings show it in the rule */
bool cache_chain_is_binding(const struct cache_chain *ch);
struct nftnl_rule;
/* the counters and quotas of the rule start again (reset rules) */
void cache_rule_reset(struct nftnl_rule *r);
struct cache_set *cache_set_find(struct cache_table *t, const char *name);
struct cache_set *cache_set_find_id(struct cache_table *t, uint32_t id);

/* take an entry out of its list and its hash (the caller frees it) */
/* frees a table unlinked from its cache, with all it holds */
void cache_table_free(struct cache_table *t);
void cache_unlink_table(struct cache *c, struct cache_table *t);
void cache_unlink_chain(struct cache_table *t, struct cache_chain *ch);
/* @ch is called @name now, in its place */
void cache_rename_chain(struct cache_table *t, struct cache_chain *ch,
			const char *name);
void cache_unlink_set(struct cache_table *t, struct cache_set *s);

struct cache_table *cache_add_table(struct cache *c, struct nftnl_table *nlt);
struct cache_chain *cache_add_chain(struct cache_table *t,
				    struct nftnl_chain *nlc);
void cache_add_rule(struct cache_chain *ch, struct nftnl_rule *nlr);
void cache_add_set(struct cache_table *t, struct nftnl_set *nls);
void cache_add_obj(struct cache_table *t, struct nftnl_obj *nlo);
/* an object by type and name, or by handle if @name is NULL */
struct cache_obj *cache_obj_find(struct cache_table *t, uint32_t type,
				 const char *name, uint64_t handle);

void cache_add_flowtable(struct cache_table *t, struct nftnl_flowtable *nlf);
/* a flowtable by name, or by handle if @name is NULL */
struct cache_flowtable *cache_flowtable_find(struct cache_table *t,
					     const char *name, uint64_t handle);

/* offline reset: zeroes counters and quotas' use, as the kernel does */
void cache_obj_reset(struct cache *c, unsigned int family, const char *table,
		     uint32_t type, const char *name);

#endif
