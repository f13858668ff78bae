// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kernel I/O: one batch per run, every message acked; dumps for listing.
 * This file knows libnftnl objects and locations, never the AST.
 */
#include <stdio.h>
#include <endian.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/utsname.h>
#include <libmnl/libmnl.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nf_tables.h>
#include <libnftnl/chain.h>
#include <libnftnl/object.h>
#include <libnftnl/common.h>
#include <libnftnl/expr.h>
#include <libnftnl/gen.h>
#include <libnftnl/rule.h>
#include <libnftnl/set.h>
#include <libnftnl/table.h>

#include <cache.h>
#include <elemdump.h>
#include <elems.h>
#include <ctx.h>
#include <netlink.h>
#include <nftables-compat.h>
#include <rule.h>
#include <nlalloc.h>
#include <suggest.h>
#include <bitwise.h>
#include <inner.h>
#include <kfeature.h>

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
	case NLO_OBJ:
		nftnl_obj_free(it->obj);
		break;
	case NLO_FLOWTABLE:
		nftnl_flowtable_free(it->obj);
		break;
	}
}

void nl_batch_free(struct nl_batch *b)
{
	nl_items_free(&b->items);
}

void nl_items_free(struct list_head *items)
{
	struct nl_item *it, *next;

	list_for_each_entry_safe(it, next, items, list) {
		list_del(&it->list);
		free(it->elocs);
		if (it->obj)
			item_obj_free(it);
		free(it);
	}
}

/* --- chains: device-name prefixes ----------------------------------------- */

bool nl_chain_has_prefix(const struct nftnl_chain *c)
{
	const char *const *devs;

	if (!nftnl_chain_is_set(c, NFTNL_CHAIN_DEVICES))
		return false;
	devs = nftnl_chain_get(c, NFTNL_CHAIN_DEVICES);
	for (unsigned int i = 0; devs[i]; i++)
		if (dev_is_prefix(devs[i]))
			return true;
	return false;
}

static int dev_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

const char **nl_chain_devs_sorted(const struct nftnl_chain *c)
{
	const char *const *devs = nftnl_chain_get(c, NFTNL_CHAIN_DEVICES);
	unsigned int n = 0;
	const char **s;

	while (devs && devs[n])
		n++;
	s = xzalloc((n + 1) * sizeof(*s));
	memcpy(s, devs, n * sizeof(*s));
	/* a list with prefixes (which nft has not) stays as it was given */
	if (!nl_chain_has_prefix(c))
		qsort(s, n, sizeof(*s), dev_cmp);
	return s;
}

/* the device list nest @devs_type inside nest @hook_type of a message (a
   chain's NFTA_CHAIN_HOOK and NFTA_HOOK_DEVS, a flowtable's
   NFTA_FLOWTABLE_HOOK and NFTA_FLOWTABLE_HOOK_DEVS), and the outer nest */
static struct nlattr *devs_nest(const struct nlmsghdr *nlh, uint16_t hook_type,
				uint16_t devs_type, struct nlattr **hookp)
{
	struct nlattr *a, *h;

	mnl_attr_for_each(a, nlh, sizeof(struct nfgenmsg)) {
		if (mnl_attr_get_type(a) != hook_type)
			continue;
		mnl_attr_for_each_nested(h, a) {
			if (mnl_attr_get_type(h) != devs_type)
				continue;
			if (hookp)
				*hookp = a;
			return h;
		}
	}
	return NULL;
}

static struct nlattr *hook_devs(const struct nlmsghdr *nlh,
				struct nlattr **hookp)
{
	return devs_nest(nlh, NFTA_CHAIN_HOOK, NFTA_HOOK_DEVS, hookp);
}

static struct nlattr *flowtable_devs(const struct nlmsghdr *nlh,
				     struct nlattr **hookp)
{
	return devs_nest(nlh, NFTA_FLOWTABLE_HOOK, NFTA_FLOWTABLE_HOOK_DEVS,
			 hookp);
}

/*
 * Devices alone, for a base chain the kernel holds (nft 1.1's "add chain
 * netdev t c { devices = { d2 }; }" and delete chain with them): libnftnl
 * 1.2.4 puts the hook nest only with a hook number and priority, so it is
 * put here, as nft 1.1 sends it
 */
static void hook_devs_only(struct nlmsghdr *nlh, const struct nftnl_chain *c)
{
	struct nlattr *hook, *list;
	const char *const *devs;

	if (nftnl_chain_is_set(c, NFTNL_CHAIN_HOOKNUM))
		return;
	if (nftnl_chain_is_set(c, NFTNL_CHAIN_DEV)) {
		hook = mnl_attr_nest_start(nlh, NFTA_CHAIN_HOOK);
		mnl_attr_put_strz(nlh, NFTA_HOOK_DEV,
				  nftnl_chain_get_str(c, NFTNL_CHAIN_DEV));
		mnl_attr_nest_end(nlh, hook);
		return;
	}
	if (!nftnl_chain_is_set(c, NFTNL_CHAIN_DEVICES))
		return;
	devs = nftnl_chain_get(c, NFTNL_CHAIN_DEVICES);
	hook = mnl_attr_nest_start(nlh, NFTA_CHAIN_HOOK);
	list = mnl_attr_nest_start(nlh, NFTA_HOOK_DEVS);
	for (unsigned int i = 0; devs[i]; i++)
		mnl_attr_put_strz(nlh, NFTA_DEVICE_NAME, devs[i]);
	mnl_attr_nest_end(nlh, list);
	mnl_attr_nest_end(nlh, hook);
}

/*
 * libnftnl puts "veth*" as NFTA_DEVICE_NAME "veth*\0"; the kernel wants
 * NFTA_DEVICE_PREFIX "veth\0".  The attribute only shrinks, so it is
 * rewritten in place and what follows moves down (by 4 bytes when the
 * padding shrinks too), the nests (@devs inside @hook) and the message
 * with it.
 */
static void devs_prefix_put(struct nlmsghdr *nlh, struct nlattr *hook,
			    struct nlattr *devs)
{
	struct nlattr *a;
	char *p;

	p = mnl_attr_get_payload(devs);
	while (p < (char *)devs + devs->nla_len) {
		size_t old, new, cut;
		uint16_t len;
		char *s, *end;

		a = (struct nlattr *)p;
		s = mnl_attr_get_payload(a);
		len = mnl_attr_get_payload_len(a);
		old = MNL_ALIGN(a->nla_len);
		if (mnl_attr_get_type(a) != NFTA_DEVICE_NAME || len < 2 ||
		    s[len - 1] || s[len - 2] != '*') {
			p += old;
			continue;
		}
		s[len - 2] = '\0';
		a->nla_type = NFH_NFTA_DEVICE_PREFIX;
		a->nla_len--;
		new = MNL_ALIGN(a->nla_len);
		memset(p + a->nla_len, 0, new - a->nla_len);
		cut = old - new;
		if (cut) {
			end = (char *)nlh + nlh->nlmsg_len;
			memmove(p + new, p + old, end - (p + old));
			memset(end - cut, 0, cut);
			devs->nla_len -= cut;
			hook->nla_len -= cut;
			nlh->nlmsg_len -= cut;
		}
		p += new;
	}
}

void nl_chain_build_payload(struct nlmsghdr *nlh, const struct nftnl_chain *c)
{
	struct nlattr *hook, *devs;

	nftnl_chain_nlmsg_build_payload(nlh, c);
	hook_devs_only(nlh, c);
	if (nl_chain_has_prefix(c) && (devs = hook_devs(nlh, &hook)))
		devs_prefix_put(nlh, hook, devs);
}

static bool devs_have_prefix(const char *const *devs)
{
	for (unsigned int i = 0; devs && devs[i]; i++)
		if (dev_is_prefix(devs[i]))
			return true;
	return false;
}

bool nl_flowtable_has_prefix(const struct nftnl_flowtable *f)
{
	return nftnl_flowtable_is_set(f, NFTNL_FLOWTABLE_DEVICES) &&
	       devs_have_prefix(nftnl_flowtable_get_array(f, NFTNL_FLOWTABLE_DEVICES));
}

void nl_flowtable_build_payload(struct nlmsghdr *nlh,
				const struct nftnl_flowtable *f)
{
	struct nlattr *hook, *devs;

	nftnl_flowtable_nlmsg_build_payload(nlh, f);
	if (nl_flowtable_has_prefix(f) && (devs = flowtable_devs(nlh, &hook)))
		devs_prefix_put(nlh, hook, devs);
}

static void devs_list_free(char **l)
{
	for (unsigned int i = 0; l[i]; i++)
		free(l[i]);
	free(l);
}

/* the names and prefixes of @devs ("veth*" for NFTA_DEVICE_PREFIX
   "veth"), NULL-ended and malloc'd, in *@list; -1 on an entry that is
   neither */
static int devs_parse(const struct nlattr *devs, char ***list)
{
	const struct nlattr *a;
	unsigned int n = 0, k = 0;
	char **l;

	mnl_attr_for_each_nested(a, devs)
		n++;
	l = xzalloc((n + 1) * sizeof(*l));
	mnl_attr_for_each_nested(a, devs) {
		uint16_t type = mnl_attr_get_type(a);
		const char *s;

		if ((type != NFTA_DEVICE_NAME && type != NFH_NFTA_DEVICE_PREFIX) ||
		    mnl_attr_validate(a, MNL_TYPE_NUL_STRING) < 0 ||
		    strlen(s = mnl_attr_get_str(a)) >= IFNAMSIZ) {
			devs_list_free(l);
			return -1;
		}
		l[k++] = type == NFTA_DEVICE_NAME ? xstrdup(s) :
			 xasprintf("%s*", s);
	}
	*list = l;
	return 0;
}

/* whether the device list @devs holds a prefix */
static bool devs_nest_has_prefix(const struct nlattr *devs)
{
	const struct nlattr *a;

	if (devs)
		mnl_attr_for_each_nested(a, devs)
			if (mnl_attr_get_type(a) == NFH_NFTA_DEVICE_PREFIX)
				return true;
	return false;
}

/*
 * A copy of @nlh, with a NUL after it as talk() leaves one after what it
 * read (libnftnl strdup()s string attributes that need not end in one),
 * in which the device list @find finds has a type libnftnl does not
 * know, so that it skips it
 */
static struct nlmsghdr *devs_hidden_copy(const struct nlmsghdr *nlh,
		struct nlattr *(*find)(const struct nlmsghdr *, struct nlattr **))
{
	struct nlmsghdr *copy = xzalloc(nlh->nlmsg_len + 1);

	memcpy(copy, nlh, nlh->nlmsg_len);
	find(copy, NULL)->nla_type |= NLA_TYPE_MASK;
	return copy;
}

/*
 * libnftnl 1.2.4 refuses a chain whose NFTA_HOOK_DEVS holds anything but
 * NFTA_DEVICE_NAME (and nft 1.0.6 then lists forever).  A chain with a
 * prefix is parsed by libnftnl from a copy in which that nest has a type
 * it does not know, so it skips it; the nest is read here.
 */
int nl_chain_parse(const struct nlmsghdr *nlh, struct nftnl_chain *c)
{
	const struct nlattr *devs = hook_devs(nlh, NULL);
	struct nlmsghdr *copy;
	char **list;
	int ret;

	if (!devs_nest_has_prefix(devs))
		return nftnl_chain_nlmsg_parse(nlh, c);
	copy = devs_hidden_copy(nlh, hook_devs);
	ret = nftnl_chain_nlmsg_parse(copy, c);
	free(copy);
	if (ret < 0 || devs_parse(devs, &list) < 0)
		return -1;
	nftnl_chain_unset(c, NFTNL_CHAIN_DEV);
	for (ret = 0; list[ret]; ret++)
		;
	xnftnl_chain_set_data(c, NFTNL_CHAIN_DEVICES, list,
			      (ret + 1) * sizeof(*list));
	devs_list_free(list);
	return 0;
}

/* the same for a flowtable (libnftnl 1.2.4 refuses its list likewise) */
int nl_flowtable_parse(const struct nlmsghdr *nlh, struct nftnl_flowtable *f)
{
	const struct nlattr *devs = flowtable_devs(nlh, NULL);
	struct nlmsghdr *copy;
	char **list;
	int ret;

	if (!devs_nest_has_prefix(devs))
		return nftnl_flowtable_nlmsg_parse(nlh, f);
	copy = devs_hidden_copy(nlh, flowtable_devs);
	ret = nftnl_flowtable_nlmsg_parse(copy, f);
	free(copy);
	if (ret < 0 || devs_parse(devs, &list) < 0)
		return -1;
	xnftnl_flowtable_set_array(f, NFTNL_FLOWTABLE_DEVICES,
				   (const char **)list);
	devs_list_free(list);
	return 0;
}

/* --- debug output, in the format nft --debug=netlink prints -------------- */

