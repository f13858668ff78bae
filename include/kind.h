/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFH_KIND_H
#define NFH_KIND_H

/*
 * What a kind's file sees of the phases.  Each kind of expression (osf,
 * ...) has one file holding everything about it: its parse helpers, and
 * the ops below, which each phase driver calls through e->ops or finds by
 * the kernel's or JSON's name of the kind.  A phase hands the kind a small
 * context: the data it may read and callbacks for what the phase does for
 * it (a sub-expression, a register, an error).  So a kind's file calls
 * only downwards (the AST, datatypes, libnftnl, jansson), and a new kind
 * is its file, a scanner row, a grammar rule and a line in the build list.
 */
#include <stdarg.h>
#include <string.h>
#include <linux/netfilter/nf_tables.h>
#include <jansson.h>

#include <expr.h>
#include <stmt.h>

struct nftnl_expr;
struct nftnl_obj;
struct nftnl_set;
struct nftnl_udata_buf;
struct obj;
struct output_ctx;
struct proto_ctx;
struct proto_desc;
struct set;
struct nftnl_set;
struct rule;

/* evaluation: errors go to @msgs (error_queue()) */
struct kind_eval {
	void			*phase;		/* the evaluator's own */
	struct list_head	*msgs;
	unsigned int		family;		/* of the table */
	/* evaluates a sub-expression, which it may replace; 0 or -1 */
	int	(*expr)(struct kind_eval *k, struct expr **e);
	/* the protocols the rule's matches so far announced */
	const struct proto_ctx	*pctx;
	/* @e reads the header @want at @base: 0, or -1 with the conflict
	   with what the rule matched before queued */
	int	(*proto_need)(struct kind_eval *k, const struct expr *e,
			      enum proto_base base,
			      const struct proto_desc *want);
	/* evaluates @v, the value a statement writes to a field like @lhs
	   (a constant, a map, a packet field); 0 or -1 */
	int	(*value)(struct kind_eval *k, struct expr *lhs, struct expr **v);
	/* evaluates @s as a statement of its kind, which the kind changed
	   (stmt_set_kind()); 0 or -1 */
	int	(*stmt)(struct kind_eval *k, struct stmt *s);
	/* the family's name, for errors ("netdev") */
	const char		*family_name;
	/* evaluates @e as the right-hand side of a match on @lhs; 0 or -1 */
	int	(*rhs)(struct kind_eval *k, const struct expr *lhs,
		       struct expr **e);
	/* the statements of the rule being evaluated (NULL for an
	   object's), the one being evaluated among them */
	struct list_head	*stmts;
	/* the dependencies evaluation adds from now on go before @s, a
	   statement of the rule (a reject's, as nft, open the rule) */
	void	(*deps_before)(struct kind_eval *k, struct stmt *s);
	/* the statement at @loc needs the network or transport header
	   @want (@base): the match nft adds for it, or -1 with the
	   conflict with what the rule matched before queued */
	int	(*dep)(struct kind_eval *k, const struct location *loc,
		       enum proto_base base, const struct proto_desc *want);
	/* the variable @e as its value; 0 or -1 */
	int	(*expand)(struct kind_eval *k, struct expr **e);
	/* the map lookup @m, whose values must be of @want's type; 0 or -1 */
	int	(*map)(struct kind_eval *k, struct expr *m,
		       const struct expr *want);
	/* the set reference @x names a set (a map if @want_map) of the
	   table keyed as @lhs, which it puts in x->setref.set; 0 or -1 */
	int	(*setref)(struct kind_eval *k, const struct expr *lhs,
			  struct expr *x, bool want_map);
	/* @name, of a @what the rule makes ("meter"), holds only what a
	   bare name may; 0 or -1 */
	int	(*name_check)(struct kind_eval *k, const char *name,
			      const struct location *loc, const char *what);
	/* @set is one this batch creates */
	bool	(*set_in_batch)(struct kind_eval *k, const struct set *set);
	/* the set or map @name of the rule's table, or NULL */
	struct set *(*set_find)(struct kind_eval *k, const char *name);
	/* @e reads a header inside the network protocol @want (an ip
	   option, an ipv6 extension header): its dependency, which nft
	   puts first in the rule; 0 or -1 */
	int	(*head_dep)(struct kind_eval *k, const struct expr *e,
			    const struct proto_desc *want);
	/* evaluates @r as a rule of the table being evaluated (a chain
	   binding's), the outer rule's context kept; 0 or -1 */
	int	(*rule)(struct kind_eval *k, struct rule *r);
	/* the table of the rule, and whether it has the flowtable @name:
	   1 yes (the input makes it, or the offline model holds it), 0 no,
	   -1 not known (the kernel's are not read: it checks) */
	const char		*table;
	int	(*flowtable)(struct kind_eval *k, const char *name);
	/* the set or map @name of the rule's table (the input's or the
	   kernel's), or NULL */
	const struct set *(*set_lookup)(struct kind_eval *k, const char *name);
	/* as map, but an anonymous map's values may be ranges of @want's
	   type (nat's "dnat to ip daddr map { 1.1.1.1 : 2.2.2.2-2.2.2.5 }") */
	int	(*map_ranges)(struct kind_eval *k, struct expr *m,
			      const struct expr *want);
	/* evaluates @e, a header inside a tunnel, in the rule's context of
	   the inner packet's protocols (nft keeps one for all tunnels), as
	   in a table of @family: each dependency it adds reads its field
	   through a copy of @tunnel, an inner expression; 0 or -1 */
	int	(*inner)(struct kind_eval *k, struct expr **e,
			 const struct expr *tunnel, unsigned int family);
	/* @e, a field of the header its protocol names, reads that
	   header: the matches that announce it (nft's dependencies), or -1
	   with the conflict with what the rule matched before queued */
	int	(*header)(struct kind_eval *k, struct expr *e);
};

