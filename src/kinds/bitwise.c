// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bitwise of two registers: "meta mark set ct mark & 0xffff0000 | meta
 * mark & 0xffff", where the right side of &, | or ^ is a value of the
 * packet too (nft 1.2).  Linux 6.13's bitwise takes it as a second
 * source register: ops NFT_BITWISE_AND 3, OR 4, XOR 5 and the attribute
 * NFTA_BITWISE_SREG2 8 (uapi nf_tables.h); "dreg = sreg OP sreg2" on
 * len bytes, without mask, xor or data.
 *
 * libnftnl 1.2.4 has neither.  In nfh's libnftnl rules such a bitwise
 * is a carrier: its op attribute holds the kernel's op and the second
 * register above bits no op uses (include/bitwise.h).  At the wire it is
 * the kernel's expression again, both ways, as src/kinds/inner.c does
 * for the inner expression, through whose rule copy it goes.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>
#include <libmnl/libmnl.h>
#include <libnftnl/expr.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nf_tables.h>

#include <bitwise.h>

/* the kernel's (uapi nf_tables.h, Linux 6.13), which Debian 12's and
   libnftnl 1.2.4's headers lack */
enum {
	BITWISE_AND	= 3,	/* NFT_BITWISE_AND */
	BITWISE_OR	= 4,	/* NFT_BITWISE_OR */
	BITWISE_XOR	= 5,	/* NFT_BITWISE_XOR */
};
#define ATTR_BITWISE_SREG2	8	/* NFTA_BITWISE_SREG2 */

/* the carrier's op: the kernel's op, the second register, this bit */
#define CARRIER			0x80000000u
#define CARRIER_OP(v)		((v) & 0xff)
#define CARRIER_SREG2(v)	(((v) >> 8) & 0xff)

static uint32_t kernel_op(enum ops op)
{
	switch (op) {
	case OP_AND:	return BITWISE_AND;
	case OP_OR:	return BITWISE_OR;
	default:	return BITWISE_XOR;
	}
}

void bitwise_pair_put(struct nftnl_expr *x, enum ops op, uint32_t sreg,
		      uint32_t sreg2, uint32_t dreg, unsigned int len)
{
	nftnl_expr_set_u32(x, NFTNL_EXPR_BITWISE_SREG, sreg);
	nftnl_expr_set_u32(x, NFTNL_EXPR_BITWISE_DREG, dreg);
	nftnl_expr_set_u32(x, NFTNL_EXPR_BITWISE_OP,
			   CARRIER | sreg2 << 8 | kernel_op(op));
	nftnl_expr_set_u32(x, NFTNL_EXPR_BITWISE_LEN, len);
}

bool bitwise_pair_get(const struct nftnl_expr *x, enum ops *op,
		      uint32_t *sreg2)
{
	uint32_t v;

	if (!nftnl_expr_is_set(x, NFTNL_EXPR_BITWISE_OP))
		return false;
	v = nftnl_expr_get_u32(x, NFTNL_EXPR_BITWISE_OP);
	if (!(v & CARRIER))
		return false;
	switch (CARRIER_OP(v)) {
	case BITWISE_AND:	*op = OP_AND; break;
	case BITWISE_OR:	*op = OP_OR; break;
	case BITWISE_XOR:	*op = OP_XOR; break;
	default:		return false;
	}
	*sreg2 = CARRIER_SREG2(v);
	return true;
}

bool bitwise_carrier(struct nftnl_expr *x)
{
	const char *name = nftnl_expr_get_str(x, NFTNL_EXPR_NAME);

	return name && !strcmp(name, "bitwise") &&
	       nftnl_expr_is_set(x, NFTNL_EXPR_BITWISE_OP) &&
	       (nftnl_expr_get_u32(x, NFTNL_EXPR_BITWISE_OP) & CARRIER);
}

/* libnftnl 1.3's words for it: "reg 1 = ( reg 1 | reg 2 )" */
void bitwise_carrier_debug(FILE *f, struct nftnl_expr *x)
{
	uint32_t v = nftnl_expr_get_u32(x, NFTNL_EXPR_BITWISE_OP);
	static const char *const sym[] = {
		[BITWISE_AND] = "&", [BITWISE_OR] = "|", [BITWISE_XOR] = "^",
	};

	fprintf(f, "  [ bitwise reg %u = ( reg %u %s reg %u ) ]\n",
		nftnl_expr_get_u32(x, NFTNL_EXPR_BITWISE_DREG),
		nftnl_expr_get_u32(x, NFTNL_EXPR_BITWISE_SREG),
		CARRIER_OP(v) <= BITWISE_XOR && sym[CARRIER_OP(v)] ?
		sym[CARRIER_OP(v)] : "?", CARRIER_SREG2(v));
}

