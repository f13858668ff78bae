// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The offline kernel model: a batch applied to the in-memory ruleset as
 * nf_tables would apply it (existence, use and limit checks, handles, set
 * elements, jumps), all or nothing.  It reads the batch's messages back
 * with libnftnl, as the kernel reads them.
 */
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
#include <jumps.h>
#include <names.h>
#include <netlink.h>
#include <nlalloc.h>
#include <nftables-compat.h>
#include <offline.h>
#include <offline_elems.h>
#include <rule.h>
#include <suggest.h>
#include <kfeature.h>

/* an expression of an element or set, copied to the element @data (as
   the kernel gives an element without expressions the set's) */
static int expr_to_elem(struct nftnl_expr *x, void *data)
{
	struct nftnl_expr *c = elem_expr_copy(x);

	if (c)
		nftnl_set_elem_add_expr(data, c);
	return 0;
}

static struct nftnl_set_elem *elem_dup(struct nftnl_set_elem *e)
{
	static const uint16_t blobs[] = {
		NFTNL_SET_ELEM_KEY, NFTNL_SET_ELEM_KEY_END, NFTNL_SET_ELEM_DATA,
		NFTNL_SET_ELEM_USERDATA,
	};
	struct nftnl_set_elem *n = xnftnl_set_elem_alloc();
	const void *p;
	uint32_t len;

	for (unsigned int i = 0; i < array_size(blobs); i++)
		if ((p = nftnl_set_elem_get(e, blobs[i], &len)))
			xnftnl_set_elem_set(n, blobs[i], p, len);
	if (nftnl_set_elem_is_set(e, NFTNL_SET_ELEM_FLAGS))
		nftnl_set_elem_set_u32(n, NFTNL_SET_ELEM_FLAGS,
				       nftnl_set_elem_get_u32(e, NFTNL_SET_ELEM_FLAGS));
	if (nftnl_set_elem_is_set(e, NFTNL_SET_ELEM_VERDICT))
		nftnl_set_elem_set_u32(n, NFTNL_SET_ELEM_VERDICT,
				       nftnl_set_elem_get_u32(e, NFTNL_SET_ELEM_VERDICT));
	if (nftnl_set_elem_is_set(e, NFTNL_SET_ELEM_CHAIN))
		xnftnl_set_elem_set_str(n, NFTNL_SET_ELEM_CHAIN,
				       nftnl_set_elem_get_str(e, NFTNL_SET_ELEM_CHAIN));
	if (nftnl_set_elem_is_set(e, NFTNL_SET_ELEM_OBJREF))
		xnftnl_set_elem_set_str(n, NFTNL_SET_ELEM_OBJREF,
				       nftnl_set_elem_get_str(e, NFTNL_SET_ELEM_OBJREF));
	if (nftnl_set_elem_is_set(e, NFTNL_SET_ELEM_TIMEOUT))
		nftnl_set_elem_set_u64(n, NFTNL_SET_ELEM_TIMEOUT,
				       nftnl_set_elem_get_u64(e, NFTNL_SET_ELEM_TIMEOUT));
	if (nftnl_set_elem_is_set(e, NFTNL_SET_ELEM_EXPIRATION))
		nftnl_set_elem_set_u64(n, NFTNL_SET_ELEM_EXPIRATION,
				       nftnl_set_elem_get_u64(e, NFTNL_SET_ELEM_EXPIRATION));
	nftnl_set_elem_expr_foreach(e, expr_to_elem, n);
	return n;
}

/*
 * As the kernel keeps an element's timeout: a set's default where it gives
 * none, and dumped only where it is not the set's (so "timeout never", a
 * timeout of 0, lists only where the set has a default)
 */
static void elem_timeout_kept(struct nftnl_set *s, struct nftnl_set_elem *n)
{
	uint64_t st = nftnl_set_is_set(s, NFTNL_SET_TIMEOUT) ?
		      nftnl_set_get_u64(s, NFTNL_SET_TIMEOUT) : 0;

	if (nftnl_set_elem_is_set(n, NFTNL_SET_ELEM_TIMEOUT) &&
	    nftnl_set_elem_get_u64(n, NFTNL_SET_ELEM_TIMEOUT) == st)
		nftnl_set_elem_unset(n, NFTNL_SET_ELEM_TIMEOUT);
}

static void elem_copy(struct nftnl_set *dst, struct nftnl_set_elem *e)
{
	nftnl_set_elem_add(dst, elem_dup(e));
}

static int elem_has_expr(struct nftnl_expr *x, void *data)
{
	(void)x;
	*(bool *)data = true;
	return 0;
}


static bool elem_same_key(struct nftnl_set_elem *a, struct nftnl_set_elem *b)
{
	uint32_t la, lb, fa = 0, fb = 0;
	const void *ka = nftnl_set_elem_get(a, NFTNL_SET_ELEM_KEY, &la);
	const void *kb = nftnl_set_elem_get(b, NFTNL_SET_ELEM_KEY, &lb);

	if (nftnl_set_elem_is_set(a, NFTNL_SET_ELEM_FLAGS))
		fa = nftnl_set_elem_get_u32(a, NFTNL_SET_ELEM_FLAGS);
	if (nftnl_set_elem_is_set(b, NFTNL_SET_ELEM_FLAGS))
		fb = nftnl_set_elem_get_u32(b, NFTNL_SET_ELEM_FLAGS);
	/* the catch-all, which has no key, is one element */
	if (!ka && !kb)
		return fa & fb & NFT_SET_ELEM_CATCHALL;
	return ka && kb && la == lb && !memcmp(ka, kb, la) &&
	       (fa & NFT_SET_ELEM_INTERVAL_END) == (fb & NFT_SET_ELEM_INTERVAL_END);
}

static struct nftnl_set *set_copy_bare(struct nftnl_set *s);

/* removes the elements of @del from @s (all of them if @del has none) */
static int set_del_elems(struct cache_set *cs, struct nftnl_set *del,
			 bool must_exist)
{
	struct nftnl_set *n = set_copy_bare(cs->nls);
	struct nftnl_set_elems_iter *it, *dit;
	struct nftnl_set_elem *e, *d;
	unsigned int want = 0, found = 0;

	dit = nftnl_set_elems_iter_create(del);
	while (nftnl_set_elems_iter_next(dit))
		want++;
	nftnl_set_elems_iter_destroy(dit);
	it = nftnl_set_elems_iter_create(cs->nls);
	while ((e = nftnl_set_elems_iter_next(it))) {
		bool gone = want == 0;

		dit = nftnl_set_elems_iter_create(del);
		while (!gone && (d = nftnl_set_elems_iter_next(dit)))
			gone = elem_same_key(e, d);
		nftnl_set_elems_iter_destroy(dit);
		if (gone)
			found++;
		else
			elem_copy(n, e);
	}
	nftnl_set_elems_iter_destroy(it);
	if (must_exist && want && found < want) {
		nftnl_set_free(n);
		return -ENOENT;
	}
	nftnl_set_free(cs->nls);
	cs->nls = n;
	return 0;
}

/* a set found by batch id, else by name */
static struct cache_set *item_set(struct cache *c, struct nl_item *it)
{
	struct cache_table *t;
	struct cache_set *s = NULL;

	t = cache_table_find(c, it->family,
			     nftnl_set_get_str(it->obj, NFTNL_SET_TABLE));
	if (!t)
		return NULL;
	if (nftnl_set_is_set(it->obj, NFTNL_SET_ID))
		s = cache_set_find_id(t, nftnl_set_get_u32(it->obj, NFTNL_SET_ID));
	if (!s && nftnl_set_is_set(it->obj, NFTNL_SET_NAME))
		s = cache_set_find(t, nftnl_set_get_str(it->obj, NFTNL_SET_NAME));
	if (s || !nftnl_set_is_set(it->obj, NFTNL_SET_HANDLE))
		return s;
	/* delete set TABLE handle N */
	list_for_each_entry(s, &t->sets, list)
		if (nftnl_set_get_u64(s->nls, NFTNL_SET_HANDLE) ==
		    nftnl_set_get_u64(it->obj, NFTNL_SET_HANDLE))
			return s;
	return NULL;
}

static bool rule_uses_set(struct nftnl_rule *r, const char *name)
{
	struct nftnl_expr_iter *it = nftnl_expr_iter_create(r);
	struct nftnl_expr *e;
	bool used = false;

	while (!used && (e = nftnl_expr_iter_next(it))) {
		const char *n = nftnl_expr_get_str(e, NFTNL_EXPR_NAME);

		if (!strcmp(n, "lookup"))
			used = !strcmp(nftnl_expr_get_str(e, NFTNL_EXPR_LOOKUP_SET), name);
		else if (!strcmp(n, "dynset"))
			used = !strcmp(nftnl_expr_get_str(e, NFTNL_EXPR_DYNSET_SET_NAME), name);
		else if (!strcmp(n, "objref") &&
			 nftnl_expr_is_set(e, NFTNL_EXPR_OBJREF_SET_NAME))
			used = !strcmp(nftnl_expr_get_str(e, NFTNL_EXPR_OBJREF_SET_NAME), name);
	}
	nftnl_expr_iter_destroy(it);
	return used;
}

static int oerr(struct list_head *msgs, const struct nl_item *it,
		const char *what, int err)
{
	return error_queue(msgs, &it->loc, "Could not process %s: %s", what,
			   strerror(err));
}

/* "Could not process ...: counter "x" does not exist in table inet t",
   with the closest name among that table's objects of its type */
static int obj_missing(struct cache_table *t, const struct nl_item *it,
		       const struct location *loc, const char *what,
		       uint32_t type, const char *name, struct list_head *msgs)
{
	struct cache_obj *o;
	struct suggest sg;

	suggest_init(&sg, name);
	list_for_each_entry(o, &t->objs, list)
		if (cache_obj_matches(o, type, NULL))
			suggest_add(&sg, nftnl_obj_get_str(o->nlo, NFTNL_OBJ_NAME));
	return error_queue(msgs, loc,
			   "Could not process %s: %s \"%s\" does not exist in table %s %s%s",
			   what, obj_type_name(type), name, family_name(it->family),
			   nftnl_table_get_str(t->nlt, NFTNL_TABLE_NAME),
			   suggest_hint(&sg));
}

/* "Could not process ...: the chain "x" it jumps to does not exist in
   table inet t", with the closest name among the table's chains */
static int chain_missing(struct cache_table *t, const struct nl_item *it,
			 const struct location *loc, const char *what,
			 const char *chain, struct list_head *msgs)
{
	struct cache_chain *ch;
	struct suggest sg;

	suggest_init(&sg, chain);
	list_for_each_entry(ch, &t->chains, list)
		suggest_add(&sg, nftnl_chain_get_str(ch->nlc, NFTNL_CHAIN_NAME));
	return error_queue(msgs, loc,
			   "Could not process %s: the chain \"%s\" it jumps to does not exist in table %s %s%s",
			   what, chain, family_name(it->family),
			   nftnl_table_get_str(t->nlt, NFTNL_TABLE_NAME),
			   suggest_hint(&sg));
}

/*
 * what the kernel checks of new elements: the chains a verdict map's
 * values jump to exist, and the objects an object map's values name (an
 * error queued for the first missing one, -1); the end of an interval
 * names no object
 */
