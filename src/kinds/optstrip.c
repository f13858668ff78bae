// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * reset tcp option NAME|KIND: the option is overwritten with nops (the
 * kernel's "exthdr" with neither register).  Its only field is the kind of
 * the tcp option.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include <libnftnl/expr.h>
#include <linux/netfilter/nf_tables.h>

#include <kind.h>
#include <proto.h>
#include <exthdr.h>

struct optstrip {
	uint32_t	type;	/* the tcp option kind */
};
_Static_assert(sizeof(struct optstrip) <= sizeof(((struct stmt *)0)->priv),
	       "optstrip fields fit in struct stmt");

static const struct stmt_ops optstrip_ops;

static struct stmt *optstrip_alloc(const struct location *loc, uint32_t type)
{
	struct stmt *s = ops_stmt_alloc(loc, &optstrip_ops);
	struct optstrip *o = stmt_priv(s);

	o->type = type;
	return s;
}

/*
 * the grammar's words: the protocol, and the option's name, or else its
 * kind as a decimal number
 */
static struct stmt *optstrip_parse(const struct location *loc,
				   const struct kind_word *w, unsigned int n,
				   struct list_head *msgs)
{
	const struct exthdr_desc *d;
	unsigned long long kind;

	if (strcmp(w[0].w, "tcp")) {
		error_queue(msgs, w[0].loc, "only tcp options can be reset, not %s",
			    w[0].w);
		return NULL;
	}
	if (w[1].w) {
		d = exthdr_lookup(NFT_EXTHDR_OP_TCPOPT, w[1].w);
		if (!d) {
			error_queue(msgs, w[1].loc, "unknown tcp option \"%s\"",
				    w[1].w);
			return NULL;
		}
		return optstrip_alloc(loc, d->type);
	}
	kind = strtoull(w[2].w, NULL, 10);
	if (kind > UINT8_MAX) {
		error_queue(msgs, w[2].loc, "tcp option kind %llu is out of range: 255 at most",
			    kind);
		return NULL;
	}
	return optstrip_alloc(loc, kind);
}

static int optstrip_linearize(struct kind_lin *k, const struct stmt *s)
{
	const struct optstrip *o = stmt_priv(s);
	/* no register: the kernel's exthdr then strips the option */
	struct nftnl_expr *x = k->add(k, "exthdr");

	nftnl_expr_set_u8(x, NFTNL_EXPR_EXTHDR_TYPE, o->type);
	nftnl_expr_set_u32(x, NFTNL_EXPR_EXTHDR_OP, NFT_EXTHDR_OP_TCPOPT);
	return 0;
}

/* an exthdr with neither register (the delinearizer's exthdr asks) */
static void optstrip_delinearize(struct kind_delin *k,
				 const struct nftnl_expr *nle)
{
	if (!nftnl_expr_is_set(nle, NFTNL_EXPR_EXTHDR_TYPE) ||
	    !nftnl_expr_is_set(nle, NFTNL_EXPR_EXTHDR_OP) ||
	    nftnl_expr_get_u32(nle, NFTNL_EXPR_EXTHDR_OP) != NFT_EXTHDR_OP_TCPOPT) {
		k->unsupported(k, "exthdr");
		return;
	}
	k->add_stmt(k, optstrip_alloc(&internal_location,
		nftnl_expr_get_u8(nle, NFTNL_EXPR_EXTHDR_TYPE)));
}

static void optstrip_print(struct kind_print *k, const struct stmt *s)
{
	const struct optstrip *o = stmt_priv(s);
	const struct exthdr_desc *d = exthdr_by_type(NFT_EXTHDR_OP_TCPOPT,
						     o->type);

	if (d)
		fprintf(k->f, "reset tcp option %s", d->name);
	else
		fprintf(k->f, "reset tcp option %u", o->type);
}

/* an unnamed option is written as nft writes a raw one */
static json_t *optstrip_json(struct kind_json *k, const struct stmt *s)
{
	const struct optstrip *opt = stmt_priv(s);
	const struct exthdr_desc *d = exthdr_by_type(NFT_EXTHDR_OP_TCPOPT,
						     opt->type);
	json_t *o;

	if (d) {
		o = kind_json_wrap("name", json_string(d->name));
	} else {
		o = kind_json_wrap("base", json_integer(opt->type));
		o = kind_json_set(o, "offset", json_integer(0));
		o = kind_json_set(o, "len", json_integer(0));
	}
	return kind_json_wrap("reset", kind_json_wrap("tcp option", o));
}

/*
 * { "reset": { "tcp option": { "name": N } } }, or an unnamed kind as
 * { "base": KIND, "offset": 0, "len": 0 }
 */
static struct stmt *optstrip_parse_json(struct kind_jparse *k,
					const char *key, json_t *o,
					const struct location *loc)
{
	static const char *const keys[] = { "name", "base", "offset", "len", NULL };
	const struct exthdr_desc *d;
	uint64_t kind, off, len;
	const char *name;
	json_t *t = json_is_object(o) ? json_object_get(o, "tcp option") : NULL;

	if (!json_is_object(t) || json_object_size(o) != 1)
		return k->error(k, o, "reset: expected { \"tcp option\": ... }"), NULL;
	if (k->check_keys(k, t, "tcp option", keys) < 0)
		return NULL;
	if (json_object_get(t, "name")) {
		name = k->get_str(k, t, "name", true);
		if (!name)
			return NULL;
		d = exthdr_lookup(NFT_EXTHDR_OP_TCPOPT, name);
		if (!d)
			return k->error(k, json_object_get(t, "name"),
					"unknown tcp option \"%s\"", name), NULL;
		kind = d->type;
	} else if (k->get_u64(k, t, "base", &kind) != 1 || kind > UINT8_MAX ||
		   k->get_u64(k, t, "offset", &off) != 1 || off ||
		   k->get_u64(k, t, "len", &len) != 1 || len) {
		return k->error(k, t, "tcp option: expected a name, or a base of 0 to 255 with offset and len 0"), NULL;
	}
	return optstrip_alloc(loc, kind);
}

static const struct stmt_ops optstrip_ops = {
	.name		= "reset",
	.kind		= STMT_OPS,
	.parse		= optstrip_parse,
	.linearize	= optstrip_linearize,
	.delinearize	= optstrip_delinearize,
	.print		= optstrip_print,
	.json		= optstrip_json,
	.parse_json	= optstrip_parse_json,
	.not_offered	= true,	/* the shell's completion never offered it */
};
STMT_OPS_REGISTER(optstrip_ops);
