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

/*
 * Reading back (the delinearizer's postprocess): the header a raw load
 * of @p reads once the rule's matches announced @pctx's protocols (NULL:
 * none known); _th names a transport field through "th" when no protocol
 * is known.  The field of @d whose bits are exactly [@off, @off+@len); of
 * icmp fields that share their bits (id, gateway, mtu ...), the one the
 * type the rule tested carries, and none while it is not known (a reload
 * would add the test of its type).  _from: a prefix field that starts at
 * @off and is longer than @len; _over: the same for a field of any type
 * that starts on a byte (nft lists the first byte of "arp htype" as its
 * prefix, 59392/8).
 */
struct proto_ctx;
const struct proto_desc *payload_desc(const struct proto_ctx *pctx,
				      const struct expr *p);
const struct proto_desc *payload_desc_th(const struct proto_ctx *pctx,
					 const struct expr *p);
unsigned int payload_stack_off(const struct proto_ctx *pctx,
			       const struct proto_desc *d);
const struct proto_field *payload_field_at(const struct proto_ctx *pctx,
					   const struct proto_desc *d,
					   unsigned int off, unsigned int len);
const struct proto_field *payload_field_from(const struct proto_desc *d,
					     unsigned int off, unsigned int len);
const struct proto_field *payload_field_over(const struct proto_ctx *pctx,
					     const struct proto_desc *d,
					     unsigned int off, unsigned int len);

#endif
