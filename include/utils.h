/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFH_UTILS_H
#define NFH_UTILS_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>

#define EXPORT		__attribute__((visibility("default")))
#define __noreturn	__attribute__((noreturn))
#define __noinline	__attribute__((noinline))
#define __fmt(a, b)	__attribute__((format(printf, a, b)))
#define array_size(a)	(sizeof(a) / sizeof((a)[0]))
#define div_round_up(n, d)	(((n) + (d) - 1) / (d))
#define fallthrough	__attribute__((fallthrough))

#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

/**
 * struct list_head - intrusive doubly linked list, kernel style
 */
struct list_head {
	struct list_head *next, *prev;
};

#define LIST_HEAD_INIT(name) { &(name), &(name) }
#define LIST_HEAD(name) struct list_head name = LIST_HEAD_INIT(name)

static inline void init_list_head(struct list_head *l)
{
	l->next = l->prev = l;
}

static inline void __list_add(struct list_head *n, struct list_head *prev,
			      struct list_head *next)
{
	next->prev = n;
	n->next = next;
	n->prev = prev;
	prev->next = n;
}

static inline void list_add(struct list_head *n, struct list_head *head)
{
	__list_add(n, head, head->next);
}

static inline void list_add_tail(struct list_head *n, struct list_head *head)
{
	__list_add(n, head->prev, head);
}

static inline void list_del(struct list_head *e)
{
	e->next->prev = e->prev;
	e->prev->next = e->next;
	e->next = e->prev = e;
}

static inline bool list_empty(const struct list_head *h)
{
	return h->next == h;
}

static inline void list_splice_tail_init(struct list_head *list,
					 struct list_head *head)
{
	if (list_empty(list))
		return;
	list->next->prev = head->prev;
	head->prev->next = list->next;
	list->prev->next = head;
	head->prev = list->prev;
	init_list_head(list);
}

#define list_entry(ptr, type, member) container_of(ptr, type, member)
#define list_first_entry(h, type, member) list_entry((h)->next, type, member)
#define list_last_entry(h, type, member) list_entry((h)->prev, type, member)
#define list_next_entry(pos, member) \
	list_entry((pos)->member.next, __typeof__(*(pos)), member)
#define list_prev_entry(pos, member) \
	list_entry((pos)->member.prev, __typeof__(*(pos)), member)
#define list_for_each_entry(pos, head, member)				\
	for (pos = list_entry((head)->next, __typeof__(*pos), member);	\
	     &pos->member != (head);					\
	     pos = list_next_entry(pos, member))
#define list_for_each_entry_safe(pos, n, head, member)			\
	for (pos = list_entry((head)->next, __typeof__(*pos), member),	\
	     n = list_next_entry(pos, member);				\
	     &pos->member != (head);					\
	     pos = n, n = list_next_entry(n, member))

void __noreturn memory_allocation_error(void);
void *xmalloc(size_t size);
void *xzalloc(size_t size);
void *xrealloc(void *ptr, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __fmt(1, 2);

/* subtracts one from the big-endian number at @v (@n bytes); true if it
   wrapped below zero */
static inline bool be_dec(uint8_t *v, unsigned int n)
{
	for (unsigned int i = n; i > 0; i--)
		if (v[i - 1]-- != 0)
			return false;
	return true;
}

#endif
