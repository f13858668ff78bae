/* SPDX-License-Identifier: GPL-2.0-or-later */
/* the kernel support an expression, a chain type or a set needs (src/nl/kfeature.c) */
#ifndef NFH_KFEATURE_H
#define NFH_KFEATURE_H

#include <stdint.h>

/**
 * struct kfeature - the kernel support an nf_tables expression needs
 * @expr:	the kernel's name of the expression ("queue")
 * @family:	NFPROTO_* it is for, 0 for any
 * @what:	what a user calls it, for "this kernel has no @what support"
 * @config:	its kernel option, @module the module (src/nl/kfeature.c)
 * @or_else:	what else the kernel's ENOENT may mean, or NULL
 */
struct kfeature {
	const char	*expr;
	unsigned int	family;
	const char	*what;
	const char	*config;
	const char	*module;
	const char	*or_else;
};

/* the kernel support chain type @type ("nat") needs in @family; NULL if
 * none is known, with *@elsewhere true if it is another family's type */
const struct kfeature *kfeature_of_chain_type(const char *type,
					      unsigned int family,
					      bool *elsewhere);

/* NULL: a built-in expression, or one nfh knows no option for */
const struct kfeature *kfeature_of_expr(const char *name, unsigned int family);

/* why the kernel refuses a new set of NFT_SET_* @flags and @fields
 * concatenated fields with EOPNOTSUPP (no set type holds it, or flags it
 * takes only apart), or NULL if nfh cannot tell */
const char *kfeature_set_refusal(uint32_t flags, unsigned int fields);

#endif