static void chain_debug(FILE *f, struct nftnl_chain *c)
{
	struct nftnl_chain *d = xnftnl_chain_alloc();
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
		xnftnl_chain_set_str(d, NFTNL_CHAIN_TYPE,
				    nftnl_chain_get_str(c, NFTNL_CHAIN_TYPE));
	}
	if (nftnl_chain_is_set(c, NFTNL_CHAIN_DEV))
		xnftnl_chain_set_str(d, NFTNL_CHAIN_DEV,
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
		xnftnl_chain_set_data(d, NFTNL_CHAIN_DEVICES, rev,
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
	inner_rule_debug(f, r);
}

static void obj_debug(FILE *f, struct nftnl_obj *o)
{
	struct nftnl_obj *d = xnftnl_obj_alloc();
	char buf[4096];
	uint32_t len;

	/* as with chains, nft's own text has "(null)" for table and name:
	 * copy the type and its values only */
	for (uint16_t a = NFTNL_OBJ_TYPE; a < NFTNL_OBJ_BASE + 16; a++) {
		const void *p;

		if (a == NFTNL_OBJ_USE || a == NFTNL_OBJ_HANDLE ||
		    a == NFTNL_OBJ_USERDATA || a == NFTNL_OBJ_FAMILY ||
		    !nftnl_obj_is_set(o, a))
			continue;
		p = nftnl_obj_get_data(o, a, &len);
		if (p)
			xnftnl_obj_set_data(d, a, p, len);
	}
	nftnl_obj_snprintf(buf, sizeof(buf), d, NFTNL_OUTPUT_DEFAULT, 0);
	fprintf(f, "%s\n", buf);
	nftnl_obj_free(d);
}

/* nft's text: its hook, priority, devices and flags, no table nor name */
static void flowtable_debug(FILE *f, const struct nftnl_flowtable *ft)
{
	struct nftnl_flowtable *d = xnftnl_flowtable_alloc();
	char buf[4096];

	nftnl_flowtable_set_u32(d, NFTNL_FLOWTABLE_FAMILY,
				nftnl_flowtable_get_u32(ft, NFTNL_FLOWTABLE_FAMILY));
	nftnl_flowtable_set_u32(d, NFTNL_FLOWTABLE_HOOKNUM,
				nftnl_flowtable_get_u32(ft, NFTNL_FLOWTABLE_HOOKNUM));
	nftnl_flowtable_set_s32(d, NFTNL_FLOWTABLE_PRIO,
				nftnl_flowtable_get_s32(ft, NFTNL_FLOWTABLE_PRIO));
	if (nftnl_flowtable_is_set(ft, NFTNL_FLOWTABLE_DEVICES))
		xnftnl_flowtable_set_array(d, NFTNL_FLOWTABLE_DEVICES,
			(const char **)nftnl_flowtable_get_array(ft, NFTNL_FLOWTABLE_DEVICES));
	nftnl_flowtable_set_u32(d, NFTNL_FLOWTABLE_FLAGS,
				nftnl_flowtable_get_u32(ft, NFTNL_FLOWTABLE_FLAGS));
	nftnl_flowtable_snprintf(buf, sizeof(buf), d, NFTNL_OUTPUT_DEFAULT, 0);
	fprintf(f, "%s\n", buf);
	nftnl_flowtable_free(d);
}

/* a set's item (its declaration, or elements), packed or not */
static void set_item_debug(FILE *f, const struct nl_item *it)
{
	bool elems = it->msg_type != NFT_MSG_NEWSET;

	if (it->type == NLO_RAW) {
		struct nftnl_set *s = raw_msg_to_nftnl(it->obj, it->msg_type,
						       it->family);

		set_debug(f, s, elems);
		nftnl_set_free(s);
		return;
	}
	set_debug(f, it->obj, elems);
}

/* a rule's item, packed (a streamed rule) or not */
static void rule_item_debug(FILE *f, const struct nl_item *it)
{
	if (it->type == NLO_RAW) {
		struct nftnl_rule *r = raw_msg_to_rule(it->obj, it->msg_type,
						       it->family);

		if (r) {
			rule_debug(f, r);
			nftnl_rule_free(r);
		}
		return;
	}
	rule_debug(f, it->obj);
}

void nl_batch_debug(FILE *f, struct nl_batch *b)
{
	struct nl_item *it;

	list_for_each_entry(it, &b->items, list) {
		switch (it->msg_type) {
		case NFT_MSG_NEWCHAIN:
			if (nftnl_chain_is_set(it->obj, NFTNL_CHAIN_HANDLE)) {
				/* rename: nft's text has its names */
				char buf[4096];

				nftnl_chain_snprintf(buf, sizeof(buf), it->obj,
						     NFTNL_OUTPUT_DEFAULT, 0);
				fprintf(f, "%s\n", buf);
				break;
			}
			chain_debug(f, it->obj);
			break;
		case NFT_MSG_NEWSET:
		case NFT_MSG_NEWSETELEM:
		case NFT_MSG_DELSETELEM:
		case NFT_MSG_DESTROYSETELEM:
			set_item_debug(f, it);
			break;
		case NFT_MSG_NEWRULE:
			rule_item_debug(f, it);
			break;
		case NFT_MSG_NEWOBJ:
			obj_debug(f, it->obj);
			break;
		case NFT_MSG_NEWFLOWTABLE:
			flowtable_debug(f, it->obj);
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
	ctx->no_netlink = !ctx->nl;
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
	ctx->seq = nlio_seq_random();
	return 0;
}

/*
 * Sequence numbers start where no other process can guess: a reply
 * forged with the right one would otherwise pass for the kernel's (and
 * the sender check below is the only other line of defence).
 */
uint32_t nlio_seq_random(void)
{
	uint32_t seq = 0;

	if (getrandom(&seq, sizeof(seq), GRND_NONBLOCK) != sizeof(seq)) {
		struct timespec ts;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		seq = ts.tv_nsec ^ (uint32_t)ts.tv_sec ^ ((uint32_t)getpid() << 16);
	}
	return seq;
}

/* the next sequence number; 0 is a wildcard to libmnl, never used */
static uint32_t seq_next(struct nfh_ctx *ctx)
{
	if (++ctx->seq == 0)
		ctx->seq = 1;
	return ctx->seq;
}

/*
 * nlio_recv - one datagram the kernel sent.  A process with CAP_NET_ADMIN
 * in this namespace may send to our port from a socket of its own, or to
 * a group we listen to: whatever does not come from port 0, the kernel,
 * is dropped and counted in *@forged.
 */
ssize_t nlio_recv(int fd, void *buf, size_t len, int flags,
		  unsigned long *forged)
{
	struct sockaddr_nl addr;
	struct iovec iov = { .iov_base = buf, .iov_len = len };
	struct msghdr msg = {
		.msg_name = &addr, .msg_iov = &iov, .msg_iovlen = 1,
	};
	ssize_t n;

	for (;;) {
		msg.msg_namelen = sizeof(addr);
		msg.msg_flags = 0;
		n = recvmsg(fd, &msg, flags);
		if (n < 0)
			return n;
		if (msg.msg_namelen == sizeof(addr) &&
		    addr.nl_family == AF_NETLINK && addr.nl_pid == 0)
			break;
		if (forged)
			(*forged)++;
	}
	if (msg.msg_flags & MSG_TRUNC) {
		errno = ENOSPC;
		return -1;
	}
	return n;
}

/* --debug=mnl: each message sent and received, as libmnl prints them (as
   nft's mnl level does), on the output stream */
static void mnl_debug(const struct nfh_ctx *ctx, const void *buf, ssize_t len)
{
	if ((ctx->debug & NFH_DEBUG_MNL) && len > 0) {
		mnl_nlmsg_fprintf(ctx->octx.out, buf, len,
				  sizeof(struct nfgenmsg));
		fflush(ctx->octx.out);
	}
}

static ssize_t ctx_send(struct nfh_ctx *ctx, const void *buf, size_t len)
{
	mnl_debug(ctx, buf, len);
	return mnl_socket_sendto(ctx->nl, buf, len);
}

static ssize_t ctx_recv(struct nfh_ctx *ctx, int fd, void *buf, size_t len,
			int flags)
{
	ssize_t n = nlio_recv(fd, buf, len, flags, &ctx->forged);

	mnl_debug(ctx, buf, n);
	return n;
}

/*
 * Drops, in place, the messages of @buf (checked by msgs_sane()) that are
 * not addressed to port @portid: a reply to us carries our port.  The new
 * length; *@dropped counts what went.  nfnetlink_hook's dump messages
 * (list hooks) carry port 0, the kernel's own: nlio_recv() has made sure
 * that the kernel sent them.
 */
static size_t msgs_keep_ours(char *buf, size_t len, uint32_t portid,
			     unsigned long *dropped)
{
	size_t in = 0, out = 0;

	while (in + sizeof(struct nlmsghdr) <= len) {
		struct nlmsghdr *h = (struct nlmsghdr *)(buf + in);
		size_t step = NLMSG_ALIGN((size_t)h->nlmsg_len);

		if (step > len - in)
			step = len - in;
		if (h->nlmsg_pid == portid ||
		    (h->nlmsg_pid == 0 &&
		     NFNL_SUBSYS_ID(h->nlmsg_type) == NFNL_SUBSYS_HOOK)) {
			if (out != in)
				memmove(buf + out, buf + in, step);
			out += step;
		} else if (dropped) {
			(*dropped)++;
		}
		in += step;
	}
	return out;
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
	size_t	zeroed;		/* bytes zeroed from the start */
};

static char *buf_reserve(struct buf *b, size_t need)
{
	if (b->len + need > b->cap) {
		while (b->len + need > b->cap)
			b->cap = b->cap ? b->cap * 2 : 1 << 16;
		b->data = xrealloc(b->data, b->cap);
	}
	/* libmnl 1.0.4 leaves the padding after attributes unwritten: zero
	   each byte of the buffer once, not a whole reservation per message */
	if (b->len + need > b->zeroed) {
		memset(b->data + b->zeroed, 0, b->len + need - b->zeroed);
		b->zeroed = b->len + need;
	}
	return b->data + b->len;
}

#define MSG_MAX	(1 << 17)

/* NFTA_RULE_CHAIN_ID or NFTA_CHAIN_ID (@type) right after the table, where
   nft puts them (libnftnl 1.2.4 has no such rule attribute, and puts a
   chain's after its flags) */
static void put_chain_id(struct nlmsghdr *nlh, uint16_t type, uint32_t id)
{
	char *start = (char *)mnl_nlmsg_get_payload_offset(nlh,
							  sizeof(struct nfgenmsg));
	struct nlattr *a = (struct nlattr *)start;
	char *end = (char *)nlh + nlh->nlmsg_len, *at;
	size_t add = MNL_ATTR_HDRLEN + sizeof(id);

	at = start < end ? start + MNL_ALIGN(a->nla_len) : start;
	memmove(at + add, at, end - at);
	a = (struct nlattr *)at;
	a->nla_type = type;
	a->nla_len = add;
	id = htonl(id);
	memcpy(at + MNL_ATTR_HDRLEN, &id, sizeof(id));
	nlh->nlmsg_len += add;
}

/* @it's attributes after the header nftnl_nlmsg_build_hdr() wrote */
static void build_payload(struct nlmsghdr *nlh, const struct nl_item *it)
{
	switch (it->type) {
	case NLO_TABLE:
		nftnl_table_nlmsg_build_payload(nlh, it->obj);
		break;
	case NLO_CHAIN:
		nl_chain_build_payload(nlh, it->obj);
		if (it->chain_id)
			put_chain_id(nlh, NFTA_CHAIN_ID, it->chain_id);
		break;
	case NLO_RULE:
		inner_rule_build(nlh, it->obj);
		if (it->chain_id)
			put_chain_id(nlh, NFTA_RULE_CHAIN_ID, it->chain_id);
		break;
	case NLO_SET:
		nftnl_set_nlmsg_build_payload(nlh, it->obj);
		break;
	case NLO_SETELEM:
		nftnl_set_elems_nlmsg_build_payload(nlh, it->obj);
		break;
	case NLO_OBJ:
		nftnl_obj_nlmsg_build_payload(nlh, it->obj);
		break;
	case NLO_FLOWTABLE:
		nl_flowtable_build_payload(nlh, it->obj);
		break;
	case NLO_RAW: {
		const struct raw_msg *m = it->obj;

		memcpy((char *)nlh + nlh->nlmsg_len, m->data, m->len);
		nlh->nlmsg_len += m->len;
		break;
	}
	}
}

static void put_item(struct buf *b, struct nl_item *it, uint32_t seq,
		     uint16_t echo)
{
	struct nlmsghdr *nlh;

	it->off = b->len;
	nlh = nftnl_nlmsg_build_hdr(buf_reserve(b, MSG_MAX), it->msg_type,
				    it->family, it->flags | echo, seq);
	build_payload(nlh, it);
	b->len += nlh->nlmsg_len;
	it->seq = seq;
}

void nl_item_to_raw(struct nl_item *it)
{
	/* zeroed, and zeroed again after each use: libmnl leaves the
	   padding after attributes unwritten */
	static char *scratch;
	struct nlmsghdr *nlh;
	struct raw_msg *m;
	uint32_t hdr;

	if (it->type == NLO_RAW)
		return;
	if (!scratch)
		scratch = xzalloc(MSG_MAX);
	nlh = nftnl_nlmsg_build_hdr(scratch, it->msg_type, it->family,
				    it->flags, 0);
	hdr = nlh->nlmsg_len;
	build_payload(nlh, it);
	m = xmalloc(sizeof(*m) + nlh->nlmsg_len - hdr);
	m->len = nlh->nlmsg_len - hdr;
	memcpy(m->data, scratch + hdr, m->len);
	memset(scratch, 0, nlh->nlmsg_len);
	item_obj_free(it);
	it->obj = m;
	it->type = NLO_RAW;
}

/* a rule compiled already gets an id, for "index N" of a later rule */
void nl_item_set_rule_id(struct nl_item *it, uint32_t id)
{
	struct raw_msg *m = it->obj;
	struct nlattr *a;

	if (it->type != NLO_RAW || it->rule_id)
		return;
	m = xrealloc(m, sizeof(*m) + m->len + MNL_ATTR_HDRLEN + sizeof(id));
	a = (struct nlattr *)(m->data + m->len);
	a->nla_type = NFTA_RULE_ID;
	a->nla_len = MNL_ATTR_HDRLEN + sizeof(id);
	id = htonl(id);
	memcpy(m->data + m->len + MNL_ATTR_HDRLEN, &id, sizeof(id));
	m->len += MNL_ATTR_HDRLEN + sizeof(id);
	it->obj = m;
	it->rule_id = ntohl(id);
}

static void attr_copy(struct nlmsghdr *to, const struct nlattr *a)
{
	mnl_attr_put(to, a->nla_type, mnl_attr_get_payload_len(a),
		     mnl_attr_get_payload(a));
}

/* an expression of a rule, its objref name with a NUL */
static void expr_copy(struct nlmsghdr *to, const struct nlattr *x)
{
	const struct nlattr *a, *d;
	struct nlattr *nest, *data;
	bool objref = false;

	mnl_attr_for_each_nested(a, x)
		if (mnl_attr_get_type(a) == NFTA_EXPR_NAME)
			objref = !strncmp(mnl_attr_get_payload(a), "objref",
					  mnl_attr_get_payload_len(a));
	nest = mnl_attr_nest_start(to, mnl_attr_get_type(x));
	mnl_attr_for_each_nested(a, x) {
		if (!objref || mnl_attr_get_type(a) != NFTA_EXPR_DATA) {
			attr_copy(to, a);
			continue;
		}
		data = mnl_attr_nest_start(to, mnl_attr_get_type(a));
		mnl_attr_for_each_nested(d, a) {
			char *name;

			if (mnl_attr_get_type(d) != NFTA_OBJREF_IMM_NAME) {
				attr_copy(to, d);
				continue;
			}
			name = xstrndup(mnl_attr_get_payload(d),
					mnl_attr_get_payload_len(d));
			mnl_attr_put_strz(to, NFTA_OBJREF_IMM_NAME, name);
			free(name);
		}
		mnl_attr_nest_end(to, data);
	}
	mnl_attr_nest_end(to, nest);
}

/*
 * libnftnl 1.2.4 puts an objref's name without its NUL (the kernel goes by
 * the attribute's length) and reads it back with strdup(), so parsing what
 * it built gives "cnt2" and the bytes that follow ("cnt20").  This parses
 * a copy of @nlh whose objref names end in a NUL.
 */
int nl_rule_parse_built(const struct nlmsghdr *nlh, struct nftnl_rule *r)
{
	/* a NUL, padded, per expression at most */
	char *buf = xzalloc(2 * nlh->nlmsg_len + 64);
	struct nlmsghdr *to = (struct nlmsghdr *)buf;
	const struct nlattr *a, *x;
	int ret;

	memcpy(buf, nlh, MNL_NLMSG_HDRLEN + MNL_ALIGN(sizeof(struct nfgenmsg)));
	to->nlmsg_len = MNL_NLMSG_HDRLEN + MNL_ALIGN(sizeof(struct nfgenmsg));
	mnl_attr_for_each(a, nlh, sizeof(struct nfgenmsg)) {
		struct nlattr *nest;

		if (mnl_attr_get_type(a) != NFTA_RULE_EXPRESSIONS) {
			attr_copy(to, a);
			continue;
		}
		nest = mnl_attr_nest_start(to, mnl_attr_get_type(a));
		mnl_attr_for_each_nested(x, a)
			expr_copy(to, x);
		mnl_attr_nest_end(to, nest);
	}
	ret = inner_rule_parse(to, r);
	free(buf);
	return ret;
}

struct nftnl_set *raw_msg_to_nftnl(const struct raw_msg *m, uint16_t type,
				   unsigned int family)
{
	size_t hdr = MNL_NLMSG_HDRLEN + MNL_ALIGN(sizeof(struct nfgenmsg));
	char *buf = xzalloc(hdr + m->len);
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	struct nfgenmsg *nfg = (struct nfgenmsg *)(buf + MNL_NLMSG_HDRLEN);
	struct nftnl_set *s = xnftnl_set_alloc();

	nlh->nlmsg_len = hdr + m->len;
	nlh->nlmsg_type = (NFNL_SUBSYS_NFTABLES << 8) | type;
	nfg->nfgen_family = family;
	memcpy(buf + hdr, m->data, m->len);
	/* a streamed rule's anonymous set comes here too, as its NEWSET */
	if (type == NFT_MSG_NEWSET)
		nftnl_set_nlmsg_parse(nlh, s);
	else
		nftnl_set_elems_nlmsg_parse(nlh, s);
	free(buf);
	return s;
}

struct nftnl_rule *raw_msg_to_rule(const struct raw_msg *m, uint16_t type,
				   unsigned int family)
{
	struct nftnl_rule *r = xnftnl_rule_alloc();
	struct nlmsghdr *nlh;
	char *buf;

	buf = xzalloc(MNL_ALIGN(sizeof(struct nlmsghdr)) +
		      MNL_ALIGN(sizeof(struct nfgenmsg)) + m->len + 4);
	nlh = nftnl_nlmsg_build_hdr(buf, type, family, 0, 0);
	memcpy((char *)nlh + nlh->nlmsg_len, m->data, m->len);
	nlh->nlmsg_len += m->len;
	/* libnftnl refuses what the kernel would too (a zero-length value) */
	if (nl_rule_parse_built(nlh, r) < 0) {
		nftnl_rule_free(r);
		r = NULL;
	}
	free(buf);
	return r;
}

static const char *item_what(const struct nl_item *it)
{
	switch (it->type) {
	case NLO_TABLE:		return "table";
	case NLO_CHAIN:		return "chain";
	case NLO_RULE:		return "rule";
	case NLO_SET:		return "set";
	case NLO_OBJ:		return "object";
	case NLO_FLOWTABLE:	return "flowtable";
	case NLO_SETELEM:	return "set elements";
	case NLO_RAW:
		switch (it->msg_type) {
		case NFT_MSG_NEWRULE:	return "rule";
		case NFT_MSG_NEWSET:	return "set";
		default:		return "set elements";
		}
	}
	return "object";
}

static int get_genid(struct nfh_ctx *ctx, uint32_t *genid);
static bool msgs_sane(const char *buf, size_t len);

struct answers {
	struct nl_batch		*b;
	/* the items in the order sent, the first with sequence number
	   @first_seq: an answer finds its item at once (a walk of the list
	   made 50,000 refused rules take a minute to report) */
	struct nl_item		**items;
	unsigned int		nitems;
	uint32_t		first_seq;
	const struct buf	*out;		/* the messages sent */
	void			(*echo)(void *data, const struct nlmsghdr *nlh);
	void			*echo_data;	/* -e */
	struct list_head	*msgs;
	uint32_t		begin_seq;	/* the batch's begin message */
	uint32_t		sync_seq;	/* the request sent after it */
	bool			synced;		/* its answer came: all read */
	bool			restart;
	int			ret;
	struct list_head	misses;		/* struct objref_miss */
	unsigned int		nmisses;	/* of them, up to ERRORS_SHOWN */
	struct nfh_ctx		*ctx;
};

static struct nl_item *item_by_seq(const struct answers *a, uint32_t seq)
{
	uint32_t i = seq - a->first_seq;	/* wraps as the numbers do */
	struct nl_item *it;

	if (i < a->nitems && a->items[i]->seq == seq)
		return a->items[i];
	list_for_each_entry(it, &a->b->items, list)
		if (it->seq == seq)
			return it;
	return NULL;
}

static int ack_attr_cb(const struct nlattr *attr, void *data)
{
	if (mnl_attr_get_type(attr) == NLMSGERR_ATTR_OFFS &&
	    mnl_attr_validate(attr, MNL_TYPE_U32) == 0)
		*(uint32_t *)data = mnl_attr_get_u32(attr);
	return MNL_CB_OK;
}

/* the index of the rule expression holding byte @off of @nlh, or -1 */
static int expr_at(const struct nlmsghdr *nlh, uint32_t off)
{
	const struct nlattr *attr, *elem;
	int i = 0;

	mnl_attr_for_each(attr, nlh, sizeof(struct nfgenmsg)) {
		uint32_t start = (const char *)attr - (const char *)nlh;

		if ((mnl_attr_get_type(attr) & NLA_TYPE_MASK) != NFTA_RULE_EXPRESSIONS ||
		    off < start || off >= start + attr->nla_len)
			continue;
		mnl_attr_for_each_nested(elem, attr) {
			start = (const char *)elem - (const char *)nlh;
			if (off >= start && off < start + elem->nla_len)
				return i;
			i++;
		}
	}
	return -1;
}

const struct location *nl_item_expr_loc(const struct nl_item *it, int i,
					struct location *loc)
{
	const struct expr_loc *el;
	const char *p;

	if ((it->msg_type != NFT_MSG_NEWRULE &&
	     it->msg_type != NFT_MSG_DELFLOWTABLE &&
	     it->msg_type != NFT_MSG_DESTROYFLOWTABLE) ||
	    i < 0 || i >= it->nelocs || !it->elocs[i].first_col)
		return &it->loc;
	el = &it->elocs[i];
	*loc = it->loc;
	loc->first_line += el->first_line;
	loc->last_line = it->loc.first_line + el->last_line;
	loc->first_col = el->first_col;
	loc->last_col = el->last_col;
	/* the statement's line may come after the rule's first */
	if (loc->indesc && loc->indesc->data) {
		p = loc->indesc->data + loc->line_offset;
		for (unsigned int k = 0; k < el->first_line; k++) {
			p = memchr(p, '\n', loc->indesc->data + loc->indesc->len - p);
			if (!p)
				return &it->loc;
			p++;
		}
		loc->line_offset = p - loc->indesc->data;
	}
	return loc;
}

/*
 * Where a kernel error goes: the rule, or the statement that made the
 * expression the kernel's extended ack points at (its attribute offset).
 */
static const struct location *error_loc(const struct answers *a,
					const struct nl_item *it,
					const struct nlmsghdr *h,
					struct location *loc)
{
	const struct nlmsghdr *sent;
	uint32_t off = 0;

	if (it->msg_type != NFT_MSG_NEWRULE || !it->nelocs ||
	    !(h->nlmsg_flags & NLM_F_ACK_TLVS) ||
	    h->nlmsg_len < NLMSG_HDRLEN + sizeof(struct nlmsgerr) ||
	    mnl_attr_parse(h, sizeof(struct nlmsgerr), ack_attr_cb, &off) < 0 ||
	    !off || it->off + sizeof(*sent) > a->out->len)
		return &it->loc;
	sent = (const void *)(a->out->data + it->off);
	if (off >= sent->nlmsg_len || it->off + sent->nlmsg_len > a->out->len)
		return &it->loc;
	return nl_item_expr_loc(it, expr_at(sent, off), loc);
}

/*
 * A kernel before 6.17 answers NFTA_DEVICE_PREFIX, an attribute type it
 * does not know in a chain's NFTA_HOOK_DEVS or a flowtable's
 * NFTA_FLOWTABLE_HOOK_DEVS, with a bare EINVAL.  For a chain or flowtable
 * with a prefix on such a kernel, say so instead; on a newer one the
 * EINVAL has another cause and is reported as it is.
 */
static bool prefix_refused(struct answers *a, const struct nl_item *it)
{
	const struct nlattr *devs, *d;
	const struct nlmsghdr *sent;
	const char *prefix = NULL;
	struct utsname u;
	unsigned int major, minor;

	/* the objects are freed once sent: read the message that went */
	if (!it || (it->msg_type != NFT_MSG_NEWCHAIN &&
		    it->msg_type != NFT_MSG_NEWFLOWTABLE) ||
	    it->off + sizeof(*sent) > a->out->len)
		return false;
	sent = (const void *)(a->out->data + it->off);
	if (it->off + sent->nlmsg_len > a->out->len)
		return false;
	devs = it->msg_type == NFT_MSG_NEWCHAIN ? hook_devs(sent, NULL) :
						  flowtable_devs(sent, NULL);
	if (!devs)
		return false;
	mnl_attr_for_each_nested(d, devs)
		if (!prefix && mnl_attr_get_type(d) == NFH_NFTA_DEVICE_PREFIX)
			prefix = mnl_attr_get_str(d);
	if (!prefix || uname(&u) < 0 ||
	    sscanf(u.release, "%u.%u", &major, &minor) != 2 ||
	    major > 6 || (major == 6 && minor >= 17))
		return false;
	a->ret = error_queue(a->msgs, &it->loc,
			     "Could not process %s: device-name prefixes (\"%s*\") need Linux 6.17 or later; this kernel is %s",
			     it->msg_type == NFT_MSG_NEWCHAIN ? "chain" : "flowtable",
			     prefix, u.release);
	return true;
}

/*
 * The context of the secmark object @it sent, if it is a new one the
 * kernel answered with ENOENT and no attribute to blame (a missing table
 * names NFTA_OBJ_TABLE): the kernel found no secmark object type, or no
 * security ID for the context (no security module that maps contexts,
 * such as SELinux, is active, or it does not know this one).  NULL if not.
 */
static char *secmark_refused(const struct answers *a, const struct nl_item *it,
			     const struct nlmsghdr *h, int error)
{
	const struct nlattr *attr, *data = NULL;
	const struct nlmsghdr *sent;
	bool secmark = false;
	uint32_t off = 0;

	if (!it || it->type != NLO_OBJ || it->msg_type != NFT_MSG_NEWOBJ ||
	    error != -ENOENT || it->off + sizeof(*sent) > a->out->len)
		return NULL;
	if ((h->nlmsg_flags & NLM_F_ACK_TLVS) &&
	    h->nlmsg_len >= NLMSG_HDRLEN + sizeof(struct nlmsgerr) &&
	    mnl_attr_parse(h, sizeof(struct nlmsgerr), ack_attr_cb, &off) >= 0 && off)
		return NULL;
	/* the message as sent: the item's object is freed by now */
	sent = (const void *)(a->out->data + it->off);
	if (it->off + sent->nlmsg_len > a->out->len)
		return NULL;
	mnl_attr_for_each(attr, sent, sizeof(struct nfgenmsg)) {
		if (mnl_attr_get_type(attr) == NFTA_OBJ_TYPE &&
		    mnl_attr_get_payload_len(attr) == sizeof(uint32_t))
			secmark = ntohl(mnl_attr_get_u32(attr)) == NFT_OBJECT_SECMARK;
		else if (mnl_attr_get_type(attr) == NFTA_OBJ_DATA)
			data = attr;
	}
	if (!secmark || !data)
		return NULL;
	mnl_attr_for_each_nested(attr, data)
		if (mnl_attr_get_type(attr) == NFTA_SECMARK_CTX)
			return xstrndup(mnl_attr_get_payload(attr),
					mnl_attr_get_payload_len(attr));
	return NULL;
}

/*
 * Whether rule @it, refused with EOPNOTSUPP, holds a nat statement (nat,
 * masq or redir): the kernel refuses them outside a chain of type nat
 * and at a hook that nat has no use for, and says no more than that.
 */
static bool nat_refused(const struct answers *a, const struct nl_item *it,
			int error)
{
	const struct nlattr *attr, *e, *n;
	const struct nlmsghdr *sent;

	if (!it || it->msg_type != NFT_MSG_NEWRULE || error != -EOPNOTSUPP ||
	    it->off + sizeof(*sent) > a->out->len)
		return false;
	/* the message as sent: the item's object is freed by now */
	sent = (const void *)(a->out->data + it->off);
	if (it->off + sent->nlmsg_len > a->out->len)
		return false;
	mnl_attr_for_each(attr, sent, sizeof(struct nfgenmsg)) {
		if (mnl_attr_get_type(attr) != NFTA_RULE_EXPRESSIONS)
			continue;
		mnl_attr_for_each_nested(e, attr)
			mnl_attr_for_each_nested(n, e)
				if (mnl_attr_get_type(n) == NFTA_EXPR_NAME &&
				    (!strcmp(mnl_attr_get_str(n), "nat") ||
				     !strcmp(mnl_attr_get_str(n), "masq") ||
				     !strcmp(mnl_attr_get_str(n), "redir")))
					return true;
	}
	return false;
}

/* the string attribute @type of message @nlh (past its nfgenmsg), or NULL */
static const char *msg_str(const struct nlmsghdr *nlh, uint16_t type)
{
	const struct nlattr *attr;

	mnl_attr_for_each(attr, nlh, sizeof(struct nfgenmsg))
		if (mnl_attr_get_type(attr) == type &&
		    mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) == 0)
			return mnl_attr_get_str(attr);
	return NULL;
}

/* the message item @it sent, or NULL when it is not all in the batch */
static const struct nlmsghdr *item_msg(const struct answers *a,
				       const struct nl_item *it)
{
	const struct nlmsghdr *sent;

	if (it->off + sizeof(*sent) > a->out->len)
		return NULL;
	sent = (const void *)(a->out->data + it->off);
	return it->off + sent->nlmsg_len > a->out->len ? NULL : sent;
}

/*
 * A rule refused with ENOENT whose extended ack names its table or chain
 * attribute: the error says which name is missing, with "did you mean"
 * from the tables and chains the batch makes.  False for the others.
 */
static bool rule_name_missing(struct answers *a, const struct nl_item *it,
			      const struct nlmsghdr *h, int error)
{
	const char *table, *chain, *name;
	const struct nlmsghdr *sent, *m;
	const struct nlattr *attr;
	const struct nl_item *o;
	struct suggest sg;
	uint32_t off = 0;
	int type = -1;

	if (!it || it->msg_type != NFT_MSG_NEWRULE || error != -ENOENT ||
	    !(h->nlmsg_flags & NLM_F_ACK_TLVS) ||
	    h->nlmsg_len < NLMSG_HDRLEN + sizeof(struct nlmsgerr) ||
	    mnl_attr_parse(h, sizeof(struct nlmsgerr), ack_attr_cb, &off) < 0 ||
	    !off || !(sent = item_msg(a, it)))
		return false;
	mnl_attr_for_each(attr, sent, sizeof(struct nfgenmsg))
		if ((const char *)attr - (const char *)sent == (long)off)
			type = mnl_attr_get_type(attr);
	table = msg_str(sent, NFTA_RULE_TABLE);
	chain = msg_str(sent, NFTA_RULE_CHAIN);
	if (!table || !chain || (type != NFTA_RULE_TABLE && type != NFTA_RULE_CHAIN))
		return false;
	name = type == NFTA_RULE_TABLE ? table : chain;
	suggest_init(&sg, name);
	list_for_each_entry(o, &a->b->items, list) {
		if (o->family != it->family || !(m = item_msg(a, o)))
			continue;
		if (type == NFTA_RULE_TABLE && o->msg_type == NFT_MSG_NEWTABLE)
			suggest_add(&sg, msg_str(m, NFTA_TABLE_NAME));
		else if (type == NFTA_RULE_CHAIN && o->msg_type == NFT_MSG_NEWCHAIN &&
			 msg_str(m, NFTA_CHAIN_TABLE) &&
			 !strcmp(msg_str(m, NFTA_CHAIN_TABLE), table))
			suggest_add(&sg, msg_str(m, NFTA_CHAIN_NAME));
	}
	if (type == NFTA_RULE_TABLE)
		a->ret = error_queue(a->msgs, &it->loc,
				     "Could not process rule: table \"%s\" does not exist in family %s%s",
				     table, family_name(it->family), suggest_hint(&sg));
	else
		a->ret = error_queue(a->msgs, &it->loc,
				     "Could not process rule: chain \"%s\" does not exist in table %s %s%s",
				     chain, family_name(it->family), table,
				     suggest_hint(&sg));
	return true;
}

/*
 * An object a rule or an element of a map names that the kernel did not
 * find (ENOENT at an objref expression, or at an element's
 * NFTA_SET_ELEM_OBJREF): the error is queued as the answer is read, its
 * "did you mean" from the objects the batch makes; those the kernel
 * holds are added once every answer is read (objref_misses_hint()).
 */
static uint32_t ack_offset(const struct nlmsghdr *reply);

struct objref_miss {
	struct list_head	list;
	struct error_record	*erec;
	const struct nl_item	*it;
	const char		*what;		/* "rule", "set elements" */
	char			*table, *name;
	uint32_t		type;		/* 0: not known */
	bool			chain;		/* a jump's or goto's chain */
};

/* the u32 attribute @type of message @nlh (past its nfgenmsg), or @none */
static uint32_t msg_u32(const struct nlmsghdr *nlh, uint16_t type,
			uint32_t none)
{
	const struct nlattr *attr;

	mnl_attr_for_each(attr, nlh, sizeof(struct nfgenmsg))
		if (mnl_attr_get_type(attr) == type &&
		    mnl_attr_validate(attr, MNL_TYPE_U32) == 0)
			return ntohl(mnl_attr_get_u32(attr));
	return none;
}

/* the nested attribute of @nest holding byte @off of @nlh, or NULL */
static const struct nlattr *nested_at(const struct nlmsghdr *nlh,
				      const struct nlattr *nest, uint32_t off)
{
	const struct nlattr *n;

	mnl_attr_for_each_nested(n, nest) {
		uint32_t start = (const char *)n - (const char *)nlh;

		if (off >= start && off < start + n->nla_len)
			return n;
	}
	return NULL;
}

/* the attribute @type nested in @nest, or NULL */
static const struct nlattr *nested(const struct nlattr *nest, uint16_t type)
{
	const struct nlattr *n;

	mnl_attr_for_each_nested(n, nest)
		if (mnl_attr_get_type(n) == type)
			return n;
	return NULL;
}

/* the string attribute @type nested in @nest, or NULL */
static const char *nested_str(const struct nlattr *nest, uint16_t type)
{
	const struct nlattr *n = nested(nest, type);

	return n && mnl_attr_validate(n, MNL_TYPE_NUL_STRING) == 0 ?
	       mnl_attr_get_str(n) : NULL;
}

/* the objref expression (its NFTA_EXPR_DATA) of rule message @sent that
   holds byte @off, if it names its object; NULL if not */
static const struct nlattr *objref_at(const struct nlmsghdr *sent,
				      uint32_t off)
{
	const struct nlattr *attr, *e;
	const char *name;

	mnl_attr_for_each(attr, sent, sizeof(struct nfgenmsg)) {
		if ((mnl_attr_get_type(attr) & NLA_TYPE_MASK) != NFTA_RULE_EXPRESSIONS ||
		    !(e = nested_at(sent, attr, off)))
			continue;
		name = nested_str(e, NFTA_EXPR_NAME);
		if (!name || strcmp(name, "objref"))
			return NULL;
		/* its name as sent: without a NUL (nl_rule_parse_built()) */
		attr = nested(e, NFTA_EXPR_DATA);
		return attr && nested(attr, NFTA_OBJREF_IMM_NAME) ? attr : NULL;
	}
	return NULL;
}

/* the chain that the immediate verdict (jump, goto) of rule message
   @sent holding byte @off names, or NULL */
static const struct nlattr *jump_at(const struct nlmsghdr *sent, uint32_t off)
{
	const struct nlattr *attr, *e, *d;
	const char *name;

	mnl_attr_for_each(attr, sent, sizeof(struct nfgenmsg)) {
		if ((mnl_attr_get_type(attr) & NLA_TYPE_MASK) != NFTA_RULE_EXPRESSIONS ||
		    !(e = nested_at(sent, attr, off)))
			continue;
		name = nested_str(e, NFTA_EXPR_NAME);
		if (!name || strcmp(name, "immediate") ||
		    !(d = nested(e, NFTA_EXPR_DATA)) ||
		    !(d = nested(d, NFTA_IMMEDIATE_DATA)) ||
		    !(d = nested(d, NFTA_DATA_VERDICT)))
			return NULL;
		d = nested(d, NFTA_VERDICT_CHAIN);
		return d && mnl_attr_validate(d, MNL_TYPE_NUL_STRING) == 0 ? d : NULL;
	}
	return NULL;
}

/* the object type of the set a new-elements message @sent adds to, from
   the batch (by name or id) or from the kernel's sets read for the run;
   0 if not known */
static uint32_t elems_objtype(struct nfh_ctx *ctx, const struct answers *a,
			      const struct nl_item *it,
			      const struct nlmsghdr *sent, const char *table)
{
	const char *set = msg_str(sent, NFTA_SET_ELEM_LIST_SET);
	uint32_t id = msg_u32(sent, NFTA_SET_ELEM_LIST_SET_ID, 0);
	const struct nlmsghdr *m;
	const struct nl_item *o;
	struct cache_table *t;
	struct cache_set *cs;
	const char *n;

	list_for_each_entry(o, &a->b->items, list) {
		if (o == it)
			break;
		if (o->msg_type != NFT_MSG_NEWSET || o->family != it->family ||
		    !(m = item_msg(a, o)) || !(n = msg_str(m, NFTA_SET_TABLE)) ||
		    strcmp(n, table))
			continue;
		if ((set && (n = msg_str(m, NFTA_SET_NAME)) && !strcmp(n, set)) ||
		    (!set && id && msg_u32(m, NFTA_SET_ID, 0) == id))
			return msg_u32(m, NFTA_SET_OBJ_TYPE, 0);
	}
	t = set && ctx->set_cache ?
	    cache_table_find(ctx->set_cache, it->family, table) : NULL;
	cs = t ? cache_set_find(t, set) : NULL;
	return cs && nftnl_set_is_set(cs->nls, NFTNL_SET_OBJ_TYPE) ?
	       nftnl_set_get_u32(cs->nls, NFTNL_SET_OBJ_TYPE) : 0;
}

static void objref_miss_words(struct objref_miss *om, struct suggest *sg)
{
	const char *type = om->type ? obj_type_name(om->type) : NULL;

	free(om->erec->msg);
	if (om->chain) {
		om->erec->msg = xasprintf("Could not process %s: the chain \"%s\" it jumps to does not exist in table %s %s%s",
					  om->what, om->name,
					  family_name(om->it->family), om->table,
					  suggest_hint(sg));
		return;
	}
	om->erec->msg = xasprintf("Could not process %s: %s \"%s\" does not exist in table %s %s%s",
				  om->what, type ? type : "object", om->name,
				  family_name(om->it->family), om->table,
				  suggest_hint(sg));
}

/* the batch's own objects of the type and table of @om, as candidates */
static void objref_miss_batch(const struct answers *a,
			      const struct objref_miss *om, struct suggest *sg)
{
	const struct nlmsghdr *m;
	const struct nl_item *o;
	const char *t;

	list_for_each_entry(o, &a->b->items, list)
		if (om->chain && o->msg_type == NFT_MSG_NEWCHAIN &&
		    o->family == om->it->family && (m = item_msg(a, o)) &&
		    (t = msg_str(m, NFTA_CHAIN_TABLE)) && !strcmp(t, om->table))
			suggest_add(sg, msg_str(m, NFTA_CHAIN_NAME));
		else if (!om->chain && o->msg_type == NFT_MSG_NEWOBJ &&
			 o->family == om->it->family &&
		    (m = item_msg(a, o)) && (t = msg_str(m, NFTA_OBJ_TABLE)) &&
		    !strcmp(t, om->table) &&
		    (!om->type || msg_u32(m, NFTA_OBJ_TYPE, 0) == om->type))
			suggest_add(sg, msg_str(m, NFTA_OBJ_NAME));
}

/*
 * What a refused rule names at @off of @sent: an object (@type, and its
 * name) or a chain it jumps to; the name, NULL if nothing is named there
 */
static char *miss_in_rule(const struct nlmsghdr *sent, uint32_t off,
			  uint32_t *type, bool *chain)
{
	const struct nlattr *attr, *data, *jump = NULL, *n;

	if (!(data = objref_at(sent, off)) && !(jump = jump_at(sent, off)))
		return NULL;
	if (!data) {
		*chain = true;
		return xstrdup(mnl_attr_get_str(jump));
	}
	mnl_attr_for_each_nested(attr, data)
		if (mnl_attr_get_type(attr) == NFTA_OBJREF_IMM_TYPE &&
		    mnl_attr_validate(attr, MNL_TYPE_U32) == 0)
			*type = ntohl(mnl_attr_get_u32(attr));
	n = nested(data, NFTA_OBJREF_IMM_NAME);
	return xstrndup(mnl_attr_get_payload(n), mnl_attr_get_payload_len(n));
}

/* the same for a refused element: its object or its verdict's chain */
static char *miss_in_elems(const struct nlmsghdr *sent, uint32_t off,
			   bool *chain)
{
	const struct nlattr *attr, *elem = NULL, *n, *jump = NULL;

	mnl_attr_for_each(attr, sent, sizeof(struct nfgenmsg))
		if (mnl_attr_get_type(attr) == NFTA_SET_ELEM_LIST_ELEMENTS)
			elem = nested_at(sent, attr, off);
	n = elem ? nested(elem, NFTA_SET_ELEM_OBJREF) : NULL;
	if (!n && elem && (jump = nested(elem, NFTA_SET_ELEM_DATA)) &&
	    (jump = nested(jump, NFTA_DATA_VERDICT)) &&
	    (jump = nested(jump, NFTA_VERDICT_CHAIN)) &&
	    mnl_attr_validate(jump, MNL_TYPE_NUL_STRING) < 0)
		jump = NULL;
	if (jump) {
		*chain = true;
		return xstrdup(mnl_attr_get_str(jump));
	}
	if (!n)
		return NULL;
	return xstrndup(mnl_attr_get_payload(n), mnl_attr_get_payload_len(n));
}

static bool objref_missing(struct nfh_ctx *ctx, struct answers *a,
			   const struct nl_item *it,
			   const struct nlmsghdr *h, int error)
{
	const struct nlmsghdr *sent;
	const char *table;
	char *name = NULL;
	struct objref_miss *om;
	struct location loc;
	struct suggest sg;
	uint32_t off, type = 0;
	bool chain = false;

	if (!it || error != -ENOENT ||
	    (it->msg_type != NFT_MSG_NEWRULE && it->msg_type != NFT_MSG_NEWSETELEM) ||
	    !(off = ack_offset(h)) || !(sent = item_msg(a, it)) ||
	    off >= sent->nlmsg_len)
		return false;
	if (it->msg_type == NFT_MSG_NEWRULE) {
		if (!(table = msg_str(sent, NFTA_RULE_TABLE)) ||
		    !(name = miss_in_rule(sent, off, &type, &chain)))
			return false;
	} else {
		if (!(table = msg_str(sent, NFTA_SET_ELEM_LIST_TABLE)) ||
		    !(name = miss_in_elems(sent, off, &chain)))
			return false;
		if (!chain)
			type = elems_objtype(ctx, a, it, sent, table);
	}
	om = xzalloc(sizeof(*om));
	om->it = it;
	om->what = item_what(it);
	om->table = xstrdup(table);
	om->name = name;
	om->type = type;
	om->chain = chain;
	a->ret = error_queue(a->msgs, error_loc(a, it, h, &loc), "%s", "");
	om->erec = list_entry(a->msgs->prev, struct error_record, list);
	suggest_init(&sg, om->name);
	/* past the errors shown, no suggestions: each would read the batch
	   and the kernel again (50,000 jumps to a missing chain) */
	if (a->nmisses >= ERRORS_SHOWN) {
		objref_miss_words(om, &sg);
		free(om->table);
		free(om->name);
		free(om);
		return true;
	}
	a->nmisses++;
	objref_miss_batch(a, om, &sg);
	objref_miss_words(om, &sg);
	list_add_tail(&om->list, &a->misses);
	return true;
}

static int dump_objs(struct nfh_ctx *ctx, unsigned int family,
		     const char *table, uint32_t type, bool chains,
		     struct cache *c);

/*
 * The objects (or chains) the kernel holds join the "did you mean" of
 * each missing one (the batch changed nothing: it was refused), if @read
 * (the answers were all read: the socket is ours again).  The words stay
 * as they were if the kernel cannot be read.
 */
static void objref_misses_hint(struct nfh_ctx *ctx, struct answers *a,
			       bool read)
{
	struct objref_miss *om, *next;

	list_for_each_entry_safe(om, next, &a->misses, list) {
		struct cache *c = cache_alloc();
		struct cache_chain *ch;
		struct cache_table *t;
		struct cache_obj *o;
		struct suggest sg;

		if (read && dump_objs(ctx, om->it->family, om->table, om->type,
				      om->chain, c) == 0 &&
		    (t = cache_table_find(c, om->it->family, om->table))) {
			suggest_init(&sg, om->name);
			objref_miss_batch(a, om, &sg);
			list_for_each_entry(o, &t->objs, list)
				if (cache_obj_matches(o, om->type, NULL))
					suggest_add(&sg, nftnl_obj_get_str(o->nlo,
								NFTNL_OBJ_NAME));
			list_for_each_entry(ch, &t->chains, list)
				suggest_add(&sg, nftnl_chain_get_str(ch->nlc,
							NFTNL_CHAIN_NAME));
			objref_miss_words(om, &sg);
		}
		cache_free(c);
		list_del(&om->list);
		free(om->table);
		free(om->name);
		free(om);
	}
}

/*
 * The kernel support rule @it lacks, if the kernel refused it with ENOENT
 * at an expression (its extended ack) of a type that comes in a module of
 * its own: the kernel has no expression type of that name (src/nl/kfeature.c).
 * NULL if not.
 */
static const struct kfeature *expr_feature(const struct answers *a,
					   const struct nl_item *it,
					   const struct nlmsghdr *h, int error)
{
	const struct nlattr *attr, *elem, *n;
	const struct nlmsghdr *sent;
	uint32_t off = 0, start;

	if (!it || it->msg_type != NFT_MSG_NEWRULE || error != -ENOENT ||
	    !(h->nlmsg_flags & NLM_F_ACK_TLVS) ||
	    h->nlmsg_len < NLMSG_HDRLEN + sizeof(struct nlmsgerr) ||
	    mnl_attr_parse(h, sizeof(struct nlmsgerr), ack_attr_cb, &off) < 0 ||
	    !off || !(sent = item_msg(a, it)))
		return NULL;
	mnl_attr_for_each(attr, sent, sizeof(struct nfgenmsg)) {
		if ((mnl_attr_get_type(attr) & NLA_TYPE_MASK) != NFTA_RULE_EXPRESSIONS)
			continue;
		mnl_attr_for_each_nested(elem, attr) {
			start = (const char *)elem - (const char *)sent;
			if (off < start || off >= start + elem->nla_len)
				continue;
			mnl_attr_for_each_nested(n, elem)
				if (mnl_attr_get_type(n) == NFTA_EXPR_NAME &&
				    mnl_attr_validate(n, MNL_TYPE_NUL_STRING) == 0)
					return kfeature_of_expr(mnl_attr_get_str(n),
								it->family);
		}
	}
	return NULL;
}

static const struct location *error_loc(const struct answers *a,
					const struct nl_item *it,
					const struct nlmsghdr *h,
					struct location *loc);

/* ... and if so, the error that names it is queued */
static bool expr_refused(struct answers *a, const struct nl_item *it,
			 const struct nlmsghdr *h, int error)
{
	const struct kfeature *kf = expr_feature(a, it, h, error);
	struct location loc;

	if (!kf)
		return false;
	a->ret = error_queue(a->msgs, error_loc(a, it, h, &loc),
			     "Could not process rule: this kernel has no %s support (%s, module %s)%s%s; the ruleset is unchanged",
			     kf->what, kf->config, kf->module,
			     kf->or_else ? ", " : "", kf->or_else ? kf->or_else : "");
	return true;
}

/* whether the flowtable message @sent asks for hardware offload */
static bool flowtable_hw(const struct nlmsghdr *sent)
{
	const struct nlattr *attr;

	mnl_attr_for_each(attr, sent, sizeof(struct nfgenmsg))
		if (mnl_attr_get_type(attr) == NFTA_FLOWTABLE_FLAGS &&
		    mnl_attr_validate(attr, MNL_TYPE_U32) == 0)
			return ntohl(mnl_attr_get_u32(attr)) & NFT_FLOWTABLE_HW_OFFLOAD;
	return false;
}

/*
 * Whether the kernel refused new flowtable @it with ENOENT and no attribute
 * to blame (a missing table names NFTA_FLOWTABLE_TABLE, a missing device
 * its name in the hook): it has no flowtable type for the family (built
 * without CONFIG_NF_FLOW_TABLE_INET, or a family with none); or with
 * EOPNOTSUPP for one with "flags offload": a device has no way to offload
 * flows to hardware (no ndo_setup_tc, nor an indirect block driver), as
 * veth and lo.  The error is queued then.
 */
static bool flowtable_refused(struct answers *a, const struct nl_item *it,
			      const struct nlmsghdr *h, int error)
{
	const struct nlmsghdr *sent;
	uint32_t off = 0;

	if (!it || it->msg_type != NFT_MSG_NEWFLOWTABLE)
		return false;
	if (error == -EOPNOTSUPP && (sent = item_msg(a, it)) && flowtable_hw(sent)) {
		a->ret = error_queue(a->msgs, &it->loc,
				     "Could not process flowtable: %s: a device of the flowtable cannot offload flows to hardware (flags offload; without it, flows are offloaded in software); the ruleset is unchanged",
				     strerror(EOPNOTSUPP));
		return true;
	}
	if (error != -ENOENT)
		return false;
	if ((h->nlmsg_flags & NLM_F_ACK_TLVS) &&
	    h->nlmsg_len >= NLMSG_HDRLEN + sizeof(struct nlmsgerr) &&
	    mnl_attr_parse(h, sizeof(struct nlmsgerr), ack_attr_cb, &off) >= 0 && off)
		return false;
	if (it->family == NFPROTO_IPV4 || it->family == NFPROTO_IPV6 ||
	    it->family == NFPROTO_INET)
		a->ret = error_queue(a->msgs, &it->loc,
				     "Could not process flowtable: this kernel has no flowtable support (CONFIG_NF_FLOW_TABLE and CONFIG_NF_FLOW_TABLE_INET, module nf_flow_table_inet); the ruleset is unchanged");
	else
		a->ret = error_queue(a->msgs, &it->loc,
				     "Could not process flowtable: the kernel has flowtables in the ip, ip6 and inet families only, not in %s; the ruleset is unchanged",
				     family_name(it->family));
	return true;
}

/* a device of a flowtable message in words: a prefix with its star */
static char *dev_words(const struct nlattr *d)
{
	return xasprintf("\"%.*s%s\"", (int)strnlen(mnl_attr_get_payload(d),
						  mnl_attr_get_payload_len(d)),
			 (const char *)mnl_attr_get_payload(d),
			 mnl_attr_get_type(d) == NFH_NFTA_DEVICE_PREFIX ? "*" : "");
}

/*
 * Devices taken out of a flowtable ("delete flowtable T F { devices =
 * { x }; }") refused with ENOENT, its table and flowtable found (those
 * the extended ack names): 6.12's nft_delflowtable_hook found a device
 * the flowtable does not hook, and names none; or nft_netdev_hook_alloc
 * found no network device of a name, and names it.  The error says which
 * device, at its place in the block; with no device named and several in
 * the block, which devices.  False for the others.
 */
static bool flowtable_dev_missing(struct answers *a, const struct nl_item *it,
				  const struct nlmsghdr *h, int error)
{
	const struct nlattr *devs, *d, *at = NULL;
	const struct nlmsghdr *sent;
	const char *table, *name;
	struct location loc;
	char *words = NULL, *w, *all;
	uint32_t off;
	int n = 0, k = -1;

	if (!it || error != -ENOENT ||
	    (it->msg_type != NFT_MSG_DELFLOWTABLE &&
	     it->msg_type != NFT_MSG_DESTROYFLOWTABLE) ||
	    !(sent = item_msg(a, it)) || !(devs = flowtable_devs(sent, NULL)) ||
	    !(table = msg_str(sent, NFTA_FLOWTABLE_TABLE)) ||
	    !(name = msg_str(sent, NFTA_FLOWTABLE_NAME)))
		return false;
	if ((off = ack_offset(h)) && !(at = nested_at(sent, devs, off)))
		return false;
	mnl_attr_for_each_nested(d, devs) {
		if (d == at)
			k = n;
		n++;
	}
	if (!at && n == 1)
		k = 0;
	if (k >= 0) {
		n = 0;
		mnl_attr_for_each_nested(d, devs)
			if (n++ == k)
				words = dev_words(d);
		a->ret = error_queue(a->msgs, nl_item_expr_loc(it, k, &loc),
				     "Could not process flowtable: flowtable %s of table %s %s has no device %s%s",
				     name, family_name(it->family), table, words,
				     at ? " (the system has no network device of that name)" : "");
		free(words);
		return true;
	}
	all = xstrdup("");
	mnl_attr_for_each_nested(d, devs) {
		w = dev_words(d);
		words = xasprintf("%s%s%s", all, *all ? ", " : "", w);
		free(w);
		free(all);
		all = words;
	}
	a->ret = error_queue(a->msgs, &it->loc,
			     "Could not process flowtable: flowtable %s of table %s %s does not have one of the devices %s",
			     name, family_name(it->family), table, all);
	free(all);
	return true;
}

/* the offset into the message refused that the extended ack of @reply
   names (NLMSGERR_ATTR_OFFS), 0 if none */
static uint32_t ack_offset(const struct nlmsghdr *reply)
{
	uint32_t off = 0;

	if (!(reply->nlmsg_flags & NLM_F_ACK_TLVS) ||
	    reply->nlmsg_len < NLMSG_HDRLEN + sizeof(struct nlmsgerr) ||
	    mnl_attr_parse(reply, sizeof(struct nlmsgerr), ack_attr_cb, &off) < 0)
		return 0;
	return off;
}

/* the number of fields of a concatenation a new set message describes
   (NFTA_SET_DESC_CONCAT), 1 if none */
static unsigned int set_msg_fields(const struct nlattr *desc)
{
	const struct nlattr *a, *f;
	unsigned int n = 0;

	mnl_attr_for_each_nested(a, desc)
		if (mnl_attr_get_type(a) == NFTA_SET_DESC_CONCAT)
			mnl_attr_for_each_nested(f, a)
				n++;
	return n ? n : 1;
}

/* the words for chain type @type that the kernel lacks in @family */
static char *chain_type_words(const char *type, unsigned int family)
{
	bool elsewhere;
	const struct kfeature *kf = kfeature_of_chain_type(type, family,
							   &elsewhere);

	if (kf)
		return xasprintf("Could not process chain: this kernel has no %s (%s, module %s); the ruleset is unchanged",
				 kf->what, kf->config, kf->module);
	if (elsewhere)
		return xasprintf("Could not process chain: the kernel has %s chains in the ip, ip6 and inet families only, not in %s; the ruleset is unchanged",
				 type, family_name(family));
	return xasprintf("Could not process chain: the kernel has no chain type \"%s\" in family %s; the ruleset is unchanged",
			 type, family_name(family));
}

/*
 * A new chain refused with ENOENT at its NFTA_CHAIN_TYPE: the kernel has
 * no chain type of that name for the family (nf_tables_chain_type_lookup(),
 * after asking for its module).  A new set refused with EOPNOTSUPP: no set
 * type takes its flags and fields (nft_select_set_ops()), or the flags do
 * not go together.
 */
char *nlio_refusal_words(const struct nlmsghdr *sent,
			 const struct nlmsghdr *reply)
{
	const struct nlmsgerr *e = mnl_nlmsg_get_payload(reply);
	const struct nfgenmsg *g = mnl_nlmsg_get_payload(sent);
	const struct nlattr *attr, *desc = NULL;
	uint32_t off, flags = 0;
	const char *why;

	if (reply->nlmsg_len < NLMSG_HDRLEN + sizeof(*e) ||
	    sent->nlmsg_len < NLMSG_HDRLEN + sizeof(*g))
		return NULL;
	if (NFNL_MSG_TYPE(sent->nlmsg_type) == NFT_MSG_NEWCHAIN &&
	    e->error == -ENOENT && (off = ack_offset(reply))) {
		mnl_attr_for_each(attr, sent, sizeof(*g))
			if ((const char *)attr - (const char *)sent == (long)off &&
			    mnl_attr_get_type(attr) == NFTA_CHAIN_TYPE &&
			    mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) == 0)
				return chain_type_words(mnl_attr_get_str(attr),
							g->nfgen_family);
		return NULL;
	}
	if (NFNL_MSG_TYPE(sent->nlmsg_type) == NFT_MSG_NEWRULE &&
	    e->error == -EOPNOTSUPP && bitwise_pair_in_rule(sent))
		return xasprintf("Could not process rule: %s: this kernel has no bitwise of two registers (Linux 6.13 added it), which &, | and ^ with a value of the packet on the right-hand side need; the ruleset is unchanged",
				 strerror(EOPNOTSUPP));
	if (NFNL_MSG_TYPE(sent->nlmsg_type) != NFT_MSG_NEWSET ||
	    e->error != -EOPNOTSUPP)
		return NULL;
	mnl_attr_for_each(attr, sent, sizeof(*g)) {
		if (mnl_attr_get_type(attr) == NFTA_SET_FLAGS &&
		    mnl_attr_validate(attr, MNL_TYPE_U32) == 0)
			flags = ntohl(mnl_attr_get_u32(attr));
		else if (mnl_attr_get_type(attr) == NFTA_SET_DESC)
			desc = attr;
	}
	why = kfeature_set_refusal(flags, desc ? set_msg_fields(desc) : 1);
	return why ? xasprintf("Could not process set: %s: %s",
			       strerror(EOPNOTSUPP), why) : NULL;
}

/* ... for the item @it the kernel refused: the error is queued then */
static bool type_refused(struct answers *a, const struct nl_item *it,
			 const struct nlmsghdr *h)
{
	const struct nlmsghdr *sent;
	char *words;

	if (!it || (it->msg_type != NFT_MSG_NEWCHAIN &&
		    it->msg_type != NFT_MSG_NEWSET &&
		    it->msg_type != NFT_MSG_NEWRULE) ||
	    !(sent = item_msg(a, it)))
		return false;
	words = nlio_refusal_words(sent, h);
	if (!words)
		return false;
	a->ret = error_queue(a->msgs, &it->loc, "%s", words);
	free(words);
	return true;
}

static void answers_read(struct answers *a, const char *buf, ssize_t n)
{
	const struct nlmsghdr *h = (const void *)buf;
	int left = n;

	for (; mnl_nlmsg_ok(h, left); h = mnl_nlmsg_next(h, &left)) {
		const struct nlmsgerr *e;
		struct location loc;
		struct nl_item *it;
		char *ctxstr;

		if (h->nlmsg_seq == a->sync_seq && h->nlmsg_type == NLMSG_ERROR)
			a->synced = true;
		/* -e: what the batch made, echoed by the kernel (element
		   echoes carry sequence number 0), not our generation request */
		if (a->echo && h->nlmsg_type != NLMSG_ERROR &&
		    (!a->sync_seq || h->nlmsg_seq != a->sync_seq))
			a->echo(a->echo_data, h);
		if (h->nlmsg_type != NLMSG_ERROR || h->nlmsg_seq == a->sync_seq)
			continue;
		e = mnl_nlmsg_get_payload(h);
		if (e->error == 0)
			continue;
		if (e->error == -ERESTART && h->nlmsg_seq == a->begin_seq) {
			/* another process committed after we read the
			   generation: the kernel took nothing */
			a->restart = true;
			continue;
		}
		it = item_by_seq(a, h->nlmsg_seq);
		if (e->error == -ERESTART) {
			a->ret = error_queue(a->msgs, it ? &it->loc : NULL,
					     "the ruleset changed while this batch was sent; nothing was applied, try again");
			continue;
		}
		if (e->error == -EINVAL && prefix_refused(a, it))
			continue;
		if (rule_name_missing(a, it, h, e->error) ||
		    objref_missing(a->ctx, a, it, h, e->error) ||
		    flowtable_refused(a, it, h, e->error) ||
		    flowtable_dev_missing(a, it, h, e->error) ||
		    expr_refused(a, it, h, e->error) ||
		    type_refused(a, it, h))
			continue;
		ctxstr = secmark_refused(a, it, h, e->error);
		if (ctxstr) {
			a->ret = error_queue(a->msgs, &it->loc,
					     "Could not process secmark: %s: the kernel has no security ID for \"%s\" (no security module that knows the context, such as SELinux, is active, or the kernel lacks secmark objects); the ruleset is unchanged",
					     strerror(-e->error), ctxstr);
			free(ctxstr);
			continue;
		}
		a->ret = error_queue(a->msgs, it ? error_loc(a, it, h, &loc) : NULL,
				     "Could not process %s: %s%s",
				     it ? item_what(it) : "batch",
				     strerror(-e->error),
				     nat_refused(a, it, e->error) ?
				     "; snat, dnat, masquerade and redirect need a chain of type nat (snat at postrouting or input, masquerade at postrouting, dnat and redirect at prerouting or output)" : "");
		if (e->error == -EPERM)
			a->ret = error_queue(a->msgs, NULL,
					     "changing the ruleset needs CAP_NET_ADMIN (run as root); --offline checks without a kernel");
	}
}

/*
 * Only failing messages are answered (no NLM_F_ACK), so a batch of 20,000
 * rules does not need 20,000 answers to fit in the socket's buffer.  The
 * kernel has queued every answer by the time sendto() returns: read them,
 * then send a request of our own (the generation) and read up to its
 * answer, which tells that nothing else is coming.
 */
/*
 * The batch's messages into @out: BEGIN (with a generation id of 0, filled
 * in at *@genid_off later), each item (each answer finds its item in
 * @a's table), END unless -c.  The items' objects are freed as they are
 * copied: answers need an item's location and kind only.
 */
static void batch_build(struct nfh_ctx *ctx, struct nl_batch *b,
			struct answers *a, struct buf *out, size_t *genid_off)
{
	struct nlmsghdr *nlh;
	struct nl_item *it;
	unsigned int n = 0;

	a->begin_seq = seq_next(ctx);
	nlh = nftnl_batch_begin(buf_reserve(out, MSG_MAX), a->begin_seq);
	mnl_attr_put_u32(nlh, NFNL_BATCH_GENID, 0);
	*genid_off = out->len + nlh->nlmsg_len - sizeof(uint32_t);
	out->len += nlh->nlmsg_len;
	list_for_each_entry(it, &b->items, list)
		a->nitems++;
	a->items = xmalloc(a->nitems * sizeof(*a->items));
	list_for_each_entry(it, &b->items, list) {
		put_item(out, it, seq_next(ctx), ctx->echo ? NLM_F_ECHO : 0);
		if (!n)
			a->first_seq = it->seq;
		a->items[n++] = it;
		if (!ctx->keep_items) {
			item_obj_free(it);
			it->obj = NULL;
		}
	}
	/* without the end message the kernel validates and aborts: -c */
	if (!ctx->dry_run) {
		nlh = nftnl_batch_end(buf_reserve(out, MSG_MAX), seq_next(ctx));
		out->len += nlh->nlmsg_len;
	}
}

/* socket buffers for a batch of @len bytes and @nitems messages */
static void batch_buffers(int fd, size_t len, unsigned int nitems)
{
	int bufsz = 1 << 22;

	/* the whole batch goes in one send: the buffer must hold it */
	if (len + (1 << 16) > (size_t)bufsz)
		bufsz = len + (1 << 16) > INT_MAX / 2 ? INT_MAX / 2 :
			(int)(len + (1 << 16));
	setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &bufsz, sizeof(bufsz));
	/*
	 * The kernel queues every answer before the send returns; only
	 * failing messages are answered, but room for all of them (an answer
	 * takes about 1 KiB of buffer) keeps every error.
	 */
	bufsz = 1 << 22;
	if (nitems > (unsigned int)(INT_MAX / 4096))
		bufsz = INT_MAX / 2;
	else if ((int)nitems * 2048 > bufsz)
		bufsz = (int)nitems * 2048;
	setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &bufsz, sizeof(bufsz));
}