/* the name and data of the expression @elem, a list element */
void expr_elem_parts(const struct nlattr *elem, const char **name,
		     const struct nlattr **data)
{
	const struct nlattr *a;

	*name = "";
	*data = NULL;
	mnl_attr_for_each_nested(a, elem) {
		if (mnl_attr_get_type(a) == NFTA_EXPR_NAME &&
		    !mnl_attr_validate(a, MNL_TYPE_NUL_STRING))
			*name = mnl_attr_get_str(a);
		else if (mnl_attr_get_type(a) == NFTA_EXPR_DATA)
			*data = a;
	}
}

static bool u32_of(const struct nlattr *data, uint16_t type, uint32_t *v)
{
	const struct nlattr *a;

	mnl_attr_for_each_nested(a, data)
		if (mnl_attr_get_type(a) == type &&
		    !mnl_attr_validate(a, MNL_TYPE_U32)) {
			*v = ntohl(mnl_attr_get_u32(a));
			return true;
		}
	return false;
}

/*
 * @elem as a list element of @nlh: a carrier as the kernel's bitwise
 * (out), or the kernel's bitwise of two registers as a carrier (in);
 * false where it is neither, for the caller to copy as it is
 */
static bool elem_conv(struct nlmsghdr *nlh, const struct nlattr *elem,
		      bool out)
{
	const struct nlattr *data, *a;
	uint32_t op, sreg2 = 0;
	struct nlattr *e, *d;
	const char *name;

	expr_elem_parts(elem, &name, &data);
	if (!data || strcmp(name, "bitwise") ||
	    !u32_of(data, NFTA_BITWISE_OP, &op))
		return false;
	if (out && !(op & CARRIER))
		return false;
	if (!out && (op < BITWISE_AND || op > BITWISE_XOR ||
		     !u32_of(data, ATTR_BITWISE_SREG2, &sreg2) ||
		     sreg2 > 0xff))
		return false;
	e = mnl_attr_nest_start(nlh, NFTA_LIST_ELEM);
	mnl_attr_put_strz(nlh, NFTA_EXPR_NAME, name);
	d = mnl_attr_nest_start(nlh, NFTA_EXPR_DATA);
	mnl_attr_for_each_nested(a, data) {
		uint16_t t = mnl_attr_get_type(a);

		if (t == NFTA_BITWISE_OP)
			mnl_attr_put_u32(nlh, t, htonl(out ? CARRIER_OP(op) :
						       CARRIER | sreg2 << 8 | op));
		else if (t != ATTR_BITWISE_SREG2)
			mnl_attr_put(nlh, t, mnl_attr_get_payload_len(a),
				     mnl_attr_get_payload(a));
		if (out && t == NFTA_BITWISE_SREG)
			mnl_attr_put_u32(nlh, ATTR_BITWISE_SREG2,
					 htonl(CARRIER_SREG2(op)));
	}
	mnl_attr_nest_end(nlh, d);
	mnl_attr_nest_end(nlh, e);
	return true;
}

bool bitwise_elem_out(struct nlmsghdr *nlh, const struct nlattr *elem)
{
	return elem_conv(nlh, elem, true);
}

bool bitwise_elem_in(struct nlmsghdr *nlh, const struct nlattr *elem)
{
	return elem_conv(nlh, elem, false);
}

bool bitwise_pair_in_rule(const struct nlmsghdr *nlh)
{
	const struct nlattr *a, *l, *data;
	const char *name;
	uint32_t v;

	if (nlh->nlmsg_len < MNL_NLMSG_HDRLEN + sizeof(struct nfgenmsg))
		return false;
	mnl_attr_for_each(a, nlh, sizeof(struct nfgenmsg)) {
		if (mnl_attr_get_type(a) != NFTA_RULE_EXPRESSIONS)
			continue;
		mnl_attr_for_each_nested(l, a) {
			expr_elem_parts(l, &name, &data);
			if (data && !strcmp(name, "bitwise") &&
			    u32_of(data, ATTR_BITWISE_SREG2, &v))
				return true;
		}
	}
	return false;
}
