// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Set elements for listing, packed as the dump messages are read: no
 * per-element libnftnl object, no expression until one is printed.
 */
#include <endian.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <libmnl/libmnl.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/netfilter/nfnetlink.h>
#include <libnftnl/expr.h>
#include <libnftnl/set.h>
#include <libnftnl/udata.h>

#include <elemdump.h>
#include <nlalloc.h>
#include <expr.h>
#include <set.h>
#include <utils.h>

/* one element as read, before it is packed */
struct elem_in {
	const void		*key;
	const void		*key_end;
	const void		*data;
	unsigned int		klen;
	unsigned int		kelen;
	unsigned int		dlen;
	unsigned int		flags;		/* ELEM_D_* */
	int			verdict;
	const char		*chain;
	struct elem_dopts	o;
	bool			has_opts;
};

struct elem_dump *elem_dump_new(void)
{
	struct elem_dump *ed = xzalloc(sizeof(*ed));

	ed->recsz = sizeof(struct elem_drec);
	return ed;
}

static void dopts_free(struct elem_dopts *o)
{
	free(o->comment);
	for (unsigned int i = 0; i < o->nx; i++)
		nftnl_expr_free(o->x[i]);
}

void elem_dump_free(struct elem_dump *ed)
{
	if (!ed)
		return;
	for (size_t i = 0; i < ed->nopts; i++)
		dopts_free(&ed->opts[i]);
	for (unsigned int i = 0; i < ed->nchains; i++)
		free(ed->chains[i]);
	free(ed->chains);
	free(ed->opts);
	free(ed->recs);
	elem_dump_free(ed->catchall);
	free(ed);
}

static unsigned int rec_size(unsigned int klen, bool kend, unsigned int dlen)
{
	return (sizeof(struct elem_drec) + klen * (kend ? 2 : 1) + dlen + 3) &
	       ~3u;
}

/* makes room for longer keys, a closing key or a value: repacks once */
static void relayout(struct elem_dump *ed, unsigned int klen, bool kend,
		     unsigned int dlen)
{
	unsigned int recsz = rec_size(klen, kend, dlen);
	uint8_t *recs = NULL;

	if (ed->cap)
		recs = xzalloc(ed->cap * recsz);
	for (size_t i = 0; i < ed->n; i++) {
		uint8_t *to = recs + i * recsz;
		const uint8_t *from = ed->recs + i * ed->recsz;
		const uint8_t *k = from + sizeof(struct elem_drec);

		memcpy(to, from, sizeof(struct elem_drec));
		to += sizeof(struct elem_drec);
		memcpy(to, k, ed->klen);
		if (ed->kend)
			memcpy(to + klen, k + ed->klen, ed->klen);
		memcpy(to + klen * (kend ? 2 : 1),
		       k + ed->klen * (ed->kend ? 2 : 1), ed->dlen);
	}
	free(ed->recs);
	ed->recs = recs;
	ed->recsz = recsz;
	ed->klen = klen;
	ed->kend = kend;
	ed->dlen = dlen;
}

static uint32_t chain_id(struct elem_dump *ed, const char *chain)
{
	if (ed->last_chain && !strcmp(ed->chains[ed->last_chain - 1], chain))
		return ed->last_chain;
	for (unsigned int i = 0; i < ed->nchains; i++)
		if (!strcmp(ed->chains[i], chain))
			return ed->last_chain = i + 1;
	ed->chains = xrealloc(ed->chains, (ed->nchains + 1) * sizeof(char *));
	ed->chains[ed->nchains++] = xstrdup(chain);
	return ed->last_chain = ed->nchains;
}

