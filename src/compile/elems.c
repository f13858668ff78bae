// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Set elements, packed as they are read and turned straight into netlink
 * messages: no per-element libnftnl objects, no second copy.
 */
#include <endian.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <libmnl/libmnl.h>
#include <libnftnl/expr.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/netfilter/nfnetlink.h>
#include <libnftnl/set.h>
#include <libnftnl/udata.h>

#include <ctx.h>
#include <delinearize.h>
#include <elems.h>
#include <netlink.h>
#include <print.h>
#include <proto.h>
#include <set.h>
#include <nlalloc.h>
#include <wire.h>

/* --- messages -------------------------------------------------------------- */

#define MSG_PAYLOAD_MAX	(1 << 16)
/* the statements an element keeps, at most (the kernel's limit) */
#ifndef NFT_SET_EXPR_MAX
#define NFT_SET_EXPR_MAX	2
#endif
#define ELEM_MAX	(1 << 12)	/* an element's attributes, at most */

struct builder {
	struct elem_emit	*em;
	char			*buf;
	struct nlmsghdr		*nlh;
	struct nlattr		*list;
	unsigned int		dlen;	/* of the value put_elem() puts */
	int			err;	/* an element's statement failed */
};

/* the bytes of element @i's value: in a map of ranges ("type K : interval
   V") half of them for a single value, as nft sends it */
static unsigned int elem_dlen(const struct elem_store *st, size_t i)
{
	return elem_rec(st, i)->data_half ? st->dlen / 2 : st->dlen;
}

static void msg_begin(struct builder *b)
{
	struct elem_emit *em = b->em;
	struct nfgenmsg *nfg;

	b->nlh = mnl_nlmsg_put_header(b->buf);
	nfg = mnl_nlmsg_put_extra_header(b->nlh, sizeof(*nfg));
	nfg->nfgen_family = em->family;
	mnl_attr_put_strz(b->nlh, NFTA_SET_ELEM_LIST_TABLE, em->table);
	mnl_attr_put_strz(b->nlh, NFTA_SET_ELEM_LIST_SET, em->set);
	if (em->set_id)
		mnl_attr_put_u32(b->nlh, NFTA_SET_ELEM_LIST_SET_ID, htonl(em->set_id));
	b->list = mnl_attr_nest_start(b->nlh, NFTA_SET_ELEM_LIST_ELEMENTS);
}

static void msg_end(struct builder *b)
{
	size_t hdr = MNL_NLMSG_HDRLEN + MNL_ALIGN(sizeof(struct nfgenmsg));
	struct raw_msg *m;

	mnl_attr_nest_end(b->nlh, b->list);
	m = xmalloc(sizeof(*m) + b->nlh->nlmsg_len - hdr);
	m->len = b->nlh->nlmsg_len - hdr;
	memcpy(m->data, b->buf + hdr, m->len);
	nl_batch_add(b->em->batch, b->em->msg_type, b->em->flags, b->em->family,
		     NLO_RAW, m, b->em->loc);
	b->nlh = NULL;
}

static void put_data(struct nlmsghdr *nlh, uint16_t type, const void *p,
		     unsigned int len)
{
	struct nlattr *n = mnl_attr_nest_start(nlh, type);

	mnl_attr_put(nlh, NFTA_DATA_VALUE, len, p);
	mnl_attr_nest_end(nlh, n);
}

/* an element's value: a verdict, an object's name or data */
static void put_elem_value(struct builder *b, const struct expr *v,
			   const uint8_t *data)
{
	struct elem_emit *em = b->em;

	if (v && v->kind == EXPR_VERDICT) {
		struct nlattr *d = mnl_attr_nest_start(b->nlh, NFTA_SET_ELEM_DATA);
		struct nlattr *vn = mnl_attr_nest_start(b->nlh, NFTA_DATA_VERDICT);

		mnl_attr_put_u32(b->nlh, NFTA_VERDICT_CODE,
				 htonl((uint32_t)v->verdict.verdict));
		if (v->verdict.chain)
			mnl_attr_put_strz(b->nlh, NFTA_VERDICT_CHAIN, v->verdict.chain);
		mnl_attr_nest_end(b->nlh, vn);
		mnl_attr_nest_end(b->nlh, d);
	} else if (v && em->data && em->data->dtype == &objref_type) {
		char name[NFH_VAL_MAXLEN + 1] = "";

		memcpy(name, v->val.data, div_round_up(v->len, 8) < NFH_VAL_MAXLEN ?
		       div_round_up(v->len, 8) : NFH_VAL_MAXLEN);
		mnl_attr_put_strz(b->nlh, NFTA_SET_ELEM_OBJREF, name);
	} else if (data) {
		put_data(b->nlh, NFTA_SET_ELEM_DATA, data, b->dlen);
	}
}

