// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Generated numbers: numgen (a counter or a random number) and jhash/symhash
 * (a hash of packet fields), each reduced modulo mod and moved by offset.
 *
 * Everything about the two kinds is here, in their struct expr_ops.  The
 * grammar builds them from tokens and numbers and calls numgen_expr_parse()
 * and hash_expr_parse(); numgen is an EXPR_SELECTOR with its own fields,
 * EXPR_HASH stays for the delinearizer, which resolves the hashed key's
 * protocol dependencies like any match's.
 */
#include <stdint.h>
#include <string.h>
#include <jansson.h>
#include <libnftnl/expr.h>
#include <libnftnl/udata.h>
#include <linux/netfilter/nf_tables.h>

#include <kind.h>
#include <proto.h>
#include <meta.h>
#include <numgen.h>

struct numgen_priv {
	uint32_t	type;	/* NFT_NG_* */
	uint32_t	mod;
	uint32_t	offset;
};
_Static_assert(sizeof(struct numgen_priv) <= sizeof(((struct expr *)0)->priv),
	       "numgen_priv fits an expression's fields");

static const struct expr_ops numgen_ops;

static const char *const numgen_types[] = {
	[NFT_NG_INCREMENTAL]	= "inc",
	[NFT_NG_RANDOM]		= "random",
};

static const char *const hash_types[] = {
	[NFT_HASH_JENKINS]	= "jhash",
	[NFT_HASH_SYM]		= "symhash",
};

static const char *numgen_type_name(unsigned int type)
{
	return type < array_size(numgen_types) ? numgen_types[type] : NULL;
}

static const char *hash_type_name(unsigned int type)
{
	return type < array_size(hash_types) ? hash_types[type] : NULL;
}

/* what the grammar reads: a 32-bit mod and offset */
static int mod_check(const struct location *loc, uint64_t mod, uint64_t offset,
		     struct list_head *msgs)
{
	if (mod > UINT32_MAX)
		return error_queue(msgs, loc, "mod must be between 1 and %u", UINT32_MAX);
	if (offset > UINT32_MAX)
		return error_queue(msgs, loc, "offset must fit in 32 bits");
	return 0;
}

/*
 * The kernel's result is offset + (x % mod): neither may pass 32 bits.
 * Checked in a rule, not in a typeof, which nft does not evaluate (it
 * takes "typeof numgen inc mod 0").
 */
static int mod_eval(struct kind_eval *k, const struct location *loc,
		    uint32_t mod, uint32_t offset)
{
	if (mod == 0)
		return error_queue(k->msgs, loc, "mod must be between 1 and %u", UINT32_MAX);
	if (offset > UINT32_MAX - (mod - 1))
		return error_queue(k->msgs, loc,
				   "offset %u plus mod %u does not fit in 32 bits",
				   offset, mod);
	return 0;
}

/* --- numgen ---------------------------------------------------------------- */

static struct expr *numgen_alloc(const struct location *loc, unsigned int type,
				 unsigned int mod, unsigned int offset)
{
	struct expr *e = selector_expr_alloc(loc, &numgen_ops, &integer_type,
					     BYTEORDER_HOST, 32);
	struct numgen_priv *p = expr_priv(e);

	p->type = type;
	p->mod = mod;
	p->offset = offset;
	return e;
}

struct expr *numgen_expr_parse(const struct location *loc, const char *type,
			       const struct location *tloc, uint64_t mod,
			       uint64_t offset, struct list_head *msgs)
{
	for (unsigned int t = 0; t < array_size(numgen_types); t++) {
		if (strcmp(numgen_types[t], type))
			continue;
		if (mod_check(loc, mod, offset, msgs) < 0)
			return NULL;
		return numgen_alloc(loc, t, mod, offset);
	}
	error_queue(msgs, tloc, "unknown numgen type \"%s\"; expected inc or random", type);
	return NULL;
}

