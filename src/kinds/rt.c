// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rt: what the packet's route says (realm, next hop, path mtu, ipsec).
 *
 * Everything about the kind is here, in its struct expr_ops; the grammar's
 * rules for "rt [ip|ip6] KEY" hand their words to rt_parse().
 */
#include <string.h>
#include <jansson.h>
#include <libnftnl/expr.h>
#include <libnftnl/udata.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>

#include <kind.h>
#include <proto.h>
#include <protoctx.h>

struct rt_priv {
	uint32_t	key;		/* NFT_RT_* */
	bool		family_given;	/* "rt ip nexthop", or read back */
};
_Static_assert(sizeof(struct rt_priv) <= sizeof(((struct expr *)0)->priv),
	       "rt_priv fits an expression's fields");

static const struct expr_ops rt_ops;

/* rt keys (NFT_RT_*); nexthop is nexthop4 or nexthop6 by family */
struct rt_template {
	const char		*name;
	const struct datatype	*dtype;
	unsigned int		len;
	enum byteorder		byteorder;
};

#define R(k, n, dt, l, bo) [k] = { .name = n, .dtype = &dt, .len = l, \
				   .byteorder = BYTEORDER_##bo }

static const struct rt_template rt_templates[] = {
	R(NFT_RT_CLASSID,	"classid",	realm_type,	32, HOST),
	R(NFT_RT_NEXTHOP4,	"nexthop",	ipaddr_type,	32, BIG),
	R(NFT_RT_NEXTHOP6,	"nexthop",	ip6addr_type,	128, BIG),
	R(NFT_RT_TCPMSS,	"mtu",		integer_type,	16, HOST),
	R(NFT_RT_XFRM,		"ipsec",	boolean_type,	1, HOST),
};

static const struct rt_template *rt_template(unsigned int key)
{
	if (key < array_size(rt_templates) && rt_templates[key].name)
		return &rt_templates[key];
	return NULL;
}

static bool is_nexthop(unsigned int key)
{
	return key == NFT_RT_NEXTHOP4 || key == NFT_RT_NEXTHOP6;
}

static struct expr *rt_alloc(const struct location *loc, unsigned int key,
			     bool family_given)
{
	const struct rt_template *t = rt_template(key);
	struct expr *e = selector_expr_alloc(loc, &rt_ops, t->dtype,
					     t->byteorder, t->len);
	struct rt_priv *p = expr_priv(e);

	p->key = key;
	p->family_given = family_given;
	return e;
}

/* "rt [ip|ip6] KEY"; @family NULL when not given */
static struct expr *rt_expr_parse(const struct location *loc,
				  const char *family,
				  const struct location *floc, const char *key,
				  const struct location *kloc,
				  struct list_head *msgs)
{
	unsigned int k;

	for (k = 0; k < array_size(rt_templates); k++)
		if (!strcmp(rt_templates[k].name, key))
			break;
	if (k == array_size(rt_templates)) {
		error_queue(msgs, kloc, "unknown rt key \"%s\"; expected classid, nexthop, mtu or ipsec",
			    key);
		return NULL;
	}
	if (!family)
		return rt_alloc(loc, k, false);
	if (k != NFT_RT_NEXTHOP4) {
		error_queue(msgs, floc, "only rt nexthop takes an address family");
		return NULL;
	}
	if (!strcmp(family, "ip6"))
		k = NFT_RT_NEXTHOP6;
	else if (strcmp(family, "ip")) {
		error_queue(msgs, floc, "rt nexthop is ip or ip6, not \"%s\"", family);
		return NULL;
	}
	return rt_alloc(loc, k, true);
}

/* the grammar's words: the family (NULL if not given) and the key */
static struct expr *rt_parse(const struct location *loc,
			     const struct kind_word *w, unsigned int n,
			     struct list_head *msgs)
{
	return rt_expr_parse(loc, w[0].w, w[0].loc, w[1].w, w[1].loc, msgs);
}

/* rt nexthop without a family: the table's (ip or ip6); -1 if neither */
static int rt_family(struct expr *e, unsigned int family)
{
	struct rt_priv *p = expr_priv(e);
	unsigned int key;

	if (!is_nexthop(p->key))
		return 0;
	if (p->family_given)
		return family == NFPROTO_IPV4 && p->key != NFT_RT_NEXTHOP4 ? -1 :
		       family == NFPROTO_IPV6 && p->key != NFT_RT_NEXTHOP6 ? -1 : 0;
	if (family == NFPROTO_IPV4)
		key = NFT_RT_NEXTHOP4;
	else if (family == NFPROTO_IPV6)
		key = NFT_RT_NEXTHOP6;
	else
		return -1;
	p->key = key;
	e->dtype = rt_templates[key].dtype;
	e->len = rt_templates[key].len;
	return 0;
}

