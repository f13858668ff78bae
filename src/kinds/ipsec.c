// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ipsec: what the packet's IPsec state says (the kernel's "xfrm"
 * expression): "ipsec in|out [spnum N] reqid|spi" and "ipsec in|out
 * [spnum N] ip|ip6 saddr|daddr".  In reads the input policy's state of the
 * packet's secpath, out the output route's; spnum picks a state of the
 * path (0, the first, by default).  The kernel refuses in in a hook after
 * routing (output, postrouting), out before it (prerouting, input), and an
 * spnum past its XFRM_MAX_DEPTH; nft checks neither, so nfh does not.
 *
 * "ipsec" alone stays nft's unqualified "meta ipsec" (the grammar's rule).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include <libnftnl/expr.h>
#include <libnftnl/udata.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/xfrm.h>

#include <kind.h>
#include <datatype.h>

struct ipsec_priv {
	uint32_t	key;	/* NFT_XFRM_KEY_* */
	uint32_t	spnum;
	uint8_t		dir;	/* XFRM_POLICY_IN or XFRM_POLICY_OUT */
};
_Static_assert(sizeof(struct ipsec_priv) <= sizeof(((struct expr *)0)->priv),
	       "ipsec_priv fits an expression's fields");

static const struct expr_ops ipsec_ops;

/* NFT_XFRM_KEY_*: the word, the family word ("ip", "ip6") of an address,
   and what the register holds */
static const struct {
	const char		*name;
	const char		*family;
	const struct datatype	*dtype;
	enum byteorder		bo;
	unsigned int		len;
} keys[] = {
	[NFT_XFRM_KEY_DADDR_IP4] = { "daddr", "ip", &ipaddr_type, BYTEORDER_BIG, 32 },
	[NFT_XFRM_KEY_DADDR_IP6] = { "daddr", "ip6", &ip6addr_type, BYTEORDER_BIG, 128 },
	[NFT_XFRM_KEY_SADDR_IP4] = { "saddr", "ip", &ipaddr_type, BYTEORDER_BIG, 32 },
	[NFT_XFRM_KEY_SADDR_IP6] = { "saddr", "ip6", &ip6addr_type, BYTEORDER_BIG, 128 },
	[NFT_XFRM_KEY_REQID]	 = { "reqid", NULL, &integer_type, BYTEORDER_HOST, 32 },
	[NFT_XFRM_KEY_SPI]	 = { "spi", NULL, &integer_type, BYTEORDER_BIG, 32 },
};

static const char *const dirs[] = {
	[XFRM_POLICY_IN]	= "in",
	[XFRM_POLICY_OUT]	= "out",
};

/* the spnum nft's grammar takes: one byte */
#define SPNUM_MAX	255

static bool key_valid(uint32_t key)
{
	return key < array_size(keys) && keys[key].name;
}

static struct expr *ipsec_alloc(const struct location *loc, uint32_t key,
				uint8_t dir, uint32_t spnum)
{
	struct expr *e = selector_expr_alloc(loc, &ipsec_ops, keys[key].dtype,
					     keys[key].bo, keys[key].len);
	struct ipsec_priv *p = expr_priv(e);

	p->key = key;
	p->dir = dir;
	p->spnum = spnum;
	return e;
}

static int dir_lookup(const char *s)
{
	for (unsigned int d = 0; d < array_size(dirs); d++)
		if (!strcmp(dirs[d], s))
			return d;
	return -1;
}

/* @family "ip", "ip6" or NULL (reqid, spi); -1 if no key has these names */
static int key_lookup(const char *family, const char *name)
{
	for (unsigned int k = 0; k < array_size(keys); k++)
		if (keys[k].name && !strcmp(keys[k].name, name) &&
		    (!family) == (!keys[k].family) &&
		    (!family || !strcmp(keys[k].family, family)))
			return k;
	return -1;
}

/*
 * The grammar's words: the direction, spnum's number (NULL without
 * spnum; its location spans "spnum N"), the family word (NULL for reqid
 * and spi) and the key.
 */
