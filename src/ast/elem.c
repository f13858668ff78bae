// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A set element's own statements (quota, limit, ct count; any statement a
 * dump of a kernel element gave): an element owns them, and its ops copy
 * and free them, so that expr.c, below the statements, never calls stmt.c
 * (expr_clone() and expr_free() reach them through e->ops).  The key and
 * the comment stay expr.c's, as every expression's parts do.
 */
#include <stdlib.h>
#include <string.h>

#include <kind.h>
#include <expr.h>
#include <stmt.h>
#include <utils.h>

/*
 * A copy of an element's statements: quota, limit and ct count hold
 * their values in the statement itself, so a copy of it is a clone.
 */
static void elem_clone(struct expr *n, const struct expr *e, size_t *nodes)
{
	const struct stmt *i;

	(void)nodes;
	init_list_head(&n->elem.stmts);
	list_for_each_entry(i, &e->elem.stmts, list) {
		struct stmt *c = xmalloc(sizeof(*c));

		memcpy(c, i, sizeof(*c));
		list_add_tail(&c->list, &n->elem.stmts);
	}
}

static void elem_destroy(struct expr *e)
{
	struct stmt *st, *nst;

	list_for_each_entry_safe(st, nst, &e->elem.stmts, list) {
		list_del(&st->list);
		stmt_free(st);
	}
}

static const struct expr_ops elem_ops = {
	.kind		= EXPR_SET_ELEM,
	.clone		= elem_clone,
	.destroy	= elem_destroy,
};
EXPR_OPS_REGISTER(elem_ops);
