/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFH_RULE_H
#define NFH_RULE_H

#include <expr.h>
#include <names.h>
#include <stmt.h>

/**
 * struct handle - names an object in the ruleset
 * @family:	NFPROTO_*
 * @handle:	kernel handle, 0 if not given
 * @position:	`position N` / `handle N` of insert and add
 * @index:	`index N` of insert and add
 * @rule_id:	the rule's id in its batch, if a later rule goes next to it
 * @position_id: `index N` that named a rule of the same batch: its id
 */
struct handle {
	unsigned int	family;
	char		*table;
	char		*chain;
	char		*set;
	char		*obj;		/* a stateful object's name */
	uint32_t	obj_type;	/* NFT_OBJECT_* of obj commands */
	uint64_t	handle;
	uint64_t	position;
	uint64_t	index;
	bool		index_set;
	uint32_t	rule_id;
	uint32_t	position_id;
	struct location	table_loc;
	struct location	chain_loc;
	struct location	set_loc;
	struct location	obj_loc;
	struct location	handle_loc;
	struct location	family_loc;
};

#define TABLE_F_DORMANT	0x1
#define TABLE_F_OWNER	0x2
#define TABLE_F_PERSIST	0x4	/* NFT_TABLE_F_PERSIST, Linux 6.9, nft 1.1:
					   an owner's table stays when it goes */

struct table {
	struct list_head	list;
	struct location		loc;
	struct handle		h;
	uint32_t		flags;
	bool			flags_set;
	char			*comment;
	struct list_head	chains;		/* block syntax */
	struct list_head	sets;		/* block syntax */
	struct list_head	objs;		/* block syntax */
	struct list_head	flowtables;	/* block syntax */
};

struct chain {
	struct list_head	list;
	struct location		loc;
	struct handle		h;
	bool			base;
	char			*type;
	struct location		type_loc;
	char			*hook;
	struct location		hook_loc;
	unsigned int		hooknum;
	struct expr		*priority;	/* symbol or value */
	struct location		priority_loc;
	int			prio;
	struct list_head	devices;	/* of expr */
	bool			has_devices;
	bool			devices_only;	/* "devices = { ... }" alone: for
						   a base chain that is there */
	struct location		dev_loc;
	int			policy;		/* -1: unset */
	struct location		policy_loc;
	struct expr		*policy_expr;
	uint32_t		flags;
	char			*comment;
	struct list_head	rules;		/* block syntax */
};

/**
 * struct rule_pack - rules of a chain block compiled as they were parsed
 * @items:	their batch messages (struct nl_item, raw payloads), in order
 * @eval_errs:	errors their evaluation queued, for when the rule's command
 *		is evaluated (so that errors come out in the usual order)
 * @lin_errs:	likewise for linearization
 * @nrules:	how many rules it holds
 * @items_free: frees @items (the streaming compiler's nl_items_free)
 */
struct rule_pack {
	struct list_head	items;
	void			(*items_free)(struct list_head *items);
	struct list_head	eval_errs;
	struct list_head	lin_errs;
	unsigned int		nrules;
	bool			eval_failed;
};

/*
 * A rule with a @pack holds no statements: it stands for consecutive rules
 * already compiled (see src/compile/stream.c).
 */
struct rule {
	struct list_head	list;
	struct location		loc;
	struct handle		h;
	struct list_head	stmts;
	char			*comment;
	struct rule_pack	*pack;
	bool			evaluated;	/* as parsed, without errors */
};

/**
 * struct set - a named set or map
 * @key:	what the keys look like: a selector (typeof) or a typed
 *		placeholder, a concatenation of them for concatenated keys
 * @data:	a map's values, likewise; NULL for a set; for an object map a
 *		placeholder of objref_type
 * @objtype:	NFT_OBJECT_* of an object map's values, 0 for others
 * @key_sel, @data_sel: what "typeof" named, kept for userdata and listing
 * @flags:	NFT_SET_*
 * @init:	elements given with the declaration (EXPR_SET), or NULL
 */
struct elem_store;

struct set {
	struct list_head	list;
	struct location		loc;
	struct handle		h;
	bool			is_map;
	bool			is_meter;	/* listed as "meter NAME" */
	/* its declaration got errors as it was read: what it lacks then
	   is not reported on top of them */
	bool			read_errors;
	struct expr		*key;
	bool			key_typeof;
	struct expr		*data;
	bool			data_typeof;
	uint32_t		objtype;
	struct expr		*key_sel;	/* typeof: the selectors */
	struct expr		*data_sel;	/* NULL for a verdict */
	uint32_t		flags;
	uint64_t		timeout;	/* ms */
	uint32_t		gc_int;		/* ms */
	uint32_t		size;
	int			policy;		/* -1: unset */
	bool			automerge;
	struct list_head	stmts;		/* kept in each element: counter,
						   quota, limit, ct count */
	char			*comment;
	struct expr		*init;
	struct elem_store	*store;		/* elements packed as read */
	bool			types_done;	/* key and data evaluated */
	struct location		flags_loc;
	uint32_t		id;		/* batch id, 0: exists already */
	bool			is_anon;
	bool			data_interval;	/* values are ranges */
};

/**
 * struct obj - a named stateful object
 * @type:	NFT_OBJECT_*
 * @stmt:	counter, quota and limit: their values, as a statement has them
 * @helper:	ct helper: the kernel helper's name and its protocols; ct
 *		timeout: its protocols (@l3proto, @l4proto) too
 * @timeout:	ct timeout: the states given in "policy = { ... }", in order
 * @expect:	ct expectation: dport, timeout (ms) and size, and which were
 *		given; its protocols are in @helper
 */
