// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nfh -i: the interactive shell. Each line, or each block of lines that
 * leaves a '{' open, is one call to nfh_run_cmd_from_buffer(), so it is
 * its own transaction and errors print with the typed line and a caret.
 * On a terminal, libedit gives line editing, history in ~/.nfh_history
 * and Tab completion; from a pipe, lines are read plainly, with no prompt.
 *
 * Completion follows a small table of command shapes (below), and takes
 * table, chain and rule-handle names from the live ruleset through
 * nfh_ruleset_foreach(), and device names from the kernel.
 */
#include <ctype.h>
#include <errno.h>
#include <net/if.h>
#include <pwd.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <nfhook/libnfhook.h>

#include "cli.h"

#define PROMPT		"nfh> "
#define PROMPT_MORE	"...> "
#define HISTORY_FILE	".nfh_history"
#define HISTORY_MAX	1000

/* --- blocks: lines are joined until every '{' is closed ------------------- */

struct block {
	char	*buf;
	size_t	len;
	int	depth;		/* open braces so far */
	bool	cont;		/* last line ended with a backslash */
};

/* braces inside quoted strings and comments do not count */
static void block_scan(struct block *b, const char *line)
{
	bool quoted = false;
	size_t n = strlen(line);

	for (const char *p = line; *p; p++) {
		if (*p == '"')
			quoted = !quoted;
		else if (quoted)
			continue;
		else if (*p == '#')
			break;
		else if (*p == '{')
			b->depth++;
		else if (*p == '}')
			b->depth--;
	}
	b->cont = n > 0 && line[n - 1] == '\\';
}

static void block_append(struct block *b, const char *line)
{
	size_t n = strlen(line);
	char *p = realloc(b->buf, b->len + n + 2);

	if (!p) {
		fprintf(stderr, "nfh: out of memory\n");
		exit(2);
	}
	b->buf = p;
	memcpy(b->buf + b->len, line, n);
	b->len += n;
	b->buf[b->len++] = '\n';
	b->buf[b->len] = '\0';
	block_scan(b, line);
}

static bool block_complete(const struct block *b)
{
	return b->depth <= 0 && !b->cont;
}

static void block_reset(struct block *b)
{
	free(b->buf);
	memset(b, 0, sizeof(*b));
}

/* "quit" or "exit" alone on a line, as nft's shell takes them */
static bool is_quit(const char *s)
{
	size_t n;

	while (isspace((unsigned char)*s))
		s++;
	n = strlen(s);
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		n--;
	return (n == 4 && !strncmp(s, "quit", 4)) ||
	       (n == 4 && !strncmp(s, "exit", 4));
}

static bool is_blank(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return *s == '\0' || *s == '#';
}

/*
 * Feeds one line; runs the block once it is complete. Returns 1 when the
 * shell should leave, else 0. *failed is set when a command failed.
 */
static int feed_line(struct nfh_ctx *ctx, struct block *b, const char *line,
		     bool *failed)
{
	if (b->len == 0) {
		if (is_quit(line))
			return 1;
		if (is_blank(line))
			return 0;
	}
	block_append(b, line);
	if (!block_complete(b))
		return 0;
	if (nfh_run_cmd_from_buffer(ctx, b->buf) != 0)
		*failed = true;
	block_reset(b);
	return 0;
}

/* finishes an unterminated block at end of input: the parser says what is missing */
static void feed_eof(struct nfh_ctx *ctx, struct block *b, bool *failed)
{
	if (b->len && nfh_run_cmd_from_buffer(ctx, b->buf) != 0)
		*failed = true;
	block_reset(b);
}

static int cli_pipe(struct nfh_ctx *ctx)
{
	struct block b = { 0 };
	bool failed = false;
	size_t cap = 0;
	char *line = NULL;
	ssize_t n;

	while ((n = getline(&line, &cap, stdin)) >= 0) {
		if (n > 0 && line[n - 1] == '\n')
			line[n - 1] = '\0';
		if (feed_line(ctx, &b, line, &failed))
			goto out;
	}
	feed_eof(ctx, &b, &failed);
out:
	block_reset(&b);
	free(line);
	return failed ? 1 : 0;
}

#ifdef HAVE_LIBEDIT
#include <editline/readline.h>

/* --- completion ------------------------------------------------------------ */

