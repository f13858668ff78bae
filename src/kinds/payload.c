// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Header fields: "tcp dport", "ip saddr", "@th,16,16".  The protocols and
 * their fields are data (src/ast/proto.c); this file is the kind.  The
 * evaluator's dependency engine (which header a field needs announced)
 * and the delinearizer's postprocess (a raw load read back as the field
 * the rule's protocols name) test for it by its enum entry, EXPR_PAYLOAD.
 */
#include <stdio.h>
#include <string.h>
#include <libnftnl/expr.h>
#include <libnftnl/udata.h>
#include <linux/netfilter/nf_tables.h>

#include <ctx.h>
#include <inner.h>
#include <kind.h>
#include <payload.h>
#include <protoctx.h>
#include <suggest.h>
#include <stmt.h>

/* the kernel's numbers of the bases; PROTO_BASE_TUN_HDR is nfh's own
   (inner.h: a load inside a tunnel stands for the inner expression) */
static const uint32_t nl_bases[] = {
	[PROTO_BASE_LL_HDR]		= NFT_PAYLOAD_LL_HEADER,
	[PROTO_BASE_NETWORK_HDR]	= NFT_PAYLOAD_NETWORK_HEADER,
	[PROTO_BASE_TRANSPORT_HDR]	= NFT_PAYLOAD_TRANSPORT_HEADER,
	[PROTO_BASE_INNER_HDR]		= NFT_PAYLOAD_INNER_HEADER,
	[PROTO_BASE_TUN_HDR]		= NFT_PAYLOAD_INNER_HEADER + 1,
};

/* ... and back */
static const enum proto_base proto_bases[] = {
	[NFT_PAYLOAD_LL_HEADER]		= PROTO_BASE_LL_HDR,
	[NFT_PAYLOAD_NETWORK_HEADER]	= PROTO_BASE_NETWORK_HDR,
	[NFT_PAYLOAD_TRANSPORT_HEADER]	= PROTO_BASE_TRANSPORT_HDR,
	[NFT_PAYLOAD_INNER_HEADER]	= PROTO_BASE_INNER_HDR,
	[NFT_PAYLOAD_INNER_HEADER + 1]	= PROTO_BASE_TUN_HDR,
};

/* --- the expression -------------------------------------------------------- */

struct expr *payload_expr_alloc(const struct location *loc,
				const struct proto_desc *desc,
				const struct proto_field *tmpl)
{
	struct expr *e = expr_alloc(loc, EXPR_PAYLOAD, tmpl->dtype,
				    tmpl->byteorder, tmpl->len);

	e->payload.desc = desc;
	e->payload.tmpl = tmpl;
	e->payload.base = desc->base;
	e->payload.offset = tmpl->offset;
	return e;
}

/* PAYLOAD_RAW_LIMITS says these numbers */
_Static_assert(NFH_VAL_MAXLEN * 8 == 512 && 0xffff * 8 == 524280,
	       "PAYLOAD_RAW_LIMITS is out of date");

bool payload_raw_valid(uint64_t offset, uint64_t len)
{
	return len && len <= NFH_VAL_MAXLEN * 8 && offset <= 0xffff * 8 &&
	       (!(offset % 8 || len % 8) ||
		(offset + len + 7) / 8 - offset / 8 <= 8);
}

enum proto_base payload_raw_base(const char *word)
{
	static const struct {
		const char	*name;
		enum proto_base	base;
	} bases[] = {
		{ "ll", PROTO_BASE_LL_HDR }, { "nh", PROTO_BASE_NETWORK_HDR },
		{ "th", PROTO_BASE_TRANSPORT_HDR }, { "ih", PROTO_BASE_INNER_HDR },
	};

	for (unsigned int i = 0; i < array_size(bases); i++)
		if (!strcmp(word, bases[i].name))
			return bases[i].base;
	return PROTO_BASE_INVALID;
}

struct expr *payload_raw_alloc(const struct location *loc,
			       enum proto_base base, unsigned int offset,
			       unsigned int len)
{
	struct expr *e = expr_alloc(loc, EXPR_PAYLOAD, &integer_type,
				    BYTEORDER_BIG, len);

	e->payload.base = base;
	e->payload.offset = offset;
	e->payload.is_raw = true;
	return e;
}

struct expr *payload_expr_parse(const struct location *loc, const char *proto,
				const struct location *ploc, const char *field,
				const struct location *floc,
				struct list_head *msgs)
{
	const struct proto_desc *d = proto_lookup(proto);
	const struct proto_field *f;
	struct suggest sg;

	if (!d) {
		error_queue(msgs, ploc, "unknown protocol \"%s\"%s", proto,
			    suggest_proto(&sg, proto));
		return NULL;
	}
	f = proto_field_lookup(d, field);
	if (!f) {
		error_queue(msgs, floc, "%s header has no field \"%s\"%s",
			    d->name, field, suggest_proto_field(&sg, d, field));
		return NULL;
	}
	return payload_expr_alloc(loc, d, f);
}

