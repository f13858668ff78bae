// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kernel I/O: one batch per run, every message acked; dumps for listing.
 * This file knows libnftnl objects and locations, never the AST.
 */
#include <stdio.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <libmnl/libmnl.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nf_tables.h>
#include <libnftnl/chain.h>
#include <libnftnl/common.h>
#include <libnftnl/gen.h>
#include <libnftnl/rule.h>
#include <libnftnl/set.h>
#include <libnftnl/table.h>

#include <cache.h>
#include <elems.h>
#include <ctx.h>
#include <netlink.h>
#include <nftables-compat.h>

#ifndef NETLINK_EXT_ACK
#define NETLINK_EXT_ACK 11
#endif

void nl_batch_init(struct nl_batch *b)
{
	init_list_head(&b->items);
}

struct nl_item *nl_batch_add(struct nl_batch *b, uint16_t msg_type,
			     uint16_t flags, unsigned int family,
			     enum nl_obj type, void *obj,
			     const struct location *loc)
{
	struct nl_item *it = xzalloc(sizeof(*it));

	it->msg_type = msg_type;
	it->flags = flags;
	it->family = family;
	it->type = type;
	it->obj = obj;
	it->loc = *loc;
	list_add_tail(&it->list, &b->items);
	return it;
}

static void item_obj_free(struct nl_item *it)
{
	switch (it->type) {
	case NLO_TABLE:
		nftnl_table_free(it->obj);
		break;
	case NLO_CHAIN:
		nftnl_chain_free(it->obj);
		break;
	case NLO_RULE:
		nftnl_rule_free(it->obj);
		break;
	case NLO_SET:
	case NLO_SETELEM:
		nftnl_set_free(it->obj);
		break;
	case NLO_RAW:
		free(it->obj);
		break;
	}
}

void nl_batch_free(struct nl_batch *b)
{
	struct nl_item *it, *next;

	list_for_each_entry_safe(it, next, &b->items, list) {
		list_del(&it->list);
		if (it->obj)
			item_obj_free(it);
		free(it);
	}
}

/* --- debug output, in the format nft --debug=netlink prints -------------- */

static void chain_debug(FILE *f, struct nftnl_chain *c)
{
	struct nftnl_chain *d = nftnl_chain_alloc();
	char buf[4096];

	/* nft puts table and name straight into the message, so they print
	 * as "(null)"; keep the same text */
	nftnl_chain_set_u32(d, NFTNL_CHAIN_FAMILY,
			    nftnl_chain_get_u32(c, NFTNL_CHAIN_FAMILY));
	if (nftnl_chain_is_set(c, NFTNL_CHAIN_HOOKNUM)) {
		nftnl_chain_set_u32(d, NFTNL_CHAIN_HOOKNUM,
				    nftnl_chain_get_u32(c, NFTNL_CHAIN_HOOKNUM));
		nftnl_chain_set_s32(d, NFTNL_CHAIN_PRIO,
				    nftnl_chain_get_s32(c, NFTNL_CHAIN_PRIO));
		nftnl_chain_set_str(d, NFTNL_CHAIN_TYPE,
				    nftnl_chain_get_str(c, NFTNL_CHAIN_TYPE));
	}
	if (nftnl_chain_is_set(c, NFTNL_CHAIN_DEV))
		nftnl_chain_set_str(d, NFTNL_CHAIN_DEV,
				    nftnl_chain_get_str(c, NFTNL_CHAIN_DEV));
	if (nftnl_chain_is_set(c, NFTNL_CHAIN_DEVICES)) {
		const char *const *devs = nftnl_chain_get(c, NFTNL_CHAIN_DEVICES);
		unsigned int n = 0;
		const char **rev;

		while (devs[n])
			n++;
		/* nft hands the kernel its device list in reverse */
		rev = xzalloc((n + 1) * sizeof(*rev));
		for (unsigned int i = 0; i < n; i++)
			rev[i] = devs[n - 1 - i];
		nftnl_chain_set_data(d, NFTNL_CHAIN_DEVICES, rev,
				     (n + 1) * sizeof(*rev));
		free(rev);
	}
	nftnl_chain_snprintf(buf, sizeof(buf), d, NFTNL_OUTPUT_DEFAULT, 0);
	fprintf(f, "%s\n", buf);
	nftnl_chain_free(d);
}

