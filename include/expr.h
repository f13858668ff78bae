/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFH_EXPR_H
#define NFH_EXPR_H

#include <utils.h>
#include <erec.h>
#include <datatype.h>

/* largest constant: a concatenation filling all sixteen 32-bit registers */
#define NFH_VAL_MAXLEN	64

enum expr_kind {
	EXPR_INVALID,
	EXPR_SYMBOL,		/* text waiting for a datatype: 22, ssh, 10.0.0.1 */
	EXPR_VARIABLE,		/* $name */
	EXPR_VALUE,		/* typed constant */
	EXPR_PAYLOAD,		/* header field */
	EXPR_EXTHDR,		/* ipv6 extension header or tcp option field */
	EXPR_META,
	EXPR_CT,
	EXPR_FIB,
	EXPR_HASH,
	EXPR_SELECTOR,		/* a kind known by its ops alone (osf, ...) */
	EXPR_BINOP,		/* &, |, ^, <<, >> */
	EXPR_RELATIONAL,	/* lhs op rhs */
	EXPR_PREFIX,
	EXPR_RANGE,
	EXPR_LIST,		/* a,b,c: bitmask flags */
	EXPR_SET,		/* anonymous set { ... } */
	EXPR_SET_REF,		/* @name */
	EXPR_CONCAT,
	EXPR_VERDICT,
	EXPR_MAPPING,		/* key : value, in a map's elements */
	EXPR_MAP,		/* selector map { ... } or map @name */
	EXPR_SET_ELEM,		/* an element with options (timeout, ...) */
	EXPR_CATCHALL,		/* "*", the element any key finds (catchall.c) */
	__EXPR_KIND_MAX
};

enum ops {
	OP_INVALID,
	OP_IMPLICIT,
	OP_EQ,
	OP_NEQ,
	OP_LT,
	OP_GT,
	OP_LTE,
	OP_GTE,
	OP_AND,
	OP_OR,
	OP_XOR,
	OP_LSHIFT,
	OP_RSHIFT,
	OP_NEG,
	OP_MASK,		/* VALUE / MASK: (x & MASK) == VALUE */
};

enum proto_base {
	PROTO_BASE_INVALID,
	PROTO_BASE_LL_HDR,
	PROTO_BASE_NETWORK_HDR,
	PROTO_BASE_TRANSPORT_HDR,
	PROTO_BASE_INNER_HDR,
	PROTO_BASE_TUN_HDR,	/* a tunnel's own header (vxlan vni) */
	__PROTO_BASE_MAX
};

struct expr_ops;	/* a kind's table: include/kind.h */
struct proto_desc;
struct set;
struct var;
struct proto_field;
struct exthdr_desc;

#define EXPR_F_CONSTANT		0x1
#define EXPR_F_SINGLETON	0x2
#define EXPR_F_INTERVAL_END	0x4
#define EXPR_F_BOOLEAN		0x8
#define EXPR_F_WILDCARD		0x10	/* "eth*": a prefix of a name */
/* a match whose selector a byteorder turned big endian first: after a
 * binop, nft 1.0.6 prints no "==" before its value (print.c) */
#define EXPR_F_HTON		0x20
/* delinearize: a cmp on a register that an earlier cmp read, no new load */
#define EXPR_F_REG_AGAIN	0x40
/* a map's value type whose values are ranges ("type K : interval V"):
 * each value is its low end and its high end back to back */
#define EXPR_F_DATA_INTERVAL	0x80

/*
 * "timeout never" of an element (nft 1.1): sent as a timeout of 0, which
 * the kernel keeps as "no timeout" even where the set has a default one
 */
#define ELEM_TIMEOUT_NEVER	UINT64_MAX

/**
 * struct expr - one node of a match or statement argument
 * @loc:	source location; internal for nodes made by eval or delin
 * @dtype:	datatype, set by evaluation
 * @byteorder:	byte order of the value in a register
 * @len:	length in bits
 */
