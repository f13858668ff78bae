// SPDX-License-Identifier: GPL-2.0-or-later
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <erec.h>

const struct location internal_location;

#define MSG_MAX		512	/* longest message printed, in bytes */
#define SCREEN		160	/* a source line wider than a screen shows a
				   window of it this wide, "..." included */

struct error_record *erec_vcreate(enum erec_type type,
				  const struct location *loc,
				  const char *fmt, va_list ap)
{
	struct error_record *erec = xzalloc(sizeof(*erec));

	erec->type = type;
	erec->locations[0] = loc ? *loc : internal_location;
	erec->num_locs = 1;
	if (vasprintf(&erec->msg, fmt, ap) < 0)
		memory_allocation_error();
	/* a 10 MB name in a message helps no one: keep the start */
	if (strlen(erec->msg) > MSG_MAX)
		strcpy(erec->msg + MSG_MAX - 3, "...");
	init_list_head(&erec->list);
	return erec;
}

struct error_record *erec_create(enum erec_type type,
				 const struct location *loc,
				 const char *fmt, ...)
{
	struct error_record *erec;
	va_list ap;

	va_start(ap, fmt);
	erec = erec_vcreate(type, loc, fmt, ap);
	va_end(ap);
	return erec;
}

void erec_add_location(struct error_record *erec, const struct location *loc)
{
	if (erec->num_locs < EREC_MAX_LOCS)
		erec->locations[erec->num_locs++] = *loc;
}

void erec_destroy(struct error_record *erec)
{
	free(erec->msg);
	free(erec);
}

int error_queue(struct list_head *msgs, const struct location *loc,
		const char *fmt, ...)
{
	struct error_record *erec;
	va_list ap;

	va_start(ap, fmt);
	erec = erec_vcreate(EREC_ERROR, loc, fmt, ap);
	va_end(ap);
	list_add_tail(&erec->list, msgs);
	return -1;
}

int error_queue2(struct list_head *msgs, const struct location *loc,
		 const struct location *loc2, const char *fmt, ...)
{
	struct error_record *erec;
	va_list ap;

	va_start(ap, fmt);
	erec = erec_vcreate(EREC_ERROR, loc, fmt, ap);
	va_end(ap);
	if (loc2 && loc2->indesc)
		erec_add_location(erec, loc2);
	list_add_tail(&erec->list, msgs);
	return -1;
}

static void print_include_chain(FILE *f, const struct input_desc *in)
{
	const struct location *p;

	for (p = in->parent; p && p->indesc; p = p->indesc->parent)
		fprintf(f, "In file included from %s:%u:%u-%u:\n",
			p->indesc->name ? p->indesc->name : "<cmdline>",
			p->first_line, p->first_col, p->last_col);
}

static size_t line_length(const struct input_desc *in, unsigned int off)
{
	const char *s = in->data + off, *nl;

	if (off >= in->len)
		return 0;
	nl = memchr(s, '\n', in->len - off);
	return nl ? (size_t)(nl - s) : in->len - off;
}

void erec_print(FILE *f, const struct error_record *erec)
{
	const struct location *loc = &erec->locations[0];
	const struct input_desc *in = loc->indesc;
	const char *kind = erec->type == EREC_ERROR ? "Error" : "Warning";
	unsigned int last_col;
	size_t len, i, from = 0, to, pre = 0;
	const char *line;
	char *marks;

	if (!in) {
		fprintf(f, "%s: %s\n", kind, erec->msg);
		return;
	}
	print_include_chain(f, in);
	last_col = loc->last_line == loc->first_line ? loc->last_col
						     : loc->first_col;
	if (in->name)
		fprintf(f, "%s:%u:%u-%u: ", in->name, loc->first_line,
			loc->first_col, last_col);
	fprintf(f, "%s: %s\n", kind, erec->msg);

	len = line_length(in, loc->line_offset);
	line = in->data + loc->line_offset;
	to = len;
	/* a line wider than a screen: a window of it that starts a little
	   before the error, or ends where the line ends */
	if (len > SCREEN) {
		from = loc->first_col > 41 ? loc->first_col - 41 : 0;
		if (from + SCREEN - 3 > len)
			from = len - (SCREEN - 3);
		pre = from > 0 ? 3 : 0;
		to = from + SCREEN - pre < len ? from + SCREEN - pre - 3 : len;
	}
	fprintf(f, "%s%.*s%s\n", pre ? "..." : "", (int)(to - from), line + from,
		to < len ? "..." : "");

	/* one marker line: '~' under secondary spans, '^' under the culprit */
	marks = xmalloc(pre + (to - from) + 2);
	memset(marks, ' ', pre);
	for (i = from; i < to + 1; i++)
		marks[pre + i - from] = (i < to && line[i] == '\t') ? '\t' : ' ';
	for (unsigned int l = erec->num_locs; l-- > 0;) {
		const struct location *x = &erec->locations[l];
		unsigned int lc;

		if (x->indesc != in || x->first_line != loc->first_line)
			continue;
		lc = x->last_line == x->first_line ? x->last_col : x->first_col;
		for (size_t c = x->first_col; c <= lc && c - 1 <= to; c++)
			if (c - 1 >= from)
				marks[pre + c - 1 - from] = l == 0 ? '^' : '~';
	}
	i = pre + (to - from) + 1;
	while (i > 0 && (marks[i - 1] == ' ' || marks[i - 1] == '\t'))
		i--;
	fprintf(f, "%.*s\n", (int)i, marks);
	free(marks);
}

