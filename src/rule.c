// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdlib.h>
#include <string.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/netfilter_bridge.h>

#include <elemstore.h>
#include <kind.h>
#include <rule.h>
#include <suggest.h>

void handle_free(struct handle *h)
{
	free(h->table);
	free(h->chain);
	free(h->set);
	free(h->obj);
	h->table = h->chain = h->set = h->obj = NULL;
}

void handle_copy(struct handle *dst, const struct handle *src)
{
	*dst = *src;
	dst->table = src->table ? xstrdup(src->table) : NULL;
	dst->chain = src->chain ? xstrdup(src->chain) : NULL;
	dst->set = src->set ? xstrdup(src->set) : NULL;
	dst->obj = src->obj ? xstrdup(src->obj) : NULL;
}

struct table *table_alloc(void)
{
	struct table *t = xzalloc(sizeof(*t));

	init_list_head(&t->list);
	init_list_head(&t->chains);
	init_list_head(&t->sets);
	init_list_head(&t->objs);
	init_list_head(&t->flowtables);
	return t;
}

void table_free(struct table *t)
{
	struct chain *c, *next;
	struct set *s, *snext;
	struct obj *o, *onext;
	struct flowtable *f, *fnext;

	if (!t)
		return;
	list_for_each_entry_safe(f, fnext, &t->flowtables, list) {
		list_del(&f->list);
		flowtable_free(f);
	}
	list_for_each_entry_safe(o, onext, &t->objs, list) {
		list_del(&o->list);
		obj_free(o);
	}
	list_for_each_entry_safe(c, next, &t->chains, list) {
		list_del(&c->list);
		chain_free(c);
	}
	list_for_each_entry_safe(s, snext, &t->sets, list) {
		list_del(&s->list);
		set_free(s);
	}
	handle_free(&t->h);
	free(t->comment);
	free(t);
}

struct flowtable *flowtable_alloc(void)
{
	struct flowtable *ft = xzalloc(sizeof(*ft));

	init_list_head(&ft->list);
	ft->hook = chain_alloc();
	return ft;
}

void flowtable_free(struct flowtable *ft)
{
	if (!ft)
		return;
	handle_free(&ft->h);
	chain_free(ft->hook);
	free(ft);
}

struct chain *chain_alloc(void)
{
	struct chain *c = xzalloc(sizeof(*c));

	init_list_head(&c->list);
	init_list_head(&c->devices);
	init_list_head(&c->rules);
	c->policy = -1;
	return c;
}

void chain_free(struct chain *c)
{
	struct expr *e, *enext;
	struct rule *r, *rnext;

	if (!c)
		return;
	list_for_each_entry_safe(e, enext, &c->devices, list) {
		list_del(&e->list);
		expr_free(e);
	}
	list_for_each_entry_safe(r, rnext, &c->rules, list) {
		list_del(&r->list);
		rule_free(r);
	}
	handle_free(&c->h);
	free(c->type);
	free(c->hook);
	expr_free(c->priority);
	expr_free(c->policy_expr);
	free(c->comment);
	free(c);
}

struct rule *rule_alloc(const struct location *loc)
{
	struct rule *r = xzalloc(sizeof(*r));

	init_list_head(&r->list);
	init_list_head(&r->stmts);
	r->loc = *loc;
	return r;
}

void rule_free(struct rule *r)
{
	struct stmt *s, *next;

	if (!r)
		return;
	list_for_each_entry_safe(s, next, &r->stmts, list) {
		list_del(&s->list);
		stmt_free(s);
	}
	if (r->pack) {
		r->pack->items_free(&r->pack->items);
		erec_free_list(&r->pack->eval_errs);
		erec_free_list(&r->pack->lin_errs);
		free(r->pack);
	}
	handle_free(&r->h);
	free(r->comment);
	free(r);
}

struct cmd *cmd_alloc(enum cmd_ops op, enum cmd_obj obj,
		      const struct handle *h, const struct location *loc,
		      void *data)
{
	struct cmd *cmd = xzalloc(sizeof(*cmd));

	init_list_head(&cmd->list);
	cmd->op = op;
	cmd->obj = obj;
	if (h)
		cmd->h = *h;	/* takes ownership of the names */
	cmd->loc = *loc;
	cmd->data = data;
	return cmd;
}

void cmd_free(struct cmd *cmd)
{
	if (!cmd)
		return;
	handle_free(&cmd->h);
	switch (cmd->obj) {
	case CMD_OBJ_TABLE:
		table_free(cmd->table);
		break;
	case CMD_OBJ_CHAIN:
		chain_free(cmd->chain);
		break;
	case CMD_OBJ_RULE:
		rule_free(cmd->rule);
		break;
	case CMD_OBJ_EXPR:
		expr_free(cmd->expr);
		break;
	case CMD_OBJ_SET:
	case CMD_OBJ_MAP:
		set_free(cmd->set);
		break;
	case CMD_OBJ_ELEMENTS:
		expr_free(cmd->elems);
		break;
	case CMD_OBJ_FLOWTABLE:
		flowtable_free(cmd->flowtable);
		break;
	case CMD_OBJ_OBJ:
		obj_free(cmd->object);
		break;
	case CMD_OBJ_HOOKS:
		free(cmd->data);
		break;
	default:
		break;
	}
	free(cmd);
}