static void push(struct elem_dump *ed, struct elem_in *in)
{
	unsigned int klen = in->klen > NFH_VAL_MAXLEN ? NFH_VAL_MAXLEN : in->klen;
	unsigned int kelen = in->kelen > NFH_VAL_MAXLEN ? NFH_VAL_MAXLEN : in->kelen;
	unsigned int dlen = in->flags & (ELEM_D_VERDICT | ELEM_D_OBJREF) ? 8 :
			    in->dlen > NFH_VAL_MAXLEN ? NFH_VAL_MAXLEN : in->dlen;
	unsigned int room = klen > kelen ? klen : kelen;
	bool kend = ed->kend || (in->flags & ELEM_D_KEY_END);
	struct elem_drec *r;
	uint8_t *p;

	if (room > ed->klen || kend != ed->kend || dlen > ed->dlen)
		relayout(ed, room > ed->klen ? room : ed->klen, kend,
			 dlen > ed->dlen ? dlen : ed->dlen);
	if (ed->n == ed->cap) {
		size_t cap = ed->cap ? ed->cap * 2 : 256;

		ed->recs = xrealloc(ed->recs, cap * ed->recsz);
		ed->cap = cap;
	}
	r = elem_drec(ed, ed->n);
	memset(r, 0, ed->recsz);
	r->flags = in->flags;
	r->klen = klen;
	r->dlen = dlen;
	p = (uint8_t *)r + sizeof(*r);
	memcpy(p, in->key, klen);
	if (in->flags & ELEM_D_KEY_END)
		memcpy(p + ed->klen, in->key_end, kelen);
	p += ed->klen * (ed->kend ? 2 : 1);
	if (in->flags & (ELEM_D_VERDICT | ELEM_D_OBJREF)) {
		int32_t code = in->verdict;
		uint32_t id = in->chain ? chain_id(ed, in->chain) : 0;

		memcpy(p, &code, 4);
		memcpy(p + 4, &id, 4);
	} else if (in->flags & ELEM_D_DATA) {
		memcpy(p, in->data, dlen);
	}
	if (in->has_opts) {
		if (ed->nopts == ed->capopts) {
			ed->capopts = ed->capopts ? ed->capopts * 2 : 16;
			ed->opts = xrealloc(ed->opts,
					    ed->capopts * sizeof(*ed->opts));
		}
		ed->opts[ed->nopts++] = in->o;
		r->opts = ed->nopts;
	} else {
		dopts_free(&in->o);
	}
	ed->n++;
}

void elem_dverdict(const struct elem_dump *ed, size_t i, int *code,
		   const char **chain)
{
	const uint8_t *p = elem_ddata(ed, i);
	int32_t c;
	uint32_t id;

	memcpy(&c, p, 4);
	memcpy(&id, p + 4, 4);
	*code = c;
	*chain = id ? ed->chains[id - 1] : NULL;
}

static void elem_udata_cb(uint8_t type, const uint8_t *v, uint8_t n, void *arg)
{
	struct elem_in *in = arg;

	if (type != SET_ELEM_UDATA_COMMENT)
		return;
	free(in->o.comment);
	in->o.comment = xstrndup((const char *)v, n);
	in->has_opts = true;
}

/* the last comment in an element's user data */
static void udata_read(struct elem_in *in, const void *ud, uint32_t len)
{
	udata_foreach(ud, len, elem_udata_cb, in);
}

/* --- from dump messages --------------------------------------------------- */

struct attrs {
	const struct nlattr	**tb;
	int			max;
};

static int attr_cb(const struct nlattr *a, void *data)
{
	struct attrs *at = data;

	/* attributes from a newer kernel are skipped, not refused */
	if (mnl_attr_type_valid(a, at->max) < 0)
		return MNL_CB_OK;
	at->tb[mnl_attr_get_type(a)] = a;
	return MNL_CB_OK;
}

static int parse_nested(const struct nlattr *nest, const struct nlattr **tb,
			int max)
{
	struct attrs at = { tb, max };

	memset(tb, 0, (max + 1) * sizeof(*tb));
	if (mnl_attr_validate(nest, MNL_TYPE_NESTED) < 0)
		return -1;
	return mnl_attr_parse_nested(nest, attr_cb, &at) < 0 ? -1 : 0;
}

/* the bytes of an nft_data value */
static int data_value(const struct nlattr *nest, const void **p,
		      unsigned int *len)
{
	const struct nlattr *tb[NFTA_DATA_MAX + 1];

	if (parse_nested(nest, tb, NFTA_DATA_MAX) < 0 || !tb[NFTA_DATA_VALUE])
		return -1;
	*p = mnl_attr_get_payload(tb[NFTA_DATA_VALUE]);
	*len = mnl_attr_get_payload_len(tb[NFTA_DATA_VALUE]);
	return 0;
}

