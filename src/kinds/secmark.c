// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * secmark: a named object that holds an SELinux (or other LSM) security
 * context; "meta secmark set NAME" gives a packet its security ID.  The
 * grammar's secmark block fills o->secmark (the last context counts).
 */
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include <libnftnl/object.h>
#include <linux/netfilter/nf_tables.h>

#include <kind.h>
#include <datatype.h>
#include <nlalloc.h>
#include <rule.h>

static int secmark_parse_json(struct kind_jparse *k, json_t *o, struct obj *ob)
{
	const char *c = k->get_str(k, o, "context", true);

	if (!c)
		return -1;
	ob->secmark.ctx = xstrdup(c);
	ob->secmark.loc = k->loc(k, json_object_get(o, "context"));
	return 0;
}

/* a context, and one that lists back (SECMARK_CTX_BUF) */
static int secmark_eval(struct kind_eval *k, struct obj *o)
{
	if (!o->secmark.ctx || !*o->secmark.ctx)
		return error_queue(k->msgs, o->secmark.ctx ? &o->secmark.loc : &o->loc,
				   "secmark %s needs a security context: secmark %s { \"system_u:object_r:ssh_server_packet_t:s0\" }",
				   o->h.obj, o->h.obj);
	if (strlen(o->secmark.ctx) > SECMARK_CTX_BUF - 2)
		return error_queue(k->msgs, &o->secmark.loc,
				   "secmark context is too long, %u characters at most",
				   SECMARK_CTX_BUF - 2);
	return 0;
}

static void secmark_linearize(struct kind_lin *k, struct nftnl_obj *nlo,
			      const struct obj *ob)
{
	xnftnl_obj_set_str(nlo, NFTNL_OBJ_SECMARK_CTX, ob->secmark.ctx);
}

/* as nft: the context in quotes, as it is */
static void secmark_print(struct kind_print *k, struct nftnl_obj *nlo)
{
	const char *c = nftnl_obj_get_str(nlo, NFTNL_OBJ_SECMARK_CTX);

	kind_obj_line(k);
	quoted_print(k->f, c ? c : "");
	kind_obj_eol(k, false);
}

static void secmark_json(struct kind_json *k, json_t *o, struct nftnl_obj *nlo)
{
	const char *c = nftnl_obj_get_str(nlo, NFTNL_OBJ_SECMARK_CTX);

	json_object_set_new(o, "context", json_string(c ? c : ""));
}

static const char *const secmark_json_keys[] = { "context", NULL };

static const struct obj_ops secmark_ops = {
	.type		= NFT_OBJECT_SECMARK,
	.name		= "secmark",
	.plural		= "secmarks",
	.json_keys	= secmark_json_keys,
	.parse_json	= secmark_parse_json,
	.eval		= secmark_eval,
	.linearize	= secmark_linearize,
	.print		= secmark_print,
	.json		= secmark_json,
};
OBJ_OPS_REGISTER(secmark_ops);