/*
 * How a write to a header field keeps checksums right: the checksum's
 * type (NFT_PAYLOAD_CSUM_*) and byte offset in the header, and whether
 * the field is part of the transport pseudo-header (addresses).
 */
static void payload_csum(const struct expr *p, uint32_t *type, uint32_t *off,
			 uint32_t *flags)
{
	const struct proto_desc *d = p->payload.desc;
	const char *f = p->payload.tmpl ? p->payload.tmpl->name : "";

	*type = NFT_PAYLOAD_CSUM_NONE;
	*off = 0;
	*flags = 0;
	if (p->payload.is_raw || !d)
		return;
	if ((d == &proto_ip || d == &proto_ip6) &&
	    (!strcmp(f, "saddr") || !strcmp(f, "daddr")))
		*flags = NFT_PAYLOAD_L4CSUM_PSEUDOHDR;
	if (d == &proto_ip)
		*off = 10;
	else if (d == &proto_tcp)
		*off = 16;
	else if (d == &proto_udp || d == &proto_udplite)
		*off = 6;
	else if (d == &proto_icmp || d == &proto_icmp6)
		*off = 2;
	if (*off)
		*type = NFT_PAYLOAD_CSUM_INET;
}

/* the evaluator's dependency engine adds the matches that announce the
   field's header (a raw field needs none) */
static int payload_eval(struct kind_eval *k, struct expr *e)
{
	return k->header(k, e);
}

/* --- linearize ------------------------------------------------------------ */

/* the bytes around the field into @dreg */
static void payload_load(struct kind_lin *k, const struct expr *p,
			 uint32_t dreg, unsigned int bytes, struct kind_load *ld)
{
	struct nftnl_expr *e = k->add(k, "payload");

	kind_load_bits(p->payload.offset, p->len, bytes, ld);
	nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_DREG, dreg);
	nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_BASE, nl_bases[p->payload.base]);
	nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_OFFSET, p->payload.offset / 8);
	nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_LEN, ld->len);
}

static unsigned int payload_bit_offset(const struct expr *p)
{
	return p->payload.offset;
}

/* --- delinearize --------------------------------------------------------- */

/* a load or a write, of a raw field: the delinearizer's postprocess names
   it once the rule's protocols are known */
static void payload_delinearize(struct kind_delin *k,
				const struct nftnl_expr *nle)
{
	uint32_t b = nftnl_expr_get_u32(nle, NFTNL_EXPR_PAYLOAD_BASE);
	uint32_t len = nftnl_expr_get_u32(nle, NFTNL_EXPR_PAYLOAD_LEN);
	uint32_t off = nftnl_expr_get_u32(nle, NFTNL_EXPR_PAYLOAD_OFFSET);
	struct stmt *s;

	/* the kernel loads at most a value's worth, at a 16-bit offset */
	if (len == 0 || len > NFH_VAL_MAXLEN || off > 0xffff || b > 4) {
		k->unsupported(k, "payload");
		return;
	}
	if (!nftnl_expr_is_set(nle, NFTNL_EXPR_PAYLOAD_SREG)) {
		k->reg_set(k, nftnl_expr_get_u32(nle, NFTNL_EXPR_PAYLOAD_DREG),
			   payload_raw_alloc(&internal_location, proto_bases[b],
					     off * 8, len * 8));
		return;
	}
	s = stmt_alloc(&internal_location, STMT_PAYLOAD);
	s->payload.expr = payload_raw_alloc(&internal_location, proto_bases[b],
					    off * 8, len * 8);
	s->payload.val = k->reg_get(k, nftnl_expr_get_u32(nle, NFTNL_EXPR_PAYLOAD_SREG));
	if (!s->payload.val) {
		stmt_free(s);
		k->unsupported(k, "payload write");
		return;
	}
	k->add_stmt(k, s);
}

/* --- the postprocess: a raw load named --------------------------------------- */

const struct proto_desc *payload_desc(const struct proto_ctx *pctx,
				      const struct expr *p)
{
	const struct proto_desc *d = pctx->desc[p->payload.base];

	if (d == &proto_unknown)
		return NULL;
	if (p->payload.base == PROTO_BASE_LL_HDR && d == &proto_eth &&
	    pctx->vlan && p->payload.offset >= 112)
		return &proto_vlan;
	return d;
}

/* the same, naming a transport field through th when no protocol is known */
const struct proto_desc *payload_desc_th(const struct proto_ctx *pctx,
					 const struct expr *p)
{
	const struct proto_desc *d = payload_desc(pctx, p);

	if (!d && p->payload.base == PROTO_BASE_TRANSPORT_HDR)
		d = &proto_th;
	return d;
}

/* the vlan tag "vlan type 8021q" announced: its fields are 4 bytes on */
unsigned int payload_stack_off(const struct proto_ctx *pctx,
			       const struct proto_desc *d)
{
	return d == &proto_vlan ? 32 * pctx->vlan_depth : 0;
}

