// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fib: a route lookup for the packet, by the fields its flags name.
 *
 * Everything about the kind is here, in its struct expr_ops.  The grammar
 * builds its flags from tokens and calls fib_expr_parse(); the evaluator
 * tests for EXPR_FIB ("fib daddr oif missing", fib_expr_present()).
 */
#include <string.h>
#include <jansson.h>
#include <libnftnl/expr.h>
#include <libnftnl/udata.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>

#include <kind.h>
#include <proto.h>
#include <fib.h>

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
	/* a string, not an ifname, as nft types it (a set's key type) */
	[NFT_FIB_RESULT_OIFNAME]	= { "oifname",	&string_type,	128 },
	[NFT_FIB_RESULT_ADDRTYPE]	= { "type",	&fib_addr_type,	32 },
};

int fib_flag_lookup(const char *name)
{
	for (unsigned int i = 0; i < array_size(fib_flags); i++)
		if (!strcmp(fib_flags[i], name))
			return 1 << i;
	return -1;
}

static const char *fib_flag_name(unsigned int bit)
{
	return bit < array_size(fib_flags) ? fib_flags[bit] : NULL;
}

static const char *fib_result_name(unsigned int result)
{
	return result < array_size(fib_results) ? fib_results[result].name : NULL;
}

static struct expr *fib_expr_alloc(const struct location *loc,
				   unsigned int flags, unsigned int result)
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

/*
 * nft 1.0.6 lists a route check as "oif exists", its value as a boolean;
 * as the key of a lookup or map ("fib daddr oif vmap { missing : drop }")
 * that text would be read as an interface, so it lists as nft 1.1.4 and
 * later write it: "fib daddr check vmap { missing : drop, ... }"
 */
void fib_key_check(struct expr *key)
{
	if (key && key->kind == EXPR_FIB &&
	    (key->fib.flags & NFTA_FIB_F_PRESENT) &&
	    key->fib.result == NFT_FIB_RESULT_OIF)
		key->fib.check = true;
}

struct expr *fib_expr_parse(const struct location *loc, unsigned int flags,
			    const char *result, const struct location *rloc,
			    struct list_head *msgs)
{
	for (unsigned int i = 1; i < array_size(fib_results); i++)
		if (!strcmp(fib_results[i].name, result))
			return fib_expr_alloc(loc, flags, i);
	/* newer nft's "fib daddr check missing" (nftables commit "fib: allow
	   to check if route exists in maps"): whether there is a route,
	   as "oif missing" (which the listing keeps, as nft 1.0.6 lists it) */
	if (!strcmp(result, "check"))
		return fib_expr_alloc(loc, flags | NFTA_FIB_F_PRESENT,
				      NFT_FIB_RESULT_OIF);
	error_queue(msgs, rloc, "unknown fib result \"%s\"; expected oif, oifname, type or check",
		    result);
	return NULL;
}

static int fib_eval(struct kind_eval *k, struct expr *e)
{
	unsigned int fl = e->fib.flags;

	if (k->family == NFPROTO_ARP || k->family == NFPROTO_BRIDGE)
		return error_queue(k->msgs, &e->loc,
				   "fib is not available in the %s family",
				   k->family_name);
	if (!(fl & (NFTA_FIB_F_SADDR | NFTA_FIB_F_DADDR)))
		return error_queue(k->msgs, &e->loc,
				   "fib needs saddr or daddr to look up");
	if ((fl & NFTA_FIB_F_SADDR) && (fl & NFTA_FIB_F_DADDR))
		return error_queue(k->msgs, &e->loc,
				   "fib looks up saddr or daddr, not both");
	if ((fl & NFTA_FIB_F_IIF) && (fl & NFTA_FIB_F_OIF))
		return error_queue(k->msgs, &e->loc,
				   "fib takes iif or oif, not both");
	return 0;
}

static void fib_linearize(struct kind_lin *k, const struct expr *e,
			  uint32_t dreg)
{
	struct nftnl_expr *x = k->add(k, "fib");

	nftnl_expr_set_u32(x, NFTNL_EXPR_FIB_DREG, dreg);
	nftnl_expr_set_u32(x, NFTNL_EXPR_FIB_RESULT, e->fib.result);
	nftnl_expr_set_u32(x, NFTNL_EXPR_FIB_FLAGS, e->fib.flags);
}

static void fib_delinearize(struct kind_delin *k, const struct nftnl_expr *e)
{
	uint32_t result = nftnl_expr_get_u32(e, NFTNL_EXPR_FIB_RESULT);
	uint32_t flags = nftnl_expr_get_u32(e, NFTNL_EXPR_FIB_FLAGS);

	if (result == NFT_FIB_RESULT_UNSPEC || !fib_result_name(result) ||
	    (flags & ~(NFTA_FIB_F_PRESENT | ((1u << 5) - 1)))) {
		k->unsupported(k, "fib");
		return;
	}
	k->reg_set(k, nftnl_expr_get_u32(e, NFTNL_EXPR_FIB_DREG),
		   fib_expr_alloc(&internal_location, flags, result));
}