static int data_read(struct elem_in *in, const struct nlattr *nest)
{
	const struct nlattr *tb[NFTA_DATA_MAX + 1], *vt[NFTA_VERDICT_MAX + 1];

	if (parse_nested(nest, tb, NFTA_DATA_MAX) < 0)
		return -1;
	if (tb[NFTA_DATA_VALUE]) {
		in->data = mnl_attr_get_payload(tb[NFTA_DATA_VALUE]);
		in->dlen = mnl_attr_get_payload_len(tb[NFTA_DATA_VALUE]);
		in->flags |= ELEM_D_DATA;
		return 0;
	}
	if (!tb[NFTA_DATA_VERDICT])
		return -1;
	if (parse_nested(tb[NFTA_DATA_VERDICT], vt, NFTA_VERDICT_MAX) < 0 ||
	    !vt[NFTA_VERDICT_CODE] ||
	    mnl_attr_validate(vt[NFTA_VERDICT_CODE], MNL_TYPE_U32) < 0)
		return -1;
	in->verdict = (int32_t)ntohl(mnl_attr_get_u32(vt[NFTA_VERDICT_CODE]));
	if (vt[NFTA_VERDICT_CHAIN]) {
		if (mnl_attr_validate(vt[NFTA_VERDICT_CHAIN], MNL_TYPE_NUL_STRING) < 0)
			return -1;
		in->chain = mnl_attr_get_str(vt[NFTA_VERDICT_CHAIN]);
	}
	in->flags |= ELEM_D_VERDICT;
	return 0;
}

/*
 * The element's own stateful expressions nfh lists (quota, limit, ct
 * count): each attribute of the kernel's and the libnftnl one it is
 */
static const struct {
	const char	*name;
	uint16_t	nla;
	uint16_t	attr;
	bool		wide;	/* u64, else u32 */
} own_attrs[] = {
	{ "quota", NFTA_QUOTA_BYTES, NFTNL_EXPR_QUOTA_BYTES, true },
	{ "quota", NFTA_QUOTA_CONSUMED, NFTNL_EXPR_QUOTA_CONSUMED, true },
	{ "quota", NFTA_QUOTA_FLAGS, NFTNL_EXPR_QUOTA_FLAGS, false },
	{ "limit", NFTA_LIMIT_RATE, NFTNL_EXPR_LIMIT_RATE, true },
	{ "limit", NFTA_LIMIT_UNIT, NFTNL_EXPR_LIMIT_UNIT, true },
	{ "limit", NFTA_LIMIT_BURST, NFTNL_EXPR_LIMIT_BURST, false },
	{ "limit", NFTA_LIMIT_TYPE, NFTNL_EXPR_LIMIT_TYPE, false },
	{ "limit", NFTA_LIMIT_FLAGS, NFTNL_EXPR_LIMIT_FLAGS, false },
	{ "connlimit", NFTA_CONNLIMIT_COUNT, NFTNL_EXPR_CONNLIMIT_COUNT, false },
	{ "connlimit", NFTA_CONNLIMIT_FLAGS, NFTNL_EXPR_CONNLIMIT_FLAGS, false },
};

static bool own_expr(const char *name)
{
	for (size_t i = 0; i < array_size(own_attrs); i++)
		if (!strcmp(own_attrs[i].name, name))
			return true;
	return false;
}

/* @x, an element's quota, limit or ct count, kept for the listing */
static void own_keep(struct elem_in *in, struct nftnl_expr *x)
{
	if (in->o.nx == array_size(in->o.x)) {
		nftnl_expr_free(x);
		return;
	}
	in->o.x[in->o.nx++] = x;
	in->has_opts = true;
}