/* the object types' tables, as OBJ_OPS_REGISTER put them in the binary */
KIND_SECTION_NTH(struct obj_ops, nfh_obj_ops, obj_ops_nth)

const struct obj_ops *obj_ops_by_type(uint32_t type)
{
	const struct obj_ops *o;

	for (unsigned int i = 0; (o = obj_ops_nth(i)); i++)
		if (o->type == type)
			return o;
	return NULL;
}

struct obj *obj_alloc(const struct location *loc, uint32_t type)
{
	struct obj *o = xzalloc(sizeof(*o));

	init_list_head(&o->list);
	if (loc)
		o->loc = *loc;
	o->type = type;
	return o;
}

void obj_free(struct obj *o)
{
	const struct obj_ops *ops;

	if (!o)
		return;
	ops = obj_ops_by_type(o->type);
	if (ops && ops->destroy)
		ops->destroy(o);
	handle_free(&o->h);
	free(o->comment);
	stmt_free(o->stmt);
	/* the fields a block fills before its type is known: an object a
	   syntax error abandoned has none (type 0), and they are freed still */
	free(o->helper.name);
	for (unsigned int i = 0; i < o->timeout.n; i++)
		free(o->timeout.policy[i].state);
	free(o->timeout.policy);
	free(o->secmark.ctx);
	free(o);
}

const char *obj_type_name(uint32_t type)
{
	const struct obj_ops *ops = obj_ops_by_type(type);

	if (ops)
		return ops->name;
	switch (type) {
	case NFT_OBJECT_COUNTER:	return "counter";
	case NFT_OBJECT_QUOTA:		return "quota";
	case NFT_OBJECT_LIMIT:		return "limit";
	case NFT_OBJECT_CT_HELPER:	return "ct helper";
	case NFT_OBJECT_CT_TIMEOUT:	return "ct timeout";
	case NFT_OBJECT_CT_EXPECT:	return "ct expectation";
	case NFT_OBJECT_SYNPROXY:	return "synproxy";
	case NFT_OBJECT_SECMARK:	return "secmark";
	}
	return NULL;
}

struct set *set_alloc(const struct location *loc)
{
	struct set *s = xzalloc(sizeof(*s));

	init_list_head(&s->list);
	init_list_head(&s->stmts);
	if (loc)
		s->loc = *loc;
	s->policy = -1;
	return s;
}

void set_free(struct set *s)
{
	if (!s)
		return;
	handle_free(&s->h);
	expr_free(s->key);
	expr_free(s->data);
	expr_free(s->key_sel);
	expr_free(s->data_sel);
	expr_free(s->init);
	elem_store_free(s->store);
	while (!list_empty(&s->stmts)) {
		struct stmt *i = list_first_entry(&s->stmts, struct stmt, list);

		list_del(&i->list);
		stmt_free(i);
	}
	free(s->comment);
	free(s);
}

static const char *const family_names[] = {
	[NFPROTO_INET]		= "inet",
	[NFPROTO_IPV4]		= "ip",
	[NFPROTO_ARP]		= "arp",
	[NFPROTO_NETDEV]	= "netdev",
	[NFPROTO_BRIDGE]	= "bridge",
	[NFPROTO_IPV6]		= "ip6",
};

const char *family_name(unsigned int family)
{
	if (family < array_size(family_names) && family_names[family])
		return family_names[family];
	return "unknown";
}

int family_lookup(const char *name)
{
	for (unsigned int i = 0; i < array_size(family_names); i++)
		if (family_names[i] && !strcmp(family_names[i], name))
			return i;
	return -1;
}

static const char *const inet_hooks[] = {
	"prerouting", "input", "forward", "output", "postrouting", "ingress",
};
static const char *const arp_hooks[] = { "input", "output", "forward" };
static const char *const netdev_hooks[] = { "ingress", "egress" };

static const char *const *family_hooks(unsigned int family, unsigned int *n)
{
	switch (family) {
	case NFPROTO_IPV4:
	case NFPROTO_IPV6:
	case NFPROTO_BRIDGE:
		*n = 5;
		return inet_hooks;
	case NFPROTO_INET:
		*n = 6;
		return inet_hooks;
	case NFPROTO_ARP:
		*n = array_size(arp_hooks);
		return arp_hooks;
	case NFPROTO_NETDEV:
		*n = array_size(netdev_hooks);
		return netdev_hooks;
	}
	*n = 0;
	return NULL;
}

const char *hook_name(unsigned int family, unsigned int hooknum)
{
	unsigned int n;
	const char *const *hooks = family_hooks(family, &n);

	return hooknum < n ? hooks[hooknum] : "unknown";
}

int hook_lookup(unsigned int family, const char *name)
{
	unsigned int n;
	const char *const *hooks = family_hooks(family, &n);

	for (unsigned int i = 0; i < n; i++)
		if (!strcmp(hooks[i], name))
			return i;
	return -1;
}

