// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The library's entry points: parse, evaluate, linearize, then either one
 * netlink batch or, offline, the in-memory ruleset; list commands run after
 * the transaction.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include <libnftnl/chain.h>
#include <libnftnl/rule.h>

#include <cache.h>
#include <ctx.h>
#include <delinearize.h>
#include <evaluate.h>
#include <hooks.h>
#include <json.h>
#include <cascade.h>
#include <linearize.h>
#include <monitor.h>
#include <offline.h>
#include <parser.h>
#include <plan.h>
#include <print.h>
#include <stream.h>
#include <parser_json.h>

EXPORT struct nfh_ctx *nfh_ctx_new(void)
{
	struct nfh_ctx *ctx = xzalloc(sizeof(*ctx));

	/* jansson's allocations fail as ours do: out of memory, exit 2 (its
	   parser would call a failed one "invalid JSON") */
	json_set_alloc_funcs(xmalloc, free);
	ctx->octx.out = stdout;
	ctx->octx.err = stderr;
	init_list_head(&ctx->inputs);
	init_list_head(&ctx->ext_sets);
	return ctx;
}

static void free_inputs(struct nfh_ctx *ctx)
{
	struct input_desc *in, *next;

	list_for_each_entry_safe(in, next, &ctx->inputs, list) {
		list_del(&in->list);
		free(in->name);
		free(in->data);
		free(in->parent);
		free(in);
	}
}

EXPORT void nfh_ctx_free(struct nfh_ctx *ctx)
{
	if (!ctx)
		return;
	nlio_close(ctx);
	free_inputs(ctx);
	nfh_ctx_unbuffer_output(ctx);
	nfh_ctx_unbuffer_error(ctx);
	nfh_ctx_clear_include_paths(ctx);
	nfh_ctx_clear_vars(ctx);
	cache_free(ctx->offline_cache);
	free(ctx);
}

EXPORT void nfh_ctx_set_output_flags(struct nfh_ctx *ctx, unsigned int flags)
{
	ctx->oflags = flags;
	/* as nft's -n: fully numeric, every numeric flag at once */
	if (flags & NFH_OUTPUT_NUMERIC)
		flags |= NFH_OUTPUT_NUMERIC_PROTO | NFH_OUTPUT_NUMERIC_PRIO |
			 NFH_OUTPUT_NUMERIC_TIME;
	/* the printers know the symbols' part of -n as NFH_OUTPUT_NUMERIC */
	if (flags & NFH_OUTPUT_NUMERIC_SYMBOL)
		flags = (flags & ~NFH_OUTPUT_NUMERIC_SYMBOL) | NFH_OUTPUT_NUMERIC;
	ctx->octx.flags = flags;
}

EXPORT unsigned int nfh_ctx_get_output_flags(const struct nfh_ctx *ctx)
{
	return ctx->oflags;
}

EXPORT void nfh_ctx_set_debug(struct nfh_ctx *ctx, unsigned int flags)
{
	ctx->debug = flags;
}

EXPORT void nfh_ctx_set_dry_run(struct nfh_ctx *ctx, bool dry)
{
	ctx->dry_run = dry;
}

EXPORT void nfh_ctx_set_offline(struct nfh_ctx *ctx, bool offline)
{
	ctx->offline = offline;
	datatype_hosts_file_only(offline);
}

EXPORT void nfh_ctx_set_output(struct nfh_ctx *ctx, FILE *out, FILE *err)
{
	ctx->octx.out = out;
	ctx->octx.err = err;
}

EXPORT FILE *nfh_ctx_output_stream(const struct nfh_ctx *ctx)
{
	return ctx->octx.out;
}

EXPORT FILE *nfh_ctx_error_stream(const struct nfh_ctx *ctx)
{
	return ctx->octx.err;
}

/* --- output kept in memory ------------------------------------------------- */

static ssize_t membuf_write(void *cookie, const char *data, size_t n)
{
	struct nfh_membuf *b = cookie;

	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 1024;

		while (cap < b->len + n + 1)
			cap *= 2;
		b->data = xrealloc(b->data, cap);
		b->cap = cap;
	}
	memcpy(b->data + b->len, data, n);
	b->len += n;
	b->data[b->len] = '\0';
	return n;
}

static int membuf_start(struct nfh_membuf **bp, FILE **stream)
{
	static const cookie_io_functions_t io = { .write = membuf_write };
	struct nfh_membuf *b = *bp;

	if (b) {
		/* buffered already: what it held is dropped */
		fflush(b->fp);
		b->len = 0;
		return 0;
	}
	b = xzalloc(sizeof(*b));
	b->fp = fopencookie(b, "w", io);
	if (!b->fp) {
		free(b);
		return -1;
	}
	b->orig = *stream;
	*stream = b->fp;
	*bp = b;
	return 0;
}