/* a quota, limit or ct count from its dump attributes: -1 if malformed */
static int own_read(struct elem_in *in, const char *name,
		    const struct nlattr *data)
{
	const struct nlattr *tb[16];
	struct nftnl_expr *x;

	memset(tb, 0, sizeof(tb));
	if (data && parse_nested(data, tb, 15) < 0)
		return -1;
	x = xnftnl_expr_alloc(name);
	for (size_t i = 0; i < array_size(own_attrs); i++) {
		const struct nlattr *a = tb[own_attrs[i].nla];

		if (strcmp(own_attrs[i].name, name) || !a)
			continue;
		if (mnl_attr_validate(a, own_attrs[i].wide ? MNL_TYPE_U64 :
							     MNL_TYPE_U32) < 0) {
			nftnl_expr_free(x);
			return -1;
		}
		if (own_attrs[i].wide)
			nftnl_expr_set_u64(x, own_attrs[i].attr,
					   be64toh(mnl_attr_get_u64(a)));
		else
			nftnl_expr_set_u32(x, own_attrs[i].attr,
					   ntohl(mnl_attr_get_u32(a)));
	}
	own_keep(in, x);
	return 0;
}

struct nftnl_expr *elem_expr_copy(struct nftnl_expr *e)
{
	const char *name = nftnl_expr_get_str(e, NFTNL_EXPR_NAME);
	struct nftnl_expr *x;

	if (!strcmp(name, "counter")) {
		x = xnftnl_expr_alloc(name);
		nftnl_expr_set_u64(x, NFTNL_EXPR_CTR_PACKETS,
				   nftnl_expr_get_u64(e, NFTNL_EXPR_CTR_PACKETS));
		nftnl_expr_set_u64(x, NFTNL_EXPR_CTR_BYTES,
				   nftnl_expr_get_u64(e, NFTNL_EXPR_CTR_BYTES));
		return x;
	}
	if (!own_expr(name))
		return NULL;
	x = xnftnl_expr_alloc(name);
	for (size_t i = 0; i < array_size(own_attrs); i++) {
		if (strcmp(own_attrs[i].name, name) ||
		    !nftnl_expr_is_set(e, own_attrs[i].attr))
			continue;
		if (own_attrs[i].wide)
			nftnl_expr_set_u64(x, own_attrs[i].attr,
					   nftnl_expr_get_u64(e, own_attrs[i].attr));
		else
			nftnl_expr_set_u32(x, own_attrs[i].attr,
					   nftnl_expr_get_u32(e, own_attrs[i].attr));
	}
	return x;
}

/* the same from a libnftnl expression */
static void own_copy(struct elem_in *in, struct nftnl_expr *e)
{
	own_keep(in, elem_expr_copy(e));
}

/* an element's counter (the last one counts), quota, limit or ct count */
static int expr_read(struct elem_in *in, const struct nlattr *nest)
{
	const struct nlattr *tb[NFTA_EXPR_MAX + 1], *ct[NFTA_COUNTER_MAX + 1];
	const char *name;

	if (parse_nested(nest, tb, NFTA_EXPR_MAX) < 0 || !tb[NFTA_EXPR_NAME] ||
	    mnl_attr_validate(tb[NFTA_EXPR_NAME], MNL_TYPE_NUL_STRING) < 0)
		return -1;
	name = mnl_attr_get_str(tb[NFTA_EXPR_NAME]);
	if (own_expr(name))
		return own_read(in, name, tb[NFTA_EXPR_DATA]);
	if (strcmp(name, "counter"))
		return 0;
	in->o.counter = true;
	in->o.counter_at = in->o.nx;
	in->o.packets = in->o.bytes = 0;
	in->has_opts = true;
	if (!tb[NFTA_EXPR_DATA])
		return 0;
	if (parse_nested(tb[NFTA_EXPR_DATA], ct, NFTA_COUNTER_MAX) < 0)
		return -1;
	if (ct[NFTA_COUNTER_PACKETS]) {
		if (mnl_attr_validate(ct[NFTA_COUNTER_PACKETS], MNL_TYPE_U64) < 0)
			return -1;
		in->o.packets = be64toh(mnl_attr_get_u64(ct[NFTA_COUNTER_PACKETS]));
	}
	if (ct[NFTA_COUNTER_BYTES]) {
		if (mnl_attr_validate(ct[NFTA_COUNTER_BYTES], MNL_TYPE_U64) < 0)
			return -1;
		in->o.bytes = be64toh(mnl_attr_get_u64(ct[NFTA_COUNTER_BYTES]));
	}
	return 0;
}

