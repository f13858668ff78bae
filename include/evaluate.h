/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFH_EVALUATE_H
#define NFH_EVALUATE_H

#include <rule.h>

struct nfh_ctx;
struct parser_state;

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
};

void proto_ctx_init(struct proto_ctx *pctx, unsigned int family);
/* learns from a match such as "meta l4proto tcp" */
void proto_ctx_update(struct proto_ctx *pctx, const struct expr *rel);

/*
 * Called by the parser for each element of a set declaration: evaluates
 * and packs it, so that big sets never exist as expressions.  False when
 * the element must wait for the whole declaration (the types are not
 * known yet); errors are queued.
 */
struct set;
bool eval_elem_stream(struct nfh_ctx *nfh, struct parser_state *state,
		      struct set *s, struct expr *e);
/* the same for "elements = $var", whose variable must hold a set */
bool eval_elems_var_stream(struct nfh_ctx *nfh, struct parser_state *state,
			   struct set *s, struct expr *e);

/*
 * Evaluates a rule of a chain block as it is parsed (see src/stream.c);
 * @h names its table and chain.  Errors go to @msgs; 0 or -1.  @anon
 * tells whether it added an anonymous set (an implicit dependency).
 */
int eval_rule_stream(struct nfh_ctx *nfh, struct parser_state *state,
		     struct rule *r, const struct handle *h,
		     struct list_head *msgs, bool *anon);

/* expands blocks into flat commands and checks them; 0 or -1 */
int eval_cmds(struct nfh_ctx *nfh, struct parser_state *state,
	      struct list_head *cmds, struct list_head *msgs);

#endif
