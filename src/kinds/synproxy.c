// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * synproxy [mss N] [wscale N] [timestamp] [sack-perm]: the kernel's
 * "synproxy".  A synproxy object keeps the same fields, so STMT_SYNPROXY
 * and its fields stay in struct stmt; the JSON of the values is shared with
 * the objects' listing and reader from here.
 */
#include <string.h>
#include <jansson.h>
#include <libnftnl/expr.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/netfilter/nf_synproxy.h>

#include <kind.h>
#include <rule.h>
#include <libnftnl/object.h>
#include <synproxy.h>

json_t *synproxy_json_values(uint32_t fl, uint16_t mss, uint8_t wscale,
			     bool obj)
{
	json_t *o = json_object(), *a = json_array();

	if (obj || (fl & NF_SYNPROXY_OPT_MSS))
		json_object_set_new(o, "mss", json_integer(mss));
	if (obj || (fl & NF_SYNPROXY_OPT_WSCALE))
		json_object_set_new(o, "wscale", json_integer(wscale));
	if (fl & NF_SYNPROXY_OPT_TIMESTAMP)
		json_array_append_new(a, json_string("timestamp"));
	if (fl & NF_SYNPROXY_OPT_SACK_PERM)
		json_array_append_new(a, json_string("sack-perm"));
	if (json_array_size(a))
		json_object_set_new(o, "flags", a);
	else
		json_decref(a);
	return o;
}

struct stmt *synproxy_json_args(struct kind_jparse *k, json_t *o,
				const struct location *loc)
{
	json_t *fl = json_object_get(o, "flags"), *v;
	struct stmt *s = stmt_alloc(loc, STMT_SYNPROXY);
	uint64_t n;
	size_t i;
	int r;

	if ((r = k->get_u64(k, o, "mss", &n)) < 0)
		goto fail;
	if (r && n > UINT16_MAX) {
		k->error(k, json_object_get(o, "mss"), "synproxy: mss %llu is out of range",
			 (unsigned long long)n);
		goto fail;
	}
	if (r) {
		s->synproxy.mss = n;
		s->synproxy.flags |= NF_SYNPROXY_OPT_MSS;
	}
	if ((r = k->get_u64(k, o, "wscale", &n)) < 0)
		goto fail;
	if (r && n > UINT8_MAX) {
		k->error(k, json_object_get(o, "wscale"), "synproxy: wscale %llu is out of range",
			 (unsigned long long)n);
		goto fail;
	}
	if (r) {
		s->synproxy.wscale = n;
		s->synproxy.flags |= NF_SYNPROXY_OPT_WSCALE;
	}
	if (fl && json_is_string(fl)) {
		fl = json_pack("[O]", fl);
	} else if (fl && !json_is_array(fl)) {
		k->error(k, fl, "synproxy: \"flags\" must be an array");
		goto fail;
	} else {
		json_incref(fl);
	}
	json_array_foreach(fl, i, v) {
		const char *f = json_is_string(v) ? json_string_value(v) : "";

		if (!strcmp(f, "timestamp")) {
			s->synproxy.flags |= NF_SYNPROXY_OPT_TIMESTAMP;
		} else if (!strcmp(f, "sack-perm")) {
			s->synproxy.flags |= NF_SYNPROXY_OPT_SACK_PERM;
		} else {
			k->error(k, v, "synproxy: unknown flag, expected \"timestamp\" or \"sack-perm\"");
			json_decref(fl);
			goto fail;
		}
	}
	json_decref(fl);
	return s;
fail:
	stmt_free(s);
	return NULL;
}

/* as nft: every value, and flags for those given */
static int synproxy_linearize(struct kind_lin *k, const struct stmt *s)
{
	struct nftnl_expr *e = k->add(k, "synproxy");

	nftnl_expr_set_u16(e, NFTNL_EXPR_SYNPROXY_MSS, s->synproxy.mss);
	nftnl_expr_set_u8(e, NFTNL_EXPR_SYNPROXY_WSCALE, s->synproxy.wscale);
	nftnl_expr_set_u32(e, NFTNL_EXPR_SYNPROXY_FLAGS, s->synproxy.flags);
	return 0;
}

static void synproxy_delinearize(struct kind_delin *k,
				 const struct nftnl_expr *nle)
{
	struct stmt *s = stmt_alloc(&internal_location, STMT_SYNPROXY);

	s->synproxy.mss = nftnl_expr_get_u16(nle, NFTNL_EXPR_SYNPROXY_MSS);
	s->synproxy.wscale = nftnl_expr_get_u8(nle, NFTNL_EXPR_SYNPROXY_WSCALE);
	s->synproxy.flags = nftnl_expr_get_u32(nle, NFTNL_EXPR_SYNPROXY_FLAGS);
	k->add_stmt(k, s);
}

/* as nft: both values when either was given */
static void synproxy_print(struct kind_print *k, const struct stmt *s)
{
	FILE *f = k->f;

	fprintf(f, "synproxy");
	if (s->synproxy.flags & (NF_SYNPROXY_OPT_MSS | NF_SYNPROXY_OPT_WSCALE))
		fprintf(f, " mss %u wscale %u", s->synproxy.mss, s->synproxy.wscale);
	if (s->synproxy.flags & NF_SYNPROXY_OPT_TIMESTAMP)
		fprintf(f, " timestamp");
	if (s->synproxy.flags & NF_SYNPROXY_OPT_SACK_PERM)
		fprintf(f, " sack-perm");
}