/*
 * The generation the batch was made against: the one of the first read
 * of the kernel's ruleset that evaluating it took (its sets, a chain's
 * rule handles, a set's intervals), or now if it took none.  The kernel
 * refuses the batch (ERESTART) if anything was committed since.
 */
static int batch_genid(struct nfh_ctx *ctx, struct list_head *msgs,
		       uint32_t *genid)
{
	if (ctx->cache_gen_set) {
		*genid = ctx->cache_gen;
		return 0;
	}
	if (get_genid(ctx, genid) == 0)
		return 0;
	if (errno == EPERM)
		return error_queue(msgs, NULL,
				   "changing the ruleset needs CAP_NET_ADMIN (run as root); --offline checks without a kernel");
	return error_queue(msgs, NULL, "cannot read the ruleset generation: %s",
			   strerror(errno));
}

/*
 * Reads the answers to the batch: those queued already, then those up to
 * the answer to a GETGEN sent after it (all of the batch's come first).
 * *@overflow: some were lost.  0, or -1 with an error queued.
 */
static int batch_answers(struct nfh_ctx *ctx, struct answers *a,
			 struct list_head *msgs, bool *overflow)
{
	char rbuf[MNL_SOCKET_BUFFER_SIZE * 2], sbuf[MNL_SOCKET_BUFFER_SIZE];
	int fd = mnl_socket_get_fd(ctx->nl);
	uint32_t portid = mnl_socket_get_portid(ctx->nl);
	struct nlmsghdr *nlh;
	ssize_t n;

