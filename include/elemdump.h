/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFH_ELEMDUMP_H
#define NFH_ELEMDUMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * A set's elements as the kernel lists them, packed for listing: one
 * fixed-size record each, read straight from the dump messages, so that a
 * million elements cost a dozen bytes each and no libnftnl object or
 * expression exists per element.
 *
 * A record: struct elem_drec, then room for the key, for the closing key
 * (only once an element carried one) and for a map's value.  Bytes are
 * kept as the kernel sent them.  The rarely used parts (timeouts,
 * counters, comments) live in a side table.
 */
struct nftnl_expr;

struct elem_dopts {
	uint64_t	timeout;	/* ms */
	uint64_t	expires;	/* ms */
	uint64_t	packets;
	uint64_t	bytes;
	char		*comment;
	bool		counter;
	uint8_t		counter_at;	/* the counter's place among them */
	uint8_t		nx;
	struct nftnl_expr *x[2];	/* quota, limit, ct count (owned) */
};

enum {
	ELEM_D_END	= 1 << 0,	/* NFT_SET_ELEM_INTERVAL_END */
	ELEM_D_KEY_END	= 1 << 1,	/* carries a closing key */
	ELEM_D_DATA	= 1 << 2,	/* a map's value */
	ELEM_D_VERDICT	= 1 << 3,	/* the value is a verdict */
	ELEM_D_OBJREF	= 1 << 4,	/* the value is an object's name, kept
					   as a verdict's chain is */
};

struct elem_drec {
	uint32_t	opts;		/* 1 + index into the side table; 0: none */
	uint8_t		flags;		/* ELEM_D_* */
	uint8_t		klen;		/* key bytes */
	uint8_t		dlen;		/* value bytes (a verdict: 8) */
	uint8_t		pad;
};

struct elem_dump {
	unsigned int		klen;	/* room for a key */
	unsigned int		dlen;	/* room for a value */
	bool			kend;	/* room for a closing key */
	unsigned int		recsz;
	size_t			n;
	size_t			cap;
	uint8_t			*recs;
	struct elem_dopts	*opts;
	size_t			nopts;
	size_t			capopts;
	char			**chains;	/* verdict targets, each once */
	unsigned int		nchains;
	unsigned int		last_chain;
	/* the catch-all elements (no key), in a dump of their own */
	struct elem_dump	*catchall;
};

struct elem_dump *elem_dump_new(void);
/* a copy of an element's (or a set's) counter, quota, limit or ct count;
   NULL for another expression */
struct nftnl_expr *elem_expr_copy(struct nftnl_expr *e);
void elem_dump_free(struct elem_dump *ed);

struct nlmsghdr;
struct nftnl_set;
/* adds the elements of one NEWSETELEM dump message; -1 if malformed */
int elem_dump_add_msg(struct elem_dump *ed, const struct nlmsghdr *nlh);
/* the elements held by a libnftnl set (offline cache, anonymous sets) */
struct elem_dump *elem_dump_from_nftnl(struct nftnl_set *s);

/*
 * The elements seen so far, to tell whether one comes twice.  A kernel
 * that resizes a hash set while dumping it restarts its walk and sends
 * some elements twice and others never (the dump is not marked
 * interrupted): such a dump is read again.
 */
struct elem_seen;
struct elem_seen *elem_seen_new(void);
void elem_seen_free(struct elem_seen *s);
/* adds the elements of @ed not added yet; true if one was there already */
bool elem_seen_add(struct elem_seen *s, const struct elem_dump *ed);

enum elem_order {
	ELEM_ORDER_BE,		/* keys are big-endian values (or strings) */
	ELEM_ORDER_HOST,	/* keys are values in host byte order */
	ELEM_ORDER_CONCAT,	/* concatenations */
};

/*
 * Sorts by key, as nft lists elements: values by value, with an interval's
 * end before a start at the same value; concatenations as one integer read
 * from the last byte; concatenated intervals (a closing key each) stay in
 * the order the kernel listed them.
 */
void elem_dump_sort(struct elem_dump *ed, enum elem_order order);

static inline struct elem_drec *elem_drec(const struct elem_dump *ed, size_t i)
{
	return (struct elem_drec *)(ed->recs + i * ed->recsz);
}

static inline const uint8_t *elem_dkey(const struct elem_dump *ed, size_t i)
{
	return ed->recs + i * ed->recsz + sizeof(struct elem_drec);
}

static inline const uint8_t *elem_dkey_end(const struct elem_dump *ed,
					   size_t i)
{
	return elem_dkey(ed, i) + ed->klen;
}

static inline const uint8_t *elem_ddata(const struct elem_dump *ed, size_t i)
{
	return elem_dkey(ed, i) + (ed->kend ? 2 : 1) * ed->klen;
}

static inline const struct elem_dopts *elem_dopts(const struct elem_dump *ed,
						  size_t i)
{
	uint32_t o = elem_drec(ed, i)->opts;

	return o ? &ed->opts[o - 1] : NULL;
}

/* a verdict element's code and target chain (NULL: none) */
void elem_dverdict(const struct elem_dump *ed, size_t i, int *code,
		   const char **chain);

#endif
