// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * snat, dnat, masquerade, redirect: the kernel's "nat", "masq" and
 * "redir" expressions.  The address (a value, a range, a prefix, or a
 * map, whose values may be address . port) and the port (a value, a
 * range, or a map) go into registers before it.  STMT_NAT stays in the
 * enum: the evaluator ends a rule at it, and the delinearizer's
 * postprocessing types its maps.  tproxy (src/kinds/tproxy.c) has the same
 * fields.
 */
#include <string.h>
#include <jansson.h>
#include <libnftnl/expr.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_nat.h>
#include <linux/netfilter/nf_tables.h>

#include <datatype.h>
#include <kind.h>
#include <proto.h>
#include <protoctx.h>
#include <rule.h>
#include <set.h>
#include <wire.h>

static const char *const nat_names[] = {
	[NFH_NAT_SNAT] = "snat", [NFH_NAT_DNAT] = "dnat",
	[NFH_NAT_MASQ] = "masquerade", [NFH_NAT_REDIR] = "redirect",
};

static const struct {
	uint32_t	flag;
	const char	*name;
} nat_flag_names[] = {
	{ NF_NAT_RANGE_PROTO_RANDOM, "random" },
	{ NF_NAT_RANGE_PROTO_RANDOM_FULLY, "fully-random" },
	{ NF_NAT_RANGE_PERSISTENT, "persistent" },
};

/* --- evaluation ---------------------------------------------------------- */

/* nat works in the ip, ip6 and inet families only */
static bool nat_family_ok(struct kind_eval *k, const struct stmt *s)
{
	if (k->family == NFPROTO_IPV4 || k->family == NFPROTO_IPV6 ||
	    k->family == NFPROTO_INET)
		return true;
	error_queue(k->msgs, &s->loc, "nat is not supported in family %s",
		    k->family_name);
	return false;
}

/* "a port needs a transport protocol match", at @e, with the statement's
   keyword marked as the one that wants it (as nft marks it) */
static int nat_port_error(struct kind_eval *k, const struct stmt *s,
			  const struct expr *e)
{
	struct location kw = s->loc;

	kw.last_line = kw.first_line;
	kw.last_col = kw.first_col + strlen(nat_names[s->nat.type]) - 1;
	return error_queue2(k->msgs, &e->loc, &kw,
			    "a port needs a transport protocol match before it, e.g. \"tcp dport 80\"");
}

/* the ports of a nat statement, once its address set the protocol */
static int nat_proto_eval(struct kind_eval *k, struct stmt *s)
{
	struct expr *lhs;
	int ret;
	bool map;

	if (!s->nat.proto)
		return 0;
	lhs = constant_expr_alloc(&internal_location, &inet_service_type,
				  BYTEORDER_BIG, 16, NULL);
	/* a match before the statement, or the address's map key ("dnat
	   to tcp dport map { ... } : ..."), names the transport protocol;
	   as in nft 1.0.6 any one will do (icmp too: the kernel maps its id) */
	if (!proto_ctx_th_known(k->pctx)) {
		expr_free(lhs);
		return nat_port_error(k, s, s->nat.proto);
	}
	/* "dnat to ... : tcp dport map { 80 : 8080 }" */
	map = s->nat.proto->kind == EXPR_MAP;
	if (map)
		ret = k->map(k, s->nat.proto, lhs);
	else
		ret = k->rhs(k, lhs, &s->nat.proto);
	expr_free(lhs);
	if (ret < 0)
		return -1;
	if (s->nat.proto->kind != EXPR_VALUE &&
	    s->nat.proto->kind != EXPR_RANGE && !map)
		return error_queue(k->msgs, &s->nat.proto->loc,
				   "a port or a port range is expected here");
	return 0;
}

/* "dnat to ip saddr . tcp dport map { ... : 1.2.3.4 . 80 }": a map whose
   values are address . port concatenations sets both */
static bool nat_map_gives_port(struct kind_eval *k, const struct expr *m)
{
	const struct expr *r = m->op.right, *i;

	if (r->kind == EXPR_SET_REF) {
		const struct set *set = k->set_lookup(k, r->setref.name);

		return set && set->data && set->data->kind == EXPR_CONCAT;
	}
	if (r->kind != EXPR_SET)
		return false;
	list_for_each_entry(i, &r->set.exprs, list)
		if (i->kind == EXPR_MAPPING && i->op.right->kind == EXPR_CONCAT)
			return true;
	return false;
}

/* "dnat to ip daddr map { 1.1.1.1 : 2.2.2.2-2.2.2.5 }", and a map
   declared "type K : interval V": each value is a range */