static int membuf_stop(struct nfh_membuf **bp, FILE **stream)
{
	struct nfh_membuf *b = *bp;

	if (!b)
		return -1;
	if (*stream == b->fp)
		*stream = b->orig;
	fclose(b->fp);
	free(b->data);
	free(b);
	*bp = NULL;
	return 0;
}

/* what was written since the last call; the next write starts anew */
static const char *membuf_take(struct nfh_membuf *b)
{
	if (!b)
		return NULL;
	fflush(b->fp);
	if (!b->len)
		return "";
	b->len = 0;
	return b->data;
}

EXPORT int nfh_ctx_buffer_output(struct nfh_ctx *ctx)
{
	return membuf_start(&ctx->outbuf, &ctx->octx.out);
}

EXPORT int nfh_ctx_unbuffer_output(struct nfh_ctx *ctx)
{
	return membuf_stop(&ctx->outbuf, &ctx->octx.out);
}

EXPORT const char *nfh_ctx_get_output_buffer(struct nfh_ctx *ctx)
{
	return membuf_take(ctx->outbuf);
}

EXPORT int nfh_ctx_buffer_error(struct nfh_ctx *ctx)
{
	return membuf_start(&ctx->errbuf, &ctx->octx.err);
}

EXPORT int nfh_ctx_unbuffer_error(struct nfh_ctx *ctx)
{
	return membuf_stop(&ctx->errbuf, &ctx->octx.err);
}

EXPORT const char *nfh_ctx_get_error_buffer(struct nfh_ctx *ctx)
{
	return membuf_take(ctx->errbuf);
}

EXPORT int nfh_ctx_add_include_path(struct nfh_ctx *ctx, const char *path)
{
	ctx->include_paths = xrealloc(ctx->include_paths,
				      (ctx->num_include_paths + 1) * sizeof(char *));
	ctx->include_paths[ctx->num_include_paths++] = xstrdup(path);
	return 0;
}

EXPORT void nfh_ctx_clear_include_paths(struct nfh_ctx *ctx)
{
	for (unsigned int i = 0; i < ctx->num_include_paths; i++)
		free(ctx->include_paths[i]);
	free(ctx->include_paths);
	ctx->include_paths = NULL;
	ctx->num_include_paths = 0;
	ctx->no_default_include = true;
}

EXPORT int nfh_ctx_add_var(struct nfh_ctx *ctx, const char *def)
{
	const char *eq = strchr(def, '=');

	if (!eq || eq == def)
		return -1;
	ctx->defines = xrealloc(ctx->defines,
				(ctx->num_defines + 1) * sizeof(char *));
	ctx->defines[ctx->num_defines++] = xstrdup(def);
	return 0;
}

EXPORT void nfh_ctx_clear_vars(struct nfh_ctx *ctx)
{
	for (unsigned int i = 0; i < ctx->num_defines; i++)
		free(ctx->defines[i]);
	free(ctx->defines);
	ctx->defines = NULL;
	ctx->num_defines = 0;
}

/* --- running commands ------------------------------------------------------ */

static void cmds_free(struct list_head *cmds)
{
	struct cmd *cmd, *next;

	list_for_each_entry_safe(cmd, next, cmds, list) {
		list_del(&cmd->list);
		cmd_free(cmd);
	}
}

/* list or reset counters, quotas, ...: offline, a reset zeroes the cache */
static int run_objs(struct nfh_ctx *ctx, struct cmd *cmd,
		    struct list_head *msgs)
{
	unsigned int family = cmd->family_given || cmd->h.table ? cmd->h.family : 0;
	struct cache *c = ctx->offline_cache, *tmp = NULL;
	bool reset = cmd->op == CMD_RESET;
	const char *name = cmd->obj == CMD_OBJ_OBJ ? cmd->h.obj : NULL;
	int ret;

	if (!ctx->offline) {
		tmp = cache_alloc();
		ret = reset ? nlio_obj_reset(ctx, family, cmd->h.table,
					     cmd->h.obj_type, name, tmp, msgs) :
			      nlio_dump(ctx, family, tmp, msgs);
		if (ret < 0) {
			cache_free(tmp);
			if (ret == -1)
				return -1;	/* queued already */
			goto out;
		}
		c = tmp;
	}
	if (!c)
		c = tmp = cache_alloc();
	if (ctx->octx.flags & NFH_OUTPUT_JSON)
		ret = json_objs(c, family, cmd->h.table, cmd->h.obj_type, name,
				ctx->octx.out);
	else
		ret = print_objs(c, family, cmd->h.table, cmd->h.obj_type, name,
				 &ctx->octx, ctx->octx.out);
	if (ret == 0 && reset && ctx->offline)
		cache_obj_reset(c, family, cmd->h.table, cmd->h.obj_type, name);
	cache_free(tmp);
out:
	if (ret < 0)
		return error_queue(msgs, name ? &cmd->h.obj_loc : &cmd->h.table_loc,
			    "Could not process %s: No such file or directory",
			    name ? obj_type_name(cmd->h.obj_type) : "table");
	return ret;
}

/* the elements of a get or reset element command picked from the set
   @cs (delinearized as @s); each one not there is an error */
