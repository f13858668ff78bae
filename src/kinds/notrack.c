// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * notrack: the packet gets no conntrack entry (the kernel's "notrack"
 * expression, in a chain before conntrack's).  No argument, no register.
 */
#include <jansson.h>

#include <kind.h>

static const struct stmt_ops notrack_ops;

static struct stmt *notrack_parse(const struct location *loc,
				   const struct kind_word *w, unsigned int n,
				   struct list_head *msgs)
{
	return ops_stmt_alloc(loc, &notrack_ops);
}

static int notrack_linearize(struct kind_lin *k, const struct stmt *s)
{
	k->add(k, "notrack");
	return 0;
}

static void notrack_delinearize(struct kind_delin *k,
				const struct nftnl_expr *nle)
{
	k->add_stmt(k, ops_stmt_alloc(&internal_location, &notrack_ops));
}

static void notrack_print(struct kind_print *k, const struct stmt *s)
{
	fputs("notrack", k->f);
}

static json_t *notrack_json(struct kind_json *k, const struct stmt *s)
{
	return kind_json_wrap("notrack", json_null());
}

static struct stmt *notrack_parse_json(struct kind_jparse *k, const char *key,
				       json_t *v, const struct location *loc)
{
	if (!json_is_null(v))
		return k->error(k, v, "notrack takes null"), NULL;
	return ops_stmt_alloc(loc, &notrack_ops);
}

static const struct stmt_ops notrack_ops = {
	.name		= "notrack",
	.nl_name	= "notrack",
	.kind		= STMT_OPS,
	.bare		= true,
	.parse		= notrack_parse,
	.linearize	= notrack_linearize,
	.delinearize	= notrack_delinearize,
	.print		= notrack_print,
	.json		= notrack_json,
	.parse_json	= notrack_parse_json,
};
STMT_OPS_REGISTER(notrack_ops);
