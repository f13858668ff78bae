// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fwd to DEV, fwd ip|ip6 to ADDR device DEV (netdev), and dup to ADDR
 * [device DEV] (ip, ip6) or dup to DEV (netdev): the kernel's "fwd" and
 * "dup".  Both keep a device and an address; the evaluator (fwd ends a
 * rule) and the delinearizer's postprocessing (dup's address) test for
 * them, so STMT_FWD, STMT_DUP and their fields stay in struct stmt.
 */
#include <string.h>
#include <jansson.h>
#include <libnftnl/expr.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>

#include <datatype.h>
#include <kind.h>
#include <proto.h>
#include <meta.h>

static const struct datatype *addr_type(unsigned int family)
{
	return family == NFPROTO_IPV6 ? &ip6addr_type : &ipaddr_type;
}

static int dev_eval(struct kind_eval *k, struct stmt *s)
{
	struct expr *lhs;
	int ret;

	if (k->family != NFPROTO_NETDEV)
		return error_queue(k->msgs, &s->loc,
				   "%s is only supported in the netdev family",
				   s->kind == STMT_FWD ? "fwd" : "dup");
	lhs = meta_expr_alloc(&internal_location, NFT_META_OIF);
	ret = k->value(k, lhs, &s->fwd.dev);
	expr_free(lhs);
	if (ret < 0 || !s->fwd.addr)
		return ret;
	/* the next hop: an address of the family named after "fwd" */
	lhs = expr_alloc(&internal_location, EXPR_VALUE,
			 addr_type(s->fwd.family), BYTEORDER_BIG,
			 s->fwd.family == NFPROTO_IPV6 ? 128 : 32);
	ret = k->rhs(k, lhs, &s->fwd.addr);
	expr_free(lhs);
	if (ret == 0 && s->fwd.addr->kind != EXPR_VALUE)
		return error_queue(k->msgs, &s->fwd.addr->loc,
				   "fwd needs a constant next hop address");
	return ret;
}

/*
 * "dup to ADDR [device DEV]" in ip and ip6, "dup to DEV" in netdev: the
 * parser holds a lone value as the device
 */
static int dup_eval(struct kind_eval *k, struct stmt *s)
{
	const struct datatype *dt;
	struct expr *lhs;
	int ret;

	if (k->family == NFPROTO_NETDEV) {
		if (s->fwd.addr)
			return error_queue(k->msgs, &s->loc,
					   "dup in the netdev family takes a device only: dup to DEVICE");
		return dev_eval(k, s);
	}
	if (k->family != NFPROTO_IPV4 && k->family != NFPROTO_IPV6)
		return error_queue(k->msgs, &s->loc,
				   "dup is only supported in the ip, ip6 and netdev families");
	if (!s->fwd.addr) {
		s->fwd.addr = s->fwd.dev;
		s->fwd.dev = NULL;
	}
	s->fwd.family = k->family;
	dt = k->family == NFPROTO_IPV4 ? &ipaddr_type : &ip6addr_type;
	lhs = constant_expr_alloc(&internal_location, dt, BYTEORDER_BIG,
				  dt->size, NULL);
	/* an address, a map to one, or one from the packet ("ip saddr") */
	ret = k->value(k, lhs, &s->fwd.addr);
	expr_free(lhs);
	if (ret < 0 || !s->fwd.dev)
		return ret;
	lhs = meta_expr_alloc(&internal_location, NFT_META_OIF);
	ret = k->value(k, lhs, &s->fwd.dev);
	expr_free(lhs);
	return ret;
}

static int fwd_linearize(struct kind_lin *k, const struct stmt *s)
{
	struct nftnl_expr *e;

	k->immediate(k, NFT_REG_1, s->fwd.dev, BYTEORDER_HOST);
	if (s->fwd.addr) {
		k->immediate(k, NFT_REG_2, s->fwd.addr, BYTEORDER_BIG);
		e = k->add(k, "fwd");
		nftnl_expr_set_u32(e, NFTNL_EXPR_FWD_SREG_DEV, NFT_REG_1);
		nftnl_expr_set_u32(e, NFTNL_EXPR_FWD_SREG_ADDR, NFT_REG_2);
		nftnl_expr_set_u32(e, NFTNL_EXPR_FWD_NFPROTO, s->fwd.family);
	} else {
		e = k->add(k, "fwd");
		nftnl_expr_set_u32(e, NFTNL_EXPR_FWD_SREG_DEV, NFT_REG_1);
	}
	return 0;
}