static int check_elem_objs(struct cache_table *t, struct cache_set *s,
			   const struct nl_item *it, struct list_head *msgs)
{
	bool objs = nftnl_set_get_u32(s->nls, NFTNL_SET_FLAGS) & NFT_SET_OBJECT;
	struct nftnl_set_elems_iter *i;
	struct nftnl_set_elem *e;
	uint32_t type;
	int err = 0;

	type = objs ? nftnl_set_get_u32(s->nls, NFTNL_SET_OBJ_TYPE) : 0;
	i = nftnl_set_elems_iter_create(it->obj);
	while (!err && (e = nftnl_set_elems_iter_next(i))) {
		bool end = nftnl_set_elem_is_set(e, NFTNL_SET_ELEM_FLAGS) &&
			   (nftnl_set_elem_get_u32(e, NFTNL_SET_ELEM_FLAGS) &
			    NFT_SET_ELEM_INTERVAL_END);
		const char *name;

		if (nftnl_set_elem_is_set(e, NFTNL_SET_ELEM_CHAIN) &&
		    !cache_chain_find(t, nftnl_set_elem_get_str(e, NFTNL_SET_ELEM_CHAIN))) {
			err = chain_missing(t, it, &it->loc, "set elements",
					    nftnl_set_elem_get_str(e, NFTNL_SET_ELEM_CHAIN),
					    msgs);
			continue;
		}
		if (!objs)
			continue;
		if (!nftnl_set_elem_is_set(e, NFTNL_SET_ELEM_OBJREF)) {
			if (!end)
				err = oerr(msgs, it, "set elements", EINVAL);
			continue;
		}
		name = nftnl_set_elem_get_str(e, NFTNL_SET_ELEM_OBJREF);
		if (!cache_obj_find(t, type, name, 0))
			err = obj_missing(t, it, &it->loc, "set elements", type,
					  name, msgs);
	}
	nftnl_set_elems_iter_destroy(i);
	return err;
}

/* libnftnl 1.2.4 exports no set clone: copy through the wire format */
static struct nftnl_set *set_copy_bare(struct nftnl_set *s)
{
	struct nftnl_set *n = xnftnl_set_alloc();
	char buf[8192];
	struct nlmsghdr *nlh;

	nlh = nftnl_nlmsg_build_hdr(buf, NFT_MSG_NEWSET,
				    nftnl_set_get_u32(s, NFTNL_SET_FAMILY), 0, 0);
	nftnl_set_nlmsg_build_payload(nlh, s);
	nftnl_set_nlmsg_parse(nlh, n);
	if (nftnl_set_is_set(s, NFTNL_SET_HANDLE))
		nftnl_set_set_u64(n, NFTNL_SET_HANDLE,
				  nftnl_set_get_u64(s, NFTNL_SET_HANDLE));
	if (nftnl_set_is_set(s, NFTNL_SET_ID))
		nftnl_set_set_u32(n, NFTNL_SET_ID, nftnl_set_get_u32(s, NFTNL_SET_ID));
	return n;
}

/* the set and its elements */
static struct nftnl_set *set_copy(struct nftnl_set *s)
{
	struct nftnl_set *n = set_copy_bare(s);
	struct nftnl_set_elems_iter *it;
	struct nftnl_set_elem *e;

	it = nftnl_set_elems_iter_create(s);
	while ((e = nftnl_set_elems_iter_next(it)))
		elem_copy(n, e);
	nftnl_set_elems_iter_destroy(it);
	return n;
}

static struct nftnl_obj *obj_copy(struct nftnl_obj *o)
{
	struct nftnl_obj *n = xnftnl_obj_alloc();
	char buf[8192];
	struct nlmsghdr *nlh;

	nlh = nftnl_nlmsg_build_hdr(buf, NFT_MSG_NEWOBJ,
				    nftnl_obj_get_u32(o, NFTNL_OBJ_FAMILY), 0, 0);
	nftnl_obj_nlmsg_build_payload(nlh, o);
	nftnl_obj_nlmsg_parse(nlh, n);
	nftnl_obj_set_u32(n, NFTNL_OBJ_FAMILY, nftnl_obj_get_u32(o, NFTNL_OBJ_FAMILY));
	if (nftnl_obj_is_set(o, NFTNL_OBJ_HANDLE))
		nftnl_obj_set_u64(n, NFTNL_OBJ_HANDLE,
				  nftnl_obj_get_u64(o, NFTNL_OBJ_HANDLE));
	return n;
}


/*
 * The kernel's limits (include/net/netfilter/nf_tables.h): a rule holds
 * at most NFT_RULE_MAXEXPRS expressions, a hook at most
 * NFT_NETDEVICE_MAX - 1 devices, and a value has a length.  Past them
 * the kernel answers EINVAL or EFBIG; so does the offline model.
 */
#define KERNEL_RULE_MAXEXPRS	128
#define KERNEL_NETDEVICE_MAX	256

struct rule_count {
	unsigned int	n;
	bool		empty_value;
};

static int count_expr(struct nftnl_expr *e, void *data)
{
	struct rule_count *rc = data;
	const char *name = nftnl_expr_get_str(e, NFTNL_EXPR_NAME);
	uint32_t len = 0;

	rc->n++;
	if (!strcmp(name, "cmp") && nftnl_expr_is_set(e, NFTNL_EXPR_CMP_DATA)) {
		nftnl_expr_get(e, NFTNL_EXPR_CMP_DATA, &len);
		if (!len)
			rc->empty_value = true;
	}
	return 0;
}

static int check_rule_limits(struct nftnl_rule *r)
{
	struct rule_count rc = { 0 };

	nftnl_expr_foreach(r, count_expr, &rc);
	return rc.n > KERNEL_RULE_MAXEXPRS || rc.empty_value ? EINVAL : 0;
}

static int check_chain_devices(struct nftnl_chain *c)
{
	const char *const *devs;
	unsigned int n = 0;

	if (!nftnl_chain_is_set(c, NFTNL_CHAIN_DEVICES))
		return 0;
	devs = nftnl_chain_get_array(c, NFTNL_CHAIN_DEVICES);
	while (devs && devs[n])
		n++;
	return n >= KERNEL_NETDEVICE_MAX ? EFBIG : 0;
}

/* what the kernel checks of a rule's objects: they exist */
static int check_objrefs(struct cache_table *t, struct nftnl_rule *r)
{
	struct nftnl_expr_iter *i = nftnl_expr_iter_create(r);
	struct nftnl_expr *e;
	int err = 0;

	while (!err && (e = nftnl_expr_iter_next(i))) {
		/* flow add @ft: the flowtable of the table */
		if (!strcmp(nftnl_expr_get_str(e, NFTNL_EXPR_NAME), "flow_offload")) {
			if (!nftnl_expr_is_set(e, NFTNL_EXPR_FLOW_TABLE_NAME) ||
			    !cache_flowtable_find(t, nftnl_expr_get_str(e,
					NFTNL_EXPR_FLOW_TABLE_NAME), 0))
				err = ENOENT;
			continue;
		}
		if (strcmp(nftnl_expr_get_str(e, NFTNL_EXPR_NAME), "objref") ||
		    !nftnl_expr_is_set(e, NFTNL_EXPR_OBJREF_IMM_NAME))
			continue;
		if (!cache_obj_find(t, nftnl_expr_get_u32(e, NFTNL_EXPR_OBJREF_IMM_TYPE),
				    nftnl_expr_get_str(e, NFTNL_EXPR_OBJREF_IMM_NAME), 0))
			err = ENOENT;
	}
	nftnl_expr_iter_destroy(i);
	return err;
}

static bool rule_uses_obj(struct nftnl_rule *r, uint32_t type, const char *name)
{
	struct nftnl_expr_iter *i = nftnl_expr_iter_create(r);
	struct nftnl_expr *e;
	bool used = false;

	while (!used && (e = nftnl_expr_iter_next(i)))
		used = !strcmp(nftnl_expr_get_str(e, NFTNL_EXPR_NAME), "objref") &&
		       nftnl_expr_is_set(e, NFTNL_EXPR_OBJREF_IMM_NAME) &&
		       nftnl_expr_get_u32(e, NFTNL_EXPR_OBJREF_IMM_TYPE) == type &&
		       !strcmp(nftnl_expr_get_str(e, NFTNL_EXPR_OBJREF_IMM_NAME), name);
	nftnl_expr_iter_destroy(i);
	return used;
}

/* ... and the elements of object maps of the same type */
static bool set_uses_obj(struct nftnl_set *s, uint32_t type, const char *name)
{
	struct nftnl_set_elems_iter *it;
	struct nftnl_set_elem *e;
	bool used = false;

	if (!(nftnl_set_get_u32(s, NFTNL_SET_FLAGS) & NFT_SET_OBJECT) ||
	    nftnl_set_get_u32(s, NFTNL_SET_OBJ_TYPE) != type)
		return false;
	it = nftnl_set_elems_iter_create(s);
	while (!used && (e = nftnl_set_elems_iter_next(it)))
		used = nftnl_set_elem_is_set(e, NFTNL_SET_ELEM_OBJREF) &&
		       !strcmp(nftnl_set_elem_get_str(e, NFTNL_SET_ELEM_OBJREF), name);
	nftnl_set_elems_iter_destroy(it);
	return used;
}

static int apply_obj(struct cache *c, struct nl_item *it,
		     struct list_head *msgs)
{
	struct nftnl_obj *o = it->obj;
	uint32_t type = nftnl_obj_get_u32(o, NFTNL_OBJ_TYPE);
	const char *name = nftnl_obj_is_set(o, NFTNL_OBJ_NAME) ?
			   nftnl_obj_get_str(o, NFTNL_OBJ_NAME) : NULL;
	struct cache_table *t;
	struct cache_obj *co;
	struct cache_chain *ch;
	struct cache_set *cs;
	struct cache_rule *cr;

	t = cache_table_find(c, it->family, nftnl_obj_get_str(o, NFTNL_OBJ_TABLE));
	if (!t)
		return oerr(msgs, it, "object", ENOENT);
	co = cache_obj_find(t, type, name,
			    name ? 0 : nftnl_obj_get_u64(o, NFTNL_OBJ_HANDLE));
	if (it->msg_type == NFT_MSG_NEWOBJ) {
		if (co && (it->flags & NLM_F_EXCL))
			return oerr(msgs, it, "object", EEXIST);
		if (co)
			return 0;	/* the kernel keeps the old values */
		nftnl_obj_set_u64(o, NFTNL_OBJ_HANDLE, t->next_handle++);
		cache_add_obj(t, o);
		it->obj = NULL;
		return 0;
	}
	if (!co)
		return it->msg_type == NFT_MSG_DELOBJ ?
		       oerr(msgs, it, "object", ENOENT) : 0;
	name = nftnl_obj_get_str(co->nlo, NFTNL_OBJ_NAME);
	list_for_each_entry(ch, &t->chains, list)
		list_for_each_entry(cr, &ch->rules, list)
			if (rule_uses_obj(cr->nlr, type, name))
				return oerr(msgs, it, "object", EBUSY);
	list_for_each_entry(cs, &t->sets, list)
		if (set_uses_obj(cs->nls, type, name))
			return oerr(msgs, it, "object", EBUSY);
	list_del(&co->list);
	nftnl_obj_free(co->nlo);
	free(co);
	return 0;
}

/* a deep copy, through the wire format */
static struct nftnl_flowtable *flowtable_copy(const struct nftnl_flowtable *f)
{
	struct nftnl_flowtable *n = xnftnl_flowtable_alloc();
	char buf[8192];
	struct nlmsghdr *nlh;

