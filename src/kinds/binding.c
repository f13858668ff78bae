// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Chain bindings: "jump { ip saddr 1.1.1.1 accept; }" and "goto { ... }".
 * The block is an anonymous chain bound to the rule: the batch creates it
 * without a name (NFTA_CHAIN_FLAGS NFT_CHAIN_BINDING, NFTA_CHAIN_ID), adds
 * its rules by that id (NFTA_RULE_CHAIN_ID), then the rule whose verdict
 * names it by the id too (NFTA_VERDICT_CHAIN_ID), as nft 1.0.6 does.  The
 * kernel names the chain "__chainN" and deletes it with the rule; listings
 * hide it and print its rules inside the verdict, as nft does.
 *
 * nft 1.0.6 and 1.1.1 take one level only ("too many levels of nesting"
 * for a block in a block, the grammar's error) and have no JSON form of
 * it: -j lists the block as its text in a string, with a warning on
 * standard error, which nfh keeps.
 */
#include <stdio.h>
#include <stdlib.h>
#include <jansson.h>
#include <libnftnl/expr.h>
#include <linux/netfilter/nf_tables.h>

#include <kind.h>
#include <rule.h>
#include <binding.h>

struct binding_priv {
	int			verdict;	/* NFT_JUMP or NFT_GOTO */
	uint32_t		id;		/* NFTA_CHAIN_ID, 0 if read back */
	struct list_head	rules;		/* of struct rule */
};
_Static_assert(sizeof(struct binding_priv) <= sizeof(((struct stmt *)0)->priv),
	       "binding_priv fits a statement's fields");

static const struct stmt_ops binding_ops;

struct stmt *binding_stmt_alloc(const struct location *loc, int verdict,
				uint32_t id, struct list_head *rules)
{
	struct stmt *s = ops_stmt_alloc(loc, &binding_ops);
	struct binding_priv *p = stmt_priv(s);

	p->verdict = verdict;
	p->id = id;
	init_list_head(&p->rules);
	list_splice_tail_init(rules, &p->rules);
	return s;
}

/* each rule of the block as a rule of the table the outer one is in */
static int binding_eval(struct kind_eval *k, struct stmt *s)
{
	struct binding_priv *p = stmt_priv(s);
	struct rule *r;
	int ret = 0;

	list_for_each_entry(r, &p->rules, list)
		if (k->rule(k, r) < 0)
			ret = -1;
	return ret;
}

/* the chain and its rules go into the batch before the rule itself */
static int binding_linearize(struct kind_lin *k, const struct stmt *s)
{
	const struct binding_priv *p = stmt_priv(s);
	struct nftnl_expr *x;
	int ret;

	ret = k->bound_chain(k, p->id, &p->rules);
	x = k->add(k, "immediate");
	nftnl_expr_set_u32(x, NFTNL_EXPR_IMM_DREG, NFT_REG_VERDICT);
	nftnl_expr_set_u32(x, NFTNL_EXPR_IMM_VERDICT, p->verdict);
	nftnl_expr_set_u32(x, NFTNL_EXPR_IMM_CHAIN_ID, p->id);
	return ret;
}

/* as nft prints it at any depth: the rules a tab deeper than a chain's */
static void binding_print(struct kind_print *k, const struct stmt *s)
{
	const struct binding_priv *p = stmt_priv(s);
	const struct rule *r;

	fprintf(k->f, "%s {\n", p->verdict == NFT_GOTO ? "goto" : "jump");
	list_for_each_entry(r, &p->rules, list) {
		fputs("\t\t\t", k->f);
		k->rule(k, r);
		fputc('\n', k->f);
	}
	fputs("\t\t}", k->f);
}

static json_t *binding_json(struct kind_json *k, const struct stmt *s)
{
	char *text = k->stmt_text(k, s);
	json_t *v;

	fputs("warning: stmt ops chain have no json callback\n", stderr);
	v = text ? json_string(text) : NULL;
	free(text);
	return v;
}

static void binding_destroy(struct stmt *s)
{
	struct binding_priv *p = stmt_priv(s);
	struct rule *r, *next;

	list_for_each_entry_safe(r, next, &p->rules, list) {
		list_del(&r->list);
		rule_free(r);
	}
}

static const struct stmt_ops binding_ops = {
	.name		= "chain binding",	/* no keyword, no JSON key */
	.kind		= STMT_OPS,
	.not_offered	= true,
	.eval		= binding_eval,
	.linearize	= binding_linearize,
	.print		= binding_print,
	.json		= binding_json,
	.destroy	= binding_destroy,
};
STMT_OPS_REGISTER(binding_ops);