/*
 * A field whose bits are exactly [off, off+len); of icmp fields that
 * share their bits (id, gateway, mtu ...), the one the type the rule
 * tested carries, and none while it is not known (a reload would add the
 * test of its type)
 */
const struct proto_field *payload_field_at(const struct proto_ctx *pctx,
					   const struct proto_desc *d,
					   unsigned int off, unsigned int len)
{
	for (unsigned int i = 0; d && i < PROTO_FIELDS_MAX && d->fields[i].name; i++)
		if (d->fields[i].offset + payload_stack_off(pctx, d) == off &&
		    d->fields[i].len == len && !d->fields[i].listed_raw &&
		    proto_icmp_fits(d, &d->fields[i], pctx->icmp_tval))
			return &d->fields[i];
	return NULL;
}

/*
 * A field listed raw (nft 1.1's icmpv6 taddr, as nft 1.0.6 lists it) whose
 * match is on a set: nft 1.0.6 lists the elements as addresses after the
 * raw load, which neither it nor nfh reads back ("@th,64,128 { fe80::1 }"),
 * so the field is named, as nft 1.1 lists it
 */
static const struct proto_field *field_raw_set(const struct proto_desc *d,
					       unsigned int off, unsigned int len)
{
	for (unsigned int i = 0; d && i < PROTO_FIELDS_MAX && d->fields[i].name; i++)
		if (d->fields[i].offset == off && d->fields[i].len == len &&
		    d->fields[i].listed_raw)
			return &d->fields[i];
	return NULL;
}

/* a field that starts at @off and is longer than the load (a prefix) */
const struct proto_field *payload_field_from(const struct proto_desc *d,
					     unsigned int off, unsigned int len)
{
	for (unsigned int i = 0; d && i < PROTO_FIELDS_MAX && d->fields[i].name; i++)
		if (d->fields[i].offset == off && d->fields[i].len > len &&
		    !d->fields[i].listed_raw &&
		    (d->fields[i].dtype->flags & DTYPE_F_PREFIX))
			return &d->fields[i];
	return NULL;
}

/*
 * The same for a field of any type, that starts on a byte: nft lists the
 * first byte of "arp htype" or "tcp sequence" as their prefix, 59392/8
 */
const struct proto_field *payload_field_over(const struct proto_ctx *pctx,
					     const struct proto_desc *d,
					     unsigned int off, unsigned int len)
{
	for (unsigned int i = 0; d && i < PROTO_FIELDS_MAX && d->fields[i].name; i++)
		if (d->fields[i].offset + payload_stack_off(pctx, d) == off &&
		    d->fields[i].len > len &&
		    off % 8 == 0 && len % 8 == 0 && d->fields[i].len % 8 == 0 &&
		    !d->fields[i].listed_raw &&
		    proto_icmp_fits(d, &d->fields[i], pctx->icmp_tval))
			return &d->fields[i];
	return NULL;
}

/* a bitmask test on the whole field @f of header @d */
static void masked_field_match(struct kind_delin *k, struct expr *rel,
			       const struct proto_desc *d,
			       const struct proto_field *f)
{
	struct expr *lhs = rel->op.left, *r = rel->op.right;
	struct expr num;

	expr_free(lhs->op.left);
	lhs->op.left = payload_expr_alloc(&internal_location, d, f);
	k->type_value(k, lhs->op.right, f->dtype, f->byteorder, f->len);
	lhs->dtype = f->dtype;
	lhs->len = f->len;
	lhs->byteorder = f->byteorder;
	if (r->kind != EXPR_SET || r->dtype != &integer_type) {
		k->type_rhs(k, r, lhs->op.left);
		return;
	}
	/*
	 * A set the raw load looked up, whose key is a number ("@th,0,1
	 * { 0, 1 }"): nft 1.0.6 lists its elements as numbers, in text and
	 * in JSON ("icmpv6 type & echo-request == { 0, 128 }", {"range":
	 * [0, 128]})
	 */
	num = *lhs->op.left;
	num.dtype = &integer_type;
	k->type_rhs(k, r, &num);
}

/* payload_match() of a masked raw load on the header d */
static bool masked_payload_match(struct kind_delin *k, struct expr *rel,
				 const struct proto_desc *d)
{
	struct expr *lhs = rel->op.left, *r = rel->op.right;
	struct expr *p = lhs->op.left, *mask = lhs->op.right;
	unsigned int off = p->payload.offset, len = p->len;
	const struct proto_field *f;
	unsigned int first, plen;
	unsigned int mlen = mask_bits(mask, &first);

	/* a mask wider than the load selects nothing we can name */
	if (first + mlen > len)
		return false;

	f = payload_field_at(k->pctx, d, off + first, mlen);
	if (f && (off + first) % 8 + mlen != 8 * expr_value_bytes(mask) - first + first &&
	    f->len % 8 == 0 && f->offset % 8 == 0 && f->len == len)
		f = NULL;
	/* a mask with holes in the field keeps the raw bits, as in nft */
	if (f && (f->offset % 8 || f->len % 8) &&
	    mask_is_run(mask, first, mlen)) {
		/* a sub-byte field: the mask only selects it */
		struct expr *n = payload_expr_alloc(&internal_location, d, f);
		unsigned int shift = len - (first + mlen);

		shift_rhs_right(r, shift, len / 8, mlen);
		expr_free(rel->op.left);
		rel->op.left = n;
		k->type_rhs(k, r, n);
		return true;
	}
	f = payload_field_from(d, off, 0);
	if (f && f->len == len && mask_is_prefix(mask, &plen) &&
	    r->kind == EXPR_VALUE && (rel->op.op == OP_EQ || rel->op.op == OP_NEQ)) {
		/* a prefix that does not end on a byte boundary */
		struct expr *n = payload_expr_alloc(&internal_location, d, f);

		k->type_rhs(k, r, n);
		rel->op.right = prefix_expr_alloc(&internal_location, r, plen);
		expr_free(rel->op.left);
		rel->op.left = n;
		return true;
	}
	f = payload_field_at(k->pctx, d, off, len);
	if (!f)
		return false;
	masked_field_match(k, rel, d, f);
	return true;
}

