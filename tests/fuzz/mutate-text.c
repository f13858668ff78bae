// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The structure-aware mode of the text target (fuzz-text-sa): a libFuzzer
 * custom mutator that edits rule files a token at a time instead of a byte
 * at a time.  It inserts, replaces, deletes and splices whole words, lines
 * and rule fragments, and turns a word into a variable ("define v = WORD"
 * before, "$v" in its place), so that inputs such as
 *
 *	define nets = { 10.0.0.1 }
 *	table ip t { set s { type ipv4_addr; elements = $nets } }
 *
 * come up in a few mutations rather than never.
 *
 * The words come from nfh's own tables, read when the fuzzer starts, so
 * that they cannot fall behind the code: selectors, fields and the
 * symbolic values of their datatypes (nfh_expr_words(), the walk that
 * completion uses over the proto, meta, ct and datatype tables), the
 * datatype names (datatype_lookup()), and the scanner's keywords, which
 * tests/fuzz/run extracts from parser/scanner.l into the file named by
 * NFH_FUZZ_TOKENS.  The rest is templates for the forms around them:
 * tables, chains, sets, maps, define/undefine, commands with handles.
 *
 * One mutation in five is still libFuzzer's own (LLVMFuzzerMutate, which
 * uses -dict), so byte-level damage inside a token is not lost.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nfhook/libnfhook.h>
#include <datatype.h>

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
int LLVMFuzzerInitialize(int *argc, char ***argv);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size,
			       unsigned int seed);
size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1,
				 const uint8_t *data2, size_t size2,
				 uint8_t *out, size_t max_out_size,
				 unsigned int seed);

struct list {
	char	**v;
	size_t	n, cap;
};

static struct list keywords, selectors, values, types;

static void add(struct list *l, const char *s)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], s))
			return;
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 64;
		l->v = realloc(l->v, l->cap * sizeof(*l->v));
		if (!l->v)
			abort();
	}
	if (!(l->v[l->n++] = strdup(s)))
		abort();
}

/* the forms of values that no table lists */
static const char *const literals[] = {
	"0", "1", "2", "22", "255", "256", "65535", "65536", "4294967295",
	"0x12", "0xff", "0x80000000", "1-1024", "10-20", "10.0.0.1",
	"10.0.0.0/8", "10.0.0.1-10.0.0.9", "0.0.0.0/0", "192.168.1.0/24",
	"::1", "::/0", "2001:db8::/32", "fe80::1-fe80::9", "\"eth0\"",
	"\"e*\"", "\"x\"", "\"\"", "00:11:22:33:44:55", "1s", "1h", "10m",
	"\"12:00\"", "\"2023-01-01\"", "1.2.3.4 . 22", "tcp . 22",
	"{ 1, 2 }", "{ 10.0.0.1, 10.0.0.2 }", "$v", "$nets", "@s", "@m",
};

static const char *const families[] = {
	"ip", "ip6", "inet", "arp", "bridge", "netdev",
};

static const char *const names[] = { "t", "c", "s", "m", "v", "nets", "o" };

/*
 * Templates: %S a selector, %V a value, %T a datatype, %K a keyword, %F a
 * family, %N a name, %R a rule (a template of the second list), %D a whole
 * statement from the first list.
 */
static const char *const fragments[] = {
	"define %N = { %V, %V }\n",
	"define %N = %V\n",
	"define %N = { %V }\n",
	"undefine %N\n",
	"redefine %N = %V\n",
	"table %F %N { set %N { type %T; elements = $%N } }\n",
	"table %F %N { set %N { type %T; flags interval; elements = { %V, %V } } }\n",
	"table %F %N { set %N { type %T . %T; elements = { %V . %V } } }\n",
	"table %F %N { map %N { type %T : %T; elements = { %V : %V } } }\n",
	"table %F %N { map %N { type %T : verdict; elements = $%N } }\n",
	"table %F %N { chain %N { type filter hook input priority 0; %R } }\n",
	"table %F %N { chain %N { type %K hook %K priority %V; policy %K; %R; %R } }\n",
	"table %F %N { chain %N { %R } }\n",
	"table %F %N { counter %N { } quota %N { over %V bytes } }\n",
	"table %F %N { flags dormant; }\n",
	"add table %F %N\n",
	"add chain %F %N %N { type filter hook input priority 0; }\n",
	"add rule %F %N %N %R\n",
	"insert rule %F %N %N position 1 %R\n",
	"add set %F %N %N { type %T; elements = $%N; }\n",
	"add element %F %N %N { %V }\n",
	"add element %F %N %N $%N\n",
	"delete element %F %N %N { %V }\n",
	"destroy element %F %N %N { %V }\n",
	"flush table %F %N\n",
	"flush set %F %N %N\n",
	"delete chain %F %N handle 1\n",
	"destroy chain %F %N handle 2\n",
	"delete rule %F %N %N handle 3\n",
	"replace rule %F %N %N handle 4 %R\n",
	"delete table %F %N\n",
	"list ruleset\n",
	"list set %F %N %N\n",
	"reset counters\n",
};

