// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ct: what conntrack knows of a packet's connection (its state, mark,
 * addresses of either direction, ...), the kernel's "ct" expression.  With
 * a destination register it is an expression (EXPR_CT: protoctx.c and the
 * evaluator's dependencies test for it), with a source register the
 * statement "ct [DIR] KEY set VALUE" (STMT_CT; "ct helper set" becomes an
 * object reference as it is evaluated).  Everything about both is here;
 * the grammar builds them from its tokens (ct_expr_parse(),
 * ct_stmt_alloc()).  The ct objects (helper, timeout, expectation) are
 * objects, not this kind: only their tables are here.
 */
#include <string.h>
#include <jansson.h>
#include <netinet/in.h>
#include <libnftnl/expr.h>
#include <libnftnl/udata.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>

#include <kind.h>
#include <proto.h>
#include <protoctx.h>
#include <suggest.h>
#include <ct.h>

#define C(k, n, dt, l, bo, d) [k] = { .name = n, .dtype = &dt, .len = l, \
				      .byteorder = BYTEORDER_##bo, .dir = d }
/* keys the kernel reads of one direction only: the rule must say which */
#define CD(k, n, dt, l, bo) [k] = { .name = n, .dtype = &dt, .len = l, \
				    .byteorder = BYTEORDER_##bo, .dir = true, \
				    .dir_only = true }

static const struct ct_template ct_templates[] = {
	C(NFT_CT_STATE,		"state",	ct_state_type,	32, HOST, false),
	C(NFT_CT_DIRECTION,	"direction",	ct_dir_type,	8, HOST, false),
	C(NFT_CT_STATUS,	"status",	ct_status_type,	32, HOST, false),
	C(NFT_CT_MARK,		"mark",		mark_type,	32, HOST, false),
	C(NFT_CT_SECMARK,	"secmark",	integer_type,	32, HOST, false),
	C(NFT_CT_EXPIRATION,	"expiration",	time_type,	32, HOST, false),
	C(NFT_CT_HELPER,	"helper",	string_type,	128, HOST, false),
	C(NFT_CT_L3PROTOCOL,	"l3proto",	nfproto_type,	8, HOST, true),
	C(NFT_CT_PROTOCOL,	"protocol",	inet_protocol_type, 8, BIG, true),
	CD(NFT_CT_PROTO_SRC,	"proto-src",	inet_service_type, 16, BIG),
	CD(NFT_CT_PROTO_DST,	"proto-dst",	inet_service_type, 16, BIG),
	C(NFT_CT_LABELS,	"label",	ct_label_type,	128, HOST, false),
	C(NFT_CT_PKTS,		"packets",	integer_type,	64, HOST, true),
	C(NFT_CT_BYTES,		"bytes",	integer_type,	64, HOST, true),
	C(NFT_CT_AVGPKT,	"avgpkt",	integer_type,	64, HOST, true),
	C(NFT_CT_ZONE,		"zone",		integer_type,	16, HOST, true),
	C(NFT_CT_EVENTMASK,	"event",	ct_event_type,	32, HOST, false),
	C(NFT_CT_ID,		"id",		integer_type,	32, BIG, false),
	/* addresses: saddr and daddr take the table's family */
	CD(NFT_CT_SRC,		"saddr",	ipaddr_type,	32, BIG),
	CD(NFT_CT_DST,		"daddr",	ipaddr_type,	32, BIG),
	CD(NFT_CT_SRC_IP,	"ip saddr",	ipaddr_type,	32, BIG),
	CD(NFT_CT_DST_IP,	"ip daddr",	ipaddr_type,	32, BIG),
	CD(NFT_CT_SRC_IP6,	"ip6 saddr",	ip6addr_type,	128, BIG),
	CD(NFT_CT_DST_IP6,	"ip6 daddr",	ip6addr_type,	128, BIG),
};

/* ct saddr/daddr: the address type of the family */
void ct_expr_family(struct expr *e, unsigned int family)
{
	if ((e->ct.key == NFT_CT_SRC || e->ct.key == NFT_CT_DST) &&
	    family == NFPROTO_IPV6) {
		e->dtype = &ip6addr_type;
		e->len = 128;
	}
}

const struct ct_template *ct_template(unsigned int key)
{
	if (key < array_size(ct_templates) && ct_templates[key].name)
		return &ct_templates[key];
	return NULL;
}

