// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * osf: the operating system a TCP SYN was sent by, as the kernel's
 * nfnetlink_osf fingerprints name it ("Linux", or "Linux:3.0" with the
 * version flag). The register holds the name as a NUL-padded string.
 *
 * Everything about the kind is here, in its struct expr_ops; the grammar's
 * rule for "osf [ttl T] name|version" hands its words to osf_parse().
 */
#include <string.h>
#include <jansson.h>
#include <libnftnl/expr.h>
#include <libnftnl/udata.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/netfilter/nfnetlink_osf.h>

#include <kind.h>
#include <proto.h>

struct osf_priv {
	uint32_t	ttl;	/* NF_OSF_TTL_* */
	uint32_t	flags;	/* NFT_OSF_F_VERSION */
};
_Static_assert(sizeof(struct osf_priv) <= sizeof(((struct expr *)0)->priv),
	       "osf_priv fits an expression's fields");

static const struct expr_ops osf_ops;

/* NF_OSF_TTL_*: how the packet's TTL must match the fingerprint's */
static const char *const ttl_names[] = {
	[NF_OSF_TTL_LESS]	= "loose",
	[NF_OSF_TTL_NOCHECK]	= "skip",
};

static const char *ttl_name(unsigned int ttl)
{
	return ttl < array_size(ttl_names) ? ttl_names[ttl] : NULL;
}

static struct expr *osf_alloc(const struct location *loc, unsigned int ttl,
			      unsigned int flags)
{
	struct expr *e = selector_expr_alloc(loc, &osf_ops, &string_type,
					     BYTEORDER_HOST,
					     NFT_OSF_MAXGENRELEN * 8);
	struct osf_priv *p = expr_priv(e);

	p->ttl = ttl;
	p->flags = flags;
	return e;
}

/* "osf [ttl loose|skip] name|version"; ttl and tval are NULL without ttl */
static struct expr *osf_expr_parse(const struct location *loc, const char *ttl,
				   const struct location *tloc, const char *tval,
				   const struct location *vloc, const char *key,
				   const struct location *kloc,
				   struct list_head *msgs)
{
	unsigned int t = NF_OSF_TTL_TRUE, flags;

	if (ttl && strcmp(ttl, "ttl")) {
		error_queue(msgs, tloc, "unknown osf option \"%s\"; expected ttl",
			    ttl);
		return NULL;
	}
	if (tval) {
		for (t = NF_OSF_TTL_LESS; t < array_size(ttl_names); t++)
			if (!strcmp(ttl_names[t], tval))
				break;
		if (t == array_size(ttl_names)) {
			error_queue(msgs, vloc, "unknown osf ttl \"%s\"; expected loose or skip",
				    tval);
			return NULL;
		}
	}
	if (!strcmp(key, "name")) {
		flags = 0;
	} else if (!strcmp(key, "version")) {
		flags = NFT_OSF_F_VERSION;
	} else {
		error_queue(msgs, kloc, "unknown osf key \"%s\"; expected name or version",
			    key);
		return NULL;
	}
	return osf_alloc(loc, t, flags);
}

/* the grammar's words: ttl, its value, the key (the first two NULL
   without ttl) */
static struct expr *osf_parse(const struct location *loc,
			      const struct kind_word *w, unsigned int n,
			      struct list_head *msgs)
{
	return osf_expr_parse(loc, w[0].w, w[0].loc, w[1].w, w[1].loc,
			      w[2].w, w[2].loc, msgs);
}

/* nft always sends the ttl, and the flags only when set */
static void osf_linearize(struct kind_lin *k, const struct expr *e,
			  uint32_t dreg)
{
	const struct osf_priv *p = expr_priv(e);
	struct nftnl_expr *x = k->add(k, "osf");

	nftnl_expr_set_u32(x, NFTNL_EXPR_OSF_DREG, dreg);
	nftnl_expr_set_u8(x, NFTNL_EXPR_OSF_TTL, p->ttl);
	if (p->flags)
		nftnl_expr_set_u32(x, NFTNL_EXPR_OSF_FLAGS, p->flags);
}