	nlh = nftnl_nlmsg_build_hdr(buf, NFT_MSG_NEWFLOWTABLE, 0, 0, 0);
	nl_flowtable_build_payload(nlh, f);
	nl_flowtable_parse(nlh, n);
	nftnl_flowtable_set_u32(n, NFTNL_FLOWTABLE_FAMILY,
				nftnl_flowtable_get_u32(f, NFTNL_FLOWTABLE_FAMILY));
	if (nftnl_flowtable_is_set(f, NFTNL_FLOWTABLE_HANDLE))
		nftnl_flowtable_set_u64(n, NFTNL_FLOWTABLE_HANDLE,
					nftnl_flowtable_get_u64(f, NFTNL_FLOWTABLE_HANDLE));
	return n;
}

/* whether @r has an expression @expr whose string attribute @attr is @name */
static bool rule_names(struct nftnl_rule *r, const char *expr, uint16_t attr,
		       const char *name)
{
	struct nftnl_expr_iter *i = nftnl_expr_iter_create(r);
	struct nftnl_expr *e;
	bool found = false;

	while (!found && (e = nftnl_expr_iter_next(i)))
		found = !strcmp(nftnl_expr_get_str(e, NFTNL_EXPR_NAME), expr) &&
			nftnl_expr_is_set(e, attr) &&
			!strcmp(nftnl_expr_get_str(e, attr), name);
	nftnl_expr_iter_destroy(i);
	return found;
}

static bool rule_uses_flowtable(struct nftnl_rule *r, const char *name)
{
	return rule_names(r, "flow_offload", NFTNL_EXPR_FLOW_TABLE_NAME, name);
}

/* devices a flowtable update of this batch adds (further below) */
static bool ft_dev_pending(const struct cache *cache, unsigned int family,
			   const char *table, const char *name, const char *dev);
static void ft_dev_pending_add(struct cache *cache, unsigned int family,
			       const char *table, const char *name,
			       const char *dev);

/* the devices of flowtable @f (borrowed), NULL-ended; NULL if none */
static const char *const *ft_devs(const struct nftnl_flowtable *f)
{
	return nftnl_flowtable_is_set(f, NFTNL_FLOWTABLE_DEVICES) ?
	       nftnl_flowtable_get_array(f, NFTNL_FLOWTABLE_DEVICES) : NULL;
}

static bool ft_has_dev(const struct nftnl_flowtable *f, const char *dev)
{
	const char *const *d = ft_devs(f);

	for (unsigned int i = 0; d && d[i]; i++)
		if (!strcmp(d[i], dev))
			return true;
	return false;
}

/* @f's devices made the @n of @names (copied first: they may be @f's) */
static void ft_devs_set(struct nftnl_flowtable *f, const char **names,
			unsigned int n)
{
	const char **copy = xzalloc((n + 1) * sizeof(*copy));

	for (unsigned int i = 0; i < n; i++)
		copy[i] = xstrdup(names[i]);
	nftnl_flowtable_unset(f, NFTNL_FLOWTABLE_DEVICES);
	if (n)
		xnftnl_flowtable_set_array(f, NFTNL_FLOWTABLE_DEVICES, copy);
	for (unsigned int i = 0; i < n; i++)
		free((char *)copy[i]);
	free(copy);
}

/* a hook or a priority in @msg other than @have's: the kernel's
   nft_flowtable_parse_hook() for an update or a deletion */
static bool ft_hook_differs(const struct nftnl_flowtable *have,
			    const struct nftnl_flowtable *msg)
{
	return (nftnl_flowtable_is_set(msg, NFTNL_FLOWTABLE_HOOKNUM) &&
		nftnl_flowtable_get_u32(msg, NFTNL_FLOWTABLE_HOOKNUM) !=
		nftnl_flowtable_get_u32(have, NFTNL_FLOWTABLE_HOOKNUM)) ||
	       (nftnl_flowtable_is_set(msg, NFTNL_FLOWTABLE_PRIO) &&
		nftnl_flowtable_get_s32(msg, NFTNL_FLOWTABLE_PRIO) !=
		nftnl_flowtable_get_s32(have, NFTNL_FLOWTABLE_PRIO));
}

/*
 * Devices taken out of flowtable @have (a DELFLOWTABLE with a hook, Linux
 * 6.12's nft_delflowtable_hook): 0, or the errno the kernel answers, with
 * @have unchanged.  A hook or a priority other than the flowtable's is
 * EOPNOTSUPP, a device it does not hook ENOENT, its index in *@missing
 * (one an update of this
 * batch adds too: the kernel hooks those at the commit); a flowtable a
 * rule offloads to may lose its devices, all of them too.
 */
static int flowtable_devs_del(struct cache *cache, struct cache_table *t,
			      struct nftnl_flowtable *have,
			      const struct nftnl_flowtable *msg, int *missing)
{
	const char *const *h = ft_devs(have);
	const char *const *g = ft_devs(msg);
	const char *name = nftnl_flowtable_get_str(have, NFTNL_FLOWTABLE_NAME);
	unsigned int family = nftnl_table_get_u32(t->nlt, NFTNL_TABLE_FAMILY);
	const char *table = nftnl_table_get_str(t->nlt, NFTNL_TABLE_NAME);
	const char **keep;
	unsigned int nk = 0;

	if (ft_hook_differs(have, msg))
		return EOPNOTSUPP;
	for (unsigned int i = 0; g && g[i]; i++)
		if (!ft_has_dev(have, g[i]) ||
		    ft_dev_pending(cache, family, table, name, g[i])) {
			*missing = i;
			return ENOENT;
		}
	for (unsigned int j = 0; h && h[j]; j++)
		nk++;
	keep = xzalloc((nk + 1) * sizeof(*keep));
	nk = 0;
	for (unsigned int j = 0; h && h[j]; j++)
		if (!ft_has_dev(msg, h[j]))
			keep[nk++] = h[j];
	ft_devs_set(have, keep, nk);
	free(keep);
	return 0;
}

/* whether a flowtable of @t other than @self hooks @dev (the kernel's
   nft_register_flowtable_net_hooks(): EEXIST) */
static bool ft_dev_elsewhere(struct cache_table *t,
			     const struct nftnl_flowtable *self, const char *dev)
{
	struct cache_flowtable *o;

	list_for_each_entry(o, &t->flowtables, list)
		if (o->nlf != self && ft_has_dev(o->nlf, dev))
			return true;
	return false;
}

/*
 * Devices added to flowtable @have that exists (a NEWFLOWTABLE without
 * NLM_F_EXCL, 6.12's nft_flowtable_update): 0 or the errno.  A hook or a
 * priority other than its own, or a change of "flags offload", is
 * EOPNOTSUPP; a device it hooks already is left as it is; one an update
 * of this batch adds to a flowtable of the table (this one too), or that
 * another flowtable of the table hooks, is EEXIST.  The flags become the
 * message's (nfh and nft send them always: a counter the command leaves
 * out goes).
 */
static int flowtable_devs_add(struct cache *cache, struct cache_table *t,
			      struct nftnl_flowtable *have,
			      const struct nftnl_flowtable *msg)
{
	const char *const *h = ft_devs(have);
	const char *const *g = ft_devs(msg);
	const char *name = nftnl_flowtable_get_str(have, NFTNL_FLOWTABLE_NAME);
	unsigned int family = nftnl_table_get_u32(t->nlt, NFTNL_TABLE_FAMILY);
	const char *table = nftnl_table_get_str(t->nlt, NFTNL_TABLE_NAME);
	uint32_t flags = nftnl_flowtable_is_set(have, NFTNL_FLOWTABLE_FLAGS) ?
			 nftnl_flowtable_get_u32(have, NFTNL_FLOWTABLE_FLAGS) : 0;
	const char **all;
	unsigned int n = 0, ng = 0;

	if (ft_hook_differs(have, msg))
		return EOPNOTSUPP;
	for (unsigned int i = 0; g && g[i]; i++) {
		ng++;
		/* one this batch adds is not hooked yet: the kernel finds
		   it in the batch's updates */
		if (ft_dev_pending(cache, family, table, NULL, g[i]))
			return EEXIST;
		if (!ft_has_dev(have, g[i]) && ft_dev_elsewhere(t, have, g[i]))
			return EEXIST;
	}
	if (nftnl_flowtable_is_set(msg, NFTNL_FLOWTABLE_FLAGS)) {
		uint32_t nf = nftnl_flowtable_get_u32(msg, NFTNL_FLOWTABLE_FLAGS);

		if ((nf & ~(NFT_FLOWTABLE_HW_OFFLOAD | NFT_FLOWTABLE_COUNTER)) ||
		    ((nf ^ flags) & NFT_FLOWTABLE_HW_OFFLOAD))
			return EOPNOTSUPP;
		nftnl_flowtable_set_u32(have, NFTNL_FLOWTABLE_FLAGS, nf);
	}
	for (unsigned int j = 0; h && h[j]; j++)
		n++;
	all = xzalloc((n + ng + 1) * sizeof(*all));
	n = 0;
	for (unsigned int j = 0; h && h[j]; j++)
		all[n++] = h[j];
	for (unsigned int i = 0; g && g[i]; i++) {
		if (ft_has_dev(have, g[i]))
			continue;
		ft_dev_pending_add(cache, family, table, name, g[i]);
		all[n++] = g[i];
	}
	ft_devs_set(have, all, n);
	free(all);
	return 0;
}

/* devices taken out of @have by item @it: 0, or the error queued (the
   kernel's ENOENT in words, as netlink.c's flowtable_dev_missing() puts
   it, at the device) */
static int flowtable_devs_del_item(struct cache *c, struct cache_table *t,
				   struct nftnl_flowtable *have,
				   const struct nl_item *it, struct list_head *msgs)
{
	int k = -1, err = flowtable_devs_del(c, t, have, it->obj, &k);
	struct location loc;

	if (err == ENOENT && k >= 0)
		return error_queue(msgs, nl_item_expr_loc(it, k, &loc),
				   "Could not process flowtable: flowtable %s of table %s %s has no device \"%s\"",
				   nftnl_flowtable_get_str(have, NFTNL_FLOWTABLE_NAME),
				   family_name(it->family),
				   nftnl_table_get_str(t->nlt, NFTNL_TABLE_NAME),
				   ft_devs(it->obj)[k]);
	return err ? oerr(msgs, it, "flowtable", err) : 0;
}

/* as nf_tables: a new one gets a handle (create: EEXIST if it exists), one
   a rule offloads to cannot go (EBUSY), one whose devices go stays */
static int apply_flowtable(struct cache *c, struct nl_item *it,
			   struct list_head *msgs)
{
	struct nftnl_flowtable *f = it->obj;
	const char *name = nftnl_flowtable_is_set(f, NFTNL_FLOWTABLE_NAME) ?
			   nftnl_flowtable_get_str(f, NFTNL_FLOWTABLE_NAME) : NULL;
	struct cache_flowtable *cf;
	struct cache_table *t;
	struct cache_chain *ch;
	struct cache_rule *cr;

