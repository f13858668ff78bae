// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * JSON input: commands in the schema of libnftables-json(5), turned into
 * the same commands, rules, statements and expressions that grammar.y
 * builds from nft syntax, so that one evaluator checks both.  Values stay
 * symbols, as the text parser leaves them, for evaluation to type.
 *
 * jansson does not say where in the text a value sat, so the text is
 * walked once more alongside the parsed tree to note each value's span;
 * every node then carries a real location and errors point into the
 * JSON with a caret, as they do for nft syntax.
 */
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>

#include <ctx.h>
#include <json.h>
#include <kind.h>
#include <names.h>
#include <flowtable.h>
#include <parser.h>
#include <proto.h>
#include <inner.h>
#include <suggest.h>
#include <catchall.h>
#include <objref.h>
#include <parser_json.h>

struct span {
	const json_t	*v;
	unsigned int	start, end;	/* byte offsets, end exclusive */
};

/**
 * struct jp - one JSON input being read
 * @spans:	open-addressing hash of value -> span, keyed by pointer
 */
struct jp {
	struct parser_state	*state;
	struct list_head	*msgs;
	const struct input_desc	*in;
	struct span		*spans;
	unsigned int		nspans, cap;
	/* where each line of the input starts: a location is found by a
	   binary search, not by counting the newlines before it (which made
	   8,000 commands take seconds) */
	unsigned int		*lines;
	unsigned int		nlines;
	unsigned int		depth;	/* of expr_parse() calls */
	int			errors;
};

/* --- where each value sits ---------------------------------------------- */

static unsigned int ptr_hash(const void *p, unsigned int cap)
{
	return ((uintptr_t)p >> 4) * 2654435761u % cap;
}

static void span_put(struct jp *jp, const json_t *v, unsigned int s,
		     unsigned int e)
{
	unsigned int i;

	if (!v)
		return;
	if (2 * (jp->nspans + 1) > jp->cap) {
		struct span *old = jp->spans;
		unsigned int oldcap = jp->cap;

		jp->cap = oldcap ? oldcap * 2 : 1024;
		jp->spans = xzalloc(jp->cap * sizeof(*jp->spans));
		jp->nspans = 0;
		for (i = 0; i < oldcap; i++)
			if (old[i].v)
				span_put(jp, old[i].v, old[i].start, old[i].end);
		free(old);
	}
	for (i = ptr_hash(v, jp->cap); jp->spans[i].v; i = (i + 1) % jp->cap)
		if (jp->spans[i].v == v)
			return;	/* shared singletons (null, true) keep the first */
	jp->spans[i] = (struct span){ v, s, e };
	jp->nspans++;
}

static const struct span *span_get(const struct jp *jp, const json_t *v)
{
	if (!jp->cap || !v)
		return NULL;
	for (unsigned int i = ptr_hash(v, jp->cap); jp->spans[i].v;
	     i = (i + 1) % jp->cap)
		if (jp->spans[i].v == v)
			return &jp->spans[i];
	return NULL;
}

static const char *skip_ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

static const char *skip_string(const char *p)
{
	for (p++; *p && *p != '"'; p++)
		if (*p == '\\' && p[1])
			p++;
	return *p ? p + 1 : p;
}

/* walks text jansson already accepted, in step with its tree */
static const char *index_value(struct jp *jp, json_t *v, const char *p)
{
	const char *base = jp->in->data, *start;

	p = skip_ws(p);
	start = p;
	if (*p == '{') {
		p = skip_ws(p + 1);
		while (*p == '"') {
			const char *k = p;
			json_t *key;

			p = skip_string(p);
			key = json_loadb(k, p - k, JSON_DECODE_ANY, NULL);
			p = skip_ws(p);
			if (*p == ':')
				p++;
			p = index_value(jp, key ? json_object_get(v, json_string_value(key)) : NULL, p);
			json_decref(key);
			p = skip_ws(p);
			if (*p == ',')
				p = skip_ws(p + 1);
		}
		if (*p == '}')
			p++;
	} else if (*p == '[') {
		size_t i = 0;

		p = skip_ws(p + 1);
		while (*p && *p != ']') {
			p = index_value(jp, json_array_get(v, i++), p);
			p = skip_ws(p);
			if (*p == ',')
				p = skip_ws(p + 1);
		}
		if (*p == ']')
			p++;
	} else if (*p == '"') {
		p = skip_string(p);
	} else {
		while (*p && !strchr(",]} \t\r\n", *p))
			p++;
	}
	span_put(jp, v, start - base, p - base);
	return p;
}

static void index_lines(struct jp *jp)
{
	const char *d = jp->in->data;
	unsigned int cap = 64;

	jp->lines = xmalloc(cap * sizeof(*jp->lines));
	jp->lines[0] = 0;
	jp->nlines = 1;
	for (unsigned int i = 0; i < jp->in->len; i++) {
		if (d[i] != '\n')
			continue;
		if (jp->nlines == cap) {
			cap *= 2;
			jp->lines = xrealloc(jp->lines, cap * sizeof(*jp->lines));
		}
		jp->lines[jp->nlines++] = i + 1;
	}
}

static struct location offset_loc(const struct jp *jp, unsigned int start,
				  unsigned int end)
{
	const char *d = jp->in->data;
	struct location loc = { .indesc = jp->in };
	unsigned int i, ls, lo = 0, hi = jp->nlines;

	/* the last line that starts at or before @start */
	while (hi - lo > 1) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (jp->lines[mid] <= start)
			lo = mid;
		else
			hi = mid;
	}
	ls = jp->lines[lo];
	loc.first_line = lo + 1;
	loc.line_offset = ls;
	loc.first_col = start - ls + 1;
	loc.last_line = loc.first_line;
	/* a span over several lines is marked at its start */
	for (i = start; i < end && i < jp->in->len && d[i] != '\n'; i++)
		;
	loc.last_col = i > start ? i - ls : loc.first_col;
	if (i < end)
		loc.last_col = loc.first_col;
	return loc;
}

static struct location loc_of(const struct jp *jp, const json_t *v)
{
	const struct span *s = span_get(jp, v);

	if (!s)
		return offset_loc(jp, 0, 1);
	return offset_loc(jp, s->start, s->end);
}

static int jerr(struct jp *jp, const json_t *v, const char *fmt, ...) __fmt(3, 4);

static int jverr(struct jp *jp, const json_t *v, const char *fmt, va_list ap)
{
	struct location loc = loc_of(jp, v);
	struct error_record *erec = erec_vcreate(EREC_ERROR, &loc, fmt, ap);

	list_add_tail(&erec->list, jp->msgs);
	jp->errors++;
	return -1;
}

static int jerr(struct jp *jp, const json_t *v, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = jverr(jp, v, fmt, ap);
	va_end(ap);
	return ret;
}

/* --- property helpers ----------------------------------------------------- */

/* the only key of a one-key object such as { "accept": null } */
static const char *only_key(struct jp *jp, json_t *o, json_t **val,
			    const char *what)
{
	const char *k;

	if (!json_is_object(o) || json_object_size(o) != 1) {
		jerr(jp, o, "expected %s: an object with one property", what);
		return NULL;
	}
	json_object_foreach(o, k, *val)
		return k;
	return NULL;
}

static const char *get_str(struct jp *jp, json_t *o, const char *key,
			   bool required)
{
	json_t *v = json_object_get(o, key);

	if (!v) {
		if (required)
			jerr(jp, o, "property \"%s\" is missing", key);
		return NULL;
	}
	if (!json_is_string(v)) {
		jerr(jp, v, "property \"%s\" must be a string", key);
		return NULL;
	}
	return json_string_value(v);
}

/* a "comment": 128 bytes at most, as the text parser and nft say */
static const char *get_comment(struct jp *jp, json_t *o)
{
	const char *c = get_str(jp, o, "comment", false);

	if (c && strlen(c) > 128) {
		jerr(jp, json_object_get(o, "comment"),
		     "comment too long, 128 characters maximum allowed");
		return NULL;
	}
	return c;
}

/* 1: found, 0: absent, -1: not a non-negative integer */
static int get_u64(struct jp *jp, json_t *o, const char *key, uint64_t *res)
{
	json_t *v = json_object_get(o, key);

	if (!v)
		return 0;
	if (!json_is_integer(v) || json_integer_value(v) < 0)
		return jerr(jp, v, "property \"%s\" must be a non-negative integer", key);
	*res = json_integer_value(v);
	return 1;
}

static bool get_bool(struct jp *jp, json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	if (v && !json_is_boolean(v)) {
		jerr(jp, v, "property \"%s\" must be true or false", key);
		return false;
	}
	return v && json_is_true(v);
}

/*
 * "; did you mean ..." for a JSON key @k that is none of @names
 * (NULL-terminated) and, with @exprs or @stmts, none of the JSON keys
 * of the expression or statement kinds with ops tables
 */
static const char *key_hint(struct suggest *sg, const char *k,
			    const char *const *names, bool exprs, bool stmts)
{
	const struct expr_ops *eo;
	const struct stmt_ops *so;

	suggest_init(sg, k);
	for (; names && *names; names++)
		suggest_add(sg, *names);
	for (unsigned int i = 0; exprs && (eo = expr_ops_nth(i)); i++) {
		suggest_add(sg, eo->name);
		for (const char *const *n = eo->json_names; n && *n; n++)
			suggest_add(sg, *n);
	}
	for (unsigned int i = 0; stmts && (so = stmt_ops_nth(i)); i++)
		suggest_add(sg, so->name);
	return suggest_hint(sg);
}