/* an element's counter: its name and values in the open nest */
static void put_counter(struct nlmsghdr *nlh, const struct expr *opts)
{
	struct nlattr *xd;

	mnl_attr_put_strz(nlh, NFTA_EXPR_NAME, "counter");
	xd = mnl_attr_nest_start(nlh, NFTA_EXPR_DATA);
	mnl_attr_put_u64(nlh, NFTA_COUNTER_BYTES, htobe64(opts->elem.bytes));
	mnl_attr_put_u64(nlh, NFTA_COUNTER_PACKETS, htobe64(opts->elem.packets));
	mnl_attr_nest_end(nlh, xd);
}

/*
 * An element's counter and own statements, in the order the set declares
 * them: one as NFTA_SET_ELEM_EXPR, more in NFTA_SET_ELEM_EXPRESSIONS, as
 * nft sends them
 */
static void put_elem_exprs(struct builder *b, const struct expr *opts)
{
	unsigned int n = elem_stmts_count(opts), p = 0;
	struct nftnl_expr *x[NFT_SET_EXPR_MAX];
	const struct stmt *st;
	struct nlattr *list = NULL, *one;
	int k;

	if (!n)
		return;
	memset(x, 0, sizeof(x));
	list_for_each_entry(st, &opts->elem.stmts, list) {
		if (opts->elem.counter && p == opts->elem.counter_at)
			p++;
		if (p >= NFT_SET_EXPR_MAX)
			break;
		k = b->em->stmt_exprs ?
		    b->em->stmt_exprs(b->em->stmt_priv, st, &x[p], 1) : -1;
		if (k < 0)
			b->err = -1;
		p++;
	}
	if (n > 1)
		list = mnl_attr_nest_start(b->nlh, NFTA_SET_ELEM_EXPRESSIONS);
	for (p = 0; p < n && p < NFT_SET_EXPR_MAX; p++) {
		one = mnl_attr_nest_start(b->nlh, list ? NFTA_LIST_ELEM :
							 NFTA_SET_ELEM_EXPR);
		if (opts->elem.counter && p == opts->elem.counter_at)
			put_counter(b->nlh, opts);
		else if (x[p])
			nftnl_expr_build_payload(b->nlh, x[p]);
		mnl_attr_nest_end(b->nlh, one);
		if (x[p])
			nftnl_expr_free(x[p]);
	}
	if (list)
		mnl_attr_nest_end(b->nlh, list);
}

/* an element's comment, open-interval flag and statements */
static void put_elem_opts(struct builder *b, const struct expr *opts,
			  bool open)
{
	if ((opts && opts->elem.comment) || open) {
		struct nftnl_udata_buf *u = xnftnl_udata_buf_alloc(NFT_USERDATA_MAXLEN);

		if (opts && opts->elem.comment)
			nftnl_udata_put_strz(u, SET_ELEM_UDATA_COMMENT,
					     opts->elem.comment);
		if (open)
			nftnl_udata_put_u32(u, SET_ELEM_UDATA_FLAGS,
					    NFTNL_SET_ELEM_F_INTERVAL_OPEN);
		mnl_attr_put(b->nlh, NFTA_SET_ELEM_USERDATA, nftnl_udata_buf_len(u),
			     nftnl_udata_buf_data(u));
		nftnl_udata_buf_free(u);
	}
	if (opts)
		put_elem_exprs(b, opts);
}

/*
 * One element: key (wire order), optional key end, flags, value, options;
 * @open: an interval that runs to the largest value, which has no end
 * element and says so in its user data (as nft does).
 */
