// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/netlink.h>
#include <libnftnl/chain.h>
#include <libnftnl/expr.h>
#include <libnftnl/flowtable.h>
#include <libnftnl/object.h>
#include <libnftnl/rule.h>
#include <libnftnl/set.h>
#include <libnftnl/table.h>

#include <cache.h>
#include <elemdump.h>
#include <nlalloc.h>
#include <nftables-compat.h>

static uint32_t name_hash_of(const char *name, uint32_t seed)
{
	uint32_t h = 2166136261u ^ seed;	/* FNV-1a */

	for (const char *p = name ? name : ""; *p; p++)
		h = (h ^ (unsigned char)*p) * 16777619u;
	return h;
}

static struct name_link *name_bucket(const struct name_hash *nh, uint32_t h)
{
	return nh->size ? nh->b[h & (nh->size - 1)] : NULL;
}

static void name_hash_add(struct name_hash *nh, struct name_link *l,
			  uint32_t h)
{
	struct name_link **b;

	if (nh->n >= nh->size) {
		unsigned int size = nh->size ? nh->size * 2 : 16;
		struct name_link **nb = xzalloc(size * sizeof(*nb));

		for (unsigned int i = 0; i < nh->size; i++) {
			struct name_link *e = nh->b[i], *next;

			for (; e; e = next) {
				next = e->next;
				e->next = nb[e->hash & (size - 1)];
				nb[e->hash & (size - 1)] = e;
			}
		}
		free(nh->b);
		nh->b = nb;
		nh->size = size;
	}
	l->hash = h;
	b = &nh->b[h & (nh->size - 1)];
	l->next = *b;
	*b = l;
	nh->n++;
}

static void name_hash_del(struct name_hash *nh, struct name_link *l)
{
	struct name_link **p;

	if (!nh->size)
		return;
	for (p = &nh->b[l->hash & (nh->size - 1)]; *p; p = &(*p)->next)
		if (*p == l) {
			*p = l->next;
			nh->n--;
			return;
		}
}

static void name_hash_free(struct name_hash *nh)
{
	free(nh->b);
	memset(nh, 0, sizeof(*nh));
}

struct cache *cache_alloc(void)
{
	struct cache *c = xzalloc(sizeof(*c));

	init_list_head(&c->tables);
	c->next_table_handle = 1;
	return c;
}

void cache_table_free(struct cache_table *t)
{
	struct cache_chain *ch, *chn;
	struct cache_rule *r, *rn;
	struct cache_set *s, *sn;
	struct cache_obj *o, *on;
	struct cache_flowtable *f, *fn;

	list_for_each_entry_safe(f, fn, &t->flowtables, list) {
		nftnl_flowtable_free(f->nlf);
		free(f);
	}
	list_for_each_entry_safe(o, on, &t->objs, list) {
		nftnl_obj_free(o->nlo);
		free(o);
	}
	list_for_each_entry_safe(ch, chn, &t->chains, list) {
		list_for_each_entry_safe(r, rn, &ch->rules, list) {
			nftnl_rule_free(r->nlr);
			free(r);
		}
		nftnl_chain_free(ch->nlc);
		free(ch);
	}
	list_for_each_entry_safe(s, sn, &t->sets, list) {
		elem_dump_free(s->elems);
		nftnl_set_free(s->nls);
		free(s->pick);
		free(s);
	}
	name_hash_free(&t->chain_hash);
	name_hash_free(&t->set_hash);
	nftnl_table_free(t->nlt);
	free(t);
}

void cache_flush(struct cache *c)
{
	struct cache_table *t, *tn;

	list_for_each_entry_safe(t, tn, &c->tables, list) {
		list_del(&t->list);
		cache_table_free(t);
	}
	name_hash_free(&c->table_hash);
}

void cache_free(struct cache *c)
{
	if (!c)
		return;
	cache_flush(c);
	free(c);
}

void cache_unlink_table(struct cache *c, struct cache_table *t)
{
	list_del(&t->list);
	name_hash_del(&c->table_hash, &t->hlink);
}

void cache_unlink_chain(struct cache_table *t, struct cache_chain *ch)
{
	list_del(&ch->list);
	name_hash_del(&t->chain_hash, &ch->hlink);
}

void cache_rename_chain(struct cache_table *t, struct cache_chain *ch,
			const char *name)
{
	name_hash_del(&t->chain_hash, &ch->hlink);
	xnftnl_chain_set_str(ch->nlc, NFTNL_CHAIN_NAME, name);
	name_hash_add(&t->chain_hash, &ch->hlink, name_hash_of(name, 0));
}

