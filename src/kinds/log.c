// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * log [prefix S] [level L | group N] [snaplen N] [queue-threshold N]
 * [flags ...]: the kernel's "log".  Each argument is sent only when given,
 * so the fields say which were (LOG_F_*).
 */
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include <libnftnl/expr.h>
#include <linux/netfilter/nf_log.h>

#include <datatype.h>
#include <suggest.h>
#include <kind.h>
#include <nlalloc.h>
#include <log.h>

struct log {
	char		*prefix;
	uint32_t	level;
	uint32_t	group;
	uint32_t	snaplen;
	uint32_t	qthreshold;
	uint32_t	logflags;
	uint32_t	flags;	/* which of the above were given: LOG_F_* */
};
_Static_assert(sizeof(struct log) <= sizeof(((struct stmt *)0)->priv),
	       "log fields fit in struct stmt");

static const struct stmt_ops log_ops;

static const struct symbol log_levels[] = {
	{ "emerg",	0 },
	{ "alert",	1 },
	{ "crit",	2 },
	{ "err",	3 },
	{ "warn",	4 },
	{ "notice",	5 },
	{ "info",	6 },
	{ "debug",	7 },
	{ "audit",	8 },
	{ NULL, 0 },
};

static const char *log_level_name(unsigned int level)
{
	const struct symbol *sym = symbol_by_value(log_levels, level);

	return sym ? sym->name : "unknown";
}

struct stmt *log_stmt_alloc(const struct location *loc)
{
	return ops_stmt_alloc(loc, &log_ops);
}

void log_stmt_prefix(struct stmt *s, char *prefix)
{
	struct log *l = stmt_priv(s);

	free(l->prefix);
	l->prefix = prefix ? prefix : xstrdup("");
	l->flags |= LOG_F_PREFIX;
}

void log_stmt_set(struct stmt *s, unsigned int what, uint32_t v)
{
	struct log *l = stmt_priv(s);

	switch (what) {
	case LOG_F_GROUP:	l->group = v; break;
	case LOG_F_SNAPLEN:	l->snaplen = v; break;
	case LOG_F_QTHRESH:	l->qthreshold = v; break;
	case LOG_F_FLAGS:	l->logflags |= v; break;
	default:		return;
	}
	l->flags |= what;
}

int stmt_log_level(struct stmt *s, const char *level,
		   const struct location *loc, struct list_head *msgs)
{
	const struct symbol *sym = symbol_by_name(log_levels, level);
	struct log *l = stmt_priv(s);
	struct suggest sg;

	if (!sym)
		return error_queue(msgs, loc, "invalid log level \"%s\"%s", level,
				   suggest_symbol(&sg, log_levels, level));
	l->level = sym->value;
	l->flags |= LOG_F_LEVEL;
	return 0;
}

static int log_eval(struct kind_eval *k, struct stmt *s)
{
	const struct log *l = stmt_priv(s);

	/* as nft: snaplen and queue-threshold are nflog's (group's) too */
	if (l->flags & (LOG_F_GROUP | LOG_F_SNAPLEN | LOG_F_QTHRESH)) {
		if (l->flags & LOG_F_LEVEL)
			return error_queue(k->msgs, &s->loc,
					   "log level and group are mutually exclusive");
		if (l->flags & LOG_F_FLAGS)
			return error_queue(k->msgs, &s->loc,
					   "log flags and group are mutually exclusive");
	}
	if ((l->flags & LOG_F_LEVEL) && l->level == NFT_LOGLEVEL_AUDIT &&
	    (l->flags & ~LOG_F_LEVEL))
		return error_queue(k->msgs, &s->loc,
				   "log level audit doesn't support any further options");
	return 0;
}

static int log_linearize(struct kind_lin *k, const struct stmt *s)
{
	const struct log *l = stmt_priv(s);
	struct nftnl_expr *e = k->add(k, "log");

	if (l->flags & LOG_F_PREFIX)
		xnftnl_expr_set_str(e, NFTNL_EXPR_LOG_PREFIX, l->prefix);
	if (l->flags & LOG_F_GROUP)
		nftnl_expr_set_u16(e, NFTNL_EXPR_LOG_GROUP, l->group);
	if (l->flags & LOG_F_SNAPLEN)
		nftnl_expr_set_u32(e, NFTNL_EXPR_LOG_SNAPLEN, l->snaplen);
	if (l->flags & LOG_F_QTHRESH)
		nftnl_expr_set_u16(e, NFTNL_EXPR_LOG_QTHRESHOLD, l->qthreshold);
	if (l->flags & LOG_F_LEVEL)
		nftnl_expr_set_u32(e, NFTNL_EXPR_LOG_LEVEL, l->level);
	if (l->flags & LOG_F_FLAGS)
		nftnl_expr_set_u32(e, NFTNL_EXPR_LOG_FLAGS, l->logflags);
	return 0;
}