/* properties this reader does not know are reported, not ignored */
static int check_keys(struct jp *jp, json_t *o, const char *what,
		      const char *const *known)
{
	const char *k;
	json_t *v;
	int ret = 0;

	json_object_foreach(o, k, v) {
		unsigned int i;

		for (i = 0; known[i] && strcmp(known[i], k); i++)
			;
		if (!known[i]) {
			struct suggest sg;

			ret = jerr(jp, v, "%s property \"%s\" is not supported%s",
				   what, k, key_hint(&sg, k, known, false, false));
		}
	}
	return ret;
}

/* --- expressions ------------------------------------------------------- */

static const struct {
	const char	*name;
	int		verdict;
} verdicts[] = {
	{ "accept", NF_ACCEPT }, { "drop", NF_DROP },
	{ "continue", NFT_CONTINUE }, { "return", NFT_RETURN },
	{ "jump", NFT_JUMP }, { "goto", NFT_GOTO },
};

static struct expr *expr_parse(struct jp *jp, json_t *v);

static struct expr *list_parse(struct jp *jp, json_t *a, enum expr_kind kind)
{
	struct location loc = loc_of(jp, a);
	struct expr *c = compound_expr_alloc(&loc, kind), *e;
	size_t i;
	json_t *v;

	json_array_foreach(a, i, v) {
		e = expr_parse(jp, v);
		if (!e) {
			expr_free(c);
			return NULL;
		}
		compound_expr_add(c, e);
	}
	if (!i) {
		jerr(jp, a, "an empty list is not an expression");
		expr_free(c);
		return NULL;
	}
	return c;
}

static struct expr *string_parse(struct jp *jp, json_t *v)
{
	struct location loc = loc_of(jp, v);
	const char *s = json_string_value(v);

	if (s[0] == '@')
		return set_ref_expr_alloc(&loc, s + 1);
	if (!strcmp(s, "*"))	/* a set's catch-all element */
		return catchall_expr_alloc(&loc);
	return symbol_expr_alloc(&loc, s, true);
}

/* a chain's device: a name as it is, no "@set" or wildcard ("vp*" and "*"
 * are device-name prefixes, which the evaluator checks) */
static struct expr *dev_parse(struct jp *jp, json_t *v)
{
	struct location loc = loc_of(jp, v);

	return symbol_expr_alloc(&loc, json_string_value(v), true);
}

/* 1: found, 0: absent, -1: bad; the value must fit in 32 bits */
static int get_u32(struct jp *jp, json_t *o, const char *key, uint64_t *res)
{
	int ret = get_u64(jp, o, key, res);

	if (ret == 1 && *res > UINT32_MAX)
		return jerr(jp, json_object_get(o, key),
			    "property \"%s\" must fit in 32 bits", key);
	return ret;
}


static struct expr *binop_parse(struct jp *jp, enum ops op, json_t *a,
				const struct location *loc)
{
	struct expr *l, *r;

	if (!json_is_array(a) || json_array_size(a) != 2)
		return jerr(jp, a, "a binary operation takes an array of two expressions"), NULL;
	l = expr_parse(jp, json_array_get(a, 0));
	r = l ? expr_parse(jp, json_array_get(a, 1)) : NULL;
	if (!r) {
		expr_free(l);
		return NULL;
	}
	return binop_expr_alloc(loc, op, l, r);
}

/* seconds in JSON, milliseconds in the AST */
static int seconds_of(struct jp *jp, json_t *o, const char *key, uint64_t *ms)
{
	uint64_t v;
	int r = get_u64(jp, o, key, &v);

	if (r == 1 && v > TIME_MS_MAX / 1000)
		return jerr(jp, json_object_get(o, key), "value too large");
	if (r == 1)
		*ms = v * 1000;
	return r;
}

/*
 * an element's "timeout": seconds, or never as nft 1.1.1 writes it
 * (UINT64_MAX ms in whole seconds, which 1.1.1 itself cannot read back)
 * or as the word "never"
 */
static int elem_timeout_of(struct jp *jp, json_t *o, uint64_t *ms)
{
	json_t *v = json_object_get(o, "timeout");

	if ((json_is_string(v) && !strcmp(json_string_value(v), "never")) ||
	    (json_is_integer(v) &&
	     (uint64_t)json_integer_value(v) == ELEM_TIMEOUT_NEVER / 1000)) {
		*ms = ELEM_TIMEOUT_NEVER;
		return 1;
	}
	return seconds_of(jp, o, "timeout", ms);
}

static struct stmt *stmt_parse(struct jp *jp, json_t *o);

/*
 * an element's own "quota", "limit" and "ct count", as nft 1.1.1 writes
 * them: members of the element, each read as the statement it names, in
 * the order written (the counter's place among them kept)
 */
static int elem_stmts_parse(struct jp *jp, json_t *v, struct expr *e)
{
	unsigned int n = 0;
	const char *k;
	json_t *x;

	json_object_foreach(v, k, x) {
		struct stmt *st;
		json_t *one;

		if (!strcmp(k, "counter"))
			e->elem.counter_at = n;
		if (strcmp(k, "quota") && strcmp(k, "limit") &&
		    strcmp(k, "ct count"))
			continue;
		one = json_object();
		json_object_set(one, k, x);
		st = stmt_parse(jp, one);
		json_decref(one);
		if (!st)
			return -1;
		list_add_tail(&st->list, &e->elem.stmts);
		n++;
	}
	return 0;
}

/* { "val": KEY, "timeout": S, "expires": S, "comment": C, "counter": ...,
     "quota": ..., "limit": ..., "ct count": ... } */
static struct expr *elem_parse(struct jp *jp, json_t *v,
			       const struct location *loc)
{
	static const char *const keys[] = {
		"val", "timeout", "expires", "comment", "counter", "quota",
		"limit", "ct count", NULL
	};
	const char *comment;
	struct expr *key, *e;
	json_t *ctr;

	if (!json_is_object(v) || !json_object_get(v, "val") ||
	    check_keys(jp, v, "elem", keys) < 0)
		return jerr(jp, v, "elem: expected { \"val\": ... }"), NULL;
	key = expr_parse(jp, json_object_get(v, "val"));
	if (!key)
		return NULL;
	e = set_elem_expr_alloc(loc, key);
	comment = get_comment(jp, v);
	if (comment)
		e->elem.comment = xstrdup(comment);
	ctr = json_object_get(v, "counter");
	if (ctr) {
		e->elem.counter = true;
		if (json_is_object(ctr) &&
		    (get_u64(jp, ctr, "packets", &e->elem.packets) < 0 ||
		     get_u64(jp, ctr, "bytes", &e->elem.bytes) < 0))
			goto fail;
	}
	if (elem_timeout_of(jp, v, &e->elem.timeout) < 0 ||
	    seconds_of(jp, v, "expires", &e->elem.expires) < 0 ||
	    elem_stmts_parse(jp, v, e) < 0)
		goto fail;
	return e;
fail:
	expr_free(e);
	return NULL;
}

/* set elements: one expression or an array; [ KEY, VALUE ] maps */
static struct expr *elems_parse(struct jp *jp, json_t *v,
				const struct location *loc)
{
	struct expr *set = compound_expr_alloc(loc, EXPR_SET), *e;
	json_t *one = json_is_array(v) ? NULL : v, *i;
	size_t n;

	for (n = 0; one ? n < 1 : n < json_array_size(v); n++) {
		i = one ? one : json_array_get(v, n);
		if (json_is_array(i)) {
			struct location l = loc_of(jp, i);
			struct expr *key, *val;

			if (json_array_size(i) != 2) {
				jerr(jp, i, "a map element is [ key, value ]");
				goto fail;
			}
			key = expr_parse(jp, json_array_get(i, 0));
			val = key ? expr_parse(jp, json_array_get(i, 1)) : NULL;
			if (!val) {
				expr_free(key);
				goto fail;
			}
			e = mapping_expr_alloc(&l, key, val);
		} else {
			e = expr_parse(jp, i);
			if (!e)
				goto fail;
		}
		compound_expr_add(set, e);
	}
	if (!n) {
		jerr(jp, v, "an empty set is not an expression");
		goto fail;
	}
	return set;
fail:
	expr_free(set);
	return NULL;
}

static int kind_jerr(struct kind_jparse *k, const json_t *v,
		     const char *fmt, ...) __fmt(3, 4);

static int kind_jerr(struct kind_jparse *k, const json_t *v,
		     const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = jverr(k->phase, v, fmt, ap);
	va_end(ap);
	return ret;
}

static struct location kind_loc(struct kind_jparse *k, const json_t *v)
{
	return loc_of(k->phase, v);
}

static const char *kind_get_str(struct kind_jparse *k, json_t *o,
				const char *key, bool required)
{
	return get_str(k->phase, o, key, required);
}

static int kind_check_keys(struct kind_jparse *k, json_t *o, const char *what,
			   const char *const *known)
{
	return check_keys(k->phase, o, what, known);
}

static struct expr *kind_expr_parse(struct kind_jparse *k, json_t *v)
{
	return expr_parse(k->phase, v);
}

static int kind_get_u64(struct kind_jparse *k, json_t *o, const char *key,
			uint64_t *res)
{
	return get_u64(k->phase, o, key, res);
}

