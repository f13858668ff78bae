// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The conntrack objects: ct helper, ct timeout and ct expectation.  They
 * are three object types in one file because they share their input: the
 * grammar's one ct object block fills the same fields of struct obj for
 * all three (o->helper's protocols, o->timeout, o->expect; eval says which
 * belong to which type), JSON gives them the same "protocol" and
 * "l3proto", and a listing names both protocols alike.
 */
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <jansson.h>
#include <libnftnl/object.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>

#include <kind.h>
#include <datatype.h>
#include <nlalloc.h>
#include <proto.h>
#include <rule.h>
#include <ct.h>

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
	ob->helper.l3_loc = k->loc(k, json_object_get(o, "l3proto"));
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
};
OBJ_OPS_REGISTER(ct_helper_ops);

/* --- ct timeout ---------------------------------------------------------- */

/* "policy": null or { "state": seconds, ... }; eval checks the states */
static int ct_timeout_parse_json(struct kind_jparse *k, json_t *o, struct obj *ob)
{
	json_t *pol = json_object_get(o, "policy"), *v;
	const char *state;

	ob->timeout.l4_given = true;
	if (ct_l3l4_parse_json(k, o, ob) < 0)
		return -1;
	if (!pol || json_is_null(pol))
		return 0;
	if (!json_is_object(pol))
		return k->error(k, pol, "ct timeout: \"policy\" must be an object");
	json_object_foreach(pol, state, v) {
		struct obj_policy *p;

		if (!json_is_integer(v) || json_integer_value(v) < 0)
			return k->error(k, v, "ct timeout: the timeout of \"%s\" must be a number",
					state);
		ob->timeout.policy = xrealloc(ob->timeout.policy,
					      (ob->timeout.n + 1) * sizeof(*p));
		p = &ob->timeout.policy[ob->timeout.n++];
		p->state = xstrdup(state);
		p->value = json_integer_value(v);
		p->loc = k->loc(k, v);
	}
	return 0;
}

/* the states of the policy: known to the protocol, and seconds in 32 bits */
static int ct_timeout_eval(struct kind_eval *k, struct obj *o)
{
	uint8_t l4 = o->helper.l4proto;

	if (o->helper.name)
		return error_queue(k->msgs, &o->helper.name_loc,
				   "ct timeout %s has no type: protocol tcp, l3proto ip, policy = { ... }",
				   o->h.obj);
	if (l4 && !ct_timeout_nstates(l4))
		return error_queue(k->msgs, &o->helper.l4_loc,
				   "ct timeout protocol must be tcp or udp");
	for (unsigned int i = 0; i < o->timeout.n; i++) {
		const struct obj_policy *p = &o->timeout.policy[i];

		if (ct_timeout_state_lookup(l4, p->state) < 0)
			return error_queue(k->msgs, &p->loc,
					   "invalid state for this protocol");
		if (p->value > UINT32_MAX)
			return error_queue(k->msgs, &p->loc,
					   "timeout of \"%s\" is too large", p->state);
	}
	return 0;
}

/*
 * every state of the protocol goes to the kernel, the default where the
 * policy names none; l3proto only when given (the kernel takes the table's)
 */
static void ct_timeout_linearize(struct kind_lin *k, struct nftnl_obj *o,
				 const struct obj *ob)
{
	uint32_t tmo[NFTNL_CTTIMEOUT_ARRAY_MAX] = { 0 };
	uint8_t l4 = ob->helper.l4proto;

	for (unsigned int i = 0; i < ct_timeout_nstates(l4); i++)
		tmo[i] = ct_timeout_default(l4, i);
	for (unsigned int i = 0; i < ob->timeout.n; i++)
		tmo[ct_timeout_state_lookup(l4, ob->timeout.policy[i].state)] =
			ob->timeout.policy[i].value;
	if (ob->helper.l3proto)
		nftnl_obj_set_u16(o, NFTNL_OBJ_CT_TIMEOUT_L3PROTO, ob->helper.l3proto);
	nftnl_obj_set_u8(o, NFTNL_OBJ_CT_TIMEOUT_L4PROTO, l4);
	xnftnl_obj_set_data(o, NFTNL_OBJ_CT_TIMEOUT_ARRAY, tmo, sizeof(tmo));
}