static int numgen_eval(struct kind_eval *k, struct expr *e)
{
	const struct numgen_priv *p = expr_priv(e);

	return mod_eval(k, &e->loc, p->mod, p->offset);
}

static void numgen_linearize(struct kind_lin *k, const struct expr *e,
			     uint32_t dreg)
{
	const struct numgen_priv *p = expr_priv(e);
	struct nftnl_expr *x = k->add(k, "numgen");

	nftnl_expr_set_u32(x, NFTNL_EXPR_NG_DREG, dreg);
	nftnl_expr_set_u32(x, NFTNL_EXPR_NG_MODULUS, p->mod);
	nftnl_expr_set_u32(x, NFTNL_EXPR_NG_TYPE, p->type);
	if (p->offset)
		nftnl_expr_set_u32(x, NFTNL_EXPR_NG_OFFSET, p->offset);
}

static void numgen_delinearize(struct kind_delin *k,
			       const struct nftnl_expr *e)
{
	uint32_t type = nftnl_expr_get_u32(e, NFTNL_EXPR_NG_TYPE);

	if (!numgen_type_name(type)) {
		k->unsupported(k, "numgen");
		return;
	}
	k->reg_set(k, nftnl_expr_get_u32(e, NFTNL_EXPR_NG_DREG),
		   numgen_alloc(&internal_location, type,
				nftnl_expr_get_u32(e, NFTNL_EXPR_NG_MODULUS),
				nftnl_expr_get_u32(e, NFTNL_EXPR_NG_OFFSET)));
}

static void numgen_print(struct kind_print *k, const struct expr *e)
{
	const struct numgen_priv *p = expr_priv(e);

	fprintf(k->f, "numgen %s mod %u", numgen_type_name(p->type), p->mod);
	if (p->offset)
		fprintf(k->f, " offset %u", p->offset);
}

/* { "numgen": { "mode": M, "mod": N, "offset": N } } */
static json_t *numgen_json(struct kind_json *k, const struct expr *e)
{
	const struct numgen_priv *p = expr_priv(e);
	json_t *o = kind_json_wrap("mode", json_string(numgen_type_name(p->type)));

	o = kind_json_set(o, "mod", json_integer(p->mod));
	o = kind_json_set(o, "offset", json_integer(p->offset));
	return kind_json_wrap("numgen", o);
}

/* numgen, jhash and symhash: the object's keys, its mod, offset and seed
   (has_seed: 1 given, 0 not); -1 after an error */
static int numbers_parse_json(struct kind_jparse *k, const char *name,
			      json_t *o, const char *const *keys,
			      uint64_t *mod, uint64_t *offset, uint64_t *seed,
			      int *has_seed)
{
	if (!json_is_object(o) || k->check_keys(k, o, name, keys) < 0)
		return k->error(k, o, "%s: expected an object", name);
	if (k->get_u32(k, o, "mod", mod) != 1)
		return k->error(k, o, "%s: property \"mod\" is missing or bad", name);
	if (k->get_u32(k, o, "offset", offset) < 0 ||
	    (*has_seed = k->get_u32(k, o, "seed", seed)) < 0)
		return -1;
	return 0;
}

static struct expr *numgen_parse_json(struct kind_jparse *k, const char *name,
				      json_t *o, const struct location *loc)
{
	static const char *const keys[] = { "mode", "mod", "offset", NULL };
	uint64_t mod = 0, seed = 0, offset = 0;
	struct location mloc;
	const char *mode;
	int has_seed = 0;

	if (numbers_parse_json(k, name, o, keys, &mod, &offset, &seed,
			       &has_seed) < 0)
		return NULL;
	mode = k->get_str(k, o, "mode", true);
	mloc = k->loc(k, json_object_get(o, "mode"));
	return mode ? numgen_expr_parse(loc, mode, &mloc, mod, offset, k->msgs) : NULL;
}

static uint64_t numgen_maxval(const struct expr *e)
{
	const struct numgen_priv *p = expr_priv(e);

	return (uint64_t)p->offset + p->mod - 1;
}