/* a bare synproxy is {"synproxy": null} */
static json_t *synproxy_json(struct kind_json *k, const struct stmt *s)
{
	json_t *o = synproxy_json_values(s->synproxy.flags, s->synproxy.mss,
					 s->synproxy.wscale, false);

	if (!json_object_size(o)) {
		json_decref(o);
		o = json_null();
	}
	return kind_json_wrap("synproxy", o);
}

/* null, the values, or a named synproxy ("s1", a map) */
static struct stmt *synproxy_parse_json(struct kind_jparse *k, const char *key,
					json_t *v, const struct location *loc)
{
	static const char *const keys[] = { "mss", "wscale", "flags", NULL };

	if (json_is_string(v) || json_is_object(json_object_get(v, "map")))
		return k->objref(k, NFT_OBJECT_SYNPROXY, v, loc);
	if (json_is_null(v))
		return stmt_alloc(loc, STMT_SYNPROXY);
	if (!json_is_object(v))
		return k->error(k, v, "synproxy: expected null, a name, an object or { \"map\": ... }"), NULL;
	if (k->check_keys(k, v, "synproxy", keys) < 0)
		return NULL;
	return synproxy_json_args(k, v, loc);
}

static const struct stmt_ops synproxy_ops = {
	.name		= "synproxy",
	.nl_name	= "synproxy",
	.kind		= STMT_SYNPROXY,
	.linearize	= synproxy_linearize,
	.delinearize	= synproxy_delinearize,
	.print		= synproxy_print,
	.json		= synproxy_json,
	.parse_json	= synproxy_parse_json,
	.not_offered	= true,	/* the shell's completion never offered it */
};
STMT_OPS_REGISTER(synproxy_ops);

/* --- the named synproxy object: its values in ob->stmt, a synproxy's --- */

static int synproxy_obj_parse_json(struct kind_jparse *k, json_t *o,
				   struct obj *ob)
{
	struct location loc = k->loc(k, o);

	ob->stmt = synproxy_json_args(k, o, &loc);
	return ob->stmt ? 0 : -1;
}

static void synproxy_obj_linearize(struct kind_lin *k, struct nftnl_obj *nlo,
				   const struct obj *ob)
{
	const struct stmt *s = ob->stmt;

	nftnl_obj_set_u16(nlo, NFTNL_OBJ_SYNPROXY_MSS, s->synproxy.mss);
	nftnl_obj_set_u8(nlo, NFTNL_OBJ_SYNPROXY_WSCALE, s->synproxy.wscale);
	nftnl_obj_set_u32(nlo, NFTNL_OBJ_SYNPROXY_FLAGS, s->synproxy.flags);
}

/* a line each for mss, wscale and the flags if any; nft's spacing of
   those: "timestamp sack-perm", " sack-perm", "timestamp " */
static void synproxy_obj_print(struct kind_print *k, struct nftnl_obj *nlo)
{
	uint32_t fl = nftnl_obj_get_u32(nlo, NFTNL_OBJ_SYNPROXY_FLAGS);
	bool any = fl & (NF_SYNPROXY_OPT_TIMESTAMP | NF_SYNPROXY_OPT_SACK_PERM);

	kind_obj_line(k);
	fprintf(k->f, "mss %u", nftnl_obj_get_u16(nlo, NFTNL_OBJ_SYNPROXY_MSS));
	kind_obj_eol(k, false);
	kind_obj_line(k);
	fprintf(k->f, "wscale %u",
		nftnl_obj_get_u8(nlo, NFTNL_OBJ_SYNPROXY_WSCALE));
	kind_obj_eol(k, !any);
	if (any) {
		kind_obj_line(k);
		fprintf(k->f, "%s %s",
			fl & NF_SYNPROXY_OPT_TIMESTAMP ? "timestamp" : "",
			fl & NF_SYNPROXY_OPT_SACK_PERM ? "sack-perm" : "");
		kind_obj_eol(k, true);
	}
}

static void synproxy_obj_json(struct kind_json *k, json_t *o,
			      struct nftnl_obj *nlo)
{
	json_t *v = synproxy_json_values(nftnl_obj_get_u32(nlo, NFTNL_OBJ_SYNPROXY_FLAGS),
					 nftnl_obj_get_u16(nlo, NFTNL_OBJ_SYNPROXY_MSS),
					 nftnl_obj_get_u8(nlo, NFTNL_OBJ_SYNPROXY_WSCALE),
					 true);

	json_object_update(o, v);
	json_decref(v);
}

static const char *const synproxy_obj_json_keys[] = {
	"mss", "wscale", "flags", NULL,
};

static const struct obj_ops synproxy_obj_ops = {
	.type		= NFT_OBJECT_SYNPROXY,
	.name		= "synproxy",
	.plural		= "synproxys",
	.json_keys	= synproxy_obj_json_keys,
	.parse_json	= synproxy_obj_parse_json,
	.linearize	= synproxy_obj_linearize,
	.print		= synproxy_obj_print,
	.json		= synproxy_obj_json,
};
OBJ_OPS_REGISTER(synproxy_obj_ops);