/*
 * The kernel keeps the l3proto of a ct timeout that gave none as the
 * table's family; the offline model leaves it unset.
 */
static uint16_t ct_timeout_l3proto(struct nftnl_obj *n)
{
	if (nftnl_obj_is_set(n, NFTNL_OBJ_CT_TIMEOUT_L3PROTO))
		return nftnl_obj_get_u16(n, NFTNL_OBJ_CT_TIMEOUT_L3PROTO);
	return nftnl_obj_get_u32(n, NFTNL_OBJ_FAMILY);
}

/* the timeout of state @i, if it is not the default */
static bool ct_timeout_state(struct nftnl_obj *n, unsigned int i, uint32_t *v)
{
	uint8_t l4 = nftnl_obj_get_u8(n, NFTNL_OBJ_CT_TIMEOUT_L4PROTO);
	const uint32_t *tmo;
	uint32_t len = 0;

	if (!nftnl_obj_is_set(n, NFTNL_OBJ_CT_TIMEOUT_ARRAY))
		return false;
	tmo = nftnl_obj_get_data(n, NFTNL_OBJ_CT_TIMEOUT_ARRAY, &len);
	if (!tmo || i >= ct_timeout_nstates(l4) || (i + 1) * sizeof(*tmo) > len ||
	    tmo[i] == ct_timeout_default(l4, i))
		return false;
	*v = tmo[i];
	return true;
}

static void ct_timeout_print(struct kind_print *k, struct nftnl_obj *n)
{
	uint8_t l4 = nftnl_obj_get_u8(n, NFTNL_OBJ_CT_TIMEOUT_L4PROTO);
	const char *sep = "";
	uint32_t v;

	kind_obj_line(k);
	fprintf(k->f, "protocol %s", l4 == IPPROTO_TCP ? "tcp" : "udp");
	kind_obj_eol(k, true);
	kind_obj_line(k);
	fprintf(k->f, "l3proto %s", family_name(ct_timeout_l3proto(n)));
	kind_obj_eol(k, true);
	kind_obj_line(k);
	fprintf(k->f, "policy = { ");
	for (unsigned int i = 0; i < ct_timeout_nstates(l4); i++) {
		if (!ct_timeout_state(n, i, &v))
			continue;
		fprintf(k->f, "%s%s : %u", sep, ct_timeout_state_name(l4, i), v);
		sep = ", ";
	}
	fprintf(k->f, " }");
	kind_obj_eol(k, true);
}

/* as nft: "policy" is null when every state has its default */
static void ct_timeout_json(struct kind_json *k, json_t *o, struct nftnl_obj *n)
{
	uint8_t l4 = nftnl_obj_get_u8(n, NFTNL_OBJ_CT_TIMEOUT_L4PROTO);
	json_t *p = json_object();
	uint32_t v;

	json_object_set_new(o, "protocol", json_string(l4 == IPPROTO_TCP ? "tcp" : "udp"));
	json_object_set_new(o, "l3proto", json_string(family_name(ct_timeout_l3proto(n))));
	for (unsigned int i = 0; i < ct_timeout_nstates(l4); i++)
		if (ct_timeout_state(n, i, &v))
			json_object_set_new(p, ct_timeout_state_name(l4, i), json_integer(v));
	if (!json_object_size(p)) {
		json_decref(p);
		p = json_null();
	}
	json_object_set_new(o, "policy", p);
}

static const char *const ct_timeout_json_keys[] = {
	"protocol", "l3proto", "policy", NULL
};

static const struct obj_ops ct_timeout_ops = {
	.type		= NFT_OBJECT_CT_TIMEOUT,
	.name		= "ct timeout",
	.json_keys	= ct_timeout_json_keys,
	.parse_json	= ct_timeout_parse_json,
	.eval		= ct_timeout_eval,
	.linearize	= ct_timeout_linearize,
	.print		= ct_timeout_print,
	.json		= ct_timeout_json,
};
OBJ_OPS_REGISTER(ct_timeout_ops);

/* --- ct expectation ------------------------------------------------------ */