/**
 * struct kind_load - where a header field's bits sit in the register
 * after its load (expr_ops' load): the linearizer masks, shifts and
 * compares by it
 * @len:	bytes loaded
 * @shift:	bits between the field's last bit and the end of the load
 * @masked:	whether bits outside the field must be masked off (@mask)
 */
struct kind_load {
	unsigned int	len;
	unsigned int	shift;
	bool		masked;
	uint64_t	mask;
};

/* the low @n bytes of @v, most significant first */
static inline void u64_to_be(uint64_t v, uint8_t *out, unsigned int n)
{
	for (unsigned int i = n; i > 0; i--) {
		out[i - 1] = v & 0xff;
		v >>= 8;
	}
}

/* the bytes around @len bits at bit @off (@bytes of them if not 0), and
   the mask that keeps the field's bits */
static inline void kind_load_bits(unsigned int off, unsigned int len,
				  unsigned int bytes, struct kind_load *ld)
{
	unsigned int first = off / 8, last = div_round_up(off + len, 8);

	memset(ld, 0, sizeof(*ld));
	ld->len = bytes ? bytes : last - first;
	ld->shift = (last * 8) - (off + len);
	if (off % 8 || len % 8) {
		ld->masked = true;
		ld->mask = (len >= 64 ? ~0ULL : ((1ULL << len) - 1)) << ld->shift;
	}
}

