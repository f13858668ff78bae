// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nfh monitor: the kernel's ruleset change notifications (the
 * NFNLGRP_NFTABLES multicast group), printed as nft monitor prints them.
 *
 * A rule event names its anonymous sets, which arrive as set and element
 * events of the same transaction just before it; so the monitor keeps the
 * tables and sets it has seen (starting from a dump) to delinearize rules
 * and elements against.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <libmnl/libmnl.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nf_tables.h>
#include <libnftnl/chain.h>
#include <libnftnl/expr.h>
#include <libnftnl/flowtable.h>
#include <libnftnl/object.h>
#include <libnftnl/rule.h>
#include <libnftnl/set.h>
#include <libnftnl/table.h>

#include <jansson.h>

#include <cache.h>
#include <ctx.h>
#include <delinearize.h>
#include <elemdump.h>
#include <flowtable.h>
#include <json.h>
#include <monitor.h>
#include <print.h>
#include <set.h>
#include <trace.h>
#include <nlalloc.h>
#include <inner.h>

enum {
	MON_TABLES	= 1 << 0,
	MON_CHAINS	= 1 << 1,
	MON_RULES	= 1 << 2,
	MON_SETS	= 1 << 3,
	MON_ELEMS	= 1 << 4,
	MON_OBJS	= 1 << 5,	/* only in the whole ruleset's events */
	MON_FLOWTABLES	= 1 << 6,	/* likewise */
	MON_ALL		= MON_TABLES | MON_CHAINS | MON_RULES | MON_SETS |
			  MON_ELEMS | MON_OBJS | MON_FLOWTABLES,
};

struct monitor {
	struct nfh_ctx		*ctx;
	struct cache		*cache;
	struct list_head	*msgs;
	bool			want_new, want_del;
	unsigned int		objs;
	bool			gen;	/* "# new generation" lines */
	struct nftnl_set	*pend;	/* elements waiting to print */
	struct cache_table	*pend_table;
	bool			pend_add;
	bool			trace;	/* "monitor trace": packet traces only */
	struct trace_ctx	tc;
	uint32_t		last_gen;	/* of the last NEWGEN seen */
	uint32_t		skip_to;	/* lost events: the re-read's */
	bool			skipping;	/* drop events up to skip_to */
	unsigned long		forged;		/* not from the kernel */
	int			write_err;	/* errno of a failed print */
	/* -j -e: the events, one JSON object a line, printed at the end
	 * inside {"nftables": [...]}, as nft does */
	FILE			*json_out, *json_mem;
	char			*json_buf;
	size_t			json_len;
	const char		*json_input;
	bool			batch_ok;	/* the batch echoed went in */
	bool			echo;		/* -e, not monitor */
	bool			printed;	/* an event since the last generation */
	struct nftnl_rule	*pend_del;	/* -e: a deleted rule, printed if
						   a replace put it there */
	uint32_t		pend_del_seq;
};

static int words_parse(struct monitor *m, const char *args,
		       const struct location *loc)
{
	char *copy = xstrdup(args), *w, *save = NULL;
	bool event = false, obj = false;
	int ret = 0;

	m->want_new = m->want_del = true;
	m->objs = MON_ALL;
	m->gen = true;
	for (w = strtok_r(copy, " \t\n;", &save); w; w = strtok_r(NULL, " \t\n;", &save)) {
		if (!event && !obj && (!strcmp(w, "new") || !strcmp(w, "destroy"))) {
			m->want_new = w[0] == 'n';
			m->want_del = !m->want_new;
			event = true;
		} else if (!obj && !strcmp(w, "tables")) {
			m->objs = MON_TABLES;
		} else if (!obj && !strcmp(w, "chains")) {
			m->objs = MON_CHAINS;
		} else if (!obj && !strcmp(w, "rules")) {
			m->objs = MON_RULES;
		} else if (!obj && !strcmp(w, "ruleset")) {
			m->objs = MON_ALL;
		} else if (!obj && !strcmp(w, "sets")) {
			m->objs = MON_SETS;
		} else if (!obj && !strcmp(w, "elements")) {
			m->objs = MON_ELEMS;
		} else if (!event && !obj && !strcmp(w, "trace")) {
			m->trace = true;
		} else {
			ret = error_queue(m->msgs, loc,
					  "unexpected \"%s\": usage: monitor [new|destroy] [tables|chains|rules|sets|elements|ruleset] | monitor trace",
					  w);
			break;
		}
		if (strcmp(w, "new") && strcmp(w, "destroy")) {
			obj = true;
			m->gen = false;
		}
	}
	free(copy);
	return ret;
}

