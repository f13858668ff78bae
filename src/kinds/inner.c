// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * inner: a header field of the packet a tunnel carries, or of the
 * tunnel's own header, as nft 1.1 matches them ("udp dport 4789 vxlan ip
 * saddr 1.2.3.4", "gre tcp dport 22", "vxlan vni 10").  The kernel's
 * "inner" expression (nft_inner, Linux 6.2) parses the tunnel and runs
 * one payload or meta load on what it carries.
 *
 * nft 1.1.1 is the model for the grammar, the dependencies, the bytecode
 * and the listing.  Its facts, as this file follows them:
 *  - vxlan and geneve sit on udp, which the rule must have matched
 *    before; gre on ip protocol 47, tested where nothing above the
 *    network header is known yet.
 *  - the tunnels' types, header sizes and flags (what the kernel parses)
 *    are the table below.
 *  - inside, dependencies are added as in a bridge table (an ethernet
 *    header is carried: vxlan, geneve, gretap) or a netdev table (gre),
 *    each read through the tunnel too, from one context of the inner
 *    packet that all tunnels of the rule share.
 *
 * libnftnl 1.2.4 has no inner expression (include/inner.h says how nfh
 * carries it); the wire encoding and the debug text are at the end.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <jansson.h>
#include <libmnl/libmnl.h>
#include <libnftnl/expr.h>
#include <libnftnl/rule.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nf_tables.h>

#include <bitwise.h>
#include <inner.h>
#include <kind.h>
#include <proto.h>
#include <protoctx.h>
#include <utils.h>

/* the kernel's (uapi nf_tables.h, Linux 6.2), which Debian 12's headers
   lack */
enum {
	INNER_HDRSIZE	= 1 << 0,	/* NFT_INNER_HDRSIZE */
	INNER_LL	= 1 << 1,	/* NFT_INNER_LL */
	INNER_NH	= 1 << 2,	/* NFT_INNER_NH */
	INNER_TH	= 1 << 3,	/* NFT_INNER_TH */
};
enum {
	ATTR_INNER_NUM = 1,		/* NFTA_INNER_NUM */
	ATTR_INNER_TYPE,		/* NFTA_INNER_TYPE */
	ATTR_INNER_FLAGS,		/* NFTA_INNER_FLAGS */
	ATTR_INNER_HDRSIZE,		/* NFTA_INNER_HDRSIZE */
	ATTR_INNER_EXPR,		/* NFTA_INNER_EXPR */
	ATTR_INNER_MAX = ATTR_INNER_EXPR
};

/**
 * struct tunnel - a tunnel nft_inner parses, as nft 1.1.1 sends it
 * @type:	nft's number of it (NFT_INNER_VXLAN 1, NFT_INNER_GENEVE 2;
 *		nft's own 3 and 4 for gre and gretap)
 * @hdrsize:	the tunnel header's length in bytes
 * @flags:	INNER_*: the headers the kernel parses in what it carries
 * @family:	the family whose dependencies nft adds inside
 * @ll:		it carries an ethernet frame (ether, vlan and arp fields)
 * @gre:	it is gre's (else udp's)
 */
struct tunnel {
	const char		*name;
	const struct proto_desc	*desc;
	uint32_t		type;
	uint32_t		hdrsize;
	uint32_t		flags;
	unsigned int		family;
	bool			ll;
	bool			gre;
};

#define INNER_ALL	(INNER_HDRSIZE | INNER_LL | INNER_NH | INNER_TH)

static const struct tunnel tunnels[] = {
	{ "vxlan",  &proto_vxlan,  1, 8, INNER_ALL, NFPROTO_BRIDGE, true,
	  false },
	{ "geneve", &proto_geneve, 2, 8, INNER_ALL, NFPROTO_BRIDGE, true,
	  false },
	{ "gre",    &proto_gre,    3, 4, INNER_NH | INNER_TH, NFPROTO_NETDEV,
	  false, true },
	{ "gretap", &proto_gretap, 4, 4, INNER_LL | INNER_NH | INNER_TH,
	  NFPROTO_BRIDGE, true, true },
};