static struct expr *ipsec_parse(const struct location *loc,
				const struct kind_word *w, unsigned int n,
				struct list_head *msgs)
{
	unsigned long long spnum = 0;
	int dir, key;

	dir = dir_lookup(w[0].w);
	if (dir < 0) {
		error_queue(msgs, w[0].loc, "unknown ipsec direction \"%s\"; expected in or out",
			    w[0].w);
		return NULL;
	}
	if (w[1].w) {
		spnum = strtoull(w[1].w, NULL, 0);
		if (spnum > SPNUM_MAX) {
			error_queue(msgs, w[1].loc, "value too large");
			return NULL;
		}
	}
	if (w[2].w && strcmp(w[2].w, "ip") && strcmp(w[2].w, "ip6")) {
		error_queue(msgs, w[2].loc, "unknown ipsec key \"%s\"; expected reqid, spi, ip or ip6",
			    w[2].w);
		return NULL;
	}
	key = key_lookup(w[2].w, w[3].w);
	if (key < 0) {
		error_queue(msgs, w[3].loc, w[2].w ?
			    "unknown ipsec key \"%s\"; expected saddr or daddr" :
			    "unknown ipsec key \"%s\"; expected reqid, spi, ip or ip6",
			    w[3].w);
		return NULL;
	}
	return ipsec_alloc(loc, key, dir, spnum);
}

/* as nft: the tables of the families with IPsec */
static int ipsec_eval(struct kind_eval *k, struct expr *e)
{
	switch (k->family) {
	case NFPROTO_IPV4:
	case NFPROTO_IPV6:
	case NFPROTO_INET:
		return 0;
	}
	return error_queue(k->msgs, &e->loc,
			   "ipsec expression is only valid in ip/ip6/inet tables");
}

static void ipsec_linearize(struct kind_lin *k, const struct expr *e,
			    uint32_t dreg)
{
	const struct ipsec_priv *p = expr_priv(e);
	struct nftnl_expr *x = k->add(k, "xfrm");

	nftnl_expr_set_u32(x, NFTNL_EXPR_XFRM_DREG, dreg);
	nftnl_expr_set_u32(x, NFTNL_EXPR_XFRM_KEY, p->key);
	nftnl_expr_set_u8(x, NFTNL_EXPR_XFRM_DIR, p->dir);
	nftnl_expr_set_u32(x, NFTNL_EXPR_XFRM_SPNUM, p->spnum);
}

static void ipsec_delinearize(struct kind_delin *k, const struct nftnl_expr *e)
{
	uint32_t key = nftnl_expr_get_u32(e, NFTNL_EXPR_XFRM_KEY);
	uint8_t dir = nftnl_expr_get_u8(e, NFTNL_EXPR_XFRM_DIR);

	if (!nftnl_expr_is_set(e, NFTNL_EXPR_XFRM_DREG) ||
	    !nftnl_expr_is_set(e, NFTNL_EXPR_XFRM_KEY) || !key_valid(key) ||
	    dir >= array_size(dirs)) {
		k->unsupported(k, "xfrm");
		return;
	}
	k->reg_set(k, nftnl_expr_get_u32(e, NFTNL_EXPR_XFRM_DREG),
		   ipsec_alloc(&internal_location, key, dir,
			       nftnl_expr_get_u32(e, NFTNL_EXPR_XFRM_SPNUM)));
}

/* "ipsec in spnum 1 ip saddr": spnum only when not 0, as nft */
static void ipsec_print(struct kind_print *k, const struct expr *e)
{
	const struct ipsec_priv *p = expr_priv(e);

	fprintf(k->f, "ipsec %s ", dirs[p->dir]);
	if (p->spnum)
		fprintf(k->f, "spnum %u ", p->spnum);
	if (keys[p->key].family)
		fprintf(k->f, "%s ", keys[p->key].family);
	fputs(keys[p->key].name, k->f);
}

/* { "ipsec": { "key": "saddr", "family": "ip", "dir": "in", "spnum": 0 } },
   the family only for an address, spnum always, as nft */
