/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFH_INNER_H
#define NFH_INNER_H

/*
 * Inner header matching (nft 1.1): a field of the packet inside a vxlan,
 * geneve, gre or gretap tunnel ("vxlan ip saddr 1.2.3.4"), or of the
 * tunnel's own header ("vxlan vni 10"), read through the kernel's "inner"
 * expression.  src/inner.c holds the kind; these are what the grammar,
 * the evaluator and the netlink layer call.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <expr.h>

struct nlmsghdr;
struct nftnl_rule;
struct nftnl_expr;

/* "TUNNEL FIELD": @child, a header field, read inside the tunnel @name;
   NULL with an error queued where nft's grammar has no such match */
struct expr *inner_expr_parse(const struct location *loc, const char *name,
			      const struct location *nloc, struct expr *child,
			      struct list_head *msgs);
/* @p as parsed: a field of a tunnel's own header ("vxlan vni") is read
   through that tunnel; any other expression is @p itself */
struct expr *inner_field_wrap(struct expr *p);
/* a new inner expression of @tunnel's tunnel around @child */
struct expr *inner_wrap(const struct expr *tunnel, struct expr *child);
/* the field @e reads inside its tunnel, or NULL if @e is no inner
   expression */
const struct expr *inner_child(const struct expr *e);
/* of @e, an inner expression: its tunnel's own header, the family whose
   dependencies nft adds inside it, whether it is gre's */
const struct proto_desc *inner_tunnel_desc(const struct expr *e);
unsigned int inner_family(const struct expr *e);
bool inner_on_gre(const struct expr *e);
/* @e's field, taken from it (the listing resolves it alone), and
   @e again around @child, which it takes */
struct expr *inner_unwrap(struct expr *e);
struct expr *inner_rewrap(struct expr *e, struct expr *child);

/*
 * libnftnl 1.2.4 has no inner expression.  In nfh's libnftnl rules the
 * one inside it (a payload or meta load) stands for it, with the
 * tunnel's type, flags and header size kept in the high bits of its base
 * or key, which no kernel value uses.  At the wire they become the
 * kernel's inner expression again, both ways; nothing else sees them.
 */
/* @x, the load of @e's field, made a carrier of @e's tunnel */
void inner_load_mark(struct nftnl_expr *x, const struct expr *e);
/* @e stands for an inner expression */
bool inner_carrier(const struct nftnl_expr *e);
/* the rule @r as nftnl_rule_nlmsg_build_payload() writes it, each
   carrier as the kernel's inner expression */
void inner_rule_build(struct nlmsghdr *nlh, struct nftnl_rule *r);
/* nftnl_rule_nlmsg_parse() of @nlh, the kernel's inner expressions read
   as carriers */
int inner_rule_parse(const struct nlmsghdr *nlh, struct nftnl_rule *r);
/* the rule as --debug=netlink prints it: nftnl_rule_snprintf()'s text
   with each carrier as nft prints an inner expression */
void inner_rule_debug(FILE *f, struct nftnl_rule *r);

#endif
