/* SPDX-License-Identifier: GPL-2.0-or-later */
/* chain bindings: jump { ... } (src/kinds/binding.c) */
#ifndef NFH_BINDING_H
#define NFH_BINDING_H

#include <stmt.h>

/* "jump { RULES }" (@verdict NFT_JUMP) or goto: a chain bound to the rule,
   of batch id @id (0 when read back), its @rules (struct rule) taken
   (src/kinds/binding.c) */
struct stmt *binding_stmt_alloc(const struct location *loc, int verdict,
				uint32_t id, struct list_head *rules);

#endif