static int kind_get_u32(struct kind_jparse *k, json_t *o, const char *key,
			uint64_t *res)
{
	return get_u32(k->phase, o, key, res);
}

static bool kind_get_bool(struct kind_jparse *k, json_t *o, const char *key)
{
	return get_bool(k->phase, o, key);
}

static void kind_failed(struct kind_jparse *k)
{
	((struct jp *)k->phase)->errors++;
}

static struct stmt *kind_objref(struct kind_jparse *k, uint32_t type,
				json_t *v, const struct location *loc)
{
	return objref_parse_json(k, type, v, loc);
}

static struct stmt *stmt_parse(struct jp *jp, json_t *o);

static struct stmt *kind_stmt_parse(struct kind_jparse *k, json_t *v)
{
	return stmt_parse(k->phase, v);
}

static int kind_seconds(struct kind_jparse *k, json_t *o, const char *key,
			uint64_t *ms)
{
	return seconds_of(k->phase, o, key, ms);
}

#define KIND_JPARSE(jp) {						\
	.phase = (jp), .msgs = (jp)->msgs, .error = kind_jerr,		\
	.loc = kind_loc, .get_str = kind_get_str,			\
	.check_keys = kind_check_keys, .expr = kind_expr_parse,		\
	.get_u64 = kind_get_u64, .get_u32 = kind_get_u32,		\
	.get_bool = kind_get_bool, .failed = kind_failed,		\
	.objref = kind_objref, .stmt = kind_stmt_parse,			\
	.seconds = kind_seconds,					\
}

/* a kind known by its ops (include/kind.h) */
static struct expr *kind_parse_json(struct jp *jp, const struct expr_ops *ops,
				    const char *key, json_t *v,
				    const struct location *loc)
{
	struct kind_jparse k = KIND_JPARSE(jp);

	return ops->parse_json(&k, key, v, loc);
}

static struct stmt *kind_stmt_parse_json(struct jp *jp,
					 const struct stmt_ops *ops,
					 const char *key, json_t *v,
					 const struct location *loc)
{
	struct kind_jparse k = KIND_JPARSE(jp);

	return ops->parse_json(&k, key, v, loc);
}

/* an expression key that is none of them */
static __noinline int expr_unknown(struct jp *jp, json_t *o, const char *k)
{
	static const char *const names[] = {
		"payload", "tcp option", "exthdr", "sctp chunk", "ip option",
		"&", "|", "^", "<<", ">>", "prefix", "range", "concat", "map",
		"set", "elem", "accept", "drop", "continue", "return", "jump",
		"goto", NULL
	};
	struct suggest sg;
	const char *hint = key_hint(&sg, k, names, true, false);

	return jerr(jp, o, "unknown expression \"%s\"%s", k, hint);
}

static struct expr *prefix_parse(struct jp *jp, json_t *v,
				 const struct location *loc)
{
	struct expr *l;
	uint64_t len;

	if (!json_is_object(v) || !json_object_get(v, "addr"))
		return jerr(jp, v, "prefix: expected { \"addr\": ..., \"len\": ... }"), NULL;
	if (get_u64(jp, v, "len", &len) != 1)
		return jerr(jp, v, "prefix: property \"len\" is missing"), NULL;
	l = expr_parse(jp, json_object_get(v, "addr"));
	return l ? prefix_expr_alloc(loc, l, len) : NULL;
}

static struct expr *range_parse(struct jp *jp, json_t *v,
				const struct location *loc)
{
	struct expr *l, *r;

	if (!json_is_array(v) || json_array_size(v) != 2)
		return jerr(jp, v, "range: expected an array of two values"), NULL;
	l = expr_parse(jp, json_array_get(v, 0));
	r = l ? expr_parse(jp, json_array_get(v, 1)) : NULL;
	if (!r) {
		expr_free(l);
		return NULL;
	}
	return range_expr_alloc(loc, l, r);
}

static struct expr *concat_parse(struct jp *jp, json_t *v,
				 const struct location *loc)
{
	struct expr *c;

	if (!json_is_array(v) || json_array_size(v) < 2)
		return jerr(jp, v, "concat: expected an array of two or more expressions"), NULL;
	c = list_parse(jp, v, EXPR_CONCAT);
	if (c)
		c->loc = *loc;
	return c;
}

static struct expr *map_parse(struct jp *jp, json_t *v,
			      const struct location *loc)
{
	struct expr *l, *r;

	if (!json_is_object(v) || !json_object_get(v, "key") ||
	    !json_object_get(v, "data"))
		return jerr(jp, v, "map: expected { \"key\": ..., \"data\": ... }"), NULL;
	l = expr_parse(jp, json_object_get(v, "key"));
	r = l ? expr_parse(jp, json_object_get(v, "data")) : NULL;
	if (!r) {
		expr_free(l);
		return NULL;
	}
	return map_expr_alloc(loc, l, r);
}

/* the verdict named k, if one is; *e is it, or NULL on an error */
static bool verdict_expr_parse(struct jp *jp, const char *k, json_t *v,
			       const struct location *loc, struct expr **e)
{
	for (unsigned int i = 0; i < array_size(verdicts); i++) {
		const char *target = NULL;

		if (strcmp(k, verdicts[i].name))
			continue;
		/* as in nft syntax, accept and drop stay words for eval to type */
		if (verdicts[i].verdict == NF_ACCEPT || verdicts[i].verdict == NF_DROP) {
			*e = symbol_expr_alloc(loc, k, false);
			return true;
		}
		if (verdicts[i].verdict == NFT_JUMP || verdicts[i].verdict == NFT_GOTO) {
			if (!json_is_object(v) || !(target = get_str(jp, v, "target", true))) {
				*e = NULL;
				jerr(jp, v, "expected { \"target\": CHAIN }");
				return true;
			}
		}
		*e = verdict_expr_alloc(loc, verdicts[i].verdict, target);
		return true;
	}
	return false;
}

/* the expressions that are no kind of their own, by their JSON key */
static const struct {
	const char *name;
	struct expr *(*parse)(struct jp *, json_t *, const struct location *);
} object_parsers[] = {
	{ "prefix",	prefix_parse },
	{ "range",	range_parse },
	{ "set",	elems_parse },
	{ "concat",	concat_parse },
	{ "map",	map_parse },
	{ "elem",	elem_parse },
};

static struct expr *object_parse(struct jp *jp, json_t *o)
{
	static const struct { const char *name; enum ops op; } binops[] = {
		{ "&", OP_AND }, { "|", OP_OR }, { "^", OP_XOR },
		{ "<<", OP_LSHIFT }, { ">>", OP_RSHIFT },
	};
	struct location loc = loc_of(jp, o);
	const struct expr_ops *ops;
	struct expr *e;
	const char *k;
	json_t *v;

	k = only_key(jp, o, &v, "an expression");
	if (!k)
		return NULL;
	ops = expr_ops_by_json_name(k);
	if (ops && ops->parse_json)
		return kind_parse_json(jp, ops, k, v, &loc);
	for (unsigned int i = 0; i < array_size(object_parsers); i++)
		if (!strcmp(k, object_parsers[i].name))
			return object_parsers[i].parse(jp, v, &loc);
	for (unsigned int i = 0; i < array_size(binops); i++)
		if (!strcmp(k, binops[i].name))
			return binop_parse(jp, binops[i].op, v, &loc);
	if (verdict_expr_parse(jp, k, v, &loc, &e))
		return e;
	return expr_unknown(jp, o, k), NULL;
}

/*
 * Not inlined: expr_parse() recurses as deep as the JSON nests (1,023
 * operators under jansson's depth limit), and its frame must stay small
 * enough for that under a 256 KB stack
 */
static __noinline struct expr *scalar_parse(struct jp *jp, json_t *v)
{
	struct location loc = loc_of(jp, v);
	char buf[32];

	if (json_is_integer(v)) {
		if (json_integer_value(v) < 0)
			return jerr(jp, v, "negative values are not supported"), NULL;
		snprintf(buf, sizeof(buf), "%lld", (long long)json_integer_value(v));
		return symbol_expr_alloc(&loc, buf, false);
	}
	/* nft writes the boolean type (exists / missing) as true / false */
	return symbol_expr_alloc(&loc, json_is_true(v) ? "exists" : "missing",
				 false);
}

/*
 * Expressions nest at most this deep in JSON: each level is a few frames
 * of the parser, and 512 of them fit a 256 KB stack with room to spare
 * (the text parser's bound, EXPR_DEPTH_MAX, counts operators only, which
 * cost less each).  nft's listings nest a handful.
 */
#define JSON_EXPR_DEPTH_MAX	512

static struct expr *expr_nested_parse(struct jp *jp, json_t *v);

static struct expr *expr_parse(struct jp *jp, json_t *v)
{
	struct expr *e;

	if (jp->depth >= JSON_EXPR_DEPTH_MAX)
		return jerr(jp, v, "expression nested too deeply: more than %u levels",
			    JSON_EXPR_DEPTH_MAX), NULL;
	jp->depth++;
	e = expr_nested_parse(jp, v);
	jp->depth--;
	return e;
}

