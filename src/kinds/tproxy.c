// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tproxy [ip|ip6] to [ADDR][:PORT]: the packet goes to a local socket
 * (the kernel's "tproxy" expression), the address and port constants in
 * registers before it.  Its fields are nat's (s->nat: addr, proto,
 * family, print_family): the grammar reads its address and port as nat's
 * (nat_addr) and turns the statement into a tproxy.  STMT_TPROXY stays in
 * the enum for that.  Only constants list back: an address and a port
 * read from registers that hold anything else are no tproxy nfh lists.
 */
#include <string.h>
#include <jansson.h>
#include <libnftnl/expr.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>

#include <datatype.h>
#include <kind.h>
#include <proto.h>
#include <protoctx.h>
#include <rule.h>

/* the address family the table's or the statement's */
/*
 * A family other than the network protocol the rule matched before, or
 * took from a set's last element, as nft refuses it
 */
static int tproxy_conflicts(struct kind_eval *k, const struct stmt *s,
			    const struct proto_desc *nh)
{
	/* nft refuses a family other than the network protocol matched
	   before ("ip6 nexthdr tcp tproxy ip to ..." in inet) */
	if (k->family == NFPROTO_INET && s->nat.family &&
	    (nh == &proto_ip || nh == &proto_ip6) &&
	    nh != (s->nat.family == NFPROTO_IPV4 ? &proto_ip : &proto_ip6))
		return error_queue(k->msgs, &s->loc,
				   "conflicting protocols specified: %s vs. %s. You must specify ip or ip6 family in tproxy statement",
				   nh->name, s->nat.family == NFPROTO_IPV4 ? "ip" : "ip6");
	/* nft takes the network protocol from a set's last element
	   ("ether type { ip } ... tproxy to :1" in ip6), and refuses it
	   where it is not the table's */
	if ((k->family != NFPROTO_INET || s->nat.family) &&
	    k->pctx->set_desc[PROTO_BASE_NETWORK_HDR]) {
		const struct proto_desc *sd = k->pctx->set_desc[PROTO_BASE_NETWORK_HDR];
		unsigned int fam = k->family == NFPROTO_INET ? s->nat.family
							      : k->family;
		const struct proto_desc *fd = fam == NFPROTO_IPV4 ?
					      &proto_ip : &proto_ip6;

		if ((sd == &proto_ip || sd == &proto_ip6) && sd != fd)
			return error_queue2(k->msgs, &s->loc,
					    k->pctx->set_loc[PROTO_BASE_NETWORK_HDR],
					    "conflicting protocols specified: %s vs. %s (nft takes the protocol from the set's last element, %s). You must specify ip or ip6 family in tproxy statement",
					    sd->name, fd->name, sd->name);
	}
	/* or from one ("ether type ip ... tproxy to :1" in ip6) */
	if (k->family != NFPROTO_INET && (nh == &proto_ip || nh == &proto_ip6) &&
	    nh != (k->family == NFPROTO_IPV4 ? &proto_ip : &proto_ip6))
		return error_queue(k->msgs, &s->loc,
				   "conflicting protocols specified: %s vs. %s. You must specify ip or ip6 family in tproxy statement",
				   nh->name, k->family == NFPROTO_IPV4 ? "ip" : "ip6");
	return 0;
}

static int tproxy_family_eval(struct kind_eval *k, struct stmt *s)
{
	const struct proto_desc *nh = k->pctx->desc[PROTO_BASE_NETWORK_HDR];

	/* as nat, in the ip, ip6 and inet families only */
	if (k->family != NFPROTO_IPV4 && k->family != NFPROTO_IPV6 &&
	    k->family != NFPROTO_INET)
		return error_queue(k->msgs, &s->loc,
				   "tproxy is not supported in family %s",
				   k->family_name);
	/* the port is in the transport header the rule matched before */
	if (!proto_ctx_th_known(k->pctx))
		return error_queue(k->msgs, &s->loc,
				   "tproxy needs a transport protocol match before it, e.g. \"meta l4proto tcp\"");
	if (s->nat.family && k->family != NFPROTO_INET &&
	    s->nat.family != k->family)
		return error_queue(k->msgs, &s->loc,
				   "tproxy %s is not valid in family %s",
				   s->nat.family == NFPROTO_IPV4 ? "ip" : "ip6",
				   k->family_name);
	/* nft 1.0.6 (and 1.1.1) does not take the family from the match */
	if (k->family == NFPROTO_INET && !s->nat.family &&
	    (nh == &proto_ip || nh == &proto_ip6))
		return error_queue(k->msgs, &s->loc,
				   "tproxy after an %s match in the inet family needs the family: tproxy %s to ...",
				   nh->name, nh->name);
	/* the same after a set of them: nft takes its last element's */
	if (k->family == NFPROTO_INET && !s->nat.family &&
	    (k->pctx->set_desc[PROTO_BASE_NETWORK_HDR] == &proto_ip ||
	     k->pctx->set_desc[PROTO_BASE_NETWORK_HDR] == &proto_ip6))
		return error_queue2(k->msgs, &s->loc,
				    k->pctx->set_loc[PROTO_BASE_NETWORK_HDR],
				    "tproxy after a set of network protocols in the inet family needs the family (nft takes the protocol from the set's last element, %s): tproxy %s to ...",
				    k->pctx->set_desc[PROTO_BASE_NETWORK_HDR]->name,
				    k->pctx->set_desc[PROTO_BASE_NETWORK_HDR]->name);
	if (tproxy_conflicts(k, s, nh) < 0)
		return -1;
	if (k->family != NFPROTO_INET)
		s->nat.family = k->family;
	return 0;
}