/* rewrites a match on a raw load into one on a named field; true if done */
static bool payload_match(struct kind_delin *k, struct expr *rel)
{
	struct expr *lhs = rel->op.left, *p = lhs, *r = rel->op.right;
	const struct proto_desc *d;
	const struct proto_field *f;
	unsigned int off, len;
	bool masked = false;

	if (lhs->kind == EXPR_BINOP && lhs->op.op == OP_AND) {
		p = lhs->op.left;
		masked = true;
	}
	if (p->kind != EXPR_PAYLOAD || !p->payload.is_raw)
		return false;
	d = payload_desc_th(k->pctx, p);
	if (!d)
		return false;
	if (masked)
		return masked_payload_match(k, rel, d);
	off = p->payload.offset;
	len = p->len;
	f = payload_field_at(k->pctx, d, off, len);
	if (!f && r->kind == EXPR_SET)
		f = field_raw_set(d, off, len);
	if (f) {
		struct expr *n = payload_expr_alloc(&internal_location, d, f);

		if (f->listed_int && r->kind == EXPR_VALUE)
			n->dtype = &integer_type;
		k->type_rhs(k, r, n);
		expr_free(rel->op.left);
		rel->op.left = n;
		return true;
	}
	f = payload_field_from(d, off, len);
	if (!f && (rel->op.op == OP_EQ || rel->op.op == OP_NEQ))
		f = payload_field_over(k->pctx, d, off, len);
	if (f && r->kind == EXPR_VALUE) {
		/* byte-aligned prefix: only the prefix bytes were loaded */
		struct expr *n = payload_expr_alloc(&internal_location, d, f);

		r->len = f->len;
		k->type_value(k, r, f->dtype, f->byteorder, 0);
		rel->op.right = prefix_expr_alloc(&internal_location, r, len);
		expr_free(rel->op.left);
		rel->op.left = n;
		return true;
	}
	return false;
}

/* @n bytes of a load's value, as an integer */
static struct expr *raw_bytes(const void *data, unsigned int n)
{
	return constant_expr_alloc(&internal_location, &integer_type,
				   BYTEORDER_BIG, n * 8, data);
}

static unsigned int fields_tiling(const struct proto_ctx *pctx,
				  const struct proto_desc *d,
				  unsigned int off, unsigned int end,
				  const struct proto_field **f, unsigned int max)
{
	unsigned int n = 0;

	while (off < end && n < max) {
		const struct proto_field *g = NULL;

		for (unsigned int i = 0; i < PROTO_FIELDS_MAX && d->fields[i].name; i++)
			if (d->fields[i].offset == off &&
			    off + d->fields[i].len <= end &&
			    !d->fields[i].listed_raw &&
			    proto_icmp_fits(d, &d->fields[i], pctx->icmp_tval)) {
				g = &d->fields[i];
				break;
			}
		if (!g && n && (g = payload_field_over(pctx, d, off, end - off))) {
			/* "tcp dport 0 tcp sequence 268435456/8": the load
			 * ends inside the last field, a prefix of it */
			f[n++] = g;
			off = end;
			break;
		}
		if (!g)
			return 0;
		f[n++] = g;
		off += g->len;
	}
	if (off != end || n < 2)
		return 0;
	return n;
}

/*
 * The raw load *l and value *v of the field f alone, out of the load of
 * [off, end) with the value bytes: a field of a few bits ("ip version 7
 * ip hdrlength 13") is the bytes that hold it, under a mask of its bits
 */
static void field_raw_match(const struct proto_field *f, enum proto_base base,
			    const uint8_t *bytes, unsigned int off, unsigned int end,
			    struct expr **l, struct expr **v)
{
	unsigned int bs = f->offset / 8 * 8;
	unsigned int be = div_round_up(f->offset + f->len, 8) * 8;
	unsigned int pos;