static void cache_table_del(struct cache *c, unsigned int family,
			    const char *name)
{
	struct cache_table *t = cache_table_find(c, family, name);
	struct cache *tmp;

	if (!t)
		return;
	/* cache_free of a one-table cache frees just that table */
	tmp = cache_alloc();
	cache_unlink_table(c, t);
	list_add_tail(&t->list, &tmp->tables);
	cache_free(tmp);
}

static void cache_set_del(struct cache_table *t, const char *name)
{
	struct cache_set *s = t ? cache_set_find(t, name) : NULL;

	if (!s)
		return;
	cache_unlink_set(t, s);
	elem_dump_free(s->elems);
	nftnl_set_free(s->nls);
	free(s->pick);
	free(s);
}

/* an element's counter; the only statement elements keep in nfh */
static int counter_copy(struct nftnl_expr *x, void *data)
{
	struct nftnl_expr *c;

	if (strcmp(nftnl_expr_get_str(x, NFTNL_EXPR_NAME), "counter"))
		return 0;
	c = xnftnl_expr_alloc("counter");
	nftnl_expr_set_u64(c, NFTNL_EXPR_CTR_PACKETS,
			   nftnl_expr_get_u64(x, NFTNL_EXPR_CTR_PACKETS));
	nftnl_expr_set_u64(c, NFTNL_EXPR_CTR_BYTES,
			   nftnl_expr_get_u64(x, NFTNL_EXPR_CTR_BYTES));
	nftnl_set_elem_add_expr(data, c);
	return 0;
}

/* what delinearizing reads of an element (libnftnl 1.2.4 has no
 * exported clone) */
static struct nftnl_set_elem *elem_copy(struct nftnl_set_elem *e)
{
	static const uint16_t attrs[] = {
		NFTNL_SET_ELEM_KEY, NFTNL_SET_ELEM_KEY_END, NFTNL_SET_ELEM_DATA,
		NFTNL_SET_ELEM_FLAGS, NFTNL_SET_ELEM_VERDICT, NFTNL_SET_ELEM_CHAIN,
		NFTNL_SET_ELEM_TIMEOUT, NFTNL_SET_ELEM_EXPIRATION,
		NFTNL_SET_ELEM_USERDATA,
	};
	struct nftnl_set_elem *c = xnftnl_set_elem_alloc();

	nftnl_set_elem_expr_foreach(e, counter_copy, c);

	for (unsigned int i = 0; i < array_size(attrs); i++) {
		const void *data;
		uint32_t len;

		if (!nftnl_set_elem_is_set(e, attrs[i]))
			continue;
		data = nftnl_set_elem_get(e, attrs[i], &len);
		xnftnl_set_elem_set(c, attrs[i], data, len);
	}
	return c;
}

static void elems_add(struct cache_table *t, struct nftnl_set *msg)
{
	struct cache_set *s = cache_set_find(t, nftnl_set_get_str(msg, NFTNL_SET_NAME));
	struct nftnl_set_elems_iter *it;
	struct nftnl_set_elem *e;

	if (!s)
		return;
	it = nftnl_set_elems_iter_create(msg);
	while ((e = nftnl_set_elems_iter_next(it)))
		nftnl_set_elem_add(s->nls, elem_copy(e));
	nftnl_set_elems_iter_destroy(it);
}

/* each event goes out as it comes; the first write error is kept */
static void out_flush(struct monitor *m)
{
	FILE *out = m->ctx->octx.out;

	errno = 0;
	if ((fflush(out) != 0 || ferror(out)) && !m->write_err)
		m->write_err = errno ? errno : EIO;
}

static void event_print(struct monitor *m, enum mon_op op, enum nl_obj type,
			void *obj, struct cache_table *t)
{
	const struct output_ctx *o = &m->ctx->octx;

	m->printed = true;
	if (o->flags & NFH_OUTPUT_JSON) {
		LIST_HEAD(msgs);

		json_monitor_event(op, type, obj, t, o, o->out, &msgs);
		erec_print_list(o->err, &msgs);
	} else {
		print_monitor_event(op, type, obj, t, o, o->out);
	}
	out_flush(m);
}

/* the generation a NEWGEN event announces; false if it names none */
static bool gen_id(const struct nlmsghdr *nlh, uint32_t *id)
{
	struct nlattr *a;

	mnl_attr_for_each(a, nlh, sizeof(struct nfgenmsg))
		if (mnl_attr_get_type(a) == NFTA_GEN_ID &&
		    mnl_attr_validate(a, MNL_TYPE_U32) == 0) {
			*id = ntohl(mnl_attr_get_u32(a));
			return true;
		}
	return false;
}

