/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ipv6 extension headers, tcp and dccp options, sctp chunks (src/kinds/exthdr.c) */
#ifndef NFH_EXTHDR_H
#define NFH_EXTHDR_H

#include <proto.h>

#define EXTHDR_FIELDS_MAX	12

/**
 * struct exthdr_desc - an ipv6 extension header, tcp option or sctp chunk
 * @type:	next-header value, option kind or chunk type
 * @op:		NFT_EXTHDR_OP_IPV6, _TCPOPT or _SCTP
 */
struct exthdr_desc {
	const char		*name;
	unsigned int		type;
	unsigned int		op;
	struct proto_field	fields[EXTHDR_FIELDS_MAX];
};

/* the first header of @op with @type: the name a listing shows */
const struct exthdr_desc *exthdr_by_type(unsigned int op, unsigned int type);

/* @f NULL: a presence test ("exists", "missing") */
struct expr *exthdr_expr_alloc(const struct location *loc,
			       const struct exthdr_desc *d,
			       const struct proto_field *f);
struct expr *exthdr_expr_parse(const struct location *loc, unsigned int op,
			       const char *name, const struct location *nloc,
			       const char *field, const struct location *floc,
			       struct list_head *msgs);

/* the field @len bits long at bit @offset of a header of @op and @type */
const struct proto_field *exthdr_field_at(unsigned int op, unsigned int type,
					  unsigned int offset, unsigned int len,
					  const struct exthdr_desc **desc);
const struct proto_field *exthdr_field_lookup(const struct exthdr_desc *d,
					      const char *name);
const struct exthdr_desc *exthdr_lookup(unsigned int op, const char *name);
const char *exthdr_op_name(unsigned int op);

/* "tcp option 254 exists", "dccp option 4 missing": an option nft has no
   name for, by its kind (@op: NFT_EXTHDR_OP_TCPOPT or _DCCP) */
struct expr *exthdr_present_alloc(const struct location *loc, unsigned int op,
				  unsigned int kind);
struct expr *exthdr_raw_alloc(unsigned int op, unsigned int type,
			      unsigned int offset, unsigned int len,
			      unsigned int flags);
const char *suggest_exthdr(struct suggest *s, unsigned int op,
			   const char *word);
const char *suggest_exthdr_field(struct suggest *s,
				 const struct exthdr_desc *d, const char *word);

/* "tcp option @KIND,OFFSET,LENGTH" (bits); @kind is the word after "@" */
struct expr *tcpopt_raw_parse(const struct location *loc, const char *kind,
			      const struct location *kloc, uint64_t offset,
			      uint64_t len, struct list_head *msgs);

#endif