const char *verdict_name(int verdict)
{
	switch (verdict) {
	case NF_ACCEPT:		return "accept";
	case NF_DROP:		return "drop";
	case NF_QUEUE:		return "queue";
	case NFT_CONTINUE:	return "continue";
	case NFT_BREAK:		return "break";
	case NFT_JUMP:		return "jump";
	case NFT_GOTO:		return "goto";
	case NFT_RETURN:	return "return";
	}
	return "unknown";
}

bool chain_type_valid(unsigned int family, const char *type)
{
	if (!strcmp(type, "filter"))
		return true;
	if (!strcmp(type, "nat"))
		return family == NFPROTO_IPV4 || family == NFPROTO_IPV6 ||
		       family == NFPROTO_INET;
	if (!strcmp(type, "route"))
		return family == NFPROTO_IPV4 || family == NFPROTO_IPV6 ||
		       family == NFPROTO_INET;
	return false;
}

struct prio_tag {
	const char	*name;
	int		prio;
};

static const struct prio_tag ip_prios[] = {
	{ "raw", -300 }, { "mangle", -150 }, { "dstnat", -100 },
	{ "filter", 0 }, { "security", 50 }, { "srcnat", 100 },
};

static const struct prio_tag bridge_prios[] = {
	{ "dstnat", -300 }, { "filter", -200 }, { "out", 100 },
	{ "srcnat", 300 },
};

/*
 * Which standard priorities make sense on which hook, as nft 1.0.6
 * decides: filter anywhere, raw, mangle and security in ip, ip6 and inet
 * only, dstnat on prerouting and srcnat on postrouting only (later nft
 * also take dstnat on output and srcnat on input).
 */
static bool prio_compat(unsigned int family, unsigned int hook,
			const char *name)
{
	if (family == NFPROTO_BRIDGE) {
		if (!strcmp(name, "filter"))
			return true;
		if (!strcmp(name, "dstnat"))
			return hook == NF_BR_PRE_ROUTING;
		if (!strcmp(name, "out"))
			return hook == NF_BR_LOCAL_OUT;
		if (!strcmp(name, "srcnat"))
			return hook == NF_BR_POST_ROUTING;
		return false;
	}
	if (!strcmp(name, "filter"))
		return true;
	switch (family) {
	case NFPROTO_IPV4:
	case NFPROTO_IPV6:
	case NFPROTO_INET:
		break;
	default:
		return false;
	}
	if (!strcmp(name, "raw") || !strcmp(name, "mangle") ||
	    !strcmp(name, "security"))
		return true;
	if (!strcmp(name, "dstnat"))
		return hook == NF_INET_PRE_ROUTING;
	if (!strcmp(name, "srcnat"))
		return hook == NF_INET_POST_ROUTING;
	return false;
}

static const struct prio_tag *family_prios(unsigned int family, unsigned int *n)
{
	if (family == NFPROTO_BRIDGE) {
		*n = array_size(bridge_prios);
		return bridge_prios;
	}
	*n = array_size(ip_prios);
	return ip_prios;
}

int prio_lookup(unsigned int family, unsigned int hooknum, const char *name,
		int *prio)
{
	unsigned int n;
	const struct prio_tag *t = family_prios(family, &n);

	for (unsigned int i = 0; i < n; i++) {
		if (strcmp(t[i].name, name))
			continue;
		if (!prio_compat(family, hooknum, name))
			return -1;
		*prio = t[i].prio;
		return 0;
	}
	return -1;
}

void prio_print(FILE *f, unsigned int family, unsigned int hooknum, int prio,
		bool numeric)
{
	unsigned int n;
	const struct prio_tag *t = family_prios(family, &n);

	for (unsigned int i = 0; !numeric && i < n; i++) {
		long long off = (long long)prio - t[i].prio;

		if (off < -10 || off > 10 ||
		    !prio_compat(family, hooknum, t[i].name))
			continue;
		if (off == 0)
			fprintf(f, "%s", t[i].name);
		else
			fprintf(f, "%s %c %d", t[i].name, off < 0 ? '-' : '+',
				(int)(off < 0 ? -off : off));
		return;
	}
	fprintf(f, "%d", prio);
}

/* family numbers are NFPROTO_*, below 16 */
#define FAMILY_MAX	16

/* did you mean: the families, and the hooks of one */
const char *suggest_family(struct suggest *s, const char *word)
{
	suggest_init(s, word);
	for (int i = 0; i < FAMILY_MAX; i++)
		if (family_lookup(family_name(i)) == i)
			suggest_add(s, family_name(i));
	return suggest_hint(s);
}

const char *suggest_hook(struct suggest *s, unsigned int family,
			 const char *word)
{
	static const char *const hooks[] = {
		"prerouting", "input", "forward", "output", "postrouting",
		"ingress", "egress",
	};

	suggest_init(s, word);
	for (unsigned int i = 0; i < sizeof(hooks) / sizeof(hooks[0]); i++)
		if (hook_lookup(family, hooks[i]) >= 0)
			suggest_add(s, hooks[i]);
	return suggest_hint(s);
}