/* "protocol", "dport", "timeout" (ms), "size" and "l3proto"; eval checks them */
static int ct_expect_parse_json(struct kind_jparse *k, json_t *o, struct obj *ob)
{
	static const struct {
		const char	*key;
		unsigned int	flag;
		size_t		off;
	} num[] = {
		{ "dport", OBJ_EXPECT_DPORT, offsetof(struct obj, expect.dport) },
		{ "timeout", OBJ_EXPECT_TIMEOUT, offsetof(struct obj, expect.timeout) },
		{ "size", OBJ_EXPECT_SIZE, offsetof(struct obj, expect.size) },
	};

	ob->timeout.l4_given = true;
	if (ct_l3l4_parse_json(k, o, ob) < 0)
		return -1;
	for (unsigned int i = 0; i < array_size(num); i++) {
		json_t *v = json_object_get(o, num[i].key);

		if (!v)
			continue;
		if (!json_is_integer(v) || json_integer_value(v) < 0)
			return k->error(k, v, "ct expectation: \"%s\" must be a number",
					num[i].key);
		*(uint64_t *)((char *)ob + num[i].off) = json_integer_value(v);
		ob->expect.given |= num[i].flag;
	}
	ob->expect.dport_loc = k->loc(k, json_object_get(o, "dport"));
	ob->expect.timeout_loc = k->loc(k, json_object_get(o, "timeout"));
	ob->expect.size_loc = k->loc(k, json_object_get(o, "size"));
	return 0;
}

/*
 * The kernel's expectations are of ip or ip6 (nft_ct_expect_obj_init()):
 * the l3proto given, or the table's family; one of the other family than
 * the table's only in an inet table.  It answers EAFNOSUPPORT or EINVAL
 * otherwise, as the offline model would not: told here.
 */
static int ct_expect_l3_eval(struct kind_eval *k, struct obj *o)
{
	unsigned int l3 = o->helper.l3proto ? o->helper.l3proto : k->family;
	const struct location *at = o->helper.l3proto ? &o->helper.l3_loc :
				    &o->loc;

	if (k->family != NFPROTO_IPV4 && k->family != NFPROTO_IPV6 &&
	    k->family != NFPROTO_INET)
		return error_queue(k->msgs, &o->loc,
				   "ct expectations are for tables of the ip, ip6 and inet families, not %s",
				   family_name(k->family));
	if (l3 == NFPROTO_INET)
		return error_queue(k->msgs, at,
				   "a ct expectation in an inet table needs \"l3proto ip\" or \"l3proto ip6\": an expectation is of one of them");
	if (l3 != NFPROTO_IPV4 && l3 != NFPROTO_IPV6)
		return error_queue(k->msgs, at,
				   "a ct expectation's l3proto is ip or ip6, not %s",
				   family_name(l3));
	if (l3 != k->family && k->family != NFPROTO_INET)
		return error_queue(k->msgs, at,
				   "l3proto %s in a table of family %s: only an inet table takes the other family's expectations",
				   family_name(l3), family_name(k->family));
	return 0;
}

/*
 * As nft: protocol tcp or udp, a dport, a timeout and a size, none of them
 * 0, or "missing options"; the values must fit the kernel's attributes
 */
static int ct_expect_eval(struct kind_eval *k, struct obj *o)
{
	const unsigned int all = OBJ_EXPECT_DPORT | OBJ_EXPECT_TIMEOUT | OBJ_EXPECT_SIZE;
	uint8_t l4 = o->helper.l4proto;

	if (o->helper.name || o->timeout.n)
		return error_queue(k->msgs, &o->loc,
				   "ct expectation %s takes protocol, dport, timeout, size and l3proto only",
				   o->h.obj);
	if (l4 && l4 != IPPROTO_TCP && l4 != IPPROTO_UDP)
		return error_queue(k->msgs, &o->helper.l4_loc,
				   "ct expectation protocol must be tcp or udp");
	if ((o->expect.given & all) != all || !l4 || !o->expect.dport ||
	    !o->expect.timeout || !o->expect.size)
		return error_queue(k->msgs, &o->loc, "missing options");
	if (o->expect.dport > UINT16_MAX)
		return error_queue(k->msgs, &o->expect.dport_loc,
				   "dport %" PRIu64 " is out of range",
				   o->expect.dport);
	if (o->expect.timeout > UINT32_MAX)
		return error_queue(k->msgs, &o->expect.timeout_loc,
				   "timeout is too large");
	if (o->expect.size > UINT8_MAX)
		return error_queue(k->msgs, &o->expect.size_loc,
				   "size %" PRIu64 " is out of range",
				   o->expect.size);
	return ct_expect_l3_eval(k, o);
}