	while ((n = ctx_recv(ctx, fd, rbuf, sizeof(rbuf), MSG_DONTWAIT)) != 0) {
		if (n > 0) {
			if (msgs_sane(rbuf, n))
				answers_read(a, rbuf, msgs_keep_ours(rbuf, n, portid,
								     &ctx->forged));
			continue;
		}
		if (errno == ENOBUFS)
			*overflow = true;	/* answers were lost: errors */
		else if (errno != EINTR)
			break;
	}
	a->sync_seq = seq_next(ctx);
	nlh = nftnl_nlmsg_build_hdr(sbuf, NFT_MSG_GETGEN, AF_UNSPEC, NLM_F_ACK,
				    a->sync_seq);
	if (ctx_send(ctx, nlh, nlh->nlmsg_len) < 0)
		return error_queue(msgs, NULL, "cannot talk to the kernel: %s",
				   strerror(errno));
	while (!a->synced) {
		n = ctx_recv(ctx, fd, rbuf, sizeof(rbuf), 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == ENOBUFS) {
			*overflow = true;
			continue;
		}
		if (n <= 0)
			return error_queue(msgs, NULL,
					   "cannot read the kernel's answer: %s",
					   strerror(errno));
		if (msgs_sane(rbuf, n))
			answers_read(a, rbuf, msgs_keep_ours(rbuf, n, portid,
							     &ctx->forged));
	}
	return 0;
}

