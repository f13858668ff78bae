// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * list hooks: what the kernel runs on each netfilter hook of the network
 * namespace, in the order it runs them: the priority, and the nf_tables
 * chain or the other function behind each entry.
 *
 * The kernel's nfnetlink_hook (Linux 5.14, CONFIG_NETFILTER_NETLINK_HOOK)
 * answers one NFNL_MSG_HOOK_GET dump per family and hook number, and per
 * device for the netdev hooks.  The listing is nft 1.0.6's:
 *
 *	family ip {
 *		hook input {
 *			-0000000005 chain ip t in2
 *			 0000000000 nf_conntrack_in
 *		}
 *	}
 *
 * one block per family (inet is ip and ip6; no family: ip, ip6 and
 * bridge), a hook only where something is registered, the priority signed
 * in eleven characters.  "device DEV" adds the ingress hook of DEV to the
 * ip, ip6, bridge and arp families (arp without inet chains), and is what
 * the netdev family lists: its ingress hook, and here also its egress hook
 * (nft 1.0.6 asks the kernel for ingress only).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nfnetlink_hook.h>
#include <libmnl/libmnl.h>

#include <ctx.h>
#include <erec.h>
#include <hooks.h>
#include <netlink.h>
#include <rule.h>
#include <utils.h>

/* one registered hook function, as the kernel reported it */
struct hook_entry {
	int		prio;
	char		*func;		/* NULL: a kernel without kallsyms */
	char		*module;
	char		*table;		/* with chain: an nf_tables chain */
	char		*chain;
	unsigned int	chain_family;
};

struct hook_dump {
	struct hook_entry	*v;
	size_t			n, cap;
};

static const char *attr_str(const struct nlattr *a)
{
	return a && mnl_attr_validate(a, MNL_TYPE_NUL_STRING) == 0 ?
	       mnl_attr_get_str(a) : NULL;
}

/* the attributes of @nest (or of @nlh past the nfgenmsg) by type, up to
   @max; what is not a well-formed attribute ends the walk */
static void attrs_get(const struct nlmsghdr *nlh, const struct nlattr *nest,
		      const struct nlattr **tb, unsigned int max)
{
	const struct nlattr *a;

	memset(tb, 0, (max + 1) * sizeof(*tb));
	if (nest) {
		mnl_attr_for_each_nested(a, nest)
			if (mnl_attr_get_type(a) <= max)
				tb[mnl_attr_get_type(a)] = a;
		return;
	}
	mnl_attr_for_each(a, nlh, sizeof(struct nfgenmsg))
		if (mnl_attr_get_type(a) <= max)
			tb[mnl_attr_get_type(a)] = a;
}

static void chain_info_get(const struct nlattr *info, struct hook_entry *e)
{
	const struct nlattr *tb[NFNLA_HOOK_INFO_MAX + 1];
	const struct nlattr *desc[NFNLA_CHAIN_MAX + 1];
	const char *table, *chain;

	if (mnl_attr_validate(info, MNL_TYPE_NESTED) < 0)
		return;
	attrs_get(NULL, info, tb, NFNLA_HOOK_INFO_MAX);
	if (!tb[NFNLA_HOOK_INFO_TYPE] || !tb[NFNLA_HOOK_INFO_DESC] ||
	    mnl_attr_validate(tb[NFNLA_HOOK_INFO_TYPE], MNL_TYPE_U32) < 0 ||
	    ntohl(mnl_attr_get_u32(tb[NFNLA_HOOK_INFO_TYPE])) !=
	    NFNL_HOOK_TYPE_NFTABLES ||
	    mnl_attr_validate(tb[NFNLA_HOOK_INFO_DESC], MNL_TYPE_NESTED) < 0)
		return;
	attrs_get(NULL, tb[NFNLA_HOOK_INFO_DESC], desc, NFNLA_CHAIN_MAX);
	table = attr_str(desc[NFNLA_CHAIN_TABLE]);
	chain = attr_str(desc[NFNLA_CHAIN_NAME]);
	if (!table || !chain || !desc[NFNLA_CHAIN_FAMILY] ||
	    mnl_attr_validate(desc[NFNLA_CHAIN_FAMILY], MNL_TYPE_U8) < 0)
		return;
	e->table = xstrdup(table);
	e->chain = xstrdup(chain);
	e->chain_family = mnl_attr_get_u8(desc[NFNLA_CHAIN_FAMILY]);
}

