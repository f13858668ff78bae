// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Rules compiled as they are parsed.  A 50,000-rule file used to be a whole
 * AST (about 2.6 kB a rule) plus a libnftnl rule per rule (0.8 kB) alive at
 * once; a rule that depends on nothing later in the file now costs its
 * message bytes and one nl_item.
 *
 * The batch must come out byte for byte as before, and errors in the same
 * order, so:
 * - only rules of a chain block inside a table block stream; their command
 *   would be "add rule" with the table's family and names;
 * - a rule waits for the whole file if it uses a variable (a later
 *   "redefine" changes it), a named set (declared later, or its flags
 *   change with the rule) or an anonymous set (set ids are given in batch
 *   order), or if the table or chain name would be refused (that error is
 *   given once per rule command).  One whose evaluation adds an anonymous
 *   set (icmp dependencies) is kept evaluated, linearized in turn;
 * - errors are kept with the pack and queued where the rules' commands
 *   would have queued them: evaluation errors when eval_cmds() reaches the
 *   pack, linearization errors when lin_cmds() does;
 * - nothing streams once the parser has reported anything, nor with
 *   --debug=proto-ctx (its blocks come in the file's order).
 *
 * Flat "add rule FAMILY TABLE CHAIN ..." commands stream the same way when
 * they give no position, handle or index: consecutive ones for the same
 * chain share one pack, which stands where their commands would have.
 */
#include <string.h>
#include <linux/netfilter/nf_tables.h>

#include <ctx.h>
#include <evaluate.h>
#include <linearize.h>
#include <netlink.h>
#include <parser.h>
#include <stream.h>

static bool name_ok(const char *name, size_t max)
{
	return name && name[0] && strlen(name) < max;
}

/* a rule of @table's @chain just parsed: no dependency since the last
   one, nothing reported yet, names the kernel takes */
static bool may_stream(struct parser_state *state, const char *table,
		       const char *chain)
{
	bool deps = state->stream_deps != state->stream_mark;

	state->stream_mark = state->stream_deps;
	return !deps && state->nerrs == 0 && list_empty(state->msgs) &&
	       name_ok(table, NFT_TABLE_MAXNAMELEN) &&
	       name_ok(chain, NFT_CHAIN_MAXNAMELEN);
}

/*
 * --debug=proto-ctx prints as rules are evaluated: in the file's order,
 * as nft does, which a rule waiting for the whole file would break
 */
static bool streamable(struct parser_state *state)
{
	return may_stream(state, state->stream_table, state->stream_chain) &&
	       !(state->ctx->debug & NFH_DEBUG_PROTO_CTX);
}

static struct rule_pack *pack_alloc(struct rule *stand_in)
{
	struct rule_pack *p = xzalloc(sizeof(*p));

	init_list_head(&p->items);
	p->items_free = nl_items_free;
	init_list_head(&p->eval_errs);
	init_list_head(&p->lin_errs);
	stand_in->pack = p;
	return p;
}

/* the pack at the end of @c's rules, a new one if the last is a rule */
static struct rule_pack *chain_pack(struct chain *c, const struct location *loc)
{
	struct rule *last;
	struct rule_pack *p;

	if (!list_empty(&c->rules)) {
		last = list_last_entry(&c->rules, struct rule, list);
		if (last->pack)
			return last->pack;
	}
	last = rule_alloc(loc);
	p = pack_alloc(last);
	list_add_tail(&last->list, &c->rules);
	return p;
}

/* evaluates and linearizes @r into @p; frees @r */
static void pack_rule(struct parser_state *state, struct rule_pack *p,
		      struct rule *r, const struct handle *h, int ret,
		      struct list_head *errs)
{
	struct nl_batch b;
	struct nl_item *it;

	p->nrules++;
	if (ret < 0 || !list_empty(errs)) {
		/* nothing will be sent: only the errors matter */
		list_splice_tail_init(errs, &p->eval_errs);
		p->eval_failed = true;
		rule_free(r);
		return;
	}
	nl_batch_init(&b);
	lin_rule_stream(state->ctx, r, h, &b, &p->lin_errs);
	rule_free(r);
	list_for_each_entry(it, &b.items, list)
		nl_item_to_raw(it);
	list_splice_tail_init(&b.items, &p->items);
}

bool stream_rule(struct parser_state *state, struct chain *c, struct rule *r)
{
	struct handle h = { .family = state->stream_family };
	struct rule_pack *p;
	LIST_HEAD(errs);
	bool anon;
	int ret;

	if (!streamable(state))
		return false;
	/* names only: the strings belong to the parser */
	h.table = (char *)state->stream_table;
	h.chain = (char *)state->stream_chain;
	ret = eval_rule_stream(state->ctx, state, r, &h, &errs, &anon);
	if (ret == 0 && list_empty(&errs) && anon) {
		/* an implicit anonymous set: its id must be given in batch
		   order, so linearize it with the rest; evaluated already */
		r->evaluated = true;
		return false;
	}
	p = chain_pack(c, &r->loc);
	pack_rule(state, p, r, &h, ret, &errs);
	return true;
}

static bool same_chain(const struct handle *a, const struct handle *b)
{
	return a->family == b->family && !strcmp(a->table, b->table) &&
	       !strcmp(a->chain, b->chain);
}

struct cmd *stream_cmd(struct parser_state *state, struct cmd *cmd)
{
	struct cmd *last = NULL;
	struct rule *r;
	LIST_HEAD(errs);
	bool anon;
	int ret;

	if (!cmd || cmd->op != CMD_ADD || cmd->obj != CMD_OBJ_RULE || !cmd->rule)
		return cmd;
	if (!may_stream(state, cmd->h.table, cmd->h.chain) ||
	    (state->ctx->debug & NFH_DEBUG_PROTO_CTX) ||
	    cmd->h.position || cmd->h.handle || cmd->h.index_set)
		return cmd;
	r = cmd->rule;
	ret = eval_rule_stream(state->ctx, state, r, &cmd->h, &errs, &anon);
	if (ret == 0 && list_empty(&errs) && anon) {
		/* as in stream_rule(): linearized with the rest */
		r->evaluated = true;
		return cmd;
	}
	if (!list_empty(state->cmds))
		last = list_last_entry(state->cmds, struct cmd, list);
	if (last && last->op == CMD_ADD && last->obj == CMD_OBJ_RULE &&
	    last->rule && last->rule->pack && same_chain(&last->h, &cmd->h)) {
		/* the next rule of the same chain: into the same pack */
		cmd->rule = NULL;
		pack_rule(state, last->rule->pack, r, &last->h, ret, &errs);
		cmd_free(cmd);
		return NULL;
	}
	cmd->rule = rule_alloc(&r->loc);
	pack_alloc(cmd->rule);
	pack_rule(state, cmd->rule->pack, r, &cmd->h, ret, &errs);
	return cmd;
}

static bool stream_elem(struct parser_state *state, struct set *s,
			struct expr *e)
{
	return eval_elem_stream(state->ctx, state, s, e);
}

static bool stream_elems_var(struct parser_state *state, struct set *s,
			     struct expr *e)
{
	return eval_elems_var_stream(state->ctx, state, s, e);
}

const struct parser_sink stream_sink = {
	.cmd		= stream_cmd,
	.rule		= stream_rule,
	.elem		= stream_elem,
	.elems_var	= stream_elems_var,
};
