// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Set and map key types: what the kernel keeps of a "type" or "typeof"
 * declaration, and how to read it back.
 */
#include <stdlib.h>
#include <string.h>
#include <libnftnl/set.h>
#include <libnftnl/udata.h>

#include <linux/netfilter/nf_tables.h>

#include <proto.h>
#include <set.h>

#define TYPE_BITS	6
#define TYPE_MASK	((1u << TYPE_BITS) - 1)

uint32_t set_key_type(const struct expr *key)
{
	const struct expr *i;
	uint32_t type = 0;

	if (key->kind != EXPR_CONCAT)
		return key->dtype->type;
	list_for_each_entry(i, &key->set.exprs, list)
		type = (type << TYPE_BITS) | i->dtype->type;
	return type;
}

unsigned int set_key_bytes(const struct expr *key)
{
	const struct expr *i;
	unsigned int n = 0;

	if (key->kind != EXPR_CONCAT)
		return div_round_up(key->len, 8);
	list_for_each_entry(i, &key->set.exprs, list)
		n += div_round_up(i->len, 32) * 4;
	return n;
}

unsigned int set_key_type_parts(uint32_t type, const struct datatype **sub,
				unsigned int max)
{
	unsigned int n = 0;

	for (uint32_t t = type; t; t >>= TYPE_BITS)
		n++;
	if (n < 2 || n > max)
		return 0;
	/* the last part sits in the lowest bits */
	for (unsigned int i = n; i > 0; i--, type >>= TYPE_BITS) {
		sub[i - 1] = datatype_lookup(type & TYPE_MASK);
		if (!sub[i - 1])
			return 0;
	}
	return n;
}

struct expr *set_key_decode(uint32_t type, uint32_t len, enum byteorder bo)
{
	const struct datatype *dt = datatype_lookup(type);
	const struct datatype *sub[16];
	unsigned int n = 0, bytes = 0;
	struct expr *c;

	if (dt && (type <= TYPE_MASK || !dt->size || dt->size == len * 8)) {
		unsigned int bits = len * 8;

		if (dt->size && dt->size < bits)
			bits = dt->size;
		return set_type_placeholder(NULL, dt, bits,
					    dt->byteorder != BYTEORDER_INVALID &&
					    bo == BYTEORDER_INVALID ?
					    dt->byteorder : bo);
	}
	/* a concatenation: the last component sits in the lowest bits */
	while (type && n < array_size(sub)) {
		sub[n] = datatype_lookup(type & TYPE_MASK);
		if (!sub[n] || !sub[n]->size)
			return NULL;
		bytes += div_round_up(sub[n]->size, 32) * 4;
		type >>= TYPE_BITS;
		n++;
	}
	if (type || n < 2 || bytes != len)
		return NULL;
	c = compound_expr_alloc(NULL, EXPR_CONCAT);
	while (n-- > 0)
		compound_expr_add(c, set_type_placeholder(NULL, sub[n], sub[n]->size,
							  sub[n]->byteorder));
	c->len = len * 8;
	return c;
}

void set_key_print(const struct expr *key, FILE *f)
{
	const struct expr *i;
	const char *sep = "";

	if (key->kind != EXPR_CONCAT) {
		fputs(key->dtype->name, f);
		return;
	}
	list_for_each_entry(i, &key->set.exprs, list) {
		fprintf(f, "%s%s", sep, i->dtype->name);
		sep = " . ";
	}
}

void udata_foreach(const void *data, uint32_t len,
		   void (*cb)(uint8_t type, const uint8_t *val, uint8_t n,
			      void *arg),
		   void *arg)
{
	const uint8_t *p = data, *end = p + len;

	while (p && end - p >= 2) {
		uint8_t type = p[0], n = p[1];

		if (n > end - p - 2)
			break;
		cb(type, p + 2, n, arg);
		p += 2 + n;
	}
}

static uint32_t u32_of(const uint8_t *v)
{
	uint32_t x;

	memcpy(&x, v, sizeof(x));
	return x;
}

