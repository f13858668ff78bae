/* SPDX-License-Identifier: GPL-2.0-or-later */
/* the JSON front end (parser/parser_json.c) */
#ifndef NFH_PARSER_JSON_H
#define NFH_PARSER_JSON_H

#include <stdbool.h>

/* whether @buf holds JSON rather than nft syntax: it starts with '{' */
bool json_looks_like(const char *buf);

/* parser_json.c: JSON commands into the same commands the grammar builds */
int json_parse(struct parser_state *state, const char *name, const char *buf);

#endif