static int hook_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[NFNLA_HOOK_MAX + 1];
	struct hook_dump *d = data;
	struct hook_entry *e;
	const char *s;

	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(struct nfgenmsg)))
		return MNL_CB_OK;
	attrs_get(nlh, NULL, tb, NFNLA_HOOK_MAX);
	if (!tb[NFNLA_HOOK_PRIORITY] ||
	    mnl_attr_validate(tb[NFNLA_HOOK_PRIORITY], MNL_TYPE_U32) < 0)
		return MNL_CB_OK;
	if (d->n == d->cap) {
		d->cap = d->cap ? 2 * d->cap : 8;
		d->v = xrealloc(d->v, d->cap * sizeof(*d->v));
	}
	e = &d->v[d->n++];
	memset(e, 0, sizeof(*e));
	e->prio = (int32_t)ntohl(mnl_attr_get_u32(tb[NFNLA_HOOK_PRIORITY]));
	if ((s = attr_str(tb[NFNLA_HOOK_FUNCTION_NAME])))
		e->func = xstrdup(s);
	if ((s = attr_str(tb[NFNLA_HOOK_MODULE_NAME])))
		e->module = xstrdup(s);
	if (tb[NFNLA_HOOK_CHAIN_INFO])
		chain_info_get(tb[NFNLA_HOOK_CHAIN_INFO], e);
	return MNL_CB_OK;
}

static void entry_free(struct hook_entry *e)
{
	free(e->func);
	free(e->module);
	free(e->table);
	free(e->chain);
}

static void hook_dump_free(struct hook_dump *d)
{
	for (size_t i = 0; i < d->n; i++)
		entry_free(&d->v[i]);
	free(d->v);
	memset(d, 0, sizeof(*d));
}

/* one dump: the entries of hook @hooknum of @family (@dev: of that device);
   -1 with errno set */
static int hook_dump(struct nfh_ctx *ctx, unsigned int family,
		     unsigned int hooknum, const char *dev, struct hook_dump *d)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	struct nfgenmsg *nfg;
	int ret, tries = 0;

	do {
		hook_dump_free(d);
		memset(buf, 0, 256);
		nlh = mnl_nlmsg_put_header(buf);
		nlh->nlmsg_type = (NFNL_SUBSYS_HOOK << 8) | NFNL_MSG_HOOK_GET;
		nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
		nfg = mnl_nlmsg_put_extra_header(nlh, sizeof(*nfg));
		nfg->nfgen_family = family;
		nfg->version = NFNETLINK_V0;
		mnl_attr_put_u32(nlh, NFNLA_HOOK_HOOKNUM, htonl(hooknum));
		if (dev)
			mnl_attr_put_strz(nlh, NFNLA_HOOK_DEV, dev);
		ret = nlio_request(ctx, nlh, hook_cb, d);
	} while (ret < 0 && errno == EINTR && ++tries < 3);
	return ret < 0 ? -1 : 0;
}

static void prio_put(FILE *f, int prio)
{
	if (prio < 0)
		fprintf(f, "\t\t%011d", prio);
	else
		fprintf(f, "\t\t%c%010d", prio ? '+' : ' ', prio);
}

static void entry_put(FILE *f, const struct hook_entry *e)
{
	prio_put(f, e->prio);
	if (e->table && e->chain)
		fprintf(f, " chain %s %s %s", family_name(e->chain_family),
			e->table, e->chain);
	else if (e->func && e->module)
		fprintf(f, " %s [%s]", e->func, e->module);
	else if (e->func)
		fprintf(f, " %s", e->func);
	fputc('\n', f);
}

/* what one family block asks for: its hooks, and a device's */
struct hooks_list_ctx {
	struct nfh_ctx		*ctx;
	struct list_head	*msgs;
	const struct location	*loc;
	bool			family_open;
};

static int dump_failed(struct hooks_list_ctx *l, unsigned int family,
		       unsigned int hooknum, const char *dev)
{
	/* an nfnetlink subsystem the kernel does not have: EINVAL */
	if (errno == EINVAL || errno == EOPNOTSUPP || errno == EPROTONOSUPPORT)
		return error_queue(l->msgs, l->loc,
				   "this kernel has no hook listing (CONFIG_NETFILTER_NETLINK_HOOK, Linux 5.14 or later)");
	return error_queue(l->msgs, l->loc,
			   "cannot list the %s hook of family %s%s%s: %s",
			   hook_name(family, hooknum), family_name(family),
			   dev ? " device " : "", dev ? dev : "",
			   strerror(errno));
}