struct inner_priv {
	const struct tunnel	*t;
	struct expr		*child;
};
_Static_assert(sizeof(struct inner_priv) <= sizeof(((struct expr *)0)->priv),
	       "inner_priv fits an expression's fields");

static const struct expr_ops inner_ops;

static const struct tunnel *tunnel_lookup(const char *name)
{
	for (size_t i = 0; i < array_size(tunnels); i++)
		if (!strcmp(tunnels[i].name, name))
			return &tunnels[i];
	return NULL;
}

static const struct tunnel *tunnel_by_desc(const struct proto_desc *d)
{
	for (size_t i = 0; i < array_size(tunnels); i++)
		if (tunnels[i].desc == d)
			return &tunnels[i];
	return NULL;
}

static struct expr *inner_alloc(const struct location *loc,
				const struct tunnel *t, struct expr *child)
{
	struct expr *e = selector_expr_alloc(loc, &inner_ops, child->dtype,
					     child->byteorder, child->len);
	struct inner_priv *p = expr_priv(e);

	p->t = t;
	p->child = child;
	return e;
}

const struct expr *inner_child(const struct expr *e)
{
	const struct inner_priv *p;

	if (!e || e->ops != &inner_ops)
		return NULL;
	p = expr_priv(e);
	return p->child;
}

const struct proto_desc *inner_tunnel_desc(const struct expr *e)
{
	const struct inner_priv *p = expr_priv(e);

	return p->t->desc;
}

unsigned int inner_family(const struct expr *e)
{
	const struct inner_priv *p = expr_priv(e);

	return p->t->family;
}

bool inner_on_gre(const struct expr *e)
{
	const struct inner_priv *p = expr_priv(e);

	return p->t->gre;
}

struct expr *inner_unwrap(struct expr *e)
{
	struct inner_priv *p = expr_priv(e);
	struct expr *c = p->child;

	p->child = NULL;
	return c;
}

struct expr *inner_rewrap(struct expr *e, struct expr *child)
{
	struct inner_priv *p = expr_priv(e);

	p->child = child;
	e->dtype = child->dtype;
	e->byteorder = child->byteorder;
	e->len = child->len;
	return e;
}

struct expr *inner_wrap(const struct expr *tunnel, struct expr *child)
{
	const struct inner_priv *p = expr_priv(tunnel);

	return inner_alloc(&child->loc, p->t, child);
}

/* the headers nft's grammar takes inside a tunnel: ethernet's where the
   tunnel carries a frame, the inet ones, not another tunnel's */
static bool carried(const struct tunnel *t, const struct proto_desc *d)
{
	if (d->base == PROTO_BASE_TUN_HDR || d == &proto_gre)
		return false;
	if (d == &proto_eth || d == &proto_vlan || d == &proto_arp)
		return t->ll;
	return true;
}

struct expr *inner_expr_parse(const struct location *loc, const char *name,
			      const struct location *nloc, struct expr *child,
			      struct list_head *msgs)
{
	const struct tunnel *t = tunnel_lookup(name);
	const struct proto_desc *d;

	if (inner_child(child)) {
		/* "vxlan vxlan vni": a tunnel's own field, read in it */
		const struct inner_priv *p = expr_priv(child);

		error_queue(msgs, &child->loc, "syntax error, unexpected %s",
			    p->t->name);
		goto err;
	}
	d = child->payload.desc;
	if (!t) {
		error_queue(msgs, nloc, "syntax error, unexpected %s", name);
		goto err;
	}
	if (child->kind != EXPR_PAYLOAD || child->payload.is_raw || !d) {
		error_queue(msgs, &child->loc,
			    "syntax error, a header field after %s", name);
		goto err;
	}
	if (!carried(t, d)) {
		error_queue(msgs, &child->loc, "syntax error, unexpected %s",
			    d->name);
		goto err;
	}
	child = inner_alloc(loc, t, child);
	return child;
err:
	expr_free(child);
	return NULL;
}

struct expr *inner_field_wrap(struct expr *p)
{
	const struct tunnel *t;

