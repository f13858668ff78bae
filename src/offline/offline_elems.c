// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The offline kernel model's answer to new set elements (offline_elems.h):
 * the EEXIST cases of nft_add_set_elem() and of the rbtree and pipapo
 * backends, so that --offline refuses what the kernel refuses ("add
 * element" of a map key with another value, of an interval inside another,
 * "create element" of one held), in one batch or across two.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/netlink.h>
#include <libnftnl/set.h>
#include <offline_elems.h>
#include <utils.h>

/* one element, by what the kernel keys it on */
struct ekey {
	const uint8_t		*key, *kend;
	uint32_t		klen, kelen;
	uint32_t		kind;	/* interval end, catch-all */
	struct nftnl_set_elem	*e;
};

static const uint8_t *attr_bytes(struct nftnl_set_elem *e, uint16_t attr,
				 uint32_t *len)
{
	*len = 0;
	if (!nftnl_set_elem_is_set(e, attr))
		return NULL;
	return nftnl_set_elem_get(e, attr, len);
}

static uint32_t elem_flags(struct nftnl_set_elem *e)
{
	return nftnl_set_elem_is_set(e, NFTNL_SET_ELEM_FLAGS) ?
	       nftnl_set_elem_get_u32(e, NFTNL_SET_ELEM_FLAGS) : 0;
}

static bool attr_same(struct nftnl_set_elem *a, struct nftnl_set_elem *b,
		      uint16_t attr)
{
	uint32_t la, lb;
	const uint8_t *x = attr_bytes(a, attr, &la), *y = attr_bytes(b, attr, &lb);

	if (attr == NFTNL_SET_ELEM_CHAIN || attr == NFTNL_SET_ELEM_OBJREF)
		return (!x && !y) ||
		       (x && y && !strcmp((const char *)x, (const char *)y));
	return la == lb && (!la || !memcmp(x, y, la));
}

static int bytes_cmp(const uint8_t *a, uint32_t la, const uint8_t *b,
		     uint32_t lb)
{
	int c;

	if (la != lb)
		return la < lb ? -1 : 1;
	c = la ? memcmp(a, b, la) : 0;
	return c;
}

/* by key, an interval's end before a start at the same key (it ends the
   interval below, which runs up to that start), then the end of range */
static int ekey_cmp(const void *pa, const void *pb)
{
	const struct ekey *a = pa, *b = pb;
	int c = bytes_cmp(a->key, a->klen, b->key, b->klen);

	if (c)
		return c;
	if (a->kind != b->kind)
		return a->kind > b->kind ? -1 : 1;
	return bytes_cmp(a->kend, a->kelen, b->kend, b->kelen);
}

static void ekey_fill(struct ekey *k, struct nftnl_set_elem *e)
{
	k->e = e;
	k->kind = elem_flags(e) & (NFT_SET_ELEM_INTERVAL_END |
				   NFT_SET_ELEM_CATCHALL);
	k->key = attr_bytes(e, NFTNL_SET_ELEM_KEY, &k->klen);
	k->kend = attr_bytes(e, NFTNL_SET_ELEM_KEY_END, &k->kelen);
}

/* @s's elements, in its order */
static struct ekey *ekeys_in_order(struct nftnl_set *s, size_t *n)
{
	struct nftnl_set_elems_iter *i = nftnl_set_elems_iter_create(s);
	struct nftnl_set_elem *e;
	struct ekey *k = NULL;
	size_t m = 0, cap = 0;

	while ((e = nftnl_set_elems_iter_next(i))) {
		if (m == cap) {
			cap = cap ? 2 * cap : 64;
			k = xrealloc(k, cap * sizeof(*k));
		}
		ekey_fill(&k[m++], e);
	}
	nftnl_set_elems_iter_destroy(i);
	*n = m;
	return k;
}

/* @s's elements, sorted */
static struct ekey *ekeys_of(struct nftnl_set *s, size_t *n)
{
	struct ekey *k = ekeys_in_order(s, n);

	if (*n)
		qsort(k, *n, sizeof(*k), ekey_cmp);
	return k;
}

struct elems_memo {
	struct nftnl_set	*held;
	struct ekey		*k;	/* its elements, sorted */
	size_t			n, cap;
	uint8_t			*top;	/* boxes: the highest first-field end
					   up to each element */
	size_t			top_n;	/* how many @top covers */
	uint32_t		f0;
};

struct elems_memo *elems_memo_new(void)
{
	return xzalloc(sizeof(struct elems_memo));
}

void elems_memo_reset(struct elems_memo *m)
{
	free(m->k);
	free(m->top);
	*m = (struct elems_memo){ 0 };
}

