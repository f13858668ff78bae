// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel's jump check, for the offline model: from every base chain,
 * jumps and gotos (also those in verdict maps) may nest at most 15 deep,
 * so a loop reachable from a base chain is refused as well ("Too many
 * links").  Here the walk also says which chains loop, or how they nest,
 * and blames the rule of this batch that closed the path.
 *
 * Each chain's height (the longest run of jumps below it) is kept once its
 * subtree is walked, so a table costs one pass over its rules.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netfilter/nf_tables.h>
#include <libnftnl/chain.h>
#include <libnftnl/expr.h>
#include <libnftnl/rule.h>
#include <libnftnl/set.h>

#include <cache.h>
#include <jumps.h>

/* the kernel's NFT_JUMP_STACK_SIZE: a chain at this level is refused */
#define JUMP_LEVELS	16

enum { UNSEEN = -1, ON_PATH = -2 };

struct walk {
	struct cache_table	*t;
	struct cache_chain	**chains;	/* by index */
	unsigned int		nchains;
	unsigned int		*hash;		/* name -> index + 1 */
	unsigned int		hmask;
	int			*height;	/* or UNSEEN, ON_PATH */
	/* the path from the base chain: chain indexes and the rule of each
	   jump (path_rule[i] leads from path[i] to path[i + 1]) */
	unsigned int		path[JUMP_LEVELS + 1];
	struct cache_rule	*path_rule[JUMP_LEVELS + 1];
	unsigned int		depth;		/* where the walk failed */
	unsigned int		loop_from;	/* the looping chain's level,
						   or JUMP_LEVELS + 1: too deep */
};

static unsigned int name_hash(const char *s)
{
	unsigned int h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static const char *chain_name(const struct walk *w, unsigned int i)
{
	return nftnl_chain_get_str(w->chains[i]->nlc, NFTNL_CHAIN_NAME);
}

static int chain_index(const struct walk *w, const char *name)
{
	unsigned int h = name_hash(name) & w->hmask;

	for (; w->hash[h]; h = (h + 1) & w->hmask)
		if (!strcmp(chain_name(w, w->hash[h] - 1), name))
			return w->hash[h] - 1;
	return -1;
}

static int visit(struct walk *w, unsigned int c, unsigned int level);

/* follows rule @r's jump from the chain at @level to @target */
static int follow(struct walk *w, struct cache_rule *r, unsigned int level,
		  const char *target)
{
	int i = chain_index(w, target);
	int h;

	if (i < 0)
		return 0;	/* a missing chain is refused elsewhere */
	w->path_rule[level] = r;
	if (w->height[i] == ON_PATH) {
		unsigned int k;

		for (k = 0; k < level && w->path[k] != (unsigned int)i; k++)
			;
		w->depth = level;
		w->loop_from = k;
		return -1;
	}
	/* a chain walked before needs no second walk if it fits here */
	if (w->height[i] >= 0 && level + 1 + (unsigned int)w->height[i] < JUMP_LEVELS)
		return w->height[i] + 1;
	h = visit(w, i, level + 1);
	return h < 0 ? -1 : h + 1;
}

static struct cache_set *lookup_set(struct cache_table *t, struct nftnl_expr *e)
{
	struct cache_set *s = NULL;

	if (nftnl_expr_is_set(e, NFTNL_EXPR_LOOKUP_SET_ID))
		s = cache_set_find_id(t, nftnl_expr_get_u32(e, NFTNL_EXPR_LOOKUP_SET_ID));
	if (!s && nftnl_expr_is_set(e, NFTNL_EXPR_LOOKUP_SET))
		s = cache_set_find(t, nftnl_expr_get_str(e, NFTNL_EXPR_LOOKUP_SET));
	return s;
}

static bool is_jump(uint32_t verdict)
{
	return (int32_t)verdict == NFT_JUMP || (int32_t)verdict == NFT_GOTO;
}

/* the jumps of a verdict map's elements; the highest, or -1 */
static int follow_vmap(struct walk *w, struct cache_rule *r,
		       unsigned int level, struct cache_set *s)
{
	struct nftnl_set_elems_iter *i = nftnl_set_elems_iter_create(s->nls);
	struct nftnl_set_elem *e;
	int best = 0, h;

	while ((e = nftnl_set_elems_iter_next(i))) {
		if (!nftnl_set_elem_is_set(e, NFTNL_SET_ELEM_CHAIN) ||
		    !is_jump(nftnl_set_elem_get_u32(e, NFTNL_SET_ELEM_VERDICT)))
			continue;
		h = follow(w, r, level,
			   nftnl_set_elem_get_str(e, NFTNL_SET_ELEM_CHAIN));
		if (h < 0) {
			best = -1;
			break;
		}
		if (h > best)
			best = h;
	}
	nftnl_set_elems_iter_destroy(i);
	return best;
}

/* the height of chain @c at @level of the path; -1: the walk failed */
static int visit(struct walk *w, unsigned int c, unsigned int level)
{
	struct cache_rule *r;
	int best = 0;

	w->path[level] = c;
	if (level >= JUMP_LEVELS) {
		w->depth = level;
		w->loop_from = JUMP_LEVELS + 1;
		return -1;
	}
	w->height[c] = ON_PATH;
	list_for_each_entry(r, &w->chains[c]->rules, list) {
		struct nftnl_expr_iter *i = nftnl_expr_iter_create(r->nlr);
		struct nftnl_expr *e;
		int h = 0;

		while (h >= 0 && (e = nftnl_expr_iter_next(i))) {
			const char *n = nftnl_expr_get_str(e, NFTNL_EXPR_NAME);
			struct cache_set *s;

			if (!strcmp(n, "immediate") &&
			    nftnl_expr_is_set(e, NFTNL_EXPR_IMM_CHAIN) &&
			    is_jump(nftnl_expr_get_u32(e, NFTNL_EXPR_IMM_VERDICT)))
				h = follow(w, r, level,
					   nftnl_expr_get_str(e, NFTNL_EXPR_IMM_CHAIN));
			else if (!strcmp(n, "lookup") &&
				 nftnl_expr_is_set(e, NFTNL_EXPR_LOOKUP_DREG) &&
				 nftnl_expr_get_u32(e, NFTNL_EXPR_LOOKUP_DREG) == NFT_REG_VERDICT &&
				 (s = lookup_set(w->t, e)))
				h = follow_vmap(w, r, level, s);
			if (h > best)
				best = h;
		}
		nftnl_expr_iter_destroy(i);
		if (h < 0)
			return -1;
	}
	w->height[c] = best;
	return best;
}

/* the rule of this batch that closed the failing path: the latest one */
static struct cache_rule *culprit(const struct walk *w, unsigned int from,
				  unsigned int to)
{
	struct cache_rule *r = NULL;
	unsigned int k;

	for (k = from; k < to; k++) {
		struct cache_rule *p = w->path_rule[k];

		if (p->item && (!r || !r->item || p->item->seq > r->item->seq))
			r = p;
	}
	return r;
}

static void path_text(const struct walk *w, unsigned int from,
		      unsigned int to, char *buf, size_t len)
{
	size_t n = 0;
	unsigned int k;

	buf[0] = '\0';
	for (k = from; k <= to && n < len; k++)
		n += snprintf(buf + n, len - n, "%s%s", k > from ? " -> " : "",
			      chain_name(w, w->path[k]));
}

static int check_table(struct cache_table *t, struct list_head *msgs,
		       const struct location *fallback)
{
	struct walk w = { .t = t };
	struct cache_chain *ch;
	unsigned int i, size;
	int err = 0;

	list_for_each_entry(ch, &t->chains, list)
		w.nchains++;
	if (!w.nchains)
		return 0;
	for (size = 4; size < 2 * w.nchains; size <<= 1)
		;
	w.hmask = size - 1;
	w.hash = xzalloc(size * sizeof(*w.hash));
	w.chains = xmalloc(w.nchains * sizeof(*w.chains));
	w.height = xmalloc(w.nchains * sizeof(*w.height));
	i = 0;
	list_for_each_entry(ch, &t->chains, list) {
		unsigned int h = name_hash(nftnl_chain_get_str(ch->nlc,
					   NFTNL_CHAIN_NAME)) & w.hmask;

		while (w.hash[h])
			h = (h + 1) & w.hmask;
		w.hash[h] = i + 1;
		w.height[i] = UNSEEN;
		w.chains[i++] = ch;
	}
	for (i = 0; i < w.nchains && !err; i++) {
		const struct cache_rule *r;
		char path[512];

		if (!nftnl_chain_is_set(w.chains[i]->nlc, NFTNL_CHAIN_HOOKNUM))
			continue;
		if (visit(&w, i, 0) >= 0)
			continue;
		if (w.loop_from <= JUMP_LEVELS) {
			r = culprit(&w, 0, w.depth + 1);
			path_text(&w, 0, w.depth, path, sizeof(path));
			err = error_queue(msgs, r ? &r->item->loc : fallback,
					  "Could not process rule: Too many links: "
					  "jumps loop: %s -> %s", path,
					  chain_name(&w, w.path[w.loop_from]));
		} else {
			r = culprit(&w, 0, JUMP_LEVELS);
			path_text(&w, 0, JUMP_LEVELS, path, sizeof(path));
			err = error_queue(msgs, r ? &r->item->loc : fallback,
					  "Could not process rule: Too many links: "
					  "jumps nest deeper than the kernel's %d levels: %s",
					  JUMP_LEVELS - 1, path);
		}
	}
	free(w.hash);
	free(w.chains);
	free(w.height);
	return err;
}

int cache_check_jumps(struct cache *c, struct list_head *msgs,
		      const struct location *fallback)
{
	struct cache_table *t;
	int err = 0;

	list_for_each_entry(t, &c->tables, list)
		if (check_table(t, msgs, fallback) < 0)
			err = -1;
	return err;
}