	if (be > end)	/* the prefix */
		be = end;
	pos = (bs - off) / 8;
	*v = raw_bytes(bytes + pos, (be - bs) / 8);
	*l = payload_raw_alloc(&internal_location, base, bs, be - bs);
	if (f->offset % 8 || f->len % 8) {
		uint8_t m[NFH_VAL_MAXLEN] = { 0 };

		for (unsigned int b = f->offset - bs;
		     b < f->offset - bs + f->len; b++)
			m[b / 8] |= 0x80 >> (b % 8);
		for (unsigned int k = 0; k < (be - bs) / 8; k++)
			(*v)->val.data[k] &= m[k];
		*l = binop_expr_alloc(&internal_location, OP_AND, *l,
				      raw_bytes(m, (be - bs) / 8));
	}
}

/*
 * A load nft merged from matches on adjacent fields ("udp sport 67 udp
 * dport 68" as one 4-byte compare) is split into those fields again: @s
 * keeps the first, the others follow it.  The last, or NULL if not split.
 */
static struct stmt *payload_expand(struct kind_delin *k, struct stmt *s)
{
	struct expr *rel = s->expr, *p = rel->op.left, *r = rel->op.right;
	const struct proto_field *f[8];
	const struct proto_desc *d;
	unsigned int n, off, end;
	enum proto_base base = p->payload.base;
	uint8_t bytes[NFH_VAL_MAXLEN];
	struct stmt *at = s;

	if (p->kind != EXPR_PAYLOAD || !p->payload.is_raw || rel->op.op != OP_EQ ||
	    r->kind != EXPR_VALUE || p->payload.offset % 8 || p->len % 8)
		return NULL;
	d = payload_desc_th(k->pctx, p);
	if (!d || payload_field_at(k->pctx, d, p->payload.offset, p->len))
		return NULL;
	off = p->payload.offset;	/* @p goes with the first field */
	end = off + p->len;
	n = fields_tiling(k->pctx, d, off, end, f, array_size(f));
	if (!n)
		return NULL;
	memcpy(bytes, r->val.data, sizeof(bytes));
	for (unsigned int i = 0; i < n; i++) {
		struct expr *v, *l;
		struct stmt *ns;

		field_raw_match(f[i], base, bytes, off, end, &l, &v);
		if (i == 0) {
			expr_free(rel->op.left);
			expr_free(rel->op.right);
			rel->op.left = l;
			rel->op.right = v;
			continue;
		}
		ns = match_stmt_alloc(&internal_location,
				      relational_expr_alloc(&internal_location, OP_EQ, l, v));
		list_add(&ns->list, &at->list);
		at = ns;
	}
	return at;
}

/* --- listings ------------------------------------------------------------- */

static void payload_print(struct kind_print *k, const struct expr *e)
{
	if (e->payload.is_raw)
		fprintf(k->f, "@%s,%u,%u", proto_base_token(e->payload.base),
			e->payload.offset, e->len);
	else
		fprintf(k->f, "%s %s", e->payload.desc->name,
			e->payload.tmpl->name);
}

static json_t *payload_json(struct kind_json *k, const struct expr *e)
{
	json_t *o = json_object();

	if (e->payload.is_raw) {
		o = kind_json_set(o, "base", json_string(proto_base_token(e->payload.base)));
		o = kind_json_set(o, "offset", json_integer(e->payload.offset));
		o = kind_json_set(o, "len", json_integer(e->len));
	} else {
		o = kind_json_set(o, "protocol", json_string(e->payload.desc->name));
		o = kind_json_set(o, "field", json_string(e->payload.tmpl->name));
	}
	return kind_json_wrap("payload", o);
}

/* --- JSON input ----------------------------------------------------------- */

/* { "base": "nh", "offset": BITS, "len": BITS }, as @nh,OFFSET,LEN */
static struct expr *raw_payload_parse(struct kind_jparse *k, json_t *o,
				      const struct location *loc)
{
	static const char *const keys[] = { "base", "offset", "len", NULL };
	const char *name = k->get_str(k, o, "base", true);
	enum proto_base base;
	uint64_t off, len;

	if (!name || k->check_keys(k, o, "payload", keys) < 0)
		return NULL;
	base = payload_raw_base(name);
	if (base == PROTO_BASE_INVALID)
		return k->error(k, json_object_get(o, "base"),
				"unknown payload base \"%s\": %s", name,
				PAYLOAD_RAW_BASES), NULL;
	if (k->get_u64(k, o, "offset", &off) != 1 || k->get_u64(k, o, "len", &len) != 1)
		return k->error(k, o, "payload: \"offset\" and \"len\" (in bits) are required"), NULL;
	if (!payload_raw_valid(off, len))
		return k->error(k, o, "%s", PAYLOAD_RAW_LIMITS), NULL;
	return payload_raw_alloc(loc, base, off, len);
}

/* nft 1.1: { "tunnel": "vxlan", "protocol": "ip", "field": "saddr" },
   the tunnel's own header as { "tunnel": "vxlan", "protocol": "vxlan" } */