static void put_elem(struct builder *b, const uint8_t *key,
		     const uint8_t *key_end, uint32_t flags,
		     const uint8_t *data, const struct expr *extra, bool open)
{
	struct elem_emit *em = b->em;
	const struct expr *v = NULL, *opts = NULL;
	struct nlattr *ne;

	if (b->nlh && b->nlh->nlmsg_len + ELEM_MAX > MSG_PAYLOAD_MAX)
		msg_end(b);
	if (!b->nlh)
		msg_begin(b);
	if (extra && extra->kind == EXPR_MAPPING) {
		v = extra->op.right;
		extra = extra->op.left;
	}
	if (extra && extra->kind == EXPR_SET_ELEM)
		opts = extra;

	ne = mnl_attr_nest_start(b->nlh, NFTA_LIST_ELEM);
	if (flags)
		mnl_attr_put_u32(b->nlh, NFTA_SET_ELEM_FLAGS, htonl(flags));
	/* timeout never: 0, which the set's default does not replace */
	if (opts && opts->elem.timeout)
		mnl_attr_put_u64(b->nlh, NFTA_SET_ELEM_TIMEOUT,
				 opts->elem.timeout == ELEM_TIMEOUT_NEVER ? 0 :
				 htobe64(opts->elem.timeout));
	if (opts && opts->elem.expires)
		mnl_attr_put_u64(b->nlh, NFTA_SET_ELEM_EXPIRATION,
				 htobe64(opts->elem.expires));
	if (key)	/* none: the catch-all */
		put_data(b->nlh, NFTA_SET_ELEM_KEY, key,
			 em->key->kind == EXPR_CONCAT ? set_key_bytes(em->key) :
			 div_round_up(em->key->len, 8));
	if (key_end)
		put_data(b->nlh, NFTA_SET_ELEM_KEY_END, key_end,
			 set_key_bytes(em->key));
	put_elem_value(b, v, data);
	put_elem_opts(b, opts, open);
	mnl_attr_nest_end(b->nlh, ne);
	em->count++;
}

/*
 * A plain key from its big-endian bytes to the kernel's order: an interval
 * set keeps numbers big endian, whatever order registers hold them in.
 */
static void plain_wire(const struct elem_emit *em, const uint8_t *be,
		       uint8_t *out, unsigned int n)
{
	memcpy(out, be, n);
	if (!em->interval && em->key->byteorder == BYTEORDER_HOST &&
	    !wire_is_string(em->key->dtype))
		bytes_reverse(out, n);
}

/*
 * A concatenated key, packed in register order, as a concatenated interval
 * set keeps it: its host-order numbers big endian.
 */
static const uint8_t *concat_interval_wire(const struct expr *key,
					   const uint8_t *in, uint8_t *out)
{
	const struct expr *i;
	unsigned int off = 0;

	memcpy(out, in, set_key_bytes(key));
	list_for_each_entry(i, &key->set.exprs, list) {
		if (elem_host_number(i))
			bytes_reverse(out + off, div_round_up(i->len, 8));
		off += div_round_up(i->len, 32) * 4;
	}
	return out;
}

static unsigned int sort_len;

static int rec_cmp(const void *a, const void *b)
{
	const uint8_t *x = (const uint8_t *)a + sizeof(struct elem_rec);
	const uint8_t *y = (const uint8_t *)b + sizeof(struct elem_rec);
	int d = memcmp(x, y, sort_len);

	return d ? d : memcmp(x + sort_len, y + sort_len, sort_len);
}

struct rec_key {
	uint64_t	lo;
	uint64_t	hi;
	uint32_t	i;
};

static uint64_t be_load(const uint8_t *p, unsigned int n)
{
	uint64_t v = 0;

	for (unsigned int k = 0; k < n; k++)
		v = v << 8 | p[k];
	return v;
}

/*
 * Sorts the records by low end, then high end, as rec_cmp() orders them.
 * Keys of up to 8 bytes (addresses, ports, marks) go through a radix sort
 * of compact copies: a million intervals sort in a few tens of ms, where
 * qsort spent a fifth of the whole load in memcmp() and moving records.
 */
static void recs_sort(struct elem_store *st)
{
	unsigned int len = st->klen;
	struct rec_key *a, *b, *t;
	uint8_t *recs;

	if (st->n < 2)
		return;		/* (and no records at all: recs is NULL) */
	sort_len = len;
	if (len > 8 || st->n < 64) {
		qsort(st->recs, st->n, st->recsz, rec_cmp);
		return;
	}
	a = xmalloc(st->n * sizeof(*a));
	b = xmalloc(st->n * sizeof(*b));
	for (size_t i = 0; i < st->n; i++) {
		a[i].lo = be_load(elem_lo(st, i), len);
		a[i].hi = be_load(elem_hi(st, i), len);
		a[i].i = i;
	}
	/* least significant byte first: the high ends, then the low ends */
	for (unsigned int pass = 0; pass < 2 * len; pass++) {
		unsigned int shift = 8 * (pass % len);
		bool low = pass >= len;
		size_t count[256] = { 0 }, pos = 0;

		for (size_t i = 0; i < st->n; i++)
			count[((low ? a[i].lo : a[i].hi) >> shift) & 0xff]++;
		if (count[((low ? a[0].lo : a[0].hi) >> shift) & 0xff] == st->n)
			continue;	/* one value of this byte: nothing moves */
		for (unsigned int c = 0; c < 256; c++) {
			size_t n = count[c];

			count[c] = pos;
			pos += n;
		}
		for (size_t i = 0; i < st->n; i++)
			b[count[((low ? a[i].lo : a[i].hi) >> shift) & 0xff]++] = a[i];
		t = a;
		a = b;
		b = t;
	}
	free(b);
	/* the records in that order: reads that do not wait on each other */
	recs = xmalloc(st->cap * st->recsz);
	for (size_t i = 0; i < st->n; i++)
		memcpy(recs + i * st->recsz, st->recs + a[i].i * st->recsz,
		       st->recsz);
	free(st->recs);
	st->recs = recs;
	free(a);
}

