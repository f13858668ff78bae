/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFH_OFFLINE_ELEMS_H
#define NFH_OFFLINE_ELEMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct nftnl_set;
struct nftnl_set_elem;

/*
 * struct elems_memo - one set's elements sorted, kept from one NEWSETELEM
 * message of a batch to the next (a big set comes in many), so that each
 * is checked in about the time of its own elements, not the set's.
 */
struct elems_memo;

struct elems_memo *elems_memo_new(void);
void elems_memo_free(struct elems_memo *m);
/* forget the set: anything but adding elements may have changed it */
void elems_memo_reset(struct elems_memo *m);

/**
 * offline_elems_check - what the kernel answers to new elements of a set
 * @m: the memo (rebuilt if it holds another set)
 * @held: the set as it is (its elements, flags and field layout)
 * @add: the elements a NEWSETELEM message adds
 * @nlflags: the message's flags (NLM_F_EXCL: create element)
 * @held_again: out, one flag an element of @add, in their order: set for
 *	those @held has already with the same data (they add nothing)
 *
 * The kernel refuses with EEXIST a key it holds with other data, or with
 * NLM_F_EXCL, and an interval that overlaps one it holds without being
 * the same (rbtree), or a range whose first or last point is in one it
 * holds (pipapo).
 *
 * Return: 0, or the errno the kernel would answer.
 */
int offline_elems_check(struct elems_memo *m, struct nftnl_set *held,
			struct nftnl_set *add, uint16_t nlflags,
			bool *held_again);

/* the @n elements @added were put in @held (after a check of it) */
void offline_elems_added(struct elems_memo *m, struct nftnl_set *held,
			 struct nftnl_set_elem **added, size_t n);

#endif