int nlio_batch_send(struct nfh_ctx *ctx, struct nl_batch *b,
		    struct list_head *msgs)
{
	struct buf out = { 0 };
	struct answers a = { .b = b, .msgs = msgs, .out = &out,
			     .echo = ctx->echo, .echo_data = ctx->echo_data,
			     .ctx = ctx };
	bool overflow = false;
	uint32_t genid = 0;
	size_t genid_off;
	int fd, ret, one = 1;

	init_list_head(&a.misses);
	if (list_empty(&b->items))
		return 0;
	if (nlio_open(ctx, msgs) < 0)
		return -1;
	fd = mnl_socket_get_fd(ctx->nl);
	/* answers that do not echo the message they answer */
	setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	batch_build(ctx, b, &a, &out, &genid_off);
	batch_buffers(fd, out.len, a.nitems);
	ret = batch_genid(ctx, msgs, &genid);
	if (ret < 0)
		goto out;
	genid = htonl(genid);
	memcpy(out.data + genid_off, &genid, sizeof(genid));
	if (ctx_send(ctx, out.data, out.len) < 0) {
		ret = error_queue(msgs, NULL, "cannot send the batch: %s",
				  strerror(errno));
		goto out;
	}
	ret = batch_answers(ctx, &a, msgs, &overflow);
	objref_misses_hint(ctx, &a, ret == 0);
	if (ret < 0)
		goto out;
	/* nothing was applied: the caller reads the ruleset again and
	 * evaluates the commands again, never sends this batch again */
	if (a.restart && !a.ret && !overflow) {
		ret = NLIO_RESTART;
		goto out;
	}
	if (overflow)
		a.ret = error_queue(msgs, NULL,
				    "more errors than the socket could hold: some are not shown; nothing was applied");
	ret = a.ret;
out:
	free(a.items);
	free(out.data);
	return ret;
}