/* the key, interval end and flags of an element: -1 if malformed */
static int elem_key_read(const struct nlattr **tb, struct elem_in *in)
{
	if (data_value(tb[NFTA_SET_ELEM_KEY], &in->key, &in->klen) < 0)
		return -1;
	if (tb[NFTA_SET_ELEM_KEY_END]) {
		if (data_value(tb[NFTA_SET_ELEM_KEY_END], &in->key_end,
			       &in->kelen) < 0)
			return -1;
		in->flags |= ELEM_D_KEY_END;
	}
	if (tb[NFTA_SET_ELEM_FLAGS]) {
		if (mnl_attr_validate(tb[NFTA_SET_ELEM_FLAGS], MNL_TYPE_U32) < 0)
			return -1;
		if (ntohl(mnl_attr_get_u32(tb[NFTA_SET_ELEM_FLAGS])) &
		    NFT_SET_ELEM_INTERVAL_END)
			in->flags |= ELEM_D_END;
	}
	return 0;
}

/* a big-endian u64 attribute, if there; -1 if malformed */
static int u64_read(const struct nlattr *a, uint64_t *v, bool *set)
{
	if (!a)
		return 0;
	if (mnl_attr_validate(a, MNL_TYPE_U64) < 0)
		return -1;
	*v = be64toh(mnl_attr_get_u64(a));
	*set |= *v != 0;
	return 0;
}

/*
 * A timeout of 0 the kernel dumps only where the set has a default one
 * that the element does not take: "timeout never" (nft 1.1).  A range's
 * closing element never takes the default, and its timeout is no option.
 */
static void timeout_never(struct elem_in *in)
{
	if (in->o.timeout || (in->flags & ELEM_D_END))
		return;
	in->o.timeout = ELEM_TIMEOUT_NEVER;
	in->has_opts = true;
}

/* what the element maps to, and its options: -1 if malformed */
static int elem_rest_read(const struct nlattr **tb, struct elem_in *in)
{
	const struct nlattr *a;

	if (tb[NFTA_SET_ELEM_DATA] && data_read(in, tb[NFTA_SET_ELEM_DATA]) < 0)
		return -1;
	if (tb[NFTA_SET_ELEM_OBJREF] && !(in->flags & ELEM_D_VERDICT)) {
		if (mnl_attr_validate(tb[NFTA_SET_ELEM_OBJREF], MNL_TYPE_NUL_STRING) < 0)
			return -1;
		in->chain = mnl_attr_get_str(tb[NFTA_SET_ELEM_OBJREF]);
		in->flags = (in->flags & ~ELEM_D_DATA) | ELEM_D_OBJREF;
	}
	if (u64_read(tb[NFTA_SET_ELEM_TIMEOUT], &in->o.timeout, &in->has_opts) < 0 ||
	    u64_read(tb[NFTA_SET_ELEM_EXPIRATION], &in->o.expires, &in->has_opts) < 0)
		return -1;
	if (tb[NFTA_SET_ELEM_TIMEOUT])
		timeout_never(in);
	if (tb[NFTA_SET_ELEM_USERDATA])
		udata_read(in, mnl_attr_get_payload(tb[NFTA_SET_ELEM_USERDATA]),
			   mnl_attr_get_payload_len(tb[NFTA_SET_ELEM_USERDATA]));
	if (tb[NFTA_SET_ELEM_EXPR] && expr_read(in, tb[NFTA_SET_ELEM_EXPR]) < 0)
		return -1;
	if (!tb[NFTA_SET_ELEM_EXPRESSIONS])
		return 0;
	if (mnl_attr_validate(tb[NFTA_SET_ELEM_EXPRESSIONS], MNL_TYPE_NESTED) < 0)
		return -1;
	mnl_attr_for_each_nested(a, tb[NFTA_SET_ELEM_EXPRESSIONS])
		if (mnl_attr_get_type(a) == NFTA_LIST_ELEM && expr_read(in, a) < 0)
			return -1;
	return 0;
}