/*
 * nft 1.0.6 lists "ct original l3proto" and "ct reply protocol" without
 * their direction, which the kernel ignores for these keys
 */
static bool ct_dir_unlisted(unsigned int key)
{
	return key == NFT_CT_L3PROTOCOL || key == NFT_CT_PROTOCOL;
}

unsigned int ct_key_max(void)
{
	return array_size(ct_templates);
}

int ct_key_lookup(const char *name)
{
	for (unsigned int i = 0; i < array_size(ct_templates); i++)
		if (ct_templates[i].name && !strcmp(ct_templates[i].name, name))
			return i;
	return -1;
}

struct expr *ct_expr_alloc(const struct location *loc, unsigned int key,
			   int dir)
{
	const struct ct_template *t = ct_template(key);
	struct expr *e = expr_alloc(loc, EXPR_CT, t->dtype, t->byteorder,
				    t->len);

	e->ct.key = key;
	e->ct.dir = dir;
	return e;
}

struct expr *ct_expr_parse(const struct location *loc, const char *key,
			   const struct location *kloc, const char *dir,
			   const struct location *dloc, struct list_head *msgs)
{
	int k = ct_key_lookup(key), d = -1;
	struct suggest sg;

	if (k < 0) {
		error_queue(msgs, kloc, "unknown ct key \"%s\"%s", key,
			    suggest_ct_key(&sg, key));
		return NULL;
	}
	if (dir) {
		if (!strcmp(dir, "original"))
			d = 0;
		else if (!strcmp(dir, "reply"))
			d = 1;
		else {
			error_queue(msgs, dloc,
				    "unknown ct direction \"%s\"; expected original or reply",
				    dir);
			return NULL;
		}
		if (!ct_template(k)->dir) {
			error_queue(msgs, dloc,
				    "ct %s does not take a direction", key);
			return NULL;
		}
	}
	return ct_expr_alloc(loc, k, d);
}

struct stmt *ct_stmt_alloc(const struct location *loc, const struct expr *c,
			   struct expr *val)
{
	struct stmt *s = stmt_alloc(loc, STMT_CT);

	s->ct.key = c->ct.key;
	s->ct.dir = c->ct.dir;
	s->ct.expr = val;
	return s;
}

static const char *dir_name(int dir)
{
	return dir ? "reply" : "original";
}

/* conntrack's hooks are those of ip, ip6 and inet */
static int ct_family_eval(struct kind_eval *k, const struct location *loc)
{
	if (k->family == NFPROTO_NETDEV || k->family == NFPROTO_BRIDGE ||
	    k->family == NFPROTO_ARP)
		return error_queue(k->msgs, loc,
				   "conntrack is not available in the %s family",
				   k->family_name);
	return 0;
}

/* the network header is ip or ip6, a set's last element counting */
static bool ct_nh_is_ip(const struct proto_ctx *pctx)
{
	const struct proto_desc *d = pctx->set_desc[PROTO_BASE_NETWORK_HDR];

	if (!d)
		d = pctx->desc[PROTO_BASE_NETWORK_HDR];
	return d == &proto_ip || d == &proto_ip6;
}

static int ct_eval(struct kind_eval *k, struct expr *c)
{
	const struct ct_template *t = ct_template(c->ct.key);

	if (ct_family_eval(k, &c->loc) < 0)
		return -1;
	if (t->dir_only && c->ct.dir < 0)
		return error_queue(k->msgs, &c->loc,
				   "ct %s needs a direction: ct original %s or ct reply %s",
				   t->name, t->name, t->name);
	/* nft knows it is a port only once the protocol is known */
	if ((c->ct.key == NFT_CT_PROTO_SRC || c->ct.key == NFT_CT_PROTO_DST) &&
	    !proto_ctx_th_known(k->pctx))
		return error_queue(k->msgs, &c->loc,
				   "ct %s needs a transport protocol match before it, e.g. \"ct %s protocol tcp\"",
				   t->name, dir_name(c->ct.dir));
	if ((c->ct.key == NFT_CT_SRC || c->ct.key == NFT_CT_DST) &&
	    k->family != NFPROTO_IPV4 && k->family != NFPROTO_IPV6)
		return error_queue(k->msgs, &c->loc,
				   "ct %s is ambiguous in family %s: say ct %s ip %s or ip6 %s",
				   t->name, k->family_name,
				   dir_name(c->ct.dir), t->name, t->name);
	/* "ct original ip saddr" where the network header is ip6 (nft
	   minds only the other ip version: after "ether type arp", or a set
	   whose last element is arp, it takes it) */
	if ((c->ct.key == NFT_CT_SRC_IP || c->ct.key == NFT_CT_DST_IP ||
	     c->ct.key == NFT_CT_SRC_IP6 || c->ct.key == NFT_CT_DST_IP6) &&
	    ct_nh_is_ip(k->pctx) &&
	    k->proto_need(k, c, PROTO_BASE_NETWORK_HDR,
			  c->ct.key == NFT_CT_SRC_IP || c->ct.key == NFT_CT_DST_IP ?
			  &proto_ip : &proto_ip6) < 0)
		return -1;
	ct_expr_family(c, k->family);
	return 0;
}

