/* SPDX-License-Identifier: GPL-2.0-or-later */
/* meta keys (src/kinds/meta.c) */
#ifndef NFH_META_H
#define NFH_META_H

#include <proto.h>
#include <stmt.h>

/* meta keys */
struct meta_template {
	const char		*name;
	const struct datatype	*dtype;
	unsigned int		len;
	enum byteorder		byteorder;
	bool			bare;	/* usable without the "meta" keyword */
};
struct expr *meta_expr_alloc(const struct location *loc, unsigned int key);
struct expr *meta_expr_parse(const struct location *loc, const char *key,
			     const struct location *kloc, bool bare,
			     struct list_head *msgs);
int meta_key_lookup(const char *name, bool bare);
unsigned int meta_key_max(void);
const struct meta_template *meta_template(unsigned int key);

/* "; did you mean ...?" for @word among meta keys, ct keys, headers, the
   fields of header @d, extension headers of @op and the fields of one
   (suggest.h); "" when nothing is close */
const char *suggest_meta_key(struct suggest *s, const char *word);
struct stmt *stmt_meta_set(const struct location *loc, const char *key,
			   const struct location *kloc, struct expr *val,
			   struct list_head *msgs);

#endif