static int elem_read(struct elem_dump *ed, const struct nlattr *nest)
{
	const struct nlattr *tb[NFTA_SET_ELEM_MAX + 1];
	struct elem_in in = { 0 };

	if (parse_nested(nest, tb, NFTA_SET_ELEM_MAX) < 0)
		return -1;
	/* an element without a key: the catch-all, kept apart */
	if (!tb[NFTA_SET_ELEM_KEY]) {
		if (!tb[NFTA_SET_ELEM_FLAGS] ||
		    mnl_attr_validate(tb[NFTA_SET_ELEM_FLAGS], MNL_TYPE_U32) < 0 ||
		    !(ntohl(mnl_attr_get_u32(tb[NFTA_SET_ELEM_FLAGS])) &
		      NFT_SET_ELEM_CATCHALL))
			return 0;
		if (!ed->catchall)
			ed->catchall = elem_dump_new();
		ed = ed->catchall;
		in.key = "";
	} else if (elem_key_read(tb, &in) < 0) {
		return -1;
	}
	if (elem_rest_read(tb, &in) < 0) {
		dopts_free(&in.o);
		return -1;
	}
	push(ed, &in);
	return 0;
}

int elem_dump_add_msg(struct elem_dump *ed, const struct nlmsghdr *nlh)
{
	const struct nlattr *tb[NFTA_SET_ELEM_LIST_MAX + 1], *a;
	struct attrs at = { tb, NFTA_SET_ELEM_LIST_MAX };

	memset(tb, 0, sizeof(tb));
	if (mnl_attr_parse(nlh, sizeof(struct nfgenmsg), attr_cb, &at) < 0)
		return -1;
	if (!tb[NFTA_SET_ELEM_LIST_ELEMENTS])
		return 0;
	if (mnl_attr_validate(tb[NFTA_SET_ELEM_LIST_ELEMENTS], MNL_TYPE_NESTED) < 0)
		return -1;
	mnl_attr_for_each_nested(a, tb[NFTA_SET_ELEM_LIST_ELEMENTS]) {
		if (mnl_attr_get_type(a) != NFTA_LIST_ELEM)
			return -1;
		if (elem_read(ed, a) < 0)
			return -1;
	}
	return 0;
}

/* --- from libnftnl sets ---------------------------------------------------- */

static int counter_cb(struct nftnl_expr *e, void *data)
{
	struct elem_in *in = data;

	if (own_expr(nftnl_expr_get_str(e, NFTNL_EXPR_NAME))) {
		own_copy(in, e);
		return 0;
	}
	if (!strcmp(nftnl_expr_get_str(e, NFTNL_EXPR_NAME), "counter")) {
		in->o.counter = true;
		in->o.counter_at = in->o.nx;
		in->o.packets = nftnl_expr_get_u64(e, NFTNL_EXPR_CTR_PACKETS);
		in->o.bytes = nftnl_expr_get_u64(e, NFTNL_EXPR_CTR_BYTES);
		in->has_opts = true;
	}
	return 0;
}

