// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdlib.h>
#include <string.h>
#include <linux/netfilter/nf_nat.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>

#include <datatype.h>
#include <expr.h>
#include <proto.h>
#include <stmt.h>
#include <kind.h>

/* the kinds' tables, as STMT_OPS_REGISTER put them in the binary */
KIND_SECTION_NTH(struct stmt_ops, nfh_stmt_ops, stmt_ops_nth)

/* the table of each kind of the enum that has one */
static const struct stmt_ops *kind_ops[__STMT_KIND_MAX];

__attribute__((constructor)) static void kind_ops_index(void)
{
	const struct stmt_ops *o;

	for (unsigned int i = 0; (o = stmt_ops_nth(i)); i++)
		if (o->kind != STMT_OPS && o->kind < array_size(kind_ops))
			kind_ops[o->kind] = o;
}

const struct stmt_ops *stmt_ops_by_nl_name(const char *name)
{
	const struct stmt_ops *o;

	for (unsigned int i = 0; (o = stmt_ops_nth(i)); i++) {
		const char *const *n;

		if (o->nl_name && !strcmp(o->nl_name, name))
			return o;
		for (n = o->nl_names; n && *n; n++)
			if (!strcmp(*n, name))
				return o;
	}
	return NULL;
}

const struct stmt_ops *stmt_ops_by_json_name(const char *key)
{
	const struct stmt_ops *o;

	for (unsigned int i = 0; (o = stmt_ops_nth(i)); i++)
		if (kind_name_is(o->name, o->json_names, key))
			return o;
	return NULL;
}

struct stmt *stmt_kind_parse(const char *name, const struct location *loc,
			     const struct kind_word *w, unsigned int n,
			     struct list_head *msgs)
{
	const struct stmt_ops *o;

	for (unsigned int i = 0; (o = stmt_ops_nth(i)); i++)
		if (o->parse && !strcmp(o->name, name))
			return o->parse(loc, w, n, msgs);
	error_queue(msgs, loc, "internal error: no statement kind %s", name);
	return NULL;
}

struct stmt *ops_stmt_alloc(const struct location *loc,
			    const struct stmt_ops *ops)
{
	struct stmt *s = stmt_alloc(loc, STMT_OPS);

	s->ops = ops;
	return s;
}

void stmt_set_kind(struct stmt *s, enum stmt_kind kind)
{
	s->kind = kind;
	s->ops = kind < array_size(kind_ops) ? kind_ops[kind] : NULL;
}

struct stmt *stmt_alloc(const struct location *loc, enum stmt_kind kind)
{
	struct stmt *s = xzalloc(sizeof(*s));

	init_list_head(&s->list);
	s->loc = loc ? *loc : internal_location;
	s->kind = kind;
	if (kind < array_size(kind_ops))
		s->ops = kind_ops[kind];
	if (kind == STMT_SET)
		init_list_head(&s->set.stmts);
	return s;
}

void stmt_free(struct stmt *s)
{
	if (!s)
		return;
	if (s->ops && s->ops->destroy)
		s->ops->destroy(s);
	switch (s->kind) {
	case STMT_EXPRESSION:
		expr_free(s->expr);
		break;
	case STMT_VERDICT:
	case STMT_INVALID:	/* delinearize.c's unsupported(): names the expression */
		expr_free(s->verdict.expr);
		break;
	default:
		break;
	}
	free(s);
}

struct stmt *match_stmt_alloc(const struct location *loc, struct expr *e)
{
	struct stmt *s = stmt_alloc(loc, STMT_EXPRESSION);

	s->expr = e;
	return s;
}

struct stmt *verdict_stmt_alloc(const struct location *loc, struct expr *e)
{
	struct stmt *s = stmt_alloc(loc, STMT_VERDICT);

	s->verdict.expr = e;
	return s;
}


static const struct symbol byte_units[] = {
	{ "bytes",	1 },
	{ "kbytes",	1024 },
	{ "mbytes",	1024 * 1024 },
	{ NULL, 0 },
};

int stmt_bytes_unit(const char *unit, uint64_t *bytes)
{
	const struct symbol *sym = symbol_by_name(byte_units, unit);

	if (!sym)
		return -1;
	*bytes = sym->value;
	return 0;
}




int stmt_nat_flag(const char *name)
{
	if (!strcmp(name, "random"))
		return NF_NAT_RANGE_PROTO_RANDOM;
	if (!strcmp(name, "fully-random"))
		return NF_NAT_RANGE_PROTO_RANDOM_FULLY;
	if (!strcmp(name, "persistent"))
		return NF_NAT_RANGE_PERSISTENT;
	return -1;
}

/* ipv4_addr . inet_service (ip6addr in ip6), each part in whole registers */
struct expr *stmt_nat_concat_type(unsigned int family)
{
	const struct datatype *dt = family == NFPROTO_IPV6 ? &ip6addr_type :
							      &ipaddr_type;
	struct expr *c = compound_expr_alloc(NULL, EXPR_CONCAT);

	compound_expr_add(c, constant_expr_alloc(NULL, dt, BYTEORDER_BIG,
						 dt->size, NULL));
	compound_expr_add(c, constant_expr_alloc(NULL, &inet_service_type,
						 BYTEORDER_BIG,
						 inet_service_type.size, NULL));
	c->len = (dt->size / 32 + 1) * 32;
	return c;
}