static void set_udata_cb(uint8_t type, const uint8_t *v, uint8_t n, void *arg)
{
	struct set_udata *ud = arg;

	switch (type) {
	case SET_UDATA_KEYBYTEORDER:
		if (n == 4)
			ud->key_bo = u32_of(v);
		break;
	case SET_UDATA_DATABYTEORDER:
		if (n == 4)
			ud->data_bo = u32_of(v);
		break;
	case SET_UDATA_MERGE_ELEMENTS:
		ud->merge = true;
		break;
	case SET_UDATA_KEY_TYPEOF:
		ud->key_typeof = v;
		ud->key_typeof_len = n;
		break;
	case SET_UDATA_DATA_TYPEOF:
		ud->data_typeof = v;
		ud->data_typeof_len = n;
		break;
	case SET_UDATA_DATA_INTERVAL:
		if (n == 4)
			ud->data_interval = u32_of(v) != 0;
		break;
	case SET_UDATA_COMMENT:
		free(ud->comment);
		ud->comment = xstrndup((const char *)v, n);
		break;
	default:
		break;
	}
}

void set_udata_parse(const struct nftnl_set *nls, struct set_udata *ud)
{
	const void *data;
	uint32_t len;

	memset(ud, 0, sizeof(*ud));
	if (!nftnl_set_is_set(nls, NFTNL_SET_USERDATA))
		return;
	data = nftnl_set_get_data(nls, NFTNL_SET_USERDATA, &len);
	if (data)
		udata_foreach(data, len, set_udata_cb, ud);
	if (ud->key_bo > BYTEORDER_BIG)
		ud->key_bo = BYTEORDER_INVALID;
	if (ud->data_bo > BYTEORDER_BIG)
		ud->data_bo = BYTEORDER_INVALID;
}

/* --- typeof ------------------------------------------------------------- */

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

static bool typeof_one_ok(const struct expr *e)
{
	const struct typeof_header *h;

	switch (e->kind) {
	case EXPR_PAYLOAD:
		/* a raw load of the link, network or transport header */
		if (e->payload.is_raw)
			return e->payload.base == PROTO_BASE_LL_HDR ||
			       e->payload.base == PROTO_BASE_NETWORK_HDR ||
			       e->payload.base == PROTO_BASE_TRANSPORT_HDR;
		if (!e->payload.desc || !e->payload.tmpl)
			return false;
		h = typeof_header(e->payload.desc);
		return h && typeof_field_id(h, e->payload.tmpl);
	case EXPR_EXTHDR: {
		uint32_t id, field;

		return e->exthdr.tmpl && !(e->exthdr.flags & NFT_EXTHDR_F_PRESENT) &&
		       typeof_exthdr_ids(e->exthdr.desc, e->exthdr.tmpl, &id, &field);
	}
	case EXPR_META:
	case EXPR_CT:
		return true;
	default:
		return false;
	}
}

bool set_typeof_ok(const struct expr *sel)
{
	const struct expr *i;

	if (sel->kind != EXPR_CONCAT)
		return typeof_one_ok(sel);
	list_for_each_entry(i, &sel->set.exprs, list)
		if (!typeof_one_ok(i))
			return false;
	return true;
}

static void typeof_put_one(struct nftnl_udata_buf *b, unsigned int type,
			   const struct expr *e);

static void typeof_put_data(struct nftnl_udata_buf *b, const struct expr *e)
{
	const struct typeof_header *h;
	const struct expr *i;
	unsigned int n = 0;

	switch (e ? e->kind : EXPR_VERDICT) {
	case EXPR_PAYLOAD:
		if (e->payload.is_raw) {
			nftnl_udata_put_u32(b, TYPEOF_PAYLOAD_DESC, 0);
			nftnl_udata_put_u32(b, TYPEOF_PAYLOAD_FIELD, 0);
			nftnl_udata_put_u32(b, TYPEOF_PAYLOAD_BASE, e->payload.base);
			nftnl_udata_put_u32(b, TYPEOF_PAYLOAD_OFFSET, e->payload.offset);
			nftnl_udata_put_u32(b, TYPEOF_PAYLOAD_LEN, e->len);
			break;
		}
		h = typeof_header(e->payload.desc);
		nftnl_udata_put_u32(b, TYPEOF_PAYLOAD_DESC, h->id);
		nftnl_udata_put_u32(b, TYPEOF_PAYLOAD_FIELD,
				    typeof_field_id(h, e->payload.tmpl));
		if (e->dtype == &integer_type)
			nftnl_udata_put_u32(b, TYPEOF_PAYLOAD_LEN, e->len);
		break;
	case EXPR_EXTHDR: {
		uint32_t id = 0, field = 0;

		/* in nft's order: the field, the kind of header, the header */
		typeof_exthdr_ids(e->exthdr.desc, e->exthdr.tmpl, &id, &field);
		nftnl_udata_put_u32(b, TYPEOF_EXTHDR_FIELD, field);
		if (e->exthdr.op != NFT_EXTHDR_OP_IPV6)
			nftnl_udata_put_u32(b, TYPEOF_EXTHDR_OP, e->exthdr.op);
		nftnl_udata_put_u32(b, TYPEOF_EXTHDR_DESC, id);
		break;
	}
	case EXPR_META:
		nftnl_udata_put_u32(b, 0, e->meta.key);
		break;
	case EXPR_CT:
		nftnl_udata_put_u32(b, 0, e->ct.key);
		nftnl_udata_put_u32(b, 1, (uint32_t)e->ct.dir);
		break;
	case EXPR_CONCAT:
		list_for_each_entry(i, &e->set.exprs, list)
			typeof_put_one(b, n++, i);
		break;
	default:
		break;
	}
}