static struct expr *expr_nested_parse(struct jp *jp, json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_STRING:
		return string_parse(jp, v);
	case JSON_INTEGER:
	case JSON_TRUE:
	case JSON_FALSE:
		return scalar_parse(jp, v);
	case JSON_ARRAY:
		return list_parse(jp, v, EXPR_LIST);
	case JSON_OBJECT:
		return object_parse(jp, v);
	default:
		return jerr(jp, v, "expected an expression"), NULL;
	}
}

/* --- statements ------------------------------------------------------- */

static struct stmt *verdict_parse(struct jp *jp, int verdict, json_t *v,
				  const struct location *loc)
{
	const char *target = NULL;

	if (verdict == NFT_JUMP || verdict == NFT_GOTO) {
		if (!json_is_object(v))
			return jerr(jp, v, "expected { \"target\": CHAIN }"), NULL;
		target = get_str(jp, v, "target", true);
		if (!target)
			return NULL;
	} else if (!json_is_null(v)) {
		return jerr(jp, v, "a verdict takes null"), NULL;
	}
	return verdict_stmt_alloc(loc, verdict_expr_alloc(loc, verdict, target));
}


/*
 * The two expressions under @a and @b of object @o, both required ("left"
 * and "right" of a match, "key" and "data" of a map); 0, or -1 with the
 * error queued as "@what: ..." and nothing left allocated.
 */
static int expr_pair_parse(struct jp *jp, json_t *o, const char *what,
			   const char *a, const char *b, struct expr **l,
			   struct expr **r)
{
	if (!json_object_get(o, a) || !json_object_get(o, b)) {
		jerr(jp, o, "%s: \"%s\" and \"%s\" are required", what, a, b);
		return -1;
	}
	*l = expr_parse(jp, json_object_get(o, a));
	*r = *l ? expr_parse(jp, json_object_get(o, b)) : NULL;
	if (!*r) {
		expr_free(*l);
		return -1;
	}
	return 0;
}
static struct stmt *match_parse(struct jp *jp, json_t *o,
				const struct location *loc)
{
	static const struct { const char *name; enum ops op; } ops[] = {
		{ "==", OP_EQ }, { "!=", OP_NEQ }, { "<", OP_LT }, { ">", OP_GT },
		{ "<=", OP_LTE }, { ">=", OP_GTE }, { "in", OP_IMPLICIT },
		{ "!", OP_NEG },
	};
	static const char *const keys[] = { "op", "left", "right", NULL };
	const char *op = json_is_object(o) ? get_str(jp, o, "op", true) : NULL;
	struct expr *l, *r;
	unsigned int i;

	if (!json_is_object(o))
		return jerr(jp, o, "match: expected an object"), NULL;
	if (!op || check_keys(jp, o, "match", keys) < 0)
		return NULL;
	for (i = 0; i < array_size(ops) && strcmp(ops[i].name, op); i++)
		;
	if (i == array_size(ops))
		return jerr(jp, json_object_get(o, "op"),
			    "unknown operator \"%s\"; the operators are ==, !=, <, >, <=, >=, in and !",
			    op), NULL;
	if (expr_pair_parse(jp, o, "match", "left", "right", &l, &r) < 0)
		return NULL;
	return match_stmt_alloc(loc, relational_expr_alloc(loc, ops[i].op, l, r));
}

/* "name", or { "map": { "key": ..., "data": ... } } to names */

/* the field of a kind known by its ops (include/kind.h) set to @val */
static struct stmt *kind_mangle(struct jp *jp, const struct expr *e,
				struct expr *val, const struct location *loc)
{
	struct kind_jparse k = KIND_JPARSE(jp);

	return e->ops->mangle(&k, e, val, loc);
}

static struct stmt *mangle_parse(struct jp *jp, json_t *o,
				 const struct location *loc)
{
	static const char *const keys[] = { "key", "value", NULL };
	json_t *key = json_is_object(o) ? json_object_get(o, "key") : NULL;
	struct expr *k, *val;
	struct stmt *s;

	if (!key || !json_object_get(o, "value") || check_keys(jp, o, "mangle", keys) < 0)
		return jerr(jp, o, "mangle: expected { \"key\": ..., \"value\": ... }"), NULL;
	k = expr_parse(jp, key);
	if (!k)
		return NULL;
	val = expr_parse(jp, json_object_get(o, "value"));
	if (!val) {
		expr_free(k);
		return NULL;
	}
	if (k->ops && k->ops->mangle) {
		s = kind_mangle(jp, k, val, loc);
	} else {
		jerr(jp, key, "mangle: the key must be a payload, extension header, meta or ct expression");
		expr_free(val);
		s = NULL;
	}
	expr_free(k);
	return s;
}

static struct stmt *vmap_parse(struct jp *jp, json_t *o,
			       const struct location *loc)
{
	struct expr *key, *data;

	if (!json_is_object(o) || json_object_size(o) != 2)
		return jerr(jp, o, "vmap: expected { \"key\": ..., \"data\": ... }"), NULL;
	if (expr_pair_parse(jp, o, "vmap", "key", "data", &key, &data) < 0)
		return NULL;
	return verdict_stmt_alloc(loc, map_expr_alloc(loc, key, data));
}

static struct stmt *stmt_parse(struct jp *jp, json_t *o);

/* a statement key that is none of them: a misspelling, one nft has and
   nfh does not read yet, or neither */
static __noinline int stmt_unknown(struct jp *jp, json_t *o, const char *k)
{
	static const char *const names[] = {
		"accept", "drop", "continue", "return", "jump", "goto", "match",
		"reject", "mangle", "snat", "dnat", "masquerade", "redirect",
		"tproxy", "vmap", "ct helper", "ct timeout", "ct expectation",
		"secmark", "set", "meter", NULL
	};
	static const char *const later[] = { "queue", "flow", "xt", NULL };
	struct suggest sg;
	const char *hint = key_hint(&sg, k, names, false, true);

	for (const char *const *n = later; *n; n++)
		if (!strcmp(*n, k))
			return jerr(jp, o, "statement \"%s\" is not supported yet", k);
	return jerr(jp, o, "unknown statement \"%s\"%s", k, hint);
}

static struct stmt *stmt_parse(struct jp *jp, json_t *o)
{
	struct location loc = loc_of(jp, o);
	const struct stmt_ops *ops;
	const char *k;
	json_t *v;

	k = only_key(jp, o, &v, "a statement");
	if (!k)
		return NULL;
	ops = stmt_ops_by_json_name(k);
	if (ops && ops->parse_json)
		return kind_stmt_parse_json(jp, ops, k, v, &loc);
	for (unsigned int i = 0; i < array_size(verdicts); i++)
		if (!strcmp(k, verdicts[i].name))
			return verdict_parse(jp, verdicts[i].verdict, v, &loc);
	if (!strcmp(k, "match"))
		return match_parse(jp, v, &loc);
	if (!strcmp(k, "mangle"))
		return mangle_parse(jp, v, &loc);
	if (!strcmp(k, "vmap"))
		return vmap_parse(jp, v, &loc);
	return stmt_unknown(jp, o, k), NULL;
}

/* --- objects and commands ------------------------------------------------ */

/*
 * family, table and chain names into @h; @tkey and @ckey name the
 * properties that hold them (NULL: none), and a name may be left out
 * where a handle names the object instead
 */
/* a "family" of @o that is none: the closest, if one is close */
static int family_err(struct jp *jp, json_t *o, const char *fam)
{
	struct suggest sg;

	return jerr(jp, json_object_get(o, "family"),
		    "unknown address family \"%s\"%s", fam,
		    suggest_family(&sg, fam));
}

static int handle_parse(struct jp *jp, json_t *o, struct handle *h,
			const char *tkey, const char *ckey, enum cmd_ops op)
{
	const char *fam = get_str(jp, o, "family", false), *t, *c;
	bool by_handle;
	int f = NFPROTO_IPV4;

	memset(h, 0, sizeof(*h));
	if (fam) {
		f = family_lookup(fam);
		if (f < 0)
			return family_err(jp, o, fam);
		h->family_loc = loc_of(jp, json_object_get(o, "family"));
	}
	h->family = f;
	if (get_u64(jp, o, "handle", &h->handle) < 0)
		return -1;
	/* as nft does, adding ignores the handles that a listing carries */
	if (op == CMD_ADD || op == CMD_CREATE)
		h->handle = 0;
	if (h->handle)
		h->handle_loc = loc_of(jp, json_object_get(o, "handle"));
	by_handle = (op == CMD_DELETE || op == CMD_DESTROY) && h->handle;
	t = get_str(jp, o, tkey, !(by_handle && !ckey));
	if (!t)
		return by_handle && !ckey && !json_object_get(o, tkey) ? 0 : -1;
	h->table = xstrdup(t);
	h->table_loc = loc_of(jp, json_object_get(o, tkey));
	if (!ckey)
		return 0;
	c = get_str(jp, o, ckey, !by_handle);
	if (!c) {
		if (by_handle && !json_object_get(o, ckey))
			return 0;
		handle_free(h);
		return -1;
	}
	h->chain = xstrdup(c);
	h->chain_loc = loc_of(jp, json_object_get(o, ckey));
	return 0;
}

static struct table *table_parse(struct jp *jp, json_t *o, const struct handle *h)
{
	json_t *flags = json_object_get(o, "flags");
	const char *comment = get_comment(jp, o);
	struct table *t;
	size_t i;
	json_t *f;

