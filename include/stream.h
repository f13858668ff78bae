/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFH_STREAM_H
#define NFH_STREAM_H

#include <rule.h>

struct parser_state;

/*
 * stream_rule - compile a rule of a chain block as soon as it is parsed
 * @state:	the parser's state (which table and chain block we are in)
 * @c:		the chain block
 * @r:		the rule just reduced
 *
 * When the rule depends on nothing later in the input, it is evaluated and
 * linearized at once, its messages are kept as raw bytes in a pack at the
 * end of @c's rules and @r is freed: true.  False leaves @r to the caller,
 * for the usual evaluation of the whole file.
 */
bool stream_rule(struct parser_state *state, struct chain *c, struct rule *r);

#endif