/* typeof: records 0, the NFT_NG_* type, 1, mod and 2, offset */
static void numgen_typeof_put(struct nftnl_udata_buf *b, const struct expr *e)
{
	const struct numgen_priv *p = expr_priv(e);

	nftnl_udata_put_u32(b, 0, p->type);
	nftnl_udata_put_u32(b, 1, p->mod);
	nftnl_udata_put_u32(b, 2, p->offset);
}

static struct expr *numgen_typeof_parse(const struct kind_typeof *t,
					unsigned int family)
{
	if (!t->set[0] || !t->set[1] || !t->set[2] ||
	    !numgen_type_name(t->v[0]))
		return NULL;
	return numgen_alloc(&internal_location, t->v[0], t->v[1], t->v[2]);
}

static const struct expr_ops numgen_ops = {
	.name		= "numgen",
	.nl_name	= "numgen",
	.kind		= EXPR_SELECTOR,
	.eval		= numgen_eval,
	.linearize	= numgen_linearize,
	.delinearize	= numgen_delinearize,
	.print		= numgen_print,
	.json		= numgen_json,
	.parse_json	= numgen_parse_json,
	.maxval		= numgen_maxval,
	.typeof_kind	= TYPEOF_KIND_NUMGEN,
	.typeof_recs	= 3,
	.typeof_put	= numgen_typeof_put,
	.typeof_parse	= numgen_typeof_parse,
};
EXPR_OPS_REGISTER(numgen_ops);

/* --- jhash and symhash ----------------------------------------------------- */

static struct expr *hash_alloc(const struct location *loc, unsigned int type,
			       struct expr *key, unsigned int mod,
			       bool seed_set, unsigned int seed,
			       unsigned int offset)
{
	struct expr *e = expr_alloc(loc, EXPR_HASH, &integer_type,
				    BYTEORDER_HOST, 32);

	e->hash.type = type;
	e->hash.expr = key;
	e->hash.mod = mod;
	e->hash.seed_set = seed_set;
	e->hash.seed = seed;
	e->hash.offset = offset;
	return e;
}

struct expr *hash_expr_parse(const struct location *loc, unsigned int type,
			     struct expr *key, uint64_t mod, int64_t seed,
			     uint64_t offset, struct list_head *msgs)
{
	if (mod_check(loc, mod, offset, msgs) < 0 ||
	    (seed >= 0 && (uint64_t)seed > UINT32_MAX &&
	     error_queue(msgs, loc, "seed must fit in 32 bits") < 0)) {
		expr_free(key);
		return NULL;
	}
	return hash_alloc(loc, type, key, mod, seed >= 0,
			  seed >= 0 ? seed : 0, offset);
}

/* the key is loaded from the second register on */
static int hash_eval(struct kind_eval *k, struct expr *e)
{
	if (mod_eval(k, &e->loc, e->hash.mod, e->hash.offset) < 0)
		return -1;
	if (!e->hash.expr)
		return 0;
	if (k->expr(k, &e->hash.expr) < 0)
		return -1;
	if (div_round_up(e->hash.expr->len, 32) > NFT_REG32_COUNT - 4)
		return error_queue(k->msgs, &e->hash.expr->loc,
				   "the hashed expression is longer than %u bytes",
				   (NFT_REG32_COUNT - 4) * 4);
	return 0;
}

/* jhash: the key goes to the register after the result, as nft puts it */
static void hash_linearize(struct kind_lin *k, const struct expr *e,
			   uint32_t dreg)
{
	struct nftnl_expr *x;

	if (e->hash.expr)
		k->load_key(k, e->hash.expr, NFT_REG_2);
	x = k->add(k, "hash");
	if (e->hash.expr) {
		nftnl_expr_set_u32(x, NFTNL_EXPR_HASH_SREG, NFT_REG_2);
		nftnl_expr_set_u32(x, NFTNL_EXPR_HASH_LEN,
				   div_round_up(e->hash.expr->len, 8));
	}
	nftnl_expr_set_u32(x, NFTNL_EXPR_HASH_DREG, dreg);
	nftnl_expr_set_u32(x, NFTNL_EXPR_HASH_MODULUS, e->hash.mod);
	/* without a seed the kernel picks a random one */
	if (e->hash.seed_set)
		nftnl_expr_set_u32(x, NFTNL_EXPR_HASH_SEED, e->hash.seed);
	if (e->hash.offset)
		nftnl_expr_set_u32(x, NFTNL_EXPR_HASH_OFFSET, e->hash.offset);
	nftnl_expr_set_u32(x, NFTNL_EXPR_HASH_TYPE, e->hash.type);
}