/* big-endian increment; true on wrap-around past the maximum */
static bool be_inc(uint8_t *v, unsigned int n)
{
	for (unsigned int i = n; i > 0; i--)
		if (++v[i - 1])
			return false;
	return true;
}

/* big-endian v += 1 << shift (shift < 8); true on wrap-around */
static bool be_step(uint8_t *v, unsigned int n, unsigned int shift)
{
	unsigned int carry = 1u << shift;

	for (unsigned int i = n; i > 0 && carry; i--) {
		carry += v[i - 1];
		v[i - 1] = carry & 0xff;
		carry >>= 8;
	}
	return carry != 0;
}

/* a key of the set, as an element prints */
static struct expr *key_value(const struct elem_emit *em, const uint8_t *key)
{
	return constant_expr_alloc(NULL, em->key->dtype, em->key->byteorder,
				   em->key->len, key);
}

/* @e (freed) as an element prints, for an error's text */
static char *elem_text(struct expr *e)
{
	struct output_ctx o = { .flags = NFH_PRINT_IN_SET };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		memory_allocation_error();
	expr_print(e, &o, f);
	fclose(f);
	expr_free(e);
	return buf;
}

static char *bounds_text(const struct elem_emit *em, const uint8_t *lo,
			 const uint8_t *hi)
{
	return elem_text(range_expr_alloc(NULL, key_value(em, lo),
					  key_value(em, hi)));
}

/* appends an interval as a record without options */
static void store_push(struct elem_store *st, const uint8_t *lo,
		       const uint8_t *hi, const struct elem_loc *loc)
{
	struct elem_rec *r;

	if (st->n == st->cap) {
		st->cap = st->cap ? st->cap * 2 : 64;
		st->recs = xrealloc(st->recs, st->cap * st->recsz);
	}
	r = elem_rec(st, st->n);
	memset(r, 0, st->recsz);
	r->loc = *loc;
	memcpy(elem_lo(st, st->n), lo, st->klen);
	memcpy(elem_hi(st, st->n), hi, st->klen);
	st->n++;
}