static bool nat_map_interval(const struct expr *m)
{
	const struct expr *r = m->op.right, *i;

	if (r->kind == EXPR_SET_REF)
		return r->setref.set && r->setref.set->data &&
		       (r->setref.set->data->flags & EXPR_F_DATA_INTERVAL);
	if (r->kind != EXPR_SET)
		return false;
	list_for_each_entry(i, &r->set.exprs, list)
		if (i->kind == EXPR_MAPPING && elem_is_interval(i->op.right))
			return true;
	return false;
}

/* as nft: an ip table's nat after "ether type ip6" (or a set of ether
   types whose last is ip6, from which nft takes it) is refused */
static int nat_l3_conflict(struct kind_eval *k, const struct stmt *s)
{
	unsigned int fam = s->nat.family ? s->nat.family : k->family;
	const struct proto_desc *want = fam == NFPROTO_IPV4 ? &proto_ip :
					fam == NFPROTO_IPV6 ? &proto_ip6 : NULL;
	const struct proto_desc *nh = k->pctx->desc[PROTO_BASE_NETWORK_HDR];
	const struct proto_desc *sd = k->pctx->set_desc[PROTO_BASE_NETWORK_HDR];

	if (!want)
		return 0;
	if ((nh == &proto_ip || nh == &proto_ip6) && nh != want)
		return error_queue(k->msgs, &s->loc,
				   "conflicting protocols specified: %s vs. %s. You must specify ip or ip6 family in nat statement",
				   nh->name, want->name);
	if ((sd == &proto_ip || sd == &proto_ip6) && sd != want)
		return error_queue2(k->msgs, &s->loc,
				    k->pctx->set_loc[PROTO_BASE_NETWORK_HDR],
				    "conflicting protocols specified: %s vs. %s (nft takes the protocol from the set's last element, %s). You must specify ip or ip6 family in nat statement",
				    sd->name, want->name, sd->name);
	return 0;
}

/* the address family of the statement, as it names it ("snat ip to") or
   as an earlier match of an inet rule implies it */
static int nat_addr_family(struct kind_eval *k, struct stmt *s)
{
	const struct proto_desc *nh = k->pctx->desc[PROTO_BASE_NETWORK_HDR];

	if (s->nat.family) {
		const struct proto_desc *want = s->nat.family == NFPROTO_IPV4 ?
						&proto_ip : &proto_ip6;

		if ((k->family == NFPROTO_IPV4 || k->family == NFPROTO_IPV6) &&
		    k->family != s->nat.family)
			return error_queue(k->msgs, &s->loc,
					   "nat %s is not valid in family %s",
					   want->name, k->family_name);
		/* nft adds no "meta nfproto" for it, but refuses a conflict */
		if (k->family == NFPROTO_INET &&
		    k->proto_need(k, &(struct expr){ .loc = s->loc },
				  PROTO_BASE_NETWORK_HDR, want) < 0)
			return -1;
	} else if (k->family == NFPROTO_INET) {
		/* or from the last element of a set, as nft takes it */
		if (nh != &proto_ip && nh != &proto_ip6)
			nh = k->pctx->set_desc[PROTO_BASE_NETWORK_HDR];
		if (nh != &proto_ip && nh != &proto_ip6)
			return error_queue(k->msgs, &s->loc,
					   "nat to an address in the inet family needs the address family: snat ip to ..., dnat ip6 to ...");
		s->nat.family = nh == &proto_ip ? NFPROTO_IPV4 : NFPROTO_IPV6;
	}
	return nat_l3_conflict(k, s);
}

/* as nft: "snat to 10.0.0.0/24" is the range of the prefix's addresses,
   10.0.0.0-10.0.0.255 (host bits ignored) */
static void nat_prefix_range(struct stmt *s, const struct datatype *dt)
{
	struct expr *p = s->nat.addr;
	uint8_t lo[NFH_VAL_MAXLEN] = { 0 }, hi[NFH_VAL_MAXLEN] = { 0 };

	prefix_bounds(p, lo, hi);
	s->nat.addr = range_expr_alloc(&p->loc,
		constant_expr_alloc(&p->loc, dt, BYTEORDER_BIG, dt->size, lo),
		constant_expr_alloc(&p->loc, dt, BYTEORDER_BIG, dt->size, hi));
	expr_free(p);
}