	t = cache_table_find(c, it->family,
			     nftnl_flowtable_get_str(f, NFTNL_FLOWTABLE_TABLE));
	if (!t)
		return oerr(msgs, it, "flowtable", ENOENT);
	cf = cache_flowtable_find(t, name, name ? 0 :
				  nftnl_flowtable_get_u64(f, NFTNL_FLOWTABLE_HANDLE));
	if (it->msg_type == NFT_MSG_NEWFLOWTABLE) {
		struct nftnl_flowtable *n;

		if (cf && (it->flags & NLM_F_EXCL))
			return oerr(msgs, it, "flowtable", EEXIST);
		if (cf) {
			int err = flowtable_devs_add(c, t, cf->nlf, f);

			return err ? oerr(msgs, it, "flowtable", err) : 0;
		}
		/* a new one on a device another flowtable of the table
		   hooks: EEXIST (6.12's nft_register_flowtable_net_hooks;
		   devices an update of this batch adds are not hooked yet,
		   ones a deletion of this batch took out are free again) */
		for (const char *const *d = ft_devs(f); d && *d; d++)
			if (ft_dev_elsewhere(t, NULL, *d))
				return oerr(msgs, it, "flowtable", EEXIST);
		n = flowtable_copy(f);
		nftnl_flowtable_set_u64(n, NFTNL_FLOWTABLE_HANDLE, t->next_handle++);
		cache_add_flowtable(t, n);
		return 0;
	}
	if (!cf)
		return it->msg_type == NFT_MSG_DELFLOWTABLE ?
		       oerr(msgs, it, "flowtable", ENOENT) : 0;
	if (nftnl_flowtable_is_set(f, NFTNL_FLOWTABLE_DEVICES))
		return flowtable_devs_del_item(c, t, cf->nlf, it, msgs);
	name = nftnl_flowtable_get_str(cf->nlf, NFTNL_FLOWTABLE_NAME);
	list_for_each_entry(ch, &t->chains, list)
		list_for_each_entry(cr, &ch->rules, list)
			if (rule_uses_flowtable(cr->nlr, name))
				return oerr(msgs, it, "flowtable", EBUSY);
	list_del(&cf->list);
	nftnl_flowtable_free(cf->nlf);
	free(cf);
	return 0;
}

static struct cache *clone_cache(struct cache *c)
{
	struct cache *n = cache_alloc();
	struct cache_table *t;

	n->next_table_handle = c->next_table_handle;
	list_for_each_entry(t, &c->tables, list) {
		struct nftnl_table *nlt = xnftnl_table_alloc();
		struct cache_table *nt;
		struct cache_chain *ch;
		struct cache_set *s;
		struct cache_obj *o;
		struct cache_flowtable *f;
		char buf[8192];
		struct nlmsghdr *nlh;

		/* round trip through the wire format: a deep copy (named
		   before it is added: the name is hashed) */
		nlh = nftnl_nlmsg_build_hdr(buf, NFT_MSG_NEWTABLE, 0, 0, 0);
		nftnl_table_nlmsg_build_payload(nlh, t->nlt);
		nftnl_table_nlmsg_parse(nlh, nlt);
		nftnl_table_set_u32(nlt, NFTNL_TABLE_FAMILY,
				    nftnl_table_get_u32(t->nlt, NFTNL_TABLE_FAMILY));
		nt = cache_add_table(n, nlt);
		nt->next_handle = t->next_handle;
		nt->next_anon_set = t->next_anon_set;
		list_for_each_entry(ch, &t->chains, list) {
			struct nftnl_chain *nlc = xnftnl_chain_alloc();
			struct cache_chain *nc;
			struct cache_rule *r;

			nlh = nftnl_nlmsg_build_hdr(buf, NFT_MSG_NEWCHAIN, 0, 0, 0);
			nl_chain_build_payload(nlh, ch->nlc);
			nl_chain_parse(nlh, nlc);
			nftnl_chain_set_u32(nlc, NFTNL_CHAIN_FAMILY,
					    nftnl_chain_get_u32(ch->nlc, NFTNL_CHAIN_FAMILY));
			nc = cache_add_chain(nt, nlc);
			list_for_each_entry(r, &ch->rules, list) {
				struct nftnl_rule *nr = xnftnl_rule_alloc();
				char *rb = xmalloc(1 << 17);

				nlh = nftnl_nlmsg_build_hdr(rb, NFT_MSG_NEWRULE, 0, 0, 0);
				nftnl_rule_nlmsg_build_payload(nlh, r->nlr);
				nl_rule_parse_built(nlh, nr);
				nftnl_rule_set_u32(nr, NFTNL_RULE_FAMILY,
						   nftnl_rule_get_u32(r->nlr, NFTNL_RULE_FAMILY));
				free(rb);
				cache_add_rule(nc, nr);
			}
		}
		list_for_each_entry(s, &t->sets, list)
			cache_add_set(nt, set_copy(s->nls));
		list_for_each_entry(o, &t->objs, list)
			cache_add_obj(nt, obj_copy(o->nlo));
		list_for_each_entry(f, &t->flowtables, list)
			cache_add_flowtable(nt, flowtable_copy(f->nlf));
	}
	return n;
}

/* as the kernel does: a jump or goto names a regular chain of the table */
static int check_jumps(struct cache_table *t, struct nftnl_rule *r)
{
	struct nftnl_expr_iter *i = nftnl_expr_iter_create(r);
	struct nftnl_expr *e;
	int err = 0;

	while (!err && (e = nftnl_expr_iter_next(i))) {
		const char *chain;
		struct cache_chain *ch;
		int v;

		if (strcmp(nftnl_expr_get_str(e, NFTNL_EXPR_NAME), "immediate") ||
		    !nftnl_expr_is_set(e, NFTNL_EXPR_IMM_CHAIN))
			continue;
		v = nftnl_expr_get_u32(e, NFTNL_EXPR_IMM_VERDICT);
		if (v != NFT_JUMP && v != NFT_GOTO)
			continue;
		chain = nftnl_expr_get_str(e, NFTNL_EXPR_IMM_CHAIN);
		ch = cache_chain_find(t, chain);
		if (!ch)
			err = ENOENT;
		else if (nftnl_chain_is_set(ch->nlc, NFTNL_CHAIN_HOOKNUM))
			err = EOPNOTSUPP;
	}
	nftnl_expr_iter_destroy(i);
	return err;
}

/* the chain a jump or goto of @r names that @t lacks, or NULL */
static const char *missing_jump(struct cache_table *t, struct nftnl_rule *r)
{
	struct nftnl_expr_iter *i = nftnl_expr_iter_create(r);
	const char *missing = NULL;
	struct nftnl_expr *e;

	while (!missing && (e = nftnl_expr_iter_next(i)))
		if (!strcmp(nftnl_expr_get_str(e, NFTNL_EXPR_NAME), "immediate") &&
		    nftnl_expr_is_set(e, NFTNL_EXPR_IMM_CHAIN) &&
		    !cache_chain_find(t, nftnl_expr_get_str(e, NFTNL_EXPR_IMM_CHAIN)))
			missing = nftnl_expr_get_str(e, NFTNL_EXPR_IMM_CHAIN);
	nftnl_expr_iter_destroy(i);
	return missing;
}

/*
 * The first object rule @it names ("counter name") that @t lacks, told as
 * its own error at the name (obj_missing()); 0 (nothing queued) when
 * there is none
 */
static int objref_missing(struct cache_table *t, const struct nl_item *it,
			  struct list_head *msgs)
{
	struct nftnl_expr_iter *i = nftnl_expr_iter_create(it->obj);
	struct location loc;
	struct nftnl_expr *e;
	int ret = 0, k = 0;

	for (; !ret && (e = nftnl_expr_iter_next(i)); k++) {
		const char *name;
		uint32_t type;

		if (strcmp(nftnl_expr_get_str(e, NFTNL_EXPR_NAME), "objref") ||
		    !nftnl_expr_is_set(e, NFTNL_EXPR_OBJREF_IMM_NAME))
			continue;
		type = nftnl_expr_get_u32(e, NFTNL_EXPR_OBJREF_IMM_TYPE);
		name = nftnl_expr_get_str(e, NFTNL_EXPR_OBJREF_IMM_NAME);
		if (!cache_obj_find(t, type, name, 0))
			ret = obj_missing(t, it, nl_item_expr_loc(it, k, &loc),
					  "rule", type, name, msgs);
	}
	nftnl_expr_iter_destroy(i);
	return ret;
}

/* the jump to @chain told at the statement that makes it */
static int jump_missing(struct cache_table *t, const struct nl_item *it,
			const char *chain, struct list_head *msgs)
{
	struct nftnl_expr_iter *i = nftnl_expr_iter_create(it->obj);
	const struct location *at = &it->loc;
	struct nftnl_expr *e;
	struct location loc;
	int k = 0;

	while ((e = nftnl_expr_iter_next(i))) {
		if (!strcmp(nftnl_expr_get_str(e, NFTNL_EXPR_NAME), "immediate") &&
		    nftnl_expr_is_set(e, NFTNL_EXPR_IMM_CHAIN) &&
		    !strcmp(nftnl_expr_get_str(e, NFTNL_EXPR_IMM_CHAIN), chain)) {
			at = nl_item_expr_loc(it, k, &loc);
			break;
		}
		k++;
	}
	nftnl_expr_iter_destroy(i);
	return chain_missing(t, it, at, "rule", chain, msgs);
}

/* the chain a delete names, by name or (delete chain ... handle N) handle */
static struct cache_chain *item_chain(struct cache_table *t,
				      const struct nftnl_chain *nlc)
{
	struct cache_chain *ch;
	uint64_t h;

	if (nftnl_chain_is_set(nlc, NFTNL_CHAIN_NAME))
		return cache_chain_find(t, nftnl_chain_get_str(nlc, NFTNL_CHAIN_NAME));
	if (!nftnl_chain_is_set(nlc, NFTNL_CHAIN_HANDLE))
		return NULL;
	h = nftnl_chain_get_u64(nlc, NFTNL_CHAIN_HANDLE);
	list_for_each_entry(ch, &t->chains, list)
		if (nftnl_chain_get_u64(ch->nlc, NFTNL_CHAIN_HANDLE) == h)
			return ch;
	return NULL;
}

static bool rule_jumps_to(struct nftnl_rule *r, const char *name)
{
	return rule_names(r, "immediate", NFTNL_EXPR_IMM_CHAIN, name);
}

static bool set_jumps_to(struct nftnl_set *nls, const char *name)
{
	struct nftnl_set_elems_iter *i = nftnl_set_elems_iter_create(nls);
	struct nftnl_set_elem *e;
	bool found = false;

	while (!found && (e = nftnl_set_elems_iter_next(i)))
		found = nftnl_set_elem_is_set(e, NFTNL_SET_ELEM_CHAIN) &&
			!strcmp(nftnl_set_elem_get_str(e, NFTNL_SET_ELEM_CHAIN), name);
	nftnl_set_elems_iter_destroy(i);
	return found;
}

/* whether a rule of another chain, or a verdict map, jumps to @ch */
static bool chain_in_use(struct cache_table *t, struct cache_chain *ch)
{
	const char *name = nftnl_chain_get_str(ch->nlc, NFTNL_CHAIN_NAME);
	struct cache_chain *o;
	struct cache_rule *r;
	struct cache_set *s;

	list_for_each_entry(o, &t->chains, list) {
		if (o == ch)
			continue;
		list_for_each_entry(r, &o->rules, list)
			if (rule_jumps_to(r->nlr, name))
				return true;
	}
	list_for_each_entry(s, &t->sets, list)
		if (set_jumps_to(s->nls, name))
			return true;
	return false;
}

/*
 * The kernel changes a table's flags once per batch: a second change
 * ("dormant off/on games", as it says) is EINVAL.  The same flags again
 * are no change at all.
 */