/* linearization: kernel expressions of the rule being built, in order */
struct kind_lin {
	void			*phase;
	struct nftnl_expr	*(*add)(struct kind_lin *k, const char *name);
	/* loads a sub-expression into register @dreg */
	void	(*load)(struct kind_lin *k, const struct expr *e, uint32_t dreg);
	/* puts @v, the value a statement writes to a field like @want of
	   byte order @bo, into register 1: a map lookup, a load from the
	   packet or an immediate; 0 or -1 (an error queued) */
	int	(*value)(struct kind_lin *k, const struct expr *v,
			 const struct expr *want, enum byteorder bo);
	/* the constant @v into register @reg, in byte order @bo */
	void	(*immediate)(struct kind_lin *k, uint32_t reg,
			     const struct expr *v, enum byteorder bo);
	/* a constant (big endian) or a map's value (its lookup, the key in
	   the same register) into @reg, as nat's addresses; 0 or -1 */
	int	(*reg_value)(struct kind_lin *k, uint32_t reg,
			     const struct expr *v);
	/* loads @e from register @dreg on as a set's key is loaded: each
	   part of a concatenation in its own registers, a field of a few
	   bits moved down to its value */
	void	(*load_key)(struct kind_lin *k, const struct expr *e,
			    uint32_t dreg);
	/* the family of the table the rule or object is in */
	unsigned int		family;
	/* the lookup @m in a map of objects of type @objtype (values of
	   @want's type): the kernel's objref with a set; 0 or -1 */
	int	(*objmap)(struct kind_lin *k, const struct expr *m,
			  const struct expr *want, uint32_t objtype);
	/* adds a meter's anonymous set (the dynset statement @s's) to the
	   batch: its id */
	uint32_t (*meter_set)(struct kind_lin *k, const struct stmt *s);
	/* the kernel expressions of @stmts into @v (at most @max; *@n of
	   them), not into the rule; 0 or -1 */
	int	(*collect)(struct kind_lin *k, const struct list_head *stmts,
			   struct nftnl_expr **v, unsigned int max,
			   unsigned int *n);
	/* adds to the batch, before the rule being built, the anonymous
	   chain of id @id bound to it and its @rules; 0 or -1 */
	int	(*bound_chain)(struct kind_lin *k, uint32_t id,
			       const struct list_head *rules);
	/* as reg_value, a map's values being of the type of @data (NULL:
	   the map's own) */
	int	(*reg_value_as)(struct kind_lin *k, uint32_t reg,
				const struct expr *v, struct expr *data);
	/* as load, and the first kernel expression it made (the load
	   itself, before any bitwise that keeps a field's bits) */
	struct nftnl_expr *(*load_first)(struct kind_lin *k,
					 const struct expr *e, uint32_t dreg);
	/* errors go here (error_queue()) */
	struct list_head	*msgs;
	/* as add, the kernel's errors about the expression going to @loc
	   (a part of the statement, such as the name an objref looks up)
	   rather than to the whole statement */
	struct nftnl_expr *(*add_at)(struct kind_lin *k, const char *name,
				     const struct location *loc);
};

/* delinearization: what the registers hold as the rule is read back */
struct kind_delin {
	void			*phase;
	unsigned int		family;
	void	(*reg_set)(struct kind_delin *k, uint32_t reg, struct expr *e);
	/* what @reg holds (the delinearizer keeps it), or NULL */
	struct expr *(*reg_get)(struct kind_delin *k, uint32_t reg);
	/* a kernel expression nfh cannot list: the rule lists as such */
	void	(*unsupported)(struct kind_delin *k, const char *name);
	/* the next statement of the rule */
	void	(*add_stmt)(struct kind_delin *k, struct stmt *s);
	/* the set @name (or of id @id if @has_id) of the rule's table, or
	   NULL */
	const struct nftnl_set *(*set)(struct kind_delin *k, const char *name,
				       bool has_id, uint32_t id);
	/* the map lookup from @sreg in @nls as an expression (the key the
	   register holds, the set by name or its elements if anonymous),
	   or NULL if the key cannot be listed */
	struct expr *(*map)(struct kind_delin *k, uint32_t sreg,
			    const struct nftnl_set *nls);
	/* what a lookup in @nls from @sreg reads as its key, or NULL */
	struct expr *(*set_key)(struct kind_delin *k, uint32_t sreg,
				const struct nftnl_set *nls);
	/* what a dynset writes from @sreg into map @nls as an element's
	   value, typed as the map's values, or NULL */
	struct expr *(*map_data)(struct kind_delin *k, uint32_t sreg,
				 const struct nftnl_set *nls);
	/* the statements of the expressions inside @nle (a dynset's) */
	void	(*inner)(struct kind_delin *k, const struct nftnl_expr *nle,
			 struct list_head *stmts);
	/* @v, a constant read from a register, as a value of the field of
	   type @dt, byte order @bo and @len bits that it is written to */
	void	(*type_value)(struct kind_delin *k, struct expr *v,
			      const struct datatype *dt, enum byteorder bo,
			      unsigned int len);
	/* reads @nle, a load, as the rule's next expression (what it
	   loads in its register) */
	void	(*load)(struct kind_delin *k, const struct nftnl_expr *nle);
	/* the postprocess (expr_ops' match): the protocols the rule's
	   matches before this one announced, and @r, a right-hand side,
	   typed as a value (or range, or set) of @lhs */
	const struct proto_ctx	*pctx;
	void	(*type_rhs)(struct kind_delin *k, struct expr *r,
			    const struct expr *lhs);
};

