// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * IPv6 extension headers, IPv4 and TCP options and SCTP chunks as data, loaded by
 * the exthdr expression. Offsets and lengths are in bits from the start of
 * the header, option or chunk; a field-less expression tests presence.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include <libnftnl/expr.h>
#include <libnftnl/udata.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>

#include <kind.h>
#include <proto.h>
#include <suggest.h>
#include <utils.h>
#include <exthdr.h>

#define F(n, dt, off, l, bo)	{ .name = n, .dtype = &dt, .offset = off, \
				  .len = l, .byteorder = BYTEORDER_##bo }
#define FI(n, off, l)		F(n, integer_type, off, l, BIG)
#define V6(n, t, ...)	{ .name = n, .type = t, .op = NFT_EXTHDR_OP_IPV6, \
			  .fields = { __VA_ARGS__ } }
#define OPT(n, t, ...)	{ .name = n, .type = t, .op = NFT_EXTHDR_OP_TCPOPT, \
			  .fields = { FI("kind", 0, 8), __VA_ARGS__ } }
#define IPOPT(n, t, ...)	{ .name = n, .type = t, .op = NFT_EXTHDR_OP_IPV4, \
			  .fields = { FI("type", 0, 8), FI("length", 8, 8), \
				      __VA_ARGS__ } }