static int get_pick(struct cmd *cmd, struct cache_set *cs, struct set *s,
		    struct list_head *msgs)
{
	const char *kind = cmd->target->is_map ? "map" : "set";
	const struct expr *e;
	unsigned int k = 0;
	bool *found;
	int ret = 0;

	list_for_each_entry(e, &cmd->elems->set.exprs, list)
		k++;
	found = xzalloc((k + 1) * sizeof(*found));
	k = 0;
	set_elems_pick(cs, s, cmd->elems, found);
	list_for_each_entry(e, &cmd->elems->set.exprs, list)
		if (!found[k++])
			ret = error_queue(msgs, &e->loc, "element not found in %s %s",
					  kind, cmd->h.set);
	free(found);
	return ret;
}

/*
 * get element: the set as listed, with only the elements that hold the
 * values asked for; nothing if one of them is in none.  reset element
 * resets those elements' counters and quotas, and lists the values they
 * had.
 */
static int run_get(struct nfh_ctx *ctx, struct cmd *cmd,
		   struct list_head *msgs)
{
	struct cache *c = ctx->offline_cache, *tmp = NULL;
	const char *kind = cmd->target->is_map ? "map" : "set";
	struct cache_table *t = NULL;
	struct cache_set *cs = NULL;
	struct set *s;
	int ret = 0;

	if (ctx->offline && cmd->op == CMD_RESET)
		return error_queue(msgs, &cmd->loc,
				   "reset element needs the kernel's set: it cannot run with --offline");
	if (!ctx->offline) {
		tmp = cache_alloc();
		if (nlio_dump_set(ctx, cmd->h.family, cmd->h.table, cmd->h.set,
				  false, tmp, msgs) < 0) {
			cache_free(tmp);
			return -1;
		}
		c = tmp;
	}
	if (c)
		t = cache_table_find(c, cmd->h.family, cmd->h.table);
	if (t)
		cs = cache_set_find(t, cmd->h.set);
	if (!cs) {
		/* gone since the command was checked */
		cache_free(tmp);
		return error_queue(msgs, &cmd->h.set_loc,
				   "%s %s does not exist in table %s %s", kind,
				   cmd->h.set, family_name(cmd->h.family),
				   cmd->h.table);
	}
	s = delin_set(t, cs, false);
	ret = get_pick(cmd, cs, s, msgs);
	if (ret == 0 && cmd->op == CMD_RESET) {
		uint32_t *recs;
		size_t n = set_elems_picked(cs, s, &recs);

		ret = nlio_elems_reset(ctx, cmd->h.family, cs, recs, n, msgs);
		free(recs);
	}
	if (ret == 0 && (ctx->octx.flags & NFH_OUTPUT_JSON))
		ret = json_listing(c, LIST_SET, cmd->h.family, cmd->h.table,
				   cmd->h.set, &ctx->octx, ctx->octx.out, msgs);
	else if (ret == 0)
		ret = print_listing(c, LIST_SET, cmd->h.family, cmd->h.table,
				    cmd->h.set, &ctx->octx, ctx->octx.out);
	/* the offline ruleset lists whole again */
	free(cs->pick);
	cs->pick = NULL;
	set_free(s);
	cache_free(tmp);
	return ret < 0 ? -1 : 0;
}

/* a chain's listing narrowed to one rule: the table's other chains and
   the chain's other rules set aside while it lists, then put back */
struct rule_alone {
	struct cache_table	*t;
	struct cache_chain	*ch;
	struct cache_rule	*cr;
	struct list_head	chains, rules;
	struct list_head	*cprev, *rprev;
};

static void rule_alone_begin(struct rule_alone *ra, struct cache_table *t,
			     struct cache_chain *ch, uint64_t handle)
{
	struct cache_rule *cr;

	*ra = (struct rule_alone){ .t = t, .ch = ch };
	init_list_head(&ra->chains);
	init_list_head(&ra->rules);
	ra->cprev = ch->list.prev;
	list_del(&ch->list);
	list_splice_tail_init(&t->chains, &ra->chains);
	list_add(&ch->list, &t->chains);
	list_for_each_entry(cr, &ch->rules, list)
		if (nftnl_rule_get_u64(cr->nlr, NFTNL_RULE_HANDLE) == handle)
			break;
	if (&cr->list != &ch->rules) {
		ra->rprev = cr->list.prev;
		list_del(&cr->list);
	}
	list_splice_tail_init(&ch->rules, &ra->rules);
	if (ra->rprev)
		list_add(&cr->list, &ch->rules);
	ra->cr = cr;
}

static void rule_alone_end(struct rule_alone *ra)
{
	if (ra->rprev)
		list_del(&ra->cr->list);
	list_splice_tail_init(&ra->rules, &ra->ch->rules);
	if (ra->rprev)
		list_add(&ra->cr->list, ra->rprev);
	list_del(&ra->ch->list);
	list_splice_tail_init(&ra->chains, &ra->t->chains);
	list_add(&ra->ch->list, ra->cprev);
}

