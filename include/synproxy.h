/* SPDX-License-Identifier: GPL-2.0-or-later */
/* synproxy: its statement and object (src/kinds/synproxy.c) */
#ifndef NFH_SYNPROXY_H
#define NFH_SYNPROXY_H

#include <jansson.h>
#include <kind.h>

struct stmt *synproxy_json_args(struct kind_jparse *k, json_t *o,
				const struct location *loc);

/* a synproxy's values as nft writes them: a statement's mss and wscale
   when given, an object's (@obj) always; "flags" when it has any; and the
   values read back (src/kinds/synproxy.c) */
json_t *synproxy_json_values(uint32_t fl, uint16_t mss, uint8_t wscale,
			     bool obj);

#endif
