/* SPDX-License-Identifier: GPL-2.0-or-later */
/* header fields: "tcp dport", "@th,16,16" (src/kinds/payload.c) */
#ifndef NFH_PAYLOAD_H
#define NFH_PAYLOAD_H

#include <proto.h>

/* the grammar's helper: the field @field of the header @proto, or NULL
   with an error (and a suggestion) queued at @ploc or @floc */
struct expr *payload_expr_parse(const struct location *loc, const char *proto,
				const struct location *ploc, const char *field,
				const struct location *floc,
				struct list_head *msgs);
struct expr *payload_expr_alloc(const struct location *loc,
				const struct proto_desc *desc,
				const struct proto_field *tmpl);

/* "@nh,OFFSET,LEN": the base a raw field's word names ("ll", "nh", "th",
   "ih"), PROTO_BASE_INVALID if none */
enum proto_base payload_raw_base(const char *word);
#define PAYLOAD_RAW_BASES "ll, nh, th or ih"
struct expr *payload_raw_alloc(const struct location *loc,
			       enum proto_base base, unsigned int offset,
			       unsigned int len);
/*
 * Whether @offset and @len (bits) make a raw payload nfh can load: 1 to
 * NFH_VAL_MAXLEN bytes, an offset below 0xffff bytes, and at most 8 bytes
 * when it is not byte-aligned (its bits are masked as a 64-bit value).
 */
bool payload_raw_valid(uint64_t offset, uint64_t len);
#define PAYLOAD_RAW_LIMITS "raw payload length must be 1 to 512 bits " \
	"(at most 8 bytes when not byte-aligned) and the offset below 524280"

#endif