static void set_debug(FILE *f, struct nftnl_set *s, bool elems)
{
	char *buf;
	size_t sz = 1 << 16;
	int n;

	for (;;) {
		buf = xmalloc(sz);
		n = nftnl_set_snprintf(buf, sz, s, NFTNL_OUTPUT_DEFAULT, 0);
		if (n >= 0 && (size_t)n < sz - 1)
			break;
		free(buf);
		sz *= 4;
	}
	fprintf(f, "%s\n", buf);
	free(buf);
	(void)elems;
}

static void rule_debug(FILE *f, struct nftnl_rule *r)
{
	char *buf;
	size_t sz = 1 << 14;
	int n;

	for (;;) {
		buf = xmalloc(sz);
		n = nftnl_rule_snprintf(buf, sz, r, NFTNL_OUTPUT_DEFAULT, 0);
		if (n >= 0 && (size_t)n < sz - 1)
			break;
		free(buf);
		sz *= 4;
	}
	fprintf(f, "%s\n", buf);
	free(buf);
}

void nl_batch_debug(FILE *f, struct nl_batch *b)
{
	struct nl_item *it;

	list_for_each_entry(it, &b->items, list) {
		switch (it->msg_type) {
		case NFT_MSG_NEWCHAIN:
			chain_debug(f, it->obj);
			break;
		case NFT_MSG_NEWSET:
			set_debug(f, it->obj, false);
			break;
		case NFT_MSG_NEWSETELEM:
			if (it->type == NLO_RAW) {
				struct nftnl_set *s = raw_msg_to_nftnl(it->obj,
								       it->msg_type,
								       it->family);

				set_debug(f, s, true);
				nftnl_set_free(s);
				break;
			}
			set_debug(f, it->obj, true);
			break;
		case NFT_MSG_NEWRULE:
			rule_debug(f, it->obj);
			break;
		default:
			break;
		}
	}
}

/* --- socket ------------------------------------------------------------- */

