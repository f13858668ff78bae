/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFH_NAMES_H
#define NFH_NAMES_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* "counter", "quota", "limit", "ct helper"; NULL if not one of ours */
const char *obj_type_name(uint32_t type);

const char *family_name(unsigned int family);
int family_lookup(const char *name);
const char *hook_name(unsigned int family, unsigned int hooknum);
int hook_lookup(unsigned int family, const char *name);
const char *verdict_name(int verdict);
bool chain_type_valid(unsigned int family, const char *type);
/* a device name that ends in '*': a prefix (Linux 6.17+) */
bool dev_is_prefix(const char *name);
/* named priorities such as "filter" or "dstnat"; -1 if unknown here */
int prio_lookup(unsigned int family, unsigned int hooknum, const char *name,
		int *prio);
/* prints a base chain priority the way nft does: "filter - 10", "100" */
void prio_print(FILE *f, unsigned int family, unsigned int hooknum, int prio,
		bool numeric);

struct suggest;
/* "; did you mean ...?" for @word among the families, and among the hooks
   of @family (suggest.h) */
const char *suggest_family(struct suggest *s, const char *word);
const char *suggest_hook(struct suggest *s, unsigned int family,
			 const char *word);
/* ... among the chain types of @family, and the named priorities of
   @family's hook @hooknum */
const char *suggest_chain_type(struct suggest *s, unsigned int family,
			       const char *word);
const char *suggest_prio(struct suggest *s, unsigned int family,
			 unsigned int hooknum, const char *word);

/* the table of object type @type (NFT_OBJECT_*), or NULL (names.c) */
const struct obj_ops *obj_ops_by_type(uint32_t type);

/* the @i-th table, or NULL after the last */
const struct obj_ops *obj_ops_nth(unsigned int i);

#endif
