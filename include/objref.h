/* SPDX-License-Identifier: GPL-2.0-or-later */
/* a named object a rule refers to (src/kinds/objref.c) */
#ifndef NFH_OBJREF_H
#define NFH_OBJREF_H

#include <jansson.h>
#include <kind.h>

/* a reference to the named object of @type, or a map to names:
   "c1", {"map": {"key": ..., "data": ...}} (src/kinds/objref.c) */
struct stmt *objref_parse_json(struct kind_jparse *k, uint32_t type,
			       json_t *o, const struct location *loc);

#endif
