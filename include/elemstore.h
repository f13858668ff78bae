/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFH_ELEMSTORE_H
#define NFH_ELEMSTORE_H

#include <stdbool.h>
#include <stdint.h>

#include <expr.h>

/*
 * A set's elements, packed: one fixed-size record each, built as the
 * elements are read, so that a million elements cost tens of bytes each
 * and never exist twice.  Netlink messages are built straight from here
 * (elems.c).
 *
 * A record: struct elem_rec, then the key's low end and high end (klen
 * bytes each), then a map's value (dlen bytes).  Plain keys keep their
 * value's big-endian bytes (they sort as numbers); concatenated keys and
 * values are kept as the kernel wants them.
 */
struct elem_loc {
	const struct input_desc	*indesc;
	uint32_t		line_offset;
	uint32_t		line;
	uint16_t		first_col;
	uint16_t		last_col;
};

struct elem_rec {
	struct expr	*extra;		/* the element itself, if it has options
					   or a verdict; NULL otherwise */
	struct elem_loc	loc;
	bool		data_half;	/* a single value in a map of ranges */
};

struct elem_store {
	unsigned int		klen;
	unsigned int		dlen;
	unsigned int		recsz;
	size_t			n;
	size_t			cap;
	uint8_t			*recs;
	bool			concat;
	bool			has_interval;	/* a range or prefix was added */
	bool			has_timeout;	/* an element timeout was added */
	bool			has_stmts;	/* an element's counter, quota,
						   limit or ct count was added */
	struct location		interval_loc;
	struct location		timeout_loc;
	/* the catch-all elements ("*"), without keys, sent after the rest
	   of an interval set, elsewhere where they were given: @before, in
	   the catch-all store, how many keyed elements came before each */
	struct elem_store	*catchall;
	size_t			*before;
};

/* an empty store for keys like @key and values like @data (or NULL) */
struct elem_store *elem_store_new(const struct expr *key,
				  const struct expr *data);
void elem_store_free(struct elem_store *st);
/* packs one evaluated element; takes it over */
void elem_store_add(struct elem_store *st, const struct expr *key,
		    const struct expr *data, struct expr *elem);

static inline struct elem_rec *elem_rec(const struct elem_store *st, size_t i)
{
	return (struct elem_rec *)(st->recs + i * st->recsz);
}

static inline uint8_t *elem_lo(const struct elem_store *st, size_t i)
{
	return st->recs + i * st->recsz + sizeof(struct elem_rec);
}

static inline uint8_t *elem_hi(const struct elem_store *st, size_t i)
{
	return elem_lo(st, i) + st->klen;
}

static inline uint8_t *elem_data(const struct elem_store *st, size_t i)
{
	return elem_hi(st, i) + st->klen;
}

void elem_loc_get(const struct elem_rec *r, struct location *loc);

#endif