static int size_cmp(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

/* the new record @i of @st overlaps @lo-@hi, which the set holds */
static int overlap_held(struct elem_emit *em, struct elem_store *st, size_t i,
			const uint8_t *lo, const uint8_t *hi)
{
	char *x = bounds_text(em, lo, hi);
	char *y = bounds_text(em, elem_lo(st, i), elem_hi(st, i));
	struct location l;
	int ret;

	elem_loc_get(elem_rec(st, i), &l);
	ret = error_queue(em->msgs, &l,
			  "interval %s overlaps with %s, which set %s holds",
			  y, x, em->set);
	free(x);
	free(y);
	return ret;
}

/* of the @nnew new records of @st, those @inside one the set holds go:
   the kernel would call them overlaps */
static void drop_inside(struct elem_store *st, size_t nnew, const bool *inside)
{
	for (size_t i = 0, k = 0, n = st->n; i < n; i++) {
		if (i < nnew && inside[i]) {
			expr_free(elem_rec(st, i)->extra);
			st->n--;
			continue;
		}
		if (i != k)
			memcpy(elem_rec(st, k), elem_rec(st, i), st->recsz);
		k++;
	}
}

/* the set's intervals @taken (indexes into em->have) that new ones join
   are deleted first, in messages of their own */
static void delete_taken(struct builder *b, size_t *taken, size_t ntaken)
{
	struct elem_emit *em = b->em;
	uint16_t type = em->msg_type, flags = em->flags;
	unsigned int count = em->count;

	/* each goes once, even if it joins two new intervals */
	qsort(taken, ntaken, sizeof(*taken), size_cmp);
	em->msg_type = NFT_MSG_DELSETELEM;
	em->flags = 0;
	for (size_t k = 0; k < ntaken; k++) {
		const uint8_t *keys[2];
		uint32_t kflags[2];
		unsigned int n;

		if (k > 0 && taken[k] == taken[k - 1])
			continue;
		n = set_spans_recs(em->have, taken[k], keys, kflags);
		for (unsigned int r = 0; r < n; r++)
			put_elem(b, keys[r], NULL, kflags[r], NULL, NULL, false);
	}
	if (b->nlh)
		msg_end(b);
	em->msg_type = type;
	em->flags = flags;
	em->count = count;
}

/*
 * add element to a set that holds intervals already: one that overlaps a
 * new interval (and is not the same) is an error naming it.  With
 * auto-merge, those that overlap or touch a new interval are deleted
 * first, in the same batch, and join the new ones, as nft joins them.
 */
static int join_existing(struct builder *b, struct elem_store *st)
{
	struct elem_emit *em = b->em;
	unsigned int len = st->klen;
	size_t nnew = st->n, nhave = set_spans_count(em->have);
	size_t *taken = NULL, ntaken = 0;
	uint8_t lo[NFH_VAL_MAXLEN], hi[NFH_VAL_MAXLEN], from[NFH_VAL_MAXLEN];
	bool *inside = xzalloc(nnew + 1);
	int ret = 0;

	for (size_t i = 0; i < nnew; i++) {
		size_t c = set_spans_from(em->have, elem_lo(st, i));

		/* with auto-merge, one the set holds already adds nothing */
		if (em->automerge && c < nhave) {
			set_spans_bounds(em->have, c, lo, hi);
			if (memcmp(lo, elem_lo(st, i), len) <= 0 &&
			    memcmp(elem_hi(st, i), hi, len) <= 0) {
				inside[i] = true;
				continue;
			}
		}
		memcpy(from, elem_lo(st, i), len);
		/* one that ends right below touches it */
		if (em->automerge && be_dec(from, len))
			memset(from, 0, len);
		for (size_t j = set_spans_from(em->have, from); j < nhave; j++) {
			uint8_t next[NFH_VAL_MAXLEN];

			set_spans_bounds(em->have, j, lo, hi);
			memcpy(next, elem_hi(st, i), len);
			if (memcmp(lo, elem_hi(st, i), len) > 0 &&
			    (!em->automerge || be_inc(next, len) ||
			     memcmp(next, lo, len)))
				break;	/* above it, and not right above */
			if (!em->automerge) {
				if (!memcmp(lo, elem_lo(st, i), len) &&
				    !memcmp(hi, elem_hi(st, i), len))
					continue;	/* the same: no change */
				ret = overlap_held(em, st, i, lo, hi);
				break;
			}
			taken = xrealloc(taken, (ntaken + 1) * sizeof(*taken));
			taken[ntaken++] = j;
			store_push(st, lo, hi, &elem_rec(st, i)->loc);
		}
	}
	drop_inside(st, nnew, inside);
	free(inside);
	if (ret == 0 && ntaken)
		delete_taken(b, taken, ntaken);
	free(taken);
	return ret;
}

/*
 * Whether @end, one past an interval, is one past the largest value of a
 * key narrower than its bytes (ip hdrlength: 0x10): nft makes that
 * interval open, as one that runs to the end of the bytes.
 */
static bool field_end(const struct expr *key, const uint8_t *end,
		      unsigned int len)
{
	unsigned int bits = key->len;

	/* a sub-byte field's set key may cover its whole bytes */
	if (key->kind == EXPR_PAYLOAD && key->payload.tmpl)
		bits = key->payload.tmpl->len;
	if (key->kind == EXPR_CONCAT || !bits || bits >= len * 8)
		return false;
	/* only a field that ends its bytes holds its value unshifted */
	if ((key->kind == EXPR_PAYLOAD &&
	     (key->payload.offset + bits) % 8) ||
	    (key->kind == EXPR_EXTHDR && (key->exthdr.offset + bits) % 8))
		return false;
	for (unsigned int i = 0; i < len; i++) {
		unsigned int bit = (len - 1 - i) * 8;	/* lowest bit of byte i */
		uint8_t want = bits >= bit && bits < bit + 8 ?
			       1u << (bits - bit) : 0;

		if (end[i] != want)
			return false;
	}
	return true;
}

static bool same_span(const struct elem_store *st, size_t a, size_t b)
{
	return !memcmp(elem_lo(st, a), elem_lo(st, b), st->klen) &&
	       !memcmp(elem_hi(st, a), elem_hi(st, b), st->klen);
}

/* whether @a was written after @b in the input */
static bool rec_after(const struct elem_rec *a, const struct elem_rec *b)
{
	return a->loc.line != b->loc.line ? a->loc.line > b->loc.line :
	       a->loc.first_col > b->loc.first_col;
}

/*
 * nft 1.0.6 sends the copies of an interval the last written first
 * ({ 1 comment "a", 1 comment "b" }: b, then a)
 */
static void copies_reverse(struct elem_store *st, size_t n)
{
	uint8_t *t = xmalloc(st->recsz);

	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && same_span(st, j - 1, j) &&
		     rec_after(elem_rec(st, j), elem_rec(st, j - 1)); j--) {
			memcpy(t, st->recs + j * st->recsz, st->recsz);
			memcpy(st->recs + j * st->recsz,
			       st->recs + (j - 1) * st->recsz, st->recsz);
			memcpy(st->recs + (j - 1) * st->recsz, t, st->recsz);
		}
	free(t);
}