static int nat_eval(struct kind_eval *k, struct stmt *s)
{
	const struct datatype *dt;
	struct expr *lhs;
	int ret;

	if (!nat_family_ok(k, s))
		return -1;
	if (!s->nat.addr) {
		/* "dnat to :80": nft sends the table's family */
		if (!s->nat.family)
			s->nat.family = k->family;
		return nat_proto_eval(k, s);
	}
	if (nat_addr_family(k, s) < 0)
		return -1;
	dt = (s->nat.family ? s->nat.family : k->family) == NFPROTO_IPV4 ?
	     &ipaddr_type : &ip6addr_type;
	s->nat.concat = s->nat.addr->kind == EXPR_MAP && !s->nat.proto &&
			nat_map_gives_port(k, s->nat.addr);
	if (s->nat.concat)
		lhs = stmt_nat_concat_type(dt == &ip6addr_type ? NFPROTO_IPV6 :
								 NFPROTO_IPV4);
	else
		lhs = constant_expr_alloc(&internal_location, dt, BYTEORDER_BIG,
					  dt->size, NULL);
	/* "dnat to tcp dport map { 80 : 10.0.0.1 }", whose values may be
	   ranges */
	if (s->nat.addr->kind == EXPR_MAP)
		ret = k->map_ranges(k, s->nat.addr, lhs);
	else
		ret = k->rhs(k, lhs, &s->nat.addr);
	expr_free(lhs);
	/* "dnat ip addr . port to ...": a map that gives both */
	if (ret == 0 && s->nat.addr_port && !s->nat.concat)
		return error_queue(k->msgs, &s->nat.addr->loc,
				   "addr . port needs a map whose values are address . port, e.g. { 10.0.0.1 : 192.168.1.1 . 80 }");
	/* as for a port: the map's key or a match before names the protocol */
	if (ret == 0 && s->nat.concat &&
	    !k->pctx->desc[PROTO_BASE_TRANSPORT_HDR])
		return nat_port_error(k, s, s->nat.addr);
	if (ret == 0 && s->nat.addr->kind == EXPR_PREFIX)
		nat_prefix_range(s, dt);
	if (ret == 0 && s->nat.addr->kind != EXPR_VALUE &&
	    s->nat.addr->kind != EXPR_RANGE && s->nat.addr->kind != EXPR_MAP)
		return error_queue(k->msgs, &s->nat.addr->loc,
				   "nat address must be an address, a range or a map to addresses");
	if (ret < 0)
		return -1;
	if (!s->nat.family)
		s->nat.family = k->family;
	if (s->nat.addr->kind == EXPR_MAP)
		s->nat.interval = nat_map_interval(s->nat.addr);
	return nat_proto_eval(k, s);
}

/* --- linearization ------------------------------------------------------- */

/*
 * The registers of a map's values that are ranges, as nft numbers them:
 * the low address in register 1, then the low port, the high address and
 * the high port in the registers that follow, counted in 32-bit registers
 * for ip and in 128-bit ones for ip6 (so the kernel refuses ip6 address
 * . port ranges, as it does nft's)
 */
static uint32_t nat_interval_reg(const struct stmt *s, unsigned int i)
{
	if (s->nat.family == NFPROTO_IPV6 || i == 0)
		return NFT_REG_1 + i;
	return NFT_REG32_00 + i;
}

/* the registers of the address and port, as nft numbers them */
struct nat_regs {
	uint32_t	amin, amax, pmin, pmax;
};

static int nat_load(struct kind_lin *k, const struct stmt *s,
		    struct nat_regs *r)
{
	uint32_t reg = NFT_REG_1;

	if (s->nat.addr) {
		const struct expr *lo = s->nat.addr, *hi = NULL;

		if (lo->kind == EXPR_RANGE) {
			hi = lo->range.right;
			lo = lo->range.left;
		}
		if (s->nat.interval) {
			struct expr *data = s->nat.concat ?
				stmt_nat_concat_type(s->nat.family) : NULL;

			if (k->reg_value_as(k, r->amin = nat_interval_reg(s, 0),
					    lo, data) < 0)
				return -1;
			if (s->nat.concat) {
				r->pmin = nat_interval_reg(s, 1);
				r->amax = nat_interval_reg(s, 2);
				r->pmax = nat_interval_reg(s, 3);
			} else {
				r->amax = nat_interval_reg(s, 1);
			}
			reg = nat_interval_reg(s, s->nat.concat ? 4 : 2);
		} else if (s->nat.concat) {
			/* the map gives address . port: the port's register
			   follows the address's, as nft numbers them */
			struct expr *data = stmt_nat_concat_type(s->nat.family);
			unsigned int words = s->nat.family == NFPROTO_IPV6 ? 4 : 1;

			if (k->reg_value_as(k, r->amin = reg++, lo, data) < 0)
				return -1;
			r->pmin = reg_of_slot((r->amin - NFT_REG_1) * 4 + words);
		} else if (k->reg_value(k, r->amin = reg++, lo) < 0) {
			return -1;
		}
		if (hi)
			k->immediate(k, r->amax = reg++, hi, BYTEORDER_BIG);
	}
	if (s->nat.proto) {
		const struct expr *lo = s->nat.proto, *hi = NULL;

		if (lo->kind == EXPR_RANGE) {
			hi = lo->range.right;
			lo = lo->range.left;
		}
		if (k->reg_value(k, r->pmin = reg++, lo) < 0)
			return -1;
		if (hi)
			k->immediate(k, r->pmax = reg++, hi, BYTEORDER_BIG);
	}
	return 0;
}