static void ct_expect_linearize(struct kind_lin *k, struct nftnl_obj *o,
				const struct obj *ob)
{
	/* l3proto only when given: the kernel takes the table's */
	if (ob->helper.l3proto)
		nftnl_obj_set_u16(o, NFTNL_OBJ_CT_EXPECT_L3PROTO, ob->helper.l3proto);
	nftnl_obj_set_u8(o, NFTNL_OBJ_CT_EXPECT_L4PROTO, ob->helper.l4proto);
	nftnl_obj_set_u16(o, NFTNL_OBJ_CT_EXPECT_DPORT, ob->expect.dport);
	nftnl_obj_set_u32(o, NFTNL_OBJ_CT_EXPECT_TIMEOUT, ob->expect.timeout);
	nftnl_obj_set_u8(o, NFTNL_OBJ_CT_EXPECT_SIZE, ob->expect.size);
}

static void ct_expect_print(struct kind_print *k, struct nftnl_obj *n)
{
	uint8_t l4 = nftnl_obj_get_u8(n, NFTNL_OBJ_CT_EXPECT_L4PROTO);

	kind_obj_line(k);
	if (l4 == IPPROTO_TCP || l4 == IPPROTO_UDP)
		fprintf(k->f, "protocol %s", l4 == IPPROTO_TCP ? "tcp" : "udp");
	else
		fprintf(k->f, "protocol %u", l4);
	kind_obj_eol(k, true);
	kind_obj_line(k);
	fprintf(k->f, "dport %u", nftnl_obj_get_u16(n, NFTNL_OBJ_CT_EXPECT_DPORT));
	kind_obj_eol(k, true);
	kind_obj_line(k);
	fprintf(k->f, "timeout ");
	time_print_opt(nftnl_obj_get_u32(n, NFTNL_OBJ_CT_EXPECT_TIMEOUT),
		       k->octx, k->f);
	kind_obj_eol(k, true);
	kind_obj_line(k);
	fprintf(k->f, "size %u", nftnl_obj_get_u8(n, NFTNL_OBJ_CT_EXPECT_SIZE));
	kind_obj_eol(k, true);
	kind_obj_line(k);
	fprintf(k->f, "l3proto %s",
		family_name(ct_l3proto(n, NFTNL_OBJ_CT_EXPECT_L3PROTO)));
	kind_obj_eol(k, true);
}

static void ct_expect_json(struct kind_json *k, json_t *o, struct nftnl_obj *n)
{
	uint8_t l4 = nftnl_obj_get_u8(n, NFTNL_OBJ_CT_EXPECT_L4PROTO);

	json_object_set_new(o, "protocol", ct_l4_json(l4));
	json_object_set_new(o, "dport", json_integer(
		nftnl_obj_get_u16(n, NFTNL_OBJ_CT_EXPECT_DPORT)));
	json_object_set_new(o, "timeout", json_integer(
		nftnl_obj_get_u32(n, NFTNL_OBJ_CT_EXPECT_TIMEOUT)));
	json_object_set_new(o, "size", json_integer(
		nftnl_obj_get_u8(n, NFTNL_OBJ_CT_EXPECT_SIZE)));
	json_object_set_new(o, "l3proto", json_string(family_name(
		ct_l3proto(n, NFTNL_OBJ_CT_EXPECT_L3PROTO))));
}

static const char *const ct_expect_json_keys[] = {
	"protocol", "dport", "timeout", "size", "l3proto", NULL
};

static const struct obj_ops ct_expect_ops = {
	.type		= NFT_OBJECT_CT_EXPECT,
	.name		= "ct expectation",
	.json_keys	= ct_expect_json_keys,
	.parse_json	= ct_expect_parse_json,
	.eval		= ct_expect_eval,
	.linearize	= ct_expect_linearize,
	.print		= ct_expect_print,
	.json		= ct_expect_json,
};
OBJ_OPS_REGISTER(ct_expect_ops);