/* record @from of @st to slot @to (the merge loop's compaction) */
static void rec_move(struct elem_store *st, size_t to, size_t from)
{
	if (to != from)
		memcpy(st->recs + to * st->recsz, st->recs + from * st->recsz,
		       st->recsz);
}

/* record @i was dropped in favour of @m: its statements go */
static void rec_drop(struct elem_store *st, size_t i)
{
	expr_free(elem_rec(st, i)->extra);
	elem_rec(st, i)->extra = NULL;
}

/* "interval X overlaps with Y" or "... given twice, with two values",
   at record @i, with record @m as the other location */
static int interval_error(struct elem_emit *em, struct elem_store *st,
			  size_t m, size_t i, bool twice)
{
	struct location la, lb;
	char *x = bounds_text(em, elem_lo(st, m), elem_hi(st, m));
	char *y = bounds_text(em, elem_lo(st, i), elem_hi(st, i));
	int ret;

	elem_loc_get(elem_rec(st, m), &la);
	elem_loc_get(elem_rec(st, i), &lb);
	if (twice)
		ret = error_queue2(em->msgs, &lb, &la,
				   "interval %s is given twice, with two values (the kernel says \"File exists\")",
				   y);
	else	/* only a named set's intervals can be joined */
		ret = error_queue2(em->msgs, &lb, &la,
				   "interval %s overlaps with %s%s", y, x,
				   em->anonymous || em->data ? "" :
				   "; use auto-merge to join them");
	free(x);
	free(y);
	rec_drop(st, i);
	return ret;
}

/*
 * Record @i after the kept record @m - 1 of the sorted @st: 1 when it
 * starts a new interval of its own, 0 when it was merged into (or
 * dropped for) the one before, -1 when it is an error.
 */
static int interval_next(struct elem_emit *em, struct elem_store *st,
			 size_t m, size_t i)
{
	unsigned int len = st->klen;
	uint8_t next[NFH_VAL_MAXLEN];
	bool adjacent;

	memcpy(next, elem_hi(st, m - 1), len);
	/* the next value of the field, wherever its bits sit */
	adjacent = !be_step(next, len, em->shift) &&
		   !memcmp(next, elem_lo(st, i), len);
	if (memcmp(elem_lo(st, i), elem_hi(st, m - 1), len) > 0 &&
	    !(adjacent && em->automerge && !st->dlen &&
	      !elem_rec(st, m - 1)->extra && !elem_rec(st, i)->extra))
		return 1;
	/*
	 * nft 1.0.6 sends an interval given twice twice, without
	 * auto-merge; the kernel keeps one (or, for two values, says
	 * "File exists"), as it does for nft
	 */
	if (!em->automerge && same_span(st, i, m - 1)) {
		if (st->dlen && memcmp(elem_data(st, i), elem_data(st, m - 1),
				       st->dlen))
			return interval_error(em, st, m - 1, i, true);
		return 1;
	}
	if (!adjacent && !em->automerge)
		return interval_error(em, st, m - 1, i, false);
	/* of two copies, the one written last stays (its comment), as in nft */
	if (same_span(st, m - 1, i) &&
	    rec_after(elem_rec(st, i), elem_rec(st, m - 1))) {
		struct elem_rec *p = elem_rec(st, m - 1), *q = elem_rec(st, i);
		struct elem_rec t = *p;

		*p = *q;
		*q = t;
	}
	/* merged into the previous interval */
	if (memcmp(elem_hi(st, i), elem_hi(st, m - 1), len) > 0)
		memcpy(elem_hi(st, m - 1), elem_hi(st, i), len);
	rec_drop(st, i);
	return 0;
}

