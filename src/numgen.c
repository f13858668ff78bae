// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Generated numbers: numgen (a counter or a random number) and jhash/symhash
 * (a hash of packet fields), each reduced modulo mod and moved by offset.
 */
#include <stdint.h>
#include <string.h>
#include <linux/netfilter/nf_tables.h>

#include <proto.h>

static const char *const numgen_types[] = {
	[NFT_NG_INCREMENTAL]	= "inc",
	[NFT_NG_RANDOM]		= "random",
};

static const char *const hash_types[] = {
	[NFT_HASH_JENKINS]	= "jhash",
	[NFT_HASH_SYM]		= "symhash",
};

const char *numgen_type_name(unsigned int type)
{
	return type < array_size(numgen_types) ? numgen_types[type] : NULL;
}

const char *hash_type_name(unsigned int type)
{
	return type < array_size(hash_types) ? hash_types[type] : NULL;
}

/* the kernel's result is offset + (x % mod): neither may pass 32 bits */
static int mod_check(const struct location *loc, uint64_t mod, uint64_t offset,
		     struct list_head *msgs)
{
	if (mod == 0 || mod > UINT32_MAX)
		return error_queue(msgs, loc, "mod must be between 1 and %u", UINT32_MAX);
	if (offset > UINT32_MAX - (mod - 1))
		return error_queue(msgs, loc,
				   "offset %llu plus mod %llu does not fit in 32 bits",
				   (unsigned long long)offset, (unsigned long long)mod);
	return 0;
}

struct expr *numgen_expr_alloc(const struct location *loc, unsigned int type,
			       unsigned int mod, unsigned int offset)
{
	struct expr *e = expr_alloc(loc, EXPR_NUMGEN, &integer_type,
				    BYTEORDER_HOST, 32);

	e->numgen.type = type;
	e->numgen.mod = mod;
	e->numgen.offset = offset;
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
		return numgen_expr_alloc(loc, t, mod, offset);
	}
	error_queue(msgs, tloc, "unknown numgen type \"%s\"; expected inc or random", type);
	return NULL;
}

struct expr *hash_expr_alloc(const struct location *loc, unsigned int type,
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
	return hash_expr_alloc(loc, type, key, mod, seed >= 0,
			       seed >= 0 ? seed : 0, offset);
}