/* --- generation --------------------------------------------------------- */

static int gen_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nftnl_gen *gen = xnftnl_gen_alloc();

	if (nftnl_gen_nlmsg_parse(nlh, gen) == 0)
		*(uint32_t *)data = nftnl_gen_get_u32(gen, NFTNL_GEN_ID);
	nftnl_gen_free(gen);
	return MNL_CB_OK;
}

/*
 * libmnl compares a message's length with what is left as signed ints, so
 * a length over 2 GiB would pass and send it far past the buffer: check
 * every reply before walking it.
 */
static bool msgs_sane(const char *buf, size_t len)
{
	while (len >= sizeof(struct nlmsghdr)) {
		const struct nlmsghdr *nlh = (const void *)buf;
		size_t step = NLMSG_ALIGN((size_t)nlh->nlmsg_len);

		if (nlh->nlmsg_len < sizeof(*nlh) || nlh->nlmsg_len > len)
			return false;
		if (step >= len)
			return true;
		buf += step;
		len -= step;
	}
	return len == 0;
}

/* whether @buf holds the last message (done or error) of request @seq */
static bool reply_ends(const char *buf, size_t len, uint32_t seq)
{
	const struct nlmsghdr *h = (const void *)buf;
	int left = len;

	for (; mnl_nlmsg_ok(h, left); h = mnl_nlmsg_next(h, &left))
		if (h->nlmsg_seq == seq &&
		    (h->nlmsg_type == NLMSG_DONE || h->nlmsg_type == NLMSG_ERROR))
			return true;
	return false;
}

static int talk(struct nfh_ctx *ctx, struct nlmsghdr *nlh, mnl_cb_t cb,
		void *data)
{
	/* a big buffer: the kernel fills dump messages up to its size */
	const size_t len = 1 << 17;
	char *buf = xmalloc(len + 1);
	uint32_t portid = mnl_socket_get_portid(ctx->nl);
	bool intr = false;
	int ret = -1, saved;
	ssize_t n;

	if (ctx_send(ctx, nlh, nlh->nlmsg_len) < 0) {
		free(buf);
		return -1;
	}
	while ((n = ctx_recv(ctx, mnl_socket_get_fd(ctx->nl), buf, len, 0)) > 0) {
		if (!msgs_sane(buf, n)) {
			errno = EBADMSG;
			ret = -1;
			break;
		}
		n = msgs_keep_ours(buf, n, portid, &ctx->forged);
		if (!n)
			continue;
		/*
		 * libnftnl strdup()s string attributes that need not end in
		 * a NUL: the last one of a reply must not run off the buffer
		 */
		buf[n] = '\0';
		if (!intr) {
			ret = mnl_cb_run(buf, n, nlh->nlmsg_seq, portid, cb, data);
			if (ret > 0)
				continue;
			if (ret == 0 || errno != EINTR)
				break;
			intr = true;
		}
		/*
		 * The ruleset changed during the dump: the kernel still sends
		 * the rest of it.  Read it to its end, or the next request
		 * would get it for an answer.
		 */
		if (reply_ends(buf, n, nlh->nlmsg_seq)) {
			errno = EINTR;
			ret = -1;
			break;
		}
	}
	if (n <= 0)
		ret = -1;
	saved = errno;
	free(buf);
	errno = saved;
	return ret;
}

/*
 * nlio_request - sends @nlh, a request of any nfnetlink subsystem (its
 * sequence number is set here), on the socket of @ctx, and hands each
 * reply message to @cb.  As talk(): -1 with errno on failure.
 */
int nlio_request(struct nfh_ctx *ctx, struct nlmsghdr *nlh, mnl_cb_t cb,
		 void *data)
{
	nlh->nlmsg_seq = seq_next(ctx);
	return talk(ctx, nlh, cb, data);
}

static int get_genid(struct nfh_ctx *ctx, uint32_t *genid)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;

	nlh = nftnl_nlmsg_build_hdr(buf, NFT_MSG_GETGEN, AF_UNSPEC, NLM_F_ACK,
				    seq_next(ctx));
	return talk(ctx, nlh, gen_cb, genid);
}

/* --- dumps -------------------------------------------------------------- */

struct dump_ctx {
	struct cache	*cache;
	struct cache_table *table;
	struct nftnl_set *set;
	struct elem_dump *elems;
	struct elem_seen *seen;		/* NULL: repeats are not looked for */
};

static int table_cb(const struct nlmsghdr *nlh, void *data)
{
	struct dump_ctx *d = data;
	struct nftnl_table *t = xnftnl_table_alloc();

	if (nftnl_table_nlmsg_parse(nlh, t) < 0 ||
	    !nftnl_table_is_set(t, NFTNL_TABLE_NAME)) {
		nftnl_table_free(t);
		return MNL_CB_OK;
	}
	cache_add_table(d->cache, t);
	return MNL_CB_OK;
}

static int chain_cb(const struct nlmsghdr *nlh, void *data)
{
	struct dump_ctx *d = data;
	struct nftnl_chain *c = xnftnl_chain_alloc();
	struct cache_table *t;

	if (nl_chain_parse(nlh, c) < 0 ||
	    !nftnl_chain_is_set(c, NFTNL_CHAIN_TABLE) ||
	    !nftnl_chain_is_set(c, NFTNL_CHAIN_NAME))
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

/*
 * libnftnl 1.2.4 trusts a reply in places and crashes, reads uninitialised
 * memory or writes past a buffer when it lies: an expression without a
 * name, a verdict without a code, a jump or goto without a chain, a set
 * element attribute of an unknown type.  Check those before handing it a
 * message.
 */
static bool verdict_sane(const struct nlattr *data)
{
	const struct nlattr *a, *v;

	mnl_attr_for_each_nested(a, data) {
		bool chain = false, has_code = false;
		uint32_t code = 0;

		if (mnl_attr_get_type(a) != NFTA_DATA_VERDICT)
			continue;
		mnl_attr_for_each_nested(v, a) {
			if (mnl_attr_get_type(v) == NFTA_VERDICT_CODE &&
			    mnl_attr_validate(v, MNL_TYPE_U32) == 0) {
				code = ntohl(mnl_attr_get_u32(v));
				has_code = true;
			}
			if (mnl_attr_get_type(v) == NFTA_VERDICT_CHAIN &&
			    mnl_attr_validate(v, MNL_TYPE_NUL_STRING) == 0)
				chain = true;
		}
		if (!has_code ||
		    ((code == (uint32_t)NFT_JUMP || code == (uint32_t)NFT_GOTO) && !chain))
			return false;
	}
	return true;
}

static bool exprs_sane(const struct nlattr *list);

static bool expr_sane(const struct nlattr *expr)
{
	const struct nlattr *a, *d;
	const char *name = NULL;

	mnl_attr_for_each_nested(a, expr)
		if (mnl_attr_get_type(a) == NFTA_EXPR_NAME &&
		    mnl_attr_validate(a, MNL_TYPE_NUL_STRING) == 0)
			name = mnl_attr_get_str(a);
	if (!name)
		return false;
	if (!strcmp(name, "dynset")) {
		/* its per-element expressions are parsed the same way */
		mnl_attr_for_each_nested(a, expr) {
			if (mnl_attr_get_type(a) != NFTA_EXPR_DATA)
				continue;
			mnl_attr_for_each_nested(d, a)
				if ((mnl_attr_get_type(d) == NFTA_DYNSET_EXPR &&
				     !expr_sane(d)) ||
				    (mnl_attr_get_type(d) == NFTA_DYNSET_EXPRESSIONS &&
				     !exprs_sane(d)))
					return false;
		}
		return true;
	}
	if (strcmp(name, "immediate"))
		return true;
	mnl_attr_for_each_nested(a, expr) {
		if (mnl_attr_get_type(a) != NFTA_EXPR_DATA)
			continue;
		mnl_attr_for_each_nested(d, a)
			if (mnl_attr_get_type(d) == NFTA_IMMEDIATE_DATA &&
			    !verdict_sane(d))
				return false;
	}
	return true;
}

static bool exprs_sane(const struct nlattr *list)
{
	const struct nlattr *l;

	mnl_attr_for_each_nested(l, list)
		if (!expr_sane(l))
			return false;
	return true;
}

/*
 * A list of expressions libnftnl 1.2.4 reads into a set or an element: if
 * one after the first fails to parse, it frees those before it and then
 * frees them again with the set (a double free).  Each is read here first,
 * alone, as a rule's only expression.
 */
static bool expr_list_parses(const struct nlattr *list)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	const struct nlattr *l;

	mnl_attr_for_each_nested(l, list) {
		struct nlmsghdr *nlh;
		struct nlattr *nest;
		struct nftnl_rule *r;
		bool ok;

		if (mnl_attr_get_type(l) != NFTA_LIST_ELEM ||
		    mnl_attr_get_payload_len(l) + 64 > sizeof(buf))
			return false;
		nlh = nftnl_nlmsg_build_hdr(buf, NFT_MSG_NEWRULE, NFPROTO_IPV4, 0, 0);
		nest = mnl_attr_nest_start(nlh, NFTA_RULE_EXPRESSIONS);
		mnl_attr_put(nlh, NFTA_LIST_ELEM, mnl_attr_get_payload_len(l),
			     mnl_attr_get_payload(l));
		mnl_attr_nest_end(nlh, nest);
		r = xnftnl_rule_alloc();
		ok = nftnl_rule_nlmsg_parse(nlh, r) == 0;
		nftnl_rule_free(r);
		if (!ok)
			return false;
	}
	return true;
}

static bool elems_sane(const struct nlattr *list)
{
	const struct nlattr *l, *a;

	mnl_attr_for_each_nested(l, list)
		mnl_attr_for_each_nested(a, l) {
			/*
			 * libnftnl 1.2.4 checks an element's attribute types
			 * against the set's maximum, not the element's, and
			 * writes past its table for types in between.
			 */
			if (mnl_attr_get_type(a) > NFTA_SET_ELEM_EXPRESSIONS)
				return false;
			switch (mnl_attr_get_type(a)) {
			case NFTA_SET_ELEM_EXPR:
				if (!expr_sane(a))
					return false;
				break;
			case NFTA_SET_ELEM_EXPRESSIONS:
				if (!exprs_sane(a) || !expr_list_parses(a))
					return false;
				break;
			case NFTA_SET_ELEM_DATA:
				if (!verdict_sane(a))
					return false;
				break;
			}
		}
	return true;
}

static bool msg_sane(const struct nlmsghdr *nlh)
{
	const struct nlattr *a;

	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(struct nfgenmsg)))
		return false;
	mnl_attr_for_each(a, nlh, sizeof(struct nfgenmsg)) {
		uint16_t type = mnl_attr_get_type(a);

		switch (NFNL_MSG_TYPE(nlh->nlmsg_type)) {
		case NFT_MSG_NEWRULE:
			if (type == NFTA_RULE_EXPRESSIONS && !exprs_sane(a))
				return false;
			break;
		case NFT_MSG_NEWSET:
			if ((type == NFTA_SET_EXPR && !expr_sane(a)) ||
			    (type == NFTA_SET_EXPRESSIONS &&
			     (!exprs_sane(a) || !expr_list_parses(a))))
				return false;
			break;
		case NFT_MSG_NEWSETELEM:
			if (type == NFTA_SET_ELEM_LIST_ELEMENTS && !elems_sane(a))
				return false;
			break;
		}
	}
	return true;
}

static int rule_cb(const struct nlmsghdr *nlh, void *data)
{
	struct dump_ctx *d = data;
	struct nftnl_rule *r = xnftnl_rule_alloc();
	struct cache_table *t;
	struct cache_chain *ch;

	if (!msg_sane(nlh) || inner_rule_parse(nlh, r) < 0 ||
	    !nftnl_rule_is_set(r, NFTNL_RULE_TABLE) ||
	    !nftnl_rule_is_set(r, NFTNL_RULE_CHAIN))
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
	struct nftnl_set *s = xnftnl_set_alloc();
	struct cache_table *t;

	if (!msg_sane(nlh) || nftnl_set_nlmsg_parse(nlh, s) < 0 ||
	    !nftnl_set_is_set(s, NFTNL_SET_TABLE) ||
	    !nftnl_set_is_set(s, NFTNL_SET_NAME))
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

/* an object's NFTA_OBJ_DATA, if it is a nest */
static const struct nlattr *obj_data(const struct nlmsghdr *nlh)
{
	const struct nlattr *a, *data = NULL;

	mnl_attr_for_each(a, nlh, sizeof(struct nfgenmsg))
		if (mnl_attr_get_type(a) == NFTA_OBJ_DATA)
			data = a;
	if (!data || mnl_attr_validate(data, MNL_TYPE_NESTED) < 0)
		return NULL;
	return data;
}

/* each attribute of @data that @types gives a type (by its number) is of
   that type's size */
static bool nest_sane(const struct nlattr *data,
		      const enum mnl_attr_data_type *types, unsigned int n)
{
	const struct nlattr *a;

	if (!data)
		return false;
	mnl_attr_for_each_nested(a, data) {
		unsigned int t = mnl_attr_get_type(a);

		if (t < n && types[t] != MNL_TYPE_UNSPEC &&
		    mnl_attr_validate(a, types[t]) < 0)
			return false;
	}
	return true;
}

/*
 * A ct timeout's data as libnftnl's parser needs it: it sizes its table of
 * states by the layer 4 protocol and aborts on a state that is not 32 bits.
 * nfh lists the ones of tcp and udp, the protocols nft can declare.
 */
static bool ct_timeout_sane(const struct nlmsghdr *nlh)
{
	const struct nlattr *a, *data = obj_data(nlh), *states = NULL;
	unsigned int max;
	int l4 = -1;

	if (!data)
		return false;
	mnl_attr_for_each_nested(a, data) {
		switch (mnl_attr_get_type(a)) {
		case NFTA_CT_TIMEOUT_L3PROTO:
			if (mnl_attr_validate(a, MNL_TYPE_U16) < 0)
				return false;
			break;
		case NFTA_CT_TIMEOUT_L4PROTO:
			if (mnl_attr_validate(a, MNL_TYPE_U8) < 0)
				return false;
			l4 = mnl_attr_get_u8(a);
			break;
		case NFTA_CT_TIMEOUT_DATA:
			if (mnl_attr_validate(a, MNL_TYPE_NESTED) < 0)
				return false;
			states = a;
			break;
		}
	}
	if (l4 != IPPROTO_TCP && l4 != IPPROTO_UDP)
		return false;
	max = l4 == IPPROTO_TCP ? NFTNL_CTTIMEOUT_TCP_MAX : NFTNL_CTTIMEOUT_UDP_MAX;
	if (states)
		mnl_attr_for_each_nested(a, states)
			if (mnl_attr_get_type(a) >= 1 && mnl_attr_get_type(a) <= max &&
			    mnl_attr_validate(a, MNL_TYPE_U32) < 0)
				return false;
	return true;
}

/* a ct expectation's data: each attribute of its size */
static bool ct_expect_sane(const struct nlmsghdr *nlh)
{
	static const enum mnl_attr_data_type types[] = {
		[NFTA_CT_EXPECT_L3PROTO] = MNL_TYPE_U16,
		[NFTA_CT_EXPECT_DPORT] = MNL_TYPE_U16,
		[NFTA_CT_EXPECT_L4PROTO] = MNL_TYPE_U8,
		[NFTA_CT_EXPECT_SIZE] = MNL_TYPE_U8,
		[NFTA_CT_EXPECT_TIMEOUT] = MNL_TYPE_U32,
	};

	return nest_sane(obj_data(nlh), types, array_size(types));
}

/* a synproxy's data: each attribute of its size */
static bool synproxy_sane(const struct nlmsghdr *nlh)
{
	static const enum mnl_attr_data_type types[] = {
		[NFTA_SYNPROXY_MSS] = MNL_TYPE_U16,
		[NFTA_SYNPROXY_WSCALE] = MNL_TYPE_U8,
		[NFTA_SYNPROXY_FLAGS] = MNL_TYPE_U32,
	};

	return nest_sane(obj_data(nlh), types, array_size(types));
}

/*
 * a secmark's context: a string with its NUL, shorter than the
 * SECMARK_CTX_BUF bytes libnftnl keeps (it exits on one that fills them;
 * nfh loads none that long, other tools may)
 */
static bool secmark_sane(const struct nlmsghdr *nlh)
{
	const struct nlattr *a, *data = obj_data(nlh);

	if (!data)
		return false;
	mnl_attr_for_each_nested(a, data)
		if (mnl_attr_get_type(a) == NFTA_SECMARK_CTX &&
		    (mnl_attr_validate(a, MNL_TYPE_NUL_STRING) < 0 ||
		     mnl_attr_get_payload_len(a) > SECMARK_CTX_BUF - 1))
			return false;
	return true;
}

/*
 * Only the object types nfh lists go to libnftnl's parser: its parsers of
 * the others (ct timeout, tunnel, ...) are not needed and trust more.
 */
static bool obj_type_ours(const struct nlmsghdr *nlh)
{
	const struct nlattr *a;

	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(struct nfgenmsg)))
		return false;
	mnl_attr_for_each(a, nlh, sizeof(struct nfgenmsg)) {
		uint32_t type;

		if (mnl_attr_get_type(a) != NFTA_OBJ_TYPE)
			continue;
		if (mnl_attr_validate(a, MNL_TYPE_U32) < 0)
			return false;
		type = ntohl(mnl_attr_get_u32(a));
		if (type == NFT_OBJECT_CT_TIMEOUT)
			return ct_timeout_sane(nlh);
		if (type == NFT_OBJECT_CT_EXPECT)
			return ct_expect_sane(nlh);
		if (type == NFT_OBJECT_SYNPROXY)
			return synproxy_sane(nlh);
		if (type == NFT_OBJECT_SECMARK)
			return secmark_sane(nlh);
		return type == NFT_OBJECT_COUNTER || type == NFT_OBJECT_QUOTA ||
		       type == NFT_OBJECT_LIMIT || type == NFT_OBJECT_CT_HELPER;
	}
	return false;
}

