// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Errors in one file are all reported in one run (issue 15), and only
 * once: when a command fails, what it would have made is missing, and
 * the commands that name it would be refused for that alone (a rule in a
 * chain whose declaration failed, a lookup of a set whose elements were
 * wrong, a jump to a chain, "counter name" of an object).  Those are the
 * first error's cascade.  This is the list of what is missing, by kind
 * and name, and the test of a command's messages against it.
 *
 * A name is matched whatever else the command says (an object of another
 * type by the same name, a chain declared twice), so that a cascade is
 * never reported; a table that failed takes everything in it along.
 */
#include <stdlib.h>
#include <string.h>
#include <linux/netfilter/nf_tables.h>
#include <libnftnl/chain.h>
#include <libnftnl/expr.h>
#include <libnftnl/flowtable.h>
#include <libnftnl/object.h>
#include <libnftnl/rule.h>
#include <libnftnl/set.h>
#include <libnftnl/table.h>

#include <cascade.h>
#include <netlink.h>
#include <rule.h>
#include <utils.h>

struct missing {
	enum cmd_obj	kind;		/* TABLE, CHAIN, SET, OBJ, FLOWTABLE */
	unsigned int	family;
	bool		any_family;	/* a table of that name in each */
	char		*table;		/* NULL: every table */
	char		*name;		/* NULL for a table */
};

struct cascade {
	struct missing	*v;
	unsigned int	n, cap;
};

struct cascade *cascade_new(void)
{
	return xzalloc(sizeof(struct cascade));
}

void cascade_free(struct cascade *c)
{
	if (!c)
		return;
	for (unsigned int i = 0; i < c->n; i++) {
		free(c->v[i].table);
		free(c->v[i].name);
	}
	free(c->v);
	free(c);
}

bool cascade_any(const struct cascade *c)
{
	return c->n > 0;
}

/* the kind of what @cmd makes or names, and its name; false if none */
static bool cmd_names(const struct cmd *cmd, enum cmd_obj *kind,
		      const char **name)
{
	switch (cmd->obj) {
	case CMD_OBJ_TABLE:
		*kind = CMD_OBJ_TABLE;
		*name = NULL;
		return true;
	case CMD_OBJ_CHAIN:
	case CMD_OBJ_RULE:
		*kind = CMD_OBJ_CHAIN;
		*name = cmd->h.chain;
		return cmd->h.chain != NULL;
	case CMD_OBJ_SET:
	case CMD_OBJ_MAP:
	case CMD_OBJ_ELEMENTS:
		*kind = CMD_OBJ_SET;
		*name = cmd->h.set;
		return cmd->h.set != NULL;
	case CMD_OBJ_OBJ:
	case CMD_OBJ_FLOWTABLE:
		*kind = cmd->obj;
		*name = cmd->h.obj;
		return cmd->h.obj != NULL;
	default:
		return false;
	}
}

static struct missing *add(struct cascade *c, enum cmd_obj kind,
			   const char *table, const char *name)
{
	struct missing *m;

	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 8;
		c->v = xrealloc(c->v, c->cap * sizeof(*c->v));
	}
	m = &c->v[c->n++];
	memset(m, 0, sizeof(*m));
	m->kind = kind;
	m->table = table ? xstrdup(table) : NULL;
	m->name = name ? xstrdup(name) : NULL;
	return m;
}

void cascade_note(struct cascade *c, const struct cmd *cmd)
{
	enum cmd_obj kind;
	const char *name;

	/* only what a command adds is missing when it fails */
	if ((cmd->op != CMD_ADD && cmd->op != CMD_CREATE) || !cmd->h.table ||
	    cmd->obj == CMD_OBJ_RULE || cmd->obj == CMD_OBJ_ELEMENTS ||
	    !cmd_names(cmd, &kind, &name))
		return;
	add(c, kind, cmd->h.table, name)->family = cmd->h.family;
}

void cascade_note_table(struct cascade *c, const char *table)
{
	add(c, CMD_OBJ_TABLE, table, NULL)->any_family = true;
}

/* whether @name of @kind (NULL: the table itself) in @family's @table
   is missing */
static bool missing(const struct cascade *c, enum cmd_obj kind,
		    unsigned int family, const char *table, const char *name)
{
	if (!table)
		return false;
	for (unsigned int i = 0; i < c->n; i++) {
		const struct missing *m = &c->v[i];

		if ((!m->any_family && m->family != family) ||
		    (m->table && strcmp(m->table, table)))
			continue;
		if (m->kind == CMD_OBJ_TABLE ||
		    (name && m->kind == kind && !strcmp(m->name, name)))
			return true;
	}
	return false;
}

bool cascade_cmd(const struct cascade *c, const struct cmd *cmd)
{
	enum cmd_obj kind;
	const char *name;

	if (!c->n || !cmd_names(cmd, &kind, &name))
		return false;
	return missing(c, kind, cmd->h.family, cmd->h.table, name);
}

/* one expression of a rule of @table: a set, object, chain or
   flowtable it names */
