/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFH_ELEMS_H
#define NFH_ELEMS_H

#include <expr.h>

/*
 * A set's elements, packed: one fixed-size record each, built as the
 * elements are read, so that a million elements cost tens of bytes each
 * and never exist twice.  Netlink messages are built straight from here.
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
	struct location		interval_loc;
	struct location		timeout_loc;
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

struct nl_batch;
struct nftnl_set;

struct set_spans;

struct elem_emit {
	struct nl_batch		*batch;
	struct list_head	*msgs;
	uint16_t		msg_type;
	uint16_t		flags;
	unsigned int		family;
	const char		*table;
	const char		*set;
	uint32_t		set_id;		/* 0: none */
	const struct location	*loc;
	const struct expr	*key;
	const struct expr	*data;
	bool			interval;	/* plain intervals: start/end pairs */
	bool			concat_interval; /* a key end with each */
	bool			automerge;
	bool			anonymous;	/* no end where the next starts */
	unsigned int		shift;		/* the values sit that many bits
						   up (ip dscp { ... }): the
						   next value is 1 << shift on */
	unsigned int		count;		/* elements sent */
	unsigned int		size;		/* what nft declares as the size:
						   two for each interval */
	struct set_spans	*have;		/* add element: what the set
						   holds (NULL: unknown) */
};

/* sorts and checks intervals, then adds the messages to the batch */
int elem_emit(struct elem_emit *em, struct elem_store *st);

#endif