/* the hashed key: what the registers from @sreg on hold, @len bytes */
static struct expr *hash_key(struct kind_delin *k, uint32_t sreg, uint32_t len)
{
	unsigned int reg = reg_index(sreg), got = 0;
	struct expr *c;

	if (!len)
		return NULL;
	c = compound_expr_alloc(&internal_location, EXPR_CONCAT);
	while (got < len) {
		struct expr *r = reg && reg <= NFT_REG32_15 ? k->reg_get(k, reg) : NULL;

		if (!r || !r->len) {
			expr_free(r);
			expr_free(c);
			return NULL;
		}
		compound_expr_add(c, r);
		got += div_round_up(r->len, 32) * 4;
		reg += div_round_up(r->len, 32);
	}
	if (c->set.size == 1) {
		struct expr *one = list_first_entry(&c->set.exprs, struct expr, list);

		list_del(&one->list);
		c->set.size = 0;
		expr_free(c);
		return one;
	}
	c->len = got * 8;
	return c;
}

static void hash_delinearize(struct kind_delin *k, const struct nftnl_expr *e)
{
	uint32_t type = nftnl_expr_get_u32(e, NFTNL_EXPR_HASH_TYPE);
	struct expr *key = NULL;

	if (!hash_type_name(type)) {
		k->unsupported(k, "hash");
		return;
	}
	if (type == NFT_HASH_JENKINS) {
		key = hash_key(k, nftnl_expr_get_u32(e, NFTNL_EXPR_HASH_SREG),
			       nftnl_expr_get_u32(e, NFTNL_EXPR_HASH_LEN));
		if (!key) {
			k->unsupported(k, "hash");
			return;
		}
	}
	k->reg_set(k, nftnl_expr_get_u32(e, NFTNL_EXPR_HASH_DREG),
		   hash_alloc(&internal_location, type, key,
			      nftnl_expr_get_u32(e, NFTNL_EXPR_HASH_MODULUS),
			      nftnl_expr_is_set(e, NFTNL_EXPR_HASH_SEED),
			      nftnl_expr_get_u32(e, NFTNL_EXPR_HASH_SEED),
			      nftnl_expr_get_u32(e, NFTNL_EXPR_HASH_OFFSET)));
}

static void hash_print(struct kind_print *k, const struct expr *e)
{
	fprintf(k->f, "%s", hash_type_name(e->hash.type));
	if (e->hash.expr) {
		fputc(' ', k->f);
		k->expr(k, e->hash.expr);
	}
	fprintf(k->f, " mod %u", e->hash.mod);
	if (e->hash.seed_set)
		fprintf(k->f, " seed 0x%x", e->hash.seed);
	if (e->hash.offset)
		fprintf(k->f, " offset %u", e->hash.offset);
}

/* { "jhash": { "mod": N, "seed": N, "offset": N, "expr": E } }, or
   { "symhash": { "mod": N, "offset": N } } */
static json_t *hash_json(struct kind_json *k, const struct expr *e)
{
	json_t *o = kind_json_wrap("mod", json_integer(e->hash.mod));

	if (e->hash.seed_set)
		o = kind_json_set(o, "seed", json_integer(e->hash.seed));
	if (e->hash.offset)
		o = kind_json_set(o, "offset", json_integer(e->hash.offset));
	if (e->hash.expr)
		o = kind_json_set(o, "expr", k->expr(k, e->hash.expr));
	return kind_json_wrap(hash_type_name(e->hash.type), o);
}