/*
 * Command shapes, one slot per word. "a|b" are keywords, a leading '?'
 * makes one slot optional (a longer optional part is written as a second
 * shape), and '$' slots take their words from elsewhere:
 *   $F family   $T existing table   $C existing chain   $H rule handle
 *   $S existing set   $M existing map
 *   $N a new name or any word (nothing to complete)   $D device
 *   $R rule statements (rest of the line)   $X a selector (describe's)
 */
static const char *const top_shapes[] = {
	"list ruleset ?$F",
	"list tables ?$F",
	"list table ?$F $T",
	"list chains ?$F",
	"list chain ?$F $T $C",
	"list sets|maps ?$F",
	"list set ?$F $T $S",
	"list map ?$F $T $M",
	"flush ruleset ?$F",
	"flush table ?$F $T",
	"flush chain ?$F $T $C",
	"flush set ?$F $T $S",
	"flush map ?$F $T $M",
	"reset set ?$F $T $S",
	"reset map ?$F $T $M",
	"add|create table ?$F $N",
	"add|create chain ?$F $T $N",
	"add|create set|map ?$F $T $N",
	"add|delete|get|reset element ?$F $T $S",
	"add|delete|get|reset element ?$F $T $M",
	"add|insert rule ?$F $T $C $R",
	"add|insert rule ?$F $T $C position|handle $H $R",
	"add|insert rule ?$F $T $C index $N $R",
	"replace rule ?$F $T $C handle $H $R",
	"delete|destroy table ?$F $T",
	"delete|destroy chain ?$F $T $C",
	"delete|destroy rule ?$F $T $C handle $H",
	"delete|destroy set ?$F $T $S",
	"delete|destroy map ?$F $T $M",
	"table ?$F $N",
	"chain ?$F $T $N",
	"set|map ?$F $T $N",
	"element ?$F $T $S",
	"element ?$F $T $M",
	"rule ?$F $T $C $R",
	"describe $X",
	"define|redefine $N",
	"undefine $N",
	"include",
	"quit",
	"exit",
	NULL,
};

/* inside "table ... {" */
static const char *const table_shapes[] = {
	"chain $N",
	"set|map $N",
	"comment",
	"flags dormant|owner|persist",
	NULL,
};

/* inside "chain ... {" */
static const char *const chain_shapes[] = {
	"type filter|nat|route hook ingress|egress|prerouting|input|forward|output|postrouting priority",
	"type filter|nat|route hook ingress|egress|prerouting|input|forward|output|postrouting device $D priority",
	"type filter|nat|route hook ingress|egress|prerouting|input|forward|output|postrouting devices",
	"policy accept|drop",
	"comment",
	"$R",
	NULL,
};

/* inside "set ... {" or "map ... {" */
static const char *const set_shapes[] = {
	"type|typeof|elements|size|timeout|gc-interval|comment|counter|auto-merge",
	"policy performance|memory",
	"flags constant|interval|dynamic|timeout",
	NULL,
};

/*
 * what may come next in a rule besides the library's statement kinds
 * (nfh_stmt_words) and selectors: the verdicts, and the statements that
 * are no kinds of the library's table yet
 */
static const char *const stmt_words[] = {
	"accept", "continue", "dnat", "drop", "goto", "jump", "masquerade",
	"redirect", "return", "snat",
	NULL,
};

/* those of them that take no argument: a statement may follow at once */
static const char *const bare_stmts[] = {
	"accept", "continue", "drop", "masquerade", "redirect", "return",
	NULL,
};

/* relational operators, "set" and "vmap" sit between a selector and its value */
static const char *const operators[] = {
	"==", "!=", "<", ">", "<=", ">=", "set", "vmap", NULL,
};

static const char *const families[] = {
	"arp", "bridge", "inet", "ip", "ip6", "netdev", NULL,
};

/** what the words typed so far say about where the cursor is */
struct where {
	const char	*family;	/* NULL: ip, as the grammar defaults */
	const char	*table;
	const char	*chain;
};

struct cands {
	char		**v;
	size_t		n, cap;
	const char	*prefix;
};

static void cand_add(struct cands *c, const char *s)
{
	if (strncmp(s, c->prefix, strlen(c->prefix)))
		return;
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->v[i], s))
			return;
	if (c->n + 1 >= c->cap) {
		c->cap = c->cap ? 2 * c->cap : 32;
		c->v = realloc(c->v, c->cap * sizeof(*c->v));
		if (!c->v)
			exit(2);
	}
	c->v[c->n++] = strdup(s);
}