	if (!flags && !comment)
		return NULL;
	t = table_alloc();
	handle_copy(&t->h, h);
	t->loc = h->table_loc;
	if (comment)
		t->comment = xstrdup(comment);
	if (!flags)
		return t;
	t->flags_set = true;
	if (json_is_string(flags)) {
		json_t *a = json_array();

		json_array_append(a, flags);
		flags = a;
	} else {
		json_incref(flags);
	}
	json_array_foreach(flags, i, f) {
		const char *s = json_string_value(f);

		if (s && !strcmp(s, "dormant"))
			t->flags |= TABLE_F_DORMANT;
		else if (s && !strcmp(s, "owner"))
			t->flags |= TABLE_F_OWNER;
		else if (s && !strcmp(s, "persist"))
			t->flags |= TABLE_F_PERSIST;
		else
			jerr(jp, json_array_size(flags) == 1 ? json_object_get(o, "flags") : f,
			     "unknown table flag");
	}
	json_decref(flags);
	return t;
}

/* a base chain's "prio": a number in int32, or a name (filter - 5) */
static int chain_prio_parse(struct jp *jp, struct chain *c, json_t *prio)
{
	c->priority_loc = loc_of(jp, prio);
	if (json_is_integer(prio) &&
	    (json_integer_value(prio) < INT32_MIN ||
	     json_integer_value(prio) > INT32_MAX))
		return jerr(jp, prio, "priority %lld exceeds valid range %d-%d",
			    (long long)json_integer_value(prio), INT32_MIN,
			    INT32_MAX);
	if (json_is_integer(prio))
		c->priority = constant_expr_u64(&c->priority_loc, &integer_type,
						BYTEORDER_HOST, 32,
						(uint64_t)json_integer_value(prio));
	else if (json_is_string(prio))
		c->priority = symbol_expr_alloc(&c->priority_loc,
						json_string_value(prio), false);
	else
		return jerr(jp, prio, "property \"prio\" must be a number");
	return 0;
}

/* "dev": a device, or an array of them */
static int chain_devs_parse(struct jp *jp, struct chain *c, json_t *dev)
{
	struct expr *list;
	json_t *d;
	size_t i;

	c->has_devices = true;
	c->dev_loc = loc_of(jp, dev);
	if (json_is_string(dev)) {
		list_add_tail(&dev_parse(jp, dev)->list, &c->devices);
		return 0;
	}
	if (!json_is_array(dev) || !json_array_size(dev))
		return jerr(jp, dev, "property \"dev\" must be a string or an array of strings");
	list = compound_expr_alloc(&c->dev_loc, EXPR_SET);
	json_array_foreach(dev, i, d) {
		if (!json_is_string(d)) {
			expr_free(list);
			return jerr(jp, d, "a device name must be a string");
		}
		compound_expr_add(list, dev_parse(jp, d));
	}
	list_add_tail(&list->list, &c->devices);
	return 0;
}

/* the hook, type, priority, policy and devices of a base chain */
static int chain_base_parse(struct jp *jp, struct chain *c, json_t *o)
{
	json_t *type = json_object_get(o, "type"), *prio, *dev;
	const char *hook, *policy;

	if (!get_str(jp, o, "type", true) || !(hook = get_str(jp, o, "hook", true)))
		return -1;
	prio = json_object_get(o, "prio");
	if (!prio)
		return jerr(jp, o, "property \"prio\" is missing");
	c->base = true;
	c->type = xstrdup(json_string_value(type));
	c->type_loc = loc_of(jp, type);
	c->hook = xstrdup(hook);
	c->hook_loc = loc_of(jp, json_object_get(o, "hook"));
	if (chain_prio_parse(jp, c, prio) < 0)
		return -1;
	policy = get_str(jp, o, "policy", false);
	if (policy) {
		c->policy_loc = loc_of(jp, json_object_get(o, "policy"));
		c->policy_expr = symbol_expr_alloc(&c->policy_loc, policy, false);
	}
	dev = json_object_get(o, "dev");
	return dev ? chain_devs_parse(jp, c, dev) : 0;
}

static struct chain *chain_parse(struct jp *jp, json_t *o, const struct handle *h)
{
	bool base = json_object_get(o, "type") || json_object_get(o, "hook") ||
		    json_object_get(o, "policy");
	const char *comment = get_comment(jp, o);
	struct chain *c;

	if (!base && !comment)
		return NULL;
	c = chain_alloc();
	handle_copy(&c->h, h);
	c->loc = h->chain_loc;
	if (comment)
		c->comment = xstrdup(comment);
	if (base && chain_base_parse(jp, c, o) < 0) {
		chain_free(c);
		jp->errors++;
		return NULL;
	}
	return c;
}

static struct rule *rule_parse(struct jp *jp, json_t *o)
{
	json_t *exprs = json_object_get(o, "expr"), *e;
	struct location loc = loc_of(jp, exprs);
	const char *comment = get_comment(jp, o);
	struct rule *r;
	size_t i;

	if (!json_is_array(exprs) || !json_array_size(exprs)) {
		jerr(jp, exprs ? exprs : o, "a rule needs \"expr\": an array of statements");
		return NULL;
	}
	r = rule_alloc(&loc);
	json_array_foreach(exprs, i, e) {
		struct stmt *s = stmt_parse(jp, e);

		if (!s) {
			rule_free(r);
			return NULL;
		}
		list_add_tail(&s->list, &r->stmts);
	}
	if (comment)
		r->comment = xstrdup(comment);
	return r;
}

/* "ipv4_addr" or [ "ipv4_addr", "inet_service" ], as "type" takes them */
static struct expr *type_parse(struct jp *jp, json_t *v)
{
	struct location loc = loc_of(jp, v);
	struct expr *c;
	size_t i;
	json_t *t;

	if (json_is_string(v))
		return symbol_expr_alloc(&loc, json_string_value(v), false);
	if (!json_is_array(v) || json_array_size(v) < 2)
		return jerr(jp, v, "a set type is a type name or an array of them"), NULL;
	c = compound_expr_alloc(&loc, EXPR_CONCAT);
	json_array_foreach(v, i, t) {
		struct location l = loc_of(jp, t);

		if (!json_is_string(t)) {
			jerr(jp, t, "a set type is a type name or an array of them");
			expr_free(c);
			return NULL;
		}
		compound_expr_add(c, symbol_expr_alloc(&l, json_string_value(t), false));
	}
	return c;
}

/* a map's value type: as "type", or "ipv4_addr . inet_service" as nft writes it */
static struct expr *map_type_parse(struct jp *jp, json_t *v)
{
	struct location loc = loc_of(jp, v);
	char *copy, *w, *save = NULL;
	struct expr *c;

	if (!json_is_string(v) || !strstr(json_string_value(v), " . "))
		return type_parse(jp, v);
	c = compound_expr_alloc(&loc, EXPR_CONCAT);
	copy = xstrdup(json_string_value(v));
	for (w = strtok_r(copy, " .", &save); w; w = strtok_r(NULL, " .", &save))
		compound_expr_add(c, symbol_expr_alloc(&loc, w, false));
	free(copy);
	return c;
}

static int set_flags_parse(struct jp *jp, json_t *v, struct set *set)
{
	static const struct { const char *name; uint32_t flag; } names[] = {
		{ "constant", NFT_SET_CONSTANT }, { "interval", NFT_SET_INTERVAL },
		{ "timeout", NFT_SET_TIMEOUT }, { "dynamic", NFT_SET_EVAL },
	};
	json_t *one = json_is_array(v) ? NULL : v, *f;
	size_t n;

	set->flags_loc = loc_of(jp, v);
	for (n = 0; one ? n < 1 : n < json_array_size(v); n++) {
		unsigned int i;

		f = one ? one : json_array_get(v, n);
		for (i = 0; i < array_size(names); i++)
			if (json_is_string(f) && !strcmp(json_string_value(f), names[i].name))
				break;
		if (i == array_size(names))
			return jerr(jp, f, "unknown set flag");
		set->flags |= names[i].flag;
	}
	return 0;
}

static const char *const set_keys[] = {
	"family", "table", "name", "handle", "type", "map", "flags", "timeout",
	"gc-interval", "size", "policy", "comment", "elem", "auto-merge", "stmt",
	NULL
};

static struct stmt *stmt_parse(struct jp *jp, json_t *o);

/* "stmt": [ { "counter": null }, { "quota": ... } ], kept in each element */
static int set_stmts_parse(struct jp *jp, json_t *v, struct set *set)
{
	json_t *c;
	size_t k;

	if (!json_is_array(v))
		return jerr(jp, v, "\"stmt\" must be an array of statements");
	json_array_foreach(v, k, c) {
		struct stmt *x = stmt_parse(jp, c);

		if (!x)
			return -1;
		list_add_tail(&x->list, &set->stmts);
		if (x->kind != STMT_COUNTER && x->kind != STMT_LIMIT &&
		    x->kind != STMT_QUOTA && x->kind != STMT_CONNLIMIT)
			return jerr(jp, c, "only counter, limit, quota and ct count can be kept per element");
	}
	return 0;
}

/* "map": "counter": an object map; 0 for the value types of other maps */
static uint32_t map_objtype_of(const char *name)
{
	static const uint32_t types[] = {
		NFT_OBJECT_COUNTER, NFT_OBJECT_QUOTA, NFT_OBJECT_LIMIT,
		NFT_OBJECT_CT_HELPER, NFT_OBJECT_CT_TIMEOUT, NFT_OBJECT_CT_EXPECT,
		NFT_OBJECT_SYNPROXY, NFT_OBJECT_SECMARK,
	};

	for (unsigned int i = 0; i < array_size(types); i++)
		if (!strcmp(name, obj_type_name(types[i])))
			return types[i];
	return 0;
}