static struct expr *hash_parse_json(struct kind_jparse *k, const char *name,
				    json_t *o, const struct location *loc)
{
	static const char *const jhash_keys[] = { "mod", "seed", "offset", "expr", NULL };
	static const char *const symhash_keys[] = { "mod", "offset", NULL };
	bool jhash = !strcmp(name, "jhash");
	uint64_t mod = 0, seed = 0, offset = 0;
	struct expr *key = NULL;
	int has_seed = 0;

	if (numbers_parse_json(k, name, o, jhash ? jhash_keys : symhash_keys,
			       &mod, &offset, &seed, &has_seed) < 0)
		return NULL;
	if (jhash) {
		if (!json_object_get(o, "expr"))
			return k->error(k, o, "jhash: property \"expr\" is missing"), NULL;
		key = k->expr(k, json_object_get(o, "expr"));
		if (!key)
			return NULL;
	}
	return hash_expr_parse(loc, jhash ? NFT_HASH_JENKINS : NFT_HASH_SYM, key,
			       mod, has_seed == 1 ? (int64_t)seed : -1, offset,
			       k->msgs);
}

static void hash_clone(struct expr *n, const struct expr *e, size_t *nodes)
{
	n->hash.expr = expr_clone_counted(e->hash.expr, nodes);
}

static void hash_destroy(struct expr *e)
{
	expr_free(e->hash.expr);
}

static uint64_t hash_maxval(const struct expr *e)
{
	return (uint64_t)e->hash.offset + e->hash.mod - 1;
}

/*
 * typeof: records 0, the NFT_HASH_* type, 1, offset, 2, mod, 3, seed and
 * 4, whether the seed was given.  nft keeps nothing of what jhash hashes
 * (the key is the 32-bit result whatever it is), and nft 1.0.6 and 1.1.1
 * list such a set as "typeof jhash " and crash (tests/diff/KNOWN); we
 * list it as hashing "meta mark", which nft loads back to the same set.
 */
static void hash_typeof_put(struct nftnl_udata_buf *b, const struct expr *e)
{
	nftnl_udata_put_u32(b, 0, e->hash.type);
	nftnl_udata_put_u32(b, 1, e->hash.offset);
	nftnl_udata_put_u32(b, 2, e->hash.mod);
	nftnl_udata_put_u32(b, 3, e->hash.seed);
	nftnl_udata_put_u32(b, 4, e->hash.seed_set);
}

static struct expr *hash_typeof_parse(const struct kind_typeof *t,
				      unsigned int family)
{
	for (unsigned int i = 0; i < 5; i++)
		if (!t->set[i])
			return NULL;
	if (!hash_type_name(t->v[0]) || t->v[4] > 1)
		return NULL;
	return hash_alloc(&internal_location, t->v[0],
			  t->v[0] == NFT_HASH_JENKINS ?
			  meta_expr_alloc(&internal_location, NFT_META_MARK) : NULL,
			  t->v[2], t->v[4], t->v[3], t->v[1]);
}

static const char *const hash_json_names[] = { "symhash", NULL };

static const struct expr_ops hash_ops = {
	.name		= "jhash",
	.json_names	= hash_json_names,
	.nl_name	= "hash",
	.kind		= EXPR_HASH,
	.eval		= hash_eval,
	.linearize	= hash_linearize,
	.delinearize	= hash_delinearize,
	.print		= hash_print,
	.json		= hash_json,
	.parse_json	= hash_parse_json,
	.clone		= hash_clone,
	.destroy	= hash_destroy,
	.maxval		= hash_maxval,
	.typeof_kind	= TYPEOF_KIND_HASH,
	.typeof_recs	= 5,
	.typeof_put	= hash_typeof_put,
	.typeof_parse	= hash_typeof_parse,
};
EXPR_OPS_REGISTER(hash_ops);