static struct expr *payload_tunnel(struct kind_jparse *k, json_t *t,
				   const char *tunnel,
				   const struct location *loc, struct expr *e,
				   const char *proto)
{
	struct location tloc;

	if (!tunnel || e->payload.desc->base == PROTO_BASE_TUN_HDR) {
		if (tunnel && strcmp(tunnel, e->payload.desc->name)) {
			expr_free(e);
			return k->error(k, t, "a %s field is read in a %s tunnel only",
					proto, proto), NULL;
		}
		return inner_field_wrap(e);
	}
	tloc = k->loc(k, t);
	return inner_expr_parse(loc, tunnel, &tloc, e, k->msgs);
}

static struct expr *payload_parse_json(struct kind_jparse *k, const char *key,
				       json_t *o, const struct location *loc)
{
	static const char *const keys[] = { "tunnel", "protocol", "field", NULL };
	const char *proto, *field, *tunnel = NULL;
	struct location ploc, floc;
	struct expr *e;
	json_t *t;

	if (!json_is_object(o))
		return k->error(k, o, "payload: expected an object"), NULL;
	if (json_object_get(o, "base"))
		return raw_payload_parse(k, o, loc);
	if (k->check_keys(k, o, "payload", keys) < 0)
		return NULL;
	proto = k->get_str(k, o, "protocol", true);
	field = k->get_str(k, o, "field", true);
	if (!proto || !field)
		return NULL;
	t = json_object_get(o, "tunnel");
	if (t && !(tunnel = k->get_str(k, o, "tunnel", true)))
		return NULL;
	ploc = k->loc(k, json_object_get(o, "protocol"));
	floc = k->loc(k, json_object_get(o, "field"));
	e = payload_expr_parse(loc, proto, &ploc, field, &floc, k->msgs);
	if (!e)
		return NULL;
	return payload_tunnel(k, t, tunnel, loc, e, proto);
}

/* { "mangle": { "key": { "payload": ... }, "value": V } }: "ip ttl set 1" */
static struct stmt *payload_mangle(struct kind_jparse *k, const struct expr *e,
				   struct expr *val, const struct location *loc)
{
	struct stmt *s = stmt_alloc(loc, STMT_PAYLOAD);

	s->payload.expr = expr_clone(e);
	s->payload.val = val;
	return s;
}

/* --- typeof --------------------------------------------------------------- */

/*
 * How nft numbers headers and their fields in typeof records.  A field's
 * number is its place in @fields, counting from 1; where @fields is empty
 * it is its place in the header's table in proto.c.  Read off what nft
 * 1.0.6 writes for "typeof HEADER FIELD".
 */
static const struct typeof_header {
	const struct proto_desc	*desc;
	uint32_t		id;
	const char		*fields[10];
} typeof_headers[] = {
	{ &proto_ah, 1, { NULL } },
	{ &proto_esp, 2, { NULL } },
	{ &proto_comp, 3, { NULL } },
	{ &proto_icmp, 4, { NULL } },
	{ &proto_igmp, 5, { "type", "checksum", "mrt", "group" } },
	{ &proto_udp, 6, { NULL } },
	{ &proto_udplite, 7, { NULL } },
	{ &proto_tcp, 8, { NULL } },
	{ &proto_dccp, 9, { NULL } },
	{ &proto_sctp, 10, { NULL } },
	{ &proto_th, 11, { NULL } },
	{ &proto_ip, 12, { NULL } },
	{ &proto_ip6, 13, { NULL } },
	{ &proto_icmp6, 14, { "type", "code", "checksum", "parameter-problem",
			      "mtu", "id", "sequence", "max-delay" } },
	{ &proto_arp, 15, { NULL } },
	{ &proto_vlan, 16, { NULL } },
	{ &proto_eth, 17, { NULL } },
};

static const struct typeof_header *typeof_header(const struct proto_desc *d)
{
	for (unsigned int i = 0; i < array_size(typeof_headers); i++)
		if (typeof_headers[i].desc == d)
			return &typeof_headers[i];
	return NULL;
}

static const struct typeof_header *typeof_header_by_id(uint32_t id)
{
	for (unsigned int i = 0; i < array_size(typeof_headers); i++)
		if (typeof_headers[i].id == id)
			return &typeof_headers[i];
	return NULL;
}

/* the wire number of a field, 0 if it has none */
static uint32_t typeof_field_id(const struct typeof_header *h,
				const struct proto_field *f)
{
	const struct proto_desc *d = h->desc;

	if (h->fields[0]) {
		for (unsigned int i = 0; i < array_size(h->fields) && h->fields[i]; i++)
			if (!strcmp(h->fields[i], f->name))
				return i + 1;
		return 0;
	}
	if (f < d->fields || f >= d->fields + PROTO_FIELDS_MAX)
		return 0;
	return f - d->fields + 1;
}

static const struct proto_field *typeof_field(const struct typeof_header *h,
					      uint32_t id)
{
	const struct proto_desc *d = h->desc;

	if (id == 0)
		return NULL;
	if (h->fields[0])
		return id <= array_size(h->fields) && h->fields[id - 1] ?
		       proto_field_lookup(d, h->fields[id - 1]) : NULL;
	if (id > PROTO_FIELDS_MAX || !d->fields[id - 1].name)
		return NULL;
	return &d->fields[id - 1];
}

