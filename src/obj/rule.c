// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdlib.h>
#include <string.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>

#include <elemstore.h>
#include <kind.h>
#include <rule.h>
#include <names.h>

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