static int table_flags_update(struct cache_table *t, uint32_t flags)
{
	uint32_t old = nftnl_table_is_set(t->nlt, NFTNL_TABLE_FLAGS) ?
		       nftnl_table_get_u32(t->nlt, NFTNL_TABLE_FLAGS) : 0;

	if (flags == old)
		return 0;
	if (t->flags_changed)
		return -1;
	t->flags_changed = true;
	nftnl_table_set_u32(t->nlt, NFTNL_TABLE_FLAGS, flags);
	return 0;
}

static int apply_newtable(struct cache *c, struct nl_item *it,
			   struct list_head *msgs)
{
	struct cache_table *t;
	const char *tname;
	unsigned int fam = it->family;

	tname = nftnl_table_get_str(it->obj, NFTNL_TABLE_NAME);
	t = cache_table_find(c, fam, tname);
	if (t) {
		if (it->flags & NLM_F_EXCL)
			return oerr(msgs, it, "table", EEXIST);
		if (nftnl_table_is_set(it->obj, NFTNL_TABLE_FLAGS) &&
		    table_flags_update(t, nftnl_table_get_u32(it->obj,
							NFTNL_TABLE_FLAGS)) < 0)
			return oerr(msgs, it, "table", EINVAL);
		return 0;
	}
	nftnl_table_set_u64(it->obj, NFTNL_TABLE_HANDLE,
			    c->next_table_handle++);
	cache_add_table(c, it->obj);
	it->obj = NULL;
	return 0;
}

static void rule_chain_rename(struct cache_chain *ch, const char *name);

/* the kernel's jumps hold the chain, not its name: they list the new one */
static void jumps_rename(struct cache_table *t, const char *old,
			 const char *name)
{
	struct cache_chain *ch;
	struct cache_rule *cr;

	list_for_each_entry(ch, &t->chains, list)
		list_for_each_entry(cr, &ch->rules, list) {
			struct nftnl_expr_iter *i = nftnl_expr_iter_create(cr->nlr);
			struct nftnl_expr *e;

			while ((e = nftnl_expr_iter_next(i)))
				if (!strcmp(nftnl_expr_get_str(e, NFTNL_EXPR_NAME),
					    "immediate") &&
				    nftnl_expr_is_set(e, NFTNL_EXPR_IMM_CHAIN) &&
				    !strcmp(nftnl_expr_get_str(e, NFTNL_EXPR_IMM_CHAIN),
					    old))
					xnftnl_expr_set_str(e, NFTNL_EXPR_IMM_CHAIN,
							    name);
			nftnl_expr_iter_destroy(i);
		}
}

/* rename chain: the chain of the handle gets the name, if no other has it */
static int chain_rename(struct cache_table *t, struct nl_item *it,
			struct list_head *msgs)
{
	const char *name = nftnl_chain_get_str(it->obj, NFTNL_CHAIN_NAME);
	uint64_t h = nftnl_chain_get_u64(it->obj, NFTNL_CHAIN_HANDLE);
	struct cache_chain *ch, *found = NULL;

	list_for_each_entry(ch, &t->chains, list)
		if (nftnl_chain_get_u64(ch->nlc, NFTNL_CHAIN_HANDLE) == h)
			found = ch;
	if (!found)
		return oerr(msgs, it, "chain", ENOENT);
	if (cache_chain_find(t, name))
		return oerr(msgs, it, "chain", EEXIST);
	jumps_rename(t, nftnl_chain_get_str(found->nlc, NFTNL_CHAIN_NAME),
		     name);
	cache_rename_chain(t, found, name);
	rule_chain_rename(found, name);
	return 0;
}

/* a chain's rules name it (and jumps to it, by name, are resolved by
   the kernel by pointer: they follow the rename) */
static void rule_chain_rename(struct cache_chain *ch, const char *name)
{
	struct cache_rule *cr;

	list_for_each_entry(cr, &ch->rules, list)
		xnftnl_rule_set_str(cr->nlr, NFTNL_RULE_CHAIN, name);
}

/* the names the kernel gives chain bindings: __chain1, ... */
static uint32_t binding_names;

/* the chain of the batch with id @id (the last one made, ids restart with
   each batch), or NULL */
static struct cache_chain *chain_by_id(struct cache_table *t, uint32_t id)
{
	struct cache_chain *ch, *found = NULL;

	list_for_each_entry(ch, &t->chains, list)
		if (nftnl_chain_is_set(ch->nlc, NFTNL_CHAIN_ID) &&
		    nftnl_chain_get_u32(ch->nlc, NFTNL_CHAIN_ID) == id)
			found = ch;
	return found;
}

/* a verdict naming a chain of the batch by its id names it, as the
   kernel lists it */
static int verdict_ids_resolve(struct cache_table *t, struct nftnl_rule *r)
{
	struct nftnl_expr_iter *i = nftnl_expr_iter_create(r);
	struct nftnl_expr *e;
	int err = 0;

	while (!err && (e = nftnl_expr_iter_next(i))) {
		struct cache_chain *ch;

		if (strcmp(nftnl_expr_get_str(e, NFTNL_EXPR_NAME), "immediate") ||
		    nftnl_expr_is_set(e, NFTNL_EXPR_IMM_CHAIN) ||
		    !nftnl_expr_is_set(e, NFTNL_EXPR_IMM_CHAIN_ID))
			continue;
		ch = chain_by_id(t, nftnl_expr_get_u32(e, NFTNL_EXPR_IMM_CHAIN_ID));
		if (!ch)
			err = ENOENT;
		else
			xnftnl_expr_set_str(e, NFTNL_EXPR_IMM_CHAIN,
					    nftnl_chain_get_str(ch->nlc,
								NFTNL_CHAIN_NAME));
	}
	nftnl_expr_iter_destroy(i);
	return err;
}

static bool chain_is_binding(const struct cache_chain *ch)
{
	return nftnl_chain_is_set(ch->nlc, NFTNL_CHAIN_FLAGS) &&
	       (nftnl_chain_get_u32(ch->nlc, NFTNL_CHAIN_FLAGS) &
		NFT_CHAIN_BINDING);
}

static bool chain_bound(struct cache_table *t, const char *name)
{
	struct cache_chain *o;
	struct cache_rule *r;

	list_for_each_entry(o, &t->chains, list)
		list_for_each_entry(r, &o->rules, list)
			if (rule_jumps_to(r->nlr, name))
				return true;
	return false;
}

/* rules deleted take the chains bound to them along, as the kernel does */
static void bindings_sweep(struct cache_table *t)
{
	struct cache_chain *ch, *next;
	struct cache_rule *cr, *crn;
	bool again = true;

	while (again) {
		again = false;
		list_for_each_entry_safe(ch, next, &t->chains, list) {
			if (!chain_is_binding(ch) ||
			    chain_bound(t, nftnl_chain_get_str(ch->nlc,
							       NFTNL_CHAIN_NAME)))
				continue;
			list_for_each_entry_safe(cr, crn, &ch->rules, list) {
				list_del(&cr->list);
				nftnl_rule_free(cr->nlr);
				free(cr);
			}
			cache_unlink_chain(t, ch);
			nftnl_chain_free(ch->nlc);
			free(ch);
			again = true;
			break;
		}
	}
}

/* --- a base chain's devices added or removed (nft 1.1) --------------------- */

/* the kernel's NFT_NETDEVICE_MAX */
#define NFT_DEVS_MAX	256

static bool chain_has_devs(const struct nftnl_chain *c)
{
	return nftnl_chain_is_set(c, NFTNL_CHAIN_DEV) ||
	       nftnl_chain_is_set(c, NFTNL_CHAIN_DEVICES);
}

/* the names of @c's devices (borrowed), their number */
static unsigned int chain_devs(const struct nftnl_chain *c,
			       const char **out, unsigned int max)
{
	const char *const *devs;
	unsigned int n = 0;

	if (nftnl_chain_is_set(c, NFTNL_CHAIN_DEV)) {
		out[n++] = nftnl_chain_get_str(c, NFTNL_CHAIN_DEV);
		return n;
	}
	if (!nftnl_chain_is_set(c, NFTNL_CHAIN_DEVICES))
		return 0;
	devs = nftnl_chain_get(c, NFTNL_CHAIN_DEVICES);
	while (devs[n] && n < max) {
		out[n] = devs[n];
		n++;
	}
	return n;
}

/* @c's devices made @names: one as NFTA_HOOK_DEV, more as a list, as the
   kernel dumps them */
static void chain_devs_set(struct nftnl_chain *c, const char **names,
			   unsigned int n)
{
	const char **copy = xzalloc((n + 1) * sizeof(*copy));
	char *one = n == 1 ? xstrdup(names[0]) : NULL;

	/* the names may be @c's own: copied before they are unset */
	for (unsigned int i = 0; i < n; i++)
		copy[i] = xstrdup(names[i]);
	nftnl_chain_unset(c, NFTNL_CHAIN_DEV);
	nftnl_chain_unset(c, NFTNL_CHAIN_DEVICES);
	if (one)
		xnftnl_chain_set_str(c, NFTNL_CHAIN_DEV, one);
	else if (n > 1)
		xnftnl_chain_set_data(c, NFTNL_CHAIN_DEVICES, copy,
				      sizeof(*copy) * (n + 1));
	for (unsigned int i = 0; i < n; i++)
		free((char *)copy[i]);
	free(copy);
	free(one);
}

static bool dev_in(const char *name, const char **names, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return true;
	return false;
}

static char *pending_key(const struct nftnl_chain *c, const char *dev)
{
	char *k;

	if (asprintf(&k, "%u %s %s %s", nftnl_chain_get_u32(c, NFTNL_CHAIN_FAMILY),
		     nftnl_chain_get_str(c, NFTNL_CHAIN_TABLE),
		     nftnl_chain_get_str(c, NFTNL_CHAIN_NAME), dev) < 0)
		memory_allocation_error();
	return k;
}

static bool dev_pending(const struct cache *cache, const struct nftnl_chain *c,
			const char *dev)
{
	char *k = pending_key(c, dev);
	bool hit = false;

	for (size_t i = 0; i < cache->npending_devs && !hit; i++)
		hit = !strcmp(cache->pending_devs[i], k);
	free(k);
	return hit;
}

static void dev_pending_add(struct cache *cache, const struct nftnl_chain *c,
			    const char *dev)
{
	cache->pending_devs = xrealloc(cache->pending_devs,
				       (cache->npending_devs + 1) *
				       sizeof(*cache->pending_devs));
	cache->pending_devs[cache->npending_devs++] = pending_key(c, dev);
}

/* a flowtable's: "ft FAMILY TABLE\nNAME\nDEV" (no name has a newline) */
static char *ft_pending_key(unsigned int family, const char *table,
			    const char *name, const char *dev)
{
	return xasprintf("ft %u %s\n%s\n%s", family, table, name, dev);
}

/* whether an update of this batch adds @dev to flowtable @name of the
   table (@name NULL: to any of its flowtables) */
static bool ft_dev_pending(const struct cache *cache, unsigned int family,
			   const char *table, const char *name, const char *dev)
{
	char *head = xasprintf("ft %u %s\n", family, table);
	char *tail = xasprintf("\n%s", dev);
	char *k = name ? ft_pending_key(family, table, name, dev) : NULL;
	size_t lh = strlen(head), lt = strlen(tail);
	bool hit = false;

	for (size_t i = 0; i < cache->npending_devs && !hit; i++) {
		const char *p = cache->pending_devs[i];
		size_t lp = strlen(p);

		if (k)
			hit = !strcmp(p, k);
		else
			hit = lp > lh + lt && !strncmp(p, head, lh) &&
			      !strcmp(p + lp - lt, tail) &&
			      !memchr(p + lh, '\n', lp - lh - lt);
	}
	free(head);
	free(tail);
	free(k);
	return hit;
}

