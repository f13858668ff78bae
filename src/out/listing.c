// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The one listing walker: which tables, objects, sets, chains and rules a
 * "list" command shows, and in which order (nft's: objects, then named sets
 * and maps, then chains with their rules).  The text and JSON outputs are
 * two emitters of it (print.c, json.c), so they cannot list different
 * things.  Flowtables come after the sets, as in nft.
 */
#include <string.h>
#include <libnftnl/chain.h>
#include <libnftnl/flowtable.h>
#include <libnftnl/set.h>
#include <linux/netfilter/nf_tables.h>

#include <cache.h>
#include <listing.h>

static bool set_is_listed(struct cache_set *cs, enum list_what what,
			  const char *only)
{
	uint32_t flags = nftnl_set_get_u32(cs->nls, NFTNL_SET_FLAGS);
	bool map = flags & (NFT_SET_MAP | NFT_SET_OBJECT);

	if (what == LIST_METERS || what == LIST_METER)
		/* nft 1.0.6's meters: anonymous sets the rules fill */
		return (flags & NFT_SET_ANONYMOUS) && (flags & NFT_SET_EVAL) &&
		       (!only || !strcmp(only, nftnl_set_get_str(cs->nls,
								 NFTNL_SET_NAME)));
	if (flags & NFT_SET_ANONYMOUS)
		return false;
	if ((what == LIST_SETS && map) || (what == LIST_MAPS && !map))
		return false;
	return !only || !strcmp(only, nftnl_set_get_str(cs->nls, NFTNL_SET_NAME));
}

static int sets_walk(struct cache_table *t, enum list_what what,
		     const char *only, const struct listing_emitter *em,
		     void *d, unsigned int *n)
{
	struct cache_set *cs;
	int ret = 0;

	list_for_each_entry(cs, &t->sets, list) {
		if (!set_is_listed(cs, what, only))
			continue;
		if (em->set(d, t, cs, what, (*n)++) < 0)
			ret = -1;
	}
	return ret;
}

static void objs_walk(struct cache_table *t, enum list_what what,
		      uint32_t type, const char *name,
		      const struct listing_emitter *em, void *d, unsigned int *n)
{
	struct cache_obj *co;

	list_for_each_entry(co, &t->objs, list)
		if (cache_obj_matches(co, type, name))
			em->obj(d, t, co, what, (*n)++);
}

static int chains_walk(struct cache_table *t, enum list_what what,
		       const char *only, bool rules,
		       const struct listing_emitter *em, void *d,
		       unsigned int *n)
{
	struct cache_chain *ch;
	struct cache_rule *cr;
	int ret = 0;

	list_for_each_entry(ch, &t->chains, list) {
		if (only &&
		    strcmp(only, nftnl_chain_get_str(ch->nlc, NFTNL_CHAIN_NAME)))
			continue;
		if (cache_chain_is_binding(ch))
			continue;	/* its rules list in the rule bound to it */
		em->chain_begin(d, t, ch, what, (*n)++, rules);
		if (rules)
			list_for_each_entry(cr, &ch->rules, list)
				if (em->rule(d, t, ch, cr) < 0)
					ret = -1;
		em->chain_end(d, t, ch, rules);
	}
	return ret;
}

static void flowtables_walk(struct cache_table *t, enum list_what what,
			    const char *only, const struct listing_emitter *em,
			    void *d, unsigned int *n)
{
	struct cache_flowtable *cf;

	list_for_each_entry(cf, &t->flowtables, list)
		if (!only || !strcmp(only, nftnl_flowtable_get_str(cf->nlf,
						NFTNL_FLOWTABLE_NAME)))
			em->flowtable(d, t, cf, what, (*n)++);
}

/* one table of the listing; 1 if it was listed, 0 if not, -1 on errors */
static int table_walk(struct cache_table *t, enum list_what what,
		      const char *chain, const struct listing_emitter *em,
		      void *d)
{
	struct cache_set *cs;
	unsigned int n = 0;
	int ret = 0;

	switch (what) {
	case LIST_TABLES:
		em->table_name(d, t);
		return 1;
	case LIST_CHAIN:
		if (!cache_chain_find(t, chain) ||
		    cache_chain_is_binding(cache_chain_find(t, chain)))
			return 0;
		break;
	case LIST_SET:
	case LIST_METER:
		cs = chain ? cache_set_find(t, chain) : NULL;
		if (!cs || !set_is_listed(cs, what, NULL))
			return 0;
		break;
	case LIST_FLOWTABLE:
		if (!chain || !cache_flowtable_find(t, chain, 0))
			return 0;
		break;
	default:
		break;
	}
	em->table_begin(d, t, what);
	switch (what) {
	case LIST_CHAIN:
	case LIST_CHAINS:
		ret = chains_walk(t, what, chain, what == LIST_CHAIN, em, d, &n);
		break;
	case LIST_SETS:
	case LIST_MAPS:
	case LIST_SET:
	case LIST_METERS:
	case LIST_METER:
		ret = sets_walk(t, what, what == LIST_SET || what == LIST_METER ?
				chain : NULL, em, d, &n);
		break;
	case LIST_FLOWTABLES:
	case LIST_FLOWTABLE:
		flowtables_walk(t, what, what == LIST_FLOWTABLE ? chain : NULL,
				em, d, &n);
		break;
	default:
		objs_walk(t, what, 0, NULL, em, d, &n);
		ret = sets_walk(t, what, NULL, em, d, &n);
		flowtables_walk(t, what, NULL, em, d, &n);
		ret |= chains_walk(t, what, NULL, true, em, d, &n);
		break;
	}
	ret |= em->table_end(d, t, what);
	return ret < 0 ? -1 : 1;
}

int listing_walk(struct cache *c, enum list_what what, unsigned int family,
		 const char *table, const char *chain,
		 const struct listing_emitter *em, void *d)
{
	struct cache_table *t;
	int found = 0, err = 0, r;

	list_for_each_entry(t, &c->tables, list) {
		if (!cache_table_matches(t, family, table))
			continue;
		r = table_walk(t, what, chain, em, d);
		if (r < 0)
			err = 1;
		found += r != 0;
	}
	if ((what == LIST_TABLE || what == LIST_CHAIN || what == LIST_SET ||
	     what == LIST_METER || what == LIST_FLOWTABLE) && !found)
		return -1;
	return err ? -2 : 0;
}

int listing_walk_objs(struct cache *c, unsigned int family, const char *table,
		      uint32_t type, const char *name,
		      const struct listing_emitter *em, void *d)
{
	struct cache_table *t;
	unsigned int n;
	int found = 0, err = 0;

	list_for_each_entry(t, &c->tables, list) {
		if (!cache_table_matches(t, family, table))
			continue;
		if (name && !cache_obj_find(t, type, name, 0))
			continue;
		/* as nft lists them: a table with objects, if not of this type */
		if (list_empty(&t->objs))
			continue;
		n = 0;
		em->table_begin(d, t, LIST_OBJS);
		objs_walk(t, LIST_OBJS, type, name, em, d, &n);
		err |= em->table_end(d, t, LIST_OBJS) < 0;
		found++;
	}
	if (name && !found)
		return -1;
	return err ? -2 : 0;
}