static void gen_print(struct monitor *m, const struct nlmsghdr *nlh)
{
	struct nlattr *a, *tb[NFTA_GEN_MAX + 1] = { 0 };

	mnl_attr_for_each(a, nlh, sizeof(struct nfgenmsg))
		if (mnl_attr_get_type(a) <= NFTA_GEN_MAX)
			tb[mnl_attr_get_type(a)] = a;
	if (!tb[NFTA_GEN_ID] || (m->ctx->octx.flags & NFH_OUTPUT_JSON))
		return;
	fprintf(m->ctx->octx.out, "# new generation %u",
		ntohl(mnl_attr_get_u32(tb[NFTA_GEN_ID])));
	if (tb[NFTA_GEN_PROC_PID] && tb[NFTA_GEN_PROC_NAME])
		fprintf(m->ctx->octx.out, " by process %u (%s)",
			ntohl(mnl_attr_get_u32(tb[NFTA_GEN_PROC_PID])),
			mnl_attr_get_str(tb[NFTA_GEN_PROC_NAME]));
	fputc('\n', m->ctx->octx.out);
	out_flush(m);
}

static bool wanted(const struct monitor *m, bool add, unsigned int obj)
{
	return (add ? m->want_new : m->want_del) && (m->objs & obj);
}

static void table_event(struct monitor *m, const struct nlmsghdr *nlh, bool add)
{
	struct nftnl_table *t = xnftnl_table_alloc();
	unsigned int family;
	const char *name;

	if (nftnl_table_nlmsg_parse(nlh, t) < 0) {
		nftnl_table_free(t);
		return;
	}
	family = nftnl_table_get_u32(t, NFTNL_TABLE_FAMILY);
	name = nftnl_table_get_str(t, NFTNL_TABLE_NAME);
	if (wanted(m, add, MON_TABLES))
		event_print(m, add ? MON_OP_ADD : MON_OP_DELETE, NLO_TABLE, t, NULL);
	if (add && !cache_table_find(m->cache, family, name)) {
		cache_add_table(m->cache, t);
		return;
	}
	if (!add)
		cache_table_del(m->cache, family, name);
	nftnl_table_free(t);
}

static void chain_event(struct monitor *m, const struct nlmsghdr *nlh, bool add)
{
	struct nftnl_chain *c = xnftnl_chain_alloc();

	if (nl_chain_parse(nlh, c) == 0 && wanted(m, add, MON_CHAINS))
		event_print(m, add ? MON_OP_ADD : MON_OP_DELETE, NLO_CHAIN, c, NULL);
	nftnl_chain_free(c);
}

static void rule_event(struct monitor *m, const struct nlmsghdr *nlh, bool add)
{
	struct nftnl_rule *r = xnftnl_rule_alloc();
	struct cache_table *t;

	if (inner_rule_parse(nlh, r) < 0) {
		nftnl_rule_free(r);
		return;
	}
	/*
	 * -e shows the rule a replace took out, as nft -e does, but no other
	 * deletion: it is the one that comes just before the new rule, in
	 * answer to the same message.
	 */
	if (m->echo && !add) {
		m->pend_del = r;
		m->pend_del_seq = nlh->nlmsg_seq;
		return;
	}
	if (m->echo && add && m->pend_del && m->pend_del_seq == nlh->nlmsg_seq) {
		t = cache_table_find(m->cache, nftnl_rule_get_u32(r, NFTNL_RULE_FAMILY),
				     nftnl_rule_get_str(r, NFTNL_RULE_TABLE));
		if (t)
			event_print(m, MON_OP_DELETE, NLO_RULE, m->pend_del, t);
		nftnl_rule_free(m->pend_del);
		m->pend_del = NULL;
	}
	if (wanted(m, add, MON_RULES)) {
		t = cache_table_find(m->cache, nftnl_rule_get_u32(r, NFTNL_RULE_FAMILY),
				     nftnl_rule_get_str(r, NFTNL_RULE_TABLE));
		/* the kernel marks an added or replacing rule NLM_F_APPEND,
		   an inserted one not */
		if (t)
			event_print(m, !add ? MON_OP_DELETE :
				    nlh->nlmsg_flags & (NLM_F_APPEND | NLM_F_REPLACE) ?
				    MON_OP_ADD : MON_OP_INSERT, NLO_RULE, r, t);
	}
	nftnl_rule_free(r);
}

static void obj_event(struct monitor *m, const struct nlmsghdr *nlh, bool add)
{
	struct nftnl_obj *n = xnftnl_obj_alloc();

	if (nftnl_obj_nlmsg_parse(nlh, n) == 0 && wanted(m, add, MON_OBJS))
		event_print(m, add ? MON_OP_ADD : MON_OP_DELETE, NLO_OBJ, n, NULL);
	nftnl_obj_free(n);
}

