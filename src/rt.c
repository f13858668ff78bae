// SPDX-License-Identifier: GPL-2.0-or-later
/* rt: what the packet's route says (realm, next hop, path mtu, ipsec) */
#include <string.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>

#include <proto.h>

#define R(k, n, dt, l, bo) [k] = { .name = n, .dtype = &dt, .len = l, \
				   .byteorder = BYTEORDER_##bo }

static const struct rt_template rt_templates[] = {
	R(NFT_RT_CLASSID,	"classid",	realm_type,	32, HOST),
	R(NFT_RT_NEXTHOP4,	"nexthop",	ipaddr_type,	32, BIG),
	R(NFT_RT_NEXTHOP6,	"nexthop",	ip6addr_type,	128, BIG),
	R(NFT_RT_TCPMSS,	"mtu",		integer_type,	16, HOST),
	R(NFT_RT_XFRM,		"ipsec",	boolean_type,	1, HOST),
};

const struct rt_template *rt_template(unsigned int key)
{
	if (key < array_size(rt_templates) && rt_templates[key].name)
		return &rt_templates[key];
	return NULL;
}

struct expr *rt_expr_alloc(const struct location *loc, unsigned int key,
			   bool family_given)
{
	const struct rt_template *t = rt_template(key);
	struct expr *e = expr_alloc(loc, EXPR_RT, t->dtype, t->byteorder,
				    t->len);

	e->rt.key = key;
	e->rt.family_given = family_given;
	return e;
}

struct expr *rt_expr_parse(const struct location *loc, const char *family,
			   const struct location *floc, const char *key,
			   const struct location *kloc, struct list_head *msgs)
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
		return rt_expr_alloc(loc, k, false);
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
	return rt_expr_alloc(loc, k, true);
}

int rt_expr_family(struct expr *e, unsigned int family)
{
	unsigned int key;

	if (e->rt.key != NFT_RT_NEXTHOP4 && e->rt.key != NFT_RT_NEXTHOP6)
		return 0;
	if (e->rt.family_given)
		return family == NFPROTO_IPV4 && e->rt.key != NFT_RT_NEXTHOP4 ? -1 :
		       family == NFPROTO_IPV6 && e->rt.key != NFT_RT_NEXTHOP6 ? -1 : 0;
	if (family == NFPROTO_IPV4)
		key = NFT_RT_NEXTHOP4;
	else if (family == NFPROTO_IPV6)
		key = NFT_RT_NEXTHOP6;
	else
		return -1;
	e->rt.key = key;
	e->dtype = rt_templates[key].dtype;
	e->len = rt_templates[key].len;
	return 0;
}
