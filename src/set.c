// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Set and map key types: what the kernel keeps of a "type" or "typeof"
 * declaration, and how to read it back.
 */
#include <stdlib.h>
#include <string.h>
#include <libnftnl/set.h>
#include <libnftnl/udata.h>

#include <set.h>

#define TYPE_BITS	6
#define TYPE_MASK	((1u << TYPE_BITS) - 1)

struct expr *set_type_placeholder(const struct location *loc,
				  const struct datatype *dt, unsigned int len,
				  enum byteorder bo)
{
	return constant_expr_alloc(loc, dt, bo, len, NULL);
}

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