/* the counters and quotas of the rules cmd resets, in the offline model */
static void offline_rules_reset(struct cache *c, unsigned int family,
				const struct cmd *cmd)
{
	struct cache_table *t;
	struct cache_chain *och;
	struct cache_rule *cr;

	list_for_each_entry(t, &c->tables, list)
		list_for_each_entry(och, &t->chains, list) {
			if (!cache_table_matches(t, family, cmd->h.table) ||
			    (cmd->h.chain &&
			     strcmp(cmd->h.chain, nftnl_chain_get_str(och->nlc,
							NFTNL_CHAIN_NAME))))
				continue;
			list_for_each_entry(cr, &och->rules, list)
				if (!cmd->h.handle ||
				    nftnl_rule_get_u64(cr->nlr, NFTNL_RULE_HANDLE) ==
				    cmd->h.handle)
					cache_rule_reset(cr->nlr);
		}
}

/*
 * reset rules [FAMILY [TABLE [CHAIN]]], reset rule T C handle N (nft 1.1):
 * listed as they were, the ruleset, the table or the chain; one rule in
 * its table, the other chains and rules left out, as nft 1.1.1 lists it
 */
static int run_rules_reset(struct nfh_ctx *ctx, struct cmd *cmd,
			   struct list_head *msgs)
{
	unsigned int family = cmd->family_given ? cmd->h.family : 0;
	struct cache *c = ctx->offline_cache, *tmp = NULL;
	struct cache_table *t = NULL;
	struct cache_chain *ch = NULL;
	struct rule_alone ra;
	enum list_what what = cmd->h.chain && !cmd->h.handle ? LIST_CHAIN :
			      cmd->h.table ? LIST_TABLE : LIST_RULESET;
	int ret;

	if (!ctx->offline) {
		tmp = cache_alloc();
		ret = nlio_rules_reset(ctx, family, cmd->h.table, cmd->h.chain,
				       cmd->h.handle, tmp, msgs);
		if (ret == -1) {
			cache_free(tmp);
			return -1;
		}
		c = tmp;
	}
	if (!c)
		c = tmp = cache_alloc();
	if (cmd->h.table)
		t = cache_table_find(c, cmd->h.family, cmd->h.table);
	if (t && cmd->h.chain)
		ch = cache_chain_find(t, cmd->h.chain);
	if ((cmd->h.table && !t) || (cmd->h.chain && !ch)) {
		cache_free(tmp);
		return error_queue(msgs, cmd->h.chain && t ? &cmd->h.chain_loc :
				   &cmd->h.table_loc,
				   "Could not process %s: No such file or directory",
				   cmd->h.chain && t ? "chain" : "table");
	}
	if (cmd->h.handle)
		rule_alone_begin(&ra, t, ch, cmd->h.handle);
	if (ctx->octx.flags & NFH_OUTPUT_JSON)
		ret = json_listing(c, what, family, cmd->h.table, cmd->h.chain,
				   &ctx->octx, ctx->octx.out, msgs);
	else
		ret = print_listing(c, what, family, cmd->h.table, cmd->h.chain,
				    &ctx->octx, ctx->octx.out);
	if (cmd->h.handle)
		rule_alone_end(&ra);
	if (ctx->offline)
		/* the model resets them as the kernel does */
		offline_rules_reset(c, family, cmd);
	cache_free(tmp);
	return ret < 0 ? -1 : 0;
}

/* the chain, set, meter or flowtable a listing of @what names */
static const char *list_name(const struct cmd *cmd, enum list_what what)
{
	if (what == LIST_SET || what == LIST_METER)
		return cmd->h.set;
	return what == LIST_FLOWTABLE ? cmd->h.obj : cmd->h.chain;
}

/* what a list command of the object obj lists */
static enum list_what list_what_of(enum cmd_obj obj)
{
	switch (obj) {
	case CMD_OBJ_TABLES:	return LIST_TABLES;
	case CMD_OBJ_TABLE:	return LIST_TABLE;
	case CMD_OBJ_CHAINS:	return LIST_CHAINS;
	case CMD_OBJ_CHAIN:	return LIST_CHAIN;
	case CMD_OBJ_SETS:	return LIST_SETS;
	case CMD_OBJ_MAPS:	return LIST_MAPS;
	case CMD_OBJ_METERS:	return LIST_METERS;
	case CMD_OBJ_METER:	return LIST_METER;
	case CMD_OBJ_SET:
	case CMD_OBJ_MAP:	return LIST_SET;
	case CMD_OBJ_FLOWTABLES: return LIST_FLOWTABLES;
	case CMD_OBJ_FLOWTABLE:	return LIST_FLOWTABLE;
	default:		return LIST_RULESET;
	}
}

/* the kernel's ruleset a list command lists, dumped into a cache of its
   own (reset set: the set as its elements were, now reset); NULL on error */