/* the sorted intervals of @st checked and merged in place; 0 or -1 */
static int intervals_merge(struct elem_emit *em, struct elem_store *st)
{
	size_t m = 0;
	int ret = 0;

	for (size_t i = 0; i < st->n; i++) {
		int r = m ? interval_next(em, st, m, i) : 1;

		if (r < 0)
			ret = -1;
		else if (r > 0)
			rec_move(st, m++, i);
	}
	for (size_t i = m; i < st->n; i++)
		elem_rec(st, i)->extra = NULL;	/* moved or freed above */
	st->n = m;
	return ret;
}

/*
 * Plain intervals: sorted, checked for overlaps (merged with auto-merge),
 * then sent as start elements and exclusive end elements, with a closing
 * element before the first start, as the kernel's interval tree wants.
 */
static int emit_intervals(struct builder *b, struct elem_store *st)
{
	struct elem_emit *em = b->em;
	unsigned int len = st->klen;
	uint8_t zero[NFH_VAL_MAXLEN] = { 0 }, w[NFH_VAL_MAXLEN];
	size_t m;

	if (em->have && em->msg_type == NFT_MSG_NEWSETELEM &&
	    join_existing(b, st) < 0)
		return -1;
	recs_sort(st);
	if (intervals_merge(em, st) < 0)
		return -1;
	m = st->n;
	if (!em->automerge)
		copies_reverse(st, m);
	em->size = 2 * m;
	/* as nft: the end at zero comes with a new set, not with additions */
	if (m && memcmp(elem_lo(st, 0), zero, len) &&
	    em->msg_type == NFT_MSG_NEWSETELEM && !em->have) {
		plain_wire(em, zero, w, len);
		put_elem(b, w, NULL, NFT_SET_ELEM_INTERVAL_END, NULL, NULL, false);
		em->size++;
	}
	for (size_t i = 0; i < m; i++) {
		uint8_t end[NFH_VAL_MAXLEN];
		bool wrap;

		memcpy(end, elem_hi(st, i), len);
		wrap = be_inc(end, len) || field_end(em->key, end, len);
		plain_wire(em, elem_lo(st, i), w, len);
		b->dlen = elem_dlen(st, i);
		put_elem(b, w, NULL, 0, st->dlen ? elem_data(st, i) : NULL,
			 elem_rec(st, i)->extra, wrap);
		/*
		 * nft sends an end even where the next interval starts, but
		 * in an anonymous set or map
		 */
		if (!wrap && !(em->anonymous && i + 1 < m &&
			       !memcmp(end, elem_lo(st, i + 1), len))) {
			plain_wire(em, end, w, len);
			put_elem(b, w, NULL, NFT_SET_ELEM_INTERVAL_END, NULL, NULL,
				 false);
		}
	}
	return 0;
}

static char *key_text(const struct elem_emit *em, const uint8_t *key)
{
	return elem_text(key_value(em, key));
}

/* the verdict an element of a verdict map holds, NULL if none */
static const struct expr *rec_verdict(const struct elem_rec *r)
{
	const struct expr *x = r->extra;

	return x && x->kind == EXPR_MAPPING && x->op.right->kind == EXPR_VERDICT ?
	       x->op.right : NULL;
}

static bool values_differ(const struct elem_store *st, size_t a, size_t b)
{
	const struct expr *va, *vb;

	if (st->dlen)
		return memcmp(elem_data(st, a), elem_data(st, b), st->dlen);
	va = rec_verdict(elem_rec(st, a));
	vb = rec_verdict(elem_rec(st, b));
	return va && vb &&
	       (va->verdict.verdict != vb->verdict.verdict ||
		!va->verdict.chain != !vb->verdict.chain ||
		(va->verdict.chain && strcmp(va->verdict.chain, vb->verdict.chain)));
}

static const struct elem_store *dup_store;

static int dup_cmp(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int d = memcmp(elem_lo(dup_store, x), elem_lo(dup_store, y),
		       dup_store->klen);

	return d ? d : x < y ? -1 : x > y;
}

/*
 * A key of a map given twice with two values: the kernel says "File
 * exists" (one value twice it takes); refused here, where the second
 * one is written, offline too.  The records keep their order.
 */
