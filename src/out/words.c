// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nfh_expr_words: what may follow the words of a selector, read from the
 * tables the parser uses, so that a front end's completion never offers a
 * word the grammar would refuse.
 */
#include <string.h>

#include <ctx.h>
#include <datatype.h>
#include <kind.h>
#include <proto.h>
#include <ct.h>
#include <meta.h>

typedef int (*word_cb)(const char *word, void *data);

struct walk {
	word_cb		cb;
	void		*data;
	int		count;
	int		stop;
};

static void say(struct walk *w, const char *word)
{
	if (w->stop)
		return;
	w->count++;
	w->stop = w->cb(word, w->data);
}

/* a kind known by its ops (osf, ipsec, ...): its words are its own */
static const struct expr_ops *ops_lookup(const char *name)
{
	const struct expr_ops *o;

	for (unsigned int i = 0; (o = expr_ops_nth(i)); i++)
		if (o->parse && o->name && !strcmp(o->name, name))
			return o;
	return NULL;
}

static void say_selectors(struct walk *w)
{
	const struct expr_ops *o;
	const struct proto_desc *d;

	for (unsigned int i = 0; (d = proto_nth(i)); i++)
		say(w, d->name);
	say(w, "meta");
	say(w, "ct");
	for (unsigned int k = 0; k < meta_key_max(); k++) {
		const struct meta_template *t = meta_template(k);

		if (t && t->bare)
			say(w, t->name);
	}
	/* the kinds the grammar hands to expr_kind_parse() */
	for (unsigned int i = 0; (o = expr_ops_nth(i)); i++)
		if (o->parse && o->name)
			say(w, o->name);
}

static void say_symbols(struct walk *w, const struct datatype *dt)
{
	/* a refined type may leave its symbols to its base */
	for (; dt && !dt->symbols; dt = dt->basetype)
		;
	for (const struct symbol *s = dt ? dt->symbols : NULL; s && s->name; s++)
		say(w, s->name);
}

static int ct_words(struct walk *w, const char *const *words, unsigned int n)
{
	bool dir = n > 1 && (!strcmp(words[1], "original") ||
			     !strcmp(words[1], "reply"));
	const struct ct_template *t;
	int key;

	if (n == 1 || (n == 2 && dir)) {
		if (n == 1) {
			say(w, "original");
			say(w, "reply");
		}
		for (unsigned int k = 0; k < ct_key_max(); k++)
			if ((t = ct_template(k)) && (!dir || t->dir))
				say(w, t->name);
		return 0;
	}
	if (n != 2 + dir || (key = ct_key_lookup(words[1 + dir])) < 0)
		return -1;
	say_symbols(w, ct_template(key)->dtype);
	return 0;
}

static int meta_words(struct walk *w, const char *const *words, unsigned int n)
{
	const struct meta_template *t;
	int key;

	if (n == 1) {
		for (unsigned int k = 0; k < meta_key_max(); k++)
			if ((t = meta_template(k)))
				say(w, t->name);
		return 0;
	}
	if (n != 2 || (key = meta_key_lookup(words[1], false)) < 0)
		return -1;
	say_symbols(w, meta_template(key)->dtype);
	return 0;
}

static int header_words(struct walk *w, const struct proto_desc *d,
			const char *const *words, unsigned int n)
{
	const struct proto_field *f;

	if (n == 1) {
		for (unsigned int i = 0; i < PROTO_FIELDS_MAX && d->fields[i].name; i++)
			say(w, d->fields[i].name);
		return 0;
	}
	if (n != 2 || !(f = proto_field_lookup(d, words[1])))
		return -1;
	say_symbols(w, f->dtype);
	return 0;
}

EXPORT int nfh_expr_words(const char *const *words, unsigned int n,
			  word_cb cb, void *data)
{
	struct walk w = { .cb = cb, .data = data };
	const struct proto_desc *d;
	int key, ret;

	if (n == 0) {
		say_selectors(&w);
		return w.count;
	}
	if (!strcmp(words[0], "ct"))
		ret = ct_words(&w, words, n);
	else if (!strcmp(words[0], "meta"))
		ret = meta_words(&w, words, n);
	else if ((d = proto_lookup(words[0])))
		ret = header_words(&w, d, words, n);
	else if (n == 1 && (key = meta_key_lookup(words[0], true)) >= 0) {
		say_symbols(&w, meta_template(key)->dtype);
		ret = 0;
	} else if (ops_lookup(words[0]))
		ret = 0;	/* a selector; what follows is the kind's */
	else
		ret = -1;
	return ret < 0 ? -1 : w.count;
}

EXPORT int nfh_stmt_words(bool bare, int (*cb)(const char *word, void *data),
			  void *data)
{
	struct walk w = { .cb = cb, .data = data };
	const struct stmt_ops *o;

	for (unsigned int i = 0; (o = stmt_ops_nth(i)); i++)
		if (o->name && !o->not_offered && (!bare || o->bare))
			say(&w, o->name);
	return w.count;
}
