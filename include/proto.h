/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFH_PROTO_H
#define NFH_PROTO_H

#include <expr.h>

/**
 * struct proto_field - one field of a header
 * @offset, @len: position in bits from the start of the header
 */
struct proto_field {
	const char		*name;
	const struct datatype	*dtype;
	unsigned int		offset;
	unsigned int		len;
	enum byteorder		byteorder;
	/* nft 1.1's: read, but listed as its raw bits, as 1.0.6 lists it */
	bool			listed_raw;
	/* a single value of it listed as a number, whatever its type (nft
	   1.1.1's geneve type; a set of them it lists by name) */
	bool			listed_int;
};

#define PROTO_FIELDS_MAX	24

/**
 * struct proto_desc - a protocol header, described as data
 * @base:	the header base it is loaded from
 * @id:		value of the next-protocol selector that announces it
 *		(ethertype for network headers, IPPROTO_* for transport
 *		headers, ARPHRD_* for link layers)
 * @length:	header length in bits, where fixed (vlan tags stack on it)
 * @nft11:	nft 1.1 knows it and nft 1.0.6 does not (gre): a protocol
 *		value of it tells evaluation nothing, as nft 1.0.6 takes it,
 *		where listings name it (struct proto_ctx's nft11)
 */
struct proto_desc {
	const char		*name;
	enum proto_base		base;
	unsigned int		id;
	unsigned int		length;
	bool			nft11;
	struct proto_field	fields[PROTO_FIELDS_MAX];
};

extern const struct proto_desc proto_eth, proto_vlan, proto_arp, proto_ip,
	proto_ip6, proto_icmp, proto_icmp6, proto_igmp, proto_tcp, proto_udp,
	proto_udplite, proto_sctp, proto_dccp, proto_ah, proto_esp, proto_comp,
	proto_th, proto_unknown, proto_gre, proto_vxlan, proto_geneve,
	proto_gretap;

const struct proto_desc *proto_lookup(const char *name);
/* the headers in table order; NULL past the last */
const struct proto_desc *proto_nth(unsigned int i);
const struct proto_field *proto_field_lookup(const struct proto_desc *d,
					     const char *name);
/* finds the header of @base announced by @id (ethertype, l4proto) */
const struct proto_desc *proto_by_id(enum proto_base base, unsigned int id);
const char *proto_base_name(enum proto_base base);
const char *proto_base_token(enum proto_base base);

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

const struct exthdr_desc *exthdr_lookup(unsigned int op, const char *name);
/* the first header of @op with @type: the name a listing shows */
const struct exthdr_desc *exthdr_by_type(unsigned int op, unsigned int type);
const struct proto_field *exthdr_field_lookup(const struct exthdr_desc *d,
					      const char *name);
/* the field @len bits long at bit @offset of a header of @op and @type */
const struct proto_field *exthdr_field_at(unsigned int op, unsigned int type,
					  unsigned int offset, unsigned int len,
					  const struct exthdr_desc **desc);
const char *exthdr_op_name(unsigned int op);
/* @f NULL: a presence test ("exists", "missing") */
struct expr *exthdr_expr_alloc(const struct location *loc,
			       const struct exthdr_desc *d,
			       const struct proto_field *f);
struct expr *exthdr_raw_alloc(unsigned int op, unsigned int type,
			      unsigned int offset, unsigned int len,
			      unsigned int flags);
struct expr *exthdr_expr_parse(const struct location *loc, unsigned int op,
			       const char *name, const struct location *nloc,
			       const char *field, const struct location *floc,
			       struct list_head *msgs);
/* "tcp option 254 exists", "dccp option 4 missing": an option nft has no
   name for, by its kind (@op: NFT_EXTHDR_OP_TCPOPT or _DCCP) */
struct expr *exthdr_present_alloc(const struct location *loc, unsigned int op,
				  unsigned int kind);
/* "tcp option @KIND,OFFSET,LENGTH" (bits); @kind is the word after "@" */
struct expr *tcpopt_raw_parse(const struct location *loc, const char *kind,
			      const struct location *kloc, uint64_t offset,
			      uint64_t len, struct list_head *msgs);

/* meta keys */
struct meta_template {
	const char		*name;
	const struct datatype	*dtype;
	unsigned int		len;
	enum byteorder		byteorder;
	bool			bare;	/* usable without the "meta" keyword */
};

const struct meta_template *meta_template(unsigned int key);
int meta_key_lookup(const char *name, bool bare);
unsigned int meta_key_max(void);