static void osf_delinearize(struct kind_delin *k, const struct nftnl_expr *e)
{
	uint32_t ttl = nftnl_expr_is_set(e, NFTNL_EXPR_OSF_TTL) ?
		       nftnl_expr_get_u8(e, NFTNL_EXPR_OSF_TTL) : 0;
	uint32_t flags = nftnl_expr_is_set(e, NFTNL_EXPR_OSF_FLAGS) ?
			 nftnl_expr_get_u32(e, NFTNL_EXPR_OSF_FLAGS) : 0;

	if (!nftnl_expr_is_set(e, NFTNL_EXPR_OSF_DREG) ||
	    (ttl && !ttl_name(ttl)) || (flags & ~NFT_OSF_F_VERSION)) {
		k->unsupported(k, "osf");
		return;
	}
	k->reg_set(k, nftnl_expr_get_u32(e, NFTNL_EXPR_OSF_DREG),
		   osf_alloc(&internal_location, ttl, flags));
}

static const char *key_name(const struct osf_priv *p)
{
	return p->flags & NFT_OSF_F_VERSION ? "version" : "name";
}

static void osf_print(struct kind_print *k, const struct expr *e)
{
	const struct osf_priv *p = expr_priv(e);

	fputs("osf ", k->f);
	if (ttl_name(p->ttl))
		fprintf(k->f, "ttl %s ", ttl_name(p->ttl));
	fputs(key_name(p), k->f);
}

/* { "osf": { "key": "name" | "version", "ttl": "loose" | "skip" } } */
static json_t *osf_json(struct kind_json *k, const struct expr *e)
{
	const struct osf_priv *p = expr_priv(e);
	json_t *o = kind_json_wrap("key", json_string(key_name(p)));

	if (ttl_name(p->ttl))
		o = kind_json_set(o, "ttl", json_string(ttl_name(p->ttl)));
	return kind_json_wrap("osf", o);
}

static struct expr *osf_parse_json(struct kind_jparse *k, const char *name,
				   json_t *o, const struct location *loc)
{
	static const char *const keys[] = { "key", "ttl", NULL };
	const char *key, *ttl;
	struct location kloc, tloc;

	if (!json_is_object(o) || k->check_keys(k, o, "osf", keys) < 0)
		return k->error(k, o, "osf: expected an object"), NULL;
	key = k->get_str(k, o, "key", true);
	if (!key)
		return NULL;
	ttl = k->get_str(k, o, "ttl", false);
	if (!ttl && json_object_get(o, "ttl"))
		return NULL;
	kloc = k->loc(k, json_object_get(o, "key"));
	tloc = k->loc(k, json_object_get(o, "ttl"));
	return osf_expr_parse(loc, ttl ? "ttl" : NULL, &tloc, ttl, &tloc,
			      key, &kloc, k->msgs);
}

/*
 * typeof: nft writes the kind and no record at all, so neither the ttl
 * nor "version" survive; nft lists "osf name" back, as we do (the key
 * is the same string either way).
 */
static void osf_typeof_put(struct nftnl_udata_buf *b, const struct expr *e)
{
}

static struct expr *osf_typeof_parse(const struct kind_typeof *t,
				     unsigned int family)
{
	return osf_alloc(&internal_location, NF_OSF_TTL_TRUE, 0);
}

/* any family, as nft: the kernel refuses osf only in a base chain of
   other families than ip, ip6 and inet (EOPNOTSUPP), so there is no eval */
static const struct expr_ops osf_ops = {
	.name		= "osf",
	.nl_name	= "osf",
	.kind		= EXPR_SELECTOR,
	.parse		= osf_parse,
	.linearize	= osf_linearize,
	.delinearize	= osf_delinearize,
	.print		= osf_print,
	.json		= osf_json,
	.parse_json	= osf_parse_json,
	.typeof_kind	= TYPEOF_KIND_OSF,
	.typeof_put	= osf_typeof_put,
	.typeof_parse	= osf_typeof_parse,
};
EXPR_OPS_REGISTER(osf_ops);