int nlio_open(struct nfh_ctx *ctx, struct list_head *msgs)
{
	int one = 1;

	if (ctx->nl)
		return 0;
	ctx->nl = mnl_socket_open(NETLINK_NETFILTER);
	if (!ctx->nl)
		return error_queue(msgs, NULL,
				   "cannot open netlink socket: %s",
				   strerror(errno));
	if (mnl_socket_bind(ctx->nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		error_queue(msgs, NULL, "cannot bind netlink socket: %s",
			    strerror(errno));
		mnl_socket_close(ctx->nl);
		ctx->nl = NULL;
		return -1;
	}
	mnl_socket_setsockopt(ctx->nl, NETLINK_EXT_ACK, &one, sizeof(one));
	ctx->seq = time(NULL);
	return 0;
}

void nlio_close(struct nfh_ctx *ctx)
{
	if (ctx->nl)
		mnl_socket_close(ctx->nl);
	ctx->nl = NULL;
}

/* --- batches ------------------------------------------------------------ */

struct buf {
	char	*data;
	size_t	len, cap;
};

static char *buf_reserve(struct buf *b, size_t need)
{
	if (b->len + need > b->cap) {
		while (b->len + need > b->cap)
			b->cap = b->cap ? b->cap * 2 : 1 << 16;
		b->data = xrealloc(b->data, b->cap);
	}
	memset(b->data + b->len, 0, need);
	return b->data + b->len;
}

#define MSG_MAX	(1 << 17)

static void put_item(struct buf *b, struct nl_item *it, uint32_t seq)
{
	struct nlmsghdr *nlh;

	nlh = nftnl_nlmsg_build_hdr(buf_reserve(b, MSG_MAX), it->msg_type,
				    it->family, it->flags | NLM_F_ACK, seq);
	switch (it->type) {
	case NLO_TABLE:
		nftnl_table_nlmsg_build_payload(nlh, it->obj);
		break;
	case NLO_CHAIN:
		nftnl_chain_nlmsg_build_payload(nlh, it->obj);
		break;
	case NLO_RULE:
		nftnl_rule_nlmsg_build_payload(nlh, it->obj);
		break;
	case NLO_SET:
		nftnl_set_nlmsg_build_payload(nlh, it->obj);
		break;
	case NLO_SETELEM:
		nftnl_set_elems_nlmsg_build_payload(nlh, it->obj);
		break;
	case NLO_RAW: {
		const struct raw_msg *m = it->obj;

		memcpy((char *)nlh + nlh->nlmsg_len, m->data, m->len);
		nlh->nlmsg_len += m->len;
		break;
	}
	}
	b->len += nlh->nlmsg_len;
	it->seq = seq;
}

static const char *item_what(const struct nl_item *it)
{
	switch (it->type) {
	case NLO_TABLE:		return "table";
	case NLO_CHAIN:		return "chain";
	case NLO_RULE:		return "rule";
	case NLO_SET:		return "set";
	case NLO_SETELEM:
	case NLO_RAW:		return "set elements";
	}
	return "object";
}

static struct nl_item *item_by_seq(struct nl_batch *b, uint32_t seq)
{
	struct nl_item *it;

	list_for_each_entry(it, &b->items, list)
		if (it->seq == seq)
			return it;
	return NULL;
}

static int get_genid(struct nfh_ctx *ctx, uint32_t *genid);

int nlio_batch_send(struct nfh_ctx *ctx, struct nl_batch *b,
		    struct list_head *msgs)
{
	char rbuf[MNL_SOCKET_BUFFER_SIZE * 2];
	struct buf out = { 0 };
	struct nlmsghdr *nlh;
	struct nl_item *it;
	unsigned int pending = 0;
	uint32_t genid = 0, seq;
	int ret = 0, bufsz = 1 << 22, one = 1;

	if (list_empty(&b->items))
		return 0;
	if (nlio_open(ctx, msgs) < 0)
		return -1;
	if (get_genid(ctx, &genid) < 0)
		return error_queue(msgs, NULL, "cannot read the ruleset generation: %s",
				   strerror(errno));

	seq = ++ctx->seq;
	nlh = nftnl_batch_begin(buf_reserve(&out, MSG_MAX), seq);
	mnl_attr_put_u32(nlh, NFNL_BATCH_GENID, htonl(genid));
	out.len += nlh->nlmsg_len;
	list_for_each_entry(it, &b->items, list) {
		put_item(&out, it, ++ctx->seq);
		pending++;
		if (it->type == NLO_RAW) {
			/* copied: no need to hold element messages twice */
			free(it->obj);
			it->obj = NULL;
		}
	}
	/* without the end message the kernel validates and aborts: -c */
	if (!ctx->dry_run) {
		nlh = nftnl_batch_end(buf_reserve(&out, MSG_MAX), ++ctx->seq);
		out.len += nlh->nlmsg_len;
	}

	/* the whole batch goes in one send: the buffer must hold it */
	if (out.len + (1 << 16) > (size_t)bufsz)
		bufsz = out.len + (1 << 16) > INT_MAX / 2 ? INT_MAX / 2 :
			(int)(out.len + (1 << 16));
	setsockopt(mnl_socket_get_fd(ctx->nl), SOL_SOCKET, SO_SNDBUFFORCE,
		   &bufsz, sizeof(bufsz));
	/*
	 * The kernel queues every ack before the send returns: room for all
	 * of them (an ack takes about 1 KiB of buffer), and acks that do not
	 * echo the message they answer.
	 */
	bufsz = 1 << 22;
	if (pending > (unsigned int)(INT_MAX / 4096))
		bufsz = INT_MAX / 2;
	else if ((int)pending * 2048 > bufsz)
		bufsz = (int)pending * 2048;
	setsockopt(mnl_socket_get_fd(ctx->nl), SOL_SOCKET, SO_RCVBUFFORCE,
		   &bufsz, sizeof(bufsz));
	setsockopt(mnl_socket_get_fd(ctx->nl), SOL_NETLINK, NETLINK_CAP_ACK,
		   &one, sizeof(one));
	if (mnl_socket_sendto(ctx->nl, out.data, out.len) < 0) {
		ret = error_queue(msgs, NULL, "cannot send the batch: %s",
				  strerror(errno));
		goto out;
	}
	while (pending > 0) {
		ssize_t n = mnl_socket_recvfrom(ctx->nl, rbuf, sizeof(rbuf));
		struct nlmsghdr *h;

		if (n < 0) {
			if (errno == EINTR)
				continue;
			ret = error_queue(msgs, NULL,
					  "cannot read the kernel's answer: %s",
					  strerror(errno));
			break;
		}
		for (h = (struct nlmsghdr *)rbuf; mnl_nlmsg_ok(h, n);
		     h = mnl_nlmsg_next(h, (int *)&n)) {
			struct nlmsgerr *e;

			if (h->nlmsg_type != NLMSG_ERROR)
				continue;
			e = mnl_nlmsg_get_payload(h);
			pending--;
			if (e->error == 0)
				continue;
			it = item_by_seq(b, h->nlmsg_seq);
			if (e->error == -ERESTART || e->error == -ERANGE) {
				ret = error_queue(msgs, it ? &it->loc : NULL,
						  "the ruleset changed while this batch was sent; nothing was applied, try again");
				continue;
			}
			ret = error_queue(msgs, it ? &it->loc : NULL,
					  "Could not process %s: %s",
					  it ? item_what(it) : "batch",
					  strerror(-e->error));
			if (e->error == -EPERM)
				ret = error_queue(msgs, NULL,
						  "changing the ruleset needs CAP_NET_ADMIN (run as root); --offline checks without a kernel");
		}
	}
out:
	free(out.data);
	return ret;
}

/* --- generation --------------------------------------------------------- */

static int gen_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nftnl_gen *gen = nftnl_gen_alloc();

	if (nftnl_gen_nlmsg_parse(nlh, gen) == 0)
		*(uint32_t *)data = nftnl_gen_get_u32(gen, NFTNL_GEN_ID);
	nftnl_gen_free(gen);
	return MNL_CB_OK;
}