/* a raw load of the link, network or transport header, or a field nft
   numbers */
static bool payload_typeof_ok(const struct expr *e)
{
	const struct typeof_header *h;

	if (e->payload.is_raw)
		return e->payload.base == PROTO_BASE_LL_HDR ||
		       e->payload.base == PROTO_BASE_NETWORK_HDR ||
		       e->payload.base == PROTO_BASE_TRANSPORT_HDR;
	if (!e->payload.desc || !e->payload.tmpl)
		return false;
	h = typeof_header(e->payload.desc);
	return h && typeof_field_id(h, e->payload.tmpl);
}

static void payload_typeof_put(struct nftnl_udata_buf *b, const struct expr *e)
{
	const struct typeof_header *h;

	if (e->payload.is_raw) {
		nftnl_udata_put_u32(b, TYPEOF_PAYLOAD_DESC, 0);
		nftnl_udata_put_u32(b, TYPEOF_PAYLOAD_FIELD, 0);
		nftnl_udata_put_u32(b, TYPEOF_PAYLOAD_BASE, e->payload.base);
		nftnl_udata_put_u32(b, TYPEOF_PAYLOAD_OFFSET, e->payload.offset);
		nftnl_udata_put_u32(b, TYPEOF_PAYLOAD_LEN, e->len);
		return;
	}
	h = typeof_header(e->payload.desc);
	nftnl_udata_put_u32(b, TYPEOF_PAYLOAD_DESC, h->id);
	nftnl_udata_put_u32(b, TYPEOF_PAYLOAD_FIELD,
			    typeof_field_id(h, e->payload.tmpl));
	if (e->dtype == &integer_type)
		nftnl_udata_put_u32(b, TYPEOF_PAYLOAD_LEN, e->len);
}

static struct expr *payload_typeof_parse(const struct kind_typeof *t,
					 unsigned int family)
{
	const struct typeof_header *h;
	const struct proto_field *f;
	uint32_t id = t->v[TYPEOF_PAYLOAD_DESC], field = t->v[TYPEOF_PAYLOAD_FIELD];

	if (!t->set[TYPEOF_PAYLOAD_DESC] || !t->set[TYPEOF_PAYLOAD_FIELD])
		return NULL;
	if (id == 0 && field == 0) {
		/* a raw payload: base, offset, length */
		uint32_t base = t->v[TYPEOF_PAYLOAD_BASE];
		uint32_t offset = t->v[TYPEOF_PAYLOAD_OFFSET];
		uint32_t len = t->v[TYPEOF_PAYLOAD_LEN];

		if (!t->set[TYPEOF_PAYLOAD_BASE] ||
		    !t->set[TYPEOF_PAYLOAD_OFFSET] ||
		    !t->set[TYPEOF_PAYLOAD_LEN] ||
		    base < PROTO_BASE_LL_HDR || base > PROTO_BASE_TRANSPORT_HDR ||
		    !payload_raw_valid(offset, len))
			return NULL;
		return payload_raw_alloc(&internal_location, base, offset, len);
	}
	h = typeof_header_by_id(id);
	f = h ? typeof_field(h, field) : NULL;
	return f ? payload_expr_alloc(&internal_location, h->desc, f) : NULL;
}

static const struct expr_ops payload_ops = {
	.name		= "payload",
	.nl_name	= "payload",
	.kind		= EXPR_PAYLOAD,
	.eval		= payload_eval,
	.load		= payload_load,
	.bit_offset	= payload_bit_offset,
	.delinearize	= payload_delinearize,
	.match		= payload_match,
	.expand		= payload_expand,
	.print		= payload_print,
	.json		= payload_json,
	.parse_json	= payload_parse_json,
	.mangle		= payload_mangle,
	.typeof_kind	= TYPEOF_KIND_PAYLOAD,
	.typeof_recs	= TYPEOF_PAYLOAD_LEN + 1,
	.typeof_ok	= payload_typeof_ok,
	.typeof_put	= payload_typeof_put,
	.typeof_parse	= payload_typeof_parse,
};
EXPR_OPS_REGISTER(payload_ops);

/* --- "ip ttl set 1": a header field written ------------------------------ */

static int payload_stmt_eval(struct kind_eval *k, struct stmt *s)
{
	if (inner_child(s->payload.expr))
		/* the kernel's inner expression only reads */
		return error_queue(k->msgs, &s->payload.expr->loc,
				   "payload statement for this expression is not supported");
	if (k->header(k, s->payload.expr) < 0)
		return -1;
	k->deps_before(k, s);
	return k->value(k, s->payload.expr, &s->payload.val);
}