static int nat_linearize(struct kind_lin *k, const struct stmt *s)
{
	struct nat_regs r = { 0 };
	uint32_t flags = s->nat.flags;
	struct nftnl_expr *e;

	if (nat_load(k, s, &r) < 0)
		return -1;
	if (s->nat.proto)
		flags |= NF_NAT_RANGE_PROTO_SPECIFIED;
	if (s->nat.type == NFH_NAT_MASQ || s->nat.type == NFH_NAT_REDIR) {
		bool masq = s->nat.type == NFH_NAT_MASQ;

		e = k->add(k, masq ? "masq" : "redir");
		if (r.pmin)
			nftnl_expr_set_u32(e, masq ? NFTNL_EXPR_MASQ_REG_PROTO_MIN :
					   NFTNL_EXPR_REDIR_REG_PROTO_MIN, r.pmin);
		if (r.pmax)
			nftnl_expr_set_u32(e, masq ? NFTNL_EXPR_MASQ_REG_PROTO_MAX :
					   NFTNL_EXPR_REDIR_REG_PROTO_MAX, r.pmax);
		if (flags)
			nftnl_expr_set_u32(e, masq ? NFTNL_EXPR_MASQ_FLAGS :
					   NFTNL_EXPR_REDIR_FLAGS, flags);
		return 0;
	}
	e = k->add(k, "nat");
	nftnl_expr_set_u32(e, NFTNL_EXPR_NAT_TYPE,
			   s->nat.type == NFH_NAT_SNAT ? NFT_NAT_SNAT : NFT_NAT_DNAT);
	nftnl_expr_set_u32(e, NFTNL_EXPR_NAT_FAMILY, s->nat.family);
	if (r.amin)
		nftnl_expr_set_u32(e, NFTNL_EXPR_NAT_REG_ADDR_MIN, r.amin);
	if (r.amax)
		nftnl_expr_set_u32(e, NFTNL_EXPR_NAT_REG_ADDR_MAX, r.amax);
	if (r.pmin)
		nftnl_expr_set_u32(e, NFTNL_EXPR_NAT_REG_PROTO_MIN, r.pmin);
	if (r.pmax)
		nftnl_expr_set_u32(e, NFTNL_EXPR_NAT_REG_PROTO_MAX, r.pmax);
	if (flags)
		nftnl_expr_set_u32(e, NFTNL_EXPR_NAT_FLAGS, flags);
	return 0;
}

/* --- delinearization ----------------------------------------------------- */

/* a nat whose port register follows its address's, both from one map
   @m as wide as both (in ip6 a port of its own, from an immediate, is in
   the register that follows too: "dnat to ip6 saddr map { ... } : 80") */
static bool nat_regs_give_port(const struct stmt *s, const struct expr *m,
			       const struct nftnl_expr *e)
{
	unsigned int words = s->nat.family == NFPROTO_IPV6 ? 4 : 1;
	uint32_t amin, pmin;

	/* the kernel names each min register as its max when none was */
	if (!nftnl_expr_is_set(e, NFTNL_EXPR_NAT_REG_PROTO_MIN) ||
	    (nftnl_expr_is_set(e, NFTNL_EXPR_NAT_REG_PROTO_MAX) &&
	     nftnl_expr_get_u32(e, NFTNL_EXPR_NAT_REG_PROTO_MAX) !=
	     nftnl_expr_get_u32(e, NFTNL_EXPR_NAT_REG_PROTO_MIN)))
		return false;
	if (nftnl_expr_is_set(e, NFTNL_EXPR_NAT_REG_ADDR_MAX) &&
	    nftnl_expr_get_u32(e, NFTNL_EXPR_NAT_REG_ADDR_MAX) !=
	    nftnl_expr_get_u32(e, NFTNL_EXPR_NAT_REG_ADDR_MIN))
		return false;
	if (m->len && m->len <= words * 32)
		return false;
	amin = reg_index(nftnl_expr_get_u32(e, NFTNL_EXPR_NAT_REG_ADDR_MIN));
	pmin = reg_index(nftnl_expr_get_u32(e, NFTNL_EXPR_NAT_REG_PROTO_MIN));
	return amin && pmin == amin + words;
}

/* a nat whose address (and port) ranges come from one map, in the
   registers nat_interval_reg() numbers */
static bool nat_regs_interval(const struct stmt *s, const struct nftnl_expr *e)
{
	bool port = nftnl_expr_is_set(e, NFTNL_EXPR_NAT_REG_PROTO_MIN);

	if (nftnl_expr_get_u32(e, NFTNL_EXPR_NAT_REG_ADDR_MIN) !=
	    nat_interval_reg(s, 0) ||
	    !nftnl_expr_is_set(e, NFTNL_EXPR_NAT_REG_ADDR_MAX) ||
	    nftnl_expr_get_u32(e, NFTNL_EXPR_NAT_REG_ADDR_MAX) !=
	    nat_interval_reg(s, port ? 2 : 1))
		return false;
	return !port ||
	       (nftnl_expr_get_u32(e, NFTNL_EXPR_NAT_REG_PROTO_MIN) ==
		nat_interval_reg(s, 1) &&
		nftnl_expr_is_set(e, NFTNL_EXPR_NAT_REG_PROTO_MAX) &&
		nftnl_expr_get_u32(e, NFTNL_EXPR_NAT_REG_PROTO_MAX) ==
		nat_interval_reg(s, 3));
}