static void ft_dev_pending_add(struct cache *cache, unsigned int family,
			       const char *table, const char *name,
			       const char *dev)
{
	cache->pending_devs = xrealloc(cache->pending_devs,
				       (cache->npending_devs + 1) *
				       sizeof(*cache->pending_devs));
	cache->pending_devs[cache->npending_devs++] =
		ft_pending_key(family, table, name, dev);
}

static void devs_pending_free(struct cache *cache)
{
	for (size_t i = 0; i < cache->npending_devs; i++)
		free(cache->pending_devs[i]);
	free(cache->pending_devs);
	cache->pending_devs = NULL;
	cache->npending_devs = 0;
}

/*
 * Add (@del false) or remove the devices of @msg on the base chain @c: 0
 * or the errno the kernel answers.  Devices an update adds wait apart
 * until the commit: adding one again is EEXIST, removing it ENOENT.
 */
static int chain_devs_update(struct cache *cache, struct nftnl_chain *c,
			     const struct nftnl_chain *msg, bool del)
{
	const char *have[NFT_DEVS_MAX * 2], *give[NFT_DEVS_MAX], *keep[NFT_DEVS_MAX * 2];
	unsigned int nh, ng, nk = 0;

	if (!nftnl_chain_is_set(c, NFTNL_CHAIN_HOOKNUM))
		return del ? EOPNOTSUPP : EEXIST;
	nh = chain_devs(c, have, NFT_DEVS_MAX);
	ng = chain_devs(msg, give, NFT_DEVS_MAX);
	if (del) {
		for (unsigned int i = 0; i < ng; i++)
			if (!dev_in(give[i], have, nh) ||
			    dev_pending(cache, c, give[i]))
				return ENOENT;
		for (unsigned int i = 0; i < nh; i++)
			if (!dev_in(have[i], give, ng))
				keep[nk++] = have[i];
	} else {
		for (unsigned int i = 0; i < nh; i++)
			keep[nk++] = have[i];
		for (unsigned int i = 0; i < ng; i++) {
			if (dev_pending(cache, c, give[i]))
				return EEXIST;
			if (dev_in(give[i], keep, nk))
				continue;
			keep[nk++] = give[i];
			dev_pending_add(cache, c, give[i]);
		}
		if (nk > NFT_DEVS_MAX)
			return EFBIG;
	}
	chain_devs_set(c, keep, nk);
	return 0;
}

static bool chain_attr_differs(struct nftnl_chain *a, struct nftnl_chain *b,
			       uint16_t attr)
{
	if (nftnl_chain_is_set(a, attr) != nftnl_chain_is_set(b, attr))
		return true;
	if (!nftnl_chain_is_set(a, attr))
		return false;
	if (attr == NFTNL_CHAIN_TYPE)
		return strcmp(nftnl_chain_get_str(a, attr),
			      nftnl_chain_get_str(b, attr));
	return nftnl_chain_get_u32(a, attr) != nftnl_chain_get_u32(b, attr);
}

/*
 * A chain there already, given a hook (nf_tables_updchain()): a regular
 * chain cannot become a base chain, and a base chain keeps its type, and
 * its hook and priority outside the netdev hooks, whose devices alone
 * change.  Kernels answer with different errors (EEXIST in 6.12, a hook
 * or priority change EOPNOTSUPP in 6.18): the model says what is wrong.
 */
static bool hook_changes(unsigned int family, struct nftnl_chain *old,
			 struct nftnl_chain *new)
{
	if (!nftnl_chain_is_set(old, NFTNL_CHAIN_HOOKNUM))
		return true;
	if (chain_attr_differs(old, new, NFTNL_CHAIN_TYPE))
		return true;
	if (family == NFPROTO_NETDEV ||
	    (family == NFPROTO_INET &&
	     nftnl_chain_get_u32(old, NFTNL_CHAIN_HOOKNUM) == NF_INET_INGRESS))
		return false;
	return chain_attr_differs(old, new, NFTNL_CHAIN_HOOKNUM) ||
	       chain_attr_differs(old, new, NFTNL_CHAIN_PRIO);
}

static int hook_change_err(struct nftnl_chain *old, const struct nl_item *it,
			   struct list_head *msgs)
{
	const char *name = nftnl_chain_get_str(old, NFTNL_CHAIN_NAME);

	if (!nftnl_chain_is_set(old, NFTNL_CHAIN_HOOKNUM))
		return error_queue(msgs, &it->loc,
				   "Could not process chain: chain %s exists as a regular chain, which cannot become a base chain",
				   name);
	return error_queue(msgs, &it->loc,
			   "Could not process chain: the type, hook and priority of base chain %s cannot change (delete it and add it again)",
			   name);
}

static int apply_newchain(struct cache *c, struct nl_item *it,
			   struct list_head *msgs)
{
	struct cache_table *t;
	struct cache_chain *ch;
	unsigned int fam = it->family;

	t = cache_table_find(c, fam, nftnl_chain_get_str(it->obj, NFTNL_CHAIN_TABLE));
	if (!t)
		return oerr(msgs, it, "chain", ENOENT);
	if (check_chain_devices(it->obj))
		return oerr(msgs, it, "chain", EFBIG);
	if (nftnl_chain_is_set(it->obj, NFTNL_CHAIN_HANDLE) &&
	    nftnl_chain_is_set(it->obj, NFTNL_CHAIN_NAME))
		return chain_rename(t, it, msgs);
	if (!nftnl_chain_is_set(it->obj, NFTNL_CHAIN_NAME)) {
		/* a chain binding's: the kernel names it, from a counter of
		   its own, and the batch finds it by its id */
		char name[32];

		if (!(nftnl_chain_is_set(it->obj, NFTNL_CHAIN_FLAGS) &&
		      (nftnl_chain_get_u32(it->obj, NFTNL_CHAIN_FLAGS) &
		       NFT_CHAIN_BINDING)) ||
		    !it->chain_id)
			return oerr(msgs, it, "chain", EINVAL);
		nftnl_chain_set_u32(it->obj, NFTNL_CHAIN_ID, it->chain_id);
		snprintf(name, sizeof(name), "__chain%u", ++binding_names);
		xnftnl_chain_set_str(it->obj, NFTNL_CHAIN_NAME, name);
	}
	ch = cache_chain_find(t, nftnl_chain_get_str(it->obj, NFTNL_CHAIN_NAME));
	/* devices alone: for a base chain that is there */
	if (chain_has_devs(it->obj) &&
	    !nftnl_chain_is_set(it->obj, NFTNL_CHAIN_HOOKNUM)) {
		int err = ch ? chain_devs_update(c, ch->nlc, it->obj, false) :
			       ENOENT;

		return err ? oerr(msgs, it, "chain", err) : 0;
	}
	if (ch) {
		if (it->flags & NLM_F_EXCL)
			return oerr(msgs, it, "chain", EEXIST);
		if (nftnl_chain_is_set(it->obj, NFTNL_CHAIN_HOOKNUM) &&
		    hook_changes(fam, ch->nlc, it->obj))
			return hook_change_err(ch->nlc, it, msgs);
		if (nftnl_chain_is_set(it->obj, NFTNL_CHAIN_POLICY))
			nftnl_chain_set_u32(ch->nlc, NFTNL_CHAIN_POLICY,
					    nftnl_chain_get_u32(it->obj, NFTNL_CHAIN_POLICY));
		return 0;
	}
	nftnl_chain_set_u64(it->obj, NFTNL_CHAIN_HANDLE, t->next_handle++);
	if (nftnl_chain_is_set(it->obj, NFTNL_CHAIN_HOOKNUM) &&
	    !nftnl_chain_is_set(it->obj, NFTNL_CHAIN_POLICY))
		nftnl_chain_set_u32(it->obj, NFTNL_CHAIN_POLICY, NF_ACCEPT);
	cache_add_chain(t, it->obj);
	it->obj = NULL;
	return 0;
}

#define SET_EXPRS_MAX 2		/* nf_tables' NFT_SET_EXPR_MAX */

static int set_expr_name(struct nftnl_expr *e, void *data)
{
	char **names = data, **end = names + SET_EXPRS_MAX;

	while (names < end && *names)
		names++;
	if (names < end)
		*names = (char *)nftnl_expr_get_str(e, NFTNL_EXPR_NAME);
	return 0;
}

static uint32_t set_u32_or(const struct nftnl_set *s, uint16_t attr,
			   uint32_t dflt)
{
	return nftnl_set_is_set(s, attr) ? nftnl_set_get_u32(s, attr) : dflt;
}

/*
 * As nf_tables: a set added again (no NLM_F_EXCL) must be declared as it
 * was, its key and data types and lengths, flags, concatenated fields and
 * statements' kinds alike, else EEXIST (its comment, size, timeout, policy
 * and user data may differ)
 */
static bool set_is_same(const struct nftnl_set *a, const struct nftnl_set *b)
{
	char *xa[SET_EXPRS_MAX + 1] = { NULL }, *xb[SET_EXPRS_MAX + 1] = { NULL };
	const void *fa = NULL, *fb = NULL;
	uint32_t la = 0, lb = 0, dt;
	int i;

	if (set_u32_or(a, NFTNL_SET_KEY_TYPE, 0) != set_u32_or(b, NFTNL_SET_KEY_TYPE, 0) ||
	    set_u32_or(a, NFTNL_SET_KEY_LEN, 0) != set_u32_or(b, NFTNL_SET_KEY_LEN, 0) ||
	    set_u32_or(a, NFTNL_SET_FLAGS, 0) != set_u32_or(b, NFTNL_SET_FLAGS, 0))
		return false;
	dt = set_u32_or(a, NFTNL_SET_DATA_TYPE, 0);
	if (dt != set_u32_or(b, NFTNL_SET_DATA_TYPE, 0))
		return false;
	/* a verdict's length is the kernel's own */
	if (dt != NFT_DATA_VERDICT &&
	    set_u32_or(a, NFTNL_SET_DATA_LEN, 0) != set_u32_or(b, NFTNL_SET_DATA_LEN, 0))
		return false;
	if (nftnl_set_is_set(a, NFTNL_SET_DESC_CONCAT))
		fa = nftnl_set_get_data(a, NFTNL_SET_DESC_CONCAT, &la);
	if (nftnl_set_is_set(b, NFTNL_SET_DESC_CONCAT))
		fb = nftnl_set_get_data(b, NFTNL_SET_DESC_CONCAT, &lb);
	if (la != lb || (la && memcmp(fa, fb, la)))
		return false;
	nftnl_set_expr_foreach((struct nftnl_set *)a, set_expr_name, xa);
	nftnl_set_expr_foreach((struct nftnl_set *)b, set_expr_name, xb);
	for (i = 0; i < SET_EXPRS_MAX; i++)
		if ((xa[i] || xb[i]) &&
		    (!xa[i] || !xb[i] || strcmp(xa[i], xb[i])))
			return false;
	return true;
}

/* as nft_select_set_ops() of a kernel with every set type (pipapo
   included): why none can hold new set @s, or NULL */