static struct nfh_ctx *comp_ctx;
static FILE *comp_null;

/* the ruleset's names, read once per Tab press */
struct obj {
	enum nfh_obj_kind	kind;
	char			*family, *table, *chain, *name;
	uint64_t		handle;
};

static struct {
	struct obj	*v;
	size_t		n;
	bool		loaded;
} objs;

static int obj_store(const struct nfh_obj *o, void *data)
{
	struct obj *v = realloc(objs.v, (objs.n + 1) * sizeof(*v));

	if (!v)
		exit(2);
	objs.v = v;
	v[objs.n++] = (struct obj){
		.kind	= o->kind,
		.family	= strdup(o->family),
		.table	= strdup(o->table),
		.chain	= o->chain ? strdup(o->chain) : NULL,
		.name	= o->name ? strdup(o->name) : NULL,
		.handle	= o->handle,
	};
	return 0;
}

static void objs_clear(void)
{
	for (size_t i = 0; i < objs.n; i++) {
		free(objs.v[i].family);
		free(objs.v[i].table);
		free(objs.v[i].chain);
		free(objs.v[i].name);
	}
	free(objs.v);
	memset(&objs, 0, sizeof(objs));
}

/* errors reading the ruleset would scribble over the line being edited */
static void objs_load(void)
{
	if (objs.loaded)
		return;
	objs.loaded = true;
	if (comp_null)
		nfh_ctx_set_output(comp_ctx, comp_null, comp_null);
	nfh_ruleset_foreach(comp_ctx, obj_store, NULL);
	nfh_ctx_set_output(comp_ctx, stdout, stderr);
}

static bool obj_in(const struct obj *o, enum nfh_obj_kind kind,
		   const struct where *w)
{
	if (o->kind != kind || strcmp(o->family, w->family ? w->family : "ip"))
		return false;
	if (kind != NFH_OBJ_TABLE && (!w->table || strcmp(o->table, w->table)))
		return false;
	if (kind == NFH_OBJ_RULE && (!w->chain || strcmp(o->chain, w->chain)))
		return false;
	return true;
}

static bool obj_exists(enum nfh_obj_kind kind, const struct where *w,
		       const char *name)
{
	objs_load();
	for (size_t i = 0; i < objs.n; i++)
		if (obj_in(&objs.v[i], kind, w) && !strcmp(objs.v[i].name, name))
			return true;
	return false;
}

static void add_objects(struct cands *c, enum nfh_obj_kind kind,
			const struct where *w)
{
	char num[24];

	objs_load();
	for (size_t i = 0; i < objs.n; i++) {
		const struct obj *o = &objs.v[i];

		if (!obj_in(o, kind, w))
			continue;
		if (kind == NFH_OBJ_RULE) {
			snprintf(num, sizeof(num), "%llu",
				 (unsigned long long)o->handle);
			cand_add(c, num);
		} else {
			cand_add(c, o->name);
		}
	}
}

/* "@name" references to the sets and maps of the table */
static void add_setrefs(struct cands *c, const struct where *w)
{
	char ref[300];

	objs_load();
	for (size_t i = 0; i < objs.n; i++) {
		const struct obj *o = &objs.v[i];

		if (!obj_in(o, NFH_OBJ_SET, w) && !obj_in(o, NFH_OBJ_MAP, w))
			continue;
		snprintf(ref, sizeof(ref), "@%s", o->name);
		cand_add(c, ref);
	}
}

static void add_devices(struct cands *c)
{
	struct if_nameindex *ifs = if_nameindex();

	for (struct if_nameindex *i = ifs; i && i->if_index; i++)
		cand_add(c, i->if_name);
	if (ifs)
		if_freenameindex(ifs);
}

static void add_list(struct cands *c, const char *const *words)
{
	for (; *words; words++)
		cand_add(c, *words);
}

static bool in_list(const char *const *words, const char *w)
{
	for (; *words; words++)
		if (!strcmp(*words, w))
			return true;
	return false;
}

static int word_add(const char *word, void *data)
{
	cand_add(data, word);
	return 0;
}

static int expr_words(char **w, int n, struct cands *c)
{
	return nfh_expr_words((const char *const *)w, n, c ? word_add : NULL, c);
}