/* the key type, and a map's data type: -1 on errors */
static int set_types_parse(struct jp *jp, json_t *o, struct set *set)
{
	json_t *v;

	if (!json_object_get(o, "type"))
		return jerr(jp, o, "property \"type\" is missing");
	set->key = type_parse(jp, json_object_get(o, "type"));
	if (!set->key)
		return -1;
	v = json_object_get(o, "map");
	if (set->is_map != !!v)
		return jerr(jp, v ? v : o, set->is_map ?
			    "a map needs its \"map\" type" :
			    "a set has no \"map\" type; make it a map");
	if (v && json_is_string(v) && map_objtype_of(json_string_value(v)))
		set->objtype = map_objtype_of(json_string_value(v));
	else if (v && !(set->data = map_type_parse(jp, v)))
		return -1;
	return 0;
}

/* flags, timeout, gc-interval, size and @policy: -1 on errors */
static int set_opts_parse(struct jp *jp, json_t *o, struct set *set,
			  const char *policy)
{
	json_t *v = json_object_get(o, "flags");
	uint64_t n;

	if (v && set_flags_parse(jp, v, set) < 0)
		return -1;
	switch (seconds_of(jp, o, "timeout", &set->timeout)) {
	case 1:
		set->flags |= NFT_SET_TIMEOUT;
		break;
	case -1:
		return -1;
	}
	if (seconds_of(jp, o, "gc-interval", &n) < 0)
		return -1;
	set->gc_int = json_object_get(o, "gc-interval") ? n : 0;
	if (get_u64(jp, o, "size", &n) < 0)
		return -1;
	set->size = json_object_get(o, "size") ? n : 0;
	if (policy && !strcmp(policy, "performance"))
		set->policy = NFT_SET_POL_PERFORMANCE;
	else if (policy && !strcmp(policy, "memory"))
		set->policy = NFT_SET_POL_MEMORY;
	else if (policy)
		return jerr(jp, json_object_get(o, "policy"),
			    "unknown set policy \"%s\"", policy);
	return 0;
}

static struct set *set_parse(struct jp *jp, json_t *o, const struct handle *h,
			     bool is_map)
{
	struct set *set = set_alloc(NULL);
	const char *policy = get_str(jp, o, "policy", false);
	const char *comment = get_comment(jp, o);
	json_t *v;

	handle_copy(&set->h, h);
	set->loc = h->set_loc;
	set->is_map = is_map;
	if (set_types_parse(jp, o, set) < 0 ||
	    set_opts_parse(jp, o, set, policy) < 0)
		goto fail;
	if (comment)
		set->comment = xstrdup(comment);
	set->automerge = get_bool(jp, o, "auto-merge");
	v = json_object_get(o, "stmt");
	if (v && set_stmts_parse(jp, v, set) < 0)
		goto fail;
	v = json_object_get(o, "elem");
	if (v) {
		struct location l = loc_of(jp, v);

		set->init = elems_parse(jp, v, &l);
		if (!set->init)
			goto fail;
	}
	return set;
fail:
	set_free(set);
	return NULL;
}

/* the set a set, map or element object names: "table" and "name" */
static int set_handle_parse(struct jp *jp, json_t *o, struct handle *h,
			    enum cmd_ops op)
{
	const char *name;

	if (handle_parse(jp, o, h, "table", NULL, op) < 0)
		return -1;
	name = get_str(jp, o, "name", true);
	if (!name) {
		handle_free(h);
		return -1;
	}
	h->set = xstrdup(name);
	h->set_loc = loc_of(jp, json_object_get(o, "name"));
	return 0;
}

static const char *const table_keys[] = {
	"family", "name", "handle", "flags", "comment", NULL
};
static const char *const chain_keys[] = {
	"family", "table", "name", "handle", "type", "hook", "prio", "policy",
	"dev", "comment", NULL
};
static const char *const rule_keys[] = {
	"family", "table", "chain", "handle", "index", "expr", "comment", NULL
};

static void add_cmd(struct jp *jp, struct cmd *cmd)
{
	list_add_tail(&cmd->list, jp->state->cmds);
}

/* --- named objects ------------------------------------------------------- */

/* what the JSON commands need of an object type: what the type's ops say
   (include/kind.h) */
struct obj_jkind {
	const char		*one, *many;
	uint32_t		type;
	const char *const	*keys;
	const struct obj_ops	*ops;
};

/* the object type that the command key @k names: 1 for one object, 2 for
   the plural, 0 if none */
static int obj_jkind_of(const char *k, struct obj_jkind *jk)
{
	const struct obj_ops *ops;

	for (unsigned int i = 0; (ops = obj_ops_nth(i)); i++) {
		*jk = (struct obj_jkind){ ops->name, ops->plural, ops->type,
					  ops->json_keys, ops };
		if (!strcmp(k, jk->one))
			return 1;
		if (jk->many && !strcmp(k, jk->many))
			return 2;
	}
	return 0;
}

static int obj_check_keys(struct jp *jp, json_t *o, const struct obj_jkind *jk)
{
	static const char *const common[] = {
		"family", "table", "name", "handle", "comment"
	};
	const char *keys[16];
	unsigned int n = 0;

	for (unsigned int i = 0; i < array_size(common); i++)
		keys[n++] = common[i];
	for (unsigned int i = 0; jk->keys[i]; i++)
		keys[n++] = jk->keys[i];
	keys[n] = NULL;
	return check_keys(jp, o, jk->one, keys);
}

/* the values of an object to add, as the grammar's object blocks give them */
static struct obj *obj_parse(struct jp *jp, json_t *o,
			     const struct obj_jkind *jk, const struct handle *h)
{
	const char *comment = get_comment(jp, o);
	struct obj *ob = obj_alloc(&h->obj_loc, jk->type);
	struct kind_jparse kj = KIND_JPARSE(jp);

	handle_copy(&ob->h, h);
	if (comment)
		ob->comment = xstrdup(comment);
	if (jk->ops->parse_json(&kj, o, ob) < 0) {
		obj_free(ob);
		return NULL;
	}
	return ob;
}

/* a counter, quota, limit or ct helper: added, listed, reset or deleted */
static int obj_cmd_parse(struct jp *jp, enum cmd_ops op,
			 const struct obj_jkind *jk, json_t *o, json_t *whole)
{
	struct location loc = loc_of(jp, whole);
	uint32_t type = jk->type;
	struct obj *ob = NULL;
	const char *name;
	struct handle h;

	if (op == CMD_INSERT || op == CMD_REPLACE || op == CMD_FLUSH ||
	    (op == CMD_RESET && type != NFT_OBJECT_COUNTER && type != NFT_OBJECT_QUOTA))
		return jerr(jp, whole, "this command does not apply to a %s",
			    jk->one);
	if (!json_is_object(o))
		return jerr(jp, o, "expected an object");
	if (obj_check_keys(jp, o, jk) < 0 || handle_parse(jp, o, &h, "table", NULL, op) < 0)
		return -1;
	name = get_str(jp, o, "name", !((op == CMD_DELETE || op == CMD_DESTROY) && h.handle));
	if (!name && jp->errors) {
		handle_free(&h);
		return -1;
	}
	if (name) {
		h.obj = xstrdup(name);
		h.obj_loc = loc_of(jp, json_object_get(o, "name"));
	}
	h.obj_type = type;
	if (op == CMD_ADD || op == CMD_CREATE) {
		ob = obj_parse(jp, o, jk, &h);
		if (!ob) {
			handle_free(&h);
			return -1;
		}
	}
	add_cmd(jp, cmd_alloc(op, CMD_OBJ_OBJ, &h, &loc, ob));
	return 0;
}

/* list counters, reset quotas: all, of a family, or of one table */
static int objs_cmd_parse(struct jp *jp, enum cmd_ops op,
			  const struct obj_jkind *jk, json_t *o, json_t *whole)
{
	struct location loc = loc_of(jp, whole);
	uint32_t type = jk->type;
	const char *fam, *table;
	struct handle h;
	struct cmd *cmd;
	int f;

	if (op != CMD_LIST &&
	    !(op == CMD_RESET && (type == NFT_OBJECT_COUNTER || type == NFT_OBJECT_QUOTA)))
		return jerr(jp, whole, "\"%s\" cannot be used with this command",
			    jk->many);
	if (!json_is_null(o) && !json_is_object(o))
		return jerr(jp, o, "expected null or { \"family\": ..., \"table\": ... }");
	fam = json_is_object(o) ? get_str(jp, o, "family", false) : NULL;
	table = json_is_object(o) ? get_str(jp, o, "table", false) : NULL;
	f = fam ? family_lookup(fam) : NFPROTO_UNSPEC;
	if (f < 0)
		return family_err(jp, o, fam);
	memset(&h, 0, sizeof(h));
	h.family = table && !fam ? NFPROTO_IPV4 : f;
	h.obj_type = type;
	if (table) {
		h.table = xstrdup(table);
		h.table_loc = loc_of(jp, json_object_get(o, "table"));
	}
	cmd = cmd_alloc(op, CMD_OBJ_OBJS, &h, &loc, NULL);
	cmd->family_given = f != NFPROTO_UNSPEC || table;
	add_cmd(jp, cmd);
	return 0;
}

