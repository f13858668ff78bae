/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFH_CASCADE_H
#define NFH_CASCADE_H

#include <stdbool.h>

struct cmd;
struct list_head;

/*
 * What the commands that failed would have made (tables, chains, sets,
 * objects, flowtables, by name), so that the commands naming it can be
 * told apart: the errors the model or the kernel would give them (a rule
 * in a chain that is not there, a lookup of a set that is not there) are
 * the first error's cascade.  See lin_cmds().
 */
struct cascade;

struct cascade *cascade_new(void);
void cascade_free(struct cascade *c);
/* @cmd failed: what it would have made is missing */
void cascade_note(struct cascade *c, const struct cmd *cmd);
/* what a syntax error skipped may have declared in @table, of any
   family (NULL: in every table) */
void cascade_note_table(struct cascade *c, const char *table);
/* whether anything failed */
bool cascade_any(const struct cascade *c);
/* whether @cmd's own names (its table, a rule's chain, an element
   command's set) are of something missing */
bool cascade_cmd(const struct cascade *c, const struct cmd *cmd);
/* whether the batch message @it names something missing (a jump to it,
   a lookup of it, an object of it, its table) */
struct nl_item;
bool cascade_item(const struct cascade *c, const struct nl_item *it);

#endif
