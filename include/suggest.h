/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFH_SUGGEST_H
#define NFH_SUGGEST_H

#include <stdbool.h>

/**
 * struct suggest - the valid word closest to a misspelt one
 * @word:	what was written
 * @best:	the closest candidate so far (NULL: none close enough)
 * @dist:	its edit distance from @word
 * @hint:	"; did you mean ..." as suggest_hint() writes it
 *
 * For "did you mean" in error messages: suggest_init(), suggest_add()
 * for each word valid at that point, then suggest_hint() as the last %s
 * of the message.  The distance is Damerau-Levenshtein (optimal string
 * alignment: a swap of two neighbours is one edit, as in "accpet"), and
 * a candidate is close enough when at most a third of the longer word
 * is edited, so short words need to be nearly right.
 */
struct suggest {
	const char	*word;
	const char	*best;
	unsigned int	dist;
	char		hint[320];
};

void suggest_init(struct suggest *s, const char *word);
void suggest_add(struct suggest *s, const char *candidate);
/* "; did you mean "best"?" or "" when nothing was close */
const char *suggest_hint(struct suggest *s);
/* the edit distance of @a and @b, or UINT_MAX when either is too long */
unsigned int suggest_distance(const char *a, const char *b);

#endif