/* "ruleset", "tables", "chains", "sets", "maps": a listing (or flush ruleset) */
static int listing_cmd(struct jp *jp, enum cmd_ops op, const char *k, json_t *o,
		       json_t *whole)
{
	struct location loc = loc_of(jp, whole);
	enum cmd_obj obj = k[0] == 'r' ? CMD_OBJ_RULESET :
			   k[0] == 't' ? CMD_OBJ_TABLES :
			   k[0] == 'c' ? CMD_OBJ_CHAINS :
			   k[0] == 's' ? CMD_OBJ_SETS : CMD_OBJ_MAPS;
	const char *fam = json_is_object(o) ? get_str(jp, o, "family", false) : NULL;
	int f = fam ? family_lookup(fam) : NFPROTO_UNSPEC;
	struct handle h;
	struct cmd *cmd;

	if (op != CMD_LIST && !(op == CMD_FLUSH && obj == CMD_OBJ_RULESET))
		return jerr(jp, whole, "\"%s\" cannot be used with this command", k);
	if (!json_is_null(o) && !json_is_object(o))
		return jerr(jp, o, "expected null or { \"family\": ... }");
	if (f < 0)
		return family_err(jp, o, fam);
	memset(&h, 0, sizeof(h));
	h.family = f;
	cmd = cmd_alloc(op, obj, &h, &loc, NULL);
	cmd->family_given = f != NFPROTO_UNSPEC;
	add_cmd(jp, cmd);
	return 0;
}

/*
 * One kind of object of a command: its handle parsed into @h, the command
 * queued: 0; -1 on an error (reported, @h freed); 1 when the command does
 * not apply to the kind (@h for the caller to free).
 */
typedef int (*kind_cmd_fn)(struct jp *jp, enum cmd_ops op, const char *k,
			   json_t *o, struct handle *h,
			   const struct location *loc);

static bool op_lists_or_changes(enum cmd_ops op)
{
	return op == CMD_LIST || op == CMD_FLUSH || op == CMD_ADD ||
	       op == CMD_CREATE || op == CMD_DELETE || op == CMD_DESTROY;
}

static int table_cmd(struct jp *jp, enum cmd_ops op, const char *k, json_t *o,
		     struct handle *h, const struct location *loc)
{
	void *data = NULL;

	if (check_keys(jp, o, "table", table_keys) < 0 ||
	    handle_parse(jp, o, h, "name", NULL, op) < 0)
		return -1;
	if (op == CMD_ADD || op == CMD_CREATE)
		data = table_parse(jp, o, h);
	if (!op_lists_or_changes(op))
		return 1;
	add_cmd(jp, cmd_alloc(op, CMD_OBJ_TABLE, h, loc, data));
	return 0;
}

static int chain_cmd(struct jp *jp, enum cmd_ops op, const char *k, json_t *o,
		     struct handle *h, const struct location *loc)
{
	void *data = NULL;

	if (check_keys(jp, o, "chain", chain_keys) < 0 ||
	    handle_parse(jp, o, h, "table", "name", op) < 0)
		return -1;
	if (op == CMD_ADD || op == CMD_CREATE) {
		data = chain_parse(jp, o, h);
		if (!data && jp->errors) {
			handle_free(h);
			return -1;
		}
	}
	if (!op_lists_or_changes(op))
		return 1;
	add_cmd(jp, cmd_alloc(op, CMD_OBJ_CHAIN, h, loc, data));
	return 0;
}

static int rule_cmd(struct jp *jp, enum cmd_ops op, const char *k, json_t *o,
		    struct handle *h, const struct location *loc)
{
	void *data = NULL;
	uint64_t index;

	if (check_keys(jp, o, "rule", rule_keys) < 0 ||
	    handle_parse(jp, o, h, "table", "chain", op) < 0)
		return -1;
	switch (get_u64(jp, o, "index", &index)) {
	case 1:
		h->index = index;
		h->index_set = true;
		h->handle_loc = loc_of(jp, json_object_get(o, "index"));
		break;
	case -1:
		handle_free(h);
		return -1;
	}
	if (op == CMD_ADD || op == CMD_CREATE || op == CMD_INSERT ||
	    op == CMD_REPLACE) {
		data = rule_parse(jp, o);
		if (!data) {
			handle_free(h);
			return -1;
		}
		add_cmd(jp, cmd_alloc(op == CMD_CREATE ? CMD_ADD : op,
				      CMD_OBJ_RULE, h, loc, data));
		return 0;
	}
	if (op != CMD_DELETE && op != CMD_DESTROY)
		return 1;
	add_cmd(jp, cmd_alloc(op, CMD_OBJ_RULE, h, loc, NULL));
	return 0;
}

static int set_cmd(struct jp *jp, enum cmd_ops op, const char *k, json_t *o,
		   struct handle *h, const struct location *loc)
{
	enum cmd_obj obj = k[0] == 's' ? CMD_OBJ_SET : CMD_OBJ_MAP;
	void *data = NULL;

	if (check_keys(jp, o, k, set_keys) < 0 ||
	    set_handle_parse(jp, o, h, op) < 0)
		return -1;
	if (op == CMD_ADD || op == CMD_CREATE) {
		data = set_parse(jp, o, h, obj == CMD_OBJ_MAP);
		if (!data) {
			/* kept as the text parser keeps a set whose block
			   had an error: what names it is no error of its
			   own, and evaluation says nothing more of it */
			struct set *s = set_alloc(NULL);

			handle_copy(&s->h, h);
			s->loc = h->set_loc;
			s->is_map = obj == CMD_OBJ_MAP;
			s->read_errors = true;
			add_cmd(jp, cmd_alloc(op, obj, h, loc, s));
			return -1;
		}
	}
	if (!op_lists_or_changes(op) && op != CMD_RESET)
		return 1;
	add_cmd(jp, cmd_alloc(op, obj, h, loc, data));
	return 0;
}

static int element_cmd(struct jp *jp, enum cmd_ops op, const char *k,
		       json_t *o, struct handle *h, const struct location *loc)
{
	static const char *const keys[] = { "family", "table", "name", "elem", NULL };
	struct location l;
	void *data;

	if (check_keys(jp, o, k, keys) < 0 || set_handle_parse(jp, o, h, op) < 0)
		return -1;
	if (op != CMD_ADD && op != CMD_CREATE && op != CMD_DELETE &&
	    op != CMD_DESTROY && op != CMD_GET && op != CMD_RESET)
		return 1;
	if (!json_object_get(o, "elem")) {
		handle_free(h);
		return jerr(jp, o, "element: property \"elem\" is missing");
	}
	l = loc_of(jp, json_object_get(o, "elem"));
	data = elems_parse(jp, json_object_get(o, "elem"), &l);
	if (!data) {
		handle_free(h);
		return -1;
	}
	add_cmd(jp, cmd_alloc(op == CMD_CREATE ? CMD_ADD : op,
			      CMD_OBJ_ELEMENTS, h, loc, data));
	return 0;
}

/* {"flowtable": {"family", "table", "name", "handle", "hook", "prio",
   "dev"}}: src/kinds/flowtable.c reads the hook, priority and devices */
static int flowtable_cmd(struct jp *jp, enum cmd_ops op, const char *k,
			 json_t *o, struct handle *h, const struct location *loc)
{
	struct kind_jparse kj = KIND_JPARSE(jp);
	struct flowtable *ft;
	bool add = op == CMD_ADD || op == CMD_CREATE;

	if (handle_parse(jp, o, h, "table", "name", op) < 0)
		return -1;
	h->obj = h->chain;
	h->obj_loc = h->chain_loc;
	h->chain = NULL;
	if (op != CMD_ADD && op != CMD_CREATE && op != CMD_DELETE &&
	    op != CMD_DESTROY && op != CMD_LIST)
		return 1;
	if ((op == CMD_LIST || add) && !h->obj) {
		handle_free(h);
		return jerr(jp, o, "flowtable: property \"name\" is missing");
	}
	ft = flowtable_parse_json(&kj, o, add);
	if (!ft) {
		handle_free(h);
		return -1;
	}
	/* a deletion keeps the devices it takes out (src/kinds/flowtable.c) */
	if (!add && (op == CMD_LIST || list_empty(&ft->hook->devices))) {
		flowtable_free(ft);
		ft = NULL;
	} else {
		handle_copy(&ft->h, h);
	}
	add_cmd(jp, cmd_alloc(op, CMD_OBJ_FLOWTABLE, h, loc, ft));
	return 0;
}

static const struct {
	const char	*name;
	kind_cmd_fn	fn;
} kind_cmds[] = {
	{ "flowtable",	flowtable_cmd },
	{ "table",	table_cmd },
	{ "chain",	chain_cmd },
	{ "rule",	rule_cmd },
	{ "set",	set_cmd },
	{ "map",	set_cmd },
	{ "element",	element_cmd },
};