static const char *set_type_missing(struct nftnl_set *s)
{
	return kfeature_set_refusal(nftnl_set_is_set(s, NFTNL_SET_FLAGS) ?
				    nftnl_set_get_u32(s, NFTNL_SET_FLAGS) : 0,
				    1);
}

static int apply_newset(struct cache *c, struct nl_item *it,
			 struct list_head *msgs)
{
	struct cache_table *t;
	unsigned int fam = it->family;
	const char *err;

	t = cache_table_find(c, fam, nftnl_set_get_str(it->obj, NFTNL_SET_TABLE));
	if (!t)
		return oerr(msgs, it, "set", ENOENT);
	if ((nftnl_set_get_u32(it->obj, NFTNL_SET_FLAGS) & NFT_SET_ANONYMOUS) &&
	    strchr(nftnl_set_get_str(it->obj, NFTNL_SET_NAME), '%')) {
		/* "__set%d": the kernel numbers it (a meter's is named) */
		const char *tmpl = nftnl_set_get_str(it->obj, NFTNL_SET_NAME);
		char name[32];

		snprintf(name, sizeof(name), "%.*s%u",
			 (int)(strchr(tmpl, '%') - tmpl), tmpl,
			 t->next_anon_set++);
		xnftnl_set_set_str(it->obj, NFTNL_SET_NAME, name);
	} else if (cache_set_find(t, nftnl_set_get_str(it->obj, NFTNL_SET_NAME))) {
		struct cache_set *old = cache_set_find(t,
			nftnl_set_get_str(it->obj, NFTNL_SET_NAME));

		if (it->flags & NLM_F_EXCL)
			return oerr(msgs, it, "set", EEXIST);
		if (old->nls && !set_is_same(old->nls, it->obj))
			return oerr(msgs, it, "set", EEXIST);
		/* the batch id still finds it for the elements */
		if (nftnl_set_is_set(it->obj, NFTNL_SET_ID))
			nftnl_set_set_u32(old->nls, NFTNL_SET_ID,
					  nftnl_set_get_u32(it->obj, NFTNL_SET_ID));
		return 0;
	}
	err = set_type_missing(it->obj);
	if (err)
		return error_queue(msgs, &it->loc,
				   "Could not process set: %s: %s",
				   strerror(EOPNOTSUPP), err);
	nftnl_set_set_u64(it->obj, NFTNL_SET_HANDLE, t->next_handle++);
	cache_add_set(t, it->obj);
	it->obj = NULL;
	return 0;
}

static int apply_newsetelem(struct cache *c, struct nl_item *it,
			     struct list_head *msgs)
{
	struct nftnl_set_elems_iter *i;
	struct nftnl_set_elem *e;
	struct cache_set *s = item_set(c, it);
	struct nftnl_set_elem **added;
	bool *again;
	size_t k = 0, nadded = 0;
	int err;

	if (!s)
		return oerr(msgs, it, "set elements", ENOENT);
	if (check_elem_objs(cache_table_find(c, it->family,
				nftnl_set_get_str(it->obj, NFTNL_SET_TABLE)),
			    s, it, msgs) < 0)
		return -1;
	i = nftnl_set_elems_iter_create(it->obj);
	while (nftnl_set_elems_iter_next(i))
		k++;
	nftnl_set_elems_iter_destroy(i);
	again = xzalloc(k + 1);
	added = xmalloc((k + 1) * sizeof(*added));
	err = offline_elems_check(c->elems_memo, s->nls, it->obj, it->flags,
				  again);
	if (err) {
		free(again);
		free(added);
		return oerr(msgs, it, "set elements", err);
	}
	/* the set's own statements go into each element without any */
	i = nftnl_set_elems_iter_create(it->obj);
	for (k = 0; (e = nftnl_set_elems_iter_next(i)); k++) {
		struct nftnl_set_elem *n;
		bool has = false;

		if (again[k])
			continue;	/* held already, the same */
		n = elem_dup(e);
		elem_timeout_kept(s->nls, n);
		nftnl_set_elem_expr_foreach(e, elem_has_expr, &has);
		if (!has)
			nftnl_set_expr_foreach(s->nls, expr_to_elem, n);
		nftnl_set_elem_add(s->nls, n);
		added[nadded++] = n;
	}
	nftnl_set_elems_iter_destroy(i);
	offline_elems_added(c->elems_memo, s->nls, added, nadded);
	free(again);
	free(added);
	return 0;
}

/* replace rule handle H: the rule there becomes @it's; false if none is */
static bool rule_replace(struct cache_chain *ch, struct nl_item *it)
{
	struct nftnl_rule *r = it->obj;
	uint64_t h = nftnl_rule_get_u64(r, NFTNL_RULE_HANDLE);
	struct cache_rule *cr;

	list_for_each_entry(cr, &ch->rules, list)
		if (nftnl_rule_get_u64(cr->nlr, NFTNL_RULE_HANDLE) == h) {
			nftnl_rule_free(cr->nlr);
			cr->nlr = r;
			cr->item = it;
			it->obj = NULL;
			return true;
		}
	return false;
}

/* @cr where @it puts it: next to a rule the kernel holds (handle @pos) or
   one of the batch (its position id), else first or (append) last;
   false if the rule it names is not there */
static bool rule_place(struct cache_chain *ch, struct cache_rule *cr,
		       const struct nl_item *it, uint64_t pos)
{
	struct nftnl_rule *r = cr->nlr;
	bool by_id = nftnl_rule_is_set(r, NFTNL_RULE_POSITION_ID);
	uint32_t id = by_id ? nftnl_rule_get_u32(r, NFTNL_RULE_POSITION_ID) : 0;
	struct cache_rule *p;

	if (!pos && !by_id) {
		if (it->flags & NLM_F_APPEND)
			list_add_tail(&cr->list, &ch->rules);
		else
			list_add(&cr->list, &ch->rules);
		return true;
	}
	list_for_each_entry(p, &ch->rules, list)
		if (by_id ? nftnl_rule_is_set(p->nlr, NFTNL_RULE_ID) &&
			 nftnl_rule_get_u32(p->nlr, NFTNL_RULE_ID) == id :
			 nftnl_rule_get_u64(p->nlr, NFTNL_RULE_HANDLE) == pos)
			break;
	if (&p->list == &ch->rules)
		return false;
	if (it->flags & NLM_F_APPEND)
		list_add(&cr->list, &p->list);
	else
		list_add_tail(&cr->list, &p->list);
	return true;
}

/*
 * A rule for a table or chain that is not there: which, and "did you
 * mean" from those there are (as the kernel's answer is told,
 * rule_name_missing() in netlink.c)
 */
static int rule_name_missing(struct cache *c, struct cache_table *t,
			     const struct nl_item *it, struct list_head *msgs)
{
	const struct nftnl_rule *r = it->obj;
	const char *table = nftnl_rule_get_str(r, NFTNL_RULE_TABLE);
	const char *chain = nftnl_rule_get_str(r, NFTNL_RULE_CHAIN);
	struct cache_chain *ch;
	struct cache_table *o;
	struct suggest sg;

	if (!t) {
		suggest_init(&sg, table);
		list_for_each_entry(o, &c->tables, list)
			if (nftnl_table_get_u32(o->nlt, NFTNL_TABLE_FAMILY) == it->family)
				suggest_add(&sg, nftnl_table_get_str(o->nlt,
								     NFTNL_TABLE_NAME));
		return error_queue(msgs, &it->loc,
				   "Could not process rule: table \"%s\" does not exist in family %s%s",
				   table, family_name(it->family), suggest_hint(&sg));
	}
	suggest_init(&sg, chain);
	list_for_each_entry(ch, &t->chains, list)
		suggest_add(&sg, nftnl_chain_get_str(ch->nlc, NFTNL_CHAIN_NAME));
	return error_queue(msgs, &it->loc,
			   "Could not process rule: chain \"%s\" does not exist in table %s %s%s",
			   chain, family_name(it->family), table, suggest_hint(&sg));
}

/* as nft_dynset_init(): a set a rule's dynset is bound to gets a size of
   0xffff if it has none (a listing then says size 65535) */
static void dynset_sizes(struct cache_table *t, struct nftnl_rule *r)
{
	struct nftnl_expr_iter *i = nftnl_expr_iter_create(r);
	struct nftnl_expr *e;

	while ((e = nftnl_expr_iter_next(i))) {
		struct cache_set *s = NULL;

		if (strcmp(nftnl_expr_get_str(e, NFTNL_EXPR_NAME), "dynset"))
			continue;
		if (nftnl_expr_is_set(e, NFTNL_EXPR_DYNSET_SET_NAME))
			s = cache_set_find(t, nftnl_expr_get_str(e,
						NFTNL_EXPR_DYNSET_SET_NAME));
		if (!s && nftnl_expr_is_set(e, NFTNL_EXPR_DYNSET_SET_ID))
			s = cache_set_find_id(t, nftnl_expr_get_u32(e,
						NFTNL_EXPR_DYNSET_SET_ID));
		if (s && !(nftnl_set_is_set(s->nls, NFTNL_SET_DESC_SIZE) &&
			   nftnl_set_get_u32(s->nls, NFTNL_SET_DESC_SIZE)))
			nftnl_set_set_u32(s->nls, NFTNL_SET_DESC_SIZE, 0xffff);
	}
	nftnl_expr_iter_destroy(i);
}

static int apply_newrule(struct cache *c, struct nl_item *it,
			 struct list_head *msgs)
{
	struct nftnl_rule *r = it->obj;
	struct cache_table *t;
	struct cache_chain *ch;
	struct cache_rule *cr;
	int err;
	uint64_t pos = nftnl_rule_is_set(r, NFTNL_RULE_POSITION) ?
		       nftnl_rule_get_u64(r, NFTNL_RULE_POSITION) : 0;

	t = cache_table_find(c, it->family,
			     nftnl_rule_get_str(r, NFTNL_RULE_TABLE));
	if (!t)
		return rule_name_missing(c, NULL, it, msgs);
	if (!nftnl_rule_is_set(r, NFTNL_RULE_CHAIN) && it->chain_id) {
		/* a chain binding's rule: its chain by id */
		ch = chain_by_id(t, it->chain_id);
		if (!ch)
			return oerr(msgs, it, "rule", ENOENT);
		xnftnl_rule_set_str(r, NFTNL_RULE_CHAIN,
				    nftnl_chain_get_str(ch->nlc, NFTNL_CHAIN_NAME));
	}
	ch = cache_chain_find(t, nftnl_rule_get_str(r, NFTNL_RULE_CHAIN));
	if (!ch)
		return rule_name_missing(c, t, it, msgs);
	if ((err = verdict_ids_resolve(t, r)))
		return oerr(msgs, it, "rule", err);
	if ((err = check_rule_limits(r)) || (err = check_jumps(t, r)) ||
	    (err = check_objrefs(t, r)))
		return err == ENOENT && missing_jump(t, r) ?
		       jump_missing(t, it, missing_jump(t, r), msgs) :
		       err == ENOENT && objref_missing(t, it, msgs) ? -1 :
		       oerr(msgs, it, "rule", err);
	if (it->flags & NLM_F_REPLACE)
		return rule_replace(ch, it) ? 0 : oerr(msgs, it, "rule", ENOENT);
	nftnl_rule_set_u64(r, NFTNL_RULE_HANDLE, t->next_handle++);
	cr = xzalloc(sizeof(*cr));
	cr->nlr = r;
	cr->item = it;
	if (!rule_place(ch, cr, it, pos)) {
		free(cr);
		return oerr(msgs, it, "rule", ENOENT);
	}
	dynset_sizes(t, r);
	it->obj = NULL;
	return 0;
}

