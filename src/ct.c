// SPDX-License-Identifier: GPL-2.0-or-later
#include <string.h>
#include <netinet/in.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>

#include <proto.h>

#define C(k, n, dt, l, bo, d) [k] = { .name = n, .dtype = &dt, .len = l, \
				      .byteorder = BYTEORDER_##bo, .dir = d }
/* keys the kernel reads of one direction only: the rule must say which */
#define CD(k, n, dt, l, bo) [k] = { .name = n, .dtype = &dt, .len = l, \
				    .byteorder = BYTEORDER_##bo, .dir = true, \
				    .dir_only = true }

static const struct ct_template ct_templates[] = {
	C(NFT_CT_STATE,		"state",	ct_state_type,	32, HOST, false),
	C(NFT_CT_DIRECTION,	"direction",	ct_dir_type,	8, HOST, false),
	C(NFT_CT_STATUS,	"status",	ct_status_type,	32, HOST, false),
	C(NFT_CT_MARK,		"mark",		mark_type,	32, HOST, false),
	C(NFT_CT_SECMARK,	"secmark",	integer_type,	32, HOST, false),
	C(NFT_CT_EXPIRATION,	"expiration",	time_type,	32, HOST, false),
	C(NFT_CT_HELPER,	"helper",	string_type,	128, HOST, false),
	C(NFT_CT_L3PROTOCOL,	"l3proto",	nfproto_type,	8, HOST, true),
	C(NFT_CT_PROTOCOL,	"protocol",	inet_protocol_type, 8, BIG, true),
	CD(NFT_CT_PROTO_SRC,	"proto-src",	inet_service_type, 16, BIG),
	CD(NFT_CT_PROTO_DST,	"proto-dst",	inet_service_type, 16, BIG),
	C(NFT_CT_LABELS,	"label",	ct_label_type,	128, HOST, false),
	C(NFT_CT_PKTS,		"packets",	integer_type,	64, HOST, true),
	C(NFT_CT_BYTES,		"bytes",	integer_type,	64, HOST, true),
	C(NFT_CT_AVGPKT,	"avgpkt",	integer_type,	64, HOST, true),
	C(NFT_CT_ZONE,		"zone",		integer_type,	16, HOST, true),
	C(NFT_CT_EVENTMASK,	"event",	ct_event_type,	32, HOST, false),
	C(NFT_CT_ID,		"id",		integer_type,	32, BIG, false),
	/* addresses: saddr and daddr take the table's family */
	CD(NFT_CT_SRC,		"saddr",	ipaddr_type,	32, BIG),
	CD(NFT_CT_DST,		"daddr",	ipaddr_type,	32, BIG),
	CD(NFT_CT_SRC_IP,	"ip saddr",	ipaddr_type,	32, BIG),
	CD(NFT_CT_DST_IP,	"ip daddr",	ipaddr_type,	32, BIG),
	CD(NFT_CT_SRC_IP6,	"ip6 saddr",	ip6addr_type,	128, BIG),
	CD(NFT_CT_DST_IP6,	"ip6 daddr",	ip6addr_type,	128, BIG),
};

/* ct saddr/daddr: the address type of the family */
void ct_expr_family(struct expr *e, unsigned int family)
{
	if ((e->ct.key == NFT_CT_SRC || e->ct.key == NFT_CT_DST) &&
	    family == NFPROTO_IPV6) {
		e->dtype = &ip6addr_type;
		e->len = 128;
	}
}

const struct ct_template *ct_template(unsigned int key)
{
	if (key < array_size(ct_templates) && ct_templates[key].name)
		return &ct_templates[key];
	return NULL;
}

/*
 * nft 1.0.6 lists "ct original l3proto" and "ct reply protocol" without
 * their direction, which the kernel ignores for these keys
 */
bool ct_dir_unlisted(unsigned int key)
{
	return key == NFT_CT_L3PROTOCOL || key == NFT_CT_PROTOCOL;
}

unsigned int ct_key_max(void)
{
	return array_size(ct_templates);
}

int ct_key_lookup(const char *name)
{
	for (unsigned int i = 0; i < array_size(ct_templates); i++)
		if (ct_templates[i].name && !strcmp(ct_templates[i].name, name))
			return i;
	return -1;
}

struct expr *ct_expr_alloc(const struct location *loc, unsigned int key,
			   int dir)
{
	const struct ct_template *t = ct_template(key);
	struct expr *e = expr_alloc(loc, EXPR_CT, t->dtype, t->byteorder,
				    t->len);

	e->ct.key = key;
	e->ct.dir = dir;
	return e;
}

struct expr *ct_expr_parse(const struct location *loc, const char *key,
			   const struct location *kloc, const char *dir,
			   const struct location *dloc, struct list_head *msgs)
{
	int k = ct_key_lookup(key), d = -1;

	if (k < 0) {
		error_queue(msgs, kloc, "unknown ct key \"%s\"", key);
		return NULL;
	}
	if (dir) {
		if (!strcmp(dir, "original"))
			d = 0;
		else if (!strcmp(dir, "reply"))
			d = 1;
		else {
			error_queue(msgs, dloc,
				    "unknown ct direction \"%s\"; expected original or reply",
				    dir);
			return NULL;
		}
		if (!ct_template(k)->dir) {
			error_queue(msgs, dloc,
				    "ct %s does not take a direction", key);
			return NULL;
		}
	}
	return ct_expr_alloc(loc, k, d);
}

/*
 * ct timeout objects: the states of each layer 4 protocol, in the order of
 * the kernel's NFTA_CT_TIMEOUT_DATA attributes (one more than the index),
 * and the kernel's default timeouts in seconds.  A ct timeout sends every
 * state, the defaults for those its policy does not name; the listing
 * shows the states whose timeout differs from the default.
 */
static const struct ct_timeout_states {
	uint8_t		l4proto;
	unsigned int	n;
	const char	*name[CT_TIMEOUT_STATES_MAX];
	uint32_t	dflt[CT_TIMEOUT_STATES_MAX];
} ct_timeout_states[] = {
	{ IPPROTO_TCP, 11,
	  { "syn_sent", "syn_recv", "established", "fin_wait", "close_wait",
	    "last_ack", "time_wait", "close", "syn_sent2", "retrans", "unack" },
	  { 120, 60, 432000, 120, 60, 30, 120, 10, 120, 300, 300 } },
	{ IPPROTO_UDP, 2, { "unreplied", "replied" }, { 30, 120 } },
};

static const struct ct_timeout_states *timeout_states(uint8_t l4proto)
{
	for (unsigned int i = 0; i < array_size(ct_timeout_states); i++)
		if (ct_timeout_states[i].l4proto == l4proto)
			return &ct_timeout_states[i];
	return NULL;
}

unsigned int ct_timeout_nstates(uint8_t l4proto)
{
	const struct ct_timeout_states *t = timeout_states(l4proto);

	return t ? t->n : 0;
}

const char *ct_timeout_state_name(uint8_t l4proto, unsigned int i)
{
	return i < ct_timeout_nstates(l4proto) ? timeout_states(l4proto)->name[i] : NULL;
}

int ct_timeout_state_lookup(uint8_t l4proto, const char *name)
{
	for (unsigned int i = 0; i < ct_timeout_nstates(l4proto); i++)
		if (!strcmp(timeout_states(l4proto)->name[i], name))
			return i;
	return -1;
}

uint32_t ct_timeout_default(uint8_t l4proto, unsigned int i)
{
	return i < ct_timeout_nstates(l4proto) ? timeout_states(l4proto)->dflt[i] : 0;
}