static int talk(struct nfh_ctx *ctx, struct nlmsghdr *nlh, mnl_cb_t cb,
		void *data)
{
	/* a big buffer: the kernel fills dump messages up to its size */
	const size_t len = 1 << 17;
	char *buf = xmalloc(len);
	uint32_t portid = mnl_socket_get_portid(ctx->nl);
	int ret, saved;

	if (mnl_socket_sendto(ctx->nl, nlh, nlh->nlmsg_len) < 0) {
		free(buf);
		return -1;
	}
	while ((ret = mnl_socket_recvfrom(ctx->nl, buf, len)) > 0) {
		ret = mnl_cb_run(buf, ret, nlh->nlmsg_seq, portid, cb, data);
		if (ret <= 0)
			break;
	}
	saved = errno;
	free(buf);
	errno = saved;
	return ret;
}

static int get_genid(struct nfh_ctx *ctx, uint32_t *genid)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;

	nlh = nftnl_nlmsg_build_hdr(buf, NFT_MSG_GETGEN, AF_UNSPEC, NLM_F_ACK,
				    ++ctx->seq);
	return talk(ctx, nlh, gen_cb, genid);
}

/* --- dumps -------------------------------------------------------------- */

struct dump_ctx {
	struct cache	*cache;
	struct cache_table *table;
	struct nftnl_set *set;
};

static int table_cb(const struct nlmsghdr *nlh, void *data)
{
	struct dump_ctx *d = data;
	struct nftnl_table *t = nftnl_table_alloc();

	if (nftnl_table_nlmsg_parse(nlh, t) < 0) {
		nftnl_table_free(t);
		return MNL_CB_OK;
	}
	cache_add_table(d->cache, t);
	return MNL_CB_OK;
}

static int chain_cb(const struct nlmsghdr *nlh, void *data)
{
	struct dump_ctx *d = data;
	struct nftnl_chain *c = nftnl_chain_alloc();
	struct cache_table *t;

	if (nftnl_chain_nlmsg_parse(nlh, c) < 0)
		goto drop;
	t = cache_table_find(d->cache, nftnl_chain_get_u32(c, NFTNL_CHAIN_FAMILY),
			     nftnl_chain_get_str(c, NFTNL_CHAIN_TABLE));
	if (!t)
		goto drop;
	cache_add_chain(t, c);
	return MNL_CB_OK;
drop:
	nftnl_chain_free(c);
	return MNL_CB_OK;
}

static int rule_cb(const struct nlmsghdr *nlh, void *data)
{
	struct dump_ctx *d = data;
	struct nftnl_rule *r = nftnl_rule_alloc();
	struct cache_table *t;
	struct cache_chain *ch;

	if (nftnl_rule_nlmsg_parse(nlh, r) < 0)
		goto drop;
	t = cache_table_find(d->cache, nftnl_rule_get_u32(r, NFTNL_RULE_FAMILY),
			     nftnl_rule_get_str(r, NFTNL_RULE_TABLE));
	if (!t)
		goto drop;
	ch = cache_chain_find(t, nftnl_rule_get_str(r, NFTNL_RULE_CHAIN));
	if (!ch)
		goto drop;
	cache_add_rule(ch, r);
	return MNL_CB_OK;
drop:
	nftnl_rule_free(r);
	return MNL_CB_OK;
}