#define CHUNK(n, t, ...)	{ .name = n, .type = t, .op = NFT_EXTHDR_OP_SCTP, \
			  .fields = { FI("type", 0, 8), FI("flags", 8, 8), \
				      FI("length", 16, 16), ##__VA_ARGS__ } }
#define V6_COMMON	F("nexthdr", inet_protocol_type, 0, 8, BIG), \
			FI("hdrlength", 8, 8)
#define RT_COMMON	V6_COMMON, FI("type", 16, 8), FI("seg-left", 24, 8)
#define A6(n, off)	F(n, ip6addr_type, off, 128, BIG)

/*
 * Order matters when a listing names a loaded field: the routing header
 * kinds share type 43, and nft names the first match (so "rt0 addr[1]"
 * lists as "srh sid[1]").
 */
static const struct exthdr_desc exthdrs[] = {
	V6("hbh", 0, V6_COMMON),
	V6("rt", 43, RT_COMMON),
	V6("srh", 43, RT_COMMON, FI("last-entry", 32, 8), FI("flags", 40, 8),
	   FI("tag", 48, 16), A6("sid[1]", 64), A6("sid[2]", 192),
	   A6("sid[3]", 320), A6("sid[4]", 448)),
	V6("rt0", 43, RT_COMMON, FI("reserved", 32, 32), A6("addr[1]", 64),
	   A6("addr[2]", 192), A6("addr[3]", 320), A6("addr[4]", 448)),
	V6("rt2", 43, RT_COMMON, FI("reserved", 32, 32), A6("addr", 64)),
	V6("frag", 44, F("nexthdr", inet_protocol_type, 0, 8, BIG),
	   FI("reserved", 8, 8), FI("frag-off", 16, 13),
	   FI("reserved2", 29, 2), FI("more-fragments", 31, 1),
	   FI("id", 32, 32)),
	V6("dst", 60, V6_COMMON),
	V6("mh", 135, V6_COMMON, F("type", mh_type_type, 16, 8, BIG),
	   FI("reserved", 24, 8), FI("checksum", 32, 16)),

	OPT("eol", 0),
	OPT("nop", 1),
	OPT("maxseg", 2, FI("length", 8, 8), FI("size", 16, 16)),
	OPT("window", 3, FI("length", 8, 8), FI("count", 16, 8)),
	OPT("sack-perm", 4, FI("length", 8, 8)),
	OPT("sack", 5, FI("length", 8, 8), FI("left", 16, 32),
	    FI("right", 48, 32)),
	OPT("sack0", 5, FI("length", 8, 8), FI("left", 16, 32),
	    FI("right", 48, 32)),
	OPT("sack1", 5, FI("length", 8, 8), FI("left", 80, 32),
	    FI("right", 112, 32)),
	OPT("sack2", 5, FI("length", 8, 8), FI("left", 144, 32),
	    FI("right", 176, 32)),
	OPT("sack3", 5, FI("length", 8, 8), FI("left", 208, 32),
	    FI("right", 240, 32)),
	OPT("timestamp", 8, FI("length", 8, 8), FI("tsval", 16, 32),
	    FI("tsecr", 48, 32)),
	OPT("md5sig", 19, FI("length", 8, 8)),
	OPT("mptcp", 30, FI("length", 8, 8),
	    F("subtype", mptcp_subtype_type, 16, 4, BIG)),
	OPT("fastopen", 34, FI("length", 8, 8)),

	/* the ones nft 1.0.6 knows; the kernel finds them in the header */
	IPOPT("lsrr", 131, FI("ptr", 16, 8), FI("addr", 24, 32)),
	IPOPT("rr", 7, FI("ptr", 16, 8), FI("addr", 24, 32)),
	IPOPT("ssrr", 137, FI("ptr", 16, 8), FI("addr", 24, 32)),
	IPOPT("ra", 148, FI("value", 16, 16)),

	CHUNK("data", 0, FI("tsn", 32, 32), FI("stream", 64, 16),
	      FI("ssn", 80, 16), FI("ppid", 96, 32)),
	CHUNK("init", 1, FI("init-tag", 32, 32), FI("a-rwnd", 64, 32),
	      FI("num-outbound-streams", 96, 16),
	      FI("num-inbound-streams", 112, 16), FI("initial-tsn", 128, 32)),
	CHUNK("init-ack", 2, FI("init-tag", 32, 32), FI("a-rwnd", 64, 32),
	      FI("num-outbound-streams", 96, 16),
	      FI("num-inbound-streams", 112, 16), FI("initial-tsn", 128, 32)),
	CHUNK("sack", 3, FI("cum-tsn-ack", 32, 32), FI("a-rwnd", 64, 32),
	      FI("num-gap-ack-blocks", 96, 16), FI("num-dup-tsns", 112, 16)),
	CHUNK("heartbeat", 4), CHUNK("heartbeat-ack", 5),
	CHUNK("abort", 6), CHUNK("shutdown", 7, FI("cum-tsn-ack", 32, 32)),
	CHUNK("shutdown-ack", 8),
	CHUNK("error", 9), CHUNK("cookie-echo", 10), CHUNK("cookie-ack", 11),
	CHUNK("ecne", 12, FI("lowest-tsn", 32, 32)),
	CHUNK("cwr", 13, FI("lowest-tsn", 32, 32)),
	CHUNK("shutdown-complete", 14),
	CHUNK("asconf-ack", 128, FI("seqno", 32, 32)),
	CHUNK("forward-tsn", 192, FI("new-cum-tsn", 32, 32)),
	CHUNK("asconf", 193, FI("seqno", 32, 32)),
};

/* names nft also reads, listed under their canonical one */
static const struct {
	const char	*alias;
	const char	*name;
} aliases[] = {
	{ "mss", "maxseg" },
	{ "sack-permitted", "sack-perm" },
};

const struct exthdr_desc *exthdr_lookup(unsigned int op, const char *name)
{
	for (unsigned int i = 0; i < array_size(aliases); i++)
		if (op == NFT_EXTHDR_OP_TCPOPT && !strcmp(name, aliases[i].alias))
			name = aliases[i].name;
	for (unsigned int i = 0; i < array_size(exthdrs); i++)
		if (exthdrs[i].op == op && !strcmp(exthdrs[i].name, name))
			return &exthdrs[i];
	return NULL;
}

const struct exthdr_desc *exthdr_by_type(unsigned int op, unsigned int type)
{
	for (unsigned int i = 0; i < array_size(exthdrs); i++)
		if (exthdrs[i].op == op && exthdrs[i].type == type)
			return &exthdrs[i];
	return NULL;
}

const struct proto_field *exthdr_field_lookup(const struct exthdr_desc *d,
					      const char *name)
{
	for (unsigned int i = 0; i < EXTHDR_FIELDS_MAX && d->fields[i].name; i++)
		if (!strcmp(d->fields[i].name, name))
			return &d->fields[i];
	return NULL;
}

const struct proto_field *exthdr_field_at(unsigned int op, unsigned int type,
					  unsigned int offset, unsigned int len,
					  const struct exthdr_desc **desc)
{
	for (unsigned int i = 0; i < array_size(exthdrs); i++) {
		const struct exthdr_desc *d = &exthdrs[i];

		if (d->op != op || d->type != type)
			continue;
		for (unsigned int k = 0; k < EXTHDR_FIELDS_MAX && d->fields[k].name; k++) {
			if (d->fields[k].offset == offset && d->fields[k].len == len) {
				*desc = d;
				return &d->fields[k];
			}
		}
	}
	return NULL;
}

struct expr *exthdr_expr_alloc(const struct location *loc,
			       const struct exthdr_desc *d,
			       const struct proto_field *f)
{
	struct expr *e;

	if (!f) {
		/* a presence test loads one byte: 1 or 0 */
		e = expr_alloc(loc, EXPR_EXTHDR, &boolean_type, BYTEORDER_HOST, 8);
		e->exthdr.flags = NFT_EXTHDR_F_PRESENT;
	} else {
		e = expr_alloc(loc, EXPR_EXTHDR, f->dtype, f->byteorder, f->len);
		e->exthdr.offset = f->offset;
	}
	e->exthdr.desc = d;
	e->exthdr.tmpl = f;
	e->exthdr.op = d->op;
	e->exthdr.type = d->type;
	return e;
}

struct expr *exthdr_raw_alloc(unsigned int op, unsigned int type,
			      unsigned int offset, unsigned int len,
			      unsigned int flags)
{
	struct expr *e = expr_alloc(&internal_location, EXPR_EXTHDR,
				    &integer_type, BYTEORDER_BIG, len);

	e->exthdr.op = op;
	e->exthdr.type = type;
	e->exthdr.offset = offset;
	e->exthdr.flags = flags;
	e->exthdr.desc = exthdr_by_type(op, type);
	return e;
}

struct expr *exthdr_present_alloc(const struct location *loc, unsigned int op,
				  unsigned int kind)
{
	struct expr *e = expr_alloc(loc, EXPR_EXTHDR, &boolean_type,
				    BYTEORDER_HOST, 8);

	e->exthdr.flags = NFT_EXTHDR_F_PRESENT;
	e->exthdr.op = op;
	e->exthdr.type = kind;
	e->exthdr.desc = exthdr_by_type(op, kind);
	return e;
}

/* the options follow the 20 bytes of the fixed header, 60 at most */
#define TCPOPT_SPACE_BITS	(40 * 8)

struct expr *tcpopt_raw_parse(const struct location *loc, const char *kind,
			      const struct location *kloc, uint64_t offset,
			      uint64_t len, struct list_head *msgs)
{
	unsigned long long k;
	char *end;

	errno = 0;
	k = strtoull(kind, &end, 10);
	if (!*kind || *end || errno) {
		error_queue(msgs, kloc, "tcp option @KIND,OFFSET,LENGTH takes the option's kind as a number, not \"%s\"",
			    kind);
		return NULL;
	}
	if (k > UINT8_MAX) {
		error_queue(msgs, kloc, "tcp option kind %llu is too large: 0 to 255", k);
		return NULL;
	}
	if (!len || len > 128 || offset >= TCPOPT_SPACE_BITS ||
	    offset + len > TCPOPT_SPACE_BITS) {
		error_queue(msgs, loc, "a raw tcp option field lies in the %u bits of the options: length 1 to 128 bits",
			    TCPOPT_SPACE_BITS);
		return NULL;
	}
	/* its bits are masked as a 64-bit value, as a raw payload's */
	if ((offset % 8 || len % 8) && (offset + len + 7) / 8 - offset / 8 > 8) {
		error_queue(msgs, loc, "a raw tcp option field not on byte boundaries spans at most 8 bytes");
		return NULL;
	}
	return exthdr_raw_alloc(NFT_EXTHDR_OP_TCPOPT, k, offset, len, 0);
}

static const char *const what[] = {
	[NFT_EXTHDR_OP_IPV6]	= "ipv6 extension header",
	[NFT_EXTHDR_OP_TCPOPT]	= "tcp option",
	[NFT_EXTHDR_OP_IPV4]	= "ip option",
	[NFT_EXTHDR_OP_SCTP]	= "sctp chunk",
	[NFT_EXTHDR_OP_DCCP]	= "dccp option",
};

const char *exthdr_op_name(unsigned int op)
{
	return op < array_size(what) && what[op] ? what[op] : "extension header";
}

struct expr *exthdr_expr_parse(const struct location *loc, unsigned int op,
			       const char *name, const struct location *nloc,
			       const char *field, const struct location *floc,
			       struct list_head *msgs)
{
	const struct exthdr_desc *d = exthdr_lookup(op, name);
	const struct proto_field *f = NULL;
	struct suggest sg;

	if (!d) {
		error_queue(msgs, nloc, "unknown %s \"%s\"%s", exthdr_op_name(op),
			    name, suggest_exthdr(&sg, op, name));
		return NULL;
	}
	if (field) {
		f = exthdr_field_lookup(d, field);
		if (!f) {
			error_queue(msgs, floc, "%s %s has no field \"%s\"%s",
				    exthdr_op_name(op), d->name, field,
				    suggest_exthdr_field(&sg, d, field));
			return NULL;
		}
	}
	return exthdr_expr_alloc(loc, d, f);
}

/* an option kind or chunk type is a byte; ipv6 headers are next-header
   values */
#define EXTHDR_TYPES	256

/* did you mean: the extension headers of @op, and the fields of one */
const char *suggest_exthdr(struct suggest *s, unsigned int op, const char *word)
{
	suggest_init(s, word);
	for (unsigned int t = 0; t < EXTHDR_TYPES; t++)
		if (exthdr_by_type(op, t))
			suggest_add(s, exthdr_by_type(op, t)->name);
	return suggest_hint(s);
}

const char *suggest_exthdr_field(struct suggest *s,
				 const struct exthdr_desc *d, const char *word)
{
	suggest_init(s, word);
	for (unsigned int i = 0; i < EXTHDR_FIELDS_MAX && d->fields[i].name; i++)
		suggest_add(s, d->fields[i].name);
	return suggest_hint(s);
}

/* --- the exthdr expression ----------------------------------------------- */

/*
 * tcp options and sctp chunks need no dependency: the kernel checks.  ip
 * options and ipv6 extension headers need their network protocol, which
 * nft puts first in the rule
 */
static int exthdr_eval(struct kind_eval *k, struct expr *x)
{
	const struct proto_desc *want;

	if (x->exthdr.op == NFT_EXTHDR_OP_IPV4) {
		if (k->family == NFPROTO_IPV6 || k->family == NFPROTO_ARP)
			return error_queue(k->msgs, &x->loc,
				   "ip options cannot be matched in family %s",
				   k->family_name);
		want = &proto_ip;
	} else if (x->exthdr.op == NFT_EXTHDR_OP_IPV6) {
		if (k->family == NFPROTO_IPV4 || k->family == NFPROTO_ARP)
			return error_queue(k->msgs, &x->loc,
				   "ipv6 extension headers cannot be matched in family %s",
				   k->family_name);
		want = &proto_ip6;
	} else {
		return 0;
	}
	return k->head_dep(k, x, want);
}

/*
 * The kernel's "exthdr" is three things: a load (a destination register),
 * which stays raw until the delinearizer's postprocessing names it from
 * what the rule compares; a tcp option write (a source register), named
 * here; and with neither register "reset tcp option" (src/kinds/optstrip.c).
 */
static void exthdr_delinearize(struct kind_delin *k, const struct nftnl_expr *e)
{
	uint32_t op = nftnl_expr_get_u32(e, NFTNL_EXPR_EXTHDR_OP);
	uint32_t type = nftnl_expr_get_u8(e, NFTNL_EXPR_EXTHDR_TYPE);
	uint32_t off = nftnl_expr_get_u32(e, NFTNL_EXPR_EXTHDR_OFFSET);
	uint32_t len = nftnl_expr_get_u32(e, NFTNL_EXPR_EXTHDR_LEN);
	uint32_t flags = nftnl_expr_get_u32(e, NFTNL_EXPR_EXTHDR_FLAGS);
	const struct exthdr_desc *d;
	const struct proto_field *f;
	struct stmt *s;

	if (!nftnl_expr_is_set(e, NFTNL_EXPR_EXTHDR_DREG) &&
	    !nftnl_expr_is_set(e, NFTNL_EXPR_EXTHDR_SREG)) {
		stmt_ops_by_json_name("reset")->delinearize(k, e);
		return;
	}
	if (len == 0 || len > NFH_VAL_MAXLEN || off > 0xffff ||
	    (!exthdr_by_type(op, type) && op != NFT_EXTHDR_OP_TCPOPT)) {
		k->unsupported(k, "exthdr");
		return;
	}
	if (!nftnl_expr_is_set(e, NFTNL_EXPR_EXTHDR_SREG)) {
		k->reg_set(k, nftnl_expr_get_u32(e, NFTNL_EXPR_EXTHDR_DREG),
			   exthdr_raw_alloc(op, type, off * 8, len * 8, flags));
		return;
	}
	f = exthdr_field_at(op, type, off * 8, len * 8, &d);
	if (!f && op != NFT_EXTHDR_OP_TCPOPT) {
		k->unsupported(k, "exthdr write");
		return;
	}
	s = stmt_alloc(&internal_location, STMT_EXTHDR);
	/* "tcp option @254,16,16 set 5" */
	s->payload.expr = f ? exthdr_expr_alloc(&internal_location, d, f) :
			  exthdr_raw_alloc(op, type, off * 8, len * 8, 0);
	s->payload.val = k->reg_get(k, nftnl_expr_get_u32(e, NFTNL_EXPR_EXTHDR_SREG));
	if (!s->payload.val) {
		stmt_free(s);
		k->unsupported(k, "exthdr write");
		return;
	}
	if (s->payload.val->kind == EXPR_VALUE)
		k->type_value(k, s->payload.val, s->payload.expr->dtype,
			      s->payload.expr->byteorder, s->payload.expr->len);
	k->add_stmt(k, s);
}

/* "tcp option maxseg size", "sctp chunk init", "exthdr frag", "frag id" */
static void exthdr_print(struct kind_print *k, const struct expr *e)
{
	const char *name = e->exthdr.desc ? e->exthdr.desc->name : "unknown";

	switch (e->exthdr.op) {
	case NFT_EXTHDR_OP_TCPOPT:
		/* what has no name lists by number, as nft lists it */
		if (e->exthdr.flags & NFT_EXTHDR_F_PRESENT && !e->exthdr.desc) {
			fprintf(k->f, "tcp option %u", e->exthdr.type);
			return;
		}
		if (!e->exthdr.tmpl && !(e->exthdr.flags & NFT_EXTHDR_F_PRESENT) &&
		    !e->exthdr.desc) {
			fprintf(k->f, "tcp option @%u,%u,%u", e->exthdr.type,
				e->exthdr.offset, e->len);
			return;
		}
		fprintf(k->f, "tcp option %s", name);
		break;
	case NFT_EXTHDR_OP_SCTP:
		fprintf(k->f, "sctp chunk %s", name);
		break;
	case NFT_EXTHDR_OP_DCCP:
		fprintf(k->f, "dccp option %u", e->exthdr.type);
		return;
	case NFT_EXTHDR_OP_IPV4:
		fprintf(k->f, "ip option %s", name);
		break;
	default:
		fprintf(k->f, e->exthdr.tmpl ? "%s" : "exthdr %s", name);
		break;
	}
	if (e->exthdr.tmpl)
		fprintf(k->f, " %s", e->exthdr.tmpl->name);
	else if (e->exthdr.op == NFT_EXTHDR_OP_TCPOPT &&
		 !(e->exthdr.flags & NFT_EXTHDR_F_PRESENT))
		fputs(" unknown", k->f);	/* bits of no field: as nft */
}

/* JSON's key for each kind of extension header */
static const char *const json_keys[] = {
	[NFT_EXTHDR_OP_IPV6]	= "exthdr",
	[NFT_EXTHDR_OP_TCPOPT]	= "tcp option",
	[NFT_EXTHDR_OP_SCTP]	= "sctp chunk",
	[NFT_EXTHDR_OP_IPV4]	= "ip option",
};

/* { KEY: { "name": N, "field": F } }; without a field, a presence test */
static json_t *exthdr_json(struct kind_json *k, const struct expr *e)
{
	bool present = e->exthdr.flags & NFT_EXTHDR_F_PRESENT;
	json_t *o;

	/* a tcp option without a name: its kind and bits, as nft */
	if (e->exthdr.op == NFT_EXTHDR_OP_TCPOPT &&
	    !e->exthdr.desc) {
		o = kind_json_wrap("base", json_integer(e->exthdr.type));
		o = kind_json_set(o, "offset", json_integer(present ? 0 :
							    e->exthdr.offset));
		o = kind_json_set(o, "len", json_integer(present ? 8 : e->len));
		return kind_json_wrap("tcp option", o);
	}
	if (!e->exthdr.desc || e->exthdr.op >= array_size(json_keys) ||
	    !json_keys[e->exthdr.op])
		return k->unsupported(k, "a raw extension header load");
	o = kind_json_wrap("name", json_string(e->exthdr.desc->name));
	if (e->exthdr.tmpl)
		o = kind_json_set(o, "field", json_string(e->exthdr.tmpl->name));
	else if (e->exthdr.op == NFT_EXTHDR_OP_TCPOPT && !present)
		o = kind_json_set(o, "field", json_string("unknown"));
	return kind_json_wrap(json_keys[e->exthdr.op], o);
}

/* { "tcp option": { "base": KIND, "offset": BITS, "len": BITS } } */
static struct expr *tcpopt_raw_parse_json(struct kind_jparse *k, json_t *o,
					  const struct location *loc)
{
	static const char *const keys[] = { "base", "offset", "len", NULL };
	uint64_t base, off, len;
	char kind[24];

	if (k->check_keys(k, o, "tcp option", keys) < 0 ||
	    k->get_u32(k, o, "base", &base) != 1 ||
	    k->get_u32(k, o, "offset", &off) != 1 ||
	    k->get_u32(k, o, "len", &len) != 1)
		return k->error(k, o, "tcp option: expected base, offset and len"), NULL;
	snprintf(kind, sizeof(kind), "%llu", (unsigned long long)base);
	return tcpopt_raw_parse(loc, kind, loc, off, len, k->msgs);
}

static struct expr *exthdr_parse_json(struct kind_jparse *k, const char *key,
				      json_t *o, const struct location *loc)
{
	static const char *const keys[] = { "name", "field", NULL };
	const char *name, *field;
	struct location nloc, floc;
	unsigned int op;

	for (op = 0; op < array_size(json_keys); op++)
		if (json_keys[op] && !strcmp(json_keys[op], key))
			break;
	if (op == NFT_EXTHDR_OP_TCPOPT && json_is_object(o) &&
	    json_object_get(o, "base"))
		return tcpopt_raw_parse_json(k, o, loc);
	if (!json_is_object(o) || k->check_keys(k, o, key, keys) < 0)
		return k->error(k, o, "%s: expected an object", key), NULL;
	name = k->get_str(k, o, "name", true);
	if (!name)
		return NULL;
	field = k->get_str(k, o, "field", false);
	nloc = k->loc(k, json_object_get(o, "name"));
	floc = field ? k->loc(k, json_object_get(o, "field")) : nloc;
	return exthdr_expr_parse(loc, op, name, &nloc, field, &floc, k->msgs);
}

/* { "mangle": { "key": { "tcp option": ... }, "value": V } } */
static struct stmt *exthdr_mangle(struct kind_jparse *k, const struct expr *e,
				  struct expr *val, const struct location *loc)
{
	struct stmt *s = stmt_alloc(loc, STMT_EXTHDR);

	s->payload.expr = expr_clone(e);
	s->payload.val = val;
	return s;
}

static const char *const exthdr_json_names[] = {
	"exthdr", "sctp chunk", "ip option", NULL
};

/*
 * An exthdr field is a run of bits like a payload field: its load says
 * where its bits sit in the loaded bytes (struct kind_load), and the
 * linearizer's comparisons, binops and set keys mask and shift by it.
 */
static void exthdr_load(struct kind_lin *k, const struct expr *x,
			uint32_t dreg, unsigned int bytes, struct kind_load *ld)
{
	struct nftnl_expr *e = k->add(k, "exthdr");

	kind_load_bits(x->exthdr.offset, x->len, bytes, ld);
	nftnl_expr_set_u32(e, NFTNL_EXPR_EXTHDR_DREG, dreg);
	nftnl_expr_set_u8(e, NFTNL_EXPR_EXTHDR_TYPE, x->exthdr.type);
	nftnl_expr_set_u32(e, NFTNL_EXPR_EXTHDR_OFFSET, x->exthdr.offset / 8);
	nftnl_expr_set_u32(e, NFTNL_EXPR_EXTHDR_LEN, ld->len);
	nftnl_expr_set_u32(e, NFTNL_EXPR_EXTHDR_OP, x->exthdr.op);
	if (x->exthdr.flags)
		nftnl_expr_set_u32(e, NFTNL_EXPR_EXTHDR_FLAGS, x->exthdr.flags);
}

static unsigned int exthdr_bit_offset(const struct expr *x)
{
	return x->exthdr.offset;
}

/*
 * Names a raw exthdr load on read-back: a presence test, a whole field,
 * or (under a mask) a field of a few bits; true if named
 */
static bool exthdr_match(struct kind_delin *k, struct expr *rel)
{
	struct expr *lhs = rel->op.left, *r = rel->op.right, *x, *n;
	const struct exthdr_desc *d;
	const struct proto_field *f;
	unsigned int off, len, first = 0, mlen;

	x = lhs->kind == EXPR_BINOP && lhs->op.op == OP_AND ? lhs->op.left : lhs;
	if (x->exthdr.tmpl)
		return false;
	off = x->exthdr.offset;
	len = x->len;
	if (x->exthdr.flags & NFT_EXTHDR_F_PRESENT) {
		if (x != lhs || (!x->exthdr.desc &&
				 x->exthdr.op != NFT_EXTHDR_OP_TCPOPT))
			return false;
		n = x->exthdr.desc ?
		    exthdr_expr_alloc(&internal_location, x->exthdr.desc, NULL) :
		    exthdr_present_alloc(&internal_location, x->exthdr.op,
					 x->exthdr.type);
		goto named;
	}
	if (x != lhs) {
		if (lhs->op.right->kind != EXPR_VALUE)
			return false;
		mlen = mask_bits(lhs->op.right, &first);
		if (first + mlen > len)
			return false;
		off += first;
		len = mlen;
	}
	f = exthdr_field_at(x->exthdr.op, x->exthdr.type, off, len, &d);
	if (!f || (x != lhs && !(f->offset % 8 || f->len % 8)))
		return false;
	n = exthdr_expr_alloc(&internal_location, d, f);
	if (x != lhs)
		shift_rhs_right(r, x->len - (first + mlen), x->len / 8, mlen);
named:
	k->type_rhs(k, r, n);
	expr_free(rel->op.left);
	rel->op.left = n;
	return true;
}

/* --- typeof -------------------------------------------------------------- */

/*
 * Extension headers and options as nft 1.0.6 numbers them in typeof
 * userdata.  ipv6 headers: its own numbers for the header, fields from 1,
 * where rt0 and srh number only their own fields (the routing header's
 * four are rt's).  tcp options, ip options, sctp chunks: the option kind
 * (chunk type); tcp options and sctp chunks number fields from 0 as nfh
 * does, except that the sack blocks 1-3 are fields of sack; ip options
 * number theirs by name.  rt2 (which nft writes no userdata for) has none.
 */
static const struct {
	const char	*name;
	uint32_t	id;
	unsigned int	skip;	/* nfh's fields before nft's first */
} typeof_v6hdrs[] = {
	{ "hbh", 1, 0 }, { "rt", 2, 0 }, { "rt0", 3, 4 }, { "srh", 5, 4 },
	{ "frag", 6, 0 }, { "dst", 7, 0 }, { "mh", 8, 0 },
};

static const char *const typeof_ipopt_fields[] = {
	"type", "length", "value", "ptr", "addr",
};

/* the sack block of a "sackN" name, 0 for sack and sack0 */
static unsigned int sack_block(const struct exthdr_desc *d)
{
	return !strncmp(d->name, "sack", 4) && d->name[4] >= '1' &&
	       d->name[4] <= '3' ? (unsigned int)(d->name[4] - '0') : 0;
}

/* nft's numbers for header @d and its field @f; false if none */
static bool typeof_exthdr_ids(const struct exthdr_desc *d,
			      const struct proto_field *f,
			      uint32_t *id, uint32_t *field)
{
	unsigned int i, n;

	if (!d || !f || f < d->fields || f >= d->fields + EXTHDR_FIELDS_MAX)
		return false;
	n = f - d->fields;
	switch (d->op) {
	case NFT_EXTHDR_OP_IPV6:
		for (i = 0; i < array_size(typeof_v6hdrs); i++)
			if (!strcmp(typeof_v6hdrs[i].name, d->name)) {
				if (n < typeof_v6hdrs[i].skip)
					return false;
				*id = typeof_v6hdrs[i].id;
				*field = n - typeof_v6hdrs[i].skip + 1;
				return true;
			}
		return false;
	case NFT_EXTHDR_OP_TCPOPT:
		*id = d->type;
		*field = n + (n >= 2 ? 2 * sack_block(d) : 0);
		return true;
	case NFT_EXTHDR_OP_SCTP:
		*id = d->type;
		*field = n;
		return true;
	case NFT_EXTHDR_OP_IPV4:
		for (i = 0; i < array_size(typeof_ipopt_fields); i++)
			if (!strcmp(typeof_ipopt_fields[i], f->name)) {
				*id = d->type;
				*field = i + 1;
				return true;
			}
		return false;
	}
	return false;
}

/* the header and field nft's numbers name, NULL if none */
static struct expr *typeof_exthdr_of(uint32_t op, uint32_t id, uint32_t field)
{
	const struct exthdr_desc *d = NULL;
	const struct proto_field *f = NULL;
	unsigned int i, n = field;

	switch (op) {
	case NFT_EXTHDR_OP_IPV6:
		for (i = 0; i < array_size(typeof_v6hdrs); i++)
			if (typeof_v6hdrs[i].id == id) {
				d = exthdr_lookup(op, typeof_v6hdrs[i].name);
				n = field ? field - 1 + typeof_v6hdrs[i].skip : ~0u;
			}
		break;
	case NFT_EXTHDR_OP_TCPOPT:
		d = exthdr_by_type(op, id);
		if (id == 5 && field >= 4 && field <= 9) {
			static const char *const blocks[] = { "sack1", "sack2", "sack3" };

			d = exthdr_lookup(op, blocks[(field - 4) / 2]);
			n = 2 + (field - 4) % 2;
		}
		break;
	case NFT_EXTHDR_OP_SCTP:
		d = exthdr_by_type(op, id);
		break;
	case NFT_EXTHDR_OP_IPV4:
		d = exthdr_by_type(op, id);
		if (d && field >= 1 && field <= array_size(typeof_ipopt_fields))
			f = exthdr_field_lookup(d, typeof_ipopt_fields[field - 1]);
		return f ? exthdr_expr_alloc(&internal_location, d, f) : NULL;
	default:
		return NULL;
	}
	if (!d || n >= EXTHDR_FIELDS_MAX || !d->fields[n].name)
		return NULL;
	return exthdr_expr_alloc(&internal_location, d, &d->fields[n]);
}

static bool exthdr_typeof_ok(const struct expr *e)
{
	uint32_t id, field;

	return e->exthdr.tmpl && !(e->exthdr.flags & NFT_EXTHDR_F_PRESENT) &&
	       typeof_exthdr_ids(e->exthdr.desc, e->exthdr.tmpl, &id, &field);
}

static void exthdr_typeof_put(struct nftnl_udata_buf *b, const struct expr *e)
{
	uint32_t id = 0, field = 0;

	/* in nft's order: the field, the kind of header, the header */
	typeof_exthdr_ids(e->exthdr.desc, e->exthdr.tmpl, &id, &field);
	nftnl_udata_put_u32(b, TYPEOF_EXTHDR_FIELD, field);
	if (e->exthdr.op != NFT_EXTHDR_OP_IPV6)
		nftnl_udata_put_u32(b, TYPEOF_EXTHDR_OP, e->exthdr.op);
	nftnl_udata_put_u32(b, TYPEOF_EXTHDR_DESC, id);
}

static struct expr *exthdr_typeof_parse(const struct kind_typeof *t,
					unsigned int family)
{
	if (!t->set[TYPEOF_EXTHDR_DESC] || !t->set[TYPEOF_EXTHDR_FIELD])
		return NULL;
	return typeof_exthdr_of(t->set[TYPEOF_EXTHDR_OP] ? t->v[TYPEOF_EXTHDR_OP] :
				NFT_EXTHDR_OP_IPV6,
				t->v[TYPEOF_EXTHDR_DESC], t->v[TYPEOF_EXTHDR_FIELD]);
}

static const struct expr_ops exthdr_ops = {
	.name		= "tcp option",
	.json_names	= exthdr_json_names,
	.nl_name	= "exthdr",
	.kind		= EXPR_EXTHDR,
	.eval		= exthdr_eval,
	.delinearize	= exthdr_delinearize,
	.print		= exthdr_print,
	.json		= exthdr_json,
	.parse_json	= exthdr_parse_json,
	.mangle		= exthdr_mangle,
	.load		= exthdr_load,
	.match		= exthdr_match,
	.bit_offset	= exthdr_bit_offset,
	.typeof_kind	= TYPEOF_KIND_EXTHDR,
	.typeof_recs	= TYPEOF_EXTHDR_OP + 1,
	.typeof_ok	= exthdr_typeof_ok,
	.typeof_put	= exthdr_typeof_put,
	.typeof_parse	= exthdr_typeof_parse,
};
EXPR_OPS_REGISTER(exthdr_ops);

/* --- "tcp option NAME FIELD set VALUE" ----------------------------------- */

static int exthdr_stmt_eval(struct kind_eval *k, struct stmt *s)
{
	struct expr *x = s->payload.expr;

	if (x->kind != EXPR_EXTHDR || x->exthdr.op != NFT_EXTHDR_OP_TCPOPT)
		return error_queue(k->msgs, &x->loc,
				   "only tcp option fields can be set");
	if (x->exthdr.flags & NFT_EXTHDR_F_PRESENT)
		return error_queue(k->msgs, &x->loc,
				   "tcp option %s: name the field to set",
				   x->exthdr.desc ? x->exthdr.desc->name : "");
	if (x->exthdr.offset % 8 || x->len % 8) {
		if (!x->exthdr.tmpl)	/* "tcp option @254,4,8 set 1" */
			return error_queue(k->msgs, &x->loc,
				"a raw tcp option field is set in whole bytes only");
		return error_queue(k->msgs, &x->loc,
			   "tcp option %s %s is not a whole number of bytes and cannot be set",
			   x->exthdr.desc->name, x->exthdr.tmpl->name);
	}
	return k->value(k, x, &s->payload.val);
}

/* whole bytes only, which evaluation made sure of */
static int exthdr_stmt_linearize(struct kind_lin *k, const struct stmt *s)
{
	const struct expr *x = s->payload.expr, *v = s->payload.val;
	unsigned int n = div_round_up(v->len, 8);
	struct nftnl_expr *e;

	if (v->kind == EXPR_VALUE) {
		k->immediate(k, NFT_REG_1, v, x->byteorder);
	} else {
		k->load(k, v, NFT_REG_1);
		if (v->byteorder == BYTEORDER_HOST &&
		    x->byteorder == BYTEORDER_BIG && n > 1) {
			e = k->add(k, "byteorder");
			nftnl_expr_set_u32(e, NFTNL_EXPR_BYTEORDER_SREG, NFT_REG_1);
			nftnl_expr_set_u32(e, NFTNL_EXPR_BYTEORDER_DREG, NFT_REG_1);
			nftnl_expr_set_u32(e, NFTNL_EXPR_BYTEORDER_OP,
					   NFT_BYTEORDER_HTON);
			nftnl_expr_set_u32(e, NFTNL_EXPR_BYTEORDER_LEN, n);
			nftnl_expr_set_u32(e, NFTNL_EXPR_BYTEORDER_SIZE, n);
		}
	}
	e = k->add(k, "exthdr");
	nftnl_expr_set_u32(e, NFTNL_EXPR_EXTHDR_SREG, NFT_REG_1);
	nftnl_expr_set_u8(e, NFTNL_EXPR_EXTHDR_TYPE, x->exthdr.type);
	nftnl_expr_set_u32(e, NFTNL_EXPR_EXTHDR_OFFSET, x->exthdr.offset / 8);
	nftnl_expr_set_u32(e, NFTNL_EXPR_EXTHDR_LEN, div_round_up(x->len, 8));
	nftnl_expr_set_u32(e, NFTNL_EXPR_EXTHDR_OP, x->exthdr.op);
	return 0;
}

static void exthdr_stmt_print(struct kind_print *k, const struct stmt *s)
{
	k->expr(k, s->payload.expr);
	fputs(" set ", k->f);
	k->expr(k, s->payload.val);
}

/* as nft: { "mangle": { "key": { "tcp option": ... }, "value": V } } */
static json_t *exthdr_stmt_json(struct kind_json *k, const struct stmt *s)
{
	return kind_json_wrap("mangle", kind_json_set(
		kind_json_wrap("key", k->expr(k, s->payload.expr)), "value",
		k->expr(k, s->payload.val)));
}

static void exthdr_stmt_destroy(struct stmt *s)
{
	expr_free(s->payload.expr);
	expr_free(s->payload.val);
}

/* the kernel expression is exthdr_ops' to read back; JSON's is "mangle" */
static const struct stmt_ops exthdr_stmt_ops = {
	.name		= "tcp option",
	.kind		= STMT_EXTHDR,
	.eval		= exthdr_stmt_eval,
	.linearize	= exthdr_stmt_linearize,
	.print		= exthdr_stmt_print,
	.json		= exthdr_stmt_json,
	.destroy	= exthdr_stmt_destroy,
	.not_offered	= true,	/* "tcp" starts a selector */
};
STMT_OPS_REGISTER(exthdr_stmt_ops);
