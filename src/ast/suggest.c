// SPDX-License-Identifier: GPL-2.0-or-later
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include <suggest.h>

/* longer words are names nobody misspells by one letter: not compared */
#define WORD_MAX	64

static unsigned int min3(unsigned int a, unsigned int b, unsigned int c)
{
	unsigned int m = a < b ? a : b;

	return m < c ? m : c;
}

unsigned int suggest_distance(const char *a, const char *b)
{
	/* three rows of the matrix: i - 2, i - 1 and i */
	unsigned int rows[3][WORD_MAX + 1];
	size_t n = strlen(a), m = strlen(b);

	if (n > WORD_MAX || m > WORD_MAX)
		return UINT_MAX;
	for (size_t j = 0; j <= m; j++)
		rows[0][j] = j;
	for (size_t i = 1; i <= n; i++) {
		unsigned int *cur = rows[i % 3], *prev = rows[(i - 1) % 3];
		const unsigned int *prev2 = rows[(i - 2 + 3) % 3];

		cur[0] = i;
		for (size_t j = 1; j <= m; j++) {
			unsigned int cost = a[i - 1] != b[j - 1];

			cur[j] = min3(prev[j] + 1, cur[j - 1] + 1,
				      prev[j - 1] + cost);
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && prev2[j - 2] + 1 < cur[j])
				cur[j] = prev2[j - 2] + 1;
		}
	}
	return rows[n % 3][m];
}

void suggest_init(struct suggest *s, const char *word)
{
	s->word = word;
	s->best = NULL;
	s->dist = UINT_MAX;
	s->hint[0] = '\0';
}

void suggest_add(struct suggest *s, const char *candidate)
{
	size_t longer;
	unsigned int d;

	if (!s->word || !candidate || !strcmp(s->word, candidate))
		return;
	d = suggest_distance(s->word, candidate);
	longer = strlen(s->word) > strlen(candidate) ? strlen(s->word) :
						       strlen(candidate);
	if (d == UINT_MAX || d * 3 > longer || d >= s->dist)
		return;
	s->best = candidate;
	s->dist = d;
}

const char *suggest_hint(struct suggest *s)
{
	if (s->best)
		snprintf(s->hint, sizeof(s->hint), "; did you mean \"%s\"?",
			 s->best);
	else
		s->hint[0] = '\0';
	return s->hint;
}