#define MAX_SEL	3	/* words in the longest selector: ct original proto-src */

static int expr_count(const char *word, void *data)
{
	return 0;
}

/* whether w[0..n) start a selector, and whether they are all of one */
static bool selector_start(char **w, int n)
{
	return nfh_expr_words((const char *const *)w, n, expr_count, NULL) >= 0;
}

static int first_word(const char *word, void *data)
{
	*(char **)data = strdup(word);
	return 1;
}

/*
 * Whether w[0..n) are a whole selector rather than the start of a longer
 * one: they are, unless the first word that may follow makes a selector.
 */
static bool selector_whole(char **w, int n)
{
	char *v[MAX_SEL + 1], *next = NULL;
	bool longer = false;

	if (n > MAX_SEL)
		return true;
	nfh_expr_words((const char *const *)w, n, first_word, &next);
	if (next) {
		memcpy(v, w, n * sizeof(*v));
		v[n] = next;
		longer = selector_start(v, n + 1);
		free(next);
	}
	return !longer;
}

struct word_find {
	const char	*word;
	bool		found;
};

static int word_is(const char *word, void *data)
{
	struct word_find *wf = data;

	wf->found = !strcmp(word, wf->word);
	return wf->found;
}

/* @w starts a statement; @bare: one that takes no argument */
static bool is_stmt_word(const char *w, bool bare)
{
	struct word_find wf = { .word = w };

	if (in_list(bare ? bare_stmts : stmt_words, w))
		return true;
	nfh_stmt_words(bare, word_is, &wf);
	return wf.found;
}

static void add_rule_starts(struct cands *c)
{
	add_list(c, stmt_words);
	nfh_stmt_words(false, word_add, c);
	expr_words(NULL, 0, c);
}

/*
 * The selector the last of the @n words @w leaves open (its index, and
 * its words in *len), or -1: each selector is taken with an optional
 * operator and one value.
 */
static int open_selector(char **w, int n, int *len)
{
	int i = 0, sel = -1;

	while (i < n) {
		sel = -1;
		if (!selector_start(&w[i], 1)) {
			i++;
			continue;
		}
		sel = i;
		for (*len = 1; i + *len < n && *len < MAX_SEL &&
			       selector_start(&w[i], *len + 1); (*len)++)
			;
		i += *len;
		if (i == n || !selector_whole(&w[sel], *len))
			continue;
		if (i < n && in_list(operators, w[i]))
			i++;
		if (i < n) {
			i++;	/* the value */
			sel = -1;
		}
	}
	return sel;
}

/*
 * $R: what may follow the words of a rule typed so far. The words are
 * read left to right as selectors (as far as the library's tables take
 * them), each followed by an optional operator and one value, and
 * statements; what is left open at the cursor says what comes next.
 */
static void rule_cands(struct cands *c, char **w, int n, struct where *wh)
{
	/* a chain's own settings, or where a rule goes: not a rule */
	static const char *const not_rules[] = {
		"comment", "handle", "index", "policy", "position", "type", NULL,
	};
	const char *prev = n > 0 ? w[n - 1] : NULL;
	const char *prev2 = n > 1 ? w[n - 2] : NULL;
	int sel, len = 0;

	if (n > 0 && in_list(not_rules, w[0]))
		return;
	sel = open_selector(w, n, &len);
	if (sel >= 0 && !selector_whole(&w[sel], len)) {
		expr_words(&w[sel], len, c);	/* fields or keys */
	} else if (sel >= 0) {
		/* a value: symbolic constants, devices for interface names */
		const char *key = w[sel + len - 1];

		if (!strcmp(key, "iifname") || !strcmp(key, "oifname") ||
		    !strcmp(key, "iif") || !strcmp(key, "oif"))
			add_devices(c);
		else
			expr_words(&w[sel], len, c);
		add_setrefs(c, wh);
		if (!in_list(operators, prev)) {
			cand_add(c, "set");
			cand_add(c, "vmap");
		}
	} else if (!prev) {
		add_rule_starts(c);
	} else if (!strcmp(prev, "jump") || !strcmp(prev, "goto")) {
		add_objects(c, NFH_OBJ_CHAIN, wh);
	} else if (!strcmp(prev, "fwd") || !strcmp(prev, "dup")) {
		cand_add(c, "to");
	} else if (!strcmp(prev, "to") && prev2 &&
		   (!strcmp(prev2, "fwd") || !strcmp(prev2, "dup"))) {
		add_devices(c);
	} else if (!is_stmt_word(prev, false) || is_stmt_word(prev, true)) {
		add_rule_starts(c);
	}
}