static void ct_linearize(struct kind_lin *k, const struct expr *e,
			 uint32_t dreg)
{
	struct nftnl_expr *x = k->add(k, "ct");

	nftnl_expr_set_u32(x, NFTNL_EXPR_CT_KEY, e->ct.key);
	if (e->ct.dir >= 0)
		nftnl_expr_set_u8(x, NFTNL_EXPR_CT_DIR, e->ct.dir);
	nftnl_expr_set_u32(x, NFTNL_EXPR_CT_DREG, dreg);
}

/* the kernel's one "ct" expression is both kinds: a load with a
   destination register, the statement with a source register */
static void ct_delinearize(struct kind_delin *k, const struct nftnl_expr *e)
{
	uint32_t key = nftnl_expr_get_u32(e, NFTNL_EXPR_CT_KEY);
	int dir = nftnl_expr_is_set(e, NFTNL_EXPR_CT_DIR) ?
		  nftnl_expr_get_u8(e, NFTNL_EXPR_CT_DIR) : -1;
	struct stmt *s;

	if (!ct_template(key)) {
		k->unsupported(k, "ct");
		return;
	}
	if (nftnl_expr_is_set(e, NFTNL_EXPR_CT_DREG)) {
		struct expr *c;

		/* the kernel keeps no direction for these: offline neither */
		if (key == NFT_CT_L3PROTOCOL || key == NFT_CT_PROTOCOL)
			dir = -1;
		c = ct_expr_alloc(&internal_location, key, dir);

		ct_expr_family(c, k->family);
		k->reg_set(k, nftnl_expr_get_u32(e, NFTNL_EXPR_CT_DREG), c);
		return;
	}
	s = stmt_alloc(&internal_location, STMT_CT);
	s->ct.key = key;
	s->ct.dir = dir;
	s->ct.expr = k->reg_get(k, nftnl_expr_get_u32(e, NFTNL_EXPR_CT_SREG));
	k->add_stmt(k, s);
}

static void ct_print(struct kind_print *k, const struct expr *e)
{
	const char *name = ct_template(e->ct.key)->name;
	const char *fam = "";

	/* nft names the address family of saddr and daddr */
	if (e->ct.key == NFT_CT_SRC || e->ct.key == NFT_CT_DST)
		fam = e->dtype == &ip6addr_type ? "ip6 " : "ip ";
	if (e->ct.dir >= 0 && !ct_dir_unlisted(e->ct.key))
		fprintf(k->f, "ct %s %s%s", dir_name(e->ct.dir), fam, name);
	else
		fprintf(k->f, "ct %s%s", fam, name);
}

/* { "ct": { "key": K, "dir": "original" | "reply" } } */
static json_t *ct_json(struct kind_json *k, const struct expr *e)
{
	json_t *o = kind_json_wrap("key",
				   json_string(ct_template(e->ct.key)->name));

	if (e->ct.dir >= 0 && !ct_dir_unlisted(e->ct.key))
		o = kind_json_set(o, "dir", json_string(dir_name(e->ct.dir)));
	return kind_json_wrap("ct", o);
}