/*
 * nft 1.0.6 and 1.1.1 print nothing for a flowtable event (the generation
 * line only); nfh prints it as the one-line declaration nft prints other
 * objects with (src/kinds/flowtable.c)
 */
static void flowtable_event(struct monitor *m, const struct nlmsghdr *nlh,
			    bool add)
{
	struct nftnl_flowtable *f = xnftnl_flowtable_alloc();

	if (nl_flowtable_parse(nlh, f) == 0 &&
	    nftnl_flowtable_is_set(f, NFTNL_FLOWTABLE_TABLE) &&
	    nftnl_flowtable_is_set(f, NFTNL_FLOWTABLE_NAME) &&
	    wanted(m, add, MON_FLOWTABLES))
		event_print(m, add ? MON_OP_ADD : MON_OP_DELETE, NLO_FLOWTABLE, f, NULL);
	nftnl_flowtable_free(f);
}

static bool wanted(const struct monitor *m, bool add, unsigned int obj);

/* a set's description without its elements: what delinearizing needs */
static struct nftnl_set *set_shell(const struct nftnl_set *from)
{
	static const uint16_t attrs[] = {
		NFTNL_SET_TABLE, NFTNL_SET_NAME, NFTNL_SET_FAMILY, NFTNL_SET_FLAGS,
		NFTNL_SET_KEY_TYPE, NFTNL_SET_KEY_LEN, NFTNL_SET_DATA_TYPE,
		NFTNL_SET_DATA_LEN, NFTNL_SET_HANDLE, NFTNL_SET_USERDATA,
	};
	struct nftnl_set *s = xnftnl_set_alloc();

	for (unsigned int i = 0; i < array_size(attrs); i++) {
		const void *data;
		uint32_t len;

		if (!nftnl_set_is_set(from, attrs[i]))
			continue;
		data = nftnl_set_get_data(from, attrs[i], &len);
		xnftnl_set_set_data(s, attrs[i], data, len);
	}
	return s;
}

/*
 * The kernel announces each element on its own, and an interval as its
 * start and its end: elements wait here until the next other event, then
 * print one a line, intervals whole, as nft monitor prints them.
 */
static void elems_flush(struct monitor *m)
{
	const struct output_ctx *o = &m->ctx->octx;
	struct cache_set cs = { .nls = m->pend };
	const struct expr *e;
	struct set *s;

	if (!m->pend)
		return;
	m->printed = true;
	s = delin_set(m->pend_table, &cs, true);
	if (s->init) {
		list_for_each_entry(e, &s->init->set.exprs, list) {
			if (o->flags & NFH_OUTPUT_JSON) {
				LIST_HEAD(msgs);

				json_monitor_elem(m->pend_add, s, e, o, o->out, &msgs);
				erec_print_list(o->err, &msgs);
			} else {
				print_monitor_elem(m->pend_add, s, e, o, o->out);
			}
		}
	}
	out_flush(m);
	set_free(s);
	nftnl_set_free(m->pend);
	m->pend = NULL;
}

static void elems_event(struct monitor *m, struct cache_table *t,
			struct nftnl_set *msg, bool add)
{
	const char *name = nftnl_set_get_str(msg, NFTNL_SET_NAME);
	struct cache_set *cs = cache_set_find(t, name);
	struct nftnl_set_elems_iter *it;
	struct nftnl_set_elem *e;

	if (!cs)
		return;
	if (m->pend && (m->pend_add != add || m->pend_table != t ||
			strcmp(nftnl_set_get_str(m->pend, NFTNL_SET_NAME), name)))
		elems_flush(m);
	if (!m->pend) {
		m->pend = set_shell(cs->nls);
		m->pend_table = t;
		m->pend_add = add;
	}
	it = nftnl_set_elems_iter_create(msg);
	while ((e = nftnl_set_elems_iter_next(it)))
		nftnl_set_elem_add(m->pend, elem_copy(e));
	nftnl_set_elems_iter_destroy(it);
}

static void set_added_print(struct monitor *m, struct cache_table *t,
			    struct nftnl_set *nls)
{
	const struct output_ctx *o = &m->ctx->octx;
	struct cache_set cs = { .nls = nls };
	struct set *s = delin_set(t, &cs, false);

	m->printed = true;
	if (o->flags & NFH_OUTPUT_JSON)
		json_monitor_set(true, s, o, o->out);
	else
		print_monitor_set(s, o, o->out);
	out_flush(m);
	set_free(s);
}

/*
 * A deleted set, as nft prints it from the event alone: Linux 6.18 names
 * it (table, name, handle); 6.12 sends it whole, with its flags, so an
 * anonymous one is known as such and not shown (as when it was added),
 * and the JSON form has the set's type, flags and map data, as an added
 * set's.  The text form names the set either way.
 */
