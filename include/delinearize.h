/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFH_DELINEARIZE_H
#define NFH_DELINEARIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cache_set;
struct cache_table;
struct expr;
struct nftnl_rule;
struct rule;
struct set;

/* kernel expressions back into statements */
struct rule *delin_rule(struct cache_table *t, struct nftnl_rule *nlr);
/* monitor events: elements in the order they came, not sorted */
void delin_keep_order(bool keep);
/* a kernel set as a declaration; its elements too if @elems */
struct set *delin_set(struct cache_table *t, struct cache_set *cs, bool elems);
/* a set's elements one at a time, sorted and typed as delin_set types them,
 * each a new expression for the caller to free; NULL after the last */
struct set_elem_iter;
struct set_elem_iter *set_elem_iter_new(struct cache_set *cs,
					const struct set *s);
struct expr *set_elem_iter_next(struct set_elem_iter *it);
void set_elem_iter_free(struct set_elem_iter *it);
/*
 * get element: from now on @cs lists only the elements that hold one of
 * the values, ranges or prefixes of @want (an evaluated set of elements);
 * found[i] says whether one holds the i-th.  A concatenation is held when
 * each of its fields is.
 */
void set_elems_pick(struct cache_set *cs, const struct set *s,
		    const struct expr *want, bool *found);
/*
 * The records of @cs's dumped elements (cs->elems) that make up the
 * picked elements (an interval: its start and its end), in a malloc'd
 * array; their number.
 */
size_t set_elems_picked(struct cache_set *cs, const struct set *s,
			uint32_t **recs);

/* the comment in a table's or chain's user data, or NULL; free it */
char *udata_get_comment(const void *ud, uint32_t len);

/*
 * The intervals a set holds already, in ascending order:
 * add element checks new intervals against them, or with auto-merge joins
 * them.  Plain (not concatenated) interval sets only.
 */
struct set_spans;
struct set_spans *set_spans_new(struct cache_set *cs, const struct set *s);
void set_spans_free(struct set_spans *sp);
size_t set_spans_count(const struct set_spans *sp);
/* the inclusive bounds of the @i-th, as the kernel keeps keys */
void set_spans_bounds(const struct set_spans *sp, size_t i, uint8_t *lo,
		      uint8_t *hi);
/* the index of the first that ends at or above @lo */
size_t set_spans_from(const struct set_spans *sp, const uint8_t *lo);
/* the kernel elements that make up the @i-th (its start, and its end if it
 * has one): their keys and flags; how many */
unsigned int set_spans_recs(const struct set_spans *sp, size_t i,
			    const uint8_t **keys, uint32_t *flags);

#endif
