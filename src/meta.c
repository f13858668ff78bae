// SPDX-License-Identifier: GPL-2.0-or-later
#include <string.h>
#include <linux/netfilter/nf_tables.h>

#include <proto.h>

#define M(k, n, dt, l, bo, b) [k] = { .name = n, .dtype = &dt, .len = l, \
				      .byteorder = BYTEORDER_##bo, .bare = b }

static const struct meta_template meta_templates[] = {
	M(NFT_META_LEN,		"length",	integer_type,	32, HOST, false),
	M(NFT_META_PROTOCOL,	"protocol",	ethertype_type,	16, BIG, false),
	M(NFT_META_PRIORITY,	"priority",	classid_type,	32, HOST, false),
	M(NFT_META_MARK,	"mark",		mark_type,	32, HOST, true),
	M(NFT_META_IIF,		"iif",		ifindex_type,	32, HOST, true),
	M(NFT_META_OIF,		"oif",		ifindex_type,	32, HOST, true),
	M(NFT_META_IIFNAME,	"iifname",	ifname_type,	128, HOST, true),
	M(NFT_META_OIFNAME,	"oifname",	ifname_type,	128, HOST, true),
	M(NFT_META_IIFTYPE,	"iiftype",	arphrd_type,	16, HOST, true),
	M(NFT_META_OIFTYPE,	"oiftype",	arphrd_type,	16, HOST, true),
	M(NFT_META_SKUID,	"skuid",	uid_type,	32, HOST, true),
	M(NFT_META_SKGID,	"skgid",	gid_type,	32, HOST, true),
	M(NFT_META_NFTRACE,	"nftrace",	integer_type,	1, HOST, true),
	M(NFT_META_RTCLASSID,	"rtclassid",	realm_type,	32, HOST, true),
	M(NFT_META_SECMARK,	"secmark",	integer_type,	32, HOST, false),
	M(NFT_META_NFPROTO,	"nfproto",	nfproto_type,	8, HOST, false),
	M(NFT_META_L4PROTO,	"l4proto",	inet_protocol_type, 8, HOST, false),
	M(NFT_META_BRI_IIFNAME,	"ibrname",	ifname_type,	128, HOST, true),
	M(NFT_META_BRI_OIFNAME,	"obrname",	ifname_type,	128, HOST, true),
	M(NFT_META_PKTTYPE,	"pkttype",	pkttype_type,	8, HOST, true),
	M(NFT_META_CPU,		"cpu",		integer_type,	32, HOST, true),
	M(NFT_META_IIFGROUP,	"iifgroup",	devgroup_type,	32, HOST, true),
	M(NFT_META_OIFGROUP,	"oifgroup",	devgroup_type,	32, HOST, true),
	M(NFT_META_CGROUP,	"cgroup",	integer_type,	32, HOST, true),
	M(NFT_META_PRANDOM,	"random",	integer_type,	32, BIG, false),
	M(NFT_META_SECPATH,	"ipsec",	boolean_type,	1, HOST, true),
	M(NFT_META_IIFKIND,	"iifkind",	ifname_type,	128, HOST, true),
	M(NFT_META_OIFKIND,	"oifkind",	ifname_type,	128, HOST, true),
	M(NFT_META_BRI_IIFPVID,	"ibrpvid",	integer_type,	16, HOST, false),
	M(NFT_META_BRI_IIFVPROTO, "ibrvproto",	ethertype_type,	16, BIG, false),
	M(NFT_META_TIME_NS,	"time",		date_type,	64, HOST, false),
	M(NFT_META_TIME_DAY,	"day",		day_type,	8, HOST, false),
	M(NFT_META_TIME_HOUR,	"hour",		hour_type,	32, HOST, false),
	M(NFT_META_SDIF,	"sdif",		ifindex_type,	32, HOST, false),
	M(NFT_META_SDIFNAME,	"sdifname",	ifname_type,	128, HOST, false),
};

const struct meta_template *meta_template(unsigned int key)
{
	if (key < array_size(meta_templates) && meta_templates[key].name)
		return &meta_templates[key];
	return NULL;
}

unsigned int meta_key_max(void)
{
	return array_size(meta_templates);
}

int meta_key_lookup(const char *name, bool bare)
{
	for (unsigned int i = 0; i < array_size(meta_templates); i++) {
		const struct meta_template *t = &meta_templates[i];

		if (t->name && !strcmp(t->name, name) && (!bare || t->bare))
			return i;
	}
	return -1;
}

struct expr *meta_expr_alloc(const struct location *loc, unsigned int key)
{
	const struct meta_template *t = meta_template(key);
	struct expr *e = expr_alloc(loc, EXPR_META, t->dtype, t->byteorder,
				    t->len);

	e->meta.key = key;
	return e;
}

struct expr *meta_expr_parse(const struct location *loc, const char *key,
			     const struct location *kloc, bool bare,
			     struct list_head *msgs)
{
	int k = meta_key_lookup(key, false);

	if (k < 0) {
		error_queue(msgs, kloc, "unknown meta key \"%s\"", key);
		return NULL;
	}
	return meta_expr_alloc(loc, k);
}