void elems_memo_free(struct elems_memo *m)
{
	if (!m)
		return;
	elems_memo_reset(m);
	free(m);
}

static void memo_of(struct elems_memo *m, struct nftnl_set *held)
{
	if (m->held == held)
		return;
	elems_memo_reset(m);
	m->held = held;
	m->k = ekeys_of(held, &m->n);
	m->cap = m->n;
}

/* the first element of @m not below @k */
static size_t lower_bound(const struct elems_memo *m, const struct ekey *k)
{
	size_t lo = 0, hi = m->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ekey_cmp(&m->k[mid], k) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* one key again: with other data, or NLM_F_EXCL, EEXIST */
static int key_again(struct nftnl_set_elem *old, struct nftnl_set_elem *e,
		     uint16_t nlflags)
{
	if (!attr_same(old, e, NFTNL_SET_ELEM_DATA) ||
	    !attr_same(old, e, NFTNL_SET_ELEM_VERDICT) ||
	    !attr_same(old, e, NFTNL_SET_ELEM_CHAIN) ||
	    !attr_same(old, e, NFTNL_SET_ELEM_OBJREF) ||
	    (nlflags & NLM_F_EXCL))
		return EEXIST;
	return 0;
}

static int keys_check(const struct elems_memo *m, const struct ekey *a,
		      size_t na, uint16_t nlflags, bool *held_again)
{
	for (size_t i = 0; i < na; i++) {
		size_t p = lower_bound(m, &a[i]);
		int err;

		if (p == m->n || ekey_cmp(&m->k[p], &a[i]))
			continue;
		err = key_again(m->k[p].e, a[i].e, nlflags);
		if (err)
			return err;
		held_again[i] = true;
	}
	return 0;
}

static bool is_start(const struct ekey *k)
{
	return k->key && !k->kend && !k->kind;
}

static bool is_end(const struct ekey *k)
{
	return k->key && !k->kend && (k->kind & NFT_SET_ELEM_INTERVAL_END);
}

/*
 * rbtree: the new interval [@a, its end) against what @m holds; @a is a
 * start of the message's sorted elements @k (@n of them).  A held start
 * with no end above it counts as its own value only (its end may come in
 * the batch's next message).
 */
static int line_clash(const struct elems_memo *m, const struct ekey *k,
		      size_t n, size_t a)
{
	const uint8_t *lo = k[a].key, *hi = NULL;
	uint32_t len = k[a].klen;
	size_t p = lower_bound(m, &k[a]);

	if (a + 1 < n && is_end(&k[a + 1]) && k[a + 1].klen == len)
		hi = k[a + 1].key;
	/* a held interval that starts below and ends above @lo */
	if (p > 0 && is_start(&m->k[p - 1]) && m->k[p - 1].klen == len &&
	    p < m->n && is_end(&m->k[p]) && m->k[p].klen == len &&
	    memcmp(m->k[p].key, lo, len) > 0)
		return EEXIST;
	/* the end of the interval below, at @lo, touches it only */
	while (p < m->n && is_end(&m->k[p]) && m->k[p].klen == len &&
	       !memcmp(m->k[p].key, lo, len))
		p++;
	/* a held start inside [lo, hi): only the same interval may be */
	if (p < m->n && is_start(&m->k[p]) && m->k[p].klen == len &&
	    (!hi || memcmp(m->k[p].key, hi, len) < 0)) {
		bool same = !memcmp(m->k[p].key, lo, len) &&
			    ((!hi && (p + 1 == m->n || !is_end(&m->k[p + 1]))) ||
			     (hi && p + 1 < m->n && is_end(&m->k[p + 1]) &&
			      !memcmp(m->k[p + 1].key, hi, len)));

		if (!same)
			return EEXIST;
	}
	return 0;
}

/* whether the point @p is in the box @b, field by field (@fl: the
   fields' lengths, each in registers of 4 bytes) */
static bool box_holds(const struct ekey *b, const uint8_t *p,
		      const uint8_t *fl, uint32_t nf)
{
	uint32_t off = 0;

	for (uint32_t f = 0; f < nf && off < b->klen; f++) {
		if (memcmp(p + off, b->key + off, fl[f]) < 0 ||
		    memcmp(p + off, b->kend + off, fl[f]) > 0)
			return false;
		off += (fl[f] + 3) & ~3u;
	}
	return true;
}

static void memo_top(struct elems_memo *m, uint32_t f0)
{
	static const uint8_t zero[NFT_REG32_COUNT * 4];

	if (m->f0 != f0)
		m->top_n = 0;
	if (m->top_n == m->n && m->top)
		return;
	m->f0 = f0;
	/* what was appended since is added; after a merge, all of it */
	m->top = xrealloc(m->top, m->n * f0 + 1);
	for (size_t j = m->top_n; j < m->n; j++) {
		const uint8_t *t = m->k[j].kend && m->k[j].kelen >= f0 ?
				   m->k[j].kend : zero;

		if (j && memcmp(m->top + (j - 1) * f0, t, f0) > 0)
			t = m->top + (j - 1) * f0;
		memcpy(m->top + j * f0, t, f0);
	}
	m->top_n = m->n;
}

/* pipapo: a held range, other than @self, that holds the point @p */
static bool box_hit(const struct elems_memo *m, const struct ekey *self,
		    const uint8_t *p, const uint8_t *fl, uint32_t nf)
{
	uint32_t f0 = fl[0];
	size_t lo = 0, hi = m->n;

	/* the ranges whose first field starts at or below @p's */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->k[mid].key && m->k[mid].klen >= f0 &&
		    memcmp(m->k[mid].key, p, f0) > 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	while (lo-- > 0) {
		const struct ekey *b = &m->k[lo];

		if (memcmp(m->top + lo * f0, p, f0) < 0)
			break;	/* none up to here ends at or above @p */
		if (b->kend && b->klen == self->klen &&
		    ekey_cmp(b, self) && box_holds(b, p, fl, nf))
			return true;
	}
	return false;
}

static int boxes_check(struct elems_memo *m, const struct ekey *a, size_t na)
{
	const uint8_t *fl = NULL;
	uint32_t nf = 0;
	uint8_t one;

	if (nftnl_set_is_set(m->held, NFTNL_SET_DESC_CONCAT))
		fl = nftnl_set_get_data(m->held, NFTNL_SET_DESC_CONCAT, &nf);
	for (size_t i = 0; i < na; i++) {
		if (!a[i].kend || a[i].kelen != a[i].klen)
			continue;
		if (!fl || !nf) {
			one = a[i].klen;	/* one field: the whole key */
			fl = &one;
			nf = 1;
		}
		memo_top(m, fl[0]);
		if (box_hit(m, &a[i], a[i].key, fl, nf) ||
		    box_hit(m, &a[i], a[i].kend, fl, nf))
			return EEXIST;
	}
	return 0;
}

int offline_elems_check(struct elems_memo *m, struct nftnl_set *held,
			struct nftnl_set *add, uint16_t nlflags,
			bool *held_again)
{
	size_t na;
	struct ekey *a, *in_order;
	int err;

	memo_of(m, held);
	/* held_again[] follows the message's order; the spans want them
	   sorted */
	in_order = ekeys_in_order(add, &na);
	a = xmalloc((na + 1) * sizeof(*a));
	if (na) {
		memcpy(a, in_order, na * sizeof(*a));
		qsort(a, na, sizeof(*a), ekey_cmp);
	}
	err = keys_check(m, in_order, na, nlflags, held_again);
	if (!err && (nftnl_set_get_u32(held, NFTNL_SET_FLAGS) & NFT_SET_INTERVAL)) {
		for (size_t i = 0; i < na && !err; i++)
			if (is_start(&a[i]))
				err = line_clash(m, a, na, i);
		if (!err)
			err = boxes_check(m, a, na);
	}
	free(in_order);
	free(a);
	return err;
}

void offline_elems_added(struct elems_memo *m, struct nftnl_set *held,
			 struct nftnl_set_elem **added, size_t n)
{
	struct ekey *k, *merged;
	size_t i = 0, j = 0, o = 0;

	if (m->held != held || !n)
		return;
	k = xmalloc(n * sizeof(*k));
	for (size_t x = 0; x < n; x++)
		ekey_fill(&k[x], added[x]);
	qsort(k, n, sizeof(*k), ekey_cmp);
	/* a big set comes in order: its next message goes on top */
	if (!m->n || ekey_cmp(&m->k[m->n - 1], &k[0]) < 0) {
		if (m->n + n > m->cap) {
			m->cap = 2 * (m->n + n);
			m->k = xrealloc(m->k, m->cap * sizeof(*m->k));
		}
		memcpy(m->k + m->n, k, n * sizeof(*k));
		m->n += n;
		free(k);
		return;
	}
	merged = xmalloc((m->n + n) * sizeof(*merged));
	while (i < m->n || j < n)
		if (j == n || (i < m->n && ekey_cmp(&m->k[i], &k[j]) <= 0))
			merged[o++] = m->k[i++];
		else
			merged[o++] = k[j++];
	free(m->k);
	free(k);
	m->k = merged;
	m->n = m->cap = o;
	m->top_n = 0;
}
