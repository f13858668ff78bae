// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The parser's state: the variables that define, redefine and undefine
 * make, their references ($name) and their expansion in log prefixes.  The
 * grammar and the scanner share it; nothing here knows about the kernel.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <ctx.h>
#include <erec.h>
#include <expr.h>
#include <parser.h>
#include <suggest.h>
#include <utils.h>

void parser_init(struct parser_state *state, struct nfh_ctx *ctx,
		 struct list_head *msgs, struct list_head *cmds)
{
	memset(state, 0, sizeof(*state));
	state->ctx = ctx;
	state->msgs = msgs;
	state->cmds = cmds;
	state->sep_mark = state->rule_mark = msgs;
	init_list_head(&state->vars);
	init_list_head(&state->retired);
	state->var_suggest = parser_var_suggest;
	init_list_head(&state->bindings);
}

void parser_lost_word(struct parser_state *state, const char *word)
{
	if (!word)
		return;
	for (unsigned int i = 0; i < state->nlost_words; i++)
		if (!strcmp(state->lost_words[i], word))
			return;
	state->lost_words = xrealloc(state->lost_words,
				     (state->nlost_words + 1) * sizeof(char *));
	state->lost_words[state->nlost_words++] = xstrdup(word);
}

/* where @loc starts in its input's text; NULL if it has none */
static const char *loc_text(const struct location *loc)
{
	const struct input_desc *in = loc->indesc;
	size_t off;

	if (!in || !in->data || !loc->first_col)
		return NULL;
	off = (size_t)loc->line_offset + loc->first_col - 1;
	return off <= in->len ? in->data + off : NULL;
}

static bool word_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '-' || c == '.' ||
	       c == '/' || c == ':';
}

void parser_lost(struct parser_state *state, const struct location *from,
		 const struct location *to)
{
	const char *p = loc_text(from), *end = loc_text(to);
	unsigned int n = 0;
	char word[256];

	if (!p || !end || from->indesc != to->indesc || end < p)
		return;
	while (p < end) {
		size_t len = 0;

		while (p < end && !word_char(*p))
			p++;
		while (p + len < end && word_char(p[len]))
			len++;
		if (!len || len >= sizeof(word))
			break;
		memcpy(word, p, len);
		word[len] = '\0';
		p += len;
		/* "add rule ...", "insert rule ...": a rule declares nothing */
		if (n++ < 2 && !strcmp(word, "rule"))
			return;
		if (n == 1 && (!strcmp(word, "add") || !strcmp(word, "insert") ||
			       !strcmp(word, "replace") || !strcmp(word, "create")))
			continue;
		parser_lost_word(state, word);
	}
}

static void vars_free(struct list_head *vars)
{
	struct var *v, *next;

	list_for_each_entry_safe(v, next, vars, list) {
		list_del(&v->list);
		expr_free(v->expr);
		free(v->name);
		free(v);
	}
}

void parser_exit(struct parser_state *state)
{
	free(state->var_tab);
	vars_free(&state->vars);
	vars_free(&state->retired);
	table_free(state->cur_table);
	chain_free(state->cur_chain);
	while (!list_empty(&state->bindings)) {
		struct chain *c = list_first_entry(&state->bindings,
						   struct chain, list);

		list_del(&c->list);
		chain_free(c);
	}
	for (unsigned int i = 0; i < state->nlost_words; i++)
		free(state->lost_words[i]);
	free(state->lost_words);
	set_free(state->cur_set);
	obj_free(state->cur_obj);
	flowtable_free(state->cur_flowtable);
}

/*
 * The variables in force are hashed by name: each definition and each
 * reference looks one up, so walking a list made 50,000 defines take
 * seconds (quadratic).
 */
static struct var **var_slot(struct parser_state *state, const char *name)
{
	uint32_t h = 2166136261u;	/* FNV-1a */
	struct var **p;

	if (!state->var_tab_size)
		return NULL;
	for (const char *c = name; *c; c++)
		h = (h ^ (unsigned char)*c) * 16777619u;
	p = &state->var_tab[h & (state->var_tab_size - 1)];
	while (*p && strcmp((*p)->name, name))
		p = &(*p)->hnext;
	return p;
}