static void set_deleted_print(struct monitor *m, struct cache_table *t,
			      struct nftnl_set *nls)
{
	const struct output_ctx *o = &m->ctx->octx;
	struct cache_set cs = { .nls = nls };
	struct set *s;

	if (nftnl_set_is_set(nls, NFTNL_SET_FLAGS) &&
	    (nftnl_set_get_u32(nls, NFTNL_SET_FLAGS) & NFT_SET_ANONYMOUS))
		return;
	if (!(o->flags & NFH_OUTPUT_JSON) ||
	    !nftnl_set_is_set(nls, NFTNL_SET_KEY_TYPE)) {
		event_print(m, MON_OP_DELETE, NLO_SET, nls, NULL);
		return;
	}
	m->printed = true;
	s = delin_set(t, &cs, false);
	json_monitor_set(false, s, o, o->out);
	out_flush(m);
	set_free(s);
}

/*
 * Sets are kept to delinearize rules.  An anonymous set shows inside its
 * rule, as nft shows it, except that a deleted one is announced as nft
 * announces it.
 */
static void set_event(struct monitor *m, const struct nlmsghdr *nlh,
		      bool add, bool elems)
{
	struct nftnl_set *s = xnftnl_set_alloc();
	struct cache_table *t;
	const char *name;
	bool anon, show;

	if ((elems ? nftnl_set_elems_nlmsg_parse(nlh, s) : nftnl_set_nlmsg_parse(nlh, s)) < 0)
		goto out;
	name = nftnl_set_get_str(s, NFTNL_SET_NAME);
	anon = !strncmp(name, "__set", 5);
	t = cache_table_find(m->cache, nftnl_set_get_u32(s, NFTNL_SET_FAMILY),
			     nftnl_set_get_str(s, NFTNL_SET_TABLE));
	if (!t)
		goto out;
	show = wanted(m, add, elems ? MON_ELEMS : MON_SETS);
	if (elems) {
		if (show && !anon)
			elems_event(m, t, s, add);
		if (add)
			elems_add(t, s);
	} else if (add) {
		if (show && !anon)
			set_added_print(m, t, s);
		if (!cache_set_find(t, name)) {
			cache_add_set(t, s);
			return;
		}
	} else {
		if (show)
			set_deleted_print(m, t, s);
		cache_set_del(t, name);
	}
out:
	nftnl_set_free(s);
}

static int trace_refresh(struct trace_ctx *tc)
{
	LIST_HEAD(msgs);
	int ret;

	cache_flush(tc->cache);
	ret = nlio_dump(tc->ctx, NFPROTO_UNSPEC, tc->cache, &msgs);
	erec_print_list(tc->ctx->octx.err, &msgs);
	return ret;
}

/*
 * Whether the listing printed after lost events shows what @nlh tells:
 * each event carries its generation's low 16 bits in res_id, and the
 * generation's own NEWGEN ends it.  The first event of a later one ends
 * the skipping.
 */
static bool shown_already(struct monitor *m, const struct nlmsghdr *nlh)
{
	const struct nfgenmsg *g = mnl_nlmsg_get_payload(nlh);
	uint32_t id;

	if (nlh->nlmsg_len >= mnl_nlmsg_size(sizeof(*g)) &&
	    (int16_t)(ntohs(g->res_id) - (uint16_t)m->skip_to) <= 0) {
		if (NFNL_MSG_TYPE(nlh->nlmsg_type) == NFT_MSG_NEWGEN &&
		    gen_id(nlh, &id) && (int32_t)(id - m->skip_to) >= 0) {
			m->skipping = false;
			m->last_gen = id;
		}
		return true;
	}
	m->skipping = false;
	return false;
}