static int obj_cb(const struct nlmsghdr *nlh, void *data)
{
	struct dump_ctx *d = data;
	struct nftnl_obj *o = xnftnl_obj_alloc();
	struct cache_table *t;

	/* printing needs these; libnftnl parses a type it knows only */
	if (!obj_type_ours(nlh) || nftnl_obj_nlmsg_parse(nlh, o) < 0 ||
	    !nftnl_obj_is_set(o, NFTNL_OBJ_TABLE) ||
	    !nftnl_obj_is_set(o, NFTNL_OBJ_NAME) ||
	    !nftnl_obj_is_set(o, NFTNL_OBJ_TYPE))
		goto drop;
	t = cache_table_find(d->cache, nftnl_obj_get_u32(o, NFTNL_OBJ_FAMILY),
			     nftnl_obj_get_str(o, NFTNL_OBJ_TABLE));
	if (!t)
		goto drop;
	cache_add_obj(t, o);
	return MNL_CB_OK;
drop:
	nftnl_obj_free(o);
	return MNL_CB_OK;
}

static int flowtable_cb(const struct nlmsghdr *nlh, void *data)
{
	struct dump_ctx *d = data;
	struct nftnl_flowtable *f = xnftnl_flowtable_alloc();
	struct cache_table *t;

	if (nl_flowtable_parse(nlh, f) < 0 ||
	    !nftnl_flowtable_is_set(f, NFTNL_FLOWTABLE_TABLE) ||
	    !nftnl_flowtable_is_set(f, NFTNL_FLOWTABLE_NAME))
		goto drop;
	t = cache_table_find(d->cache,
			     nftnl_flowtable_get_u32(f, NFTNL_FLOWTABLE_FAMILY),
			     nftnl_flowtable_get_str(f, NFTNL_FLOWTABLE_TABLE));
	if (!t)
		goto drop;
	cache_add_flowtable(t, f);
	return MNL_CB_OK;
drop:
	nftnl_flowtable_free(f);
	return MNL_CB_OK;
}

static int elem_cb(const struct nlmsghdr *nlh, void *data)
{
	struct dump_ctx *d = data;

	if (msg_sane(nlh))
		nftnl_set_elems_nlmsg_parse(nlh, d->set);
	return MNL_CB_OK;
}

/*
 * nlio_dump_msg - file one dump reply into @c as a listing would.  The
 * listing fuzzer (tests/fuzz/fuzz-netlink.c) feeds it arbitrary messages;
 * element replies go to the set they name.
 */
static int dump_msg(struct cache *c, const struct nlmsghdr *nlh);

int nlio_dump_msg(struct cache *c, const struct nlmsghdr *nlh)
{
	/* as with a kernel reply (see talk()): the message padded to its
	 * alignment, as libmnl reads up to it, and a NUL after, so that a
	 * string attribute without one stays inside the buffer */
	char *copy = xzalloc(NLMSG_ALIGN((size_t)nlh->nlmsg_len) + 1);
	int ret;

	memcpy(copy, nlh, nlh->nlmsg_len);
	ret = dump_msg(c, (const struct nlmsghdr *)copy);
	free(copy);
	return ret;
}

static int dump_msg(struct cache *c, const struct nlmsghdr *nlh)
{
	struct dump_ctx d = { .cache = c };
	struct nftnl_set *tmp;
	struct cache_table *t;
	struct cache_set *s;

	if (!msg_sane(nlh))
		return MNL_CB_OK;
	switch (NFNL_MSG_TYPE(nlh->nlmsg_type)) {
	case NFT_MSG_NEWTABLE:	return table_cb(nlh, &d);
	case NFT_MSG_NEWCHAIN:	return chain_cb(nlh, &d);
	case NFT_MSG_NEWSET:	return set_cb(nlh, &d);
	case NFT_MSG_NEWRULE:	return rule_cb(nlh, &d);
	case NFT_MSG_NEWOBJ:	return obj_cb(nlh, &d);
	case NFT_MSG_NEWFLOWTABLE: return flowtable_cb(nlh, &d);
	case NFT_MSG_NEWSETELEM:
		tmp = xnftnl_set_alloc();
		s = NULL;
		if (nftnl_set_elems_nlmsg_parse(nlh, tmp) == 0 &&
		    nftnl_set_is_set(tmp, NFTNL_SET_TABLE) &&
		    nftnl_set_is_set(tmp, NFTNL_SET_NAME)) {
			t = cache_table_find(c, nftnl_set_get_u32(tmp, NFTNL_SET_FAMILY),
					     nftnl_set_get_str(tmp, NFTNL_SET_TABLE));
			s = t ? cache_set_find(t, nftnl_set_get_str(tmp, NFTNL_SET_NAME)) : NULL;
		}
		nftnl_set_free(tmp);
		if (!s)
			return MNL_CB_OK;
		d.set = s->nls;
		return elem_cb(nlh, &d);
	}
	return MNL_CB_OK;
}

/* a named set's elements, packed as they arrive */
static int elem_packed_cb(const struct nlmsghdr *nlh, void *data)
{
	struct dump_ctx *d = data;

	if (elem_dump_add_msg(d->elems, nlh) < 0) {
		errno = EPROTO;
		return MNL_CB_ERROR;
	}
	if (d->seen && elem_seen_add(d->seen, d->elems)) {
		errno = ESTALE;		/* torn: stop reading it */
		return MNL_CB_ERROR;
	}
	return MNL_CB_OK;
}

static int dump(struct nfh_ctx *ctx, uint16_t type, unsigned int family,
		mnl_cb_t cb, struct dump_ctx *d)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;

	nlh = nftnl_nlmsg_build_hdr(buf, type, family, NLM_F_DUMP, seq_next(ctx));
	return talk(ctx, nlh, cb, d);
}

/*
 * Anonymous sets are small and printed inside rules: their elements go
 * into the libnftnl set.  A named set's go into packed records, so that a
 * huge set never exists as a million libnftnl objects.
 */
static int dump_elems(struct nfh_ctx *ctx, struct cache_set *cs, bool reset,
		      bool in_nftnl)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct dump_ctx d = { .set = cs->nls };
	struct nlmsghdr *nlh;
	int ret;

	/* the names' attribute padding goes out as it is: no stack garbage */
	memset(buf, 0, 1024);
	nlh = nftnl_nlmsg_build_hdr(buf, reset ? NFT_MSG_GETSETELEM_RESET :
						 NFT_MSG_GETSETELEM,
				    nftnl_set_get_u32(cs->nls, NFTNL_SET_FAMILY),
				    NLM_F_DUMP, seq_next(ctx));
	nftnl_set_elems_nlmsg_build_payload(nlh, cs->nls);
	if (in_nftnl ||
	    nftnl_set_get_u32(cs->nls, NFTNL_SET_FLAGS) & NFT_SET_ANONYMOUS)
		return talk(ctx, nlh, elem_cb, &d);
	elem_dump_free(cs->elems);
	cs->elems = d.elems = elem_dump_new();
	/* (a reset dump is not read twice: what it read is reset) */
	d.seen = reset ? NULL : elem_seen_new();
	ret = talk(ctx, nlh, elem_packed_cb, &d);
	elem_seen_free(d.seen);
	if (ret < 0 && errno == ESTALE) {
		/* the rest of it is still on its way: a new socket */
		ctx->dump_torn = true;
		errno = EINTR;
	}
	return ret;
}

/* the generation of the first read of the ruleset a batch depends on */
static void cache_gen_note(struct nfh_ctx *ctx, uint32_t gen)
{
	if (ctx->cache_gen_set)
		return;
	ctx->cache_gen = gen;
	ctx->cache_gen_set = true;
}

/*
 * The kernel moves the generation on when a commit starts, before its
 * changes show, so a dump can see a commit half done under a generation
 * that does not change.  An empty batch takes the commit lock (and commits
 * nothing): once the kernel has taken it, no commit is under way.
 */
static int commit_barrier(struct nfh_ctx *ctx)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	size_t len;

	nlh = nftnl_batch_begin(buf, seq_next(ctx));
	len = nlh->nlmsg_len;
	nlh = nftnl_batch_end(buf + len, seq_next(ctx));
	len += nlh->nlmsg_len;
	return ctx_send(ctx, buf, len) < 0 ? -1 : 0;
}

/*
 * The ruleset of @family (0: all), or only what listing the set @set of
 * table @table needs: the tables, the sets, that set's elements.
 */
/* what a dump reads: the tables of @family and @table, or one @set's
   elements (reset if @reset) */
struct dump_req {
	unsigned int	family;
	const char	*table, *set;
	bool		reset;
	bool		in_nftnl;	/* sets' elements in their libnftnl
					   sets, as the offline model keeps them:
					   of anonymous sets and maps, and of
					   the sets @batch has elements for */
	const struct nl_batch *batch;
};

/* whether an element message of @b names set @set of @table */
static bool batch_elems_of(const struct nl_batch *b, unsigned int family,
			   const char *table, const char *set)
{
	const struct nl_item *it;

	list_for_each_entry(it, &b->items, list) {
		struct nftnl_set *s = NULL;
		bool same;

		if (it->family != family ||
		    (it->msg_type != NFT_MSG_NEWSETELEM &&
		     it->msg_type != NFT_MSG_DELSETELEM &&
		     it->msg_type != NFT_MSG_DESTROYSETELEM))
			continue;
		if (it->type == NLO_RAW)
			s = raw_msg_to_nftnl(it->obj, it->msg_type, it->family);
		else if (it->type == NLO_SETELEM || it->type == NLO_SET)
			s = it->obj;
		/* unreadable: the model reads it as the kernel would */
		same = !s ||
		       (nftnl_set_is_set(s, NFTNL_SET_TABLE) &&
			nftnl_set_is_set(s, NFTNL_SET_NAME) &&
			!strcmp(nftnl_set_get_str(s, NFTNL_SET_TABLE), table) &&
			!strcmp(nftnl_set_get_str(s, NFTNL_SET_NAME), set));
		if (it->type == NLO_RAW)
			nftnl_set_free(s);
		if (same)
			return true;
	}
	return false;
}

/* whether the elements of @s are read for @rq */
static bool dump_wants_elems(const struct dump_req *rq, struct cache_table *t,
			     struct cache_set *s)
{
	uint32_t flags = nftnl_set_get_u32(s->nls, NFTNL_SET_FLAGS);

	if (rq->set)
		return cache_table_matches(t, rq->family, rq->table) &&
		       !strcmp(rq->set, nftnl_set_get_str(s->nls, NFTNL_SET_NAME));
	/* the model: what a map's elements jump to or name is in use */
	if (rq->in_nftnl && rq->batch &&
	    !(flags & (NFT_SET_ANONYMOUS | NFT_SET_MAP | NFT_SET_OBJECT)))
		return batch_elems_of(rq->batch,
				      nftnl_table_get_u32(t->nlt, NFTNL_TABLE_FAMILY),
				      nftnl_table_get_str(t->nlt, NFTNL_TABLE_NAME),
				      nftnl_set_get_str(s->nls, NFTNL_SET_NAME));
	return true;
}

static int dump_all(struct nfh_ctx *ctx, const struct dump_req *rq,
		    struct cache *c)
{
	struct dump_ctx d = { .cache = c };
	unsigned int family = rq->family;
	struct cache_table *t;
	struct cache_set *s;

	if (dump(ctx, NFT_MSG_GETTABLE, family, table_cb, &d) < 0 ||
	    (!rq->set && dump(ctx, NFT_MSG_GETCHAIN, family, chain_cb, &d) < 0) ||
	    dump(ctx, NFT_MSG_GETSET, family, set_cb, &d) < 0 ||
	    (!rq->set && dump(ctx, NFT_MSG_GETOBJ, family, obj_cb, &d) < 0) ||
	    (!rq->set && dump(ctx, NFT_MSG_GETFLOWTABLE, family, flowtable_cb, &d) < 0) ||
	    (!rq->set && dump(ctx, NFT_MSG_GETRULE, family, rule_cb, &d) < 0))
		return -1;
	list_for_each_entry(t, &c->tables, list)
		list_for_each_entry(s, &t->sets, list)
			if (dump_wants_elems(rq, t, s) &&
			    dump_elems(ctx, s, rq->reset, rq->in_nftnl) < 0)
				return -1;
	return 0;
}

/*
 * Tables, chains, sets and rules come in separate dumps: a commit between
 * two of them would list a mix.  One read between two generation reads:
 * 0, or -1 with errno, EINTR if the generation moved (then it is read
 * again; what a reset read reset is not).  The first generation read
 * tells a missing permission apart; the barrier's batch would not.
 */
static int dump_once(struct nfh_ctx *ctx, const struct dump_req *rq,
		     struct cache *c)
{
	uint32_t gen_before, gen_after;
	int err;

	cache_flush(c);
	if (get_genid(ctx, &gen_before) < 0 || commit_barrier(ctx) < 0 ||
	    get_genid(ctx, &gen_before) < 0)
		return -1;
	if (dump_all(ctx, rq, c) == 0 && get_genid(ctx, &gen_after) == 0) {
		if (gen_after != gen_before && !rq->reset) {
			errno = EINTR;
			return -1;
		}
		ctx->dump_genid = gen_after;
		cache_gen_note(ctx, gen_before);
		return 0;
	}
	/* a set listed, then gone (ENOENT) when its elements are asked for:
	   a commit came in between, and the generation tells */
	if (errno != EINTR && !rq->reset) {
		err = errno;
		errno = get_genid(ctx, &gen_after) == 0 && gen_after != gen_before ?
			EINTR : err;
	}
	return -1;
}