static json_t *ipsec_json(struct kind_json *k, const struct expr *e)
{
	const struct ipsec_priv *p = expr_priv(e);
	json_t *o = kind_json_wrap("key", json_string(keys[p->key].name));

	if (keys[p->key].family)
		o = kind_json_set(o, "family", json_string(keys[p->key].family));
	o = kind_json_set(o, "dir", json_string(dirs[p->dir]));
	o = kind_json_set(o, "spnum", json_integer(p->spnum));
	return kind_json_wrap("ipsec", o);
}

/* "family" ("ip" when left out) names an address's; nft reads it for
   reqid and spi too, and leaves it unused */
static struct expr *ipsec_parse_json(struct kind_jparse *k, const char *name,
				     json_t *o, const struct location *loc)
{
	static const char *const props[] = {
		"key", "family", "dir", "spnum", NULL
	};
	const char *key, *family, *dir;
	json_t *spnum;
	int d, kk;

	if (!json_is_object(o) || k->check_keys(k, o, "ipsec", props) < 0)
		return k->error(k, o, "ipsec: expected an object"), NULL;
	key = k->get_str(k, o, "key", true);
	if (!key)
		return NULL;
	dir = k->get_str(k, o, "dir", true);
	if (!dir)
		return NULL;
	family = k->get_str(k, o, "family", false);
	if (!family && json_object_get(o, "family"))
		return NULL;
	d = dir_lookup(dir);
	if (d < 0)
		return k->error(k, json_object_get(o, "dir"),
				"Invalid direction '%s'", dir), NULL;
	if (family && strcmp(family, "ip") && strcmp(family, "ip6"))
		return k->error(k, json_object_get(o, "family"),
				"Invalid family '%s'", family), NULL;
	kk = key_lookup(NULL, key);
	if (kk < 0)
		kk = key_lookup(family ? family : "ip", key);
	if (kk < 0)
		return k->error(k, json_object_get(o, "key"),
				"Unknown xfrm key '%s'", key), NULL;
	spnum = json_object_get(o, "spnum");
	if (spnum && (!json_is_integer(spnum) ||
		      json_integer_value(spnum) < 0 ||
		      json_integer_value(spnum) > SPNUM_MAX))
		return k->error(k, spnum, "Invalid spnum"), NULL;
	return ipsec_alloc(loc, kk, d, spnum ? json_integer_value(spnum) : 0);
}

/* typeof: records 0, the NFT_XFRM_KEY_*, 1, spnum and 2, the direction
   (XFRM_POLICY_*), as nft writes them */
static void ipsec_typeof_put(struct nftnl_udata_buf *b, const struct expr *e)
{
	const struct ipsec_priv *p = expr_priv(e);

	nftnl_udata_put_u32(b, 0, p->key);
	nftnl_udata_put_u32(b, 1, p->spnum);
	nftnl_udata_put_u32(b, 2, p->dir);
}

static struct expr *ipsec_typeof_parse(const struct kind_typeof *t,
				       unsigned int family)
{
	if (!t->set[0] || !t->set[1] || !t->set[2] || !key_valid(t->v[0]) ||
	    t->v[1] > SPNUM_MAX || t->v[2] >= array_size(dirs))
		return NULL;
	return ipsec_alloc(&internal_location, t->v[0], t->v[2], t->v[1]);
}

static const struct expr_ops ipsec_ops = {
	.name		= "ipsec",
	.nl_name	= "xfrm",
	.kind		= EXPR_SELECTOR,
	.parse		= ipsec_parse,
	.eval		= ipsec_eval,
	.linearize	= ipsec_linearize,
	.delinearize	= ipsec_delinearize,
	.print		= ipsec_print,
	.json		= ipsec_json,
	.parse_json	= ipsec_parse_json,
	.typeof_kind	= TYPEOF_KIND_XFRM,
	.typeof_recs	= 3,
	.typeof_put	= ipsec_typeof_put,
	.typeof_parse	= ipsec_typeof_parse,
};
EXPR_OPS_REGISTER(ipsec_ops);