static int event_dispatch(const struct nlmsghdr *nlh, struct monitor *m)
{
	if (NFNL_SUBSYS_ID(nlh->nlmsg_type) != NFNL_SUBSYS_NFTABLES)
		return MNL_CB_OK;
	if (m->trace) {
		if (NFNL_MSG_TYPE(nlh->nlmsg_type) == NFT_MSG_TRACE)
			trace_event(&m->tc, nlh);
		return MNL_CB_OK;
	}
	if (m->skipping && shown_already(m, nlh))
		return MNL_CB_OK;
	if (NFNL_MSG_TYPE(nlh->nlmsg_type) != NFT_MSG_NEWSETELEM &&
	    NFNL_MSG_TYPE(nlh->nlmsg_type) != NFT_MSG_DELSETELEM)
		elems_flush(m);
	if (m->pend_del && NFNL_MSG_TYPE(nlh->nlmsg_type) != NFT_MSG_NEWRULE) {
		nftnl_rule_free(m->pend_del);
		m->pend_del = NULL;
	}
	switch (NFNL_MSG_TYPE(nlh->nlmsg_type)) {
	case NFT_MSG_NEWTABLE:	table_event(m, nlh, true); break;
	case NFT_MSG_DELTABLE:	table_event(m, nlh, false); break;
	case NFT_MSG_NEWCHAIN:	chain_event(m, nlh, true); break;
	case NFT_MSG_DELCHAIN:	chain_event(m, nlh, false); break;
	case NFT_MSG_NEWRULE:	rule_event(m, nlh, true); break;
	case NFT_MSG_DELRULE:	rule_event(m, nlh, false); break;
	case NFT_MSG_NEWSET:	set_event(m, nlh, true, false); break;
	case NFT_MSG_DELSET:	set_event(m, nlh, false, false); break;
	case NFT_MSG_NEWSETELEM: set_event(m, nlh, true, true); break;
	case NFT_MSG_DELSETELEM: set_event(m, nlh, false, true); break;
	case NFT_MSG_NEWOBJ:	obj_event(m, nlh, true); break;
	case NFT_MSG_DELOBJ:	obj_event(m, nlh, false); break;
	case NFT_MSG_NEWFLOWTABLE: flowtable_event(m, nlh, true); break;
	case NFT_MSG_DELFLOWTABLE: flowtable_event(m, nlh, false); break;
	case NFT_MSG_NEWGEN:
		gen_id(nlh, &m->last_gen);
		/* nft -e says nothing of a change that echoed nothing */
		if (m->gen && (!m->echo || m->printed))
			gen_print(m, nlh);
		m->printed = false;
		break;
	}
	return MNL_CB_OK;
}

static int event_cb(const struct nlmsghdr *nlh, void *data)
{
	struct monitor *m = data;
	int ret;

	/* a trace prints its rule as listed */
	delin_keep_order(!m->trace);
	ret = event_dispatch(nlh, data);
	delin_keep_order(false);
	return ret;
}

/*
 * The socket's receive buffer: nft's size, 16 MB.  The kernel queues a
 * whole transaction's events at once (10,000 rules take about 5 MB of
 * it; the default 208 KiB held 450).  SO_RCVBUF alone stops at
 * net.core.rmem_max, so the forcing option goes first (it needs
 * CAP_NET_ADMIN).
 */
#define MONITOR_RCVBUF	(1 << 24)

static void rcvbuf_grow(int fd)
{
	int sz = MONITOR_RCVBUF;

	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &sz, sizeof(sz)) < 0)
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
}

/*
 * Events were lost (the buffer filled anyway): say so, read the ruleset
 * again and print it.  What is queued goes first, unread: the listing
 * shows it, and the buffer has room for what comes while it is read.
 * Events of its generation that still come after it are dropped too.
 */
static int resync(struct monitor *m, int fd, char *buf, size_t len)
{
	const struct output_ctx *o = &m->ctx->octx;
	struct cache *c;
	ssize_t n;
	int ret;

	while ((n = nlio_recv(fd, buf, len, MSG_DONTWAIT, &m->forged)) > 0 ||
	       (n < 0 && (errno == ENOBUFS || errno == EINTR)))
		;

	if (m->pend) {
		nftnl_set_free(m->pend);
		m->pend = NULL;
	}
	if (m->trace) {
		fprintf(o->err, "nfh: monitor: trace events were lost (receive buffer full)\n");
		return 0;
	}
	c = cache_alloc();
	if (nlio_dump(m->ctx, NFPROTO_UNSPEC, c, m->msgs) < 0) {
		cache_free(c);
		return -1;
	}
	fprintf(o->err,
		"nfh: monitor: events were lost (receive buffer full) in %u generation(s), %u to %u; the ruleset of generation %u follows\n",
		m->ctx->dump_genid - m->last_gen, m->last_gen + 1,
		m->ctx->dump_genid, m->ctx->dump_genid);
	fflush(o->err);
	if (o->flags & NFH_OUTPUT_JSON) {
		ret = json_listing(c, LIST_RULESET, 0, NULL, NULL, o, o->out, m->msgs);
	} else {
		fprintf(o->out, "# events lost: the ruleset at generation %u\n",
			m->ctx->dump_genid);
		ret = print_listing(c, LIST_RULESET, 0, NULL, NULL, o, o->out);
	}
	out_flush(m);
	cache_free(m->cache);
	m->cache = m->tc.cache = c;
	m->skip_to = m->ctx->dump_genid;
	m->skipping = (int32_t)(m->skip_to - m->last_gen) > 0;
	return ret < 0 ? -1 : 0;
}

/* datagrams not from the kernel: told on the first, then at each power
 * of two, so that a flood does not flood stderr */