/* @v, a constant of type @dt (@len bits); 0, or -1 with an error queued */
static int tproxy_value_eval(struct kind_eval *k, struct expr **v,
			     const struct datatype *dt, unsigned int len,
			     const char *single)
{
	struct expr *lhs = constant_expr_alloc(&internal_location, dt,
					       BYTEORDER_BIG, len, NULL);
	int ret = k->rhs(k, lhs, v);

	expr_free(lhs);
	if (ret < 0)
		return -1;
	if ((*v)->kind != EXPR_VALUE)
		return error_queue(k->msgs, &(*v)->loc, "tproxy takes a single %s",
				   single);
	return 0;
}

static int tproxy_eval(struct kind_eval *k, struct stmt *s)
{
	const struct datatype *dt;

	if (tproxy_family_eval(k, s) < 0)
		return -1;
	if (s->nat.proto &&
	    tproxy_value_eval(k, &s->nat.proto, &inet_service_type, 16,
			      "port") < 0)
		return -1;
	if (!s->nat.addr)
		return 0;
	if (!s->nat.family)
		return error_queue(k->msgs, &s->loc,
				   "tproxy to an address in the inet family needs the address family: tproxy ip to ..., tproxy ip6 to ...");
	dt = s->nat.family == NFPROTO_IPV4 ? &ipaddr_type : &ip6addr_type;
	return tproxy_value_eval(k, &s->nat.addr, dt, dt->size, "address");
}

static int tproxy_linearize(struct kind_lin *k, const struct stmt *s)
{
	uint32_t reg = NFT_REG_1;
	struct nftnl_expr *e;

	if (s->nat.addr)
		k->immediate(k, reg++, s->nat.addr, BYTEORDER_BIG);
	if (s->nat.proto)
		k->immediate(k, reg, s->nat.proto, BYTEORDER_BIG);
	e = k->add(k, "tproxy");
	nftnl_expr_set_u32(e, NFTNL_EXPR_TPROXY_FAMILY, s->nat.family);
	if (s->nat.addr)
		nftnl_expr_set_u32(e, NFTNL_EXPR_TPROXY_REG_ADDR, NFT_REG_1);
	if (s->nat.proto)
		nftnl_expr_set_u32(e, NFTNL_EXPR_TPROXY_REG_PORT, reg);
	return 0;
}

static void tproxy_delinearize(struct kind_delin *k,
			       const struct nftnl_expr *e)
{
	struct stmt *s = stmt_alloc(&internal_location, STMT_TPROXY);

	s->nat.family = nftnl_expr_get_u32(e, NFTNL_EXPR_TPROXY_FAMILY);
	s->nat.print_family = k->family == NFPROTO_INET && s->nat.family;
	if (nftnl_expr_is_set(e, NFTNL_EXPR_TPROXY_REG_ADDR))
		s->nat.addr = k->reg_get(k, nftnl_expr_get_u32(e, NFTNL_EXPR_TPROXY_REG_ADDR));
	if (nftnl_expr_is_set(e, NFTNL_EXPR_TPROXY_REG_PORT))
		s->nat.proto = k->reg_get(k, nftnl_expr_get_u32(e, NFTNL_EXPR_TPROXY_REG_PORT));
	if ((!s->nat.addr && !s->nat.proto) ||
	    (s->nat.addr && s->nat.addr->kind != EXPR_VALUE) ||
	    (s->nat.proto && s->nat.proto->kind != EXPR_VALUE)) {
		stmt_free(s);
		k->unsupported(k, "tproxy");
		return;
	}
	k->add_stmt(k, s);
}

static const struct datatype *tproxy_addr_type(const struct stmt *s)
{
	return s->nat.family == NFPROTO_IPV6 ? &ip6addr_type : &ipaddr_type;
}