/* one slot of a shape against one word; fills *wh with names it learns */
static bool slot_match(const char *slot, const char *word, struct where *wh)
{
	size_t n = strcspn(slot, " ");
	const char *p = slot;

	if (*slot == '$') {
		switch (slot[1]) {
		case 'F':
			if (!in_list(families, word))
				return false;
			wh->family = word;
			return true;
		case 'T':
			wh->table = word;
			return obj_exists(NFH_OBJ_TABLE, wh, word);
		case 'C':
			wh->chain = word;
			return obj_exists(NFH_OBJ_CHAIN, wh, word);
		case 'S':
			return obj_exists(NFH_OBJ_SET, wh, word);
		case 'M':
			return obj_exists(NFH_OBJ_MAP, wh, word);
		case 'H':
			return isdigit((unsigned char)*word);
		default:
			return true;
		}
	}
	while (p < slot + n) {
		size_t m = strcspn(p, "| ");

		if (strlen(word) == m && !strncmp(p, word, m))
			return true;
		p += m + (p[m] == '|');
	}
	return false;
}

static void slot_cands(const char *slot, struct cands *c, struct where *wh)
{
	size_t n = strcspn(slot, " ");
	char buf[64];

	if (*slot == '$') {
		switch (slot[1]) {
		case 'F': add_list(c, families); break;
		case 'T': add_objects(c, NFH_OBJ_TABLE, wh); break;
		case 'C': add_objects(c, NFH_OBJ_CHAIN, wh); break;
		case 'S': add_objects(c, NFH_OBJ_SET, wh); break;
		case 'M': add_objects(c, NFH_OBJ_MAP, wh); break;
		case 'H': add_objects(c, NFH_OBJ_RULE, wh); break;
		case 'D': add_devices(c); break;
		case 'R': add_rule_starts(c); break;
		default: break;
		}
		return;
	}
	for (const char *p = slot; p < slot + n;) {
		size_t m = strcspn(p, "| ");

		snprintf(buf, sizeof(buf), "%.*s", (int)m, p);
		cand_add(c, buf);
		p += m + (p[m] == '|');
	}
}

static const char *next_slot(const char *s)
{
	s += strcspn(s, " ");
	while (*s == ' ')
		s++;
	return s;
}

/* walks @shape over words @w[0..n); at the end, adds what may come next */
static void shape_walk(const char *shape, char **w, int n, struct where wh,
		       struct cands *c)
{
	bool opt = *shape == '?';
	const char *slot = shape + opt;

	if (!*shape)
		return;
	if (opt)
		shape_walk(next_slot(shape), w, n, wh, c);
	if (!strncmp(slot, "$R", 2)) {
		rule_cands(c, w, n, &wh);
		return;
	}
	if (!strncmp(slot, "$X", 2)) {
		if (n == 0 || (selector_start(w, n) && !selector_whole(w, n)))
			expr_words(w, n, c);
		return;
	}
	if (n == 0) {
		slot_cands(slot, c, &wh);
		return;
	}
	if (slot_match(slot, w[0], &wh))
		shape_walk(next_slot(shape), w + 1, n - 1, wh, c);
}

/*
 * Splits the text before the cursor into the words of the statement being
 * typed, and finds the block it sits in. Braces of anonymous sets are
 * skipped over; names learnt from "table ip t {" carry into the block.
 */
enum block_kind { IN_TOP, IN_TABLE, IN_CHAIN, IN_SET, IN_OTHER };

#define MAX_WORDS	64
#define MAX_DEPTH	8

struct scan {
	char		*words[MAX_WORDS];
	int		n;
	char		**all;		/* every word scanned, to free at once: */
	int		nall;		/* where[] keeps some past their statement */
	enum block_kind	stack[MAX_DEPTH];
	struct where	where[MAX_DEPTH];
	int		depth;
};