/* a nat statement's port range and flags */
static void nat_ports(struct kind_delin *k, struct stmt *s,
		      const struct nftnl_expr *e, uint16_t amin,
		      uint16_t amax, uint16_t aflags)
{
	struct expr *lo = NULL, *hi = NULL;

	if (nftnl_expr_is_set(e, amin))
		lo = k->reg_get(k, nftnl_expr_get_u32(e, amin));
	if (nftnl_expr_is_set(e, amax) &&
	    (!lo || nftnl_expr_get_u32(e, amax) != nftnl_expr_get_u32(e, amin)))
		hi = k->reg_get(k, nftnl_expr_get_u32(e, amax));
	if (lo && hi)
		s->nat.proto = range_expr_alloc(&internal_location, lo, hi);
	else
		s->nat.proto = lo ? lo : hi;
	if (nftnl_expr_is_set(e, aflags))
		s->nat.flags = nftnl_expr_get_u32(e, aflags) &
			       ~(NF_NAT_RANGE_PROTO_SPECIFIED | NF_NAT_RANGE_MAP_IPS);
}

/* a nat whose map @m gives the address range or address . port, both
   listed with the family, as nft lists them */
static void nat_map_add(struct kind_delin *k, struct stmt *s, struct expr *m,
			const struct nftnl_expr *e)
{
	s->nat.print_family = true;
	s->nat.addr = m;
	if (nftnl_expr_is_set(e, NFTNL_EXPR_NAT_FLAGS))
		s->nat.flags = nftnl_expr_get_u32(e, NFTNL_EXPR_NAT_FLAGS) &
			       ~(NF_NAT_RANGE_PROTO_SPECIFIED | NF_NAT_RANGE_MAP_IPS);
	k->add_stmt(k, s);
}

/* "masq", "redir": the ports and flags only */
static void masq_redir_delinearize(struct kind_delin *k,
				   const struct nftnl_expr *e, bool masq)
{
	struct stmt *s = stmt_alloc(&internal_location, STMT_NAT);

	s->nat.type = masq ? NFH_NAT_MASQ : NFH_NAT_REDIR;
	nat_ports(k, s, e, masq ? NFTNL_EXPR_MASQ_REG_PROTO_MIN :
				  NFTNL_EXPR_REDIR_REG_PROTO_MIN,
		  masq ? NFTNL_EXPR_MASQ_REG_PROTO_MAX :
			 NFTNL_EXPR_REDIR_REG_PROTO_MAX,
		  masq ? NFTNL_EXPR_MASQ_FLAGS : NFTNL_EXPR_REDIR_FLAGS);
	k->add_stmt(k, s);
}