static const char *const rules[] = {
	"%S %V", "%S != %V", "%S { %V, %V }", "%S != { %V }", "%S @%N",
	"%S vmap { %V : accept, %V : drop }", "%S vmap $%N", "%S $%N",
	"%S map { %V : %V }", "%S . %S { %V . %V }", "%S & %V == %V",
	"%S %V-%V", "%S < %V", "%S >= %V", "%S set %V", "%S %V counter accept",
	"%S %V %S %V", "%S { $%N }", "%K", "%K %V", "counter", "counter name %N",
	"log prefix \"$%N \"", "jump %N", "goto %N", "accept", "drop",
	"reject with icmp %V", "snat to %V", "dnat ip to %V", "meta mark set %V",
	"ct mark set %S", "update @%N { %S }", "add @%N { %S timeout 1s }",
	"limit rate %V/second", "quota over %V bytes", "queue num %V",
	"%R %R", "%S %V comment \"x\"",
};

static const char *pick(const struct list *l, unsigned int *r)
{
	return l->n ? l->v[rand_r(r) % l->n] : "x";
}

static const char *pick_value(unsigned int *r)
{
	if (!values.n || rand_r(r) % 3 == 0)
		return literals[rand_r(r) % (sizeof(literals) / sizeof(*literals))];
	return pick(&values, r);
}

struct buf {
	char	*p;
	size_t	len, cap;
};

static void put(struct buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		b->cap = 2 * (b->len + n + 1);
		b->p = realloc(b->p, b->cap);
		if (!b->p)
			abort();
	}
	if (n)
		memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

static void puts_(struct buf *b, const char *s)
{
	put(b, s, strlen(s));
}

static void expand(struct buf *b, const char *t, unsigned int *r, int depth)
{
	for (; *t; t++) {
		if (*t != '%' || !t[1]) {
			put(b, t, 1);
			continue;
		}
		switch (*++t) {
		case 'S': puts_(b, pick(&selectors, r)); break;
		case 'V': puts_(b, pick_value(r)); break;
		case 'T': puts_(b, pick(&types, r)); break;
		case 'K': puts_(b, pick(&keywords, r)); break;
		case 'F':
			puts_(b, families[rand_r(r) % (sizeof(families) / sizeof(*families))]);
			break;
		case 'N':
			puts_(b, names[rand_r(r) % (sizeof(names) / sizeof(*names))]);
			break;
		case 'R':
			if (depth < 3)
				expand(b, rules[rand_r(r) % (sizeof(rules) / sizeof(*rules))],
				       r, depth + 1);
			else
				puts_(b, "accept");
			break;
		case 'D':
			if (depth < 3)
				expand(b, fragments[rand_r(r) % (sizeof(fragments) / sizeof(*fragments))],
				       r, depth + 1);
			break;
		default: put(b, t - 1, 2); break;
		}
	}
}

/* the words of the selector tables, walked as completion walks them */
struct walk_ctx {
	const char	*words[6];
	unsigned int	n;
	struct list	children;
};

static int collect(const char *word, void *data)
{
	add(&((struct walk_ctx *)data)->children, word);
	return 0;
}

static int ignore(const char *word, void *data)
{
	(void)word;
	(void)data;
	return 0;
}

