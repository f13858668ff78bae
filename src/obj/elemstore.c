// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The packed store of a set's elements (elemstore.h): a set declaration
 * owns one; the evaluator fills it, elems.c turns it into messages.
 */
#include <stdlib.h>
#include <string.h>

#include <datatype.h>
#include <elemstore.h>
#include <set.h>
#include <utils.h>
#include <wire.h>

struct elem_store *elem_store_new(const struct expr *key,
				  const struct expr *data)
{
	struct elem_store *st = xzalloc(sizeof(*st));

	st->concat = key->kind == EXPR_CONCAT;
	st->klen = st->concat ? set_key_bytes(key) : div_round_up(key->len, 8);
	/* verdicts and object names go with the element itself */
	if (data && data->dtype != &verdict_type && data->dtype != &objref_type)
		st->dlen = set_key_bytes(data);
	/* "type K : interval V": low end and high end */
	if (data && (data->flags & EXPR_F_DATA_INTERVAL))
		st->dlen *= 2;
	st->recsz = (sizeof(struct elem_rec) + 2 * st->klen + st->dlen + 7) & ~7u;
	return st;
}

void elem_store_free(struct elem_store *st)
{
	if (!st)
		return;
	for (size_t i = 0; i < st->n; i++)
		expr_free(elem_rec(st, i)->extra);
	elem_store_free(st->catchall);
	free(st->before);
	free(st->recs);
	free(st);
}

/* the store of st's catch-all element: no key, kept apart so that the
   keyed ones sort as before */
static struct elem_store *catchall_store(struct elem_store *st)
{
	if (!st->catchall) {
		st->catchall = xmalloc(sizeof(*st));
		*st->catchall = *st;
		st->catchall->n = st->catchall->cap = 0;
		st->catchall->recs = NULL;
		st->catchall->catchall = NULL;
		st->catchall->before = NULL;
	}
	return st->catchall;
}

/* the bounds of the key k of the set's key type key, in the next record */
static void rec_key_put(struct elem_store *st, const struct expr *key,
			const struct expr *k)
{
	if (k->kind == EXPR_CATCHALL) {
		/* the record's key stays zero */
	} else if (st->concat) {
		uint8_t buf[NFH_VAL_MAXLEN];

		key_wire(key, k, false, buf);
		memcpy(elem_lo(st, st->n), buf, st->klen);
		key_wire(key, k, true, buf);
		memcpy(elem_hi(st, st->n), buf, st->klen);
	} else {
		value_bounds(k, st->klen, elem_lo(st, st->n), elem_hi(st, st->n));
	}
}

/* the value v of the map's value type data, in the next record r */
static void rec_data_put(struct elem_store *st, struct elem_rec *r,
			 const struct expr *data, const struct expr *v)
{
	uint8_t buf[NFH_VAL_MAXLEN];

	key_wire(data, v, false, buf);
	if (data->flags & EXPR_F_DATA_INTERVAL) {
		unsigned int half = st->dlen / 2;

		memcpy(elem_data(st, st->n), buf, half);
		key_wire(data, v, true, buf);
		memcpy(elem_data(st, st->n) + half, buf, half);
		/* as nft: a single value is sent as it is (which
		   the kernel refuses) */
		r->data_half = !elem_is_interval(v);
	} else {
		memcpy(elem_data(st, st->n), buf, st->dlen);
	}
}

/* the element's location, in the record's few bytes */
static void rec_loc_put(struct elem_rec *r, const struct location *loc)
{
	r->loc.indesc = loc->indesc;
	r->loc.line_offset = loc->line_offset;
	r->loc.line = loc->first_line;
	r->loc.first_col = loc->first_col > 0xffff ? 0xffff : loc->first_col;
	r->loc.last_col = loc->first_line != loc->last_line ||
			  loc->last_col > 0xffff ? r->loc.first_col :
			  loc->last_col;
}

void elem_store_add(struct elem_store *st, const struct expr *key,
		    const struct expr *data, struct expr *elem)
{
	const struct expr *k = elem, *v = NULL, *opts = NULL;
	struct elem_store *top = st;
	struct elem_rec *r;

	if (elem_is_catchall(elem))
		st = catchall_store(st);
	if (k->kind == EXPR_MAPPING) {
		v = k->op.right;
		k = k->op.left;
	}
	if (k->kind == EXPR_SET_ELEM) {
		opts = k;
		k = k->elem.key;
	}
	if (st->n == st->cap) {
		st->cap = st->cap ? st->cap * 2 : 64;
		st->recs = xrealloc(st->recs, st->cap * st->recsz);
		if (st != top)
			st->before = xrealloc(st->before,
					      st->cap * sizeof(*st->before));
	}
	if (st != top)
		st->before[st->n] = top->n;
	r = elem_rec(st, st->n);
	memset(r, 0, st->recsz);
	rec_key_put(st, key, k);
	if (v && st->dlen)
		rec_data_put(st, r, data, v);
	if (elem_is_interval(k) && !st->has_interval) {
		st->has_interval = true;
		st->interval_loc = elem->loc;
	}
	if (opts && (opts->elem.timeout || opts->elem.expires) &&
	    !top->has_timeout) {
		top->has_timeout = true;
		top->timeout_loc = elem->loc;
	}
	if (opts && (opts->elem.counter || !list_empty(&opts->elem.stmts)))
		top->has_stmts = true;
	rec_loc_put(r, &elem->loc);
	if (opts || (v && v->kind == EXPR_VERDICT) ||
	    (data && data->dtype == &objref_type))
		r->extra = elem;
	else
		expr_free(elem);
	st->n++;
}

void elem_loc_get(const struct elem_rec *r, struct location *loc)
{
	memset(loc, 0, sizeof(*loc));
	loc->indesc = r->loc.indesc;
	loc->line_offset = r->loc.line_offset;
	loc->first_line = loc->last_line = r->loc.line;
	loc->first_col = r->loc.first_col;
	loc->last_col = r->loc.last_col;
}