	if (!p || p->kind != EXPR_PAYLOAD || !p->payload.desc ||
	    p->payload.desc->base != PROTO_BASE_TUN_HDR)
		return p;
	t = tunnel_by_desc(p->payload.desc);
	return t ? inner_alloc(&p->loc, t, p) : p;
}

/* the transport protocol the rule matched, if it is known (of a set of
   them, the last, as nft takes it) */
static const struct proto_desc *outer_th(const struct proto_ctx *pctx)
{
	if (pctx->desc[PROTO_BASE_TRANSPORT_HDR])
		return pctx->desc[PROTO_BASE_TRANSPORT_HDR];
	return pctx->th_nseen ? pctx->th_seen[pctx->th_nseen - 1] : NULL;
}

static int inner_eval(struct kind_eval *k, struct expr *e)
{
	struct inner_priv *p = expr_priv(e);
	const struct proto_desc *th = outer_th(k->pctx);

	if (p->t->gre) {
		/* gre's own number announces it, though the context takes
		   gre as unknown (nft 1.0.6 knows no gre header) */
		if (!th && k->pctx->th_id != IPPROTO_GRE &&
		    k->dep(k, &e->loc, PROTO_BASE_TRANSPORT_HDR, &proto_gre) < 0)
			return -1;
	} else if (!th || th == &proto_th) {
		return error_queue(k->msgs, &e->loc,
				   "no transport protocol specified");
	} else if (th != &proto_udp) {
		return error_queue(k->msgs, &e->loc,
				   "unexpected transport protocol %s", th->name);
	}
	if (k->inner(k, &p->child, e, p->t->family) < 0)
		return -1;
	e->dtype = p->child->dtype;
	e->byteorder = p->child->byteorder;
	e->len = p->child->len;
	return 0;
}

/* the carrier's marks: bit 31, and the tunnel in the bits above the
   kernel's value (a base or meta key, each under 256) */
#define CARRIER		(1U << 31)
#define CARRIER_VALUE(v)	((v) & 0xff)
#define CARRIER_TYPE(v)		(((v) >> 8) & 0xff)
#define CARRIER_FLAGS(v)	(((v) >> 16) & 0xff)
#define CARRIER_HDRSIZE(v)	(((v) >> 24) & 0x7f)

static uint32_t carrier_pack(uint32_t type, uint32_t flags, uint32_t hdrsize,
			     uint32_t v)
{
	return CARRIER | hdrsize << 24 | flags << 16 | type << 8 | v;
}

/* the attribute of a payload or meta load the carrier marks */
static uint16_t carrier_attr(const char *name)
{
	if (!strcmp(name, "payload"))
		return NFTNL_EXPR_PAYLOAD_BASE;
	if (!strcmp(name, "meta"))
		return NFTNL_EXPR_META_KEY;
	return 0;
}

void inner_load_mark(struct nftnl_expr *x, const struct expr *e)
{
	const struct inner_priv *p = expr_priv(e);
	uint16_t a = carrier_attr(nftnl_expr_get_str(x, NFTNL_EXPR_NAME));

	nftnl_expr_set_u32(x, a, carrier_pack(p->t->type, p->t->flags,
					      p->t->hdrsize,
					      nftnl_expr_get_u32(x, a)));
}

/* a meta key, or a field whose load the linearizer did not make itself */
static void inner_linearize(struct kind_lin *k, const struct expr *e,
			    uint32_t dreg)
{
	const struct inner_priv *p = expr_priv(e);

	inner_load_mark(k->load_first(k, p->child, dreg), e);
}

bool inner_carrier(const struct nftnl_expr *e)
{
	uint16_t a = carrier_attr(nftnl_expr_get_str(e, NFTNL_EXPR_NAME));

	return a && nftnl_expr_is_set(e, a) &&
	       (nftnl_expr_get_u32(e, a) & CARRIER);
}

static const struct tunnel *tunnel_by_type(uint32_t type, uint32_t flags,
					    uint32_t hdrsize)
{
	for (size_t i = 0; i < array_size(tunnels); i++)
		if (tunnels[i].type == type && tunnels[i].flags == flags &&
		    tunnels[i].hdrsize == hdrsize)
			return &tunnels[i];
	return NULL;
}