static uint32_t typeof_kind(const struct expr *e)
{
	switch (e ? e->kind : EXPR_VERDICT) {
	case EXPR_PAYLOAD:	return TYPEOF_KIND_PAYLOAD;
	case EXPR_EXTHDR:	return TYPEOF_KIND_EXTHDR;
	case EXPR_META:		return TYPEOF_KIND_META;
	case EXPR_CT:		return TYPEOF_KIND_CT;
	case EXPR_CONCAT:	return TYPEOF_KIND_CONCAT;
	default:		return TYPEOF_KIND_VERDICT;
	}
}

static void typeof_put_one(struct nftnl_udata_buf *b, unsigned int type,
			   const struct expr *e)
{
	struct nftnl_udata *outer = nftnl_udata_nest_start(b, type), *inner;

	nftnl_udata_put_u32(b, TYPEOF_UDATA_KIND, typeof_kind(e));
	inner = nftnl_udata_nest_start(b, TYPEOF_UDATA_DATA);
	typeof_put_data(b, e);
	nftnl_udata_nest_end(b, inner);
	nftnl_udata_nest_end(b, outer);
}

void set_typeof_put(struct nftnl_udata_buf *b, unsigned int type,
		    const struct expr *sel)
{
	typeof_put_one(b, type, sel);
}

/* up to @max records of a nest by type; a repeated type keeps the last */
struct udrec {
	const uint8_t	*v;
	uint8_t		n;
	bool		set;
};

struct udtab {
	struct udrec	*tb;
	unsigned int	max;
	bool		bad;
};

static void udtab_cb(uint8_t type, const uint8_t *v, uint8_t n, void *arg)
{
	struct udtab *t = arg;

	if (type >= t->max) {
		t->bad = true;
		return;
	}
	t->tb[type] = (struct udrec){ .v = v, .n = n, .set = true };
}

static bool udtab_parse(const uint8_t *v, uint8_t n, struct udrec *tb,
			unsigned int max)
{
	struct udtab t = { .tb = tb, .max = max };

	memset(tb, 0, max * sizeof(*tb));
	udata_foreach(v, n, udtab_cb, &t);
	return !t.bad;
}

static bool rec_u32(const struct udrec *r, uint32_t *x)
{
	if (!r->set || r->n != sizeof(*x))
		return false;
	*x = u32_of(r->v);
	return true;
}

static struct expr *typeof_payload(const struct udrec *data)
{
	struct udrec tb[TYPEOF_PAYLOAD_LEN + 1];
	const struct typeof_header *h;
	const struct proto_field *f;
	uint32_t id, field;

	if (!udtab_parse(data->v, data->n, tb, array_size(tb)) ||
	    !rec_u32(&tb[TYPEOF_PAYLOAD_DESC], &id) ||
	    !rec_u32(&tb[TYPEOF_PAYLOAD_FIELD], &field))
		return NULL;
	if (id == 0 && field == 0) {
		/* a raw payload: base, offset, length */
		uint32_t base, offset, len;

		if (!rec_u32(&tb[TYPEOF_PAYLOAD_BASE], &base) ||
		    !rec_u32(&tb[TYPEOF_PAYLOAD_OFFSET], &offset) ||
		    !rec_u32(&tb[TYPEOF_PAYLOAD_LEN], &len) ||
		    base < PROTO_BASE_LL_HDR || base > PROTO_BASE_TRANSPORT_HDR ||
		    !payload_raw_valid(offset, len))
			return NULL;
		return payload_raw_alloc(&internal_location, base, offset, len);
	}
	h = typeof_header_by_id(id);
	f = h ? typeof_field(h, field) : NULL;
	return f ? payload_expr_alloc(&internal_location, h->desc, f) : NULL;
}

static struct expr *typeof_exthdr(const struct udrec *data)
{
	struct udrec tb[TYPEOF_EXTHDR_OP + 1];
	uint32_t id, field, op = NFT_EXTHDR_OP_IPV6;