static void forged_note(struct monitor *m, unsigned long before)
{
	for (unsigned long n = before + 1; n <= m->forged; n++)
		if (!(n & (n - 1)))
			fprintf(m->ctx->octx.err,
				"nfh: monitor: ignored %lu message(s) that did not come from the kernel\n",
				n);
}

/* events until an error; the error is queued, -1 */
static int events_read(struct monitor *m, struct mnl_socket *nl,
		       const struct location *loc)
{
	char buf[MNL_SOCKET_BUFFER_SIZE * 4];
	int fd = mnl_socket_get_fd(nl);
	unsigned long forged;
	ssize_t n;

	for (;;) {
		forged = m->forged;
		n = nlio_recv(fd, buf, sizeof(buf), 0, &m->forged);
		forged_note(m, forged);
		if (n < 0 && errno == ENOBUFS) {
			if (resync(m, fd, buf, sizeof(buf)) < 0)
				return -1;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 ||
		    (mnl_cb_run(buf, n, 0, 0, event_cb, m) < 0 && errno != ESRCH))
			return error_queue(m->msgs, loc, "monitor: %s",
					   strerror(errno));
		/* events printed nowhere: stop, and say it once */
		if (m->write_err) {
			clearerr(m->ctx->octx.out);
			return error_queue(m->msgs, loc, "monitor: write error: %s",
					   strerror(m->write_err));
		}
	}
}

/* subscribed first, then dumped: no change falls in between */
static struct mnl_socket *events_open(struct monitor *m,
				      const struct location *loc)
{
	int group = m->trace ? NFNLGRP_NFTRACE : NFNLGRP_NFTABLES;
	struct mnl_socket *nl = mnl_socket_open(NETLINK_NETFILTER);

	if (!nl || mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0 ||
	    mnl_socket_setsockopt(nl, NETLINK_ADD_MEMBERSHIP, &group, sizeof(group)) < 0) {
		error_queue(m->msgs, loc, "cannot listen to ruleset events: %s",
			    strerror(errno));
		if (nl)
			mnl_socket_close(nl);
		return NULL;
	}
	rcvbuf_grow(mnl_socket_get_fd(nl));
	return nl;
}

int monitor_run(struct nfh_ctx *ctx, const char *args,
		const struct location *loc, struct list_head *msgs)
{
	struct monitor m = { .ctx = ctx, .msgs = msgs };
	struct mnl_socket *nl;

	if (words_parse(&m, args, loc) < 0)
		return -1;
	if (ctx->offline)
		return error_queue(msgs, loc, "monitor needs the kernel: not with --offline");
	if (m.trace && (ctx->octx.flags & NFH_OUTPUT_JSON))
		return error_queue(msgs, loc, "monitor trace: JSON output is not supported");
	nl = events_open(&m, loc);
	if (!nl)
		return -1;
	m.cache = cache_alloc();
	if (nlio_dump(ctx, NFPROTO_UNSPEC, m.cache, msgs) == 0) {
		m.last_gen = ctx->dump_genid;
		m.tc = (struct trace_ctx){ .ctx = ctx, .cache = m.cache,
					   .refresh = trace_refresh };
		events_read(&m, nl, loc);
	}
	if (m.pend)
		nftnl_set_free(m.pend);
	cache_free(m.cache);
	mnl_socket_close(nl);
	return -1;
}

struct monitor *monitor_echo_new(struct nfh_ctx *ctx, struct list_head *msgs,
				 const char *json_input)
{
	struct monitor *m = xzalloc(sizeof(*m));

	m->ctx = ctx;
	m->msgs = msgs;
	m->want_new = true;
	m->echo = true;
	m->objs = MON_ALL;
	m->gen = true;
	m->cache = cache_alloc();
	if (nlio_dump(ctx, NFPROTO_UNSPEC, m->cache, msgs) < 0) {
		monitor_echo_free(m);
		return NULL;
	}
	if (ctx->octx.flags & NFH_OUTPUT_JSON) {
		m->json_mem = open_memstream(&m->json_buf, &m->json_len);
		if (!m->json_mem)
			memory_allocation_error();
		m->json_out = ctx->octx.out;
		ctx->octx.out = m->json_mem;
		m->json_input = json_input;
	}
	return m;
}