static struct cache *list_dump(struct nfh_ctx *ctx, const struct cmd *cmd,
			       struct list_head *msgs)
{
	struct cache *tmp = cache_alloc();

	if ((cmd->op == CMD_RESET ?
	     nlio_dump_set(ctx, cmd->h.family, cmd->h.table, cmd->h.set,
			   true, tmp, msgs) :
	     nlio_dump(ctx, cmd->family_given || cmd->h.table ?
		       cmd->h.family : 0, tmp, msgs)) < 0) {
		cache_free(tmp);
		return NULL;
	}
	return tmp;
}

static int run_list(struct nfh_ctx *ctx, struct cmd *cmd,
		    struct list_head *msgs)
{
	struct cache *c = ctx->offline_cache, *tmp = NULL;
	enum list_what what;
	int ret;

	if (cmd->obj == CMD_OBJ_OBJ || cmd->obj == CMD_OBJ_OBJS)
		return run_objs(ctx, cmd, msgs);
	if (cmd->obj == CMD_OBJ_RULES)
		return run_rules_reset(ctx, cmd, msgs);
	if (cmd->obj == CMD_OBJ_ELEMENTS)
		return run_get(ctx, cmd, msgs);
	if (cmd->obj == CMD_OBJ_HOOKS)
		return hooks_list(ctx, cmd, msgs);
	if (cmd->op == CMD_RESET && ctx->offline)
		return error_queue(msgs, &cmd->loc,
				   "reset %s needs the kernel's set: it cannot run with --offline",
				   cmd->obj == CMD_OBJ_MAP ? "map" : "set");
	if (!ctx->offline) {
		tmp = list_dump(ctx, cmd, msgs);
		if (!tmp)
			return -1;
		c = tmp;
	}
	what = list_what_of(cmd->obj);
	if ((what == LIST_SETS && cmd->h.table) ||
	    ((what == LIST_MAPS || what == LIST_CHAINS) && cmd->h.table)) {
		/* list sets table T: as nft 1.0.6, the sets of every table of
		   T's family, once T is found */
		if (!c || !cache_table_find(c, cmd->h.family, cmd->h.table)) {
			cache_free(tmp);
			return error_queue(msgs, &cmd->h.table_loc,
					   "Could not process table: No such file or directory");
		}
		if (cmd->all_family) {
			free(cmd->h.table);
			cmd->h.table = NULL;
		}
	}
	if (ctx->octx.flags & NFH_OUTPUT_JSON)
		ret = json_listing(c, what,
				   cmd->family_given || cmd->h.table ? cmd->h.family : 0,
				   cmd->h.table, list_name(cmd, what),
				   &ctx->octx, ctx->octx.out, msgs);
	else
		ret = print_listing(c, what,
				    cmd->family_given || cmd->h.table ? cmd->h.family : 0,
				    cmd->h.table, list_name(cmd, what),
				    &ctx->octx, ctx->octx.out);
	if (ret == -1)
		error_queue(msgs, &cmd->loc, "Could not process %s: No such file or directory",
			    cmd->obj == CMD_OBJ_CHAIN ? "chain" :
			    what == LIST_METER ? "meter" :
			    what == LIST_FLOWTABLE ? "flowtable" :
			    what == LIST_SET ? (cmd->obj == CMD_OBJ_MAP ? "map" : "set") :
			    "table");
	cache_free(tmp);
	return ret;
}

/* the whole of a file or of standard input ("-"); NULL if unreadable */
static char *read_input(const char *name)
{
	FILE *f = strcmp(name, "-") ? fopen(name, "r") : stdin;
	size_t cap = 65536, n = 0, r;
	char *data;

	if (!f)
		return NULL;
	data = xmalloc(cap + 1);
	while ((r = fread(data + n, 1, cap - n, f)) > 0) {
		n += r;
		if (n == cap) {
			cap *= 2;
			data = xrealloc(data, cap + 1);
		}
	}
	if (ferror(f) || memchr(data, '\0', n)) {
		free(data);
		data = NULL;
	} else {
		data[n] = '\0';
	}
	if (f != stdin)
		fclose(f);
	return data;
}

static const char *input_name(const char *name)
{
	return strcmp(name, "-") ? name : "/dev/stdin";
}

/*
 * What was printed must have gone: a full disk or a closed descriptor
 * fails the command (coreutils' close_stdout, at each command).  The
 * error is cleared, so that a shell's next command starts clean.
 */
static int output_flush(FILE *out, struct list_head *msgs)
{
	int err;

	errno = 0;
	if (fflush(out) == 0 && !ferror(out))
		return 0;
	err = errno;
	clearerr(out);
	if (!err)
		return error_queue(msgs, NULL, "write error");
	return error_queue(msgs, NULL, "write error: %s", strerror(err));
}

/* the text of the top-level input of this run (the file, or standard
 * input), read already: a run that starts again must not read it again */
