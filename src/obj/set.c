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

#include <kind.h>
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

/* a kind that writes typeof records of its own */
static bool typeof_one_ok(const struct expr *e)
{
	return e->ops && e->ops->typeof_put &&
	       (!e->ops->typeof_ok || e->ops->typeof_ok(e));
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
	const struct expr *i;
	unsigned int n = 0;

	switch (e ? e->kind : EXPR_VERDICT) {
	case EXPR_CONCAT:
		list_for_each_entry(i, &e->set.exprs, list)
			typeof_put_one(b, n++, i);
		break;
	default:
		if (e && e->ops && e->ops->typeof_put)
			e->ops->typeof_put(b, e);
		break;
	}
}

static uint32_t typeof_kind(const struct expr *e)
{
	switch (e ? e->kind : EXPR_VERDICT) {
	case EXPR_CONCAT:	return TYPEOF_KIND_CONCAT;
	default:
		return e && e->ops && e->ops->typeof_put ? e->ops->typeof_kind :
		       TYPEOF_KIND_VERDICT;
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

/* the selector of a kind that reads typeof records of its own: each of
   its records a u32, as nft writes them; NULL if none */
static struct expr *typeof_of_kind(uint32_t kind, const struct udrec *data,
				   unsigned int family)
{
	const struct expr_ops *ops = expr_ops_by_typeof_kind(kind);
	struct udrec tb[KIND_TYPEOF_RECS];
	struct kind_typeof t = { 0 };

	if (!ops || !udtab_parse(data->v, data->n, tb, ops->typeof_recs))
		return NULL;
	for (unsigned int i = 0; i < ops->typeof_recs; i++) {
		if (!tb[i].set)
			continue;
		if (!rec_u32(&tb[i], &t.v[i]))
			return NULL;
		t.set[i] = true;
	}
	return ops->typeof_parse(&t, family);
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
	case TYPEOF_KIND_VERDICT:
		if (depth == 0 && verdict)
			*verdict = true;
		return NULL;
	case TYPEOF_KIND_CONCAT:
		break;
	default:
		return typeof_of_kind(kind, &tb[TYPEOF_UDATA_DATA], family);
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
