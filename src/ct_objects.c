// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The conntrack objects: ct helper, ct timeout and ct expectation.  They
 * are three object types in one file because they share their input: the
 * grammar's one ct object block fills the same fields of struct obj for
 * all three (o->helper's protocols, o->timeout, o->expect; eval says which
 * belong to which type), JSON gives them the same "protocol" and
 * "l3proto", and a listing names both protocols alike.
 */
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <jansson.h>
#include <libnftnl/object.h>
#include <linux/netfilter/nf_tables.h>

#include <kind.h>
#include <datatype.h>
#include <nlalloc.h>
#include <proto.h>
#include <rule.h>

/* --- what the three share ------------------------------------------------ */

/* "protocol" (tcp or udp, required) and "l3proto" (a family, optional) */
static int ct_l3l4_parse_json(struct kind_jparse *k, json_t *o, struct obj *ob)
{
	const char *proto = k->get_str(k, o, "protocol", true);
	const char *l3 = k->get_str(k, o, "l3proto", false);
	int f;

	if (!proto)
		return -1;
	ob->helper.l4_loc = k->loc(k, json_object_get(o, "protocol"));
	ob->helper.l4proto = !strcmp(proto, "tcp") ? IPPROTO_TCP :
			     !strcmp(proto, "udp") ? IPPROTO_UDP : 0;
	if (!ob->helper.l4proto)
		return k->error(k, json_object_get(o, "protocol"),
				"unknown layer 4 protocol \"%s\"", proto);
	if (!l3)
		return 0;
	f = family_lookup(l3);
	if (f < 0)
		return k->error(k, json_object_get(o, "l3proto"),
				"unknown address family \"%s\"", l3);
	ob->helper.l3proto = f;
	return 0;
}

/* a listed layer 4 protocol: its name, or its number */
static void ct_l4_print(FILE *f, uint8_t l4)
{
	if (l4 == IPPROTO_TCP)
		fprintf(f, "tcp");
	else if (l4 == IPPROTO_UDP)
		fprintf(f, "udp");
	else
		fprintf(f, "%u", l4);
}

static json_t *ct_l4_json(uint8_t l4)
{
	if (l4 == IPPROTO_TCP)
		return json_string("tcp");
	if (l4 == IPPROTO_UDP)
		return json_string("udp");
	return json_integer(l4);
}

/* a listed object's l3proto attribute @attr: the table's if it gave none */
static uint16_t ct_l3proto(struct nftnl_obj *n, uint16_t attr)
{
	if (nftnl_obj_is_set(n, attr))
		return nftnl_obj_get_u16(n, attr);
	return nftnl_obj_get_u32(n, NFTNL_OBJ_FAMILY);
}

/* the block may have filled any of the fields, whichever the type */
static void ct_obj_destroy(struct obj *ob)
{
	free(ob->helper.name);
	for (unsigned int i = 0; i < ob->timeout.n; i++)
		free(ob->timeout.policy[i].state);
	free(ob->timeout.policy);
}

/* --- ct helper ----------------------------------------------------------- */

static int ct_helper_parse_json(struct kind_jparse *k, json_t *o, struct obj *ob)
{
	const char *type = k->get_str(k, o, "type", true);
	int ret = ct_l3l4_parse_json(k, o, ob);

	if (!type)
		return -1;
	ob->helper.name = xstrdup(type);
	ob->helper.name_loc = k->loc(k, json_object_get(o, "type"));
	return ret;
}

static int ct_helper_eval(struct kind_eval *k, struct obj *o)
{
	if (o->timeout.l4_given || o->timeout.n)
		return error_queue(k->msgs, &o->loc,
				   "ct helper %s takes \"type NAME protocol P\" and \"l3proto F\" only",
				   o->h.obj);
	if (!o->helper.name)
		return error_queue(k->msgs, &o->loc,
				   "ct helper %s needs a type: type \"ftp\" protocol tcp",
				   o->h.obj);
	if (strlen(o->helper.name) >= 16)
		return error_queue(k->msgs, &o->helper.name_loc,
				   "ct helper type \"%s\" is too long, 15 characters at most",
				   o->helper.name);
	return 0;
}

static void ct_helper_linearize(struct kind_lin *k, struct nftnl_obj *o,
				const struct obj *ob)
{
	xnftnl_obj_set_str(o, NFTNL_OBJ_CT_HELPER_NAME, ob->helper.name);
	/* l3proto only when given: the kernel takes the table's */
	if (ob->helper.l3proto)
		nftnl_obj_set_u16(o, NFTNL_OBJ_CT_HELPER_L3PROTO,
				  ob->helper.l3proto);
	nftnl_obj_set_u8(o, NFTNL_OBJ_CT_HELPER_L4PROTO, ob->helper.l4proto);
}

static void ct_helper_print(struct kind_print *k, struct nftnl_obj *n)
{
	const char *name = nftnl_obj_get_str(n, NFTNL_OBJ_CT_HELPER_NAME);

	kind_obj_line(k);
	fputs("type ", k->f);
	quoted_print(k->f, name ? name : "");
	fputs(" protocol ", k->f);
	ct_l4_print(k->f, nftnl_obj_get_u8(n, NFTNL_OBJ_CT_HELPER_L4PROTO));
	kind_obj_eol(k, true);
	kind_obj_line(k);
	fprintf(k->f, "l3proto %s",
		family_name(ct_l3proto(n, NFTNL_OBJ_CT_HELPER_L3PROTO)));
	kind_obj_eol(k, true);
}

static void ct_helper_json(struct kind_json *k, json_t *o, struct nftnl_obj *n)
{
	const char *h = nftnl_obj_get_str(n, NFTNL_OBJ_CT_HELPER_NAME);

	json_object_set_new(o, "type", json_string(h ? h : ""));
	json_object_set_new(o, "protocol", ct_l4_json(
		nftnl_obj_get_u8(n, NFTNL_OBJ_CT_HELPER_L4PROTO)));
	json_object_set_new(o, "l3proto", json_string(family_name(
		ct_l3proto(n, NFTNL_OBJ_CT_HELPER_L3PROTO))));
}

static const char *const ct_helper_json_keys[] = {
	"type", "protocol", "l3proto", NULL
};

static const struct obj_ops ct_helper_ops = {
	.type		= NFT_OBJECT_CT_HELPER,
	.name		= "ct helper",
	.json_keys	= ct_helper_json_keys,
	.parse_json	= ct_helper_parse_json,
	.eval		= ct_helper_eval,
	.linearize	= ct_helper_linearize,
	.print		= ct_helper_print,
	.json		= ct_helper_json,
	.destroy	= ct_obj_destroy,
};
OBJ_OPS_REGISTER(ct_helper_ops);