static char *top_input(struct nfh_ctx *ctx, const char *name)
{
	struct input_desc *in;

	list_for_each_entry(in, &ctx->inputs, list)
		if (!in->parent && in->name && !strcmp(in->name, input_name(name)))
			return xstrdup(in->data);
	return NULL;
}

/*
 * One run of the commands of @buf (named @bufname for errors), or of
 * file @name.  RUN_AGAIN: the kernel refused the batch because the
 * ruleset changed since it was read for it; nothing was applied or
 * printed, and *@keep holds the text of file @name to run again.
 */
#define RUN_AGAIN	2
#define RUN_TRIES	10

/* nft's: 1 an error, 3 no netlink socket (2, out of memory, exits at once) */
static int exit_status(struct nfh_ctx *ctx, int ret)
{
	if (ret >= 0)
		return 0;
	return ctx->no_netlink ? 3 : 1;
}

/* -D definitions come first, as if written at the top: one buffer for all
   of them (a buffer each would count as include levels) */
static void push_defines(struct nfh_ctx *ctx, void *scanner)
{
	char *text = xstrdup(""), *more;

	for (unsigned int i = 0; i < ctx->num_defines; i++) {
		const char *def = ctx->defines[i], *eq = strchr(def, '=');

		more = xasprintf("%sdefine %.*s = %s\n", text,
				 (int)(eq - def), def, eq + 1);
		free(text);
		text = more;
	}
	scanner_push_buffer(scanner, NULL, text, NULL);
	free(text);
}

/*
 * Parses the input (@buf, or the file @name) into @state's commands: JSON
 * under -j when it looks like JSON (kept in *@json_in for -j -e), else nft
 * syntax.  0, or -1 with the errors queued.
 */
static int parse_input(struct nfh_ctx *ctx, struct parser_state *state,
		       const char *name, const char *buf, const char *bufname,
		       char **json_in)
{
	const char *stdin_name = bufname;
	char *input = NULL;
	void *scanner;
	int ret = 0;

	if (ctx->octx.flags & NFH_OUTPUT_JSON) {
		/* -j: input that starts with '{' is JSON, anything else nft syntax */
		input = buf ? xstrdup(buf) : read_input(name);
		if (input && json_looks_like(input)) {
			*json_in = input;
			return json_parse(state, buf ? bufname : input_name(name),
					  input) < 0 ? -1 : 0;
		}
		if (input && !buf && !strcmp(name, "-")) {
			/* standard input is read already */
			buf = input;
			stdin_name = input_name(name);
		}
	}
	scanner = scanner_init(state);
	scanner_set_debug(scanner, ctx->debug & NFH_DEBUG_SCANNER);
	parser_set_debug(ctx->debug & NFH_DEBUG_PARSER);
	if (buf)
		scanner_push_buffer(scanner, stdin_name, buf, NULL);
	else if (scanner_read_file(scanner, name, NULL) < 0)
		ret = -1;
	if (ret == 0 && ctx->num_defines)
		push_defines(ctx, scanner);
	if (ret == 0 && (yyparse(scanner, state) != 0 || state->nerrs ||
			 !list_empty(state->msgs)))
		ret = -1;
	scanner_destroy(scanner);
	free(input);
	return ret;
}

/*
 * When a command failed: the model's answer to the batch of the others,
 * as batch_commit() would get it, on a copy of what it would be checked
 * against (offline, the in-memory ruleset; else the kernel's, read for
 * it), so that the errors of the commands that did not fail come in the
 * same run; nothing is kept, nothing is sent
 */
/* @batch sent as nfh -c sends it (validated, then aborted), kept whole */
static void kernel_check(struct nfh_ctx *ctx, struct nl_batch *batch,
			 struct list_head *msgs)
{
	bool dry_run = ctx->dry_run;

	ctx->dry_run = true;
	ctx->keep_items = true;
	nlio_batch_send(ctx, batch, msgs);
	ctx->keep_items = false;
	ctx->dry_run = dry_run;
}

static unsigned int list_count(const struct list_head *l)
{
	const struct list_head *p;
	unsigned int n = 0;

	for (p = l->next; p != l; p = p->next)
		n++;
	return n;
}

static void model_check(struct nfh_ctx *ctx, struct nl_batch *batch,
			struct list_head *msgs)
{
	struct cache *scratch = NULL;
	struct error_record *e;
	LIST_HEAD(dump_msgs);

