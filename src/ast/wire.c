// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A constant's bytes as the kernel keeps them: in register order, as the
 * bounds of a prefix or range, as a set key (concatenations in 32-bit
 * slots).  The set element encoder, the linearizer and the delinearizer
 * share these.
 */
#include <string.h>

#include <datatype.h>
#include <expr.h>
#include <wire.h>

bool wire_is_string(const struct datatype *dt)
{
	return dt == &ifname_type || dt == &string_type;
}

bool elem_host_number(const struct expr *e)
{
	return e->byteorder == BYTEORDER_HOST && !wire_is_string(e->dtype) &&
	       e->len > 8;
}

unsigned int value_wire(const struct expr *v, enum byteorder bo, uint8_t *out)
{
	unsigned int n = expr_value_bytes(v);

	memcpy(out, v->val.data, n);
	if (bo == BYTEORDER_HOST && !wire_is_string(v->dtype))
		bytes_reverse(out, n);
	return n;
}

void prefix_bounds(const struct expr *p, uint8_t *lo, uint8_t *hi)
{
	unsigned int n = expr_value_bytes(p->prefix.expr);

	memcpy(lo, p->prefix.expr->val.data, n);
	memcpy(hi, p->prefix.expr->val.data, n);
	for (unsigned int bit = p->prefix.prefix_len; bit < n * 8; bit++) {
		lo[bit / 8] &= ~(0x80 >> (bit % 8));
		hi[bit / 8] |= 0x80 >> (bit % 8);
	}
}

/* big-endian bounds of a value, range or prefix, @n bytes each */
void value_bounds(const struct expr *k, unsigned int n, uint8_t *lo,
		   uint8_t *hi)
{
	memset(lo, 0, n);
	memset(hi, 0, n);
	switch (k->kind) {
	case EXPR_RANGE:
		memcpy(lo, k->range.left->val.data, n);
		memcpy(hi, k->range.right->val.data, n);
		break;
	case EXPR_PREFIX:
		prefix_bounds(k, lo, hi);
		break;
	default:
		memcpy(lo, k->val.data, n);
		memcpy(hi, k->val.data, n);
		break;
	}
}

unsigned int key_wire(const struct expr *key, const struct expr *v, bool hi,
		      uint8_t *out)
{
	uint8_t l[NFH_VAL_MAXLEN], h[NFH_VAL_MAXLEN];
	const struct expr *i, *c;
	unsigned int off = 0;

	memset(out, 0, NFH_VAL_MAXLEN);
	if (key->kind != EXPR_CONCAT) {
		unsigned int n = div_round_up(key->len, 8);
		struct expr tmp;

		value_bounds(v, n, l, h);
		tmp = *key;
		tmp.kind = EXPR_VALUE;
		memcpy(tmp.val.data, hi ? h : l, n);
		value_wire(&tmp, key->byteorder, out);
		return n;
	}
	c = list_first_entry(&v->set.exprs, struct expr, list);
	list_for_each_entry(i, &key->set.exprs, list) {
		unsigned int n = div_round_up(i->len, 8);
		struct expr tmp = *i;

		value_bounds(c, n, l, h);
		tmp.kind = EXPR_VALUE;
		memcpy(tmp.val.data, hi ? h : l, n);
		value_wire(&tmp, i->byteorder, out + off);
		off += div_round_up(i->len, 32) * 4;
		c = list_next_entry(c, list);
	}
	return off;
}

bool range_is_prefix(const struct expr *r, unsigned int *plen)
{
	const struct expr *lo = r->range.left, *hi = r->range.right;
	unsigned int n = expr_value_bytes(lo), bits = n * 8, p;

	/* [lo, hi] is a prefix when lo has zeros and hi ones past bit p */
	for (p = 0; p < bits; p++) {
		uint8_t m = 0x80 >> (p % 8);

		if ((lo->val.data[p / 8] & m) != (hi->val.data[p / 8] & m))
			break;
	}
	for (unsigned int b = p; b < bits; b++) {
		uint8_t m = 0x80 >> (b % 8);

		if ((lo->val.data[b / 8] & m) || !(hi->val.data[b / 8] & m))
			return false;
	}
	*plen = p;
	return p < bits;
}

/* whether [lo, hi] holds the names that start with some bytes: "eth*" */
bool range_is_wildcard(const struct expr *r)
{
	const struct datatype *dt = r->range.left->dtype;
	unsigned int plen;

	return (dt == &ifname_type || dt == &string_type) &&
	       range_is_prefix(r, &plen) && plen % 8 == 0;
}
