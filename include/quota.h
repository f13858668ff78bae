/* SPDX-License-Identifier: GPL-2.0-or-later */
/* quota: its statement and object, and byte amounts (src/kinds/quota.c) */
#ifndef NFH_QUOTA_H
#define NFH_QUOTA_H

#include <stdio.h>
#include <jansson.h>
#include <kind.h>

/* @key in the unit @ukey (bytes if absent): 1 found, 0 absent, -1 bad */
int bytes_json_parse(struct kind_jparse *k, json_t *o, const char *key,
		     const char *ukey, uint64_t *res);

/* the unit nft's JSON writes @b in, and @b in it (src/kinds/quota.c) */
const char *bytes_json_unit(uint64_t *b);

/* "64 kbytes": the largest unit that divides evenly */
void bytes_text_print(FILE *f, uint64_t b);

/* quota [over] N UNIT [used N UNIT] (src/kinds/quota.c); a quota object's
   listing shares its text */
void quota_args_print(const struct stmt *s, const struct output_ctx *o,
		      FILE *f);

#endif