static void log_delinearize(struct kind_delin *k, const struct nftnl_expr *nle)
{
	struct stmt *s = log_stmt_alloc(&internal_location);
	struct log *l = stmt_priv(s);

	if (nftnl_expr_is_set(nle, NFTNL_EXPR_LOG_PREFIX)) {
		l->prefix = xstrdup(nftnl_expr_get_str(nle, NFTNL_EXPR_LOG_PREFIX));
		l->flags |= LOG_F_PREFIX;
	}
	if (nftnl_expr_is_set(nle, NFTNL_EXPR_LOG_GROUP)) {
		l->group = nftnl_expr_get_u16(nle, NFTNL_EXPR_LOG_GROUP);
		l->flags |= LOG_F_GROUP;
	}
	if (nftnl_expr_is_set(nle, NFTNL_EXPR_LOG_SNAPLEN)) {
		l->snaplen = nftnl_expr_get_u32(nle, NFTNL_EXPR_LOG_SNAPLEN);
		l->flags |= LOG_F_SNAPLEN;
	}
	if (nftnl_expr_is_set(nle, NFTNL_EXPR_LOG_QTHRESHOLD)) {
		l->qthreshold = nftnl_expr_get_u16(nle, NFTNL_EXPR_LOG_QTHRESHOLD);
		l->flags |= LOG_F_QTHRESH;
	}
	if (nftnl_expr_is_set(nle, NFTNL_EXPR_LOG_LEVEL)) {
		l->level = nftnl_expr_get_u32(nle, NFTNL_EXPR_LOG_LEVEL);
		l->flags |= LOG_F_LEVEL;
	}
	if (nftnl_expr_is_set(nle, NFTNL_EXPR_LOG_FLAGS) &&
	    nftnl_expr_get_u32(nle, NFTNL_EXPR_LOG_FLAGS)) {
		l->logflags = nftnl_expr_get_u32(nle, NFTNL_EXPR_LOG_FLAGS);
		l->flags |= LOG_F_FLAGS;
	}
	k->add_stmt(k, s);
}

static void log_flags_print(uint32_t flags, FILE *f)
{
	if ((flags & NF_LOG_MASK) == NF_LOG_MASK) {
		fprintf(f, " flags all");
		return;
	}
	if ((flags & (NF_LOG_TCPSEQ | NF_LOG_TCPOPT)) ==
	    (NF_LOG_TCPSEQ | NF_LOG_TCPOPT))
		fprintf(f, " flags tcp sequence,options");
	else if (flags & NF_LOG_TCPSEQ)
		fprintf(f, " flags tcp sequence");
	else if (flags & NF_LOG_TCPOPT)
		fprintf(f, " flags tcp options");
	if (flags & NF_LOG_IPOPT)
		fprintf(f, " flags ip options");
	if (flags & NF_LOG_UID)
		fprintf(f, " flags skuid");
	if (flags & NF_LOG_MACDECODE)
		fprintf(f, " flags ether");
}

static void log_print(struct kind_print *k, const struct stmt *s)
{
	const struct log *l = stmt_priv(s);
	FILE *f = k->f;

	fprintf(f, "log");
	if (l->flags & LOG_F_PREFIX)
		fputs(" prefix ", f), quoted_print(f, l->prefix);
	if (l->flags & LOG_F_GROUP)
		fprintf(f, " group %u", l->group);
	if (l->flags & LOG_F_SNAPLEN)
		fprintf(f, " snaplen %u", l->snaplen);
	if (l->flags & LOG_F_QTHRESH)
		fprintf(f, " queue-threshold %u", l->qthreshold);
	if (l->flags & LOG_F_LEVEL && l->level != 4)
		fprintf(f, " level %s", log_level_name(l->level));
	if (l->flags & LOG_F_FLAGS)
		log_flags_print(l->logflags, f);
}

static const struct {
	uint32_t	flag;
	const char	*name;
} log_flag_names[] = {
	{ NF_LOG_TCPSEQ, "tcp sequence" }, { NF_LOG_TCPOPT, "tcp options" },
	{ NF_LOG_IPOPT, "ip options" }, { NF_LOG_UID, "skuid" },
	{ NF_LOG_MACDECODE, "ether" }, { NF_LOG_MASK, "all" },
};

