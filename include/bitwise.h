/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFH_BITWISE_H
#define NFH_BITWISE_H

/*
 * The kernel's bitwise of two registers (Linux 6.13: "dreg = sreg OP
 * sreg2"), for &, | and ^ whose right side is a value of the packet too
 * ("meta mark set ct mark | meta mark").  libnftnl 1.2.4 has no such
 * bitwise: in nfh's libnftnl rules a carrier stands for it, its op
 * attribute holding the kernel's op and the second register, and at the
 * wire it is the kernel's expression again (src/kinds/bitwise.c).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <expr.h>

struct nlattr;
struct nlmsghdr;
struct nftnl_expr;

/* @x, a new bitwise, as "@dreg = @sreg @op @sreg2" on @len bytes */
void bitwise_pair_put(struct nftnl_expr *x, enum ops op, uint32_t sreg,
		      uint32_t sreg2, uint32_t dreg, unsigned int len);
/* of @x, a bitwise: whether it is a carrier, then its op and sreg2 */
bool bitwise_pair_get(const struct nftnl_expr *x, enum ops *op,
		      uint32_t *sreg2);
/* @x is a carrier (any expression may be asked) */
bool bitwise_carrier(struct nftnl_expr *x);
/* @x, a carrier, on a line of --debug=netlink's output */
void bitwise_carrier_debug(FILE *f, struct nftnl_expr *x);
/* the list element @elem into @nlh, converted: a carrier as the
   kernel's bitwise (out), the kernel's as a carrier (in); false, and
   nothing written, where @elem is no such expression */
bool bitwise_elem_out(struct nlmsghdr *nlh, const struct nlattr *elem);
bool bitwise_elem_in(struct nlmsghdr *nlh, const struct nlattr *elem);
/* the rule message @nlh, as sent, holds the kernel's bitwise of two
   registers (a kernel before 6.13 refuses its op with EOPNOTSUPP) */
bool bitwise_pair_in_rule(const struct nlmsghdr *nlh);
/* the name and data of the expression @elem, an element of a rule's
   expression list (also inner.c's, whose carrier calls these) */
void expr_elem_parts(const struct nlattr *elem, const char **name,
		     const struct nlattr **data);

#endif