static void nat_delinearize(struct kind_delin *k, const struct nftnl_expr *e)
{
	const char *name = nftnl_expr_get_str(e, NFTNL_EXPR_NAME);
	struct expr *lo, *hi = NULL;
	struct stmt *s;

	if (strcmp(name, "nat")) {
		masq_redir_delinearize(k, e, name[0] == 'm');
		return;
	}
	if (!nftnl_expr_is_set(e, NFTNL_EXPR_NAT_REG_ADDR_MIN) &&
	    !nftnl_expr_is_set(e, NFTNL_EXPR_NAT_REG_PROTO_MIN)) {
		k->unsupported(k, name);
		return;
	}
	s = stmt_alloc(&internal_location, STMT_NAT);
	s->nat.type = nftnl_expr_get_u32(e, NFTNL_EXPR_NAT_TYPE) == NFT_NAT_SNAT ?
		      NFH_NAT_SNAT : NFH_NAT_DNAT;
	s->nat.family = nftnl_expr_get_u32(e, NFTNL_EXPR_NAT_FAMILY);
	s->nat.print_family = k->family == NFPROTO_INET;
	if (!nftnl_expr_is_set(e, NFTNL_EXPR_NAT_REG_ADDR_MIN)) {
		/* "dnat to :80" */
		nat_ports(k, s, e, NFTNL_EXPR_NAT_REG_PROTO_MIN,
			  NFTNL_EXPR_NAT_REG_PROTO_MAX, NFTNL_EXPR_NAT_FLAGS);
		k->add_stmt(k, s);
		return;
	}
	lo = k->reg_get(k, nftnl_expr_get_u32(e, NFTNL_EXPR_NAT_REG_ADDR_MIN));
	if (lo && lo->kind == EXPR_MAP && nat_regs_interval(s, e)) {
		/* "dnat ip to ip daddr map { 1.1.1.1 : 2.2.2.2-2.2.2.5 }" */
		s->nat.interval = true;
		s->nat.concat = nftnl_expr_is_set(e, NFTNL_EXPR_NAT_REG_PROTO_MIN);
		nat_map_add(k, s, lo, e);
		return;
	}
	if (lo && lo->kind == EXPR_MAP && nat_regs_give_port(s, lo, e)) {
		/* "dnat to ip saddr . tcp dport map { ... : 1.2.3.4 . 80 }" */
		s->nat.concat = true;
		nat_map_add(k, s, lo, e);
		return;
	}
	/* the kernel names the min register as max when none was */
	if (nftnl_expr_is_set(e, NFTNL_EXPR_NAT_REG_ADDR_MAX) &&
	    nftnl_expr_get_u32(e, NFTNL_EXPR_NAT_REG_ADDR_MAX) !=
	    nftnl_expr_get_u32(e, NFTNL_EXPR_NAT_REG_ADDR_MIN))
		hi = k->reg_get(k, nftnl_expr_get_u32(e, NFTNL_EXPR_NAT_REG_ADDR_MAX));
	if (lo && hi)
		s->nat.addr = range_expr_alloc(&internal_location, lo, hi);
	else
		s->nat.addr = lo ? lo : hi;
	nat_ports(k, s, e, NFTNL_EXPR_NAT_REG_PROTO_MIN,
		  NFTNL_EXPR_NAT_REG_PROTO_MAX, NFTNL_EXPR_NAT_FLAGS);
	k->add_stmt(k, s);
}

/* --- listing ------------------------------------------------------------- */

/*
 * A nat address range that covers a prefix lists as the prefix, as nft
 * lists it: 10.0.0.0-10.0.0.255 is 10.0.0.0/24, 10.0.0.1-10.0.0.1 is
 * 10.0.0.1/32, but for one before a port.
 */
static bool nat_range_prefix_print(struct kind_print *k, const struct expr *a,
				   const struct expr *port)
{
	unsigned int plen;

	/* not before a port: nft lists 10.0.0.0/24:80, which neither nft
	   nor nfh reads back; the range reads back */
	if (a->kind != EXPR_RANGE || port)
		return false;
	if (!expr_value_cmp(a->range.left, a->range.right))
		plen = expr_value_bytes(a->range.left) * 8;
	else if (!range_is_prefix(a, &plen))
		return false;
	k->expr(k, a->range.left);
	fprintf(k->f, "/%u", plen);
	return true;
}

static void nat_args_print(struct kind_print *k, const struct stmt *s)
{
	FILE *f = k->f;

	if (s->nat.addr && s->nat.print_family)
		fprintf(f, " %s", s->nat.family == NFPROTO_IPV6 ? "ip6" : "ip");
	/* "snat ip prefix to ...": the kernel maps the prefix (netmap) */
	if (s->kind == STMT_NAT && (s->nat.flags & NF_NAT_RANGE_NETMAP))
		fputs(" prefix", f);
	if (s->nat.addr) {
		const struct datatype *dt = s->nat.family == NFPROTO_IPV6 ?
					    &ip6addr_type : &ipaddr_type;
		struct expr *a = expr_clone(s->nat.addr);

		if (a->kind == EXPR_MAP) {
			/* typed by its map already */
		} else if (a->kind == EXPR_RANGE) {
			a->range.left->dtype = dt;
			a->range.right->dtype = dt;
		} else {
			a->dtype = dt;
		}
		fprintf(f, " to ");
		/* an ip6 address before a port goes in brackets */
		if (nat_range_prefix_print(k, a, s->nat.proto)) {
			/* 10.0.0.0/24 */
		} else if (s->nat.proto && a->kind == EXPR_RANGE) {
			/* as nft: [2001:db8::1]-[2001:db8::5]:80, and
			   10.0.0.1-10.0.0.1:80 where nft lists the range
			   as a prefix it cannot read back */
			bool b = dt == &ip6addr_type;

			fputs(b ? "[" : "", f);
			k->expr(k, a->range.left);
			fputs(b ? "]-[" : "-", f);
			k->expr(k, a->range.right);
			fputs(b ? "]" : "", f);
		} else if (s->nat.proto && dt == &ip6addr_type &&
			   a->kind == EXPR_VALUE) {
			fputc('[', f);
			k->expr(k, a);
			fputc(']', f);
		} else {
			k->expr(k, a);
		}
		expr_free(a);
	}
	if (s->nat.proto) {
		struct expr *p = expr_clone(s->nat.proto);

		if (p->kind == EXPR_MAP) {
			/* typed by its map already */
		} else if (p->kind == EXPR_RANGE) {
			p->range.left->dtype = &inet_service_type;
			p->range.right->dtype = &inet_service_type;
		} else {
			p->dtype = &inet_service_type;
		}
		fprintf(f, "%s:", s->nat.addr ? "" : " to ");
		k->expr(k, p);
		expr_free(p);
	}
}