static int object_cmd(struct jp *jp, enum cmd_ops op, const char *k, json_t *o,
		      json_t *whole)
{
	struct location loc = loc_of(jp, whole);
	kind_cmd_fn fn = NULL;
	struct obj_jkind jk;
	struct handle h;
	int ret;

	if (!strcmp(k, "ruleset") || !strcmp(k, "tables") || !strcmp(k, "chains") ||
	    !strcmp(k, "sets") || !strcmp(k, "maps"))
		return listing_cmd(jp, op, k, o, whole);
	switch (obj_jkind_of(k, &jk)) {
	case 1:
		return obj_cmd_parse(jp, op, &jk, o, whole);
	case 2:
		return objs_cmd_parse(jp, op, &jk, o, whole);
	}
	if (op == CMD_RESET && strcmp(k, "set") && strcmp(k, "map") &&
	    strcmp(k, "element"))
		return jerr(jp, whole, "\"%s\" cannot be reset", k);
	if (!json_is_object(o))
		return jerr(jp, o, "expected an object");
	for (unsigned int i = 0; i < array_size(kind_cmds); i++)
		if (!strcmp(k, kind_cmds[i].name))
			fn = kind_cmds[i].fn;
	if (!fn) {
		static const char *const names[] = {
			"add", "create", "insert", "replace", "delete",
			"destroy", "list", "flush", "reset", "get", "table",
			"chain", "rule", "set", "map", "element", "metainfo",
			NULL
		};
		struct suggest sg;
		const char *hint = key_hint(&sg, k, names, false, false);

		if (hint[0])
			return jerr(jp, whole, "unknown command or object \"%s\"%s", k, hint);
		return jerr(jp, whole, "\"%s\" objects are not supported in JSON input yet", k);
	}
	ret = fn(jp, op, k, o, &h, &loc);
	if (ret <= 0)
		return ret;
	handle_free(&h);
	return jerr(jp, whole, "this command does not apply to a %s", k);
}

static int command_parse(struct jp *jp, json_t *item)
{
	static const struct { const char *name; enum cmd_ops op; } cmds[] = {
		{ "add", CMD_ADD }, { "create", CMD_CREATE },
		{ "insert", CMD_INSERT }, { "replace", CMD_REPLACE },
		{ "delete", CMD_DELETE }, { "destroy", CMD_DESTROY },
		{ "list", CMD_LIST }, { "flush", CMD_FLUSH },
		{ "reset", CMD_RESET }, { "get", CMD_GET },
	};
	const char *k, *obj;
	json_t *v, *o;

	k = only_key(jp, item, &v, "a command or a ruleset object");
	if (!k)
		return -1;
	if (!strcmp(k, "metainfo")) {
		uint64_t ver;

		if (json_is_object(v) && get_u64(jp, v, "json_schema_version", &ver) == 1 &&
		    ver > 1)
			return jerr(jp, json_object_get(v, "json_schema_version"),
				    "JSON schema version %llu is newer than the supported version 1",
				    (unsigned long long)ver);
		return 0;
	}
	if (!strcmp(k, "rename"))
		return jerr(jp, item, "command \"%s\" is not supported yet", k);
	for (unsigned int i = 0; i < array_size(cmds); i++) {
		if (strcmp(k, cmds[i].name))
			continue;
		obj = only_key(jp, v, &o, "an object to act on");
		if (!obj)
			return -1;
		return object_cmd(jp, cmds[i].op, obj, o, item);
	}
	/* a listed object, as -j list prints it, adds itself */
	return object_cmd(jp, CMD_ADD, k, v, item);
}

static struct input_desc *input_add(struct parser_state *state,
				    const char *name, const char *buf)
{
	struct input_desc *in = xzalloc(sizeof(*in));

	in->name = name ? xstrdup(name) : NULL;
	in->data = xstrdup(buf);
	in->len = strlen(buf);
	list_add_tail(&in->list, &state->ctx->inputs);
	return in;
}

static int add_rank(const struct cmd *cmd)
{
	if (cmd->op != CMD_ADD && cmd->op != CMD_CREATE &&
	    cmd->op != CMD_INSERT && cmd->op != CMD_REPLACE)
		return -1;
	switch (cmd->obj) {
	case CMD_OBJ_TABLE:	return 0;
	case CMD_OBJ_CHAIN:
	case CMD_OBJ_FLOWTABLE:
	case CMD_OBJ_OBJ:	return 1;
	case CMD_OBJ_SET:
	case CMD_OBJ_MAP:	return 2;
	case CMD_OBJ_ELEMENTS:	return 3;
	default:		return 4;
	}
}

/*
 * nft lists a table's sets before its chains, so a verdict map that jumps
 * to a chain comes before the chain exists (nft 1.0.6 cannot load such a
 * listing back).  Within each run of additions, tables go first, then
 * chains, sets, elements and rules, each kind in the order given; that
 * order satisfies every dependency between them.
 */
static void order_additions(struct list_head *cmds, struct list_head *first)
{
	struct list_head *pos = first;

	while (pos != cmds) {
		struct list_head run, *end = pos;
		struct cmd *cmd, *next;

		if (add_rank(list_entry(pos, struct cmd, list)) < 0) {
			pos = pos->next;
			continue;
		}
		while (end != cmds && add_rank(list_entry(end, struct cmd, list)) >= 0)
			end = end->next;
		/* move the run out, then back rank by rank before @end */
		init_list_head(&run);
		for (struct list_head *p = pos, *n; p != end; p = n) {
			n = p->next;
			list_del(p);
			list_add_tail(p, &run);
		}
		for (int rank = 0; rank <= 4; rank++)
			list_for_each_entry_safe(cmd, next, &run, list)
				if (add_rank(cmd) == rank) {
					list_del(&cmd->list);
					list_add_tail(&cmd->list, end);
				}
		pos = end;
	}
}

bool json_looks_like(const char *buf)
{
	while (*buf == ' ' || *buf == '\t' || *buf == '\n' || *buf == '\r')
		buf++;
	return *buf == '{';
}

/* jansson reports the offset just past the token it choked on: mark it */
static struct location error_loc(const struct jp *jp, int pos)
{
	const char *d = jp->in->data;
	int end = pos > (int)jp->in->len ? (int)jp->in->len : pos, start;

	if (end <= 0)
		return offset_loc(jp, 0, 1);
	start = end - 1;
	if (d[start] == '"') {
		while (start > 0 && (d[start - 1] != '"' ||
				     (start > 1 && d[start - 2] == '\\')))
			start--;
		start = start > 0 ? start - 1 : 0;
	} else {
		while (start > 0 && !strchr(" \t\r\n,:[]{}\"", d[start - 1]) &&
		       !strchr(" \t\r\n,:[]{}\"", d[start]))
			start--;
	}
	return offset_loc(jp, start, end);
}

/*
 * What command @item, which could not be read, may have declared: a table,
 * or something in one (its "table"), that what follows may name.  A rule
 * or elements declare nothing, nor do the commands that do not add; where
 * the table cannot be told, any may have lost a declaration.
 */
static void command_lost(struct jp *jp, json_t *item)
{
	static const char *const none[] = {
		"delete", "destroy", "list", "flush", "reset", "get", "rename",
		"metainfo", "rule", "element",
	};
	const char *k = NULL, *kind;
	json_t *v = NULL, *o, *t;

	if (json_is_object(item) && json_object_size(item) == 1)
		json_object_foreach(item, k, v)
			break;
	if (!k)
		goto any;
	kind = k;
	o = v;
	if (!strcmp(k, "add") || !strcmp(k, "create") || !strcmp(k, "insert") ||
	    !strcmp(k, "replace")) {
		kind = NULL;
		if (json_is_object(v) && json_object_size(v) == 1)
			json_object_foreach(v, kind, o)
				break;
		if (!kind)
			goto any;
	}
	for (int depth = 0; depth < 2; depth++) {
		for (unsigned int i = 0; i < array_size(none); i++)
			if (!strcmp(kind, none[i]))
				return;
		t = json_is_object(o) ?
		    json_object_get(o, strcmp(kind, "table") ? "table" : "name") :
		    NULL;
		if (json_is_string(t)) {
			parser_lost_word(jp->state, json_string_value(t));
			return;
		}
		/* a misspelt command ("ad"): the object in it */
		if (!json_is_object(o) || json_object_size(o) != 1)
			break;
		json_object_foreach(o, kind, v)
			break;
		o = v;
	}
any:
	jp->state->lost_all = true;
}

int json_parse(struct parser_state *state, const char *name, const char *buf)
{
	struct jp jp = { .state = state, .msgs = state->msgs };
	json_t *root, *items, *item;
	json_error_t err;
	size_t i;

	jp.in = input_add(state, name, buf);
	index_lines(&jp);
	root = json_loads(jp.in->data, JSON_REJECT_DUPLICATES, &err);
	if (!root) {
		struct location loc = error_loc(&jp, err.position);

		free(jp.lines);
		return error_queue(state->msgs, &loc, "invalid JSON: %s", err.text);
	}
	index_value(&jp, root, jp.in->data);
	items = json_object_get(root, "nftables");
	if (!json_is_object(root) || !json_is_array(items) || json_object_size(root) != 1) {
		jerr(&jp, root, "expected { \"nftables\": [ ... ] }");
	} else {
		struct list_head *last = state->cmds->prev;

		json_array_foreach(items, i, item) {
			unsigned int errors = jp.errors;

			command_parse(&jp, item);
			if (jp.errors != errors)
				command_lost(&jp, item);
		}
		order_additions(state->cmds, last->next);
	}
	json_decref(root);
	free(jp.spans);
	free(jp.lines);
	return jp.errors || !list_empty(state->msgs) ? -1 : 0;
}