void erec_print_list(FILE *f, struct list_head *list)
{
	struct error_record *erec, *next;
	unsigned int n = 0;

	list_for_each_entry_safe(erec, next, list, list) {
		if (n++ < ERRORS_SHOWN)
			erec_print(f, erec);
		list_del(&erec->list);
		erec_destroy(erec);
	}
	if (n > ERRORS_SHOWN)
		fprintf(f, "Error: %u more errors not shown (the first %u are)\n",
			n - ERRORS_SHOWN, ERRORS_SHOWN);
}

void erec_free_list(struct list_head *list)
{
	struct error_record *erec, *next;

	list_for_each_entry_safe(erec, next, list, list) {
		list_del(&erec->list);
		erec_destroy(erec);
	}
}

/* where a record sorts: the place in the top file, then its own */
struct erec_key {
	struct error_record	*erec;
	unsigned int		top_input, top_line, top_col, line, col;
	unsigned int		seq;
};

static unsigned int input_index(const struct list_head *inputs,
				const struct input_desc *in)
{
	const struct input_desc *i;
	unsigned int n = 0;

	list_for_each_entry(i, inputs, list) {
		if (i == in)
			return n;
		n++;
	}
	return n;
}

static int cmp_uint(unsigned int a, unsigned int b)
{
	return a < b ? -1 : a > b;
}

static int erec_key_cmp(const void *a, const void *b)
{
	const struct erec_key *x = a, *y = b;
	int r;

	if ((r = cmp_uint(x->top_input, y->top_input)) ||
	    (r = cmp_uint(x->top_line, y->top_line)) ||
	    (r = cmp_uint(x->top_col, y->top_col)) ||
	    (r = cmp_uint(x->line, y->line)) ||
	    (r = cmp_uint(x->col, y->col)))
		return r;
	return cmp_uint(x->seq, y->seq);
}

void erec_sort(struct list_head *list, const struct list_head *inputs)
{
	struct error_record *erec, *next;
	struct erec_key *keys;
	unsigned int n = 0, k = 0;

	list_for_each_entry(erec, list, list)
		n++;
	if (n < 2)
		return;
	keys = xzalloc(n * sizeof(*keys));
	list_for_each_entry_safe(erec, next, list, list) {
		const struct location *l = &erec->locations[0], *top = l;
		struct erec_key *key = &keys[k];

		while (top->indesc && top->indesc->parent &&
		       top->indesc->parent->indesc)
			top = top->indesc->parent;
		key->erec = erec;
		key->seq = k++;
		/* no place (a kernel answer, a limit): after the others */
		key->top_input = top->indesc ? input_index(inputs, top->indesc) :
					       UINT_MAX;
		key->top_line = top->first_line;
		key->top_col = top->first_col;
		key->line = l->first_line;
		key->col = l->first_col;
		list_del(&erec->list);
	}
	qsort(keys, n, sizeof(*keys), erec_key_cmp);
	for (k = 0; k < n; k++)
		list_add_tail(&keys[k].erec->list, list);
	free(keys);
}
