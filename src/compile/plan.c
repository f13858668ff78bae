// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel reads a command's evaluation needs, planned before it is
 * evaluated (as nft's cache flags plan its cache fill): the evaluator and
 * the linearizer read only what the plan put in place, and never the
 * kernel themselves.
 *
 * - a rule, or a command on a set, a map or elements: the kernel's sets
 *   (their declarations), once a run;
 * - "add|insert rule ... index N": the handles of the chain's rules;
 * - "rename chain": the chain's handle;
 * - adding elements to an interval set the kernel holds (not a
 *   concatenation): the set with its elements, which the new intervals
 *   must not overlap, or which they join.
 *
 * With --offline the model is the ruleset read, as it stands when the
 * command is evaluated, and nothing is copied.
 */
#include <stdlib.h>
#include <string.h>
#include <linux/netfilter/nf_tables.h>

#include <libnftnl/chain.h>
#include <libnftnl/rule.h>
#include <libnftnl/set.h>

#include <cache.h>
#include <ctx.h>
#include <erec.h>
#include <netlink.h>
#include <plan.h>
#include <rule.h>
#include <utils.h>

struct plan_read {
	struct list_head	list;
	const struct cmd	*cmd;
	uint64_t		*handles;	/* index N: the chain's rules */
	size_t			n;
	uint64_t		chain_handle;	/* rename chain: 0 if none */
	struct cache		*elems;		/* a kernel set with its
						   elements (owned) */
};

struct plan {
	struct list_head	reads;
};

static struct plan_read *read_new(struct nfh_ctx *nfh, const struct cmd *cmd)
{
	struct plan_read *r = xzalloc(sizeof(*r));

	if (!nfh->plan) {
		nfh->plan = xzalloc(sizeof(*nfh->plan));
		init_list_head(&nfh->plan->reads);
	}
	r->cmd = cmd;
	list_add_tail(&r->list, &nfh->plan->reads);
	return r;
}

static const struct plan_read *read_of(const struct nfh_ctx *nfh,
				       const struct cmd *cmd)
{
	const struct plan_read *r;

	if (!nfh->plan)
		return NULL;
	list_for_each_entry(r, &nfh->plan->reads, list)
		if (r->cmd == cmd)
			return r;
	return NULL;
}

static void read_free(struct plan_read *r)
{
	list_del(&r->list);
	free(r->handles);
	cache_free(r->elems);
	free(r);
}

/* what an earlier command at the same address had read */
static void read_drop(struct nfh_ctx *nfh, const struct cmd *cmd)
{
	struct plan_read *r, *n;

	if (!nfh->plan)
		return;
	list_for_each_entry_safe(r, n, &nfh->plan->reads, list)
		if (r->cmd == cmd)
			read_free(r);
}

struct cache *plan_sets(const struct nfh_ctx *nfh)
{
	return nfh->offline ? nfh->offline_cache : nfh->set_cache;
}

/* the kernel's sets, once a run; without them a set is not found, and
   the command says so */
static void read_sets(struct nfh_ctx *nfh)
{
	LIST_HEAD(msgs);

	if (nfh->offline || nfh->set_cache)
		return;
	nfh->set_cache = cache_alloc();
	if (nlio_dump_sets(nfh, nfh->set_cache, &msgs) < 0)
		erec_free_list(&msgs);
}

static bool needs_sets(const struct cmd *cmd)
{
	return cmd->obj == CMD_OBJ_RULE || cmd->obj == CMD_OBJ_ELEMENTS ||
	       cmd->obj == CMD_OBJ_SET || cmd->obj == CMD_OBJ_MAP;
}

static struct cache_table *model_table(const struct nfh_ctx *nfh,
				       const struct cmd *cmd)
{
	return nfh->offline_cache ?
	       cache_table_find(nfh->offline_cache, cmd->h.family,
				cmd->h.table) : NULL;
}

static int read_rule_handles(struct nfh_ctx *nfh, const struct cmd *cmd,
			     struct list_head *msgs)
{
	struct plan_read *r = read_new(nfh, cmd);
	struct cache_table *t;
	struct cache_chain *ch;
	struct cache_rule *cr;

	if (!nfh->offline)
		return nlio_rule_handles(nfh, cmd->h.family, cmd->h.table,
					 cmd->h.chain, &r->handles, &r->n,
					 msgs) < 0 ? -1 : 0;
	t = model_table(nfh, cmd);
	ch = t ? cache_chain_find(t, cmd->h.chain) : NULL;
	if (!ch)
		return 0;
	list_for_each_entry(cr, &ch->rules, list)
		r->n++;
	r->handles = xmalloc((r->n ? r->n : 1) * sizeof(*r->handles));
	r->n = 0;
	list_for_each_entry(cr, &ch->rules, list)
		r->handles[r->n++] = nftnl_rule_get_u64(cr->nlr,
							NFTNL_RULE_HANDLE);
	return 0;
}

static int read_chain_handle(struct nfh_ctx *nfh, const struct cmd *cmd,
			     struct list_head *msgs)
{
	struct plan_read *r = read_new(nfh, cmd);
	struct cache_table *t;
	struct cache_chain *ch;
	int ret;

	if (!nfh->offline) {
		ret = nlio_chain_handle(nfh, cmd->h.family, cmd->h.table,
					cmd->h.chain, &r->chain_handle, msgs);
		if (ret == -2)
			r->chain_handle = 0;
		return ret == -1 ? -1 : 0;
	}
	t = model_table(nfh, cmd);
	ch = t ? cache_chain_find(t, cmd->h.chain) : NULL;
	if (ch && !cache_chain_is_binding(ch))
		r->chain_handle = nftnl_chain_get_u64(ch->nlc, NFTNL_CHAIN_HANDLE);
	return 0;
}

/* an interval set (not a concatenation) of the kernel's that the command
   adds elements to: read with its elements */
static int read_set_elems(struct nfh_ctx *nfh, const struct cmd *cmd,
			  struct list_head *msgs)
{
	struct cache_table *t;
	struct cache_set *cs;
	struct plan_read *r;
	uint32_t flags;

	if (nfh->offline || !cmd->h.set || !nfh->set_cache)
		return 0;
	t = cache_table_find(nfh->set_cache, cmd->h.family, cmd->h.table);
	cs = t ? cache_set_find(t, cmd->h.set) : NULL;
	if (!cs)
		return 0;
	flags = nftnl_set_get_u32(cs->nls, NFTNL_SET_FLAGS);
	if (!(flags & NFT_SET_INTERVAL) ||
	    (flags & (NFT_SET_CONCAT | NFT_SET_ANONYMOUS)))
		return 0;
	r = read_new(nfh, cmd);
	r->elems = cache_alloc();
	return nlio_dump_set(nfh, cmd->h.family, cmd->h.table, cmd->h.set,
			     false, r->elems, msgs) < 0 ? -1 : 0;
}

int plan_reads(struct nfh_ctx *nfh, const struct cmd *cmd,
	       struct list_head *msgs)
{
	bool adds = cmd->op == CMD_ADD || cmd->op == CMD_CREATE;

	read_drop(nfh, cmd);
	if (needs_sets(cmd))
		read_sets(nfh);
	if (cmd->obj == CMD_OBJ_RULE && cmd->h.index_set)
		return read_rule_handles(nfh, cmd, msgs);
	if (cmd->op == CMD_RENAME && cmd->obj == CMD_OBJ_CHAIN)
		return read_chain_handle(nfh, cmd, msgs);
	if (adds && (cmd->obj == CMD_OBJ_SET || cmd->obj == CMD_OBJ_MAP ||
		     cmd->obj == CMD_OBJ_ELEMENTS))
		return read_set_elems(nfh, cmd, msgs);
	return 0;
}

void plan_rule_stream(struct nfh_ctx *nfh)
{
	read_sets(nfh);
}

const uint64_t *plan_rule_handles(const struct nfh_ctx *nfh,
				  const struct cmd *cmd, size_t *n)
{
	const struct plan_read *r = read_of(nfh, cmd);

	*n = r ? r->n : 0;
	return r ? r->handles : NULL;
}

uint64_t plan_chain_handle(const struct nfh_ctx *nfh, const struct cmd *cmd)
{
	const struct plan_read *r = read_of(nfh, cmd);

	return r ? r->chain_handle : 0;
}

struct cache *plan_set_elems(const struct nfh_ctx *nfh, const struct cmd *cmd)
{
	const struct plan_read *r;

	if (nfh->offline)
		return nfh->offline_cache;
	r = read_of(nfh, cmd);
	return r ? r->elems : NULL;
}

void plan_free(struct nfh_ctx *nfh)
{
	struct plan_read *r, *n;

	if (!nfh->plan)
		return;
	list_for_each_entry_safe(r, n, &nfh->plan->reads, list)
		read_free(r);
	free(nfh->plan);
	nfh->plan = NULL;
}