static bool expr_names_missing(const struct cascade *c, unsigned int family,
			       const char *table, struct nftnl_expr *e)
{
	static const struct {
		const char	*expr;
		uint16_t	attr;
		enum cmd_obj	kind;
	} refs[] = {
		{ "lookup",	  NFTNL_EXPR_LOOKUP_SET,	CMD_OBJ_SET },
		{ "dynset",	  NFTNL_EXPR_DYNSET_SET_NAME,	CMD_OBJ_SET },
		{ "objref",	  NFTNL_EXPR_OBJREF_IMM_NAME,	CMD_OBJ_OBJ },
		{ "objref",	  NFTNL_EXPR_OBJREF_SET_NAME,	CMD_OBJ_SET },
		{ "immediate",	  NFTNL_EXPR_IMM_CHAIN,		CMD_OBJ_CHAIN },
		{ "flow_offload", NFTNL_EXPR_FLOW_TABLE_NAME,	CMD_OBJ_FLOWTABLE },
	};
	const char *n = nftnl_expr_get_str(e, NFTNL_EXPR_NAME);

	for (unsigned int i = 0; i < array_size(refs); i++)
		if (!strcmp(n, refs[i].expr) && nftnl_expr_is_set(e, refs[i].attr) &&
		    missing(c, refs[i].kind, family, table,
			    nftnl_expr_get_str(e, refs[i].attr)))
			return true;
	return false;
}

static bool rule_names_missing(const struct cascade *c, unsigned int family,
			       struct nftnl_rule *r)
{
	const char *table = nftnl_rule_get_str(r, NFTNL_RULE_TABLE);
	struct nftnl_expr_iter *i;
	struct nftnl_expr *e;
	bool ret;

	/* a rule of a chain binding has no chain name */
	ret = missing(c, CMD_OBJ_CHAIN, family, table,
		      nftnl_rule_is_set(r, NFTNL_RULE_CHAIN) ?
		      nftnl_rule_get_str(r, NFTNL_RULE_CHAIN) : NULL);
	i = nftnl_expr_iter_create(r);
	while (!ret && (e = nftnl_expr_iter_next(i)))
		ret = expr_names_missing(c, family, table, e);
	nftnl_expr_iter_destroy(i);
	return ret;
}

/* a set, or its elements: their jumps and objects too */
static bool set_names_missing(const struct cascade *c, unsigned int family,
			      struct nftnl_set *s)
{
	const char *table = nftnl_set_get_str(s, NFTNL_SET_TABLE);
	struct nftnl_set_elems_iter *i;
	struct nftnl_set_elem *e;
	bool ret;

	ret = missing(c, CMD_OBJ_SET, family, table,
		      nftnl_set_is_set(s, NFTNL_SET_NAME) ?
		      nftnl_set_get_str(s, NFTNL_SET_NAME) : NULL);
	i = nftnl_set_elems_iter_create(s);
	while (!ret && (e = nftnl_set_elems_iter_next(i))) {
		if (nftnl_set_elem_is_set(e, NFTNL_SET_ELEM_CHAIN))
			ret = missing(c, CMD_OBJ_CHAIN, family, table,
				      nftnl_set_elem_get_str(e, NFTNL_SET_ELEM_CHAIN));
		if (!ret && nftnl_set_elem_is_set(e, NFTNL_SET_ELEM_OBJREF))
			ret = missing(c, CMD_OBJ_OBJ, family, table,
				      nftnl_set_elem_get_str(e, NFTNL_SET_ELEM_OBJREF));
	}
	nftnl_set_elems_iter_destroy(i);
	return ret;
}

/* a message built already (a streamed rule, elements), read back */
static bool raw_names_missing(const struct cascade *c, const struct nl_item *it)
{
	bool ret = false;

	if (it->msg_type == NFT_MSG_NEWRULE || it->msg_type == NFT_MSG_DELRULE) {
		struct nftnl_rule *r = raw_msg_to_rule(it->obj, it->msg_type,
						       it->family);

		/* unreadable: the model says so, as of any rule */
		if (r)
			ret = rule_names_missing(c, it->family, r);
		nftnl_rule_free(r);
	} else {
		struct nftnl_set *s = raw_msg_to_nftnl(it->obj, it->msg_type,
						       it->family);

		if (s)
			ret = set_names_missing(c, it->family, s);
		nftnl_set_free(s);
	}
	return ret;
}

static bool item_names_missing(const struct cascade *c, const struct nl_item *it)
{
	unsigned int f = it->family;

	switch (it->type) {
	case NLO_TABLE:
		return missing(c, CMD_OBJ_TABLE, f,
			       nftnl_table_get_str(it->obj, NFTNL_TABLE_NAME), NULL);
	case NLO_CHAIN:
		return missing(c, CMD_OBJ_CHAIN, f,
			       nftnl_chain_get_str(it->obj, NFTNL_CHAIN_TABLE),
			       nftnl_chain_is_set(it->obj, NFTNL_CHAIN_NAME) ?
			       nftnl_chain_get_str(it->obj, NFTNL_CHAIN_NAME) : NULL);
	case NLO_RULE:
		return rule_names_missing(c, f, it->obj);
	case NLO_SET:
	case NLO_SETELEM:
		return set_names_missing(c, f, it->obj);
	case NLO_OBJ:
		return missing(c, CMD_OBJ_OBJ, f,
			       nftnl_obj_get_str(it->obj, NFTNL_OBJ_TABLE),
			       nftnl_obj_is_set(it->obj, NFTNL_OBJ_NAME) ?
			       nftnl_obj_get_str(it->obj, NFTNL_OBJ_NAME) : NULL);
	case NLO_FLOWTABLE:
		return missing(c, CMD_OBJ_FLOWTABLE, f,
			       nftnl_flowtable_get_str(it->obj, NFTNL_FLOWTABLE_TABLE),
			       nftnl_flowtable_is_set(it->obj, NFTNL_FLOWTABLE_NAME) ?
			       nftnl_flowtable_get_str(it->obj, NFTNL_FLOWTABLE_NAME) : NULL);
	case NLO_RAW:
		return raw_names_missing(c, it);
	}
	return false;
}

bool cascade_item(const struct cascade *c, const struct nl_item *it)
{
	return c->n && item_names_missing(c, it);
}