static int set_cb(const struct nlmsghdr *nlh, void *data)
{
	struct dump_ctx *d = data;
	struct nftnl_set *s = nftnl_set_alloc();
	struct cache_table *t;

	if (nftnl_set_nlmsg_parse(nlh, s) < 0)
		goto drop;
	t = cache_table_find(d->cache, nftnl_set_get_u32(s, NFTNL_SET_FAMILY),
			     nftnl_set_get_str(s, NFTNL_SET_TABLE));
	if (!t)
		goto drop;
	cache_add_set(t, s);
	return MNL_CB_OK;
drop:
	nftnl_set_free(s);
	return MNL_CB_OK;
}

static int elem_cb(const struct nlmsghdr *nlh, void *data)
{
	struct dump_ctx *d = data;

	nftnl_set_elems_nlmsg_parse(nlh, d->set);
	return MNL_CB_OK;
}

static int dump(struct nfh_ctx *ctx, uint16_t type, unsigned int family,
		mnl_cb_t cb, struct dump_ctx *d)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;

	nlh = nftnl_nlmsg_build_hdr(buf, type, family, NLM_F_DUMP, ++ctx->seq);
	return talk(ctx, nlh, cb, d);
}

static int dump_elems(struct nfh_ctx *ctx, struct cache_set *cs)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct dump_ctx d = { .set = cs->nls };
	struct nlmsghdr *nlh;

	nlh = nftnl_nlmsg_build_hdr(buf, NFT_MSG_GETSETELEM,
				    nftnl_set_get_u32(cs->nls, NFTNL_SET_FAMILY),
				    NLM_F_DUMP, ++ctx->seq);
	nftnl_set_elems_nlmsg_build_payload(nlh, cs->nls);
	return talk(ctx, nlh, elem_cb, &d);
}

int nlio_dump(struct nfh_ctx *ctx, unsigned int family, struct cache *c,
	      struct list_head *msgs)
{
	struct dump_ctx d = { .cache = c };
	struct cache_table *t;
	struct cache_set *s;
	int tries = 0;

	if (nlio_open(ctx, msgs) < 0)
		return -1;
retry:
	cache_flush(c);
	if (dump(ctx, NFT_MSG_GETTABLE, family, table_cb, &d) < 0 ||
	    dump(ctx, NFT_MSG_GETCHAIN, family, chain_cb, &d) < 0 ||
	    dump(ctx, NFT_MSG_GETSET, family, set_cb, &d) < 0 ||
	    dump(ctx, NFT_MSG_GETRULE, family, rule_cb, &d) < 0)
		goto fail;
	list_for_each_entry(t, &c->tables, list)
		list_for_each_entry(s, &t->sets, list)
			if (dump_elems(ctx, s) < 0)
				goto fail;
	return 0;
fail:
	/* an interrupted dump means the ruleset changed under us: redo it */
	if (errno == EINTR && ++tries < 10)
		goto retry;
	if (errno == EPERM)
		return error_queue(msgs, NULL,
				   "listing the ruleset needs CAP_NET_ADMIN (run as root): %s",
				   strerror(errno));
	return error_queue(msgs, NULL, "cannot read the ruleset: %s",
			   strerror(errno));
}

int nlio_dump_sets(struct nfh_ctx *ctx, struct cache *c, struct list_head *msgs)
{
	struct dump_ctx d = { .cache = c };
	int tries = 0;

	if (nlio_open(ctx, msgs) < 0)
		return -1;
	do {
		cache_flush(c);
		if (dump(ctx, NFT_MSG_GETTABLE, NFPROTO_UNSPEC, table_cb, &d) == 0 &&
		    dump(ctx, NFT_MSG_GETSET, NFPROTO_UNSPEC, set_cb, &d) == 0)
			return 0;
	} while (errno == EINTR && ++tries < 10);
	return error_queue(msgs, NULL, "cannot read the kernel's sets: %s",
			   strerror(errno));
}