static int apply_delsetelem(struct cache *c, struct nl_item *it,
			     struct list_head *msgs)
{
	struct cache_set *s = item_set(c, it);
	int err;

	if (!s)
		return oerr(msgs, it, "set elements", ENOENT);
	err = set_del_elems(s, it->obj,
			    it->msg_type == NFT_MSG_DELSETELEM);
	if (err < 0)
		return oerr(msgs, it, "set elements", -err);
	return 0;
}

static int apply_delset(struct cache *c, struct nl_item *it,
			 struct list_head *msgs)
{
	struct cache_table *t;
	struct cache_chain *ch;
	unsigned int fam = it->family;
	struct cache_set *s = item_set(c, it);
	const char *name;

	if (!s)
		return it->msg_type == NFT_MSG_DELSET ?
		       oerr(msgs, it, "set", ENOENT) : 0;
	name = nftnl_set_get_str(s->nls, NFTNL_SET_NAME);
	t = cache_table_find(c, fam, nftnl_set_get_str(it->obj, NFTNL_SET_TABLE));
	list_for_each_entry(ch, &t->chains, list) {
		struct cache_rule *cr;

		list_for_each_entry(cr, &ch->rules, list)
			if (rule_uses_set(cr->nlr, name))
				return oerr(msgs, it, "set", EBUSY);
	}
	cache_unlink_set(t, s);
	nftnl_set_free(s->nls);
	free(s);
	return 0;
}

static int apply_deltable(struct cache *c, struct nl_item *it,
			   struct list_head *msgs)
{
	struct cache_table *t;
	unsigned int fam = it->family;
	struct cache_table *tn;
	bool found = false;

	bool by_name = nftnl_table_is_set(it->obj, NFTNL_TABLE_NAME);

	if (!by_name && !nftnl_table_is_set(it->obj, NFTNL_TABLE_HANDLE)) {
		list_for_each_entry_safe(t, tn, &c->tables, list) {
			if (fam && nftnl_table_get_u32(t->nlt, NFTNL_TABLE_FAMILY) != fam)
				continue;
			cache_unlink_table(c, t);
			cache_table_free(t);
		}
		return 0;
	}
	list_for_each_entry_safe(t, tn, &c->tables, list) {
		if (nftnl_table_get_u32(t->nlt, NFTNL_TABLE_FAMILY) != fam ||
		    (by_name ?
		     strcmp(nftnl_table_get_str(t->nlt, NFTNL_TABLE_NAME),
			    nftnl_table_get_str(it->obj, NFTNL_TABLE_NAME)) :
		     nftnl_table_get_u64(t->nlt, NFTNL_TABLE_HANDLE) !=
		     nftnl_table_get_u64(it->obj, NFTNL_TABLE_HANDLE)))
			continue;
		cache_unlink_table(c, t);
		cache_table_free(t);
		found = true;
	}
	if (!found && it->msg_type == NFT_MSG_DELTABLE)
		return oerr(msgs, it, "table", ENOENT);
	return 0;
}

static int apply_delchain(struct cache *c, struct nl_item *it,
			   struct list_head *msgs)
{
	struct cache_table *t;
	struct cache_chain *ch;
	unsigned int fam = it->family;
	struct cache_rule *cr, *crn;

	t = cache_table_find(c, fam, nftnl_chain_get_str(it->obj, NFTNL_CHAIN_TABLE));
	ch = t ? item_chain(t, it->obj) : NULL;
	if (!ch)
		return it->msg_type == NFT_MSG_DELCHAIN ?
		       oerr(msgs, it, "chain", ENOENT) : 0;
	/* devices removed: the chain stays */
	if (chain_has_devs(it->obj)) {
		int err = chain_devs_update(c, ch->nlc, it->obj, true);

		return err ? oerr(msgs, it, "chain", err) : 0;
	}
	/* as the kernel: its rules go with it, jumps to it keep it; the
	   rules go first, and stay gone when it is kept (as they do in the
	   kernel until the batch is aborted: a set or object that only they
	   used can be deleted after) */
	if ((it->flags & NLM_F_NONREC) && chain_in_use(t, ch))
		return oerr(msgs, it, "chain", EBUSY);
	list_for_each_entry_safe(cr, crn, &ch->rules, list) {
		list_del(&cr->list);
		nftnl_rule_free(cr->nlr);
		free(cr);
	}
	if (chain_in_use(t, ch))
		return oerr(msgs, it, "chain", EBUSY);
	cache_unlink_chain(t, ch);
	nftnl_chain_free(ch->nlc);
	free(ch);
	return 0;
}

static int apply_delrule(struct cache *c, struct nl_item *it,
			  struct list_head *msgs)
{
	struct cache_table *t;
	struct cache_chain *ch;
	unsigned int fam = it->family;
	struct nftnl_rule *r = it->obj;
	struct cache_rule *cr, *crn;
	bool has_handle = nftnl_rule_is_set(r, NFTNL_RULE_HANDLE);
	bool found = false;

	t = cache_table_find(c, fam, nftnl_rule_get_str(r, NFTNL_RULE_TABLE));
	if (!t)
		return oerr(msgs, it, "rule", ENOENT);
	list_for_each_entry(ch, &t->chains, list) {
		if (nftnl_rule_is_set(r, NFTNL_RULE_CHAIN) &&
		    strcmp(nftnl_chain_get_str(ch->nlc, NFTNL_CHAIN_NAME),
			   nftnl_rule_get_str(r, NFTNL_RULE_CHAIN)))
			continue;
		if (!nftnl_rule_is_set(r, NFTNL_RULE_CHAIN) &&
		    chain_is_binding(ch))
			continue;	/* they go with their rules */
		found = true;
		list_for_each_entry_safe(cr, crn, &ch->rules, list) {
			if (has_handle &&
			    nftnl_rule_get_u64(cr->nlr, NFTNL_RULE_HANDLE) !=
			    nftnl_rule_get_u64(r, NFTNL_RULE_HANDLE))
				continue;
			list_del(&cr->list);
			nftnl_rule_free(cr->nlr);
			free(cr);
			if (has_handle) {
				bindings_sweep(t);
				return 0;
			}
		}
	}
	bindings_sweep(t);
	/* flush table: a table without chains (yet) has nothing to flush */
	if (!nftnl_rule_is_set(r, NFTNL_RULE_CHAIN) && !has_handle)
		return 0;
	if (!found || has_handle)
		return it->msg_type == NFT_MSG_DELRULE ?
		       oerr(msgs, it, "rule", ENOENT) : 0;
	return 0;
}

/* what each message does to the ruleset, as nf_tables does it */
static int (*const apply_ops[])(struct cache *, struct nl_item *,
				struct list_head *) = {
	[NFT_MSG_NEWTABLE]	= apply_newtable,
	[NFT_MSG_NEWCHAIN]	= apply_newchain,
	[NFT_MSG_NEWSET]	= apply_newset,
	[NFT_MSG_NEWSETELEM]	= apply_newsetelem,
	[NFT_MSG_NEWRULE]	= apply_newrule,
	[NFT_MSG_NEWOBJ]	= apply_obj,
	[NFT_MSG_DELOBJ]	= apply_obj,
	[NFT_MSG_DESTROYOBJ]	= apply_obj,
	[NFT_MSG_DELSETELEM]	= apply_delsetelem,
	[NFT_MSG_DESTROYSETELEM]	= apply_delsetelem,
	[NFT_MSG_DELSET]	= apply_delset,
	[NFT_MSG_DESTROYSET]	= apply_delset,
	[NFT_MSG_DELTABLE]	= apply_deltable,
	[NFT_MSG_DESTROYTABLE]	= apply_deltable,
	[NFT_MSG_DELCHAIN]	= apply_delchain,
	[NFT_MSG_DESTROYCHAIN]	= apply_delchain,
	[NFT_MSG_DELRULE]	= apply_delrule,
	[NFT_MSG_DESTROYRULE]	= apply_delrule,
	[NFT_MSG_NEWFLOWTABLE]	= apply_flowtable,
	[NFT_MSG_DELFLOWTABLE]	= apply_flowtable,
	[NFT_MSG_DESTROYFLOWTABLE]	= apply_flowtable,
};

static int apply_item(struct cache *c, struct nl_item *it,
		      struct list_head *msgs)
{
	if (it->msg_type >= sizeof(apply_ops) / sizeof(apply_ops[0]) ||
	    !apply_ops[it->msg_type])
		return 0;
	return apply_ops[it->msg_type](c, it, msgs);
}

/*
 * A raw message of the batch read back as the kernel would: a streamed
 * rule for good (the cache keeps it), built elements for the time the
 * item is applied (*@raw then holds the message); -1 if unreadable
 */
static int item_read(struct nl_item *it, void **raw)
{
	if (it->type == NLO_RAW && it->msg_type == NFT_MSG_NEWRULE) {
		struct nftnl_rule *r = raw_msg_to_rule(it->obj, it->msg_type,
						       it->family);

		if (!r)
			return -1;
		free(it->obj);
		it->obj = r;
		it->type = NLO_RULE;
	}
	if (it->type == NLO_RAW) {
		*raw = it->obj;
		it->obj = raw_msg_to_nftnl(*raw, it->msg_type, it->family);
	}
	return 0;
}

/* the batch against a copy of @c; 0 if it all went in, the copy in *@out */
static int model(struct cache *c, struct nl_batch *b, struct list_head *msgs,
		 struct cache **out)
{
	struct cache *work = clone_cache(c);
	struct nl_item *it, *last = NULL;
	uint32_t seq = 0;
	int ret = 0;

	work->elems_memo = elems_memo_new();

	list_for_each_entry(it, &b->items, list) {
		void *raw = NULL;

		it->seq = ++seq;	/* orders the items for cache_check_jumps */
		last = it;

		if (item_read(it, &raw) < 0) {
			ret = oerr(msgs, it, "rule", EINVAL);
			continue;
		}
		/* only elements added since keep the memo's set as it is */
		if (it->msg_type != NFT_MSG_NEWSETELEM)
			elems_memo_reset(work->elems_memo);
		if (apply_item(work, it, msgs) < 0) {
			elems_memo_reset(work->elems_memo);
			ret = -1;
		}
		if (raw) {
			/* a set the cache took is its own now */
			if (it->obj)
				nftnl_set_free(it->obj);
			it->obj = raw;
		}
	}
	elems_memo_free(work->elems_memo);
	work->elems_memo = NULL;
	devs_pending_free(work);
	/* the kernel validates the jumps of the tables before it commits */
	if (!ret && last && cache_check_jumps(work, msgs, &last->loc) < 0)
		ret = -1;
	if (ret < 0 || !out) {
		cache_free(work);
		return ret;
	}
	*out = work;
	return 0;
}

int offline_apply(struct cache *c, struct nl_batch *b, struct list_head *msgs)
{
	struct cache *work;

	if (model(c, b, msgs, &work) < 0)
		return -1;
	/* all or nothing, as a transaction */
	cache_flush(c);
	list_splice_tail_init(&work->tables, &c->tables);
	c->table_hash = work->table_hash;
	memset(&work->table_hash, 0, sizeof(work->table_hash));
	c->next_table_handle = work->next_table_handle;
	cache_free(work);
	return 0;
}

int offline_check(struct cache *c, struct nl_batch *b, struct list_head *msgs)
{
	return model(c, b, msgs, NULL);
}
