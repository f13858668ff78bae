/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFH_EVALUATE_H
#define NFH_EVALUATE_H

#include <protoctx.h>
#include <rule.h>

struct nfh_ctx;
struct parser_state;

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
 * Evaluates a rule of a chain block as it is parsed (see src/compile/stream.c);
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