static void nftnl_elem_read(struct elem_dump *ed, struct nftnl_set_elem *el)
{
	struct elem_in in = { 0 };
	uint32_t len;
	const void *p;

	in.key = nftnl_set_elem_get(el, NFTNL_SET_ELEM_KEY, &len);
	in.klen = len;
	if (!in.key) {
		/* the catch-all, kept apart */
		if (!nftnl_set_elem_is_set(el, NFTNL_SET_ELEM_FLAGS) ||
		    !(nftnl_set_elem_get_u32(el, NFTNL_SET_ELEM_FLAGS) &
		      NFT_SET_ELEM_CATCHALL))
			return;
		if (!ed->catchall)
			ed->catchall = elem_dump_new();
		ed = ed->catchall;
		in.key = "";
		in.klen = 0;
	}
	if ((in.key_end = nftnl_set_elem_get(el, NFTNL_SET_ELEM_KEY_END, &len))) {
		in.kelen = len;
		in.flags |= ELEM_D_KEY_END;
	}
	if (nftnl_set_elem_is_set(el, NFTNL_SET_ELEM_FLAGS) &&
	    (nftnl_set_elem_get_u32(el, NFTNL_SET_ELEM_FLAGS) &
	     NFT_SET_ELEM_INTERVAL_END))
		in.flags |= ELEM_D_END;
	if (nftnl_set_elem_is_set(el, NFTNL_SET_ELEM_VERDICT)) {
		in.verdict = (int)nftnl_set_elem_get_u32(el, NFTNL_SET_ELEM_VERDICT);
		if (nftnl_set_elem_is_set(el, NFTNL_SET_ELEM_CHAIN))
			in.chain = nftnl_set_elem_get_str(el, NFTNL_SET_ELEM_CHAIN);
		in.flags |= ELEM_D_VERDICT;
	} else if (nftnl_set_elem_is_set(el, NFTNL_SET_ELEM_OBJREF)) {
		in.chain = nftnl_set_elem_get_str(el, NFTNL_SET_ELEM_OBJREF);
		in.flags |= ELEM_D_OBJREF;
	} else if ((in.data = nftnl_set_elem_get(el, NFTNL_SET_ELEM_DATA, &len))) {
		in.dlen = len;
		in.flags |= ELEM_D_DATA;
	}
	if (nftnl_set_elem_is_set(el, NFTNL_SET_ELEM_TIMEOUT))
		in.o.timeout = nftnl_set_elem_get_u64(el, NFTNL_SET_ELEM_TIMEOUT);
	if (nftnl_set_elem_is_set(el, NFTNL_SET_ELEM_EXPIRATION))
		in.o.expires = nftnl_set_elem_get_u64(el, NFTNL_SET_ELEM_EXPIRATION);
	in.has_opts = in.o.timeout || in.o.expires;
	if (nftnl_set_elem_is_set(el, NFTNL_SET_ELEM_TIMEOUT))
		timeout_never(&in);
	if ((p = nftnl_set_elem_get(el, NFTNL_SET_ELEM_USERDATA, &len)))
		udata_read(&in, p, len);
	nftnl_set_elem_expr_foreach(el, counter_cb, &in);
	push(ed, &in);
}

struct elem_dump *elem_dump_from_nftnl(struct nftnl_set *s)
{
	struct nftnl_set_elems_iter *it = nftnl_set_elems_iter_create(s);
	struct elem_dump *ed = elem_dump_new();
	struct nftnl_set_elem *el;

	while ((el = nftnl_set_elems_iter_next(it)))
		nftnl_elem_read(ed, el);
	nftnl_set_elems_iter_destroy(it);
	return ed;
}

/* --- order ----------------------------------------------------------------- */

/* keys as one integer in host (little-endian) byte order: last byte first */
/* the bytes that make an element itself: its key, closing key, END flag */
static uint64_t rec_hash(const struct elem_dump *ed, size_t i)
{
	const struct elem_drec *r = elem_drec(ed, i);
	const uint8_t *k = elem_dkey(ed, i);
	unsigned int n = ed->klen * (ed->kend ? 2 : 1);
	uint64_t h = 1469598103934665603ull ^ (r->flags & ELEM_D_END);

	for (unsigned int b = 0; b < n; b++)
		h = (h ^ k[b]) * 1099511628211ull;
	return h ^ h >> 29;
}

static bool rec_same(const struct elem_dump *ed, size_t i, size_t j)
{
	return (elem_drec(ed, i)->flags & ELEM_D_END) ==
	       (elem_drec(ed, j)->flags & ELEM_D_END) &&
	       !memcmp(elem_dkey(ed, i), elem_dkey(ed, j),
		       ed->klen * (ed->kend ? 2 : 1));
}

struct elem_seen {
	uint32_t	*slot;
	size_t		cap;
	size_t		done;		/* records of the dump in @slot */
	unsigned int	recsz;		/* the layout they were hashed in */
};

struct elem_seen *elem_seen_new(void)
{
	return xzalloc(sizeof(struct elem_seen));
}

void elem_seen_free(struct elem_seen *s)
{
	if (!s)
		return;
	free(s->slot);
	free(s);
}