/* @x, a carrier's load with the kernel's own value, as a new expression
   (libnftnl 1.2.4 has no clone); NULL if it is no load */
static struct nftnl_expr *load_copy(const struct nftnl_expr *x, uint32_t v)
{
	const char *name = nftnl_expr_get_str(x, NFTNL_EXPR_NAME);
	static const uint16_t payload[] = {
		NFTNL_EXPR_PAYLOAD_DREG, NFTNL_EXPR_PAYLOAD_OFFSET,
		NFTNL_EXPR_PAYLOAD_LEN,
	};
	struct nftnl_expr *n;
	uint16_t a = carrier_attr(name);

	if ((a == NFTNL_EXPR_PAYLOAD_BASE &&
	     (nftnl_expr_is_set(x, NFTNL_EXPR_PAYLOAD_SREG) ||
	      !nftnl_expr_is_set(x, NFTNL_EXPR_PAYLOAD_DREG))) ||
	    (a == NFTNL_EXPR_META_KEY &&
	     !nftnl_expr_is_set(x, NFTNL_EXPR_META_DREG)))
		return NULL;
	n = nftnl_expr_alloc(name);
	if (!n)
		memory_allocation_error();
	nftnl_expr_set_u32(n, a, v);
	if (a == NFTNL_EXPR_META_KEY) {
		nftnl_expr_set_u32(n, NFTNL_EXPR_META_DREG,
				   nftnl_expr_get_u32(x, NFTNL_EXPR_META_DREG));
		return n;
	}
	for (size_t i = 0; i < array_size(payload); i++)
		if (nftnl_expr_is_set(x, payload[i]))
			nftnl_expr_set_u32(n, payload[i],
					   nftnl_expr_get_u32(x, payload[i]));
	return n;
}

/* the load inside, read as the rule's, then wrapped in its tunnel; a
   tunnel nft 1.1.1 does not make is listed as unsupported */
static void inner_delinearize(struct kind_delin *k, const struct nftnl_expr *x)
{
	uint16_t a = carrier_attr(nftnl_expr_get_str(x, NFTNL_EXPR_NAME));
	uint32_t v = nftnl_expr_get_u32(x, a), dreg;
	const struct tunnel *t = tunnel_by_type(CARRIER_TYPE(v),
						CARRIER_FLAGS(v),
						CARRIER_HDRSIZE(v));
	struct nftnl_expr *n = load_copy(x, CARRIER_VALUE(v));
	struct expr *c;

	if (!t || !n) {
		if (n)
			nftnl_expr_free(n);
		k->unsupported(k, "inner");
		return;
	}
	dreg = nftnl_expr_get_u32(n, a == NFTNL_EXPR_META_KEY ?
				  NFTNL_EXPR_META_DREG : NFTNL_EXPR_PAYLOAD_DREG);
	k->load(k, n);
	nftnl_expr_free(n);
	c = k->reg_get(k, dreg);
	if (c)
		k->reg_set(k, dreg, inner_alloc(&internal_location, t, c));
}

static void inner_print(struct kind_print *k, const struct expr *e)
{
	const struct inner_priv *p = expr_priv(e);

	/* a field of the tunnel's own header names it already */
	if (p->child->kind != EXPR_PAYLOAD ||
	    p->child->payload.desc != p->t->desc)
		fprintf(k->f, "%s ", p->t->name);
	k->expr(k, p->child);
}

/* { "payload": { "tunnel": "vxlan", "protocol": "ip", "field": "saddr" } }:
   the tunnel first in the object of the load inside */
static json_t *inner_json(struct kind_json *k, const struct expr *e)
{
	const struct inner_priv *p = expr_priv(e);
	json_t *c = k->expr(k, p->child), *o, *in = NULL, *v;
	const char *key, *name = NULL;

	if (!json_is_object(c) || json_object_size(c) != 1) {
		json_decref(c);
		return k->unsupported(k, "inner");
	}
	json_object_foreach(c, name, in)
		break;
	if (!json_is_object(in)) {
		json_decref(c);
		return k->unsupported(k, "inner");
	}
	o = json_pack("{s:s}", "tunnel", p->t->name);
	json_object_foreach(in, key, v)
		json_object_set(o, key, v);
	o = kind_json_wrap(name, o);
	json_decref(c);
	return o;
}