static struct expr *ct_parse_json(struct kind_jparse *k, const char *name,
				  json_t *o, const struct location *loc)
{
	static const char *const keys[] = { "key", "dir", NULL };
	struct location kloc, dloc;
	const char *key, *dir;

	if (!json_is_object(o))
		return k->error(k, o, "%s: expected an object", name), NULL;
	if (k->check_keys(k, o, name, keys) < 0)
		return NULL;
	key = k->get_str(k, o, "key", true);
	if (!key)
		return NULL;
	kloc = k->loc(k, json_object_get(o, "key"));
	dir = k->get_str(k, o, "dir", false);
	dloc = k->loc(k, json_object_get(o, "dir"));
	return ct_expr_parse(loc, key, &kloc, dir, dir ? &dloc : NULL, k->msgs);
}

/* { "mangle": { "key": { "ct": ... }, "value": V } } */
static struct stmt *ct_mangle(struct kind_jparse *k, const struct expr *e,
			      struct expr *val, const struct location *loc)
{
	return ct_stmt_alloc(loc, e, val);
}

static void ct_typeof_put(struct nftnl_udata_buf *b, const struct expr *e)
{
	nftnl_udata_put_u32(b, 0, e->ct.key);
	nftnl_udata_put_u32(b, 1, (uint32_t)e->ct.dir);
}

static struct expr *ct_typeof_parse(const struct kind_typeof *t,
				    unsigned int family)
{
	uint32_t key = t->v[0], dir = t->v[1];
	struct expr *e;

	if (!t->set[0] || !t->set[1] ||
	    !ct_template(key) || (dir > 1 && dir != UINT32_MAX))
		return NULL;
	e = ct_expr_alloc(&internal_location, key, dir == UINT32_MAX ? -1 : (int)dir);
	ct_expr_family(e, family);
	return e;
}

static const struct expr_ops ct_ops = {
	.name		= "ct",
	.nl_name	= "ct",
	.kind		= EXPR_CT,
	.eval		= ct_eval,
	.linearize	= ct_linearize,
	.delinearize	= ct_delinearize,
	.print		= ct_print,
	.json		= ct_json,
	.parse_json	= ct_parse_json,
	.mangle		= ct_mangle,
	.typeof_kind	= TYPEOF_KIND_CT,
	.typeof_recs	= 2,
	.typeof_put	= ct_typeof_put,
	.typeof_parse	= ct_typeof_parse,
};
EXPR_OPS_REGISTER(ct_ops);

/* "ct [original|reply] KEY set VALUE" */
static int ct_stmt_eval(struct kind_eval *k, struct stmt *s)
{
	struct expr *lhs;
	int ret;

	if (ct_family_eval(k, &s->loc) < 0)
		return -1;
	if (s->ct.key == NFT_CT_HELPER) {
		/* "ct helper set" assigns a ct helper object */
		struct expr *v = s->ct.expr;

		stmt_set_kind(s, STMT_OBJREF);
		s->objref.type = NFT_OBJECT_CT_HELPER;
		s->objref.expr = v;
		return k->stmt(k, s);
	}
	lhs = ct_expr_alloc(&internal_location, s->ct.key, s->ct.dir);
	ret = k->value(k, lhs, &s->ct.expr);
	expr_free(lhs);
	/* as nft: the security ID is the kernel's, copied from the packet */
	if (ret == 0 && s->ct.key == NFT_CT_SECMARK &&
	    (s->ct.expr->kind == EXPR_VALUE || s->ct.expr->kind == EXPR_MAP))
		return error_queue(k->msgs, &s->loc,
				   "ct secmark must not be set to a constant: ct secmark set meta secmark");
	return ret;
}

static int ct_stmt_linearize(struct kind_lin *k, const struct stmt *s)
{
	const struct ct_template *t = ct_template(s->ct.key);
	struct expr *want = ct_expr_alloc(NULL, s->ct.key, s->ct.dir);
	struct nftnl_expr *e;
	int ret = k->value(k, s->ct.expr, want, t->byteorder);

	expr_free(want);
	if (ret < 0)
		return -1;
	e = k->add(k, "ct");
	nftnl_expr_set_u32(e, NFTNL_EXPR_CT_KEY, s->ct.key);
	if (s->ct.dir >= 0)
		nftnl_expr_set_u8(e, NFTNL_EXPR_CT_DIR, s->ct.dir);
	nftnl_expr_set_u32(e, NFTNL_EXPR_CT_SREG, NFT_REG_1);
	return 0;
}