/* ct keys */
struct ct_template {
	const char		*name;
	const struct datatype	*dtype;
	unsigned int		len;
	enum byteorder		byteorder;
	bool			dir;	/* original/reply allowed */
	bool			dir_only; /* needs a direction */
};

const struct ct_template *ct_template(unsigned int key);
void ct_expr_family(struct expr *e, unsigned int family);
int ct_key_lookup(const char *name);

/* ct timeout objects: the states of layer 4 protocol @l4proto (tcp, udp) */
#define CT_TIMEOUT_STATES_MAX	11
unsigned int ct_timeout_nstates(uint8_t l4proto);
const char *ct_timeout_state_name(uint8_t l4proto, unsigned int i);
int ct_timeout_state_lookup(uint8_t l4proto, const char *name);
uint32_t ct_timeout_default(uint8_t l4proto, unsigned int i);
unsigned int ct_key_max(void);

/* grammar helpers: build a selector from its words, or queue an error */
struct expr *payload_expr_parse(const struct location *loc, const char *proto,
				const struct location *ploc, const char *field,
				const struct location *floc,
				struct list_head *msgs);
struct expr *payload_expr_alloc(const struct location *loc,
				const struct proto_desc *desc,
				const struct proto_field *tmpl);
/*
 * How a write to a header field keeps checksums right: the checksum's
 * type (NFT_PAYLOAD_CSUM_*) and byte offset in the header, and whether
 * the field is part of the transport pseudo-header (addresses).
 */
void payload_csum(const struct expr *p, uint32_t *type, uint32_t *off,
		  uint32_t *flags);
/*
 * The icmp or icmpv6 types whose messages carry field @f (echo id and
 * sequence, mtu, gateway ...), the one nft tests for it first; NULL and
 * *n = 0 for a field every message has.
 */
const uint8_t *proto_icmp_types(const struct proto_desc *d,
				const struct proto_field *f, unsigned int *n);
/* whether @f exists in icmp(v6) messages of @type (-1: not known) */
bool proto_icmp_fits(const struct proto_desc *d, const struct proto_field *f,
		     int type);
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
struct expr *meta_expr_parse(const struct location *loc, const char *key,
			     const struct location *kloc, bool bare,
			     struct list_head *msgs);
struct expr *meta_expr_alloc(const struct location *loc, unsigned int key);
struct expr *ct_expr_parse(const struct location *loc, const char *key,
			   const struct location *kloc, const char *dir,
			   const struct location *dloc, struct list_head *msgs);
struct expr *ct_expr_alloc(const struct location *loc, unsigned int key,
			   int dir);
/* the statement that sets the ct key of @c (which stays the caller's) to
   @val */
struct stmt *ct_stmt_alloc(const struct location *loc, const struct expr *c,
			   struct expr *val);

/* fib: NFTA_FIB_F_* lookup flags and an NFT_FIB_RESULT_* */
int fib_flag_lookup(const char *name);
struct expr *fib_expr_parse(const struct location *loc, unsigned int flags,
			    const char *result, const struct location *rloc,
			    struct list_head *msgs);
/* "fib ... oif exists": only whether there is a route */
void fib_expr_present(struct expr *e);

/* numgen (NFT_NG_*) and jhash/symhash (NFT_HASH_*) */
struct expr *numgen_expr_parse(const struct location *loc, const char *type,
			       const struct location *tloc, uint64_t mod,
			       uint64_t offset, struct list_head *msgs);
/* checks the numbers of "jhash KEY mod M seed S offset O" */
struct expr *hash_expr_parse(const struct location *loc, unsigned int type,
			     struct expr *key, uint64_t mod, int64_t seed,
			     uint64_t offset, struct list_head *msgs);

struct suggest;
/* "; did you mean ...?" for @word among meta keys, ct keys, headers, the
   fields of header @d, extension headers of @op and the fields of one
   (suggest.h); "" when nothing is close */
const char *suggest_meta_key(struct suggest *s, const char *word);
const char *suggest_ct_key(struct suggest *s, const char *word);
const char *suggest_proto(struct suggest *s, const char *word);
const char *suggest_proto_field(struct suggest *s, const struct proto_desc *d,
				const char *word);
const char *suggest_exthdr(struct suggest *s, unsigned int op,
			   const char *word);
const char *suggest_exthdr_field(struct suggest *s,
				 const struct exthdr_desc *d, const char *word);

#endif