void cache_unlink_set(struct cache_table *t, struct cache_set *s)
{
	list_del(&s->list);
	name_hash_del(&t->set_hash, &s->hlink);
}

struct cache_table *cache_table_find(struct cache *c, unsigned int family,
				     const char *name)
{
	uint32_t h = name_hash_of(name, family);
	struct name_link *l;

	for (l = name_bucket(&c->table_hash, h); l; l = l->next) {
		struct cache_table *t = container_of(l, struct cache_table, hlink);

		if (l->hash == h &&
		    nftnl_table_get_u32(t->nlt, NFTNL_TABLE_FAMILY) == family &&
		    !strcmp(nftnl_table_get_str(t->nlt, NFTNL_TABLE_NAME), name))
			return t;
	}
	return NULL;
}

bool cache_chain_is_binding(const struct cache_chain *ch)
{
	return nftnl_chain_is_set(ch->nlc, NFTNL_CHAIN_FLAGS) &&
	       (nftnl_chain_get_u32(ch->nlc, NFTNL_CHAIN_FLAGS) &
		NFT_CHAIN_BINDING);
}

struct cache_chain *cache_chain_find(struct cache_table *t, const char *name)
{
	uint32_t h = name_hash_of(name, 0);
	struct name_link *l;

	for (l = name_bucket(&t->chain_hash, h); l; l = l->next) {
		struct cache_chain *ch = container_of(l, struct cache_chain, hlink);

		if (l->hash == h &&
		    !strcmp(nftnl_chain_get_str(ch->nlc, NFTNL_CHAIN_NAME), name))
			return ch;
	}
	return NULL;
}

struct cache_set *cache_set_find(struct cache_table *t, const char *name)
{
	uint32_t h = name_hash_of(name, 0);
	struct name_link *l;

	for (l = name_bucket(&t->set_hash, h); l; l = l->next) {
		struct cache_set *s = container_of(l, struct cache_set, hlink);

		if (l->hash == h &&
		    !strcmp(nftnl_set_get_str(s->nls, NFTNL_SET_NAME), name))
			return s;
	}
	return NULL;
}

/* anonymous sets are bound by their batch id, unique per context */
struct cache_set *cache_set_find_id(struct cache_table *t, uint32_t id)
{
	struct cache_set *s;

	list_for_each_entry(s, &t->sets, list)
		if (nftnl_set_is_set(s->nls, NFTNL_SET_ID) &&
		    nftnl_set_get_u32(s->nls, NFTNL_SET_ID) == id)
			return s;
	return NULL;
}

bool cache_table_matches(const struct cache_table *t, unsigned int family,
			 const char *name)
{
	return (!family || nftnl_table_get_u32(t->nlt, NFTNL_TABLE_FAMILY) == family) &&
	       (!name || !strcmp(name, nftnl_table_get_str(t->nlt, NFTNL_TABLE_NAME)));
}

bool cache_obj_matches(const struct cache_obj *co, uint32_t type,
		       const char *name)
{
	return (!type || nftnl_obj_get_u32(co->nlo, NFTNL_OBJ_TYPE) == type) &&
	       (!name || !strcmp(name, nftnl_obj_get_str(co->nlo, NFTNL_OBJ_NAME)));
}

struct cache_table *cache_add_table(struct cache *c, struct nftnl_table *nlt)
{
	struct cache_table *t = xzalloc(sizeof(*t));

	t->nlt = nlt;
	init_list_head(&t->chains);
	init_list_head(&t->sets);
	init_list_head(&t->objs);
	init_list_head(&t->flowtables);
	t->next_handle = 1;
	list_add_tail(&t->list, &c->tables);
	name_hash_add(&c->table_hash, &t->hlink,
		      name_hash_of(nftnl_table_get_str(nlt, NFTNL_TABLE_NAME),
				   nftnl_table_get_u32(nlt, NFTNL_TABLE_FAMILY)));
	return t;
}

struct cache_chain *cache_add_chain(struct cache_table *t,
				    struct nftnl_chain *nlc)
{
	struct cache_chain *ch = xzalloc(sizeof(*ch));

	ch->nlc = nlc;
	init_list_head(&ch->rules);
	list_add_tail(&ch->list, &t->chains);
	name_hash_add(&t->chain_hash, &ch->hlink,
		      name_hash_of(nftnl_chain_get_str(nlc, NFTNL_CHAIN_NAME), 0));
	return ch;
}

