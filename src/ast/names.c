// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The names of things: families, hooks, chain types and priorities,
 * verdicts and object types, and the object types' registry they are
 * looked up in.  A base module: the rule tree (rule.c) and the kinds both
 * call down to it, and it calls nothing above.
 */
#include <stdio.h>
#include <string.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/netfilter_bridge.h>

#include <kind.h>
#include <names.h>
#include <suggest.h>
#include <utils.h>

/* the object types' tables, as OBJ_OPS_REGISTER put them in the binary */
KIND_SECTION_NTH(struct obj_ops, nfh_obj_ops, obj_ops_nth)

const struct obj_ops *obj_ops_by_type(uint32_t type)
{
	const struct obj_ops *o;

	for (unsigned int i = 0; (o = obj_ops_nth(i)); i++)
		if (o->type == type)
			return o;
	return NULL;
}

const char *obj_type_name(uint32_t type)
{
	const struct obj_ops *ops = obj_ops_by_type(type);

	if (ops)
		return ops->name;
	switch (type) {
	case NFT_OBJECT_COUNTER:	return "counter";
	case NFT_OBJECT_QUOTA:		return "quota";
	case NFT_OBJECT_LIMIT:		return "limit";
	case NFT_OBJECT_CT_HELPER:	return "ct helper";
	case NFT_OBJECT_CT_TIMEOUT:	return "ct timeout";
	case NFT_OBJECT_CT_EXPECT:	return "ct expectation";
	case NFT_OBJECT_SYNPROXY:	return "synproxy";
	case NFT_OBJECT_SECMARK:	return "secmark";
	}
	return NULL;
}

static const char *const family_names[] = {
	[NFPROTO_INET]		= "inet",
	[NFPROTO_IPV4]		= "ip",
	[NFPROTO_ARP]		= "arp",
	[NFPROTO_NETDEV]	= "netdev",
	[NFPROTO_BRIDGE]	= "bridge",
	[NFPROTO_IPV6]		= "ip6",
};

const char *family_name(unsigned int family)
{
	if (family < array_size(family_names) && family_names[family])
		return family_names[family];
	return "unknown";
}

int family_lookup(const char *name)
{
	for (unsigned int i = 0; i < array_size(family_names); i++)
		if (family_names[i] && !strcmp(family_names[i], name))
			return i;
	return -1;
}

static const char *const inet_hooks[] = {
	"prerouting", "input", "forward", "output", "postrouting", "ingress",
};
static const char *const arp_hooks[] = { "input", "output", "forward" };
static const char *const netdev_hooks[] = { "ingress", "egress" };

static const char *const *family_hooks(unsigned int family, unsigned int *n)
{
	switch (family) {
	case NFPROTO_IPV4:
	case NFPROTO_IPV6:
	case NFPROTO_BRIDGE:
		*n = 5;
		return inet_hooks;
	case NFPROTO_INET:
		*n = 6;
		return inet_hooks;
	case NFPROTO_ARP:
		*n = array_size(arp_hooks);
		return arp_hooks;
	case NFPROTO_NETDEV:
		*n = array_size(netdev_hooks);
		return netdev_hooks;
	}
	*n = 0;
	return NULL;
}

const char *hook_name(unsigned int family, unsigned int hooknum)
{
	unsigned int n;
	const char *const *hooks = family_hooks(family, &n);

	return hooknum < n ? hooks[hooknum] : "unknown";
}

int hook_lookup(unsigned int family, const char *name)
{
	unsigned int n;
	const char *const *hooks = family_hooks(family, &n);

	for (unsigned int i = 0; i < n; i++)
		if (!strcmp(hooks[i], name))
			return i;
	return -1;
}

const char *verdict_name(int verdict)
{
	switch (verdict) {
	case NF_ACCEPT:		return "accept";
	case NF_DROP:		return "drop";
	case NF_QUEUE:		return "queue";
	case NFT_CONTINUE:	return "continue";
	case NFT_BREAK:		return "break";
	case NFT_JUMP:		return "jump";
	case NFT_GOTO:		return "goto";
	case NFT_RETURN:	return "return";
	}
	return "unknown";
}

bool dev_is_prefix(const char *name)
{
	size_t n = strlen(name);

	return n && name[n - 1] == '*';
}

bool chain_type_valid(unsigned int family, const char *type)
{
	if (!strcmp(type, "filter"))
		return true;
	if (!strcmp(type, "nat"))
		return family == NFPROTO_IPV4 || family == NFPROTO_IPV6 ||
		       family == NFPROTO_INET;
	if (!strcmp(type, "route"))
		return family == NFPROTO_IPV4 || family == NFPROTO_IPV6 ||
		       family == NFPROTO_INET;
	return false;
}

struct prio_tag {
	const char	*name;
	int		prio;
};

static const struct prio_tag ip_prios[] = {
	{ "raw", -300 }, { "mangle", -150 }, { "dstnat", -100 },
	{ "filter", 0 }, { "security", 50 }, { "srcnat", 100 },
};