/* the text listing */
struct kind_print {
	void			*phase;
	FILE			*f;
	const struct output_ctx	*octx;
	void	(*expr)(struct kind_print *k, const struct expr *e);
	/* @v, a value a statement writes (through a register), as a value
	   of type @dt and byte order @bo */
	void	(*value)(struct kind_print *k, const struct expr *v,
			 const struct datatype *dt, enum byteorder bo);
	/* an object's body runs on one line (a monitor event) */
	bool			oneline;
	/* a statement, with k->octx */
	void	(*stmt)(struct kind_print *k, const struct stmt *s);
	/* a name of the ruleset, in quotes where it needs them */
	void	(*name)(struct kind_print *k, const char *name);
	/* @name of a set, as a statement refers to it */
	void	(*setref)(struct kind_print *k, const char *name);
	/* @r's statements and comment, as a rule's line holds them */
	void	(*rule)(struct kind_print *k, const struct rule *r);
};

/* the -j listing */
struct kind_json {
	void			*phase;
	const struct output_ctx	*octx;
	/* NULL if the sub-expression cannot be listed */
	json_t	*(*expr)(struct kind_json *k, const struct expr *e);
	/* as kind_print's value; NULL if it cannot be listed */
	json_t	*(*value)(struct kind_json *k, const struct expr *v,
			  const struct datatype *dt, enum byteorder bo);
	/* NULL: the listing cannot show @what (the first such is named) */
	json_t	*(*unsupported)(struct kind_json *k, const char *what);
	/* the family of the table listed (0 for an object's body) */
	unsigned int		family;
	/* a statement, with k->octx; NULL if it cannot be listed */
	json_t	*(*stmt)(struct kind_json *k, const struct stmt *s);
	/* a string, bytes that are not UTF-8 escaped */
	json_t	*(*str)(struct kind_json *k, const char *s);
	/* @s as the text listing prints it (malloc'd), or NULL */
	char	*(*stmt_text)(struct kind_json *k, const struct stmt *s);
};