	if (ctx->offline) {
		if (ctx->dry_run || !ctx->offline_cache)
			scratch = cache_alloc();
		offline_check(scratch ? scratch : ctx->offline_cache, batch,
			      msgs);
		cache_free(scratch);
		return;
	}
	if (list_empty(&batch->items))
		return;
	scratch = cache_alloc();
	if (nlio_dump_model(ctx, batch, scratch, &dump_msgs) == 0) {
		unsigned int before = list_count(msgs);
		LIST_HEAD(kernel_msgs);

		/* under -c the kernel checks the batch too, and commits
		   nothing; what it refuses counts where the model, which
		   knows no kernel features (an expression type the kernel
		   lacks), found nothing: as nft's evaluation lets more
		   through, its kernel names those too.  Not without -c: a
		   batch the kernel checks takes rule handles, as nft -c's
		   does, and nft sends nothing once its evaluation failed */
		if (ctx->dry_run)
			kernel_check(ctx, batch, &kernel_msgs);
		offline_check(scratch, batch, msgs);
		if (list_count(msgs) == before)
			list_splice_tail_init(&kernel_msgs, msgs);
		else
			erec_free_list(&kernel_msgs);
	} else {
		/* said, not hidden: these commands were not checked */
		e = list_empty(&dump_msgs) ? NULL :
		    list_first_entry(&dump_msgs, struct error_record, list);
		error_queue(msgs, NULL,
			    "the other commands were not checked against the kernel's ruleset: %s",
			    e ? e->msg : "it could not be read");
		erec_free_list(&dump_msgs);
	}
	cache_free(scratch);
}

/*
 * The batch goes in: offline into the in-memory ruleset (under -c a copy
 * of it), else to the kernel, with -e echoing what the kernel made as the
 * monitor prints it.  0, -1 with errors queued, or NLIO_RESTART.
 */
static int batch_commit(struct nfh_ctx *ctx, struct nl_batch *batch,
			struct list_head *msgs, const char *json_in)
{
	struct monitor *m;
	int ret;

	if (ctx->offline) {
		struct cache *scratch;

		if (!ctx->offline_cache)
			ctx->offline_cache = cache_alloc();
		if (!ctx->dry_run)
			return offline_apply(ctx->offline_cache, batch, msgs);
		/* check against a copy, keep nothing */
		scratch = cache_alloc();
		ret = offline_apply(scratch, batch, msgs);
		cache_free(scratch);
		return ret;
	}
	if (!(ctx->octx.flags & NFH_OUTPUT_ECHO) || ctx->dry_run)
		return nlio_batch_send(ctx, batch, msgs);
	/* -e: print what the kernel made, as the monitor does */
	m = monitor_echo_new(ctx, msgs, json_in);
	ctx->echo = monitor_echo;
	ctx->echo_data = m;
	ret = m ? nlio_batch_send(ctx, batch, msgs) : -1;
	if (ret == 0)
		monitor_echo_ok(m);
	monitor_echo_free(m);
	ctx->echo = NULL;
	ctx->echo_data = NULL;
	return ret;
}

/* the commands that read the kernel (list, reset, get, describe) move
   from @cmds to @lists: they run after the batch */
static void take_lists(struct list_head *cmds, struct list_head *lists)
{
	struct cmd *cmd, *next;

	list_for_each_entry_safe(cmd, next, cmds, list)
		if (cmd->op == CMD_LIST || cmd->op == CMD_DESCRIBE ||
		    cmd->op == CMD_RESET || cmd->op == CMD_GET) {
			list_del(&cmd->list);
			list_add_tail(&cmd->list, lists);
		}
}

/*
 * The evaluated @cmds as one batch, committed (or checked); 0, -1 or
 * NLIO_RESTART.  When anything failed (@failed: in evaluation), nothing
 * is sent; the model answers the batch of the commands that did not fail
 * (lin_cmds() leaves out their cascade) on a copy of the ruleset, the
 * kernel's unless offline, so that its errors come in the same run.
 */
static int compile_commit(struct nfh_ctx *ctx, struct list_head *cmds,
			  struct list_head *msgs, const char *json_in,
			  bool failed, struct cascade *missing)
{
	struct nl_batch batch;
	int ret = 0;

	nl_batch_init(&batch);
	if (lin_cmds(ctx, cmds, &batch, msgs, missing) < 0 || failed) {
		ret = -1;
		model_check(ctx, &batch, msgs);
		/* syntax errors were queued first: in file order, as a
		   compiler gives them */
		erec_sort(msgs, &ctx->inputs);
	}
	if (ret == 0 && (ctx->debug & NFH_DEBUG_NETLINK))
		nl_batch_debug(ctx->octx.out, &batch);
	if (ret == 0)
		ret = batch_commit(ctx, &batch, msgs, json_in);
	nl_batch_free(&batch);
	return ret;
}

static int run_lists(struct nfh_ctx *ctx, struct list_head *lists,
		     struct list_head *msgs)
{
	struct cmd *cmd;
	int ret = 0;

	list_for_each_entry(cmd, lists, list)
		if (cmd->op == CMD_DESCRIBE)
			describe_print(cmd->expr, ctx->octx.out);
		else if (run_list(ctx, cmd, msgs) < 0)
			ret = -1;
	return ret;
}

/* the kernel's sets read for this run, and the declarations made of them */
static void kernel_sets_free(struct nfh_ctx *ctx)
{
	struct set *s, *sn;

	list_for_each_entry_safe(s, sn, &ctx->ext_sets, list) {
		list_del(&s->list);
		set_free(s);
	}
	cache_free(ctx->set_cache);
	ctx->set_cache = NULL;
	plan_free(ctx);
}