struct expr {
	struct list_head	list;
	struct location		loc;
	enum expr_kind		kind;
	const struct expr_ops	*ops;	/* the kind's table; NULL: none */
	unsigned int		flags;
	const struct datatype	*dtype;
	enum byteorder		byteorder;
	unsigned int		len;
	unsigned int		depth;	/* of nested operators (binop) below
					   and at it, variables expanded */
	union {
		struct {
			char	*str;
			bool	quoted;
			/* a variable: the definition in force where it is
			   written, as nft expands it there */
			struct var *var;
		} sym;
		struct {
			/* big endian: most significant byte first */
			uint8_t	data[NFH_VAL_MAXLEN];
		} val;
		struct {
			const struct proto_desc		*desc;
			const struct proto_field	*tmpl;
			enum proto_base			base;
			unsigned int			offset;	/* bits */
			bool				is_raw;
		} payload;
		struct {
			const struct exthdr_desc	*desc;
			const struct proto_field	*tmpl;
			unsigned int			op;	/* NFT_EXTHDR_OP_* */
			unsigned int			type;
			unsigned int			offset;
			unsigned int			flags;
		} exthdr;
		struct {
			unsigned int	key;
		} meta;
		struct {
			unsigned int	key;
			int		dir;	/* -1: none */
			unsigned int	nfproto;
		} ct;
		struct {
			unsigned int	flags;
			unsigned int	result;
			bool		check;	/* listed "check" (a key) */
		} fib;
		struct {
			struct expr	*expr;
			unsigned int	mod;
			unsigned int	seed;
			bool		seed_set;
			unsigned int	offset;
			unsigned int	type;
		} hash;
		/* EXPR_SELECTOR: the kind's own fields, as its file names
		   them (expr_priv) */
		uint64_t	priv[4];
		struct {
			enum ops	op;
			struct expr	*left;
			struct expr	*right;
		} op;			/* binop, relational, mapping, map */
		struct {
			struct expr	*expr;
			unsigned int	prefix_len;
		} prefix;
		struct {
			struct expr	*left;
			struct expr	*right;
		} range;
		struct {
			struct list_head exprs;
			unsigned int	size;
			char		*name;	/* anonymous set name after linearize */
			unsigned int	set_id;
			unsigned int	set_flags;
		} set;			/* list, set, concat */
		struct {
			char		*name;
			struct set	*set;	/* resolved by evaluation */
		} setref;
		struct {
			struct expr	*key;
			uint64_t	timeout;	/* ms, 0: none,
							   ELEM_TIMEOUT_NEVER */
			uint64_t	expires;	/* ms, 0: none */
			char		*comment;
			bool		counter;
			uint64_t	packets;
			uint64_t	bytes;
			/* quota, limit, ct count: the element's own (nft 1.1),
			   the counter before the one at @counter_at */
			struct list_head stmts;
			unsigned int	counter_at;
		} elem;
		struct {
			int		verdict;	/* NF_ACCEPT, NFT_JUMP, ... */
			char		*chain;
		} verdict;
	};
};

struct expr *expr_alloc(const struct location *loc, enum expr_kind kind,
			const struct datatype *dtype, enum byteorder bo,
			unsigned int len);

/* the kind of a libnftnl expression, or of a JSON key; NULL: no such */
const struct expr_ops *expr_ops_by_nl_name(const char *name);
const struct expr_ops *expr_ops_by_json_name(const char *key);
/* the kind that reads typeof records of nft's kind number @kind, or NULL */
const struct expr_ops *expr_ops_by_typeof_kind(uint32_t kind);
/* the kinds known by ops, one at a time (NULL after the last) */
const struct expr_ops *expr_ops_nth(unsigned int i);

/* a word the grammar read, and where: what it hands a kind's parse */
struct kind_word {
	const char		*w;	/* NULL: left out */
	const struct location	*loc;
};

/* the grammar's rule for the kind named @name read the @n words @w at @loc:
   the expression, or NULL with an error queued */
struct expr *expr_kind_parse(const char *name, const struct location *loc,
			     const struct kind_word *w, unsigned int n,
			     struct list_head *msgs);

/* an expression of a kind known by its ops alone; its fields are zero
   (include/kind.h) */
struct expr *selector_expr_alloc(const struct location *loc,
				 const struct expr_ops *ops,
				 const struct datatype *dtype,
				 enum byteorder bo, unsigned int len);
/* also adds the number of expressions made to *@nodes */
struct expr *expr_clone_counted(const struct expr *e, size_t *nodes);
struct expr *expr_clone(const struct expr *e);
void expr_free(struct expr *e);

