/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFH_NETLINK_H
#define NFH_NETLINK_H

#include <sys/types.h>
#include <libmnl/libmnl.h>
#include <utils.h>
#include <erec.h>

struct nfh_ctx;
struct cmd;

/* the words for the kernel's answer @reply (NLMSG_ERROR) to @sent, a new
 * chain or set, when they name a missing chain or set type; NULL if not
 * (the caller frees them) */
char *nlio_refusal_words(const struct nlmsghdr *sent,
			 const struct nlmsghdr *reply);

enum nl_obj {
	NLO_TABLE,
	NLO_CHAIN,
	NLO_RULE,
	NLO_SET,
	NLO_SETELEM,
	NLO_OBJ,	/* struct nftnl_obj */
	NLO_RAW,	/* struct raw_msg: set elements, built already */
	NLO_FLOWTABLE,	/* struct nftnl_flowtable */
};

/**
 * struct nl_item - one message of a batch, in order
 * @msg_type:	NFT_MSG_*
 * @flags:	NLM_F_* besides NLM_F_REQUEST and NLM_F_ACK
 * @obj:	the libnftnl object the message is built from
 * @loc:	where the command came from, for kernel errors
 */
/*
 * Where the statement that made one expression of a rule stands, relative
 * to the rule's location: the kernel names a failing expression by the
 * offset of its attribute (extended ack), and the error goes there.
 */
struct expr_loc {
	uint16_t		first_line;	/* lines after the rule's first */
	uint16_t		last_line;
	uint16_t		first_col;	/* 0: not known, the whole rule */
	uint16_t		last_col;
};

struct nl_item {
	struct list_head	list;
	uint16_t		msg_type;
	uint16_t		flags;
	unsigned int		family;
	enum nl_obj		type;
	void			*obj;
	struct location		loc;
	uint32_t		seq;
	uint32_t		rule_id;	/* NFTA_RULE_ID put in a raw rule */
	uint32_t		off;		/* where its message is in the batch */
	uint16_t		nelocs;
	struct expr_loc		*elocs;		/* a rule's: one an expression;
						   a DELFLOWTABLE's: one a
						   device */
	uint32_t		chain_id;	/* a chain binding's NFTA_CHAIN_ID,
						   or a rule's NFTA_RULE_CHAIN_ID
						   in it */
};

struct nl_batch {
	struct list_head	items;
};

/* where the statement that made expression @i of rule item @it stands
   (in *@loc), or the rule's location when that is not known; for a
   flowtable's devices taken out, where its device @i stands */
const struct location *nl_item_expr_loc(const struct nl_item *it, int i,
					struct location *loc);

void nl_batch_init(struct nl_batch *b);
struct nl_item *nl_batch_add(struct nl_batch *b, uint16_t msg_type,
			     uint16_t flags, unsigned int family,
			     enum nl_obj type, void *obj,
			     const struct location *loc);
void nl_batch_free(struct nl_batch *b);
/* frees a list of nl_item and what they hold */
void nl_items_free(struct list_head *items);

/*
 * The payload (after struct nfgenmsg) of @it's message as a struct
 * raw_msg; @it becomes NLO_RAW and its object is freed.  Rules kept this
 * way cost their message bytes only.
 */
void nl_item_to_raw(struct nl_item *it);
void nl_item_set_rule_id(struct nl_item *it, uint32_t id);

/*
 * A message built already: the payload of a NEWSETELEM/DELSETELEM (or a
 * streamed rule's NEWRULE, an anonymous set's NEWSET) message (after
 * struct nfgenmsg), ready to be copied into a batch.
 */
struct raw_msg {
	size_t		len;
	uint8_t		data[];
};

struct nftnl_rule;
/* the elements of a raw message as a libnftnl set, for debug and offline */
struct nftnl_set;
struct nftnl_set *raw_msg_to_nftnl(const struct raw_msg *m, uint16_t type,
				   unsigned int family);
/* a raw rule message back as a libnftnl rule, for debug and offline;
   NULL if libnftnl cannot read it (a zero-length value, which the kernel
   refuses too) */
struct nftnl_rule *raw_msg_to_rule(const struct raw_msg *m, uint16_t type,
				   unsigned int family);
/* nftnl_rule_nlmsg_parse() of a rule message libnftnl built, its objref
   names read as the kernel reads them (see netlink.c) */
struct nlmsghdr;
int nl_rule_parse_built(const struct nlmsghdr *nlh, struct nftnl_rule *r);

/*
 * sends the batch as one transaction; errors are queued with locations.
 * NLIO_RESTART (nothing queued, nothing applied): the ruleset changed
 * since it was read for the batch; evaluate the commands again.
 */
#define NLIO_RESTART	(-2)
int nlio_batch_send(struct nfh_ctx *ctx, struct nl_batch *b,
		    struct list_head *msgs);