void cache_add_rule(struct cache_chain *ch, struct nftnl_rule *nlr)
{
	struct cache_rule *r = xzalloc(sizeof(*r));

	r->nlr = nlr;
	list_add_tail(&r->list, &ch->rules);
}

void cache_add_set(struct cache_table *t, struct nftnl_set *nls)
{
	struct cache_set *s = xzalloc(sizeof(*s));

	s->nls = nls;
	list_add_tail(&s->list, &t->sets);
	name_hash_add(&t->set_hash, &s->hlink,
		      name_hash_of(nftnl_set_get_str(nls, NFTNL_SET_NAME), 0));
}

void cache_add_obj(struct cache_table *t, struct nftnl_obj *nlo)
{
	struct cache_obj *o = xzalloc(sizeof(*o));

	o->nlo = nlo;
	list_add_tail(&o->list, &t->objs);
}

void cache_add_flowtable(struct cache_table *t, struct nftnl_flowtable *nlf)
{
	struct cache_flowtable *f = xzalloc(sizeof(*f));

	f->nlf = nlf;
	list_add_tail(&f->list, &t->flowtables);
}

struct cache_flowtable *cache_flowtable_find(struct cache_table *t,
					     const char *name, uint64_t handle)
{
	struct cache_flowtable *f;

	list_for_each_entry(f, &t->flowtables, list)
		if (name ? !strcmp(nftnl_flowtable_get_str(f->nlf,
						NFTNL_FLOWTABLE_NAME), name) :
		    nftnl_flowtable_get_u64(f->nlf, NFTNL_FLOWTABLE_HANDLE) == handle)
			return f;
	return NULL;
}

struct cache_obj *cache_obj_find(struct cache_table *t, uint32_t type,
				 const char *name, uint64_t handle)
{
	struct cache_obj *o;

	list_for_each_entry(o, &t->objs, list) {
		if (nftnl_obj_get_u32(o->nlo, NFTNL_OBJ_TYPE) != type)
			continue;
		if (name ? !strcmp(nftnl_obj_get_str(o->nlo, NFTNL_OBJ_NAME), name) :
		    nftnl_obj_get_u64(o->nlo, NFTNL_OBJ_HANDLE) == handle)
			return o;
	}
	return NULL;
}

/* the counters and quotas of @r start again, as the kernel resets them */
void cache_rule_reset(struct nftnl_rule *r)
{
	struct nftnl_expr_iter *i = nftnl_expr_iter_create(r);
	struct nftnl_expr *e;

	while ((e = nftnl_expr_iter_next(i))) {
		const char *n = nftnl_expr_get_str(e, NFTNL_EXPR_NAME);

		if (!strcmp(n, "counter")) {
			nftnl_expr_set_u64(e, NFTNL_EXPR_CTR_PACKETS, 0);
			nftnl_expr_set_u64(e, NFTNL_EXPR_CTR_BYTES, 0);
		} else if (!strcmp(n, "quota")) {
			nftnl_expr_set_u64(e, NFTNL_EXPR_QUOTA_CONSUMED, 0);
		}
	}
	nftnl_expr_iter_destroy(i);
}

void cache_obj_reset(struct cache *c, unsigned int family, const char *table,
		     uint32_t type, const char *name)
{
	struct cache_table *t;
	struct cache_obj *o;

	list_for_each_entry(t, &c->tables, list) {
		if ((family && nftnl_table_get_u32(t->nlt, NFTNL_TABLE_FAMILY) != family) ||
		    (table && strcmp(table, nftnl_table_get_str(t->nlt, NFTNL_TABLE_NAME))))
			continue;
		list_for_each_entry(o, &t->objs, list) {
			if (nftnl_obj_get_u32(o->nlo, NFTNL_OBJ_TYPE) != type ||
			    (name && strcmp(name, nftnl_obj_get_str(o->nlo, NFTNL_OBJ_NAME))))
				continue;
			if (type == NFT_OBJECT_COUNTER) {
				nftnl_obj_set_u64(o->nlo, NFTNL_OBJ_CTR_PKTS, 0);
				nftnl_obj_set_u64(o->nlo, NFTNL_OBJ_CTR_BYTES, 0);
			} else if (type == NFT_OBJECT_QUOTA) {
				nftnl_obj_set_u64(o->nlo, NFTNL_OBJ_QUOTA_CONSUMED, 0);
			}
		}
	}
}