struct obj {
	struct list_head	list;
	struct location		loc;
	struct handle		h;
	uint32_t		type;
	/* its block got errors as it was read: what it lacks then is not
	   reported on top of them */
	bool			read_errors;
	char			*comment;
	struct stmt		*stmt;
	struct {
		char		*name;
		uint8_t		l4proto;
		uint16_t	l3proto;	/* NFPROTO_*, 0: the table's */
		struct location	name_loc;
		struct location	l4_loc;
		struct location	l3_loc;		/* where l3proto was given */
	} helper;
	struct {
		bool		l4_given;	/* "protocol P" on its own */
		unsigned int	n;
		struct obj_policy {
			char		*state;
			uint64_t	value;
			struct location	loc;
		} *policy;
	} timeout;
	struct {
		unsigned int	given;		/* OBJ_EXPECT_* */
		uint64_t	dport;
		uint64_t	timeout;
		uint64_t	size;
		struct location	dport_loc;
		struct location	timeout_loc;
		struct location	size_loc;
	} expect;
	struct {
		char		*ctx;		/* "system_u:object_r:...:s0" */
		struct location	loc;
	} secmark;
};

/**
 * struct flowtable - a flowtable: flows that "flow add @name" offloads
 * skip the forward path, between the devices it hooks (src/kinds/flowtable.c)
 * @h:		h.obj is its name, h.obj_loc where it is written
 * @hook:	its hook, priority and devices, as a base chain holds them
 *		(hook and priority: NULL without a hook line)
 * @flags:	NFT_FLOWTABLE_HW_OFFLOAD ("flags offload"), _COUNTER
 */
struct flowtable {
	struct list_head	list;
	struct location		loc;
	struct handle		h;
	struct chain		*hook;
	uint32_t		flags;
	bool			read_errors;
};

struct flowtable *flowtable_alloc(void);
void flowtable_free(struct flowtable *ft);

/*
 * libnftnl keeps a secmark's context in 256 bytes (the uapi header's
 * NFT_SECMARK_CTX_MAXLEN is larger now) and exits on a dumped one, sent
 * with its NUL, that fills them: nfh loads contexts of 254 characters at
 * most, so that they list back
 */
#define SECMARK_CTX_BUF		256

enum {
	OBJ_EXPECT_DPORT	= 1 << 0,
	OBJ_EXPECT_TIMEOUT	= 1 << 1,
	OBJ_EXPECT_SIZE		= 1 << 2,
};

enum cmd_ops {
	CMD_INVALID,
	CMD_ADD,
	CMD_CREATE,
	CMD_INSERT,
	CMD_REPLACE,
	CMD_DELETE,
	CMD_DESTROY,
	CMD_FLUSH,
	CMD_LIST,
	CMD_RESET,
	CMD_GET,
	CMD_DESCRIBE,
	CMD_RENAME,	/* rename chain: the new name in cmd->chain->h.chain */
};

enum cmd_obj {
	CMD_OBJ_INVALID,
	CMD_OBJ_TABLE,
	CMD_OBJ_CHAIN,
	CMD_OBJ_RULE,
	CMD_OBJ_RULESET,
	CMD_OBJ_TABLES,
	CMD_OBJ_CHAINS,
	CMD_OBJ_COUNTERS,
	CMD_OBJ_EXPR,
	CMD_OBJ_SET,
	CMD_OBJ_MAP,
	CMD_OBJ_SETS,
	CMD_OBJ_METERS,
	CMD_OBJ_RULES,	/* reset rules|rule: of the family, table, chain or handle */
	CMD_OBJ_METER,
	CMD_OBJ_MAPS,
	CMD_OBJ_ELEMENTS,	/* data: the EXPR_SET of elements */
	CMD_OBJ_OBJ,		/* a stateful object of type h.obj_type */
	CMD_OBJ_OBJS,		/* all objects of type h.obj_type */
	CMD_OBJ_HOOKS,		/* list hooks; data: the device name or NULL */
	CMD_OBJ_FLOWTABLE,	/* h.obj names it */
	CMD_OBJ_FLOWTABLES,
};

/**
 * struct cmd - one command; block syntax is flattened into add commands
 */
struct cmd {
	struct list_head	list;
	struct location		loc;
	enum cmd_ops		op;
	enum cmd_obj		obj;
	struct handle		h;
	bool			family_given;
	bool			all_family;	/* list sets table T: the sets of
						   every table of T's family */
	union {
		struct table	*table;
		struct chain	*chain;
		struct rule	*rule;
		struct expr	*expr;
		struct set	*set;
		struct expr	*elems;
		struct obj	*object;
		struct flowtable *flowtable;
		void		*data;
	};
	uint32_t		seqnum;		/* first netlink seq of the cmd */
	struct set		*target;	/* elements: the set, not owned */
	bool			failed;		/* its evaluation queued errors */
};

void handle_free(struct handle *h);
void handle_copy(struct handle *dst, const struct handle *src);

struct table *table_alloc(void);
void table_free(struct table *t);
struct chain *chain_alloc(void);
void chain_free(struct chain *c);
struct rule *rule_alloc(const struct location *loc);
void rule_free(struct rule *r);
struct cmd *cmd_alloc(enum cmd_ops op, enum cmd_obj obj,
		      const struct handle *h, const struct location *loc,
		      void *data);
void cmd_free(struct cmd *cmd);
struct set *set_alloc(const struct location *loc);
void set_free(struct set *s);
struct obj *obj_alloc(const struct location *loc, uint32_t type);
void obj_free(struct obj *o);

#endif