static void scan_open(struct scan *s)
{
	enum block_kind k = s->stack[s->depth], nk = IN_OTHER;
	struct where w = s->where[s->depth];
	int i = 0;

	if (s->n > 0 && (!strcmp(s->words[0], "add") ||
			 !strcmp(s->words[0], "create")))
		i = 1;
	if (k == IN_TOP && i < s->n && !strcmp(s->words[i], "table")) {
		nk = IN_TABLE;
		if (s->n - i > 2 && in_list(families, s->words[i + 1])) {
			w.family = s->words[i + 1];
			w.table = s->words[i + 2];
		} else if (s->n - i > 1) {
			w.table = s->words[i + 1];
		}
	} else if (k == IN_TOP && i < s->n && !strcmp(s->words[i], "chain")) {
		nk = IN_CHAIN;
		i++;
		if (i < s->n && in_list(families, s->words[i]))
			w.family = s->words[i++];
		if (i < s->n)
			w.table = s->words[i];
	} else if (k == IN_TABLE && s->n > 0 && !strcmp(s->words[0], "chain")) {
		nk = IN_CHAIN;
	} else if (s->n > i && (!strcmp(s->words[i], "set") ||
				!strcmp(s->words[i], "map")) &&
		   (k == IN_TABLE || (k == IN_TOP && s->n - i >= 3))) {
		nk = IN_SET;
		if (k == IN_TOP) {
			i++;
			if (in_list(families, s->words[i]))
				w.family = s->words[i++];
			w.table = s->words[i];
		}
	}
	if (s->depth + 1 < MAX_DEPTH) {
		s->depth++;
		s->stack[s->depth] = nk;
		s->where[s->depth] = w;
	}
	/* a set's elements are not words of the statement */
	if (nk != IN_OTHER)
		s->n = 0;
}

static void scan_text(struct scan *s, char *text)
{
	char *p = text;

	while (*p) {
		if (*p == '#') {
			p += strcspn(p, "\n");
		} else if (*p == '\n' || *p == ';') {
			if (s->stack[s->depth] != IN_OTHER)
				s->n = 0;
			p++;
		} else if (*p == '{') {
			scan_open(s);
			p++;
		} else if (*p == '}') {
			if (s->depth > 0)
				s->depth--;
			if (s->stack[s->depth] != IN_OTHER)
				s->n = 0;
			p++;
		} else if (isspace((unsigned char)*p)) {
			p++;
		} else {
			size_t m = strcspn(p, " \t\n;{}#");
			bool keep = s->stack[s->depth] != IN_OTHER;

			if (keep && s->n < MAX_WORDS) {
				s->words[s->n++] = strndup(p, m);
				char **a = realloc(s->all, (s->nall + 1) * sizeof(*a));

				if (a) {
					s->all = a;
					s->all[s->nall++] = s->words[s->n - 1];
				} else {
					free(s->words[--s->n]);
				}
			}
			p += m;
		}
	}
}

static struct block *pending;	/* lines of an open block, for context */
static struct cands cands;

static void complete_words(char *before)
{
	static struct scan s;
	struct where none = { 0 };
	const char *const *shapes;
	char *text;

	for (int i = 0; i < s.nall; i++)
		free(s.all[i]);
	free(s.all);
	memset(&s, 0, sizeof(s));
	if (asprintf(&text, "%s%s", pending->buf ? pending->buf : "", before) < 0)
		return;
	scan_text(&s, text);
	switch (s.stack[s.depth]) {
	case IN_TOP:	shapes = top_shapes; break;
	case IN_TABLE:	shapes = table_shapes; break;
	case IN_CHAIN:	shapes = chain_shapes; break;
	case IN_SET:	shapes = set_shapes; break;
	default:	shapes = NULL; break;
	}
	for (; shapes && *shapes; shapes++)
		shape_walk(*shapes, s.words, s.n,
			   s.depth ? s.where[s.depth] : none, &cands);
	free(text);
}

static char *cand_next(const char *text, int state)
{
	static size_t i;

	if (state == 0)
		i = 0;
	return i < cands.n ? strdup(cands.v[i++]) : NULL;
}

static int cand_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static char **complete(const char *text, int start, int end)
{
	char *before = strndup(rl_line_buffer, start);

	rl_attempted_completion_over = 1;
	objs_clear();
	for (size_t i = 0; i < cands.n; i++)
		free(cands.v[i]);
	cands.n = 0;
	cands.prefix = text;
	if (before)
		complete_words(before);
	free(before);
	qsort(cands.v, cands.n, sizeof(*cands.v), cand_cmp);
	if (cands.n == 0)
		return NULL;
	return rl_completion_matches(text, cand_next);
}

