// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ct count [over] N: the connections of the packet's flow key (the
 * kernel's "connlimit").  A set element may keep one per element, so the
 * evaluator knows the kind: STMT_CONNLIMIT and its fields stay in struct stmt.
 */
#include <jansson.h>
#include <libnftnl/expr.h>
#include <linux/netfilter/nf_tables.h>

#include <kind.h>
#include <connlimit.h>

struct stmt *connlimit_stmt_alloc(const struct location *loc, uint64_t count,
				  uint32_t flags)
{
	struct stmt *s = stmt_alloc(loc, STMT_CONNLIMIT);

	s->connlimit.count = count;
	s->connlimit.flags = flags;
	return s;
}

static int connlimit_linearize(struct kind_lin *k, const struct stmt *s)
{
	struct nftnl_expr *e = k->add(k, "connlimit");

	nftnl_expr_set_u32(e, NFTNL_EXPR_CONNLIMIT_COUNT, s->connlimit.count);
	nftnl_expr_set_u32(e, NFTNL_EXPR_CONNLIMIT_FLAGS, s->connlimit.flags);
	return 0;
}

static void connlimit_delinearize(struct kind_delin *k,
				  const struct nftnl_expr *nle)
{
	k->add_stmt(k, connlimit_stmt_alloc(&internal_location,
		nftnl_expr_get_u32(nle, NFTNL_EXPR_CONNLIMIT_COUNT),
		nftnl_expr_get_u32(nle, NFTNL_EXPR_CONNLIMIT_FLAGS)));
}

static void connlimit_print(struct kind_print *k, const struct stmt *s)
{
	fprintf(k->f, "ct count %s%u", s->connlimit.flags & NFT_CONNLIMIT_F_INV ?
		"over " : "", s->connlimit.count);
}

static json_t *connlimit_json(struct kind_json *k, const struct stmt *s)
{
	json_t *o = kind_json_wrap("val", json_integer(s->connlimit.count));

	if (s->connlimit.flags & NFT_CONNLIMIT_F_INV)
		o = kind_json_set(o, "inv", json_true());
	return kind_json_wrap("ct count", o);
}

/* { "val": N, "inv": true } */
static struct stmt *connlimit_parse_json(struct kind_jparse *k,
					 const char *key, json_t *o,
					 const struct location *loc)
{
	static const char *const keys[] = { "val", "inv", NULL };
	uint64_t n;

	if (!json_is_object(o) || k->check_keys(k, o, "ct count", keys) < 0)
		return k->error(k, o, "ct count: expected { \"val\": N }"), NULL;
	if (k->get_u32(k, o, "val", &n) != 1) {
		if (!json_object_get(o, "val"))
			k->error(k, o, "ct count: property \"val\" is missing");
		return NULL;
	}
	return connlimit_stmt_alloc(loc, n, k->get_bool(k, o, "inv") ?
				    NFT_CONNLIMIT_F_INV : 0);
}

static const struct stmt_ops connlimit_ops = {
	.name		= "ct count",
	.nl_name	= "connlimit",
	.kind		= STMT_CONNLIMIT,
	.linearize	= connlimit_linearize,
	.delinearize	= connlimit_delinearize,
	.print		= connlimit_print,
	.json		= connlimit_json,
	.parse_json	= connlimit_parse_json,
	.not_offered	= true,	/* the shell's completion never offered it */
};
STMT_OPS_REGISTER(connlimit_ops);