static void nat_print(struct kind_print *k, const struct stmt *s)
{
	char sep = ' ';

	fprintf(k->f, "%s", nat_names[s->nat.type]);
	nat_args_print(k, s);
	for (unsigned int i = 0; i < array_size(nat_flag_names); i++)
		if (s->nat.flags & nat_flag_names[i].flag) {
			fprintf(k->f, "%c%s", sep, nat_flag_names[i].name);
			sep = ',';
		}
}

static json_t *nat_value_json(struct kind_json *k, const struct expr *e,
			      const struct datatype *dt)
{
	struct expr *a = expr_clone(e);
	json_t *v;

	if (a->kind == EXPR_RANGE) {
		bool same;
		unsigned int plen;

		a->range.left->dtype = dt;
		a->range.right->dtype = dt;
		same = a->range.left->kind == EXPR_VALUE &&
		       a->range.right->kind == EXPR_VALUE &&
		       !expr_value_cmp(a->range.left, a->range.right);
		/* as nft: an address range that covers a prefix is the prefix
		   (10.0.0.1-10.0.0.1 is 10.0.0.1/32) */
		if ((dt->flags & DTYPE_F_PREFIX) && a->range.left->kind == EXPR_VALUE &&
		    a->range.right->kind == EXPR_VALUE &&
		    (same || range_is_prefix(a, &plen))) {
			if (same)
				plen = expr_value_bytes(a->range.left) * 8;
			v = kind_json_wrap("prefix",
				kind_json_set(kind_json_set(json_object(), "addr",
							    k->expr(k, a->range.left)),
					      "len", json_integer(plen)));
		} else if (same) {
			v = k->expr(k, a->range.left);
		} else {
			v = k->expr(k, a);
		}
	} else {
		a->dtype = dt;
		v = k->expr(k, a);
	}
	expr_free(a);
	return v;
}

/* one name, or an array of them */
static json_t *nat_flags_json(uint32_t flags)
{
	json_t *a = json_array(), *one;

	for (unsigned int i = 0; i < array_size(nat_flag_names); i++)
		if (flags & nat_flag_names[i].flag)
			json_array_append_new(a, json_string(nat_flag_names[i].name));
	if (flags & NF_NAT_RANGE_NETMAP)
		json_array_append_new(a, json_string("netmap"));
	if (json_array_size(a) != 1)
		return a;
	one = json_incref(json_array_get(a, 0));
	json_decref(a);
	return one;
}

static json_t *nat_json(struct kind_json *k, const struct stmt *s)
{
	const struct datatype *dt = s->nat.family == NFPROTO_IPV6 ?
				    &ip6addr_type : &ipaddr_type;
	/* the kernel adds range bits of its own: only these are the user's */
	uint32_t flags = s->nat.flags & (NF_NAT_RANGE_PROTO_RANDOM |
					 NF_NAT_RANGE_PROTO_RANDOM_FULLY |
					 NF_NAT_RANGE_PERSISTENT |
					 NF_NAT_RANGE_NETMAP);
	json_t *o;

	if (!s->nat.addr && !s->nat.proto && !flags)
		return kind_json_wrap(nat_names[s->nat.type], json_null());
	o = json_object();
	/* nft names the family of a map that gives address . port too */
	if (s->nat.addr && (k->family == NFPROTO_INET || s->nat.concat ||
			    s->nat.interval))
		o = kind_json_set(o, "family",
				  json_string(family_name(s->nat.family)));
	if (s->nat.addr)
		o = kind_json_set(o, "addr", nat_value_json(k, s->nat.addr, dt));
	if (s->nat.proto)
		o = kind_json_set(o, "port", nat_value_json(k, s->nat.proto,
							    &inet_service_type));
	if (flags)
		o = kind_json_set(o, "flags", nat_flags_json(flags));
	/* as nft writes "snat ip prefix to" */
	if (flags & NF_NAT_RANGE_NETMAP)
		o = kind_json_set(o, "type_flags", json_string("prefix"));
	return kind_json_wrap(nat_names[s->nat.type], o);
}

/* --- JSON input ---------------------------------------------------------- */

static int nat_flags_parse_json(struct kind_jparse *k, json_t *v,
				uint32_t *flags)
{
	json_t *one = json_is_array(v) ? NULL : v, *f;
	size_t n;

	for (n = 0; one ? n < 1 : n < json_array_size(v); n++) {
		int flag;

		f = one ? one : json_array_get(v, n);
		flag = json_is_string(f) ? stmt_nat_flag(json_string_value(f)) : -1;
		/* what "prefix" makes, as nft lists it */
		if (json_is_string(f) && !strcmp(json_string_value(f), "netmap"))
			flag = NF_NAT_RANGE_NETMAP;
		if (flag < 0)
			return k->error(k, f, "unknown nat flag; expected random, fully-random or persistent");
		*flags |= flag;
	}
	return 0;
}