static void var_hash_add(struct parser_state *state, struct var *v)
{
	struct var **p;

	if (state->nvars >= state->var_tab_size) {
		struct var **old = state->var_tab;
		unsigned int n = state->var_tab_size;

		state->var_tab_size = n ? 2 * n : 64;
		state->var_tab = xzalloc(state->var_tab_size * sizeof(*old));
		for (unsigned int i = 0; i < n; i++) {
			struct var *e = old[i], *next;

			for (; e; e = next) {
				next = e->hnext;
				p = var_slot(state, e->name);
				e->hnext = NULL;
				*p = e;
			}
		}
		free(old);
	}
	p = var_slot(state, v->name);
	v->hnext = NULL;
	*p = v;
	state->nvars++;
}

static void var_hash_del(struct parser_state *state, struct var *v)
{
	struct var **p = var_slot(state, v->name);

	if (p && *p == v) {
		*p = v->hnext;
		state->nvars--;
	}
}

struct var *parser_var_lookup(struct parser_state *state, const char *name)
{
	struct var **p = var_slot(state, name);

	return p ? *p : NULL;
}

typedef bool (*var_pred)(struct parser_state *state, const struct expr *ref,
			 const char *name);

/* the first variable reference in @e that @pred holds for, or NULL */
static const struct expr *var_find(struct parser_state *state,
				   const struct expr *e, var_pred pred,
				   const char *name)
{
	const struct expr *i, *r;

	if (!e)
		return NULL;
	switch (e->kind) {
	case EXPR_VARIABLE:
		return pred(state, e, name) ? e : NULL;
	case EXPR_BINOP:
	case EXPR_RELATIONAL:
	case EXPR_MAPPING:
	case EXPR_MAP:
		r = var_find(state, e->op.left, pred, name);
		return r ? r : var_find(state, e->op.right, pred, name);
	case EXPR_RANGE:
		r = var_find(state, e->range.left, pred, name);
		return r ? r : var_find(state, e->range.right, pred, name);
	case EXPR_PREFIX:
		return var_find(state, e->prefix.expr, pred, name);
	case EXPR_HASH:
		return var_find(state, e->hash.expr, pred, name);
	case EXPR_SET_ELEM:
		return var_find(state, e->elem.key, pred, name);
	case EXPR_LIST:
	case EXPR_SET:
	case EXPR_CONCAT:
		list_for_each_entry(i, &e->set.exprs, list)
			if ((r = var_find(state, i, pred, name)))
				return r;
		return NULL;
	default:
		return NULL;
	}
}

/* as nft: a definition names only variables defined before it */
static bool undefined(struct parser_state *state, const struct expr *ref,
		      const char *name)
{
	(void)state;
	(void)name;
	return !ref->sym.var;
}

/* how many expressions @e makes once its variables are expanded */
static size_t expanded_nodes(struct parser_state *state, const struct expr *e)
{
	const size_t cap = SIZE_MAX / 4;	/* no overflow when adding */
	const struct expr *i;
	const struct var *v;
	size_t n = 1;

	if (!e)
		return 0;
	switch (e->kind) {
	case EXPR_VARIABLE:
		v = e->sym.var;
		return v ? v->nodes : 1;
	case EXPR_BINOP:
	case EXPR_RELATIONAL:
	case EXPR_MAPPING:
	case EXPR_MAP:
		n += expanded_nodes(state, e->op.left) +
		     expanded_nodes(state, e->op.right);
		break;
	case EXPR_RANGE:
		n += expanded_nodes(state, e->range.left) +
		     expanded_nodes(state, e->range.right);
		break;
	case EXPR_PREFIX:
		n += expanded_nodes(state, e->prefix.expr);
		break;
	case EXPR_HASH:
		n += expanded_nodes(state, e->hash.expr);
		break;
	case EXPR_SET_ELEM:
		n += expanded_nodes(state, e->elem.key);
		break;
	case EXPR_LIST:
	case EXPR_SET:
	case EXPR_CONCAT:
		list_for_each_entry(i, &e->set.exprs, list) {
			n += expanded_nodes(state, i);
			if (n > cap)
				break;
		}
		break;
	default:
		break;
	}
	return n > cap ? cap : n;
}

const char *parser_var_suggest(struct parser_state *state, struct suggest *s,
			       const char *name)
{
	const struct var *v;

	suggest_init(s, name);
	if (state)
		list_for_each_entry(v, &state->vars, list)
			suggest_add(s, v->name);
	if (s->best)
		snprintf(s->hint, sizeof(s->hint), "; did you mean \"$%s\"?",
			 s->best);
	else
		s->hint[0] = '\0';
	return s->hint;
}

struct expr *parser_var_ref(struct parser_state *state,
			    const struct location *loc, const char *name)
{
	struct expr *e = variable_expr_alloc(loc, name);

	e->sym.var = parser_var_lookup(state, name);
	/* it nests as deep as what it stands for (expr_depth()) */
	if (e->sym.var)
		e->depth = e->sym.var->expr->depth;
	return e;
}