static void walk(const char *const *words, unsigned int n)
{
	struct walk_ctx w = { .n = n };
	char phrase[256];
	size_t len = 0;
	int leaf = 1;

	if (n)
		memcpy(w.words, words, n * sizeof(*words));
	if (nfh_expr_words(words, n, collect, &w) < 0)
		return;
	for (size_t i = 0; i < w.children.n; i++) {
		w.words[n] = w.children.v[i];
		if (n < 4 && nfh_expr_words(w.words, n + 1, ignore, NULL) >= 0) {
			leaf = 0;
			walk(w.words, n + 1);
		} else {
			add(&values, w.children.v[i]);
		}
	}
	if (n > 0 && (leaf || !w.children.n)) {
		phrase[0] = '\0';
		for (unsigned int i = 0; i < n; i++)
			len += snprintf(phrase + len, sizeof(phrase) - len, "%s%s",
					i ? " " : "", words[i]);
		add(&selectors, phrase);
	}
	for (size_t i = 0; i < w.children.n; i++)
		free(w.children.v[i]);
	free(w.children.v);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *path = getenv("NFH_FUZZ_TOKENS");
	const struct datatype *dt;
	char line[256];
	FILE *f;

	(void)argc;
	(void)argv;
	walk(NULL, 0);
	for (unsigned int i = 0; i < TYPE_MAX; i++)
		if ((dt = datatype_lookup(i)) && dt->name && i != TYPE_INVALID)
			add(&types, dt->name);
	/* the set key types nft knows by another name than the datatype's */
	add(&types, "ipv4_addr");
	add(&types, "ipv6_addr");
	add(&types, "ifname");
	if (path && (f = fopen(path, "r"))) {
		while (fgets(line, sizeof(line), f)) {
			line[strcspn(line, "\n")] = '\0';
			if (line[0])
				add(&keywords, line);
		}
		fclose(f);
	}
	if (getenv("NFH_FUZZ_VERBOSE"))
		fprintf(stderr, "mutate-text: %zu keywords, %zu selectors, %zu values, %zu types\n",
			keywords.n, selectors.n, values.n, types.n);
	return 0;
}

static int is_sep(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '{' ||
	       c == '}' || c == ',';
}

/* the start and end of the Nth word (a run of non-separators) */
static int nth_word(const char *s, size_t len, size_t k, size_t *a, size_t *b)
{
	size_t i = 0, n = 0;

	while (i < len) {
		while (i < len && is_sep(s[i]))
			i++;
		if (i >= len)
			break;
		*a = i;
		while (i < len && !is_sep(s[i]))
			i++;
		*b = i;
		if (n++ == k)
			return 1;
	}
	return 0;
}

static size_t count_words(const char *s, size_t len)
{
	size_t n = 0, i = 0;

	while (i < len) {
		while (i < len && is_sep(s[i]))
			i++;
		if (i >= len)
			break;
		n++;
		while (i < len && !is_sep(s[i]))
			i++;
	}
	return n;
}

/* a position just after a separator (or 0): where a token may go */
static size_t boundary(const char *s, size_t len, unsigned int *r)
{
	size_t p = len ? rand_r(r) % (len + 1) : 0;

	while (p > 0 && p < len && !is_sep(s[p - 1]))
		p--;
	return p;
}

static size_t line_start(const char *s, size_t len, unsigned int *r)
{
	size_t p = len ? rand_r(r) % (len + 1) : 0;

	while (p > 0 && s[p - 1] != '\n')
		p--;
	return p;
}

static size_t line_end(const char *s, size_t len, size_t p)
{
	while (p < len && s[p] != '\n')
		p++;
	return p < len ? p + 1 : p;
}