/* "tproxy ip to 10.0.0.1:80", "tproxy ip6 to [::1]:80", "tproxy to :80":
   constants (tproxy_delinearize), listed as values of their types */
static void tproxy_print(struct kind_print *k, const struct stmt *s)
{
	const struct datatype *dt = tproxy_addr_type(s);
	FILE *f = k->f;

	fputs("tproxy", f);
	/* as nft, the family in inet whether or not an address follows */
	if (s->nat.print_family)
		fprintf(f, " %s", s->nat.family == NFPROTO_IPV6 ? "ip6" : "ip");
	if (s->nat.addr) {
		struct expr *a = expr_clone(s->nat.addr);

		a->dtype = dt;
		fprintf(f, " to ");
		/* an ip6 address before a port goes in brackets */
		if (s->nat.proto && dt == &ip6addr_type)
			fputc('[', f);
		k->expr(k, a);
		if (s->nat.proto && dt == &ip6addr_type)
			fputc(']', f);
		expr_free(a);
	}
	if (s->nat.proto) {
		struct expr *p = expr_clone(s->nat.proto);

		p->dtype = &inet_service_type;
		fprintf(f, "%s:", s->nat.addr ? "" : " to ");
		k->expr(k, p);
		expr_free(p);
	}
}

/* @e, a constant, as a value of type @dt */
static json_t *tproxy_value_json(struct kind_json *k, const struct expr *e,
				 const struct datatype *dt)
{
	struct expr *v = expr_clone(e);
	json_t *j;

	v->dtype = dt;
	j = k->expr(k, v);
	expr_free(v);
	return j;
}

static json_t *tproxy_json(struct kind_json *k, const struct stmt *s)
{
	json_t *o = json_object();

	if (s->nat.family && k->family == NFPROTO_INET)
		o = kind_json_set(o, "family",
				  json_string(family_name(s->nat.family)));
	if (s->nat.addr)
		o = kind_json_set(o, "addr", tproxy_value_json(k, s->nat.addr,
							tproxy_addr_type(s)));
	if (s->nat.proto)
		o = kind_json_set(o, "port", tproxy_value_json(k, s->nat.proto,
							&inet_service_type));
	return kind_json_wrap("tproxy", o);
}

/* { "family": "ip"|"ip6", "addr": A, "port": P }: an address or a port;
   nat's "flags" is known, and refused */
static int tproxy_fields_parse_json(struct kind_jparse *k, json_t *o,
				    struct stmt *s)
{
	static const char *const keys[] = { "addr", "family", "port", "flags", NULL };
	const char *fam;
	json_t *v;

	if (!json_is_object(o))
		return k->error(k, o, "tproxy: expected an object");
	if (k->check_keys(k, o, "tproxy", keys) < 0)
		return -1;
	fam = k->get_str(k, o, "family", false);
	if (fam) {
		/* "tproxy ip6 to ..." in inet tables */
		if (!strcmp(fam, "ip"))
			s->nat.family = NFPROTO_IPV4;
		else if (!strcmp(fam, "ip6"))
			s->nat.family = NFPROTO_IPV6;
		else
			return k->error(k, json_object_get(o, "family"),
					"tproxy: family is ip or ip6, not \"%s\"",
					fam);
	}
	v = json_object_get(o, "addr");
	if (v && !(s->nat.addr = k->expr(k, v)))
		return -1;
	v = json_object_get(o, "port");
	if (v && !(s->nat.proto = k->expr(k, v)))
		return -1;
	v = json_object_get(o, "flags");
	if (v)
		return k->error(k, v, "tproxy takes no flags");
	if (!s->nat.addr && !s->nat.proto)
		return k->error(k, o, "tproxy: an \"addr\" or a \"port\" is needed");
	return 0;
}

static struct stmt *tproxy_parse_json(struct kind_jparse *k, const char *key,
				      json_t *o, const struct location *loc)
{
	struct stmt *s = stmt_alloc(loc, STMT_TPROXY);

	if (tproxy_fields_parse_json(k, o, s) < 0) {
		stmt_free(s);
		return NULL;
	}
	return s;
}

static void tproxy_destroy(struct stmt *s)
{
	expr_free(s->nat.addr);
	expr_free(s->nat.proto);
}

static const struct stmt_ops tproxy_ops = {
	.name		= "tproxy",
	.nl_name	= "tproxy",
	.kind		= STMT_TPROXY,
	.not_offered	= true,	/* the shell's completion never offered it */
	.eval		= tproxy_eval,
	.linearize	= tproxy_linearize,
	.delinearize	= tproxy_delinearize,
	.print		= tproxy_print,
	.json		= tproxy_json,
	.parse_json	= tproxy_parse_json,
	.destroy	= tproxy_destroy,
};
STMT_OPS_REGISTER(tproxy_ops);
