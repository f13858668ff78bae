/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFH_PROTOCTX_H
#define NFH_PROTOCTX_H

#include <stdbool.h>
#include <stdio.h>

#include <proto.h>

struct expr;
struct location;

/**
 * struct proto_ctx - which header is known to sit at each base
 * @desc:	header known at each base, NULL while unknown
 * @vlan:	an ether type 8021q test has been made
 */
struct proto_ctx {
	unsigned int		family;
	const struct proto_desc	*desc[__PROTO_BASE_MAX];
	bool			vlan;
	bool			icmp_type;	/* icmp(v6) type already tested */
	int			icmp_tval;	/* the type it equals, -1: unknown */
	/*
	 * What nft learns from a set of protocol values ("meta nfproto
	 * { ipv4, ipv6 }"), kept apart from desc[] (nfh still adds the
	 * dependencies) and used only to refuse what nft refuses: at the
	 * link and network layers the last element's header, at the
	 * transport layer every distinct header seen in the rule.
	 */
	const struct proto_desc	*set_desc[__PROTO_BASE_MAX];
	const struct location	*set_loc[__PROTO_BASE_MAX];
	const struct proto_desc	*th_seen[16];
	const struct location	*th_loc[16];	/* the match that named it */
	unsigned int		th_nseen;
	/* vlan tags announced inside a vlan header ("vlan type 8021q"):
	   the vlan fields after it are those of the tag that many on
	   (4 bytes each), as nft stacks them */
	unsigned int		vlan_depth;
	/* headers only nft 1.1 knows (gre) are learned too, as listings
	   want them; and the transport protocol number the rule matched
	   last (meta l4proto, ip protocol, ip6 nexthdr), header known or
	   not, 0 for none */
	bool			nft11;
	unsigned int		th_id;
	/* --debug=proto-ctx: each header a match names is printed here,
	   as nft does; the bases the last update named */
	FILE			*debug;
	unsigned int		touched;
};

void proto_ctx_init(struct proto_ctx *pctx, unsigned int family);
/* learns from a match such as "meta l4proto tcp" */
void proto_ctx_update(struct proto_ctx *pctx, const struct expr *rel);
/* prints the blocks of the last update again: nft prints a dependency
   it adds for a header not known yet twice */
void proto_ctx_debug_again(const struct proto_ctx *pctx);
/* prints the context to @f (NULL: nothing) from now on, and now where
   the family put a header */
void proto_ctx_debug(struct proto_ctx *pctx, FILE *f);
/* the transport protocol is known, or a set of them was matched */
bool proto_ctx_th_known(const struct proto_ctx *pctx);

struct list_head;
struct stmt;
/*
 * The last set of ether types (or, outside inet, of meta protocol values;
 * in inet, of meta nfproto values) among @stmts before @upto, as nft takes
 * it for a reject: the network
 * protocol its last ip or ip6 element names (1 ipv4, 2 ipv6, 0 none), and
 * in *@mask (if not NULL) all it names (1, 2, 3 both).
 */
unsigned int proto_nh_sets(const struct list_head *stmts, const struct stmt *upto,
			   unsigned int family, unsigned int *mask);

#endif