static const struct prio_tag bridge_prios[] = {
	{ "dstnat", -300 }, { "filter", -200 }, { "out", 100 },
	{ "srcnat", 300 },
};

/*
 * Which standard priorities make sense on which hook, as nft 1.0.6
 * decides: filter anywhere, raw, mangle and security in ip, ip6 and inet
 * only, dstnat on prerouting and srcnat on postrouting only (later nft
 * also take dstnat on output and srcnat on input).
 */
static bool prio_compat(unsigned int family, unsigned int hook,
			const char *name)
{
	if (family == NFPROTO_BRIDGE) {
		if (!strcmp(name, "filter"))
			return true;
		if (!strcmp(name, "dstnat"))
			return hook == NF_BR_PRE_ROUTING;
		if (!strcmp(name, "out"))
			return hook == NF_BR_LOCAL_OUT;
		if (!strcmp(name, "srcnat"))
			return hook == NF_BR_POST_ROUTING;
		return false;
	}
	if (!strcmp(name, "filter"))
		return true;
	switch (family) {
	case NFPROTO_IPV4:
	case NFPROTO_IPV6:
	case NFPROTO_INET:
		break;
	default:
		return false;
	}
	if (!strcmp(name, "raw") || !strcmp(name, "mangle") ||
	    !strcmp(name, "security"))
		return true;
	if (!strcmp(name, "dstnat"))
		return hook == NF_INET_PRE_ROUTING;
	if (!strcmp(name, "srcnat"))
		return hook == NF_INET_POST_ROUTING;
	return false;
}

static const struct prio_tag *family_prios(unsigned int family, unsigned int *n)
{
	if (family == NFPROTO_BRIDGE) {
		*n = array_size(bridge_prios);
		return bridge_prios;
	}
	*n = array_size(ip_prios);
	return ip_prios;
}

int prio_lookup(unsigned int family, unsigned int hooknum, const char *name,
		int *prio)
{
	unsigned int n;
	const struct prio_tag *t = family_prios(family, &n);

	for (unsigned int i = 0; i < n; i++) {
		if (strcmp(t[i].name, name))
			continue;
		if (!prio_compat(family, hooknum, name))
			return -1;
		*prio = t[i].prio;
		return 0;
	}
	return -1;
}

void prio_print(FILE *f, unsigned int family, unsigned int hooknum, int prio,
		bool numeric)
{
	unsigned int n;
	const struct prio_tag *t = family_prios(family, &n);

	for (unsigned int i = 0; !numeric && i < n; i++) {
		long long off = (long long)prio - t[i].prio;

		if (off < -10 || off > 10 ||
		    !prio_compat(family, hooknum, t[i].name))
			continue;
		if (off == 0)
			fprintf(f, "%s", t[i].name);
		else
			fprintf(f, "%s %c %d", t[i].name, off < 0 ? '-' : '+',
				(int)(off < 0 ? -off : off));
		return;
	}
	fprintf(f, "%d", prio);
}

/* family numbers are NFPROTO_*, below 16 */
#define FAMILY_MAX	16

/* did you mean: the families, and the hooks of one */
const char *suggest_family(struct suggest *s, const char *word)
{
	suggest_init(s, word);
	for (int i = 0; i < FAMILY_MAX; i++)
		if (family_lookup(family_name(i)) == i)
			suggest_add(s, family_name(i));
	/* the protocols' own names, too far from the families' by letters */
	if (!strcmp(word, "ipv4") || !strcmp(word, "inet4"))
		s->best = "ip";
	else if (!strcmp(word, "ipv6") || !strcmp(word, "inet6"))
		s->best = "ip6";
	return suggest_hint(s);
}

const char *suggest_chain_type(struct suggest *s, unsigned int family,
			       const char *word)
{
	static const char *const types[] = { "filter", "nat", "route" };

	suggest_init(s, word);
	for (unsigned int i = 0; i < array_size(types); i++)
		if (chain_type_valid(family, types[i]))
			suggest_add(s, types[i]);
	return suggest_hint(s);
}

const char *suggest_prio(struct suggest *s, unsigned int family,
			 unsigned int hooknum, const char *word)
{
	unsigned int n;
	const struct prio_tag *t = family_prios(family, &n);

	suggest_init(s, word);
	for (unsigned int i = 0; i < n; i++)
		if (prio_compat(family, hooknum, t[i].name))
			suggest_add(s, t[i].name);
	return suggest_hint(s);
}

const char *suggest_hook(struct suggest *s, unsigned int family,
			 const char *word)
{
	static const char *const hooks[] = {
		"prerouting", "input", "forward", "output", "postrouting",
		"ingress", "egress",
	};

	suggest_init(s, word);
	for (unsigned int i = 0; i < sizeof(hooks) / sizeof(hooks[0]); i++)
		if (hook_lookup(family, hooks[i]) >= 0)
			suggest_add(s, hooks[i]);
	return suggest_hint(s);
}