/* "all", one name, or an array of them */
static json_t *log_flags_json(uint32_t flags)
{
	json_t *a, *one;

	if ((flags & NF_LOG_MASK) == NF_LOG_MASK)
		return json_string("all");
	a = json_array();
	for (size_t i = 0; log_flag_names[i].flag != NF_LOG_MASK; i++)
		if (flags & log_flag_names[i].flag)
			json_array_append_new(a, json_string(log_flag_names[i].name));
	if (json_array_size(a) != 1)
		return a;
	one = json_incref(json_array_get(a, 0));
	json_decref(a);
	return one;
}

static json_t *log_json(struct kind_json *k, const struct stmt *s)
{
	const struct log *l = stmt_priv(s);
	json_t *o = json_object();

	if (l->flags & LOG_F_PREFIX)
		o = kind_json_set(o, "prefix", json_string(l->prefix));
	if (l->flags & LOG_F_GROUP)
		o = kind_json_set(o, "group", json_integer(l->group));
	if (l->flags & LOG_F_SNAPLEN)
		o = kind_json_set(o, "snaplen", json_integer(l->snaplen));
	if (l->flags & LOG_F_QTHRESH)
		o = kind_json_set(o, "queue-threshold", json_integer(l->qthreshold));
	if ((l->flags & LOG_F_LEVEL) && l->level != 4)
		o = kind_json_set(o, "level", json_string(log_level_name(l->level)));
	if (l->flags & LOG_F_FLAGS)
		o = kind_json_set(o, "flags", log_flags_json(l->logflags));
	if (o && json_object_size(o) == 0) {
		json_decref(o);
		return kind_json_wrap("log", json_null());
	}
	return kind_json_wrap("log", o);
}

/* "all", one flag or an array of them: "tcp sequence", "ip options", ... */
static int log_flags_parse(struct kind_jparse *k, json_t *v, struct log *l)
{
	json_t *one = json_is_array(v) ? NULL : v, *f;
	size_t n;

	for (n = 0; one ? n < 1 : n < json_array_size(v); n++) {
		unsigned int i;

		f = one ? one : json_array_get(v, n);
		for (i = 0; i < array_size(log_flag_names); i++)
			if (json_is_string(f) &&
			    !strcmp(json_string_value(f), log_flag_names[i].name))
				break;
		if (i == array_size(log_flag_names))
			return k->error(k, f, "unknown log flag");
		l->logflags |= log_flag_names[i].flag;
	}
	l->flags |= LOG_F_FLAGS;
	return 0;
}

static struct stmt *log_parse_json(struct kind_jparse *k, const char *key,
				   json_t *o, const struct location *loc)
{
	static const char *const keys[] = {
		"prefix", "group", "snaplen", "queue-threshold", "level", "flags", NULL
	};
	struct stmt *s = log_stmt_alloc(loc);
	struct log *l = stmt_priv(s);
	const char *prefix, *level;
	uint64_t v;
	struct location ll;

	if (json_is_null(o))
		return s;
	if (!json_is_object(o) || k->check_keys(k, o, "log", keys) < 0) {
		k->error(k, o, "log: expected null or an object");
		goto fail;
	}
	prefix = k->get_str(k, o, "prefix", false);
	if (prefix)
		log_stmt_prefix(s, xstrdup(prefix));
	if (k->get_u64(k, o, "group", &v) == 1)
		log_stmt_set(s, LOG_F_GROUP, v);
	if (k->get_u64(k, o, "snaplen", &v) == 1)
		log_stmt_set(s, LOG_F_SNAPLEN, v);
	if (k->get_u64(k, o, "queue-threshold", &v) == 1)
		log_stmt_set(s, LOG_F_QTHRESH, v);
	if (json_object_get(o, "flags") &&
	    log_flags_parse(k, json_object_get(o, "flags"), l) < 0)
		goto fail;
	level = k->get_str(k, o, "level", false);
	ll = k->loc(k, json_object_get(o, "level"));
	if (level && stmt_log_level(s, level, &ll, k->msgs) < 0) {
		k->failed(k);
		goto fail;
	}
	return s;
fail:
	stmt_free(s);
	return NULL;
}

static void log_destroy(struct stmt *s)
{
	struct log *l = stmt_priv(s);

	free(l->prefix);
}

static const struct stmt_ops log_ops = {
	.name		= "log",
	.nl_name	= "log",
	.kind		= STMT_OPS,
	.eval		= log_eval,
	.linearize	= log_linearize,
	.delinearize	= log_delinearize,
	.print		= log_print,
	.json		= log_json,
	.parse_json	= log_parse_json,
	.destroy	= log_destroy,
};
STMT_OPS_REGISTER(log_ops);