/* a run's output and errors out, and how many netlink messages were
   ignored as forged since forged was counted; -1 if the output failed */
static int run_report(struct nfh_ctx *ctx, struct list_head *msgs,
		      unsigned long forged)
{
	int ret = 0;

	if (output_flush(ctx->octx.out, msgs) < 0)
		ret = -1;
	erec_print_list(ctx->octx.err, msgs);
	if (ctx->forged != forged)
		fprintf(ctx->octx.err,
			"Warning: ignored %lu netlink message(s) that did not come from the kernel\n",
			ctx->forged - forged);
	return ret;
}

/*
 * What a syntax error may have lost a declaration of: the tables named in
 * what the parser skipped (with JSON, the tables of the commands it could
 * not read), or every table
 */
static struct cascade *lost_decls(const struct parser_state *state)
{
	struct cascade *c = cascade_new();

	if (state->lost_all)
		cascade_note_table(c, NULL);
	for (unsigned int i = 0; i < state->nlost_words; i++)
		cascade_note_table(c, state->lost_words[i]);
	return c;
}

static int run_once(struct nfh_ctx *ctx, const char *name, const char *buf,
		    const char *bufname, bool last_try, char **keep)
{
	const bool given = buf != NULL;
	struct parser_state state;
	char *json_in = NULL;		/* JSON input, kept for -j -e */
	struct cascade *missing;
	LIST_HEAD(msgs);
	LIST_HEAD(cmds);
	LIST_HEAD(lists);
	unsigned long forged = ctx->forged;
	bool again = false;
	int ret = 0;

	/* what the batch is made against is read anew */
	ctx->cache_gen_set = false;
	ctx->no_netlink = false;
	parser_init(&state, ctx, &msgs, &cmds);
	state.sink = &stream_sink;
	ret = parse_input(ctx, &state, name, buf, bufname, &json_in);

	/*
	 * what parsed around a syntax error is evaluated still, for its own
	 * errors (as nft does: a file is fixed in fewer rounds); nothing
	 * reaches the kernel once any error was queued
	 */
	if (eval_cmds(ctx, &state, &cmds, &msgs) < 0 || !list_empty(&msgs))
		ret = -1;
	take_lists(&cmds, &lists);
	missing = lost_decls(&state);
	ret = compile_commit(ctx, &cmds, &msgs, json_in, ret < 0, missing);
	cascade_free(missing);
	if (ret == NLIO_RESTART && last_try)
		ret = error_queue(&msgs, NULL,
				  "the ruleset changed each time these commands were evaluated (%u tries); nothing was applied, try again",
				  RUN_TRIES);
	else if (ret == NLIO_RESTART)
		again = true;
	if (ret == 0)
		ret = run_lists(ctx, &lists, &msgs);
	if (run_report(ctx, &msgs, forged) < 0)
		ret = -1;
	cmds_free(&cmds);
	kernel_sets_free(ctx);
	cmds_free(&lists);
	parser_exit(&state);
	if (again && !given)
		*keep = top_input(ctx, name);
	/* the errors are out: a long-lived context (nfh -i) keeps no text */
	free_inputs(ctx);
	free(json_in);
	if (again && (given || *keep))
		return RUN_AGAIN;
	return exit_status(ctx, ret < 0 || again ? -1 : 0);
}

/*
 * ERESTART: another process committed between the reading of the
 * kernel's ruleset that the batch was made against and its sending.  A
 * batch is never sent again as it was: the commands are evaluated again
 * against the ruleset as it is now, from the text read the first time.
 */
static int run(struct nfh_ctx *ctx, const char *name, const char *buf)
{
	char *text = NULL, *none = NULL;
	int ret;

	ret = run_once(ctx, name, buf, NULL, false, &text);
	for (unsigned int tries = 1; ret == RUN_AGAIN; tries++)
		ret = run_once(ctx, NULL, text ? text : buf,
			       text ? input_name(name) : NULL,
			       tries + 1 == RUN_TRIES, &none);
	free(text);
	return ret;
}

/* "monitor ..." on its own: it streams events rather than being a command */
static bool is_monitor(const char *buf, const char **args)
{
	buf += strspn(buf, " \t\n");
	if (strncmp(buf, "monitor", 7) || (buf[7] && !strchr(" \t\n", buf[7])))
		return false;
	*args = buf + 7;
	return true;
}

EXPORT int nfh_run_cmd_from_buffer(struct nfh_ctx *ctx, const char *buf)
{
	const char *args;

	if (is_monitor(buf, &args)) {
		LIST_HEAD(msgs);
		int ret = monitor_run(ctx, args, &internal_location, &msgs);

		erec_print_list(ctx->octx.err, &msgs);
		return exit_status(ctx, ret);
	}
	return run(ctx, NULL, buf);
}

EXPORT int nfh_run_cmd_from_filename(struct nfh_ctx *ctx, const char *filename)
{
	return run(ctx, filename, NULL);
}
