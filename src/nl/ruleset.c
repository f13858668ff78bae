// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nfh_ruleset_foreach: the ruleset as a flat walk of named objects, for
 * front ends that need names (shell completion) rather than a listing.
 */
#include <linux/netfilter/nf_tables.h>
#include <libnftnl/chain.h>
#include <libnftnl/rule.h>
#include <libnftnl/set.h>
#include <libnftnl/table.h>

#include <cache.h>
#include <ctx.h>
#include <rule.h>

typedef int (*obj_cb)(const struct nfh_obj *obj, void *data);

static int walk_chain(struct nfh_obj *o, struct cache_chain *ch,
		      obj_cb cb, void *data)
{
	struct cache_rule *r;
	int ret;

	o->kind = NFH_OBJ_CHAIN;
	o->chain = o->name = nftnl_chain_get_str(ch->nlc, NFTNL_CHAIN_NAME);
	o->handle = nftnl_chain_get_u64(ch->nlc, NFTNL_CHAIN_HANDLE);
	ret = cb(o, data);
	list_for_each_entry(r, &ch->rules, list) {
		if (ret)
			break;
		o->kind = NFH_OBJ_RULE;
		o->name = NULL;
		o->handle = nftnl_rule_get_u64(r->nlr, NFTNL_RULE_HANDLE);
		ret = cb(o, data);
	}
	return ret;
}

static int walk_table(struct cache_table *t, obj_cb cb, void *data)
{
	uint32_t family = nftnl_table_get_u32(t->nlt, NFTNL_TABLE_FAMILY);
	struct nfh_obj o = {
		.kind	= NFH_OBJ_TABLE,
		.family	= family_name(family),
		.table	= nftnl_table_get_str(t->nlt, NFTNL_TABLE_NAME),
		.handle	= nftnl_table_get_u64(t->nlt, NFTNL_TABLE_HANDLE),
	};
	struct cache_chain *ch;
	struct cache_set *s;
	int ret;

	o.name = o.table;
	ret = cb(&o, data);
	list_for_each_entry(ch, &t->chains, list) {
		if (ret)
			return ret;
		ret = walk_chain(&o, ch, cb, data);
	}
	o.chain = NULL;
	list_for_each_entry(s, &t->sets, list) {
		uint32_t flags = nftnl_set_get_u32(s->nls, NFTNL_SET_FLAGS);

		if (ret)
			return ret;
		if (flags & NFT_SET_ANONYMOUS)
			continue;
		o.kind = flags & (NFT_SET_MAP | NFT_SET_OBJECT) ? NFH_OBJ_MAP : NFH_OBJ_SET;
		o.name = nftnl_set_get_str(s->nls, NFTNL_SET_NAME);
		o.handle = nftnl_set_get_u64(s->nls, NFTNL_SET_HANDLE);
		ret = cb(&o, data);
	}
	return ret;
}

EXPORT int nfh_ruleset_foreach(struct nfh_ctx *ctx, obj_cb cb, void *data)
{
	struct cache *c = ctx->offline_cache, *tmp = NULL;
	struct cache_table *t;
	LIST_HEAD(msgs);
	int ret = 0;

	if (!ctx->offline) {
		tmp = cache_alloc();
		if (nlio_dump(ctx, 0, tmp, &msgs) < 0) {
			erec_print_list(ctx->octx.err, &msgs);
			cache_free(tmp);
			return -1;
		}
		c = tmp;
	}
	if (c)
		list_for_each_entry(t, &c->tables, list)
			if ((ret = walk_table(t, cb, data)) != 0)
				break;
	cache_free(tmp);
	return ret;
}
