// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * last: when the rule last matched a packet (the kernel's "last"
 * expression).  "last" and "last used never" start it unset; "last used
 * 1h2m3s" starts it as if a packet had matched that long ago.  The kernel
 * lists the time since the last packet, or never.
 *
 * nft 1.0.6 has no last statement (it lists the kernel's expression as an
 * empty rule); nft 1.1.1's grammar, bytecode, listing and JSON are the
 * model here.
 */
#include <errno.h>
#include <string.h>
#include <jansson.h>
#include <libnftnl/expr.h>

#include <ctx.h>
#include <kind.h>
#include <datatype.h>

struct last_priv {
	uint64_t	used;	/* ms since the last packet, when set */
	bool		set;	/* false: never */
};
_Static_assert(sizeof(struct last_priv) <= sizeof(((struct stmt *)0)->priv),
	       "last_priv fits a statement's fields");

static const struct stmt_ops last_ops;

static struct stmt *last_alloc(const struct location *loc, bool set,
			       uint64_t used)
{
	struct stmt *s = ops_stmt_alloc(loc, &last_ops);
	struct last_priv *p = stmt_priv(s);

	p->set = set;
	p->used = used;
	return s;
}

/* the grammar's word after "last used" ("never" or a time), NULL for
   "last" alone */
static struct stmt *last_parse(const struct location *loc,
			       const struct kind_word *w, unsigned int n,
			       struct list_head *msgs)
{
	uint64_t ms;
	int ret;

	if (!w[0].w || !strcmp(w[0].w, "never"))
		return last_alloc(loc, false, 0);
	ret = time_parse(w[0].w, &ms);
	if (ret == -ERANGE) {
		error_queue(msgs, w[0].loc, "value too large");
		return NULL;
	}
	if (ret < 0) {
		error_queue(msgs, w[0].loc, "wrong time format");
		return NULL;
	}
	return last_alloc(loc, true, ms);
}

/* both attributes always, as nft 1.1.1 sends them */
static int last_linearize(struct kind_lin *k, const struct stmt *s)
{
	const struct last_priv *p = stmt_priv(s);
	struct nftnl_expr *x = k->add(k, "last");

	nftnl_expr_set_u64(x, NFTNL_EXPR_LAST_MSECS, p->used);
	nftnl_expr_set_u32(x, NFTNL_EXPR_LAST_SET, p->set);
	return 0;
}

static void last_delinearize(struct kind_delin *k,
			     const struct nftnl_expr *nle)
{
	bool set = nftnl_expr_is_set(nle, NFTNL_EXPR_LAST_SET) &&
		   nftnl_expr_get_u32(nle, NFTNL_EXPR_LAST_SET);
	uint64_t used = nftnl_expr_is_set(nle, NFTNL_EXPR_LAST_MSECS) ?
			nftnl_expr_get_u64(nle, NFTNL_EXPR_LAST_MSECS) : 0;

	k->add_stmt(k, last_alloc(&internal_location, set, set ? used : 0));
}

/* -s leaves out the state: "last" */
static void last_print(struct kind_print *k, const struct stmt *s)
{
	const struct last_priv *p = stmt_priv(s);

	fputs("last", k->f);
	if (k->octx->flags & NFH_OUTPUT_STATELESS)
		return;
	fputs(" used ", k->f);
	if (p->set)
		time_print_opt(p->used, k->octx, k->f);
	else
		fputs("never", k->f);
}

/* { "last": null } (never, or -s) or { "last": { "used": ms } } */
static json_t *last_json(struct kind_json *k, const struct stmt *s)
{
	const struct last_priv *p = stmt_priv(s);

	if (!p->set || (k->octx->flags & NFH_OUTPUT_STATELESS))
		return kind_json_wrap("last", json_null());
	return kind_json_wrap("last", kind_json_wrap("used",
						     json_integer(p->used)));
}

static struct stmt *last_parse_json(struct kind_jparse *k, const char *key,
				    json_t *v, const struct location *loc)
{
	static const char *const props[] = { "used", NULL };
	json_t *used;

	if (json_is_null(v))
		return last_alloc(loc, false, 0);
	if (!json_is_object(v) || k->check_keys(k, v, "last", props) < 0)
		return k->error(k, v, "last: expected null or an object"), NULL;
	used = json_object_get(v, "used");
	if (!used || !json_is_integer(used) || json_integer_value(used) < 0)
		return k->error(k, used ? used : v,
				"last: \"used\" must be milliseconds"), NULL;
	return last_alloc(loc, true, json_integer_value(used));
}

static const struct stmt_ops last_ops = {
	.name		= "last",
	.nl_name	= "last",
	.kind		= STMT_OPS,
	.bare		= true,
	.parse		= last_parse,
	.linearize	= last_linearize,
	.delinearize	= last_delinearize,
	.print		= last_print,
	.json		= last_json,
	.parse_json	= last_parse_json,
};
STMT_OPS_REGISTER(last_ops);