bool elem_seen_add(struct elem_seen *s, const struct elem_dump *ed)
{
	size_t cap = s->cap ? s->cap : 1024;

	if (s->recsz != ed->recsz)
		s->done = 0;	/* repacked: hash them all again */
	while (cap < 2 * ed->n)
		cap *= 2;
	if (cap != s->cap || s->done == 0) {
		free(s->slot);
		s->slot = xmalloc(cap * sizeof(*s->slot));
		memset(s->slot, 0xff, cap * sizeof(*s->slot));
		s->cap = cap;
		s->done = 0;
		s->recsz = ed->recsz;
	}
	for (; s->done < ed->n; s->done++) {
		size_t p = rec_hash(ed, s->done) & (s->cap - 1);

		for (; s->slot[p] != UINT32_MAX; p = (p + 1) & (s->cap - 1))
			if (rec_same(ed, s->slot[p], s->done))
				return true;
		s->slot[p] = s->done;
	}
	return false;
}

static int cmp_le(const struct elem_drec *x, const struct elem_drec *y)
{
	const uint8_t *kx = (const uint8_t *)(x + 1), *ky = (const uint8_t *)(y + 1);
	unsigned int n = x->klen < y->klen ? x->klen : y->klen;

	for (unsigned int i = n; i > 0; i--)
		if (kx[i - 1] != ky[i - 1])
			return kx[i - 1] < ky[i - 1] ? -1 : 1;
	return 0;
}

static int cmp_concat(const void *a, const void *b)
{
	return cmp_le(a, b);
}

static int cmp_host(const void *a, const void *b)
{
	const struct elem_drec *x = a, *y = b;
	int d = cmp_le(x, y);

	return d ? d : (int)(y->flags & ELEM_D_END) - (int)(x->flags & ELEM_D_END);
}

/* by key; at equal keys an interval's end sorts before the next start */
static int cmp_value(const void *a, const void *b)
{
	const struct elem_drec *x = a, *y = b;
	int d = memcmp(x + 1, y + 1, x->klen < y->klen ? x->klen : y->klen);

	return d ? d : (int)(y->flags & ELEM_D_END) - (int)(x->flags & ELEM_D_END);
}

static void swap_recs(struct elem_dump *ed, size_t i, size_t j)
{
	uint8_t tmp[sizeof(struct elem_drec) + 3 * NFH_VAL_MAXLEN + 8];

	memcpy(tmp, elem_drec(ed, i), ed->recsz);
	memcpy(elem_drec(ed, i), elem_drec(ed, j), ed->recsz);
	memcpy(elem_drec(ed, j), tmp, ed->recsz);
}

void elem_dump_sort(struct elem_dump *ed, enum elem_order order)
{
	int (*cmp)(const void *, const void *) = order == ELEM_ORDER_CONCAT ? cmp_concat :
						 order == ELEM_ORDER_HOST ? cmp_host :
						 cmp_value;
	bool up = true, down = true, same = false;
	size_t k;

	if ((order == ELEM_ORDER_CONCAT && ed->kend) || ed->n < 2)
		return;

	/* set backends dump in key order or its reverse more often than not */
	for (size_t i = 1; i < ed->n && (up || down); i++) {
		int d = cmp(elem_drec(ed, i - 1), elem_drec(ed, i));

		up &= d <= 0;
		down &= d > 0;
		same |= d == 0;
	}
	if (down) {
		for (size_t i = 0, j = ed->n - 1; i < j; i++, j--)
			swap_recs(ed, i, j);
		return;
	}
	if (!up) {
		qsort(ed->recs, ed->n, ed->recsz, cmp);
		same = true;
	}
	if (!same)
		return;
	/*
	 * A key given twice (the offline ruleset keeps what was sent) is one
	 * element, as in the kernel: the first.
	 */
	for (size_t i = k = 1; i < ed->n; i++) {
		if (!cmp(elem_drec(ed, k - 1), elem_drec(ed, i)))
			continue;
		if (i != k)
			memcpy(elem_drec(ed, k), elem_drec(ed, i), ed->recsz);
		k++;
	}
	ed->n = k;
}
