// SPDX-License-Identifier: GPL-2.0-or-later
/* fib: a route lookup for the packet, by the fields its flags name */
#include <string.h>
#include <linux/netfilter/nf_tables.h>

#include <proto.h>

/* NFTA_FIB_F_* bit by bit, in the order nft prints them */
static const char *const fib_flags[] = {
	"saddr", "daddr", "mark", "iif", "oif",
};

static const struct {
	const char		*name;
	const struct datatype	*dtype;
	unsigned int		len;
} fib_results[] = {
	[NFT_FIB_RESULT_OIF]		= { "oif",	&ifindex_type,	32 },
	[NFT_FIB_RESULT_OIFNAME]	= { "oifname",	&ifname_type,	128 },
	[NFT_FIB_RESULT_ADDRTYPE]	= { "type",	&fib_addr_type,	32 },
};

int fib_flag_lookup(const char *name)
{
	for (unsigned int i = 0; i < array_size(fib_flags); i++)
		if (!strcmp(fib_flags[i], name))
			return 1 << i;
	return -1;
}

const char *fib_flag_name(unsigned int bit)
{
	return bit < array_size(fib_flags) ? fib_flags[bit] : NULL;
}

const char *fib_result_name(unsigned int result)
{
	return result < array_size(fib_results) ? fib_results[result].name : NULL;
}

struct expr *fib_expr_alloc(const struct location *loc, unsigned int flags,
			    unsigned int result)
{
	struct expr *e = expr_alloc(loc, EXPR_FIB, fib_results[result].dtype,
				    BYTEORDER_HOST, fib_results[result].len);

	e->fib.flags = flags;
	e->fib.result = result;
	if (flags & NFTA_FIB_F_PRESENT)
		fib_expr_present(e);
	return e;
}

/* "exists"/"missing": a boolean as wide as the result (the kernel stores
   0 or 1 in the whole register), as nft sends it */
void fib_expr_present(struct expr *e)
{
	e->fib.flags |= NFTA_FIB_F_PRESENT;
	e->dtype = &boolean_type;
	e->len = fib_results[e->fib.result].len;
}

struct expr *fib_expr_parse(const struct location *loc, unsigned int flags,
			    const char *result, const struct location *rloc,
			    struct list_head *msgs)
{
	for (unsigned int i = 1; i < array_size(fib_results); i++)
		if (!strcmp(fib_results[i].name, result))
			return fib_expr_alloc(loc, flags, i);
	error_queue(msgs, rloc, "unknown fib result \"%s\"; expected oif, oifname or type",
		    result);
	return NULL;
}