/* whether echoed @obj ({"rule": {...}}) is what input command @cmd made */
static bool echo_matches(json_t *cmd, json_t *obj)
{
	static const char *const keys[] = { "family", "table", "name", "chain" };
	const char *ck = json_object_iter_key(json_object_iter(cmd));
	const char *ok = json_object_iter_key(json_object_iter(obj));
	json_t *c = json_object_iter_value(json_object_iter(cmd));
	json_t *o = json_object_iter_value(json_object_iter(obj));

	if (!ck || !ok || !json_is_object(c) || !json_is_object(o))
		return false;
	/* a map echoes as a set */
	if (strcmp(ck, ok) && !(!strcmp(ck, "map") && !strcmp(ok, "set")))
		return false;
	for (unsigned int i = 0; i < array_size(keys); i++) {
		json_t *a = json_object_get(c, keys[i]), *b = json_object_get(o, keys[i]);

		if (!!a != !!b || (a && !json_equal(a, b)))
			return false;
	}
	return json_object_get(o, "handle");
}

/* whether command @c ({"flush": {...}}) names what to do, not an object */
static bool is_json_verb(json_t *c)
{
	static const char *const verbs[] = {
		"add", "insert", "create", "replace", "delete", "destroy",
		"flush", "list", "reset", "rename",
	};
	const char *k = json_object_iter_key(json_object_iter(c));

	for (unsigned int i = 0; k && i < array_size(verbs); i++)
		if (!strcmp(k, verbs[i]))
			return true;
	return false;
}

/*
 * -j -e after JSON input: nft prints the document it ran, each command
 * that made something given the handle the kernel gave it (appended,
 * after the command's own keys).  Echoed events are matched to commands
 * by what names them, in order, so rules of one chain pair up in turn.
 */
static bool echo_json_input(struct monitor *m)
{
	static const char *const ops[] = { "add", "insert", "create", "replace" };
	json_t *root = json_loads(m->json_input, 0, NULL), *cmds, *echoed = json_array();
	char *line, *save = NULL;
	size_t i, j;

	cmds = root ? json_object_get(root, "nftables") : NULL;
	if (!json_is_array(cmds)) {
		json_decref(root);
		json_decref(echoed);
		return false;
	}
	for (line = m->json_len ? strtok_r(m->json_buf, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		json_t *ev = json_loads(line, 0, NULL), *v = NULL;

		for (i = 0; ev && !v && i < array_size(ops); i++)
			v = json_object_get(ev, ops[i]);
		if (v)
			json_array_append(echoed, v);
		json_decref(ev);
	}
	for (i = 0; i < json_array_size(cmds); i++) {
		json_t *c = json_array_get(cmds, i), *v = NULL, *o;

		for (j = 0; json_is_object(c) && !v && j < array_size(ops); j++)
			v = json_object_get(c, ops[j]);
		/* an object with no command around it ({"table": {...}}, as
		   a listing prints it) is added */
		if (!v && json_is_object(c) && !is_json_verb(c))
			v = c;
		if (!json_is_object(v))
			continue;
		for (j = 0; j < json_array_size(echoed); j++) {
			json_t *made;

			o = json_array_get(echoed, j);
			if (!echo_matches(v, o))
				continue;
			/* a handle the input gave (a listing's) is replaced,
			   and comes last, as the one nft adds */
			made = json_object_iter_value(json_object_iter(v));
			json_object_del(made, "handle");
			json_object_set(made, "handle", json_object_get(
					json_object_iter_value(json_object_iter(o)), "handle"));
			json_array_remove(echoed, j);
			break;
		}
	}
	/* nft ends no line after JSON input */
	json_dumpf(root, m->json_out, 0);
	fflush(m->json_out);
	json_decref(root);
	json_decref(echoed);
	return true;
}

/* -j -e: the lines gathered, as one {"nftables": [...]}, if any */
static void echo_json_flush(struct monitor *m)
{
	char *line, *save = NULL;
	const char *sep = "";

	fclose(m->json_mem);
	m->ctx->octx.out = m->json_out;
	if (m->json_input && m->batch_ok && echo_json_input(m)) {
		free(m->json_buf);
		return;
	}
	if (m->json_len) {
		fputs("{\"nftables\": [", m->json_out);
		for (line = strtok_r(m->json_buf, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			fprintf(m->json_out, "%s%s", sep, line);
			sep = ", ";
		}
		fputs("]}\n", m->json_out);
		fflush(m->json_out);
	}
	free(m->json_buf);
}

void monitor_echo(void *m, const struct nlmsghdr *nlh)
{
	event_cb(nlh, m);
}

void monitor_echo_ok(struct monitor *m)
{
	m->batch_ok = true;
}

void monitor_echo_free(struct monitor *m)
{
	if (!m)
		return;
	delin_keep_order(true);
	elems_flush(m);
	delin_keep_order(false);
	if (m->pend)
		nftnl_set_free(m->pend);
	if (m->pend_del)
		nftnl_rule_free(m->pend_del);
	if (m->json_mem)
		echo_json_flush(m);
	cache_free(m->cache);
	free(m);
}