/* the -j input: errors with the location of the JSON value */
struct kind_jparse {
	void			*phase;
	struct list_head	*msgs;
	int	(*error)(struct kind_jparse *k, const json_t *v,
			 const char *fmt, ...) __fmt(3, 4);
	struct location (*loc)(struct kind_jparse *k, const json_t *v);
	/* a string property: NULL if missing (an error if @required) or
	   not a string (an error) */
	const char *(*get_str)(struct kind_jparse *k, json_t *o,
			       const char *key, bool required);
	/* an error for each property of @o not in the NULL-ended @known */
	int	(*check_keys)(struct kind_jparse *k, json_t *o,
			      const char *what, const char *const *known);
	struct expr *(*expr)(struct kind_jparse *k, json_t *v);
	/* a number property: 1 found, 0 absent, -1 not a non-negative
	   integer (an error); get_u32 also errs for one over 32 bits */
	int	(*get_u64)(struct kind_jparse *k, json_t *o, const char *key,
			   uint64_t *res);
	int	(*get_u32)(struct kind_jparse *k, json_t *o, const char *key,
			   uint64_t *res);
	/* a boolean property: false if absent or not a boolean (an error) */
	bool	(*get_bool)(struct kind_jparse *k, json_t *o, const char *key);
	/* counts an error the kind queued on @msgs itself */
	void	(*failed)(struct kind_jparse *k);
	/* a reference to the named object of @type, or a map to names:
	   {"counter": "c1"}, {"counter": {"map": ...}} */
	struct stmt *(*objref)(struct kind_jparse *k, uint32_t type, json_t *v,
			       const struct location *loc);
	struct stmt *(*stmt)(struct kind_jparse *k, json_t *v);
	/* a property in seconds, as milliseconds in *@ms: 1 found, 0
	   absent, -1 bad (an error) */
	int	(*seconds)(struct kind_jparse *k, json_t *o, const char *key,
			   uint64_t *ms);
};

/**
 * struct expr_ops - everything about one kind of expression
 * @name:	the JSON key of the kind ("osf")
 * @json_names:	more JSON keys it reads, NULL-terminated ("jhash", ...)
 * @nl_name:	the libnftnl expression it makes and reads back
 * @kind:	EXPR_SELECTOR for a kind known by its ops alone, or the
 *		kind enum's entry of a kind that other code tests for
 * @parse:	the words the grammar's rule for the kind read (expr_kind_parse)
 * @eval:	checks @e in the rule being evaluated; 0 or -1
 * @linearize:	loads @e into register @dreg
 * @delinearize: the kernel expression @nle as an expression of this kind
 *		in its destination register
 * @print:	@e as nft lists it
 * @json:	@e as nft -j lists it; NULL if it cannot be
 * @parse_json:	@v, the value of the JSON key @key, as an expression
 * @clone:	copies what @e owns into @n, a byte copy of @e
 * @destroy:	frees what @e owns
 * @mangle:	the statement that writes @val (which it takes) to the field
 *		@e, as JSON's { "mangle": { "key": @e, "value": @val } } says
 * @maxval:	the largest value @e gives (numgen, hash: offset + mod - 1;
 *		socket transparent: 1), for a statement that bounds it (queue)
 *		and a match, whose constants may not be larger (as in nft)
 * @load:	a header field (payload, exthdr), a run of bits in the
 *		packet: loads the bytes around it (@bytes of them if not 0)
 *		into @dreg and says in @ld where its bits sit; the linearizer
 *		then masks, shifts and compares as for any such field (a kind
 *		has @load or @linearize)
 * @bit_offset:	a header field's first bit, where its load counts from
 *		(its length is e->len)
 * @match:	the delinearizer's postprocess: @rel, a match on a raw load
 *		of the kind (masked or not), rewritten on the field the
 *		protocols k->pctx says sits there; false if none
 * @expand:	the same for @s, a match on a load nft merged from matches
 *		on adjacent fields: split into one match a field, the first
 *		in @s, the others after it; the last, or NULL if not split
 * A kind leaves out what it has not.
 */
/*
 * typeof in a set's user data (set.h): a selector is its kind's number,
 * as nft numbers the kinds, and a nest of the kind's own records, each a
 * u32 numbered from 0.  set.c writes and reads the nesting; a kind with
 * typeof_put writes its records, and reads them back in typeof_parse.
 */
enum {
	TYPEOF_KIND_VERDICT	= 1,
	TYPEOF_KIND_PAYLOAD	= 7,
	TYPEOF_KIND_EXTHDR	= 8,
	TYPEOF_KIND_META	= 9,
	TYPEOF_KIND_SOCKET	= 10,
	TYPEOF_KIND_OSF		= 11,
	TYPEOF_KIND_CT		= 12,
	TYPEOF_KIND_CONCAT	= 13,
	TYPEOF_KIND_NUMGEN	= 23,
	TYPEOF_KIND_HASH	= 24,
	TYPEOF_KIND_RT		= 25,
	TYPEOF_KIND_FIB		= 26,
	TYPEOF_KIND_XFRM	= 27,
};