int nlio_open(struct nfh_ctx *ctx, struct list_head *msgs);
/* a sequence number to start from that no other process can guess */
uint32_t nlio_seq_random(void);
/* one datagram from the kernel; others are dropped and counted */
ssize_t nlio_recv(int fd, void *buf, size_t len, int flags,
		  unsigned long *forged);
void nlio_close(struct nfh_ctx *ctx);
/* sends @nlh (any nfnetlink subsystem, e.g. NFNL_SUBSYS_HOOK) and runs @cb
 * on each reply message; -1 with errno set on failure */
int nlio_request(struct nfh_ctx *ctx, struct nlmsghdr *nlh, mnl_cb_t cb,
		 void *data);

struct cache;
/* reads the kernel ruleset of @family (NFPROTO_UNSPEC: all) */
int nlio_dump(struct nfh_ctx *ctx, unsigned int family, struct cache *c,
	      struct list_head *msgs);
/* reads the whole kernel ruleset as the offline model holds one, to check
 * batch @b against (offline.h): the elements in the libnftnl sets, of the
 * anonymous sets, the maps and the sets @b has elements for (the others'
 * are not read: a set of a million elements would cost seconds) */
struct nl_batch;
int nlio_dump_model(struct nfh_ctx *ctx, const struct nl_batch *b,
		    struct cache *c, struct list_head *msgs);
/* reads the tables and sets of @family, and the elements of the one set
 * (@reset: resetting their counters and quotas, Linux 6.5+) */
int nlio_dump_set(struct nfh_ctx *ctx, unsigned int family, const char *table,
		  const char *set, bool reset, struct cache *c,
		  struct list_head *msgs);

/* resets the @n elements of @cs whose records (in cs->elems) @recs names,
 * which then holds the elements as the kernel reset them */
struct cache_set;
int nlio_elems_reset(struct nfh_ctx *ctx, unsigned int family,
		     struct cache_set *cs, const uint32_t *recs, size_t n,
		     struct list_head *msgs);

/* resets the objects of @type (of @table; the one @name) and reads the
 * values they had, with the tables, into @c; -2 (nothing queued) if it
 * or its table does not exist */
int nlio_obj_reset(struct nfh_ctx *ctx, unsigned int family, const char *table,
		   uint32_t type, const char *name, struct cache *c,
		   struct list_head *msgs);

/* reads the ruleset of @family into @c, the rules of @table (NULL: all),
 * @chain (NULL: all) or the one of @handle (0: all) as they were before
 * the kernel reset their counters and quotas (nft 1.1's reset rules); -2
 * (nothing queued) if the table or chain does not exist */
int nlio_rules_reset(struct nfh_ctx *ctx, unsigned int family,
		     const char *table, const char *chain, uint64_t handle,
		     struct cache *c, struct list_head *msgs);
/* reads only the tables and sets (no elements) */
int nlio_dump_sets(struct nfh_ctx *ctx, struct cache *c, struct list_head *msgs);
/* the handle of chain @chain of @table: 0, -2 if there is none (nothing
   queued), -1 on errors */
int nlio_chain_handle(struct nfh_ctx *ctx, unsigned int family,
		      const char *table, const char *chain, uint64_t *handle,
		      struct list_head *msgs);
/* the handles of a chain's rules, in order (malloc'd in *@handles) */
int nlio_rule_handles(struct nfh_ctx *ctx, unsigned int family,
		      const char *table, const char *chain,
		      uint64_t **handles, size_t *n, struct list_head *msgs);

struct nlmsghdr;
struct nftnl_chain;
/*
 * Device-name prefixes.  A chain's device list holds a prefix as its
 * text, "veth*"; on the wire it is NFTA_DEVICE_PREFIX "veth" (Linux
 * 6.17+), which libnftnl 1.2.4 neither builds nor parses: these do
 * the chain and flowtable messages instead of libnftnl's
 * *_nlmsg_build_payload() and *_nlmsg_parse(), and leave those without
 * prefixes to them.
 */
bool nl_chain_has_prefix(const struct nftnl_chain *c);
/* the chain's devices by name, as nft lists them, those of a list with
   prefixes as given (malloc'd, NULL-ended) */
const char **nl_chain_devs_sorted(const struct nftnl_chain *c);
void nl_chain_build_payload(struct nlmsghdr *nlh, const struct nftnl_chain *c);
int nl_chain_parse(const struct nlmsghdr *nlh, struct nftnl_chain *c);
/* the same for flowtables (NFTA_FLOWTABLE_HOOK_DEVS) */
struct nftnl_flowtable;
bool nl_flowtable_has_prefix(const struct nftnl_flowtable *f);
void nl_flowtable_build_payload(struct nlmsghdr *nlh,
				const struct nftnl_flowtable *f);
int nl_flowtable_parse(const struct nlmsghdr *nlh, struct nftnl_flowtable *f);

/* files one dump reply message into @c, as nlio_dump does (for the fuzzer) */
int nlio_dump_msg(struct cache *c, const struct nlmsghdr *nlh);

/* prints the batch as nft --debug=netlink does */
void nl_batch_debug(FILE *f, struct nl_batch *b);

#endif