/* netdev: the device; ip, ip6: the address (or a map to it), the device */
static int dup_linearize(struct kind_lin *k, const struct stmt *s)
{
	struct nftnl_expr *e;

	if (!s->fwd.addr) {
		k->immediate(k, NFT_REG_1, s->fwd.dev, BYTEORDER_HOST);
		e = k->add(k, "dup");
		nftnl_expr_set_u32(e, NFTNL_EXPR_DUP_SREG_DEV, NFT_REG_1);
		return 0;
	}
	if (s->fwd.addr->kind == EXPR_VALUE || s->fwd.addr->kind == EXPR_MAP) {
		if (k->reg_value(k, NFT_REG_1, s->fwd.addr) < 0)
			return -1;
	} else {
		k->load(k, s->fwd.addr, NFT_REG_1);
	}
	if (s->fwd.dev)
		k->immediate(k, NFT_REG_2, s->fwd.dev, BYTEORDER_HOST);
	e = k->add(k, "dup");
	nftnl_expr_set_u32(e, NFTNL_EXPR_DUP_SREG_ADDR, NFT_REG_1);
	if (s->fwd.dev)
		nftnl_expr_set_u32(e, NFTNL_EXPR_DUP_SREG_DEV, NFT_REG_2);
	return 0;
}

/* the attribute numbers of fwd and dup differ */
static void dupfwd_delinearize(struct kind_delin *k,
			       const struct nftnl_expr *nle, bool fwd)
{
	struct stmt *s = stmt_alloc(&internal_location, fwd ? STMT_FWD : STMT_DUP);

	if (fwd || nftnl_expr_is_set(nle, NFTNL_EXPR_DUP_SREG_DEV))
		s->fwd.dev = k->reg_get(k, nftnl_expr_get_u32(nle, fwd ?
							     NFTNL_EXPR_FWD_SREG_DEV :
							     NFTNL_EXPR_DUP_SREG_DEV));
	if (fwd && nftnl_expr_is_set(nle, NFTNL_EXPR_FWD_SREG_ADDR)) {
		s->fwd.addr = k->reg_get(k, nftnl_expr_get_u32(nle, NFTNL_EXPR_FWD_SREG_ADDR));
		s->fwd.family = nftnl_expr_get_u32(nle, NFTNL_EXPR_FWD_NFPROTO);
	}
	/* ip, ip6: "dup to ADDR [device DEV]"; netdev: "dup to DEV" */
	if (!fwd && nftnl_expr_is_set(nle, NFTNL_EXPR_DUP_SREG_ADDR)) {
		s->fwd.addr = k->reg_get(k, nftnl_expr_get_u32(nle, NFTNL_EXPR_DUP_SREG_ADDR));
		s->fwd.family = k->family;
	}
	if ((!s->fwd.dev && !(!fwd && s->fwd.addr)) ||
	    (!fwd && s->fwd.addr && k->family != NFPROTO_IPV4 &&
	     k->family != NFPROTO_IPV6) ||
	    (fwd && nftnl_expr_is_set(nle, NFTNL_EXPR_FWD_SREG_ADDR) &&
	     (!s->fwd.addr || s->fwd.addr->kind != EXPR_VALUE ||
	      s->fwd.addr->len != (s->fwd.family == NFPROTO_IPV6 ? 128 : 32) ||
	      (s->fwd.family != NFPROTO_IPV4 && s->fwd.family != NFPROTO_IPV6)))) {
		stmt_free(s);
		k->unsupported(k, fwd ? "fwd" : "dup");
		return;
	}
	k->add_stmt(k, s);
}

static void fwd_delinearize(struct kind_delin *k, const struct nftnl_expr *nle)
{
	dupfwd_delinearize(k, nle, true);
}

static void dup_delinearize(struct kind_delin *k, const struct nftnl_expr *nle)
{
	dupfwd_delinearize(k, nle, false);
}

static void dup_print(struct kind_print *k, const struct stmt *s)
{
	fprintf(k->f, "dup to ");
	if (s->fwd.addr) {
		k->value(k, s->fwd.addr, addr_type(s->fwd.family), BYTEORDER_BIG);
		if (!s->fwd.dev)
			return;
		fprintf(k->f, " device ");
	}
	k->value(k, s->fwd.dev, &ifindex_type, BYTEORDER_HOST);
}

static void fwd_print(struct kind_print *k, const struct stmt *s)
{
	fprintf(k->f, "fwd ");
	if (s->fwd.addr) {
		bool ip6 = s->fwd.family == NFPROTO_IPV6;

		fprintf(k->f, "%s to ", ip6 ? "ip6" : "ip");
		k->value(k, s->fwd.addr, addr_type(s->fwd.family), BYTEORDER_BIG);
		fprintf(k->f, " device ");
	} else {
		fprintf(k->f, "to ");
	}
	k->value(k, s->fwd.dev, &ifindex_type, BYTEORDER_HOST);
}