/* the bytes around a field of a few bits, its bits replaced by @v's */
static int payload_bits_set(struct kind_lin *k, const struct stmt *s,
			    unsigned int first, unsigned int last)
{
	const struct expr *p = s->payload.expr, *v = s->payload.val;
	unsigned int off = p->payload.offset, len = p->len;
	uint8_t mask[NFH_VAL_MAXLEN], xor[NFH_VAL_MAXLEN];
	unsigned int n = last - first, shift = last * 8 - (off + len);
	uint64_t bits = len >= 64 ? ~0ULL : (1ULL << len) - 1;
	struct nftnl_expr *e;

	if (n > 8)
		return error_queue(k->msgs, &s->loc, "this header field is too wide to set");
	e = k->add(k, "payload");
	nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_DREG, NFT_REG_1);
	nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_BASE, nl_bases[p->payload.base]);
	nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_OFFSET, first);
	nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_LEN, n);
	u64_to_be(~(bits << shift), mask, n);
	u64_to_be((expr_value_u64(v) & bits) << shift, xor, n);
	e = k->add(k, "bitwise");
	nftnl_expr_set_u32(e, NFTNL_EXPR_BITWISE_SREG, NFT_REG_1);
	nftnl_expr_set_u32(e, NFTNL_EXPR_BITWISE_DREG, NFT_REG_1);
	nftnl_expr_set_u32(e, NFTNL_EXPR_BITWISE_LEN, n);
	nftnl_expr_set(e, NFTNL_EXPR_BITWISE_MASK, mask, n);
	nftnl_expr_set(e, NFTNL_EXPR_BITWISE_XOR, xor, n);
	return 0;
}

/*
 * A header field write: whole bytes take an immediate; other fields (and
 * any field under a 16-bit checksum, which is updated a word at a time)
 * load the bytes around them, replace their bits and write them back.
 */
static int payload_stmt_linearize(struct kind_lin *k, const struct stmt *s)
{
	const struct expr *p = s->payload.expr, *v = s->payload.val;
	unsigned int off = p->payload.offset, len = p->len;
	unsigned int first = off / 8, last = div_round_up(off + len, 8);
	uint32_t csum_type, csum_off, csum_flags;
	struct nftnl_expr *e;

	payload_csum(p, &csum_type, &csum_off, &csum_flags);
	if (csum_type != NFT_PAYLOAD_CSUM_NONE) {
		first &= ~1u;
		if ((last - first) & 1)
			last++;
	}
	if (v->kind != EXPR_VALUE) {
		/* a value from the packet ("@nh,64,16 set @nh,64,16 & 0x40ff
		   | 0x4000", as nft lists a rewrite it cannot name): written
		   as loaded, which needs the field to be its whole bytes; or
		   a map's ("ip daddr set numgen inc mod 2 map { ... }") */
		if (first * 8 != off || last * 8 != off + len)
			return error_queue(k->msgs, &v->loc,
					   "setting a header field from another expression is not supported yet");
		if (k->value(k, v, p, p->byteorder) < 0)
			return -1;
	} else if (first * 8 == off && last * 8 == off + len) {
		k->immediate(k, NFT_REG_1, v, p->byteorder);
	} else if (payload_bits_set(k, s, first, last) < 0) {
		return -1;
	}
	e = k->add(k, "payload");
	nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_SREG, NFT_REG_1);
	nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_BASE, nl_bases[p->payload.base]);
	nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_OFFSET, first);
	nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_LEN, last - first);
	nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_CSUM_TYPE, csum_type);
	nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_CSUM_OFFSET, csum_off);
	nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_FLAGS, csum_flags);
	return 0;
}

static void payload_stmt_print(struct kind_print *k, const struct stmt *s)
{
	struct output_ctx ho = *k->octx;
	struct kind_print hk = *k;

	k->expr(k, s->payload.expr);
	fputs(" set ", k->f);
	/* what is written to raw bits prints in hex, as nft */
	if (s->payload.expr->kind == EXPR_PAYLOAD &&
	    s->payload.expr->payload.is_raw) {
		ho.flags |= NFH_PRINT_HEX;
		hk.octx = &ho;
	}
	k->expr(&hk, s->payload.val);
}

/* as nft: { "mangle": { "key": { "payload": ... }, "value": V } } */
static json_t *payload_stmt_json(struct kind_json *k, const struct stmt *s)
{
	return kind_json_wrap("mangle", kind_json_set(
		kind_json_wrap("key", k->expr(k, s->payload.expr)), "value",
		k->expr(k, s->payload.val)));
}

static void payload_stmt_destroy(struct stmt *s)
{
	expr_free(s->payload.expr);
	expr_free(s->payload.val);
}

/* no keyword of its own ("ip ttl set 1" starts with a field); the kernel
   expression is payload_ops' to read back, and JSON's "mangle" is the
   field's (payload_mangle) */
static const struct stmt_ops payload_stmt_ops = {
	.kind		= STMT_PAYLOAD,
	.eval		= payload_stmt_eval,
	.linearize	= payload_stmt_linearize,
	.print		= payload_stmt_print,
	.json		= payload_stmt_json,
	.destroy	= payload_stmt_destroy,
	.not_offered	= true,
};
STMT_OPS_REGISTER(payload_stmt_ops);