static void inner_clone(struct expr *n, const struct expr *e, size_t *nodes)
{
	const struct inner_priv *p = expr_priv(e);
	struct inner_priv *q = expr_priv(n);

	q->child = expr_clone_counted(p->child, nodes);
}

static void inner_destroy(struct expr *e)
{
	struct inner_priv *p = expr_priv(e);

	expr_free(p->child);
}

static const struct expr_ops inner_ops = {
	.name		= "inner",
	.nl_name	= "inner",
	.kind		= EXPR_SELECTOR,
	.eval		= inner_eval,
	.linearize	= inner_linearize,
	.delinearize	= inner_delinearize,
	.print		= inner_print,
	.json		= inner_json,
	.clone		= inner_clone,
	.destroy	= inner_destroy,
};
EXPR_OPS_REGISTER(inner_ops);

/* --- the wire ----------------------------------------------------------- */

static uint16_t carrier_nla(const char *name)
{
	if (!strcmp(name, "payload"))
		return NFTA_PAYLOAD_BASE;
	if (!strcmp(name, "meta"))
		return NFTA_META_KEY;
	return 0;
}

/* @data's attributes into a nest @type of @nlh, the u32 @key set to @v */
static void data_put(struct nlmsghdr *nlh, uint16_t type,
		     const struct nlattr *data, uint16_t key, uint32_t v)
{
	struct nlattr *nest = mnl_attr_nest_start(nlh, type);
	const struct nlattr *a;

	mnl_attr_for_each_nested(a, data) {
		if (mnl_attr_get_type(a) == key)
			mnl_attr_put_u32(nlh, key, htonl(v));
		else
			mnl_attr_put(nlh, mnl_attr_get_type(a),
				     mnl_attr_get_payload_len(a),
				     mnl_attr_get_payload(a));
	}
	mnl_attr_nest_end(nlh, nest);
}

/* the u32 @key of @data, if it has one */
static bool data_u32(const struct nlattr *data, uint16_t key, uint32_t *v)
{
	const struct nlattr *a;

	mnl_attr_for_each_nested(a, data)
		if (mnl_attr_get_type(a) == key &&
		    !mnl_attr_validate(a, MNL_TYPE_U32)) {
			*v = ntohl(mnl_attr_get_u32(a));
			return true;
		}
	return false;
}

/* a list element: the carrier @name/@data as the kernel's inner */
static void carrier_put(struct nlmsghdr *nlh, const char *name,
			const struct nlattr *data, uint32_t v)
{
	struct nlattr *elem, *d, *x;

	elem = mnl_attr_nest_start(nlh, NFTA_LIST_ELEM);
	mnl_attr_put_strz(nlh, NFTA_EXPR_NAME, "inner");
	d = mnl_attr_nest_start(nlh, NFTA_EXPR_DATA);
	mnl_attr_put_u32(nlh, ATTR_INNER_NUM, htonl(0));
	mnl_attr_put_u32(nlh, ATTR_INNER_TYPE, htonl(CARRIER_TYPE(v)));
	mnl_attr_put_u32(nlh, ATTR_INNER_FLAGS, htonl(CARRIER_FLAGS(v)));
	mnl_attr_put_u32(nlh, ATTR_INNER_HDRSIZE, htonl(CARRIER_HDRSIZE(v)));
	x = mnl_attr_nest_start(nlh, ATTR_INNER_EXPR);
	mnl_attr_put_strz(nlh, NFTA_EXPR_NAME, name);
	data_put(nlh, NFTA_EXPR_DATA, data, carrier_nla(name),
		 CARRIER_VALUE(v));
	mnl_attr_nest_end(nlh, x);
	mnl_attr_nest_end(nlh, d);
	mnl_attr_nest_end(nlh, elem);
}

/* @elem, a carrier, as the kernel's inner expression; false if it is
   not one */
