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

/*
 * stream_cmd - the same for a flat "add rule" command, as it is parsed
 * @state:	the parser's state; its command list holds the commands so far
 * @cmd:	the command just reduced, or NULL
 *
 * Returns what the caller is to queue: @cmd unchanged (not an "add rule",
 * or one that must wait), @cmd now standing for a pack of compiled rules,
 * or NULL when the rule went into the pack of the command before it (the
 * same chain's) and @cmd was freed.
 */
struct cmd *stream_cmd(struct parser_state *state, struct cmd *cmd);

/* the parser's sink that does all of it, set elements too */
struct parser_sink;
extern const struct parser_sink stream_sink;

#endif