/* "fib saddr . iif oif": the lookup flags, then the result */
static void fib_print(struct kind_print *k, const struct expr *e)
{
	const char *sep = " ";

	fprintf(k->f, "fib");
	for (unsigned int b = 0; fib_flag_name(b); b++) {
		if (!(e->fib.flags & (1u << b)))
			continue;
		fprintf(k->f, "%s%s", sep, fib_flag_name(b));
		sep = " . ";
	}
	fprintf(k->f, " %s", e->fib.check ? "check" :
			     fib_result_name(e->fib.result));
}

/* { "fib": { "result": "oif", "flags": [ "saddr", "iif" ] } }; "check" for
   a route check that is a key, as nft 1.1.5 and later write it (the
   relational's "oif" kept, as nft 1.0.6 and 1.1.5 write it) */
static json_t *fib_json(struct kind_json *k, const struct expr *e)
{
	json_t *flags = json_array();

	for (unsigned int b = 0; fib_flag_name(b); b++)
		if (e->fib.flags & (1u << b))
			json_array_append_new(flags, json_string(fib_flag_name(b)));
	return kind_json_wrap("fib", kind_json_set(kind_json_wrap("result",
					json_string(e->fib.check ? "check" :
						    fib_result_name(e->fib.result))),
				   "flags", flags));
}

/* { "fib": { "result": R, "flags": [ F, ... ] } }; flags may be one string */
static struct expr *fib_parse_json(struct kind_jparse *k, const char *name,
				   json_t *o, const struct location *loc)
{
	static const char *const keys[] = { "result", "flags", NULL };
	json_t *fl = json_is_object(o) ? json_object_get(o, "flags") : NULL;
	json_t *one = fl && json_is_string(fl) ? fl : NULL, *f;
	const char *result;
	unsigned int flags = 0;
	struct location rloc;

	if (!json_is_object(o) || k->check_keys(k, o, "fib", keys) < 0)
		return k->error(k, o, "fib: expected an object"), NULL;
	result = k->get_str(k, o, "result", true);
	if (!result)
		return NULL;
	if (fl && !one && !json_is_array(fl))
		return k->error(k, fl, "fib: \"flags\" must be a string or an array"), NULL;
	for (size_t n = 0; fl && n < (one ? 1 : json_array_size(fl)); n++) {
		int bit;

		f = one ? one : json_array_get(fl, n);
		bit = json_is_string(f) ? fib_flag_lookup(json_string_value(f)) : -1;
		if (bit < 0)
			return k->error(k, f, "unknown fib flag; expected saddr, daddr, mark, iif or oif"), NULL;
		flags |= bit;
	}
	rloc = k->loc(k, json_object_get(o, "result"));
	return fib_expr_parse(loc, flags, result, &rloc, k->msgs);
}

/*
 * typeof: records 0, the NFT_FIB_RESULT_*, and 1, the NFTA_FIB_F_* flags.
 * nft's grammar refuses there what fib_eval refuses in a rule (the key
 * is not evaluated), and has no "check" in a typeof.
 */
static bool fib_typeof_ok(const struct expr *e)
{
	unsigned int fl = e->fib.flags;

	return !(fl & NFTA_FIB_F_PRESENT) &&
	       !(fl & NFTA_FIB_F_SADDR) != !(fl & NFTA_FIB_F_DADDR) &&
	       !((fl & NFTA_FIB_F_IIF) && (fl & NFTA_FIB_F_OIF));
}

static void fib_typeof_put(struct nftnl_udata_buf *b, const struct expr *e)
{
	nftnl_udata_put_u32(b, 0, e->fib.result);
	nftnl_udata_put_u32(b, 1, e->fib.flags);
}

static struct expr *fib_typeof_parse(const struct kind_typeof *t,
				     unsigned int family)
{
	if (!t->set[0] || !t->set[1] || t->v[0] == NFT_FIB_RESULT_UNSPEC ||
	    !fib_result_name(t->v[0]) || (t->v[1] & ~((1u << 5) - 1)))
		return NULL;
	return fib_expr_alloc(&internal_location, t->v[1], t->v[0]);
}

static const struct expr_ops fib_ops = {
	.name		= "fib",
	.nl_name	= "fib",
	.kind		= EXPR_FIB,
	.eval		= fib_eval,
	.linearize	= fib_linearize,
	.delinearize	= fib_delinearize,
	.print		= fib_print,
	.json		= fib_json,
	.parse_json	= fib_parse_json,
	.typeof_kind	= TYPEOF_KIND_FIB,
	.typeof_recs	= 2,
	.typeof_ok	= fib_typeof_ok,
	.typeof_put	= fib_typeof_put,
	.typeof_parse	= fib_typeof_parse,
};
EXPR_OPS_REGISTER(fib_ops);