static bool elem_out(struct nlmsghdr *nlh, const struct nlattr *elem)
{
	const struct nlattr *data;
	const char *name;
	uint32_t v;

	expr_elem_parts(elem, &name, &data);
	if (!data || !carrier_nla(name) ||
	    !data_u32(data, carrier_nla(name), &v) || !(v & CARRIER))
		return false;
	carrier_put(nlh, name, data, v);
	return true;
}

/*
 * @elem, the kernel's inner expression, as a carrier; false if it is
 * none or one nfh cannot carry (the kernel checks less than this: a
 * type, flags or header size that does not fit in the carrier's bits)
 */
static bool elem_in(struct nlmsghdr *nlh, const struct nlattr *elem)
{
	const struct nlattr *data, *a, *x = NULL, *xdata;
	uint32_t type = 0, flags = 0, hdrsize = 0, v;
	const char *name, *xname;
	struct nlattr *nest;

	expr_elem_parts(elem, &name, &data);
	if (strcmp(name, "inner") || !data)
		return false;
	mnl_attr_for_each_nested(a, data) {
		if (mnl_attr_get_type(a) == ATTR_INNER_EXPR) {
			x = a;
			continue;
		}
		if (mnl_attr_validate(a, MNL_TYPE_U32) < 0)
			return false;
		switch (mnl_attr_get_type(a)) {
		case ATTR_INNER_TYPE:
			type = ntohl(mnl_attr_get_u32(a));
			break;
		case ATTR_INNER_FLAGS:
			flags = ntohl(mnl_attr_get_u32(a));
			break;
		case ATTR_INNER_HDRSIZE:
			hdrsize = ntohl(mnl_attr_get_u32(a));
			break;
		}
	}
	if (!x || type > 0xff || flags > 0xff || hdrsize > 0x7f)
		return false;
	expr_elem_parts(x, &xname, &xdata);
	if (!xdata || !carrier_nla(xname) ||
	    !data_u32(xdata, carrier_nla(xname), &v) || v > 0xff)
		return false;
	nest = mnl_attr_nest_start(nlh, NFTA_LIST_ELEM);
	mnl_attr_put_strz(nlh, NFTA_EXPR_NAME, xname);
	data_put(nlh, NFTA_EXPR_DATA, xdata, carrier_nla(xname),
		 carrier_pack(type, flags, hdrsize, v));
	mnl_attr_nest_end(nlh, nest);
	return true;
}

/*
 * A copy of @nlh's attributes at the end of @to (its header copied
 * already), each expression of the rule through @conv, or as it is
 */
static void rule_attrs_copy(struct nlmsghdr *to, const struct nlmsghdr *nlh,
			    bool (*conv)(struct nlmsghdr *,
					 const struct nlattr *))
{
	const struct nlattr *a, *l;

	mnl_attr_for_each(a, nlh, sizeof(struct nfgenmsg)) {
		struct nlattr *nest;

		if (mnl_attr_get_type(a) != NFTA_RULE_EXPRESSIONS) {
			mnl_attr_put(to, mnl_attr_get_type(a),
				     mnl_attr_get_payload_len(a),
				     mnl_attr_get_payload(a));
			continue;
		}
		nest = mnl_attr_nest_start(to, NFTA_RULE_EXPRESSIONS);
		mnl_attr_for_each_nested(l, a)
			if (!conv(to, l))
				mnl_attr_put(to, mnl_attr_get_type(l),
					     mnl_attr_get_payload_len(l),
					     mnl_attr_get_payload(l));
		mnl_attr_nest_end(to, nest);
	}
}

static size_t msg_hdrlen(void)
{
	return MNL_NLMSG_HDRLEN + MNL_ALIGN(sizeof(struct nfgenmsg));
}

static bool rule_has_carrier(struct nftnl_rule *r)
{
	struct nftnl_expr_iter *it = nftnl_expr_iter_create(r);
	struct nftnl_expr *x;
	bool found = false;

	if (!it)
		memory_allocation_error();
	while (!found && (x = nftnl_expr_iter_next(it)))
		found = inner_carrier(x) || bitwise_carrier(x);
	nftnl_expr_iter_destroy(it);
	return found;
}

/* the carriers of libnftnl's rules (this file's, src/kinds/bitwise.c's)
   as the kernel's expressions, and back */