static json_t *fwd_json(struct kind_json *k, const struct stmt *s)
{
	json_t *o = kind_json_wrap("dev", k->value(k, s->fwd.dev, &ifindex_type,
						   BYTEORDER_HOST));

	if (s->fwd.addr) {
		bool ip6 = s->fwd.family == NFPROTO_IPV6;

		o = kind_json_set(o, "family", json_string(ip6 ? "ip6" : "ip"));
		o = kind_json_set(o, "addr", k->value(k, s->fwd.addr,
			addr_type(s->fwd.family), BYTEORDER_BIG));
	}
	return kind_json_wrap("fwd", o);
}

/* nft writes the device of a netdev dup as its "addr" */
static json_t *dup_json(struct kind_json *k, const struct stmt *s)
{
	json_t *o;

	if (!s->fwd.addr)
		return kind_json_wrap("dup", kind_json_wrap("addr",
			k->value(k, s->fwd.dev, &ifindex_type, BYTEORDER_HOST)));
	o = kind_json_wrap("addr", k->value(k, s->fwd.addr,
			addr_type(s->fwd.family), BYTEORDER_BIG));
	if (s->fwd.dev)
		o = kind_json_set(o, "dev", k->value(k, s->fwd.dev,
				&ifindex_type, BYTEORDER_HOST));
	return kind_json_wrap("dup", o);
}

static struct stmt *dupfwd_parse_json(struct kind_jparse *k, const char *key,
				      json_t *o, const struct location *loc)
{
	static const char *const keys[] = { "dev", "addr", "family", NULL };
	/* nft writes the device of a netdev dup as "addr", and reads both */
	json_t *dev = json_is_object(o) ? json_object_get(o, "dev") : NULL;
	json_t *addr = NULL;
	const char *family = NULL;
	struct stmt *s;
	struct expr *e, *a = NULL;

	if (!json_is_object(o) || k->check_keys(k, o, key, keys) < 0)
		return k->error(k, o, "%s: expected an object", key), NULL;
	if (!strcmp(key, "dup") && !dev) {
		/* the address, or in netdev the device: eval tells */
		dev = json_object_get(o, "addr");
	} else if (!strcmp(key, "dup")) {
		/* ip, ip6: dup to ADDR device DEV */
		addr = json_object_get(o, "addr");
	} else if ((addr = json_object_get(o, "addr"))) {
		/* fwd ip|ip6 to ADDR device DEV */
		family = k->get_str(k, o, "family", true);
		if (!family)
			return NULL;
		if (strcmp(family, "ip") && strcmp(family, "ip6"))
			return k->error(k, json_object_get(o, "family"),
					"fwd: \"family\" must be ip or ip6"), NULL;
	}
	if (!dev)
		return k->error(k, o, "%s: property \"dev\" is missing", key), NULL;
	if (addr && !(a = k->expr(k, addr)))
		return NULL;
	e = k->expr(k, dev);
	if (!e) {
		expr_free(a);
		return NULL;
	}
	s = stmt_alloc(loc, !strcmp(key, "fwd") ? STMT_FWD : STMT_DUP);
	s->fwd.dev = e;
	s->fwd.addr = a;
	if (a && family)	/* dup's is the table's, set by eval */
		s->fwd.family = strcmp(family, "ip6") ? NFPROTO_IPV4 : NFPROTO_IPV6;
	return s;
}

static void dupfwd_destroy(struct stmt *s)
{
	expr_free(s->fwd.dev);
	expr_free(s->fwd.addr);
}

static const struct stmt_ops fwd_ops = {
	.name		= "fwd",
	.nl_name	= "fwd",
	.kind		= STMT_FWD,
	.eval		= dev_eval,
	.linearize	= fwd_linearize,
	.delinearize	= fwd_delinearize,
	.print		= fwd_print,
	.json		= fwd_json,
	.parse_json	= dupfwd_parse_json,
	.destroy	= dupfwd_destroy,
};
STMT_OPS_REGISTER(fwd_ops);

static const struct stmt_ops dup_ops = {
	.name		= "dup",
	.nl_name	= "dup",
	.kind		= STMT_DUP,
	.eval		= dup_eval,
	.linearize	= dup_linearize,
	.delinearize	= dup_delinearize,
	.print		= dup_print,
	.json		= dup_json,
	.parse_json	= dupfwd_parse_json,
	.destroy	= dupfwd_destroy,
};
STMT_OPS_REGISTER(dup_ops);