static int dup_values_check(const struct elem_emit *em,
			    const struct elem_store *st)
{
	size_t *ix = xmalloc((st->n ? st->n : 1) * sizeof(*ix));
	int ret = 0;

	for (size_t i = 0; i < st->n; i++)
		ix[i] = i;
	dup_store = st;
	qsort(ix, st->n, sizeof(*ix), dup_cmp);
	for (size_t i = 1; i < st->n; i++) {
		struct location la, lb;

		if (memcmp(elem_lo(st, ix[i - 1]), elem_lo(st, ix[i]), st->klen) ||
		    !values_differ(st, ix[i - 1], ix[i]))
			continue;
		elem_loc_get(elem_rec(st, ix[i - 1]), &la);
		elem_loc_get(elem_rec(st, ix[i]), &lb);
		if (!st->concat) {
			char *x = key_text(em, elem_lo(st, ix[i]));

			ret = error_queue2(em->msgs, &lb, &la,
					   "%s is given twice, with two values (the kernel says \"File exists\")",
					   x);
			free(x);
		} else {
			ret = error_queue2(em->msgs, &lb, &la,
					   "this key is given twice, with two values (the kernel says \"File exists\")");
		}
	}
	free(ix);
	return ret;
}

/* the keyed elements, one by one (not as intervals) */
/* catch-all element i of @st */
static void emit_catchall(struct builder *b, struct elem_emit *em,
			  const struct elem_store *st, size_t i)
{
	const struct elem_store *ca = st->catchall;

	b->dlen = elem_dlen(ca, i);
	put_elem(b, NULL, NULL, NFT_SET_ELEM_CATCHALL,
		 ca->dlen ? elem_data(ca, i) : NULL, elem_rec(ca, i)->extra,
		 false);
	if (em->interval && !st->concat)
		em->size++;
}

/* the keyed elements as given, each catch-all where it was given (as
   nft sends a set that is no interval set) */
static void emit_keyed(struct builder *b, struct elem_emit *em,
		       const struct elem_store *st)
{
	uint8_t w[NFH_VAL_MAXLEN], we[NFH_VAL_MAXLEN];
	const struct elem_store *ca = st->catchall;
	size_t c = 0;

	for (size_t i = 0; i < st->n; i++) {
		const uint8_t *key = elem_lo(st, i), *end = NULL;

		for (; ca && c < ca->n && ca->before[c] <= i; c++)
			emit_catchall(b, em, st, c);
		if (!st->concat) {
			plain_wire(em, key, w, st->klen);
			key = w;
		} else if (em->concat_interval) {
			key = concat_interval_wire(em->key, key, w);
			end = concat_interval_wire(em->key, elem_hi(st, i), we);
		}
		b->dlen = elem_dlen(st, i);
		put_elem(b, key, end, 0, st->dlen ? elem_data(st, i) : NULL,
			 elem_rec(st, i)->extra, false);
	}
	for (; ca && c < ca->n; c++)
		emit_catchall(b, em, st, c);
}

/* a map's catch-all given twice with two values: -1, as a key above */
static int catchalls_check(struct elem_emit *em, const struct elem_store *st)
{
	const struct elem_store *ca = st->catchall;

	for (size_t i = 1; ca && i < ca->n; i++) {
		struct location la, lb;

		if (!values_differ(ca, 0, i))
			continue;
		elem_loc_get(elem_rec(ca, 0), &la);
		elem_loc_get(elem_rec(ca, i), &lb);
		return error_queue2(em->msgs, &lb, &la,
				    "* is given twice, with two values (the kernel says \"File exists\")");
	}
	return 0;
}

int elem_emit(struct elem_emit *em, struct elem_store *st)
{
	struct builder b = { .em = em };
	int ret = 0;

	/* zeroed: libmnl 1.0.4 leaves the padding after attributes as it is */
	b.buf = xzalloc(MSG_PAYLOAD_MAX + ELEM_MAX);
	if (catchalls_check(em, st) < 0) {
		ret = -1;
	} else if (em->interval && !st->concat) {
		/* the catch-all last, as nft sends it after the intervals */
		ret = emit_intervals(&b, st);
		for (size_t i = 0; ret == 0 && st->catchall &&
				   i < st->catchall->n; i++)
			emit_catchall(&b, em, st, i);
	} else if ((st->dlen || (em->data && em->data->dtype == &verdict_type)) &&
		   !em->concat_interval && dup_values_check(em, st) < 0) {
		ret = -1;
	} else {
		emit_keyed(&b, em, st);
	}
	if (!(em->interval && !st->concat))
		em->size = em->count;
	/* as nft: an elements message even with none, for a meter's set or
	   when all that is added is in the kernel's intervals already, or
	   for elements that were all empty sets */
	if (!b.nlh && ret == 0 && (em->anonymous || em->have || em->given) &&
	    !st->n)
		msg_begin(&b);
	if (b.err)
		ret = -1;
	if (b.nlh && ret == 0)
		msg_end(&b);
	free(b.buf);
	return ret;
}