static bool carriers_out(struct nlmsghdr *nlh, const struct nlattr *elem)
{
	return elem_out(nlh, elem) || bitwise_elem_out(nlh, elem);
}

static bool carriers_in(struct nlmsghdr *nlh, const struct nlattr *elem)
{
	return elem_in(nlh, elem) || bitwise_elem_in(nlh, elem);
}

/* the rule's attributes follow the header nftnl_nlmsg_build_hdr() wrote */
void inner_rule_build(struct nlmsghdr *nlh, struct nftnl_rule *r)
{
	struct nlmsghdr *src;

	nftnl_rule_nlmsg_build_payload(nlh, r);
	if (!rule_has_carrier(r))
		return;
	src = xmalloc(nlh->nlmsg_len);
	memcpy(src, nlh, nlh->nlmsg_len);
	nlh->nlmsg_len = msg_hdrlen();
	rule_attrs_copy(nlh, src, carriers_out);
	free(src);
}

int inner_rule_parse(const struct nlmsghdr *nlh, struct nftnl_rule *r)
{
	struct nlmsghdr *to;
	int ret;

	if (nlh->nlmsg_len < msg_hdrlen())
		return nftnl_rule_nlmsg_parse(nlh, r);
	/* a carrier is never longer than the inner it stands for */
	to = xzalloc(nlh->nlmsg_len + 64);
	memcpy(to, nlh, msg_hdrlen());
	to->nlmsg_len = msg_hdrlen();
	rule_attrs_copy(to, nlh, carriers_in);
	ret = nftnl_rule_nlmsg_parse(to, r);
	free(to);
	return ret;
}

/* @x, a carrier, as nft 1.1.1 prints the inner expression */
static void carrier_debug(FILE *f, struct nftnl_expr *x)
{
	uint16_t a = carrier_attr(nftnl_expr_get_str(x, NFTNL_EXPR_NAME));
	uint32_t v = nftnl_expr_get_u32(x, a);
	char buf[1024];

	nftnl_expr_set_u32(x, a, CARRIER_VALUE(v));
	nftnl_expr_snprintf(buf, sizeof(buf), x, NFTNL_OUTPUT_DEFAULT, 0);
	nftnl_expr_set_u32(x, a, v);
	fprintf(f, "  [ inner type %u hdrsize %u flags %x [ %s %s] ]\n",
		CARRIER_TYPE(v), CARRIER_HDRSIZE(v), CARRIER_FLAGS(v),
		nftnl_expr_get_str(x, NFTNL_EXPR_NAME), buf);
}

/* libnftnl prints the rule's line, then each expression on a line of
   its own ("  [ NAME ... ]"), then its user data */
void inner_rule_debug(FILE *f, struct nftnl_rule *r)
{
	struct nftnl_expr_iter *it;
	struct nftnl_expr *x;
	char *buf, *line, *nl;
	size_t sz = 1 << 14;
	int n;

	for (;;) {
		buf = xmalloc(sz);
		n = nftnl_rule_snprintf(buf, sz, r, NFTNL_OUTPUT_DEFAULT, 0);
		if (n >= 0 && (size_t)n < sz - 1)
			break;
		free(buf);
		sz *= 4;
	}
	if (!rule_has_carrier(r)) {
		fprintf(f, "%s\n", buf);
		free(buf);
		return;
	}
	it = nftnl_expr_iter_create(r);
	if (!it)
		memory_allocation_error();
	x = nftnl_expr_iter_next(it);
	for (line = buf; *line; line = nl + (*nl == '\n')) {
		nl = strchrnul(line, '\n');
		if (x && !strncmp(line, "  [ ", 4)) {
			if (inner_carrier(x))
				carrier_debug(f, x);
			else if (bitwise_carrier(x))
				bitwise_carrier_debug(f, x);
			else
				fprintf(f, "%.*s\n", (int)(nl - line), line);
			x = nftnl_expr_iter_next(it);
			continue;
		}
		fprintf(f, "%.*s\n", (int)(nl - line), line);
	}
	fputc('\n', f);
	nftnl_expr_iter_destroy(it);
	free(buf);
}