struct expr *symbol_expr_alloc(const struct location *loc, const char *str,
			       bool quoted);
struct expr *variable_expr_alloc(const struct location *loc, const char *name);
struct expr *constant_expr_alloc(const struct location *loc,
				 const struct datatype *dtype,
				 enum byteorder bo, unsigned int len,
				 const void *data);
struct expr *constant_expr_u64(const struct location *loc,
			       const struct datatype *dtype,
			       enum byteorder bo, unsigned int len,
			       uint64_t value);
/* a set key's typed placeholder for "type T": an EXPR_VALUE of T's size
   and order (set.h) */
struct expr *set_type_placeholder(const struct location *loc,
				  const struct datatype *dt, unsigned int len,
				  enum byteorder bo);
/*
 * Operators nest at most this deep ("1|2|3|...", parentheses, variables
 * of such): evaluation recurses as deep as they nest, and a deeper one
 * would overrun a small stack (ulimit -s 256).  Real rules nest a few.
 */
#define EXPR_DEPTH_MAX	1024

unsigned int expr_depth(const struct expr *e);

struct expr *binop_expr_alloc(const struct location *loc, enum ops op,
			      struct expr *l, struct expr *r);
struct expr *relational_expr_alloc(const struct location *loc, enum ops op,
				   struct expr *l, struct expr *r);
struct expr *prefix_expr_alloc(const struct location *loc, struct expr *e,
			       unsigned int len);
struct expr *range_expr_alloc(const struct location *loc, struct expr *l,
			      struct expr *r);
struct expr *compound_expr_alloc(const struct location *loc,
				 enum expr_kind kind);
void compound_expr_add(struct expr *c, struct expr *e);
struct expr *verdict_expr_alloc(const struct location *loc, int verdict,
				const char *chain);
struct expr *set_ref_expr_alloc(const struct location *loc, const char *name);
struct expr *mapping_expr_alloc(const struct location *loc, struct expr *key,
				struct expr *value);
struct expr *map_expr_alloc(const struct location *loc, struct expr *sel,
			    struct expr *map);
struct expr *set_elem_expr_alloc(const struct location *loc, struct expr *key);
/* an element's own statements (quota, limit, ct count) copied to @to */
/* how many statements an element keeps, its counter included */
unsigned int elem_stmts_count(const struct expr *e);
/* the key of a set element, under its options */
const struct expr *elem_key(const struct expr *e);
/* whether an element (or key) is a range or prefix, or holds one */
bool elem_is_interval(const struct expr *e);
/* whether the element @e (KEY, KEY : VALUE, KEY OPTIONS) is the catch-all */
bool elem_is_catchall(const struct expr *e);

/* constants: big-endian byte arrays of div_round_up(len, 8) bytes */
uint64_t expr_value_u64(const struct expr *e);
void expr_value_set_u64(struct expr *e, uint64_t v);
int expr_value_cmp(const struct expr *a, const struct expr *b);
bool expr_value_is_zero(const struct expr *e);
/* reverses @n bytes: host order <-> big endian */
void bytes_reverse(uint8_t *data, unsigned int n);
unsigned int expr_value_bytes(const struct expr *e);

/*
 * A mask's bits: how many from the first set one (*@first, counting from
 * the most significant) to the last (0: none set); whether the @len from
 * @first on are all set; whether it is a prefix (*@plen bits, "& 0" is
 * /0).
 */
unsigned int mask_bits(const struct expr *m, unsigned int *first);
bool mask_is_run(const struct expr *m, unsigned int first, unsigned int len);
bool mask_is_prefix(const struct expr *m, unsigned int *plen);
/*
 * A value, a range or a set's keys of a sub-byte field of @width bits
 * loaded in @bytes, shifted down by @shift; a range's end past the field
 * (an open interval ends at the key's last value) stops at the field's
 * last value, as the bits past it are masked off before the lookup
 */
void shift_rhs_right(struct expr *r, unsigned int shift, unsigned int bytes,
		     unsigned int width);

const char *expr_op_name(enum ops op);
/* whether @e reads the packet or its context into a register */
bool expr_is_selector(const struct expr *e);
bool expr_is_constant(const struct expr *e);

#endif
