// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * add|update|delete @set { KEY [timeout T] [STATEMENTS] } and meter NAME
 * [size N] { KEY STATEMENTS }: the packet path adds the key to a set (the
 * kernel's "dynset" expression), with the statements kept per element
 * (counter, limit, quota, ct count) inside the expression.  A meter's set
 * is the rule's own anonymous one, which the linearizer adds to the batch.
 * STMT_SET stays in the enum: the grammar fills it, stmt_alloc() gives it
 * its list of statements, and delinearize's postprocess names its key.
 */
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include <libnftnl/expr.h>
#include <libnftnl/set.h>
#include <linux/netfilter/nf_tables.h>

#include <ctx.h>
#include <datatype.h>
#include <kind.h>
#include <nlalloc.h>
#include <set.h>

static const char *const dynset_ops_names[] = { "add", "update", "delete" };

static bool is_constant(const struct expr *e)
{
	return e->kind == EXPR_SYMBOL || e->kind == EXPR_VALUE;
}

static bool key_has_constant(const struct expr *key)
{
	const struct expr *i;

	if (key->kind != EXPR_CONCAT)
		return is_constant(key);
	list_for_each_entry(i, &key->set.exprs, list)
		if (is_constant(i))
			return true;
	return false;
}

/*
 * A concatenation written to a set, its key (add @s { ip saddr . 22 }) or
 * a map's value: as nft, constants are values of the types of @want's
 * parts, part by part; @what says which in errors.
 */
static int concat_eval(struct kind_eval *k, const struct set *set,
		       const struct expr *want, struct expr *c,
		       const char *what)
{
	unsigned int n = 0, parts = 0, bits = 0;
	struct list_head *pos, *nextpos;
	const struct expr *t;
	struct expr *i;

	if (want->kind == EXPR_CONCAT)
		list_for_each_entry(t, &want->set.exprs, list)
			parts++;
	list_for_each_entry(i, &c->set.exprs, list)
		n++;
	if (n != parts)
		return error_queue(k->msgs, &c->loc,
				   "%s @%s has a %s of %u values, not %u",
				   set->is_map ? "map" : "set", set->h.set, what,
				   parts ? parts : 1, n);
	t = list_first_entry(&want->set.exprs, struct expr, list);
	for (pos = c->set.exprs.next; pos != &c->set.exprs; pos = nextpos) {
		i = list_entry(pos, struct expr, list);
		nextpos = pos->next;
		list_del(&i->list);
		if ((is_constant(i) ? k->rhs(k, t, &i) : k->expr(k, &i)) < 0) {
			expr_free(i);
			return -1;
		}
		list_add_tail(&i->list, nextpos);
		if (i->kind == EXPR_CONCAT || !i->len)
			return error_queue(k->msgs, &i->loc,
					   "this cannot be part of a concatenation");
		bits += div_round_up(i->len, 32) * 32;
		t = list_next_entry(t, list);
	}
	c->len = bits;
	return 0;
}

/* a key with constants in it (add @s { ip saddr . 22 }) */
static int const_key_eval(struct kind_eval *k, struct stmt *s)
{
	const struct set *set = k->set_find(k, s->set.set->setref.name);
	struct expr *key = s->set.key;

	if (!set || !set->key)
		/* it says why: no such set, or a bad declaration */
		return k->setref(k, key, s->set.set, s->set.data != NULL);
	if (key->kind != EXPR_CONCAT)
		return k->rhs(k, set->key, &s->set.key);
	return concat_eval(k, set, set->key, key, "key");
}

/* add @m { KEY : DATA }: a value of the map's values, a constant or one
   taken from the packet (ct mark); not a verdict or an object, which
   the kernel's dynset cannot write */
static int map_data_eval(struct kind_eval *k, struct stmt *s,
			 const struct set *set)
{
	if (set->objtype || !set->data ||
	    set->data->dtype == &verdict_type)
		return error_queue(k->msgs, &s->set.data->loc,
				   "map %s holds %s: a rule can write only values into it",
				   set->h.set, set->objtype ? "objects" : "verdicts");
	if (s->set.data->kind == EXPR_CONCAT)
		return concat_eval(k, set, set->data, s->set.data, "value");
	return k->value(k, set->data, &s->set.data);
}

static int dynset_eval(struct kind_eval *k, struct stmt *s)
{
	struct stmt *i;
	struct set *set;

	if (!s->set.meter && key_has_constant(s->set.key)) {
		if (const_key_eval(k, s) < 0)
			return -1;
	} else if (k->expr(k, &s->set.key) < 0) {
		return -1;
	}
	if (s->set.meter) {
		/* the rule makes the set to fit its key (linearize.c) */
		if (k->name_check(k, s->set.set->setref.name,
				  &s->set.set->loc, "meter") < 0)
			return -1;
		if (list_empty(&s->set.stmts))
			return error_queue(k->msgs, &s->loc,
					   "a meter keeps a statement per element: limit, counter or quota");
		s->set.op = s->set.timeout ? NFT_DYNSET_OP_UPDATE :
					     NFT_DYNSET_OP_ADD;
		goto stmts;
	}
	if (k->setref(k, s->set.key, s->set.set, s->set.data != NULL) < 0)
		return -1;
	set = s->set.set->setref.set;
	if (s->set.data && map_data_eval(k, s, set) < 0)
		return -1;
	/*
	 * As nft does: a set this batch creates and the packet path fills is
	 * dynamic, whether or not its declaration says so (nft's JSON drops
	 * the flag, so a listing loads back only thanks to this).
	 */
	if (k->set_in_batch(k, set) && !s->set.data)
		set->flags |= NFT_SET_EVAL;	/* not a map's, as nft */
	if (s->set.timeout && !(set->flags & NFT_SET_TIMEOUT))
		return error_queue(k->msgs, &s->loc,
				   "a timeout needs \"flags timeout\" in the declaration of set %s",
				   set->h.set);
stmts:
	list_for_each_entry(i, &s->set.stmts, list)
		if (i->kind != STMT_COUNTER && i->kind != STMT_LIMIT &&
		    i->kind != STMT_QUOTA && i->kind != STMT_CONNLIMIT)
			return error_queue(k->msgs, &i->loc,
					   "only counter, limit, quota and ct count can be kept per element");
	return 0;
}

/*
 * A map element's value goes into the register after the key's, as nft
 * allocates them: 16-byte registers from 1, the key taking as many as
 * its length needs (past the fourth, the 4-byte registers' numbers)
 */
static uint32_t map_data_load(struct kind_lin *k, const struct stmt *s,
			      const struct set *set)
{
	unsigned int n = div_round_up(s->set.key->len, NFT_REG_SIZE * 8);
	uint32_t reg = n < 4 ? reg_of_slot(4 * n) : NFT_REG32_00 + 4 * n;
	const struct expr *d = s->set.data;

	if (d->kind == EXPR_VALUE)
		k->immediate(k, reg, d, set->data->byteorder);
	else if (d->kind == EXPR_CONCAT)
		k->load_key(k, d, reg);
	else
		k->load(k, d, reg);
	return reg;
}

static int dynset_linearize(struct kind_lin *k, const struct stmt *s)
{
	const struct set *set = s->set.set->setref.set;
	uint32_t id = s->set.meter ? k->meter_set(k, s) : set->id;
	struct nftnl_expr *v[16], *e;
	unsigned int n = 0;
	uint32_t dreg = 0;
	int ret;

	k->load_key(k, s->set.key, NFT_REG_1);
	if (s->set.data)
		dreg = map_data_load(k, s, set);
	e = k->add(k, "dynset");
	nftnl_expr_set_u32(e, NFTNL_EXPR_DYNSET_SREG_KEY, NFT_REG_1);
	nftnl_expr_set_u32(e, NFTNL_EXPR_DYNSET_OP, s->set.op);
	xnftnl_expr_set_str(e, NFTNL_EXPR_DYNSET_SET_NAME, s->set.set->setref.name);
	if (id)
		nftnl_expr_set_u32(e, NFTNL_EXPR_DYNSET_SET_ID, id);
	if (dreg)
		nftnl_expr_set_u32(e, NFTNL_EXPR_DYNSET_SREG_DATA, dreg);
	if (s->set.timeout)
		nftnl_expr_set_u64(e, NFTNL_EXPR_DYNSET_TIMEOUT, s->set.timeout);
	/* the per-element statements go inside, not into the rule */
	ret = k->collect(k, &s->set.stmts, v, array_size(v) - 2, &n);
	for (unsigned int i = 0; i < n; i++) {
		if (n == 1)
			nftnl_expr_set(e, NFTNL_EXPR_DYNSET_EXPR, v[i], 0);
		else
			nftnl_expr_add_expr(e, NFTNL_EXPR_DYNSET_EXPRESSIONS, v[i]);
	}
	return ret;
}

static void dynset_delinearize(struct kind_delin *k,
			       const struct nftnl_expr *e)
{
	const char *name = nftnl_expr_get_str(e, NFTNL_EXPR_DYNSET_SET_NAME);
	const struct nftnl_set *nls = k->set(k, name,
					     nftnl_expr_is_set(e, NFTNL_EXPR_DYNSET_SET_ID),
					     nftnl_expr_get_u32(e, NFTNL_EXPR_DYNSET_SET_ID));
	struct expr *l;
	struct stmt *s;

	if (!nls) {
		k->unsupported(k, "dynset");
		return;
	}
	l = k->set_key(k, nftnl_expr_get_u32(e, NFTNL_EXPR_DYNSET_SREG_KEY), nls);
	if (!l) {
		k->unsupported(k, "dynset");
		return;
	}
	s = stmt_alloc(&internal_location, STMT_SET);
	s->set.op = nftnl_expr_get_u32(e, NFTNL_EXPR_DYNSET_OP);
	s->set.key = l;
	/* a rule that fills an anonymous set of its own: a meter */
	if (nftnl_set_get_u32(nls, NFTNL_SET_FLAGS) & NFT_SET_ANONYMOUS) {
		s->set.meter = true;
		if (nftnl_set_is_set(nls, NFTNL_SET_DESC_SIZE))
			s->set.size = nftnl_set_get_u32(nls, NFTNL_SET_DESC_SIZE);
	}
	s->set.set = set_ref_expr_alloc(&internal_location,
					nftnl_set_get_str(nls, NFTNL_SET_NAME));
	if (nftnl_expr_is_set(e, NFTNL_EXPR_DYNSET_TIMEOUT))
		s->set.timeout = nftnl_expr_get_u64(e, NFTNL_EXPR_DYNSET_TIMEOUT);
	if (nftnl_expr_is_set(e, NFTNL_EXPR_DYNSET_SREG_DATA)) {
		s->set.data = k->map_data(k, nftnl_expr_get_u32(e,
					  NFTNL_EXPR_DYNSET_SREG_DATA), nls);
		if (!s->set.data) {
			stmt_free(s);
			k->unsupported(k, "dynset");
			return;
		}
	}
	k->inner(k, e, &s->set.stmts);
	k->add_stmt(k, s);
}

static void dynset_print(struct kind_print *k, const struct stmt *s)
{
	struct output_ctx inner = *k->octx;
	struct kind_print ik = *k;
	const struct stmt *i;
	FILE *f = k->f;

	/* the statements kept per element print as templates */
	inner.flags |= NFH_OUTPUT_STATELESS;
	ik.octx = &inner;
	if (s->set.meter) {
		fputs("meter ", f);
		k->name(k, s->set.set->setref.name);
		fputc(' ', f);
		if (s->set.size)
			fprintf(f, "size %u ", s->set.size);
		fputs("{ ", f);
	} else {
		fprintf(f, "%s ", s->set.op < 3 ? dynset_ops_names[s->set.op] : "add");
		k->setref(k, s->set.set->setref.name);
		fputs(" { ", f);
	}
	k->expr(k, s->set.key);
	if (s->set.timeout) {
		fprintf(f, " timeout ");
		time_print(s->set.timeout, f);
	}
	list_for_each_entry(i, &s->set.stmts, list) {
		fputc(' ', f);
		k->stmt(&ik, i);
	}
	if (s->set.data) {
		fputs(" : ", f);
		k->expr(k, s->set.data);
	}
	fprintf(f, " }");
}

static json_t *dynset_json(struct kind_json *k, const struct stmt *s)
{
	struct output_ctx inner = *k->octx;
	struct kind_json ik = *k;
	const struct stmt *i;
	json_t *o, *elem, *stmts;
	char *ref;

	if (s->set.op > 2)
		return k->unsupported(k, "a set statement");
	elem = k->expr(k, s->set.key);
	if (elem && s->set.timeout)
		elem = kind_json_wrap("elem",
			kind_json_set(kind_json_wrap("val", elem), "timeout",
				      json_integer(s->set.timeout / 1000)));
	/* the statements kept per element are templates: no values */
	inner.flags |= NFH_OUTPUT_STATELESS;
	ik.octx = &inner;
	stmts = json_array();
	list_for_each_entry(i, &s->set.stmts, list) {
		json_t *v = k->stmt(&ik, i);

		if (!v) {
			json_decref(stmts);
			json_decref(elem);
			return NULL;
		}
		json_array_append_new(stmts, v);
	}
	if (s->set.meter) {
		/* as nft: one statement as itself */
		o = kind_json_set(kind_json_wrap("key", elem), "stmt",
				  json_array_size(stmts) == 1 ?
				  json_incref(json_array_get(stmts, 0)) :
				  json_incref(stmts));
		json_decref(stmts);
		if (s->set.size)
			o = kind_json_set(o, "size", json_integer(s->set.size));
		return kind_json_wrap("meter", kind_json_set(o, "name",
					json_string(s->set.set->setref.name)));
	}
	ref = xasprintf("@%s", s->set.set->setref.name);
	o = kind_json_set(kind_json_wrap("op", json_string(dynset_ops_names[s->set.op])),
			  "elem", elem);
	/* nft 1.1's "map": { ..., "data": DATA, "map": "@m" } */
	if (s->set.data)
		o = kind_json_set(o, "data", k->expr(k, s->set.data));
	o = kind_json_set(o, s->set.data ? "map" : "set", k->str(k, ref));
	free(ref);
	if (json_array_size(stmts))
		o = kind_json_set(o, "stmt", json_incref(stmts));
	json_decref(stmts);
	return kind_json_wrap(s->set.data ? "map" : "set", o);
}

/*
 * The element of a set statement or a meter, KEY or { "elem": { "val":
 * KEY, "timeout": S } }, and the statements it keeps (one, or an array;
 * @what names the statement in errors).
 */
static int dynset_body_parse(struct kind_jparse *k, struct stmt *s,
			     const char *what, json_t *elem, json_t *stmts)
{
	static const char *const ekeys[] = { "val", "timeout", NULL };
	json_t *i;
	size_t n;

	if (json_is_object(elem) && json_object_get(elem, "elem")) {
		json_t *e = json_object_get(elem, "elem");

		if (!json_is_object(e) || !json_object_get(e, "val"))
			return k->error(k, e, "%s: expected { \"val\": ... }", what);
		if (k->check_keys(k, e, "set element", ekeys) < 0 ||
		    k->seconds(k, e, "timeout", &s->set.timeout) < 0)
			return -1;
		elem = json_object_get(e, "val");
	}
	s->set.key = k->expr(k, elem);
	if (!s->set.key)
		return -1;
	if (json_is_object(stmts)) {
		struct stmt *x = k->stmt(k, stmts);

		if (!x)
			return -1;
		list_add_tail(&x->list, &s->set.stmts);
		return 0;
	}
	if (stmts && !json_is_array(stmts))
		return k->error(k, stmts, "%s: \"stmt\" must be a statement or an array of them",
				what);
	json_array_foreach(stmts, n, i) {
		struct stmt *x = k->stmt(k, i);

		if (!x)
			return -1;
		list_add_tail(&x->list, &s->set.stmts);
	}
	return 0;
}

/*
 * { "op": "add", "elem": KEY, "set": "@name", "stmt": [ ... ] }, and nft
 * 1.1's map form, { "op": "add", "elem": KEY, "data": DATA, "map": "@m" }
 * (@what: "set" or "map")
 */
static struct stmt *set_parse_json(struct kind_jparse *k, json_t *o,
				   const struct location *loc, const char *what)
{
	static const char *const set_keys[] = { "op", "elem", "set", "stmt", NULL };
	static const char *const map_keys[] = { "op", "elem", "data", "map", "stmt", NULL };
	bool map = !strcmp(what, "map");
	static const unsigned int ops[] = {
		NFT_DYNSET_OP_ADD, NFT_DYNSET_OP_UPDATE, NFT_DYNSET_OP_DELETE,
	};
	const char *op, *set;
	json_t *elem;
	struct stmt *s;
	struct location l;
	unsigned int n;

	if (!json_is_object(o) ||
	    k->check_keys(k, o, what, map ? map_keys : set_keys) < 0)
		return k->error(k, o, "%s: expected an object", what), NULL;
	op = k->get_str(k, o, "op", true);
	set = k->get_str(k, o, what, true);
	elem = json_object_get(o, "elem");
	if (!op || !set)
		return NULL;
	if (!elem || (map && !json_object_get(o, "data")))
		return k->error(k, o, "%s: property \"%s\" is missing", what,
				elem ? "data" : "elem"), NULL;
	for (n = 0; n < array_size(ops) && strcmp(dynset_ops_names[n], op); n++)
		;
	if (n == array_size(ops))
		return k->error(k, json_object_get(o, "op"),
				"unknown set operation \"%s\"; expected add, update or delete", op), NULL;
	if (set[0] != '@')
		return k->error(k, json_object_get(o, what),
				"%s: expected a %s reference \"@name\"", what, what), NULL;
	s = stmt_alloc(loc, STMT_SET);
	s->set.op = ops[n];
	l = k->loc(k, json_object_get(o, what));
	s->set.set = set_ref_expr_alloc(&l, set + 1);
	if (map) {
		s->set.data = k->expr(k, json_object_get(o, "data"));
		if (!s->set.data) {
			stmt_free(s);
			return NULL;
		}
	}
	if (json_is_array(json_object_get(o, "stmt")) || !json_object_get(o, "stmt")) {
		if (dynset_body_parse(k, s, what, elem, json_object_get(o, "stmt")) == 0)
			return s;
	} else {
		k->error(k, json_object_get(o, "stmt"),
			 "%s: \"stmt\" must be an array of statements", what);
	}
	stmt_free(s);
	return NULL;
}

/* { "key": KEY, "stmt": STMT, "size": N, "name": NAME } */
static struct stmt *meter_parse_json(struct kind_jparse *k, json_t *o,
				     const struct location *loc)
{
	static const char *const keys[] = { "key", "stmt", "size", "name", NULL };
	const char *name;
	struct location l;
	struct stmt *s;
	uint64_t size = 0;

	if (!json_is_object(o) || k->check_keys(k, o, "meter", keys) < 0)
		return k->error(k, o, "meter: expected an object"), NULL;
	name = k->get_str(k, o, "name", true);
	if (!name)
		return NULL;
	if (!json_object_get(o, "key") || !json_object_get(o, "stmt"))
		return k->error(k, o, "meter: properties \"key\" and \"stmt\" are needed"), NULL;
	if (json_object_get(o, "size") &&
	    (k->get_u32(k, o, "size", &size) != 1 || size == 0))
		return k->error(k, json_object_get(o, "size"),
				"meter: \"size\" is a number from 1 to %u", UINT32_MAX), NULL;
	s = stmt_alloc(loc, STMT_SET);
	s->set.meter = true;
	s->set.size = size;
	l = k->loc(k, json_object_get(o, "name"));
	s->set.set = set_ref_expr_alloc(&l, name);
	if (dynset_body_parse(k, s, "meter", json_object_get(o, "key"),
			      json_object_get(o, "stmt")) < 0) {
		stmt_free(s);
		return NULL;
	}
	return s;
}

static struct stmt *dynset_parse_json(struct kind_jparse *k, const char *key,
				      json_t *o, const struct location *loc)
{
	if (!strcmp(key, "meter"))
		return meter_parse_json(k, o, loc);
	return set_parse_json(k, o, loc, key);
}

static void dynset_destroy(struct stmt *s)
{
	struct stmt *i, *next;

	expr_free(s->set.set);
	expr_free(s->set.key);
	expr_free(s->set.data);
	list_for_each_entry_safe(i, next, &s->set.stmts, list) {
		list_del(&i->list);
		stmt_free(i);
	}
}

static const char *const dynset_json_names[] = { "meter", "map", NULL };

static const struct stmt_ops dynset_ops = {
	.name		= "set",
	.json_names	= dynset_json_names,
	.nl_name	= "dynset",
	.kind		= STMT_SET,
	.eval		= dynset_eval,
	.linearize	= dynset_linearize,
	.delinearize	= dynset_delinearize,
	.print		= dynset_print,
	.json		= dynset_json,
	.parse_json	= dynset_parse_json,
	.destroy	= dynset_destroy,
	.not_offered	= true,	/* the shell's completion never offered it */
};
STMT_OPS_REGISTER(dynset_ops);