static void ct_stmt_print(struct kind_print *k, const struct stmt *s)
{
	const struct ct_template *t = ct_template(s->ct.key);

	/* the direction is part of what is set (ct original zone) */
	fprintf(k->f, "ct %s%s set ", s->ct.dir < 0 ? "" :
		s->ct.dir ? "reply " : "original ", t->name);
	k->value(k, s->ct.expr, t->dtype, t->byteorder);
}

/* as nft: { "mangle": { "key": { "ct": { "key": K, "dir": D } },
   "value": V } }, the direction even of keys whose load lists none */
static json_t *ct_stmt_json(struct kind_json *k, const struct stmt *s)
{
	const struct ct_template *t = ct_template(s->ct.key);
	json_t *key = kind_json_wrap("key", json_string(t->name));

	if (s->ct.dir >= 0)
		key = kind_json_set(key, "dir", json_string(dir_name(s->ct.dir)));
	return kind_json_wrap("mangle", kind_json_set(
		kind_json_wrap("key", kind_json_wrap("ct", key)), "value",
		k->value(k, s->ct.expr, t->dtype, t->byteorder)));
}

static void ct_stmt_destroy(struct stmt *s)
{
	expr_free(s->ct.expr);
}

static struct expr **ct_stmt_value(struct stmt *s, struct expr **field)
{
	*field = ct_expr_alloc(&internal_location, s->ct.key, s->ct.dir);
	return &s->ct.expr;
}

/* the kernel expression is ct_ops' to read back; JSON's is "mangle" */
static const struct stmt_ops ct_stmt_ops = {
	.name		= "ct",
	.kind		= STMT_CT,
	.eval		= ct_stmt_eval,
	.linearize	= ct_stmt_linearize,
	.print		= ct_stmt_print,
	.json		= ct_stmt_json,
	.destroy	= ct_stmt_destroy,
	.value		= ct_stmt_value,
	.not_offered	= true,	/* the shell offers "ct" as a selector */
};
STMT_OPS_REGISTER(ct_stmt_ops);

/*
 * ct timeout objects: the states of each layer 4 protocol, in the order of
 * the kernel's NFTA_CT_TIMEOUT_DATA attributes (one more than the index),
 * and the kernel's default timeouts in seconds.  A ct timeout sends every
 * state, the defaults for those its policy does not name; the listing
 * shows the states whose timeout differs from the default.
 */
static const struct ct_timeout_states {
	uint8_t		l4proto;
	unsigned int	n;
	const char	*name[CT_TIMEOUT_STATES_MAX];
	uint32_t	dflt[CT_TIMEOUT_STATES_MAX];
} ct_timeout_states[] = {
	{ IPPROTO_TCP, 11,
	  { "syn_sent", "syn_recv", "established", "fin_wait", "close_wait",
	    "last_ack", "time_wait", "close", "syn_sent2", "retrans", "unack" },
	  { 120, 60, 432000, 120, 60, 30, 120, 10, 120, 300, 300 } },
	{ IPPROTO_UDP, 2, { "unreplied", "replied" }, { 30, 120 } },
};

static const struct ct_timeout_states *timeout_states(uint8_t l4proto)
{
	for (unsigned int i = 0; i < array_size(ct_timeout_states); i++)
		if (ct_timeout_states[i].l4proto == l4proto)
			return &ct_timeout_states[i];
	return NULL;
}

unsigned int ct_timeout_nstates(uint8_t l4proto)
{
	const struct ct_timeout_states *t = timeout_states(l4proto);

	return t ? t->n : 0;
}

const char *ct_timeout_state_name(uint8_t l4proto, unsigned int i)
{
	return i < ct_timeout_nstates(l4proto) ? timeout_states(l4proto)->name[i] : NULL;
}

int ct_timeout_state_lookup(uint8_t l4proto, const char *name)
{
	for (unsigned int i = 0; i < ct_timeout_nstates(l4proto); i++)
		if (!strcmp(timeout_states(l4proto)->name[i], name))
			return i;
	return -1;
}

uint32_t ct_timeout_default(uint8_t l4proto, unsigned int i)
{
	return i < ct_timeout_nstates(l4proto) ? timeout_states(l4proto)->dflt[i] : 0;
}

/* did you mean: the ct keys */
const char *suggest_ct_key(struct suggest *s, const char *word)
{
	suggest_init(s, word);
	for (unsigned int i = 0; i < ct_key_max(); i++)
		if (ct_template(i))
			suggest_add(s, ct_template(i)->name);
	return suggest_hint(s);
}
