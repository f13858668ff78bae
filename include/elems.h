/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFH_ELEMS_H
#define NFH_ELEMS_H

#include <elemstore.h>
#include <expr.h>


struct nl_batch;
struct nftnl_expr;
struct nftnl_set;
struct stmt;

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
	bool			given;		/* elements were written, if
						   none (an empty variable):
						   nft sends a message even so */
	/* an element's own statement as kernel expressions (at most
	   @max into @out): their number, or -1 with an error queued */
	int	(*stmt_exprs)(void *priv, const struct stmt *s,
			      struct nftnl_expr **out, unsigned int max);
	void			*stmt_priv;
};

/* sorts and checks intervals, then adds the messages to the batch */
int elem_emit(struct elem_emit *em, struct elem_store *st);

#endif