	if (!udtab_parse(data->v, data->n, tb, array_size(tb)) ||
	    !rec_u32(&tb[TYPEOF_EXTHDR_DESC], &id) ||
	    !rec_u32(&tb[TYPEOF_EXTHDR_FIELD], &field) ||
	    (tb[TYPEOF_EXTHDR_OP].set && !rec_u32(&tb[TYPEOF_EXTHDR_OP], &op)))
		return NULL;
	return typeof_exthdr_of(op, id, field);
}

static struct expr *typeof_meta(const struct udrec *data)
{
	struct udrec tb[1];
	uint32_t key;

	if (!udtab_parse(data->v, data->n, tb, array_size(tb)) ||
	    !rec_u32(&tb[0], &key) || !meta_template(key))
		return NULL;
	return meta_expr_alloc(&internal_location, key);
}

static struct expr *typeof_ct(const struct udrec *data, unsigned int family)
{
	struct udrec tb[2];
	uint32_t key, dir;
	struct expr *e;

	if (!udtab_parse(data->v, data->n, tb, array_size(tb)) ||
	    !rec_u32(&tb[0], &key) || !rec_u32(&tb[1], &dir) ||
	    !ct_template(key) || (dir > 1 && dir != UINT32_MAX))
		return NULL;
	e = ct_expr_alloc(&internal_location, key, dir == UINT32_MAX ? -1 : (int)dir);
	ct_expr_family(e, family);
	return e;
}

/* one selector; a concatenation only at the top (@depth 0) */
static struct expr *typeof_one(const uint8_t *v, uint8_t n,
			       unsigned int family, bool *verdict,
			       unsigned int depth)
{
	struct udrec tb[2], sub[NFT_REG32_COUNT];
	struct expr *c, *e;
	uint32_t kind;
	unsigned int i;

	if (!udtab_parse(v, n, tb, array_size(tb)) ||
	    !rec_u32(&tb[TYPEOF_UDATA_KIND], &kind) || !tb[TYPEOF_UDATA_DATA].set)
		return NULL;
	switch (kind) {
	case TYPEOF_KIND_PAYLOAD:
		return typeof_payload(&tb[TYPEOF_UDATA_DATA]);
	case TYPEOF_KIND_EXTHDR:
		return typeof_exthdr(&tb[TYPEOF_UDATA_DATA]);
	case TYPEOF_KIND_META:
		return typeof_meta(&tb[TYPEOF_UDATA_DATA]);
	case TYPEOF_KIND_CT:
		return typeof_ct(&tb[TYPEOF_UDATA_DATA], family);
	case TYPEOF_KIND_VERDICT:
		if (depth == 0 && verdict)
			*verdict = true;
		return NULL;
	case TYPEOF_KIND_CONCAT:
		break;
	default:
		return NULL;
	}
	if (depth > 0 ||
	    !udtab_parse(tb[1].v, tb[1].n, sub, array_size(sub)) ||
	    !sub[0].set || !sub[1].set)
		return NULL;
	c = compound_expr_alloc(&internal_location, EXPR_CONCAT);
	for (i = 0; i < array_size(sub) && sub[i].set; i++) {
		e = typeof_one(sub[i].v, sub[i].n, family, NULL, depth + 1);
		if (!e) {
			expr_free(c);
			return NULL;
		}
		compound_expr_add(c, e);
	}
	/* the components are numbered 0, 1, ... without gaps */
	for (; i < array_size(sub); i++)
		if (sub[i].set) {
			expr_free(c);
			return NULL;
		}
	c->len = 0;
	list_for_each_entry(e, &c->set.exprs, list)
		c->len += div_round_up(e->len, 32) * 32;
	return c;
}

struct expr *set_typeof_parse(const uint8_t *v, uint8_t n,
			      unsigned int family, bool *verdict)
{
	*verdict = false;
	if (!v)
		return NULL;
	return typeof_one(v, n, family, verdict, 0);
}

struct expr *set_key_of_selector(const struct expr *sel)
{
	const struct expr *i;
	struct expr *c;

	if (sel->kind != EXPR_CONCAT)
		return set_type_placeholder(&sel->loc, sel->dtype, sel->len,
					    sel->byteorder);
	c = compound_expr_alloc(&sel->loc, EXPR_CONCAT);
	list_for_each_entry(i, &sel->set.exprs, list)
		compound_expr_add(c, set_key_of_selector(i));
	c->len = sel->len;
	return c;
}