/* a payload's records: header and field as numbered on the wire, bits;
 * a raw one ("@th,0,1") is header 0, field 0, and its base (nft's
 * numbers: 1 link, 2 network, 3 transport), offset and length in bits */
enum {
	TYPEOF_PAYLOAD_DESC,
	TYPEOF_PAYLOAD_FIELD,
	TYPEOF_PAYLOAD_BASE,
	TYPEOF_PAYLOAD_OFFSET,
	TYPEOF_PAYLOAD_LEN,	/* integer fields only */
};

/* an extension header's (or option's) records: nft's number of the
 * header, its number of the field and, but for ipv6 headers, the
 * NFT_EXTHDR_OP_* (src/kinds/exthdr.c says how nft numbers them) */
enum {
	TYPEOF_EXTHDR_DESC,
	TYPEOF_EXTHDR_FIELD,
	TYPEOF_EXTHDR_OP,
};

/* a meta's record 0 is its NFT_META_* key; a ct's records: NFT_CT_* key,
 * direction (IP_CT_DIR_*, ~0 for none); the other kinds say theirs in
 * their files (osf.c, numgen.c, rt.c, socket.c, fib.c, ipsec.c) */

/* the most records a kind has (jhash and symhash: 5) */
#define KIND_TYPEOF_RECS	5

/* a kind's records as read back: v[i] is record i, if set[i] */
struct kind_typeof {
	uint32_t	v[KIND_TYPEOF_RECS];
	bool		set[KIND_TYPEOF_RECS];
};

struct expr_ops {
	const char		*name;
	const char *const	*json_names;
	const char		*nl_name;
	enum expr_kind		kind;
	struct expr *(*parse)(const struct location *loc,
			      const struct kind_word *w, unsigned int n,
			      struct list_head *msgs);
	int	(*eval)(struct kind_eval *k, struct expr *e);
	void	(*linearize)(struct kind_lin *k, const struct expr *e,
			     uint32_t dreg);
	void	(*delinearize)(struct kind_delin *k,
			       const struct nftnl_expr *nle);
	void	(*print)(struct kind_print *k, const struct expr *e);
	json_t	*(*json)(struct kind_json *k, const struct expr *e);
	struct expr *(*parse_json)(struct kind_jparse *k, const char *key,
				   json_t *v, const struct location *loc);
	void	(*clone)(struct expr *n, const struct expr *e, size_t *nodes);
	void	(*destroy)(struct expr *e);
	struct stmt *(*mangle)(struct kind_jparse *k, const struct expr *e,
			       struct expr *val, const struct location *loc);
	uint64_t (*maxval)(const struct expr *e);
	void	(*load)(struct kind_lin *k, const struct expr *e,
			uint32_t dreg, unsigned int bytes,
			struct kind_load *ld);
	unsigned int (*bit_offset)(const struct expr *e);
	bool	(*match)(struct kind_delin *k, struct expr *rel);
	struct stmt *(*expand)(struct kind_delin *k, struct stmt *s);
	/* typeof: the kind's number (TYPEOF_KIND_*), how many records it
	   reads (at most KIND_TYPEOF_RECS); whether @e can be a typeof key
	   (NULL: any of the kind), its records, and the selector the
	   records name in a table of @family (NULL if none) */
	uint32_t	typeof_kind;
	unsigned int	typeof_recs;
	bool	(*typeof_ok)(const struct expr *e);
	void	(*typeof_put)(struct nftnl_udata_buf *b, const struct expr *e);
	struct expr *(*typeof_parse)(const struct kind_typeof *t,
				     unsigned int family);
};