/*
 * Prints hook @hooknum of @family (of device @dev for the netdev family)
 * under the family block of @shown, as "hook NAME".  A device that does
 * not exist has no hooks (ENODEV), nor has a hook this kernel does not
 * know (the netdev egress hook before 5.16).  The arp family's block
 * leaves a device's inet ingress chains out, as nft 1.0.6 does (inet is
 * ip and ip6).
 */
static int hook_put(struct hooks_list_ctx *l, unsigned int shown,
		    unsigned int family, unsigned int hooknum, const char *dev)
{
	FILE *f = l->ctx->octx.out;
	struct hook_dump d = { 0 };
	size_t i, n = 0;

	if (hook_dump(l->ctx, family, hooknum, dev, &d) < 0) {
		hook_dump_free(&d);
		if (family == NFPROTO_NETDEV &&
		    (errno == ENODEV || (hooknum == NF_NETDEV_EGRESS &&
					 (errno == EOPNOTSUPP ||
					  errno == EPROTONOSUPPORT))))
			return 0;
		return dump_failed(l, family, hooknum, dev);
	}
	for (i = 0; i < d.n; i++)
		if (shown != NFPROTO_ARP || !d.v[i].chain ||
		    d.v[i].chain_family != NFPROTO_INET)
			d.v[n++] = d.v[i];
		else
			entry_free(&d.v[i]);
	d.n = n;
	if (d.n && !l->family_open) {
		fprintf(f, "family %s {\n", family_name(shown));
		l->family_open = true;
	}
	if (d.n) {
		fprintf(f, "\thook %s {\n", hook_name(family, hooknum));
		for (i = 0; i < d.n; i++)
			entry_put(f, &d.v[i]);
		fputs("\t}\n", f);
	}
	hook_dump_free(&d);
	return 0;
}

/* one family block: @family's own hooks, after @dev's netdev hooks */
static int family_put(struct hooks_list_ctx *l, unsigned int family,
		      const char *dev)
{
	unsigned int nhooks = 0, hooknum;
	int ret = 0;

	l->family_open = false;
	switch (family) {
	case NFPROTO_NETDEV:
		if (!dev)
			return 0;
		ret = hook_put(l, family, family, NF_NETDEV_INGRESS, dev);
		if (ret == 0)
			ret = hook_put(l, family, family, NF_NETDEV_EGRESS, dev);
		break;
	default:
		if (dev)
			ret = hook_put(l, family, NFPROTO_NETDEV,
				       NF_NETDEV_INGRESS, dev);
		/* arp: NF_ARP_IN, NF_ARP_OUT, NF_ARP_FORWARD */
		nhooks = family == NFPROTO_ARP ? 3 : NF_INET_NUMHOOKS;
		break;
	}
	for (hooknum = 0; ret == 0 && hooknum < nhooks; hooknum++)
		ret = hook_put(l, family, family, hooknum, NULL);
	if (l->family_open)
		fputs("}\n", l->ctx->octx.out);
	return ret;
}

int hooks_list(struct nfh_ctx *ctx, const struct cmd *cmd,
	       struct list_head *msgs)
{
	/* as nft 1.0.6: not arp, nor netdev (nft 1.1 lists both) */
	static const unsigned int all[] = {
		NFPROTO_IPV4, NFPROTO_IPV6, NFPROTO_BRIDGE,
	};
	static const unsigned int inet[] = { NFPROTO_IPV4, NFPROTO_IPV6 };
	struct hooks_list_ctx l = { .ctx = ctx, .msgs = msgs, .loc = &cmd->loc };
	const char *dev = cmd->data;
	const unsigned int *fams = &cmd->h.family;
	size_t n = 1;

	if (ctx->offline)
		return error_queue(msgs, &cmd->loc,
				   "list hooks reads the kernel's hooks: it cannot run with --offline");
	if (ctx->octx.flags & NFH_OUTPUT_JSON)
		return error_queue(msgs, &cmd->loc,
				   "list hooks has no JSON form (nft 1.0.6 has none)");
	if (nlio_open(ctx, msgs) < 0)
		return -1;
	if (cmd->h.family == NFPROTO_UNSPEC) {
		fams = all;
		n = array_size(all);
	} else if (cmd->h.family == NFPROTO_INET) {
		fams = inet;
		n = array_size(inet);
	}
	for (size_t i = 0; i < n; i++)
		if (family_put(&l, fams[i], dev) < 0)
			return -1;
	return 0;
}
