// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * meta: what the kernel knows of a packet besides its headers (its length,
 * interfaces, mark, socket owner, ...), the kernel's "meta" expression.
 * With a destination register it is an expression (EXPR_META: protoctx.c
 * and the evaluator's dependencies test for it), with a source register
 * the statement "meta KEY set VALUE" (STMT_META).  Everything about both
 * is here; the grammar builds them from its tokens (meta_expr_parse(),
 * stmt_meta_set()).
 */
#include <string.h>
#include <jansson.h>
#include <libnftnl/expr.h>
#include <libnftnl/udata.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>

#include <kind.h>
#include <proto.h>
#include <suggest.h>
#include <meta.h>

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
	M(NFT_META_TIME_NS,	"time",		date_type,	64, HOST, true),
	M(NFT_META_TIME_DAY,	"day",		day_type,	8, HOST, true),
	M(NFT_META_TIME_HOUR,	"hour",		hour_type,	32, HOST, true),
	M(NFT_META_SDIF,	"sdif",		ifindex_type,	32, HOST, false),
	M(NFT_META_SDIFNAME,	"sdifname",	ifname_type,	128, HOST, false),
	/* nft 1.1, keys newer than this build's kernel headers: 35 sends a
	   bridged packet up to ip (NFT_META_BRI_BROUTE, Linux 5.19); 36 is
	   the kernel's __NFT_META_IIFTYPE, no key; 37 is the hardware
	   address of the bridge it came in on (NFT_META_BRI_IIFHWADDR,
	   Linux 6.18) */
	M(35,			"broute",	integer_type,	1, HOST, false),
	M(37,			"ibrhwaddr",	etheraddr_type,	48, BIG, false),
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

/* older names nft still reads, listed by the template's; @bare: without
   "meta" too */
static const struct {
	const char	*name;
	unsigned int	key;
	bool		bare;
} meta_aliases[] = {
	{ "secpath", NFT_META_SECPATH, false },		/* meta ipsec */
	{ "ibriport", NFT_META_BRI_IIFNAME, true },	/* meta ibrname */
	{ "obriport", NFT_META_BRI_OIFNAME, true },	/* meta obrname */
};

int meta_key_lookup(const char *name, bool bare)
{
	for (unsigned int i = 0; i < array_size(meta_aliases); i++)
		if (!strcmp(meta_aliases[i].name, name) &&
		    (!bare || meta_aliases[i].bare))
			return meta_aliases[i].key;
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
	struct suggest sg;

	if (k < 0) {
		error_queue(msgs, kloc, "unknown meta key \"%s\"%s", key,
			    suggest_meta_key(&sg, key));
		return NULL;
	}
	return meta_expr_alloc(loc, k);
}

struct stmt *stmt_meta_set(const struct location *loc, const char *key,
			   const struct location *kloc, struct expr *val,
			   struct list_head *msgs)
{
	int k = meta_key_lookup(key, false);
	struct suggest sg;
	struct stmt *s;

	if (k < 0) {
		error_queue(msgs, kloc, "unknown meta key \"%s\"%s", key,
			    suggest_meta_key(&sg, key));
		expr_free(val);
		return NULL;
	}
	s = stmt_alloc(loc, STMT_META);
	s->meta.key = k;
	s->meta.expr = val;
	return s;
}

/* the keys nft lists without "meta" */
static bool meta_bare(unsigned int key)
{
	switch (key) {
	case NFT_META_IIF:
	case NFT_META_OIF:
	case NFT_META_IIFNAME:
	case NFT_META_OIFNAME:
	case NFT_META_IIFGROUP:
	case NFT_META_OIFGROUP:
		return true;
	}
	return false;
}

static int meta_eval(struct kind_eval *k, struct expr *m)
{
	if (m->meta.key == NFT_META_NFPROTO && k->family != NFPROTO_INET)
		return error_queue(k->msgs, &m->loc,
				   "meta nfproto is only useful in the inet family");
	return 0;
}

static void meta_linearize(struct kind_lin *k, const struct expr *e,
			   uint32_t dreg)
{
	struct nftnl_expr *x = k->add(k, "meta");

	nftnl_expr_set_u32(x, NFTNL_EXPR_META_KEY, e->meta.key);
	nftnl_expr_set_u32(x, NFTNL_EXPR_META_DREG, dreg);
}

/* the kernel's one "meta" expression is both kinds: a load with a
   destination register, the statement with a source register */
static void meta_delinearize(struct kind_delin *k, const struct nftnl_expr *e)
{
	uint32_t key = nftnl_expr_get_u32(e, NFTNL_EXPR_META_KEY);
	struct stmt *s;

	if (!meta_template(key)) {
		k->unsupported(k, "meta");
		return;
	}
	if (nftnl_expr_is_set(e, NFTNL_EXPR_META_DREG)) {
		k->reg_set(k, nftnl_expr_get_u32(e, NFTNL_EXPR_META_DREG),
			   meta_expr_alloc(&internal_location, key));
		return;
	}
	s = stmt_alloc(&internal_location, STMT_META);
	s->meta.key = key;
	s->meta.expr = k->reg_get(k, nftnl_expr_get_u32(e, NFTNL_EXPR_META_SREG));
	k->add_stmt(k, s);
}

static void meta_print(struct kind_print *k, const struct expr *e)
{
	if (meta_bare(e->meta.key))
		fprintf(k->f, "%s", meta_template(e->meta.key)->name);
	else
		fprintf(k->f, "meta %s", meta_template(e->meta.key)->name);
}

static json_t *meta_key_json(unsigned int key)
{
	return kind_json_wrap("meta", kind_json_wrap("key",
			      json_string(meta_template(key)->name)));
}

/* { "meta": { "key": K } } */
static json_t *meta_json(struct kind_json *k, const struct expr *e)
{
	return meta_key_json(e->meta.key);
}

static struct expr *meta_parse_json(struct kind_jparse *k, const char *name,
				    json_t *o, const struct location *loc)
{
	static const char *const keys[] = { "key", NULL };
	struct location kloc;
	const char *key;

	if (!json_is_object(o))
		return k->error(k, o, "%s: expected an object", name), NULL;
	if (k->check_keys(k, o, name, keys) < 0)
		return NULL;
	key = k->get_str(k, o, "key", true);
	if (!key)
		return NULL;
	kloc = k->loc(k, json_object_get(o, "key"));
	return meta_expr_parse(loc, key, &kloc, false, k->msgs);
}

/* { "mangle": { "key": { "meta": ... }, "value": V } } */
static struct stmt *meta_mangle(struct kind_jparse *k, const struct expr *e,
				struct expr *val, const struct location *loc)
{
	struct stmt *s = stmt_alloc(loc, STMT_META);

	s->meta.key = e->meta.key;
	s->meta.expr = val;
	return s;
}

static void meta_typeof_put(struct nftnl_udata_buf *b, const struct expr *e)
{
	nftnl_udata_put_u32(b, 0, e->meta.key);
}

static struct expr *meta_typeof_parse(const struct kind_typeof *t,
				      unsigned int family)
{
	if (!t->set[0] || !meta_template(t->v[0]))
		return NULL;
	return meta_expr_alloc(&internal_location, t->v[0]);
}

static const struct expr_ops meta_ops = {
	.name		= "meta",
	.nl_name	= "meta",
	.kind		= EXPR_META,
	.eval		= meta_eval,
	.linearize	= meta_linearize,
	.delinearize	= meta_delinearize,
	.print		= meta_print,
	.json		= meta_json,
	.parse_json	= meta_parse_json,
	.mangle		= meta_mangle,
	.typeof_kind	= TYPEOF_KIND_META,
	.typeof_recs	= 1,
	.typeof_put	= meta_typeof_put,
	.typeof_parse	= meta_typeof_parse,
};
EXPR_OPS_REGISTER(meta_ops);

/* "meta KEY set VALUE" */
static int meta_stmt_eval(struct kind_eval *k, struct stmt *s)
{
	struct expr *lhs = meta_expr_alloc(&internal_location, s->meta.key);
	int ret = k->value(k, lhs, &s->meta.expr);

	expr_free(lhs);
	return ret;
}

static int meta_stmt_linearize(struct kind_lin *k, const struct stmt *s)
{
	const struct meta_template *t = meta_template(s->meta.key);
	struct expr *want = meta_expr_alloc(NULL, s->meta.key);
	struct nftnl_expr *e;
	int ret = k->value(k, s->meta.expr, want, t->byteorder);

	expr_free(want);
	if (ret < 0)
		return -1;
	e = k->add(k, "meta");
	nftnl_expr_set_u32(e, NFTNL_EXPR_META_KEY, s->meta.key);
	nftnl_expr_set_u32(e, NFTNL_EXPR_META_SREG, NFT_REG_1);
	return 0;
}

static void meta_stmt_print(struct kind_print *k, const struct stmt *s)
{
	const struct meta_template *t = meta_template(s->meta.key);

	fprintf(k->f, meta_bare(s->meta.key) ? "%s set " : "meta %s set ",
		t->name);
	k->value(k, s->meta.expr, t->dtype, t->byteorder);
}

/* as nft: { "mangle": { "key": { "meta": { "key": K } }, "value": V } } */
static json_t *meta_stmt_json(struct kind_json *k, const struct stmt *s)
{
	const struct meta_template *t = meta_template(s->meta.key);

	return kind_json_wrap("mangle", kind_json_set(
		kind_json_wrap("key", meta_key_json(s->meta.key)), "value",
		k->value(k, s->meta.expr, t->dtype, t->byteorder)));
}

static void meta_stmt_destroy(struct stmt *s)
{
	expr_free(s->meta.expr);
}

static struct expr **meta_stmt_value(struct stmt *s, struct expr **field)
{
	*field = meta_expr_alloc(&internal_location, s->meta.key);
	return &s->meta.expr;
}

/* the kernel expression is meta_ops' to read back; JSON's is "mangle" */
static const struct stmt_ops meta_stmt_ops = {
	.name		= "meta",
	.kind		= STMT_META,
	.eval		= meta_stmt_eval,
	.linearize	= meta_stmt_linearize,
	.print		= meta_stmt_print,
	.json		= meta_stmt_json,
	.destroy	= meta_stmt_destroy,
	.value		= meta_stmt_value,
	.not_offered	= true,	/* the shell offers "meta" as a selector */
};
STMT_OPS_REGISTER(meta_stmt_ops);

/* did you mean: the meta keys */
const char *suggest_meta_key(struct suggest *s, const char *word)
{
	suggest_init(s, word);
	for (unsigned int i = 0; i < meta_key_max(); i++)
		if (meta_template(i))
			suggest_add(s, meta_template(i)->name);
	return suggest_hint(s);
}