static int dump_error(int err, bool reset, struct list_head *msgs)
{
	if (err == EPERM)
		return error_queue(msgs, NULL,
				   "listing the ruleset needs CAP_NET_ADMIN (run as root): %s",
				   strerror(err));
	if (reset && (err == EINVAL || err == EOPNOTSUPP))
		return error_queue(msgs, NULL,
				   "the kernel cannot reset elements (Linux 6.5 or later can): %s",
				   strerror(err));
	return error_queue(msgs, NULL, "cannot read the ruleset: %s",
			   strerror(err));
}

static int dump_ruleset(struct nfh_ctx *ctx, const struct dump_req *rq,
			struct cache *c, struct list_head *msgs)
{
	if (nlio_open(ctx, msgs) < 0)
		return -1;
	/* an interrupted dump means the ruleset changed under us: redo it */
	for (int tries = 1; dump_once(ctx, rq, c) < 0; tries++) {
		if (errno != EINTR || tries >= 10)
			return dump_error(errno, rq->reset, msgs);
		if (ctx->dump_torn) {
			/* a set still being resized: give it time */
			struct timespec ts = { 0, 20000000L * tries };

			ctx->dump_torn = false;
			nlio_close(ctx);
			nanosleep(&ts, NULL);
			if (nlio_open(ctx, msgs) < 0)
				return -1;
		}
	}
	return 0;
}

int nlio_dump(struct nfh_ctx *ctx, unsigned int family, struct cache *c,
	      struct list_head *msgs)
{
	const struct dump_req rq = { .family = family };

	return dump_ruleset(ctx, &rq, c, msgs);
}

int nlio_dump_model(struct nfh_ctx *ctx, const struct nl_batch *b,
		    struct cache *c, struct list_head *msgs)
{
	const struct dump_req rq = { .in_nftnl = true, .batch = b };

	return dump_ruleset(ctx, &rq, c, msgs);
}

int nlio_dump_set(struct nfh_ctx *ctx, unsigned int family, const char *table,
		  const char *set, bool reset, struct cache *c,
		  struct list_head *msgs)
{
	const struct dump_req rq = { family, table, set, reset, false, NULL };

	return dump_ruleset(ctx, &rq, c, msgs);
}

/* one element of a reset request, named by its key as the kernel keeps it */
static void reset_elem_put(struct nlmsghdr *nlh, const struct elem_dump *ed,
			   uint32_t i)
{
	const struct elem_drec *r = elem_drec(ed, i);
	struct nlattr *el, *k;

	el = mnl_attr_nest_start(nlh, NFTA_LIST_ELEM);
	k = mnl_attr_nest_start(nlh, NFTA_SET_ELEM_KEY);
	mnl_attr_put(nlh, NFTA_DATA_VALUE, r->klen, elem_dkey(ed, i));
	mnl_attr_nest_end(nlh, k);
	if (r->flags & ELEM_D_KEY_END) {
		k = mnl_attr_nest_start(nlh, NFTA_SET_ELEM_KEY_END);
		mnl_attr_put(nlh, NFTA_DATA_VALUE, r->klen, elem_dkey_end(ed, i));
		mnl_attr_nest_end(nlh, k);
	}
	if (r->flags & ELEM_D_END)
		mnl_attr_put_u32(nlh, NFTA_SET_ELEM_FLAGS,
				 htonl(NFT_SET_ELEM_INTERVAL_END));
	mnl_attr_nest_end(nlh, el);
}

int nlio_elems_reset(struct nfh_ctx *ctx, unsigned int family,
		     struct cache_set *cs, const uint32_t *recs, size_t n,
		     struct list_head *msgs)
{
	const char *table = nftnl_set_get_str(cs->nls, NFTNL_SET_TABLE);
	const char *set = nftnl_set_get_str(cs->nls, NFTNL_SET_NAME);
	struct dump_ctx d = { .elems = elem_dump_new() };
	char buf[MNL_SOCKET_BUFFER_SIZE];
	size_t i = 0;

	while (i < n) {
		struct nlmsghdr *nlh;
		struct nlattr *list;

		memset(buf, 0, sizeof(buf));
		nlh = nftnl_nlmsg_build_hdr(buf, NFT_MSG_GETSETELEM_RESET, family,
					    NLM_F_ACK, seq_next(ctx));
		mnl_attr_put_strz(nlh, NFTA_SET_ELEM_LIST_TABLE, table);
		mnl_attr_put_strz(nlh, NFTA_SET_ELEM_LIST_SET, set);
		list = mnl_attr_nest_start(nlh, NFTA_SET_ELEM_LIST_ELEMENTS);
		/* an element takes 200 bytes at most (two 64-byte keys) */
		while (i < n && nlh->nlmsg_len + 256 < sizeof(buf))
			reset_elem_put(nlh, cs->elems, recs[i++]);
		mnl_attr_nest_end(nlh, list);
		if (talk(ctx, nlh, elem_packed_cb, &d) < 0) {
			elem_dump_free(d.elems);
			if (errno == EINVAL || errno == EOPNOTSUPP)
				return error_queue(msgs, NULL,
						   "the kernel cannot reset elements (Linux 6.5 or later can): %s",
						   strerror(errno));
			return error_queue(msgs, NULL, "cannot reset elements of set %s: %s",
					   set, strerror(errno));
		}
	}
	/* the values they had, as the kernel reset them */
	elem_dump_free(cs->elems);
	cs->elems = d.elems;
	free(cs->pick);
	cs->pick = NULL;
	return 0;
}

int nlio_obj_reset(struct nfh_ctx *ctx, unsigned int family, const char *table,
		   uint32_t type, const char *name, struct cache *c,
		   struct list_head *msgs)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct dump_ctx d = { .cache = c };
	struct nftnl_obj *o = xnftnl_obj_alloc();
	struct nlmsghdr *nlh;
	int ret;

	if (nlio_open(ctx, msgs) < 0) {
		nftnl_obj_free(o);
		return -1;
	}
	cache_flush(c);
	memset(buf, 0, 1024);
	/* the kernel resets what it reports: a dump filtered by table and
	 * type, or the one object asked for */
	nlh = nftnl_nlmsg_build_hdr(buf, NFT_MSG_GETOBJ_RESET, family,
				    name ? NLM_F_ACK : NLM_F_DUMP, seq_next(ctx));
	if (table)
		xnftnl_obj_set_str(o, NFTNL_OBJ_TABLE, table);
	if (name)
		xnftnl_obj_set_str(o, NFTNL_OBJ_NAME, name);
	nftnl_obj_set_u32(o, NFTNL_OBJ_TYPE, type);
	nftnl_obj_nlmsg_build_payload(nlh, o);
	nftnl_obj_free(o);
	if (dump(ctx, NFT_MSG_GETTABLE, family, table_cb, &d) < 0)
		goto fail;
	ret = talk(ctx, nlh, obj_cb, &d);
	if (ret < 0)
		goto fail;
	return 0;
fail:
	/* the caller says which object, where */
	if (errno == ENOENT)
		return -2;
	return error_queue(msgs, NULL, "cannot reset: %s", strerror(errno));
}

/* the kernel's objects of table @table (@type: 0 any) into @c, or its
   chains if @chains */
static int dump_objs(struct nfh_ctx *ctx, unsigned int family,
		     const char *table, uint32_t type, bool chains,
		     struct cache *c)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct dump_ctx d = { .cache = c };
	struct nftnl_obj *o = xnftnl_obj_alloc();
	struct nlmsghdr *nlh;

	memset(buf, 0, 1024);	/* the attributes' padding goes out too */
	if (chains) {
		nftnl_obj_free(o);
		return dump(ctx, NFT_MSG_GETTABLE, family, table_cb, &d) < 0 ? -1 :
		       dump(ctx, NFT_MSG_GETCHAIN, family, chain_cb, &d);
	}
	nlh = nftnl_nlmsg_build_hdr(buf, NFT_MSG_GETOBJ, family, NLM_F_DUMP,
				    seq_next(ctx));
	xnftnl_obj_set_str(o, NFTNL_OBJ_TABLE, table);
	if (type)
		nftnl_obj_set_u32(o, NFTNL_OBJ_TYPE, type);
	nftnl_obj_nlmsg_build_payload(nlh, o);
	nftnl_obj_free(o);
	if (dump(ctx, NFT_MSG_GETTABLE, family, table_cb, &d) < 0)
		return -1;
	return talk(ctx, nlh, obj_cb, &d);
}

int nlio_dump_sets(struct nfh_ctx *ctx, struct cache *c, struct list_head *msgs)
{
	struct dump_ctx d = { .cache = c };
	int tries = 0;

	if (nlio_open(ctx, msgs) < 0)
		return -1;
	do {
		uint32_t gen_before, gen_after;

		cache_flush(c);
		/* a commit in between and the sets may not be the tables' */
		if (get_genid(ctx, &gen_before) == 0 &&
		    dump(ctx, NFT_MSG_GETTABLE, NFPROTO_UNSPEC, table_cb, &d) == 0 &&
		    dump(ctx, NFT_MSG_GETSET, NFPROTO_UNSPEC, set_cb, &d) == 0 &&
		    get_genid(ctx, &gen_after) == 0) {
			if (gen_after == gen_before) {
				cache_gen_note(ctx, gen_before);
				return 0;
			}
			errno = EINTR;
		}
	} while (errno == EINTR && ++tries < 10);
	return error_queue(msgs, NULL, "cannot read the kernel's sets: %s",
			   strerror(errno));
}

/* --- the rules of one chain, for "index N" ----------------------------- */

struct handles {
	uint64_t	*h;
	size_t		n, cap;
};

static int handle_attr_cb(const struct nlattr *attr, void *data)
{
	uint64_t *h = data;

	if (mnl_attr_get_type(attr) == NFTA_RULE_HANDLE &&
	    mnl_attr_validate(attr, MNL_TYPE_U64) == 0)
		*h = be64toh(mnl_attr_get_u64(attr));
	return MNL_CB_OK;
}

static int handle_cb(const struct nlmsghdr *nlh, void *data)
{
	struct handles *hs = data;
	uint64_t h = 0;

	if (mnl_attr_parse(nlh, sizeof(struct nfgenmsg), handle_attr_cb, &h) < 0 ||
	    !h)
		return MNL_CB_OK;
	if (hs->n == hs->cap) {
		hs->cap = hs->cap ? 2 * hs->cap : 64;
		hs->h = xrealloc(hs->h, hs->cap * sizeof(*hs->h));
	}
	hs->h[hs->n++] = h;
	return MNL_CB_OK;
}

int nlio_rule_handles(struct nfh_ctx *ctx, unsigned int family,
		      const char *table, const char *chain,
		      uint64_t **handles, size_t *n, struct list_head *msgs)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct handles hs = { 0 };
	struct nftnl_rule *r;
	struct nlmsghdr *nlh;
	uint32_t gen;
	int ret;

	if (nlio_open(ctx, msgs) < 0)
		return -1;
	/* read first: a commit after it and the batch is refused */
	if (get_genid(ctx, &gen) < 0)
		return error_queue(msgs, NULL, "cannot read the rules of chain %s: %s",
				   chain, strerror(errno));
	cache_gen_note(ctx, gen);
	memset(buf, 0, 1024);
	nlh = nftnl_nlmsg_build_hdr(buf, NFT_MSG_GETRULE, family, NLM_F_DUMP,
				    seq_next(ctx));
	r = xnftnl_rule_alloc();
	xnftnl_rule_set_str(r, NFTNL_RULE_TABLE, table);
	xnftnl_rule_set_str(r, NFTNL_RULE_CHAIN, chain);
	nftnl_rule_nlmsg_build_payload(nlh, r);
	nftnl_rule_free(r);
	ret = talk(ctx, nlh, handle_cb, &hs);
	if (ret < 0) {
		free(hs.h);
		return error_queue(msgs, NULL, "cannot read the rules of chain %s: %s",
				   chain, strerror(errno));
	}
	*handles = hs.h;
	*n = hs.n;
	return 0;
}

static int chain_handle_attr_cb(const struct nlattr *attr, void *data)
{
	uint64_t *h = data;

	if (mnl_attr_get_type(attr) == NFTA_CHAIN_HANDLE &&
	    mnl_attr_validate(attr, MNL_TYPE_U64) == 0)
		*h = be64toh(mnl_attr_get_u64(attr));
	return MNL_CB_OK;
}

static int chain_handle_cb(const struct nlmsghdr *nlh, void *data)
{
	mnl_attr_parse(nlh, sizeof(struct nfgenmsg), chain_handle_attr_cb, data);
	return MNL_CB_OK;
}

int nlio_chain_handle(struct nfh_ctx *ctx, unsigned int family,
		      const char *table, const char *chain, uint64_t *handle,
		      struct list_head *msgs)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nftnl_chain *c;
	struct nlmsghdr *nlh;
	uint32_t gen;

	*handle = 0;
	if (nlio_open(ctx, msgs) < 0)
		return -1;
	/* read first: a commit after it and the batch is refused */
	if (get_genid(ctx, &gen) < 0)
		return error_queue(msgs, NULL, "cannot read chain %s: %s",
				   chain, strerror(errno));
	cache_gen_note(ctx, gen);
	memset(buf, 0, 1024);
	nlh = nftnl_nlmsg_build_hdr(buf, NFT_MSG_GETCHAIN, family, NLM_F_ACK,
				    seq_next(ctx));
	c = xnftnl_chain_alloc();
	xnftnl_chain_set_str(c, NFTNL_CHAIN_TABLE, table);
	xnftnl_chain_set_str(c, NFTNL_CHAIN_NAME, chain);
	nftnl_chain_nlmsg_build_payload(nlh, c);
	nftnl_chain_free(c);
	if (talk(ctx, nlh, chain_handle_cb, handle) < 0) {
		if (errno == ENOENT)
			return -2;
		return error_queue(msgs, NULL, "cannot read chain %s: %s",
				   chain, strerror(errno));
	}
	return *handle ? 0 : -2;
}

/* the chains of @c a reset of rules covers: of @family, @table, @chain */
static bool reset_covers(struct cache_table *t, struct cache_chain *ch,
			 unsigned int family, const char *table,
			 const char *chain)
{
	return cache_table_matches(t, family, table) &&
	       (!chain || !strcmp(chain, nftnl_chain_get_str(ch->nlc,
							     NFTNL_CHAIN_NAME)));
}

int nlio_rules_reset(struct nfh_ctx *ctx, unsigned int family,
		     const char *table, const char *chain, uint64_t handle,
		     struct cache *c, struct list_head *msgs)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct dump_ctx d = { .cache = c };
	struct cache_table *t;
	struct cache_chain *ch;
	struct cache_rule *cr, *next;
	struct nftnl_rule *r;
	struct nlmsghdr *nlh;

	if (nlio_dump(ctx, family, c, msgs) < 0)
		return -1;
	t = table ? cache_table_find(c, family, table) : NULL;
	if ((table && !t) || (chain && !cache_chain_find(t, chain)))
		return -2;
	/* the kernel's reply holds the rules as they were: they replace
	   those just read */
	list_for_each_entry(t, &c->tables, list)
		list_for_each_entry(ch, &t->chains, list) {
			if (!reset_covers(t, ch, family, table, chain))
				continue;
			list_for_each_entry_safe(cr, next, &ch->rules, list) {
				if (handle && nftnl_rule_get_u64(cr->nlr,
						NFTNL_RULE_HANDLE) != handle)
					continue;
				list_del(&cr->list);
				nftnl_rule_free(cr->nlr);
				free(cr);
			}
		}
	memset(buf, 0, 1024);
	nlh = nftnl_nlmsg_build_hdr(buf, NFT_MSG_GETRULE_RESET, family,
				    handle ? NLM_F_ACK : NLM_F_DUMP,
				    seq_next(ctx));
	r = xnftnl_rule_alloc();
	if (table)
		xnftnl_rule_set_str(r, NFTNL_RULE_TABLE, table);
	if (chain)
		xnftnl_rule_set_str(r, NFTNL_RULE_CHAIN, chain);
	if (handle)
		nftnl_rule_set_u64(r, NFTNL_RULE_HANDLE, handle);
	nftnl_rule_nlmsg_build_payload(nlh, r);
	nftnl_rule_free(r);
	if (talk(ctx, nlh, rule_cb, &d) < 0) {
		if (errno == ENOENT && handle)
			return 0;	/* as nft 1.1.1: the chain, without it */
		return error_queue(msgs, NULL, "cannot reset the rules: %s",
				   strerror(errno));
	}
	return 0;
}
