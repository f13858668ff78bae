/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFH_STMT_H
#define NFH_STMT_H

#include <expr.h>

enum stmt_kind {
	STMT_INVALID,
	STMT_EXPRESSION,	/* a match: relational expression */
	STMT_VERDICT,
	STMT_COUNTER,
	STMT_LIMIT,
	STMT_QUOTA,
	STMT_REJECT,
	STMT_META,		/* meta KEY set EXPR */
	STMT_PAYLOAD,		/* header field set */
	STMT_EXTHDR,		/* tcp option field set */
	STMT_CT,		/* ct KEY set EXPR */
	STMT_FWD,
	STMT_DUP,
	STMT_NAT,
	STMT_TPROXY,		/* its addr, proto (port) and family in nat */
	STMT_SET,		/* add|update|delete @set { key ... } */
	STMT_OBJREF,		/* counter name "x", ct helper set "y" */
	STMT_CONNLIMIT,		/* ct count [over] N */
	STMT_SYNPROXY,		/* synproxy mss N wscale N timestamp sack-perm */
	STMT_OPS,		/* a kind known by its ops alone (notrack, ...) */
	__STMT_KIND_MAX
};

enum nat_type {
	NFH_NAT_SNAT,
	NFH_NAT_DNAT,
	NFH_NAT_MASQ,
	NFH_NAT_REDIR,
};

/**
 * struct stmt - one statement of a rule
 */
struct stmt_ops;	/* a kind's table: include/kind.h */
struct output_ctx;

struct stmt {
	struct list_head	list;
	struct location		loc;
	enum stmt_kind		kind;
	const struct stmt_ops	*ops;	/* the kind's table; NULL: none */
	union {
		/* STMT_OPS: the kind's own fields, as its file names them
		   (stmt_priv) */
		uint64_t	priv[4];
		struct expr	*expr;		/* match */
		struct {
			struct expr	*expr;
		} verdict;
		struct {
			uint64_t	packets;
			uint64_t	bytes;
		} counter;
		struct {
			uint64_t	rate;
			uint64_t	unit;	/* seconds */
			uint32_t	burst;
			uint32_t	type;	/* NFT_LIMIT_PKTS / _PKT_BYTES */
			uint32_t	flags;	/* NFT_LIMIT_F_INV */
		} limit;
		struct {
			uint64_t	bytes;
			uint64_t	used;
			uint32_t	flags;
		} quota;
		struct {
			int		type;	/* -1: default */
			int		icmp_code; /* -1: none */
			struct expr	*expr;
			unsigned int	family;
			bool		print_default;	/* netdev, bridge; inet icmpx after another protocol */
			bool		family_of_set;	/* from a set of ether types */
		} reject;
		struct {
			unsigned int	key;
			struct expr	*expr;
		} meta;
		struct {
			struct expr	*expr;	/* the field */
			struct expr	*val;
		} payload;		/* also exthdr and ct set */
		struct {
			unsigned int	key;
			int		dir;
			struct expr	*expr;
		} ct;
		struct {
			struct expr	*dev;
			struct expr	*addr;
			unsigned int	family;
		} fwd;			/* also dup */
		struct {
			enum nat_type	type;
			unsigned int	family;
			struct expr	*addr;
			struct expr	*proto;
			uint32_t	flags;
			bool		print_family;	/* inet: "snat ip to" */
			bool		concat;	/* the address map gives
						   address . port */
			bool		interval; /* its values are ranges */
			bool		addr_port; /* "dnat ip addr . port to" */
		} nat;
		struct {
			unsigned int	op;	/* NFT_DYNSET_OP_* */
			struct expr	*set;	/* EXPR_SET_REF */
			struct expr	*key;
			struct expr	*data;	/* add @m { KEY : DATA }: a
						   map's value, or NULL */
			uint64_t	timeout;	/* ms, 0: none */
			struct list_head stmts;	/* per-element statements */
			bool		meter;	/* meter NAME: @set is the
						   rule's own anonymous set */
			uint32_t	size;	/* a meter's; 0: not given */
		} set;
		struct {
			uint32_t	type;	/* NFT_OBJECT_* */
			struct expr	*expr;	/* a name, or a map to names */
		} objref;
		struct {
			uint32_t	count;
			uint32_t	flags;	/* NFT_CONNLIMIT_F_INV */
		} connlimit;
		struct {
			uint16_t	mss;
			uint8_t		wscale;
			uint32_t	flags;	/* NF_SYNPROXY_OPT_*: those given */
		} synproxy;
	};
};

struct stmt *stmt_alloc(const struct location *loc, enum stmt_kind kind);
void stmt_free(struct stmt *stmt);
/* @s becomes a statement of the kind @kind, whose fields the caller sets
   (ct helper set is an object reference) */
void stmt_set_kind(struct stmt *s, enum stmt_kind kind);
/* a statement of a kind known by its ops alone; its fields are zero
   (include/kind.h) */
struct stmt *ops_stmt_alloc(const struct location *loc,
			    const struct stmt_ops *ops);
/* the kind of a libnftnl expression that makes a statement alone, or of a
   JSON key; NULL: no such */
const struct stmt_ops *stmt_ops_by_nl_name(const char *name);
const struct stmt_ops *stmt_ops_by_json_name(const char *key);
/* the kinds known by ops, one at a time (NULL after the last) */
const struct stmt_ops *stmt_ops_nth(unsigned int i);
/* the statement the grammar's rule for the kind @name read, as
   expr_kind_parse() */
struct stmt *stmt_kind_parse(const char *name, const struct location *loc,
			     const struct kind_word *w, unsigned int n,
			     struct list_head *msgs);
struct stmt *match_stmt_alloc(const struct location *loc, struct expr *e);
struct stmt *verdict_stmt_alloc(const struct location *loc, struct expr *e);

/* grammar helpers: each returns 0, or -1 after queueing an error */
int stmt_bytes_unit(const char *unit, uint64_t *bytes);

/* log (src/kinds/log.c): the grammar hands each argument in turn */
#define LOG_F_PREFIX	0x01
#define LOG_F_LEVEL	0x02
#define LOG_F_GROUP	0x04
#define LOG_F_SNAPLEN	0x08
#define LOG_F_QTHRESH	0x10
#define LOG_F_FLAGS	0x20

/* NF_NAT_RANGE_* of "random", "fully-random", "persistent"; -1 if unknown */
int stmt_nat_flag(const char *name);
/* the data of a nat map that gives address . port, in @family's address */
struct expr *stmt_nat_concat_type(unsigned int family);

#endif