/* the text a variable stands for in a string, or NULL: not a word */
static const char *var_text(const struct var *v)
{
	const struct expr *e = v->expr;

	while (e->kind == EXPR_VARIABLE && e->sym.var)
		e = e->sym.var->expr;
	return e->kind == EXPR_SYMBOL ? e->sym.str : NULL;
}

/*
 * As nft does in a log prefix: each $name (letters, digits and '_') is
 * replaced by the word or string the variable holds where it is written.
 * nft copies other values (sets, prefixes) as garbage or crashes; they
 * are an error here.  @loc is that of the quoted string.
 */
char *parser_log_prefix(struct parser_state *state, char *str,
			const struct location *loc)
{
	size_t n = strlen(str), cap = n + 1, len = 0;
	char *out = xmalloc(cap);
	const char *p = str;
	struct suggest sg;
	int ret = 0;

	while (*p) {
		struct location l = *loc;
		const char *text = NULL;
		struct var *v = NULL;
		size_t k = 0, tl;
		char *name;

		if (*p != '$') {
			out[len++] = *p++;
			continue;
		}
		while (isalnum((unsigned char)p[1 + k]) || p[1 + k] == '_')
			k++;
		/* after the opening quote */
		l.first_col = loc->first_col + 1 + (p - str);
		l.last_col = l.first_col + k;
		name = xstrndup(p + 1, k);
		if (k)
			v = parser_var_lookup(state, name);
		if (!k)
			ret = error_queue(state->msgs, &l,
					  "a variable name is expected after \"$\"");
		else if (!v)
			ret = error_queue(state->msgs, &l,
					  "undefined variable \"$%s\"%s", name,
					  parser_var_suggest(state, &sg, name));
		else if (!(text = var_text(v)))
			ret = error_queue(state->msgs, &l,
					  "variable \"$%s\" holds no word or string for a log prefix",
					  name);
		free(name);
		tl = text ? strlen(text) : 0;
		if (len + tl + n + 1 > cap) {
			cap = len + tl + n + 1;
			out = xrealloc(out, cap);
		}
		if (tl)
			memcpy(out + len, text, tl);
		len += tl;
		p += 1 + k;
	}
	out[len] = '\0';
	free(str);
	if (ret) {
		free(out);
		return NULL;
	}
	return out;
}

/* what was written before still names it: kept to the end */
static void var_retire(struct parser_state *state, struct var *v)
{
	var_hash_del(state, v);
	list_del(&v->list);
	list_add(&v->list, &state->retired);
}

int parser_undefine(struct parser_state *state, const char *name,
		    const struct location *loc)
{
	struct var *v = parser_var_lookup(state, name);

	if (!v) {
		error_queue(state->msgs, loc, "undefined symbol \"%s\"", name);
		return -1;
	}
	var_retire(state, v);
	return 0;
}

/*
 * Variables are resolved where they are written, as nft expands them as
 * it parses: "redefine x = { $x, 1 }" names the x before it, and a rule
 * written before an undefine or a redefine keeps the value it saw.  So no
 * definition can reach itself.
 */
int parser_redefine(struct parser_state *state, const char *name,
		    struct expr *e, const struct location *loc)
{
	struct var *v = parser_var_lookup(state, name);

	if (v && var_find(state, e, undefined, name) == NULL)
		var_retire(state, v);
	return parser_define(state, name, e, loc);
}

int parser_define(struct parser_state *state, const char *name,
		  struct expr *e, const struct location *loc)
{
	struct var *v = parser_var_lookup(state, name);
	const struct expr *ref = var_find(state, e, undefined, name);
	struct suggest sg;

	if (ref) {
		/* and it stays undefined, so that its uses say so too */
		error_queue(state->msgs, &ref->loc,
			    "undefined variable \"$%s\"%s", ref->sym.str,
			    parser_var_suggest(state, &sg, ref->sym.str));
		expr_free(e);
		return -1;
	}
	if (v) {
		error_queue(state->msgs, loc,
			    "redefinition of symbol \"%s\": use redefine", name);
		expr_free(e);
		return -1;
	}
	v = xzalloc(sizeof(*v));
	v->name = xstrdup(name);
	v->expr = e;
	v->loc = *loc;
	v->nodes = expanded_nodes(state, e);
	list_add(&v->list, &state->vars);
	var_hash_add(state, v);
	return 0;
}