/* --- the terminal loop --------------------------------------------------------- */

static char *history_path(void)
{
	const char *home = getenv("HOME");
	struct passwd *pw;
	char *path;

	if (!home || !*home) {
		pw = getpwuid(getuid());
		home = pw ? pw->pw_dir : NULL;
	}
	if (!home || asprintf(&path, "%s/%s", home, HISTORY_FILE) < 0)
		return NULL;
	return path;
}

/*
 * Ctrl-C while a line is typed drops that line, or the unfinished block,
 * and gives a fresh prompt.  The handler only sets a flag; it is installed
 * without SA_RESTART so that the read under libedit returns EINTR, and our
 * getc then hands libedit a newline to end the line with.  While a command
 * runs, SIGINT has its default action again: Ctrl-C stops a monitor.
 */
static volatile sig_atomic_t interrupted;

static void sigint_handler(int sig)
{
	(void)sig;
	interrupted = 1;
}

static int sigint_catch(bool on)
{
	struct sigaction sa = { .sa_handler = on ? sigint_handler : SIG_DFL };

	sigemptyset(&sa.sa_mask);
	return sigaction(SIGINT, &sa, NULL);
}

static int cli_getc(FILE *f)
{
	unsigned char c;
	ssize_t n;

	for (;;) {
		if (interrupted)
			return '\n';
		n = read(fileno(f), &c, 1);
		if (n == 1)
			return c;
		if (n < 0 && errno == EINTR)
			continue;
		return EOF;
	}
}

/* reads a line; NULL at end of input; *cancelled when Ctrl-C dropped it */
static char *line_read(const struct block *b, bool *cancelled)
{
	char *line;

	interrupted = 0;
	sigint_catch(true);
	line = readline(b->len ? PROMPT_MORE : PROMPT);
	sigint_catch(false);
	*cancelled = interrupted;
	if (*cancelled) {
		free(line);
		line = NULL;
	}
	return line;
}

static int cli_terminal(struct nfh_ctx *ctx)
{
	char *hist = history_path(), *line;
	bool failed = false, hist_warned = false, cancelled;
	struct block b = { 0 };

	comp_ctx = ctx;
	rl_catch_signals = 0;
	rl_getc_function = cli_getc;
	comp_null = fopen("/dev/null", "w");
	pending = &b;
	rl_readline_name = "nfh";
	rl_attempted_completion_function = complete;
	rl_completer_word_break_characters = " \t\n;{}";
	rl_basic_word_break_characters = " \t\n;{}";
	stifle_history(HISTORY_MAX);
	if (hist)
		read_history(hist);

	for (;;) {
		line = line_read(&b, &cancelled);
		if (cancelled) {
			block_reset(&b);
			continue;
		}
		if (!line) {
			/* Ctrl-D: end the prompt line, as a shell does */
			putchar('\n');
			feed_eof(ctx, &b, &failed);
			break;
		}
		if (!is_blank(line)) {
			add_history(line);
			/* saved at once: Ctrl-C during a command ends the shell */
			if (hist && write_history(hist) != 0 && !hist_warned) {
				fprintf(stderr, "nfh: cannot write history to %s: %s\n",
					hist, strerror(errno));
				hist_warned = true;
			}
		}
		if (feed_line(ctx, &b, line, &failed)) {
			free(line);
			break;
		}
		free(line);
	}
	free(hist);
	block_reset(&b);
	for (size_t i = 0; i < cands.n; i++)
		free(cands.v[i]);
	free(cands.v);
	objs_clear();
	if (comp_null)
		fclose(comp_null);
	return failed ? 1 : 0;
}

int cli_run(struct nfh_ctx *ctx)
{
	if (isatty(STDIN_FILENO))
		return cli_terminal(ctx);
	return cli_pipe(ctx);
}

#else /* !HAVE_LIBEDIT */

int cli_run(struct nfh_ctx *ctx)
{
	if (isatty(STDIN_FILENO)) {
		fprintf(stderr, "Error: nfh was built without libedit (configure --with-cli=editline): "
			"no line editing; pipe commands into 'nfh -i' instead\n");
		return 1;
	}
	return cli_pipe(ctx);
}

#endif