static const char *random_token(unsigned int *r)
{
	switch (rand_r(r) % 4) {
	case 0: return pick(&keywords, r);
	case 1: return pick(&selectors, r);
	case 2: return pick_value(r);
	default: return pick(&types, r);
	}
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size,
			       unsigned int seed)
{
	const char *s = (const char *)data;
	unsigned int r = seed;
	struct buf b = { 0 };
	struct buf t = { 0 };
	size_t a, e, p, q, n;
	const char *tok;

	if (rand_r(&r) % 5 == 0)
		return LLVMFuzzerMutate(data, size, max_size);
	n = count_words(s, size);
	switch (rand_r(&r) % 9) {
	case 0: /* insert a fragment at the start of a line */
		p = line_start(s, size, &r);
		expand(&t, "%D", &r, 0);
		put(&b, s, p);
		put(&b, t.p ? t.p : "", t.len);
		put(&b, s + p, size - p);
		break;
	case 1: /* insert a rule fragment between two tokens */
		p = boundary(s, size, &r);
		expand(&t, " %R ", &r, 1);
		put(&b, s, p);
		put(&b, t.p, t.len);
		put(&b, s + p, size - p);
		break;
	case 2: /* insert one token */
		p = boundary(s, size, &r);
		put(&b, s, p);
		puts_(&b, " ");
		puts_(&b, random_token(&r));
		puts_(&b, " ");
		put(&b, s + p, size - p);
		break;
	case 3: /* replace a word with a token */
	case 4:
		if (!n || !nth_word(s, size, rand_r(&r) % n, &a, &e))
			goto fallback;
		put(&b, s, a);
		puts_(&b, random_token(&r));
		put(&b, s + e, size - e);
		break;
	case 5: /* delete a word */
		if (!n || !nth_word(s, size, rand_r(&r) % n, &a, &e))
			goto fallback;
		put(&b, s, a);
		put(&b, s + e, size - e);
		break;
	case 6: /* a word becomes a variable, defined on the first line */
		if (!n || !nth_word(s, size, rand_r(&r) % n, &a, &e))
			goto fallback;
		tok = names[rand_r(&r) % (sizeof(names) / sizeof(*names))];
		puts_(&b, "define ");
		puts_(&b, tok);
		q = rand_r(&r) % 2;
		puts_(&b, q ? " = { " : " = ");
		put(&b, s + a, e - a);
		puts_(&b, q ? " }\n" : "\n");
		put(&b, s, a);
		puts_(&b, "$");
		puts_(&b, tok);
		put(&b, s + e, size - e);
		break;
	case 7: /* copy a line to another line */
		if (!size)
			goto fallback;
		p = line_start(s, size, &r);
		q = line_end(s, size, p);
		a = line_start(s, size, &r);
		put(&b, s, a);
		put(&b, s + p, q - p);
		if (q == size || s[q - 1] != '\n')
			puts_(&b, "\n");
		put(&b, s + a, size - a);
		break;
	default: /* a word in braces: a set of one element */
		if (!n || !nth_word(s, size, rand_r(&r) % n, &a, &e))
			goto fallback;
		put(&b, s, a);
		puts_(&b, "{ ");
		put(&b, s + a, e - a);
		puts_(&b, rand_r(&r) % 2 ? " }" : ", ");
		if (b.p[b.len - 1] == ' ') {
			puts_(&b, pick_value(&r));
			puts_(&b, " }");
		}
		put(&b, s + e, size - e);
		break;
	}
	free(t.p);
	if (!b.p || b.len > max_size) {
		free(b.p);
		return LLVMFuzzerMutate(data, size, max_size);
	}
	memcpy(data, b.p, b.len);
	n = b.len;
	free(b.p);
	return n;
fallback:
	free(t.p);
	free(b.p);
	return LLVMFuzzerMutate(data, size, max_size);
}

/* lines of one input spliced into the other, at line boundaries */
size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1,
				 const uint8_t *data2, size_t size2,
				 uint8_t *out, size_t max_out_size,
				 unsigned int seed)
{
	const char *s1 = (const char *)data1, *s2 = (const char *)data2;
	unsigned int r = seed;
	size_t p1 = line_start(s1, size1, &r);
	size_t p2 = line_start(s2, size2, &r);
	size_t e2 = line_end(s2, size2, p2);
	struct buf b = { 0 };
	size_t n;

	/* a few lines of the second input, or all of its tail */
	for (unsigned int k = rand_r(&r) % 4; k > 0 && e2 < size2; k--)
		e2 = line_end(s2, size2, e2);
	if (rand_r(&r) % 3 == 0)
		e2 = size2;
	put(&b, s1, p1);
	put(&b, s2 + p2, e2 - p2);
	if (e2 > p2 && s2[e2 - 1] != '\n')
		puts_(&b, "\n");
	put(&b, s1 + p1, size1 - p1);
	n = b.len <= max_out_size ? b.len : 0;
	if (n)
		memcpy(out, b.p, n);
	free(b.p);
	return n;
}