static int rt_eval(struct kind_eval *k, struct expr *e)
{
	const struct proto_desc *nh = k->pctx->desc[PROTO_BASE_NETWORK_HDR];
	const struct rt_priv *p = expr_priv(e);
	unsigned int family = k->family;

	/* as nft: in inet, bridge and netdev an earlier match of the rule
	   names the address ("ip saddr 10.0.0.1 rt nexthop 10.0.0.254") */
	if (!p->family_given && (nh == &proto_ip || nh == &proto_ip6))
		family = nh == &proto_ip ? NFPROTO_IPV4 : NFPROTO_IPV6;
	if (rt_family(e, family) == 0)
		return 0;
	if (!p->family_given)
		return error_queue(k->msgs, &e->loc,
				   "rt nexthop is ambiguous in family %s: say rt ip nexthop or rt ip6 nexthop",
				   k->family_name);
	return error_queue(k->msgs, &e->loc,
			   "rt %s nexthop cannot be used in family %s",
			   p->key == NFT_RT_NEXTHOP6 ? "ip6" : "ip",
			   k->family_name);
}

static void rt_linearize(struct kind_lin *k, const struct expr *e,
			 uint32_t dreg)
{
	const struct rt_priv *p = expr_priv(e);
	struct nftnl_expr *x = k->add(k, "rt");

	nftnl_expr_set_u32(x, NFTNL_EXPR_RT_KEY, p->key);
	nftnl_expr_set_u32(x, NFTNL_EXPR_RT_DREG, dreg);
}

static void rt_delinearize(struct kind_delin *k, const struct nftnl_expr *e)
{
	uint32_t key = nftnl_expr_get_u32(e, NFTNL_EXPR_RT_KEY);

	if (!rt_template(key)) {
		k->unsupported(k, "rt");
		return;
	}
	k->reg_set(k, nftnl_expr_get_u32(e, NFTNL_EXPR_RT_DREG),
		   rt_alloc(&internal_location, key, true));
}

static void rt_print(struct kind_print *k, const struct expr *e)
{
	const struct rt_priv *p = expr_priv(e);

	/* nft names the family of a next hop */
	if (is_nexthop(p->key))
		fprintf(k->f, "rt %s nexthop",
			p->key == NFT_RT_NEXTHOP6 ? "ip6" : "ip");
	else
		fprintf(k->f, "rt %s", rt_template(p->key)->name);
}

/* { "rt": { "key": K, "family": F } } */
static json_t *rt_json(struct kind_json *k, const struct expr *e)
{
	const struct rt_priv *p = expr_priv(e);
	json_t *o = kind_json_wrap("key", json_string(rt_template(p->key)->name));

	if (is_nexthop(p->key))
		o = kind_json_set(o, "family",
				  json_string(p->key == NFT_RT_NEXTHOP6 ? "ip6" : "ip"));
	return kind_json_wrap("rt", o);
}

static struct expr *rt_parse_json(struct kind_jparse *k, const char *name,
				  json_t *o, const struct location *loc)
{
	static const char *const keys[] = { "key", "family", NULL };
	const char *key, *family;
	struct location kloc, floc;

	if (!json_is_object(o) || k->check_keys(k, o, name, keys) < 0)
		return k->error(k, o, "%s: expected an object", name), NULL;
	key = k->get_str(k, o, "key", true);
	if (!key)
		return NULL;
	kloc = k->loc(k, json_object_get(o, "key"));
	family = k->get_str(k, o, "family", false);
	floc = k->loc(k, json_object_get(o, "family"));
	return rt_expr_parse(loc, family, &floc, key, &kloc, k->msgs);
}

/* typeof: record 0 is the NFT_RT_* key; nft refuses "rt nexthop" without
   its family there, as a set key cannot take the table's */
static bool rt_typeof_ok(const struct expr *e)
{
	const struct rt_priv *p = expr_priv(e);

	return !is_nexthop(p->key) || p->family_given;
}

static void rt_typeof_put(struct nftnl_udata_buf *b, const struct expr *e)
{
	const struct rt_priv *p = expr_priv(e);

	nftnl_udata_put_u32(b, 0, p->key);
}

static struct expr *rt_typeof_parse(const struct kind_typeof *t,
				    unsigned int family)
{
	if (!t->set[0] || !rt_template(t->v[0]))
		return NULL;
	return rt_alloc(&internal_location, t->v[0], true);
}

static const struct expr_ops rt_ops = {
	.name		= "rt",
	.nl_name	= "rt",
	.kind		= EXPR_SELECTOR,
	.parse		= rt_parse,
	.eval		= rt_eval,
	.linearize	= rt_linearize,
	.delinearize	= rt_delinearize,
	.print		= rt_print,
	.json		= rt_json,
	.parse_json	= rt_parse_json,
	.typeof_kind	= TYPEOF_KIND_RT,
	.typeof_recs	= 1,
	.typeof_ok	= rt_typeof_ok,
	.typeof_put	= rt_typeof_put,
	.typeof_parse	= rt_typeof_parse,
};
EXPR_OPS_REGISTER(rt_ops);