/* "prefix", or an array of such names */
static int nat_type_flags_parse_json(struct kind_jparse *k, json_t *v,
				     uint32_t *flags)
{
	json_t *one = json_is_array(v) ? NULL : v, *f;
	size_t n;

	for (n = 0; one ? n < 1 : n < json_array_size(v); n++) {
		f = one ? one : json_array_get(v, n);
		if (!json_is_string(f) || strcmp(json_string_value(f), "prefix"))
			return k->error(k, f, "unknown nat type flag; expected prefix");
		*flags |= NF_NAT_RANGE_NETMAP;
	}
	return 0;
}

/* "snat ip to ..." in inet tables */
static int nat_family_parse_json(struct kind_jparse *k, const char *key,
				 json_t *o, struct stmt *s)
{
	const char *fam = k->get_str(k, o, "family", false);

	if (!fam)
		return 0;
	if (!strcmp(fam, "ip"))
		s->nat.family = NFPROTO_IPV4;
	else if (!strcmp(fam, "ip6"))
		s->nat.family = NFPROTO_IPV6;
	else
		return k->error(k, json_object_get(o, "family"),
				"%s: family is ip or ip6, not \"%s\"", key, fam);
	return 0;
}

static struct stmt *nat_fields_parse_json(struct kind_jparse *k,
					  const char *key, json_t *o,
					  struct stmt *s)
{
	static const char *const keys[] = { "addr", "family", "port", "flags",
					    "type_flags", NULL };
	bool masq_redir = !strcmp(key, "masquerade") || !strcmp(key, "redirect");
	json_t *v;

	if (json_is_null(o) && masq_redir)
		return s;
	if (!json_is_object(o)) {
		k->error(k, o, "%s: expected an object", key);
		goto fail;
	}
	if (k->check_keys(k, o, key, keys) < 0)
		goto fail;
	if (nat_family_parse_json(k, key, o, s) < 0)
		goto fail;
	v = json_object_get(o, "addr");
	if (v && masq_redir) {
		k->error(k, v, "%s takes no address", key);
		goto fail;
	}
	/* "dnat to :80" has a port alone */
	if (!v && !masq_redir && !json_object_get(o, "port")) {
		k->error(k, o, "%s: property \"addr\" is missing", key);
		goto fail;
	}
	if (v && !(s->nat.addr = k->expr(k, v)))
		goto fail;
	v = json_object_get(o, "port");
	if (v && !(s->nat.proto = k->expr(k, v)))
		goto fail;
	v = json_object_get(o, "flags");
	if (v && nat_flags_parse_json(k, v, &s->nat.flags) < 0)
		goto fail;
	/* "snat ip prefix to": nft writes "type_flags": "prefix" */
	v = json_object_get(o, "type_flags");
	if (v && masq_redir) {
		k->error(k, v, "%s takes no type_flags", key);
		goto fail;
	}
	if (v && nat_type_flags_parse_json(k, v, &s->nat.flags) < 0)
		goto fail;
	return s;
fail:
	stmt_free(s);
	return NULL;
}

/* { "snat": { "addr": A, "family": F, "port": P, "flags": [ ... ] } } */
static struct stmt *nat_parse_json(struct kind_jparse *k, const char *key,
				   json_t *o, const struct location *loc)
{
	struct stmt *s = stmt_alloc(loc, STMT_NAT);

	for (unsigned int i = 0; i < array_size(nat_names); i++)
		if (!strcmp(key, nat_names[i]))
			s->nat.type = i;
	return nat_fields_parse_json(k, key, o, s);
}

static void nat_destroy(struct stmt *s)
{
	expr_free(s->nat.addr);
	expr_free(s->nat.proto);
	s->nat.addr = s->nat.proto = NULL;
}

static const char *const nat_json_names[] = {
	"dnat", "masquerade", "redirect", NULL,
};
static const char *const nat_nl_names[] = { "masq", "redir", NULL };

static const struct stmt_ops nat_ops = {
	.name		= "snat",
	.json_names	= nat_json_names,
	.nl_name	= "nat",
	.nl_names	= nat_nl_names,
	.kind		= STMT_NAT,
	/* the grammar's own rules and words offer the four */
	.not_offered	= true,
	.eval		= nat_eval,
	.linearize	= nat_linearize,
	.delinearize	= nat_delinearize,
	.print		= nat_print,
	.json		= nat_json,
	.parse_json	= nat_parse_json,
	.destroy	= nat_destroy,
};
STMT_OPS_REGISTER(nat_ops);