/*
 * The tables of the kinds: a pointer to each in a section of the binary
 * (nfh_expr_ops, nfh_stmt_ops, nfh_obj_ops), so that a new kind needs no
 * line in any other file.  KIND_REGISTER puts one there;
 * KIND_SECTION_NTH defines @fn(i), the @i-th of section @sec or NULL
 * after the last (expr.c, stmt.c, names.c).
 */
#define KIND_REGISTER(type, sec, ops)					\
	static const type *const __##sec##_##ops			\
	__attribute__((used, section(#sec),				\
		       aligned(sizeof(void *)))) = &(ops)

#define KIND_SECTION_NTH(type, sec, fn)					\
	extern const type *const __start_##sec[] __attribute__((weak));	\
	extern const type *const __stop_##sec[] __attribute__((weak));	\
	const type *fn(unsigned int i)					\
	{								\
		return i < (size_t)(__stop_##sec - __start_##sec) ?	\
		       __start_##sec[i] : NULL;				\
	}

/* @key is @name or one of @more (NULL-terminated; NULL: none), as a
   kind's JSON keys are */
/*
 * Register numbers as nft writes them: a 32-bit slot that starts a 128-bit
 * register is named by the 128-bit number (1..4), any other by its 32-bit
 * number (NFT_REG32_00 + slot)
 */
static inline uint32_t reg_of_slot(unsigned int slot)
{
	return slot % 4 == 0 ? NFT_REG_1 + slot / 4 : NFT_REG32_00 + slot;
}

/* ... and back: a register's index in the 32-bit numbering (0: none) */
static inline unsigned int reg_index(uint32_t reg)
{
	if (reg <= NFT_REG_4)
		return reg == 0 ? 0 : NFT_REG32_00 + (reg - 1) * 4;
	return reg <= NFT_REG32_15 ? reg : 0;
}

static inline bool kind_name_is(const char *name, const char *const *more,
				const char *key)
{
	if (name && !strcmp(name, key))
		return true;
	for (; more && *more; more++)
		if (!strcmp(*more, key))
			return true;
	return false;
}

/* puts @ops in the table the drivers search */
#define EXPR_OPS_REGISTER(ops)	KIND_REGISTER(struct expr_ops, nfh_expr_ops, ops)

/* the fields of an EXPR_SELECTOR, as the kind's file defines them */
#define expr_priv(e)	((void *)(e)->priv)

/**
 * struct stmt_ops - everything about one kind of statement, as expr_ops
 * @name:	the keyword, and the JSON key ("notrack")
 * @nl_name:	the libnftnl expression that alone makes the statement
 * @kind:	STMT_OPS for a kind known by its ops alone, or the kind
 *		enum's entry of a kind that other code tests for
 * @bare:	it takes no argument (the shell's completion)
 * @not_offered: a front end does not offer its name where a statement may
 *		start (nfh_stmt_words)
 * @parse:	the words the grammar's rule for the kind read (stmt_kind_parse)
 * @eval:	checks @s in the rule being evaluated; 0 or -1
 * @linearize:	its kernel expressions; 0 or -1 (an error queued)
 * @delinearize: the kernel expression @nle as a statement (k->add_stmt)
 * @print, @json, @parse_json, @destroy: as expr_ops
 * @value:	a statement that writes a value to a field: where the value
 *		is, and in *@field a new expression of the field (the
 *		caller's), for the delinearizer to name a map's values
 * @json_names:	more JSON keys it reads, NULL-terminated (objref's: the
 *		object types'), as expr_ops
 * @terminal:	the rule ends with it: its name in the error for a statement
 *		after it ("queue")
 * @nl_names:	more libnftnl expressions that make it, NULL-terminated
 *		(nat's "masq" and "redir")
 */
struct stmt_ops {
	const char		*name;
	const char		*nl_name;
	enum stmt_kind		kind;
	bool			bare;
	struct stmt *(*parse)(const struct location *loc,
			      const struct kind_word *w, unsigned int n,
			      struct list_head *msgs);
	int	(*eval)(struct kind_eval *k, struct stmt *s);
	int	(*linearize)(struct kind_lin *k, const struct stmt *s);
	void	(*delinearize)(struct kind_delin *k,
			       const struct nftnl_expr *nle);
	void	(*print)(struct kind_print *k, const struct stmt *s);
	json_t	*(*json)(struct kind_json *k, const struct stmt *s);
	struct stmt *(*parse_json)(struct kind_jparse *k, const char *key,
				   json_t *v, const struct location *loc);
	void	(*destroy)(struct stmt *s);
	struct expr **(*value)(struct stmt *s, struct expr **field);
	bool			not_offered;
	const char *const	*json_names;
	const char		*terminal;
	const char *const	*nl_names;
};

/* the same for statements */
#define STMT_OPS_REGISTER(ops)	KIND_REGISTER(struct stmt_ops, nfh_stmt_ops, ops)

/* the fields of a STMT_OPS, as the kind's file defines them */
#define stmt_priv(s)	((void *)(s)->priv)

/**
 * struct obj_ops - everything about one type of named object, as expr_ops
 * @type:	NFT_OBJECT_*
 * @name:	the keyword, and the JSON key ("secmark", "ct helper")
 * @plural:	the JSON key that lists all of them ("secmarks"), or NULL
 * @json_keys:	its JSON properties beyond family, table, name, handle and
 *		comment, NULL-terminated
 * @parse_json:	the JSON object @o of an object to add into @ob; 0 or -1
 *		(an error queued)
 * @eval:	checks @ob, an object to add; 0 or -1
 * @linearize:	@ob's values as attributes of @nlo
 * @print:	the body of @nlo as nft lists it, after its comment: a line
 *		each (kind_obj_line(), kind_obj_eol()), or one line for monitor
 * @json:	the properties of @nlo as nft -j lists them, set in @o (its
 *		context has no phase nor callbacks: an object has no
 *		sub-expressions)
 * @destroy:	frees what @ob owns of its type
 * The grammar's object blocks build struct obj as they did.
 */
struct obj_ops {
	uint32_t		type;
	const char		*name;
	const char		*plural;
	const char *const	*json_keys;
	int	(*parse_json)(struct kind_jparse *k, json_t *o, struct obj *ob);
	int	(*eval)(struct kind_eval *k, struct obj *ob);
	void	(*linearize)(struct kind_lin *k, struct nftnl_obj *nlo,
			     const struct obj *ob);
	void	(*print)(struct kind_print *k, struct nftnl_obj *nlo);
	void	(*json)(struct kind_json *k, json_t *o, struct nftnl_obj *nlo);
	void	(*destroy)(struct obj *ob);
};

/* the same for object types */
#define OBJ_OPS_REGISTER(ops)	KIND_REGISTER(struct obj_ops, nfh_obj_ops, ops)

/* an object's line of its body starts: a tab pair in a listing */
static inline void kind_obj_line(struct kind_print *k)
{
	if (!k->oneline)
		fputs("\t\t", k->f);
}

/* and ends: a monitor event runs them together, as nft does, ct objects
   with "; " (@semi), others with " " */
static inline void kind_obj_eol(struct kind_print *k, bool semi)
{
	fputs(!k->oneline ? "\n" : semi ? "; " : " ", k->f);
}

/* { @key: @v }, and @v set as @key in @o: a NULL @v (a member that could
   not be listed) frees the object and gives NULL */
static inline json_t *kind_json_set(json_t *o, const char *key, json_t *v)
{
	if (!o || !v) {
		json_decref(o);
		json_decref(v);
		return NULL;
	}
	json_object_set_new(o, key, v);
	return o;
}

static inline json_t *kind_json_wrap(const char *key, json_t *v)
{
	return kind_json_set(json_object(), key, v);
}

/* what the listings of objects and set elements share with a kind */

#endif
