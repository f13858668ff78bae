/* SPDX-License-Identifier: GPL-2.0-or-later */
%{
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/netfilter/nf_log.h>
#include <linux/netfilter/nf_synproxy.h>
#include <linux/netfilter/nf_nat.h>

#include <ctx.h>
#include <parser.h>
#include <print.h>
#include <proto.h>
#include <rule.h>
#include <flowtable.h>
#include <stmt.h>
#include <suggest.h>
#include <inner.h>
#include <binding.h>
#include <catchall.h>
#include <connlimit.h>
#include <counter.h>
#include <ct.h>
#include <exthdr.h>
#include <fib.h>
#include <limit.h>
#include <log.h>
#include <meta.h>
#include <numgen.h>
#include <payload.h>
#include <queue.h>
#include <reject.h>

#define YYLLOC_DEFAULT(cur, rhs, n) do {				\
	if (n) {							\
		(cur) = YYRHSLOC(rhs, 1);				\
		(cur).last_line = YYRHSLOC(rhs, n).last_line;		\
		if (YYRHSLOC(rhs, n).first_line == (cur).first_line)	\
			(cur).last_col = YYRHSLOC(rhs, n).last_col;	\
	} else {							\
		(cur) = YYRHSLOC(rhs, 0);				\
		(cur).first_col = (cur).last_col;			\
	}								\
} while (0)

/*
 * A syntax error inside a block whose '{' an earlier syntax error made the
 * parser drop (see open_brace() in the scanner): the lines of that block
 * are read as lines of the block around it, and what they give is a
 * cascade of that error ("tabel ip t {" would give one error a line).
 */
static bool in_lost_block(const struct parser_state *state)
{
	return state->lost_braces > 0;
}

static void yyerror(struct location *loc, void *scanner, struct parser_state *state,
		    const char *s)
{
	if (in_lost_block(state))
		;	/* counted below, not reported */
	else if (!state->quiet && state->block_closed &&
	    strstr(s, "expecting newline or semicolon"))
		error_queue(state->msgs, loc,
			    "%s; add a newline or ';' after the '}' that ends a block", s);
	else if (!state->quiet)
		error_queue(state->msgs, loc, "%s", s);
	state->block_closed = false;
	state->recovering = true;
	state->nerrs++;
}

static void add_cmd(struct parser_state *state, struct cmd *cmd)
{
	list_add_tail(&cmd->list, state->cmds);
}

/*
 * Whether the rule (or rule command) just read got an error as it was
 * read: it is then not evaluated, since what evaluation would say of
 * what is left of it would be a cascade of that error.
 */
static bool rule_had_errors(const struct parser_state *state)
{
	return state->sep_mark != state->rule_mark;
}

/* the same for one the end of the input ends, with no separator */
static bool rule_had_errors_at_end(const struct parser_state *state)
{
	return state->msgs->prev != state->sep_mark;
}

/* a separator: what comes next is a new rule (or line) */
static void sep_mark(struct parser_state *state)
{
	state->rule_mark = state->sep_mark;
	state->sep_mark = state->msgs->prev;
}

/*
 * A chain binding's block opens: its chain gets the next chain id (nft
 * counts every chain it adds, in order), and the outer rule's error mark
 * is kept, for its separators move it.  Returns the id.
 */
static uint32_t binding_begin(struct parser_state *state,
			      const struct location *loc)
{
	struct chain *c = chain_alloc();

	if (!list_empty(&state->bindings))
		error_queue(state->msgs, loc, "too many levels of nesting");
	else
		state->binding_mark = state->sep_mark;
	list_add(&c->list, &state->bindings);
	state->stream_deps++;
	return ++state->ctx->chain_id;
}

/* and closes: an error in it is an error of the outer rule too */
static struct stmt *binding_end(struct parser_state *state,
				const struct location *loc, int verdict,
				uint32_t id, struct chain *c)
{
	struct stmt *s = binding_stmt_alloc(loc, verdict, id, &c->rules);

	list_del(&c->list);
	chain_free(c);
	if (list_empty(&state->bindings))
		state->sep_mark = state->binding_mark;
	return s;
}

/* a syntax error left blocks open: they are dropped with what they read */
static void bindings_drop(struct parser_state *state)
{
	struct chain *c, *next;

	list_for_each_entry_safe(c, next, &state->bindings, list) {
		list_del(&c->list);
		chain_free(c);
	}
}

static void handle_set_family(struct handle *h, int family)
{
	h->family = family;
}


/* "1h30m", "500ms", "10" (seconds) -> milliseconds; -1 on a bad unit */
static int time_of(struct parser_state *state, const char *str,
		   const struct location *loc, uint64_t *ms)
{
	switch (time_parse(str, ms)) {
	case 0:
		return 0;
	case -ERANGE:
		/* as nft; the kernel would refuse it (ERANGE) */
		return error_queue(state->msgs, loc, "value too large");
	default:
		return error_queue(state->msgs, loc, "wrong time format \"%s\"",
				   str);
	}
}

/* a bare number of seconds -> milliseconds; 0 (and an error) if too large */
static uint64_t seconds_of(struct parser_state *state,
			   const struct location *loc, uint64_t n)
{
	if (n > TIME_MS_MAX / 1000) {
		error_queue(state->msgs, loc, "value too large");
		return 0;
	}
	return n * 1000;
}

/*
 * A comment is user data of at most 128 bytes (NFTNL_UDATA_COMMENT_MAXLEN),
 * as nft says; a longer one the kernel would keep in part or drop.
 */
static char *comment_of(struct parser_state *state, char *s,
			const struct location *loc)
{
	if (strlen(s) <= 128)
		return s;
	error_queue(state->msgs, loc,
		    "comment too long, 128 characters maximum allowed");
	free(s);
	return NULL;
}

/* a command from a parsed handle, which it takes over */
static struct cmd *hcmd(enum cmd_ops op, enum cmd_obj obj, struct handle *h,
			const struct location *loc, void *data)
{
	struct cmd *cmd = cmd_alloc(op, obj, h, loc, data);

	free(h);	/* the names are the command's */
	return cmd;
}

static struct cmd *set_cmd(struct parser_state *state, enum cmd_ops op,
			   enum cmd_obj obj, struct handle *h,
			   const struct location *loc, struct set *set)
{
	if (set) {
		handle_copy(&set->h, h);
		set->loc = h->set_loc;
		set->is_map = obj == CMD_OBJ_MAP;
		set->read_errors = state->msgs->prev != state->set_mark;
		state->cur_set = NULL;
		state->elem_set = NULL;
	}
	return hcmd(op, obj, h, loc, set);
}

/* wraps a set element key so that it can carry options */
static struct expr *elem_set_expr(struct expr *key, const struct location *loc)
{
	if (key->kind == EXPR_SET_ELEM) {
		key->loc = *loc;
		return key;
	}
	return set_elem_expr_alloc(loc, key);
}

/* a variable as a set of elements, to be merged with others */
static struct expr *elems_as_set(struct expr *e)
{
	struct expr *w;

	if (e->kind != EXPR_VARIABLE)
		return e;
	w = compound_expr_alloc(&e->loc, EXPR_SET);
	compound_expr_add(w, e);
	return w;
}

/* "snat ip to", "dnat ip6 to": the address family of a nat statement */
static int nat_family(struct parser_state *state, struct stmt *s,
		      const char *name, const struct location *loc)
{
	if (!strcmp(name, "ip"))
		s->nat.family = NFPROTO_IPV4;
	else if (!strcmp(name, "ip6"))
		s->nat.family = NFPROTO_IPV6;
	else
		return error_queue(state->msgs, loc,
				   "nat takes ip or ip6 here, not %s", name);
	return 0;
}

/* "type K : interval V": a map whose values are ranges */
static void set_data_interval(struct parser_state *state, struct set *set,
			      char *word, const struct location *loc)
{
	if (strcmp(word, "interval")) {
		error_queue(state->msgs, loc,
			    "syntax error, unexpected \"%s\" before the map's value type",
			    word);
		state->nerrs++;
	} else
		set->data_interval = true;
	free(word);
}

/* "fwd ip to ADDR device DEV": the family of the next hop */
static int fwd_family(struct parser_state *state, struct stmt *s,
		      const char *name, const struct location *loc)
{
	if (!strcmp(name, "ip"))
		s->fwd.family = NFPROTO_IPV4;
	else if (!strcmp(name, "ip6"))
		s->fwd.family = NFPROTO_IPV6;
	else
		return error_queue(state->msgs, loc,
				   "fwd takes ip or ip6 here, not %s", name);
	return 0;
}


/*
 * "define p = -10": as nft, a 32-bit integer in host byte order, which a
 * priority takes as -10 and a statement as 4294967286
 */
static struct expr *neg_define_value(struct parser_state *state,
				     const struct location *dloc,
				     const struct location *nloc, uint64_t n)
{
	struct location loc = *dloc;

	loc.last_line = nloc->last_line;
	loc.last_col = nloc->last_col;
	if (n > (uint64_t)INT32_MAX + 1)
		error_queue(state->msgs, &loc, "-%llu exceeds valid range %d-%d",
			    (unsigned long long)n, INT32_MIN, INT32_MAX);
	return constant_expr_u64(&loc, &integer_type, BYTEORDER_HOST, 32,
				 (uint32_t)-(int64_t)n);
}

/* tcp options belong to tcp and chunks to sctp */
static struct expr *exthdr_grammar_expr(struct parser_state *state,
					const struct location *loc,
					const char *proto,
					const struct location *ploc,
					unsigned int op, const char *name,
					const struct location *nloc,
					const char *field,
					const struct location *floc)
{
	const char *want = op == NFT_EXTHDR_OP_TCPOPT ? "tcp" : "sctp";

	if (proto && op == NFT_EXTHDR_OP_TCPOPT && !strcmp(proto, "ip"))
		op = NFT_EXTHDR_OP_IPV4;	/* "ip option rr exists" */
	else if (proto && strcmp(proto, want)) {
		error_queue(state->msgs, ploc, "%s has no %s; %s has",
			    proto, op == NFT_EXTHDR_OP_TCPOPT ? "options" : "chunks",
			    want);
		return NULL;
	}
	return exthdr_expr_parse(loc, op, name, nloc, field, floc, state->msgs);
}

/* "tcp option 2 exists", "tcp option 2 length 4": a known option by kind */
static struct expr *tcpopt_kind_expr(struct parser_state *state,
				     const struct location *loc,
				     const char *proto,
				     const struct location *ploc, uint64_t kind,
				     const struct location *kloc,
				     const char *field,
				     const struct location *floc)
{
	const struct exthdr_desc *d = kind <= UINT8_MAX ?
		exthdr_by_type(NFT_EXTHDR_OP_TCPOPT, kind) : NULL;
	unsigned int op = NFT_EXTHDR_OP_TCPOPT;

	/* nft 1.1: "dccp option 4 exists", a presence test only */
	if (!strcmp(proto, "dccp")) {
		if (kind > UINT8_MAX)
			error_queue(state->msgs, kloc, "dccp option kind %llu is too large: 0 to 255",
				    (unsigned long long)kind);
		else if (field)
			error_queue(state->msgs, floc, "dccp options have no fields: dccp option KIND exists or missing");
		else
			return exthdr_present_alloc(loc, NFT_EXTHDR_OP_DCCP, kind);
		return NULL;
	}
	if (strcmp(proto, "tcp")) {
		error_queue(state->msgs, kloc, "%s options are named, not numbered",
			    proto);
		return NULL;
	}
	if (!d && !field && kind <= UINT8_MAX)
		return exthdr_present_alloc(loc, op, kind);	/* "tcp option 254 missing" */
	if (!d) {
		error_queue(state->msgs, kloc, "unknown tcp option kind %llu",
			    (unsigned long long)kind);
		return NULL;
	}
	return exthdr_grammar_expr(state, loc, proto, ploc,
				   NFT_EXTHDR_OP_TCPOPT, d->name, kloc,
				   field, floc);
}

/*
 * "rt" names both the route of the packet ("rt mtu", rt.c) and the IPv6
 * routing header ("rt type", exthdr.c): a field of the header wins.
 */
static struct expr *rt_grammar_expr(struct parser_state *state,
				    const struct location *loc,
				    const char *key, const struct location *kloc)
{
	const struct exthdr_desc *d = exthdr_lookup(NFT_EXTHDR_OP_IPV6, "rt");

	if (d && exthdr_field_lookup(d, key))
		return exthdr_expr_parse(loc, NFT_EXTHDR_OP_IPV6, "rt", loc,
					 key, kloc, state->msgs);
	return expr_kind_parse("rt", loc, (struct kind_word[]){
		{ NULL, NULL }, { key, kloc } }, 2, state->msgs);
}

/* a named object command: the object, if any, takes the handle's name */
static struct cmd *obj_cmd(struct parser_state *state, enum cmd_ops op,
			   enum cmd_obj what, uint32_t type, struct handle *h,
			   const struct location *loc, struct obj *o)
{
	h->obj_type = type;
	if (o) {
		handle_copy(&o->h, h);
		o->loc = h->obj_loc;
		o->type = type;
		/* the block's object is the command's now (an object made
		   without a block leaves an abandoned one to be freed) */
		if (state->cur_obj == o) {
			o->read_errors = state->msgs->prev != state->obj_mark;
			state->cur_obj = NULL;
		}
	}
	return hcmd(op, what, h, loc, o);
}

/* an object inside a table block */
static void table_add_obj(struct parser_state *state, struct table *t,
			  uint32_t type, struct obj *o, char *name,
			  const struct location *loc)
{
	o->type = type;
	o->h.obj = name;
	o->h.obj_loc = *loc;
	o->loc = *loc;
	list_add_tail(&o->list, &t->objs);
	if (state->cur_obj == o) {
		o->read_errors = state->msgs->prev != state->obj_mark;
		state->cur_obj = NULL;
	}
}

static struct stmt *objref_stmt(const struct location *loc, uint32_t type,
				struct expr *e)
{
	struct stmt *s = stmt_alloc(loc, STMT_OBJREF);

	s->objref.type = type;
	s->objref.expr = e;
	return s;
}

/* a secmark object's security context (the last one given counts, as in nft) */
static void secmark_ctx(struct obj *o, char *ctx, const struct location *loc)
{
	free(o->secmark.ctx);
	o->secmark.ctx = ctx;
	o->secmark.loc = *loc;
}


/* "ct helper" (or a word) as an object map's value type; 0 after an error */
static uint32_t map_ct_obj_of(struct parser_state *state, const char *name,
			      const struct location *loc)
{
	struct suggest sg;

	if (!strcmp(name, "helper"))
		return NFT_OBJECT_CT_HELPER;
	suggest_init(&sg, name);
	suggest_add(&sg, "helper");
	error_queue(state->msgs, loc, "unknown ct object \"%s\"%s", name,
		    suggest_hint(&sg));
	state->nerrs++;
	return 0;
}

/* the end of a refused object's block: what it queued goes */
static void quiet_end(struct parser_state *state)
{
	struct list_head *pos, *next;

	if (!state->quiet)
		return;
	for (pos = state->quiet_mark->next; pos != state->msgs; pos = next) {
		next = pos->next;
		list_del(pos);
		erec_destroy(list_entry(pos, struct error_record, list));
	}
	state->quiet = false;
}

/*
 * "ct helper NAME {...}", "ct timeout NAME {...}" and "ct expectation
 * NAME {...}"; -1 for others.  Like nft, only helpers are listed by the plural.
 */
static int ct_obj_of(struct parser_state *state, const char *name,
		     const struct location *loc, bool plural)
{
	struct suggest sg;

	if (!strcmp(name, plural ? "helpers" : "helper"))
		return NFT_OBJECT_CT_HELPER;
	if (!plural && !strcmp(name, "timeout"))
		return NFT_OBJECT_CT_TIMEOUT;
	if (!plural && !strcmp(name, "expectation"))
		return NFT_OBJECT_CT_EXPECT;
	suggest_init(&sg, name);
	suggest_add(&sg, plural ? "helpers" : "helper");
	if (!plural) {
		suggest_add(&sg, "timeout");
		suggest_add(&sg, "expectation");
	}
	return error_queue(state->msgs, loc, "unknown ct object \"%s\"%s", name,
			   suggest_hint(&sg));
}

/* an element keeps one counter (nft: number of statements mismatch) */
static void elem_counter_once(struct parser_state *state, const struct expr *e,
			      const struct location *loc)
{
	if (e->kind == EXPR_SET_ELEM && e->elem.counter)
		error_queue(state->msgs, loc,
			    "a second counter: an element keeps one counter");
}

/* "policy = { state: seconds, ... }" of a ct timeout: one more state */
static void policy_add(struct obj *o, char *name, const struct location *loc,
		       uint64_t value)
{
	struct obj_policy *p;

	o->timeout.policy = xrealloc(o->timeout.policy,
				     (o->timeout.n + 1) * sizeof(*p));
	p = &o->timeout.policy[o->timeout.n++];
	p->state = name;
	p->loc = *loc;
	p->value = value;
}

/* the layer 4 protocols a ct helper can be for; 0 if not one */
static uint8_t l4_number(const char *name)
{
	if (!strcmp(name, "tcp"))
		return IPPROTO_TCP;
	if (!strcmp(name, "udp"))
		return IPPROTO_UDP;
	return 0;
}

/*
 * "512bytes", "5kbytes", "3packets": a number the scanner read together
 * with its unit, which nft reads as two words; the number in bytes (or
 * packets)
 */
static int number_with_unit(struct parser_state *state, const char *s,
			    const struct location *loc, bool bytes,
			    uint64_t *res)
{
	uint64_t mult = 1;
	char *unit;

	errno = 0;
	*res = strtoull(s, &unit, 10);
	if (unit == s || errno)
		return error_queue(state->msgs, loc,
				   "\"%s\" is not a number and a unit", s);
	/* nft scans "10m" of "10mbytes" as a time (ten minutes), then
	   refuses the rest: it takes "10 mbytes" only */
	if (bytes && !strncmp(unit, "mbytes", 6))
		return error_queue(state->msgs, loc,
				   "\"%s\" needs a space before its unit, as nft reads \"%.*s\" as a time: %llu mbytes",
				   s, (int)(unit - s + 1), s, (unsigned long long)*res);
	if (bytes ? stmt_bytes_unit(unit, &mult) < 0 : strcmp(unit, "packets"))
		return error_queue(state->msgs, loc,
				   "wrong unit \"%s\": %s expected", unit,
				   bytes ? "bytes, kbytes or mbytes" : "packets");
	*res *= mult;
	return 0;
}

static int family_of(struct parser_state *state, const char *name,
		     const struct location *loc)
{
	int f = family_lookup(name);
	struct suggest sg;

	if (f < 0)
		return error_queue(state->msgs, loc,
				   "unknown address family \"%s\"%s", name,
				   suggest_family(&sg, name));
	return f;
}
%}

%define api.pure full
%define parse.error custom
%define parse.lac full
%define parse.trace
%locations
%define api.location.type {struct location}
%parse-param { void *scanner } { struct parser_state *state }
%lex-param { scanner }
%expect 0
%initial-action { @$.indesc = NULL; @$.first_line = @$.last_line = 1; @$.first_col = @$.last_col = 1; @$.line_offset = 0; }

%code {
int yylex(YYSTYPE *lval, YYLTYPE *lloc, void *scanner);

/* what the parser's sink takes (see struct parser_sink) */
static struct cmd *sink_cmd(struct parser_state *state, struct cmd *cmd)
{
	return state->sink ? state->sink->cmd(state, cmd) : cmd;
}

static bool sink_rule(struct parser_state *state, struct chain *c,
		      struct rule *r)
{
	return state->sink && state->sink->rule(state, c, r);
}

static bool sink_elem(struct parser_state *state, struct set *s,
		      struct expr *e)
{
	return state->sink && state->sink->elem(state, s, e);
}

static bool sink_elems_var(struct parser_state *state, struct set *s,
			   struct expr *e)
{
	return state->sink && state->sink->elems_var(state, s, e);
}
}

%union {
	uint64_t		val;
	char			*string;
	struct expr		*expr;
	struct stmt		*stmt;
	struct list_head	*list;
	struct cmd		*cmd;
	struct table		*table;
	struct chain		*chain;
	struct rule		*rule;
	struct set		*set;
	struct obj		*obj;
	struct flowtable	*flowtable;
	struct handle		*handle;	/* a pointer: values are copied on
						   every shift and reduction */
	int			num;
}

%token END 0		"end of file"
%token JUNK		"junk"
%token UNTERMINATED	"unterminated string"
%token NEWLINE		"newline"
%token SEMICOLON	"semicolon"
%token COLON		"colon"
%token COMMA		"comma"
%token DOT		"."
%token DASH		"-"
%token PLUS		"+"
%token SLASH		"/"
%token ASTERISK		"*"
%token AMPERSAND	"&"
%token CARET		"^"
%token EQ		"=="
%token NEQ		"!="
%token LT		"<"
%token GT		">"
%token LTE		"<="
%token GTE		">="
%token LSHIFT		"<<"
%token RSHIFT		">>"
%token NOT		"!"

%token <val> NUMBER	"number"
%token <string> BADNUMBER	"number out of range"
%token <string> STRING	"string"
%token <string> QUOTED_STRING	"quoted string"
%token <string> VARIABLE	"variable"
%token <string> SETREF	"set reference"
%token <string> HDR	"protocol"
%token ADDR_PORT	"addr . port"
%token <string> METAKEY	"meta key"

%token <string> ACCEPT "accept" ADD "add" OVER "over" BRIDGE "bridge"
%token <string> BURST "burst" BYTES "bytes" CHAIN "chain" CHAINS "chains"
%token <string> COMMENT "comment" CONTINUE "continue" COUNTER "counter"
%token <string> COUNTERS "counters" CREATE "create" CT "ct" DEFINE "define"
%token <string> DESCRIBE "describe"
%token <string> GET "get"
%token <string> DELETE "delete" DESTROY "destroy" DEVICE "device"
%token <string> DEVICES "devices" DROP "drop" DNAT "dnat" DUP "dup"
%token <string> FLAGS "flags" FLUSH "flush" FWD "fwd" GOTO "goto"
%token <string> GROUP "group" HANDLE "handle" HOOK "hook" HOOKS "hooks"
%token <string> INCLUDE "include" INDEX "index" INET "inet" INSERT "insert"
%token <string> JUMP "jump" LEVEL "level" LIMIT "limit" LIST "list" LOG "log"
%token <string> MASQUERADE "masquerade" META "meta" NETDEV "netdev"
%token <string> NOTRACK "notrack" PACKETS "packets" POLICY "policy"
%token <string> POSITION "position" PREFIX "prefix" PRIORITY "priority"
%token <string> QUEUE_THRESHOLD "queue-threshold" QUOTA "quota" RATE "rate"
%token <string> REDEFINE "redefine" REDIRECT "redirect" REJECT_T "reject"
%token <string> RENAME "rename" REPLACE "replace" RESET "reset" RETURN "return" RULE "rule"
%token <string> RULESET "ruleset" SET "set" SNAPLEN "snaplen" SNAT "snat"
%token <string> TABLE "table" TABLES "tables" TO "to" TYPE "type"
%token <string> ORIGINAL "original" REPLY "reply"
%token <string> UNDEFINE "undefine" UNTIL "until" USED "used" WITH "with"
%token <string> MAP "map" VMAP "vmap" MAPS "maps" SETS "sets"
%token <string> ELEMENT "element" ELEMENTS "elements" TYPEOF "typeof"
%token <string> TIMEOUT "timeout" GC_INTERVAL "gc-interval" SIZE "size"
%token <string> EXPECTATION "expectation"
%token <string> SYNPROXY "synproxy" SYNPROXYS "synproxys"
%token <string> SECMARK "secmark" SECMARKS "secmarks"
%token <string> AUTO_MERGE "auto-merge" UPDATE "update" EXPIRES "expires"
%token <string> METER "meter"
%token <string> SADDR "saddr" DADDR "daddr"
%token <string> OPTION "option" EXTHDR "exthdr" CHUNK "chunk"
%token <string> EXISTS "exists" MISSING "missing" TPROXY "tproxy"
%token <string> EXTHDR_NAME "extension header"
%token <string> FIB "fib" RT "rt" SOCKET "socket" OSF "osf" NUMGEN "numgen"
%token <string> JHASH "jhash" SYMHASH "symhash" MOD "mod" SEED "seed"
%token <string> OFFSET "offset"
%token <string> IPSEC "ipsec" SPNUM "spnum"
%token <string> LAST "last"
%token <string> QUEUE "queue" QNUM "num" BYPASS "bypass" FANOUT "fanout"
%token <string> FLOW "flow" FLOWTABLE "flowtable" FLOWTABLES "flowtables"
%type <stmt> flow_stmt
%type <flowtable> flowtable_block flowtable_block_alloc
%type <stmt> queue_stmt queue_args
%type <expr> queue_num queue_expr
%type <num> queue_flags queue_flag
%type <stmt> last_stmt
%type <expr> ipsec_expr
%type <string> ipsec_spnum ipsec_addr
%token <string> NAME "name" QUOTAS "quotas" LIMITS "limits" COUNT "count"

%type <string> identifier keyword_identifier string word field_word keyword_word chain_name reject_proto ct_dir hooks_device
%type <num> family_spec family
%type <handle> table_spec chain_spec rule_spec set_spec obj_spec objs_spec
%type <cmd> base_cmd add_cmd create_cmd insert_cmd replace_cmd delete_cmd
%type <cmd> list_cmd flush_cmd reset_cmd get_cmd
%type <table> table_block table_block_alloc
%type <chain> chain_block chain_block_alloc binding_rules
%type <string> rules_word
%type <stmt> binding_stmt
%type <val> binding_open
%type <rule> rule stmt_list
%type <stmt> stmt match_stmt verdict_stmt counter_stmt limit_stmt quota_stmt
%type <stmt> log_stmt log_args reject_stmt meta_stmt payload_stmt ct_stmt
%type <stmt> fwd_stmt dup_stmt nat_stmt nat_stmt_args nat_addr notrack_stmt
%type <stmt> set_elem_stmt
%type <stmt> vmap_stmt set_stmt meter_stmt set_stmt_key exthdr_stmt tproxy_stmt optstrip_stmt
%type <stmt> limit_spec quota_spec objref_stmt connlimit_stmt elem_own_stmt
%type <expr> exthdr_expr exthdr_presence
%type <string> exthdr_field
%type <obj> obj_block_alloc counter_block quota_block limit_block ct_helper_block
%type <obj> synproxy_block secmark_block
%type <stmt> synproxy_stmt synproxy_alloc
%type <num> ct_l3_word
%type <num> ct_obj_type ct_objs_type map_obj_type map_obj_kw map_ct_obj_kw typeof_obj_kw
%type <num> nat_type
%type <set> set_block set_block_alloc
%type <expr> concat_expr basic_expr concat_rhs_expr map_expr rhs_map set_block_expr
%type <expr> set_elem_key set_rhs type_list typeof_list typeof_data mask_list mask_elem
%type <string> time_unit
%type <val> time_spec elem_time_spec limit_rate_bytes limit_burst_pkts limit_burst_bytes
%type <num> set_stmt_op
%type <expr> expr primary_expr selector_expr payload_expr meta_expr ct_expr
%type <expr> rhs_expr basic_rhs_expr primary_rhs_expr list_rhs_expr
%type <expr> set_expr set_list set_elem rhs_or_expr rhs_and_expr rhs_xor_expr
%type <expr> define_value set_key_expr set_key_part
%type <expr> or_expr xor_expr and_expr shift_expr
%type <expr> stmt_concat_expr stmt_or_expr stmt_xor_expr stmt_and_expr
%type <expr> stmt_shift_expr stmt_primary_expr
%type <expr> reject_code symbol_value prio_expr dev_list dev_expr relational_expr
%type <expr> verdict_expr stmt_value
%type <expr> hdr_field_expr
%type <expr> fib_expr rt_expr socket_expr osf_expr numgen_expr hash_expr
%type <string> osf_key type_word
%type <num> fib_flags fib_flag
%type <string> fib_result
%type <val> numgen_offset set_stmt_timeout
%type <num> relop limit_over quota_mode
%type <val> nat_flags nat_flag log_flags log_tcp_flags log_tcp_flag

%destructor { free($$); } <string>
%destructor { expr_free($$); } <expr>
%destructor { stmt_free($$); } <stmt>
%destructor { rule_free($$); } <rule>
%destructor { cmd_free($$); } <cmd>
%destructor { handle_free($$); free($$); } <handle>
/* a '{' dropped by error recovery: see in_lost_block() */
%destructor {
	bool first;

	if (state->lost_inner)
		state->lost_inner--;
	if (state->lost_braces < LOST_INDENTS)
		state->lost_indent[state->lost_braces] =
			scanner_line_indent(&@$, &first);
	state->lost_braces++;
	state->lost_seen = true;
} '{'

/* "dup to ip device lo": no header has a field "device"; ip is the value */
%precedence DEVICE
%precedence HDR_SYM
%precedence STRING HDR
%nonassoc MASK_LIST
%left COMMA
%left '|'
%left CARET
%left AMPERSAND
%left LSHIFT RSHIFT

%start input

%%

input			:	%empty
			|	input line
			;

stmt_separator		:	NEWLINE
			{
				state->block_closed = false;
				state->recovering = false;
				sep_mark(state);
			}
			|	SEMICOLON
			{
				state->block_closed = false;
				state->recovering = false;
				sep_mark(state);
			}
			;

/*
 * The end of a chain, set or object block in a table: nft wants a newline
 * or ';' after it, so "table t { chain c { } }" on one line is refused as
 * nft refuses it, with a hint (yyerror)
 */
block_close		:	'}'	{ state->block_closed = true; }
			;

/*
 * "} chain d {" lacks the separator: the error is told (yyerror), and
 * reading goes on as if it were there, the block closed ("} }" closes
 * the table too)
 */
block_end		:	block_close stmt_separator
			|	block_close error
			;

opt_newlines		:	%empty
			|	opt_newlines NEWLINE
			;

line			:	common_block
			|	stmt_separator
			|	base_cmd stmt_separator
			{
				if ($1 && $1->obj == CMD_OBJ_RULE && $1->rule &&
				    rule_had_errors(state))
					cmd_free($1);
				else if ($1)
					add_cmd(state, $1);
			}
			|	base_cmd END
			{
				if ($1 && $1->obj == CMD_OBJ_RULE && $1->rule &&
				    rule_had_errors_at_end(state))
					cmd_free($1);
				else if ($1)
					add_cmd(state, $1);
				YYACCEPT;
			}
			|	error stmt_separator
			{
				yyerrok;
				bindings_drop(state);
				parser_lost(state, &@1, &@2);
			}
			;

common_block		:	INCLUDE QUOTED_STRING stmt_separator
			{
				scanner_include(scanner, $2, &@2);
				free($1); free($2);
			}
			|	DEFINE identifier '=' define_value stmt_separator
			{
				parser_define(state, $2, $4, &@2);
				free($1); free($2);
			}
			|	REDEFINE identifier '=' define_value stmt_separator
			{
				parser_redefine(state, $2, $4, &@2);
				free($1); free($2);
			}
			|	DEFINE identifier '=' list_rhs_expr stmt_separator
			{
				/* "define s = established, related": flags */
				parser_define(state, $2, $4, &@2);
				free($1); free($2);
			}
			|	REDEFINE identifier '=' list_rhs_expr stmt_separator
			{
				parser_redefine(state, $2, $4, &@2);
				free($1); free($2);
			}
			|	DEFINE identifier '=' DASH NUMBER stmt_separator
			{
				parser_define(state, $2, neg_define_value(state, &@4, &@5, $5), &@2);
				free($1); free($2);
			}
			|	REDEFINE identifier '=' DASH NUMBER stmt_separator
			{
				parser_redefine(state, $2, neg_define_value(state, &@4, &@5, $5), &@2);
				free($1); free($2);
			}
			|	UNDEFINE identifier stmt_separator
			{
				parser_undefine(state, $2, &@2);
				free($1); free($2);
			}
			;

/* as nft: a variable may hold an empty set (OpenWrt's fw4 writes one for
   a zone without subnets), which merges into a set as nothing */
define_value		:	rhs_expr
			|	'{' opt_newlines '}'
			{
				$$ = compound_expr_alloc(&@$, EXPR_SET);
				state->stream_deps++;
			}
			;

base_cmd		:	add_cmd			{ $$ = sink_cmd(state, $1); }
			|	ADD add_cmd		{ $$ = sink_cmd(state, $2); free($1); }
			|	CREATE create_cmd	{ $$ = $2; free($1); }
			|	INSERT insert_cmd	{ $$ = $2; free($1); }
			|	REPLACE replace_cmd	{ $$ = $2; free($1); }
			|	DELETE delete_cmd	{ $$ = $2; $$->op = CMD_DELETE; free($1); }
			|	DESTROY delete_cmd	{ $$ = $2; $$->op = CMD_DESTROY; free($1); }
			|	RENAME CHAIN chain_spec identifier
			{
				struct chain *c = chain_alloc();

				c->h.chain = $4;
				c->h.chain_loc = @4;
				c->loc = @4;
				$$ = hcmd(CMD_RENAME, CMD_OBJ_CHAIN, $3, &@$, c);
				free($1); free($2);
			}
			|	LIST list_cmd		{ $$ = $2; free($1); }
			|	FLUSH flush_cmd		{ $$ = $2; free($1); }
			|	RESET reset_cmd		{ $$ = $2; free($1); }
			|	GET get_cmd		{ $$ = $2; free($1); }
			|	DESCRIBE primary_expr
			{
				$$ = cmd_alloc(CMD_DESCRIBE, CMD_OBJ_EXPR, NULL, &@$, $2);
				free($1);
			}
			|	DESCRIBE STRING
			{
				/* a datatype's name ("describe ipv4_addr"), or a
				   word nft takes as a value it cannot type */
				$$ = cmd_alloc(CMD_DESCRIBE, CMD_OBJ_EXPR, NULL, &@$,
					       symbol_expr_alloc(&@2, $2, false));
				free($1); free($2);
			}
			;

add_cmd			:	TABLE table_spec
			{
				$$ = hcmd(CMD_ADD, CMD_OBJ_TABLE, $2, &@$, NULL);
				free($1);
			}
			|	TABLE table_spec table_block_alloc '{' table_block '}'
			{
				handle_copy(&$5->h, $2);
				$5->loc = @2;
				$$ = hcmd(CMD_ADD, CMD_OBJ_TABLE, $2, &@$, $5);
				state->cur_table = NULL;
				state->stream_table = NULL;
				free($1);
			}
			|	CHAIN chain_spec
			{
				state->ctx->chain_id++;	/* nft counts it */
				$$ = hcmd(CMD_ADD, CMD_OBJ_CHAIN, $2, &@$, NULL);
				free($1);
			}
			|	CHAIN chain_spec chain_block_alloc '{' chain_block '}'
			{
				handle_copy(&$5->h, $2);
				$5->loc = @2;
				$$ = hcmd(CMD_ADD, CMD_OBJ_CHAIN, $2, &@$, $5);
				state->cur_chain = NULL;
				free($1);
			}
			|	RULE rule_spec rule
			{
				$3->loc = @3;
				$$ = hcmd(CMD_ADD, CMD_OBJ_RULE, $2, &@$, $3);
				free($1);
			}
			|	SET set_spec set_block_alloc '{' set_block '}'
			{
				$$ = set_cmd(state, CMD_ADD, CMD_OBJ_SET, $2, &@$, $5);
				free($1);
			}
			|	MAP set_spec set_block_alloc '{' set_block '}'
			{
				$$ = set_cmd(state, CMD_ADD, CMD_OBJ_MAP, $2, &@$, $5);
				free($1);
			}
			|	ELEMENT set_spec set_block_expr
			{
				$$ = hcmd(CMD_ADD, CMD_OBJ_ELEMENTS, $2, &@$, $3);
				free($1);
			}
			|	FLOWTABLE obj_spec flowtable_block_alloc '{' flowtable_block '}'
			{
				handle_copy(&$5->h, $2);
				$5->loc = $2->obj_loc;
				$5->read_errors = state->msgs->prev != state->obj_mark;
				state->cur_flowtable = NULL;
				$$ = hcmd(CMD_ADD, CMD_OBJ_FLOWTABLE, $2, &@$, $5);
				free($1);
			}
			|	COUNTER obj_spec
			{
				struct obj *o = obj_alloc(NULL, 0);

				o->stmt = counter_stmt_alloc(&@$, 0, 0);
				$$ = obj_cmd(state, CMD_ADD, CMD_OBJ_OBJ, NFT_OBJECT_COUNTER,
					     $2, &@$, o);
				free($1);
			}
			|	COUNTER obj_spec obj_block_alloc '{' counter_block '}'
			{
				$$ = obj_cmd(state, CMD_ADD, CMD_OBJ_OBJ, NFT_OBJECT_COUNTER,
					     $2, &@$, $5);
				free($1);
			}
			|	QUOTA obj_spec obj_block_alloc '{' quota_block '}'
			{
				$$ = obj_cmd(state, CMD_ADD, CMD_OBJ_OBJ, NFT_OBJECT_QUOTA,
					     $2, &@$, $5);
				free($1);
			}
			|	LIMIT obj_spec obj_block_alloc '{' limit_block '}'
			{
				$$ = obj_cmd(state, CMD_ADD, CMD_OBJ_OBJ, NFT_OBJECT_LIMIT,
					     $2, &@$, $5);
				free($1);
			}
			|	SYNPROXY obj_spec obj_block_alloc '{' synproxy_block '}'
			{
				$$ = obj_cmd(state, CMD_ADD, CMD_OBJ_OBJ, NFT_OBJECT_SYNPROXY,
					     $2, &@$, $5);
				free($1);
			}
			|	SECMARK obj_spec obj_block_alloc '{' secmark_block '}'
			{
				$$ = obj_cmd(state, CMD_ADD, CMD_OBJ_OBJ, NFT_OBJECT_SECMARK,
					     $2, &@$, $5);
				free($1);
			}
			|	SECMARK obj_spec obj_block_alloc string
			{
				/* "add secmark t s \"ctx\"": the context without a block */
				secmark_ctx(state->cur_obj, $4, &@4);
				$$ = obj_cmd(state, CMD_ADD, CMD_OBJ_OBJ, NFT_OBJECT_SECMARK,
					     $2, &@$, $3);
				free($1);
			}
			|	CT ct_obj_type obj_spec obj_block_alloc '{' ct_helper_block '}'
			{
				$$ = obj_cmd(state, CMD_ADD, CMD_OBJ_OBJ, $2, $3, &@$, $6);
				quiet_end(state);
				free($1);
			}
			;

ct_obj_type		:	STRING
			{
				$$ = ct_obj_of(state, $1, &@1, false);
				free($1);
				if ($$ < 0)
					YYERROR;
			}
			|	TIMEOUT
			{
				$$ = ct_obj_of(state, $1, &@1, false);
				free($1);
			}
			|	EXPECTATION
			{
				$$ = ct_obj_of(state, $1, &@1, false);
				free($1);
			}
			;

ct_objs_type		:	STRING
			{
				$$ = ct_obj_of(state, $1, &@1, true);
				free($1);
				if ($$ < 0)
					YYERROR;
			}
			;

obj_spec		:	table_spec identifier
			{
				$$ = $1;
				$$->obj = $2;
				$$->obj_loc = @2;
			}
			;

objs_spec		:	family_spec
			{
				$$ = xzalloc(sizeof(*$$));
				$$->family = $1;
			}
			|	TABLE table_spec	{ $$ = $2; free($1); }
			|	family identifier
			{
				/* nft 1.1: "list counters inet t", without
				   "table" */
				$$ = xzalloc(sizeof(*$$));
				$$->family = $1;
				$$->family_loc = @1;
				$$->table = $2;
				$$->table_loc = @2;
			}
			;

obj_block_alloc		:	%empty
			{
				/* one a syntax error abandoned is freed here */
				obj_free(state->cur_obj);
				$$ = obj_alloc(NULL, 0);
				state->cur_obj = $$;
				state->obj_mark = state->msgs->prev;
				state->quiet = state->refused_obj;
				state->quiet_mark = state->msgs->prev;
				state->refused_obj = false;
			}
			;

counter_block		:	%empty
			{
				$$ = state->cur_obj;
				$$->stmt = counter_stmt_alloc(&@$, 0, 0);
			}
			|	counter_block stmt_separator
			|	counter_block error stmt_separator	{ yyerrok; }
			|	counter_block PACKETS NUMBER BYTES NUMBER
			{
				$$ = $1;
				$1->stmt->counter.packets = $3;
				$1->stmt->counter.bytes = $5;
				free($2); free($4);
			}
			|	counter_block COMMENT string
			{
				$$ = $1;
				free($1->comment);
				$1->comment = comment_of(state, $3, &@3);
				free($2);
			}
			;

quota_block		:	%empty		{ $$ = state->cur_obj; }
			|	quota_block stmt_separator
			|	quota_block error stmt_separator	{ yyerrok; }
			|	quota_block quota_spec
			{
				$$ = $1;
				stmt_free($1->stmt);
				$1->stmt = $2;
			}
			|	quota_block COMMENT string
			{
				$$ = $1;
				free($1->comment);
				$1->comment = comment_of(state, $3, &@3);
				free($2);
			}
			;

limit_block		:	%empty		{ $$ = state->cur_obj; }
			|	limit_block stmt_separator
			|	limit_block error stmt_separator	{ yyerrok; }
			|	limit_block limit_spec
			{
				$$ = $1;
				stmt_free($1->stmt);
				$1->stmt = $2;
			}
			|	limit_block COMMENT string
			{
				$$ = $1;
				free($1->comment);
				$1->comment = comment_of(state, $3, &@3);
				free($2);
			}
			;

ct_helper_block		:	%empty		{ $$ = state->cur_obj; }
			|	ct_helper_block stmt_separator
			|	ct_helper_block error stmt_separator	{ yyerrok; }
			|	ct_helper_block TYPE QUOTED_STRING STRING HDR
			{
				$$ = $1;
				if (strcmp($4, "protocol"))
					error_queue(state->msgs, &@4,
						    "expected \"protocol\", not \"%s\"", $4);
				free($1->helper.name);
				$1->helper.name = $3;
				$1->helper.name_loc = @3;
				$1->helper.l4proto = l4_number($5);
				$1->helper.l4_loc = @5;
				if (!$1->helper.l4proto)
					error_queue(state->msgs, &@5,
						    "unknown layer 4 protocol \"%s\"", $5);
				free($2); free($4); free($5);
			}
			|	ct_helper_block STRING HDR
			{
				/* "l3proto ip" or a ct timeout's "protocol tcp" */
				$$ = $1;
				if (!strcmp($2, "protocol")) {
					$1->timeout.l4_given = true;
					$1->helper.l4proto = l4_number($3);
					$1->helper.l4_loc = @3;
					if (!$1->helper.l4proto)
						error_queue(state->msgs, &@3,
							    "unknown layer 4 protocol \"%s\"", $3);
				} else if (!strcmp($2, "l3proto")) {
					int f = family_of(state, $3, &@3);

					$1->helper.l3proto = f < 0 ? 0 : f;
					$1->helper.l3_loc = @3;
				} else {
					error_queue(state->msgs, &@2,
						    "unexpected \"%s\", expected \"l3proto\"", $2);
				}
				free($2); free($3);
			}
			|	ct_helper_block STRING ct_l3_word
			{
				$$ = $1;
				if (strcmp($2, "l3proto"))
					error_queue(state->msgs, &@2,
						    "unexpected \"%s\", expected \"l3proto\"", $2);
				$1->helper.l3proto = $3;
				$1->helper.l3_loc = @3;
				free($2);
			}
			|	ct_helper_block STRING NUMBER
			{
				/* a ct expectation's "dport 22" */
				$$ = $1;
				if (strcmp($2, "dport")) {
					error_queue(state->msgs, &@2,
						    "unexpected \"%s\", expected \"dport\"", $2);
				} else {
					$1->expect.dport = $3;
					$1->expect.dport_loc = @3;
					$1->expect.given |= OBJ_EXPECT_DPORT;
				}
				free($2);
			}
			|	ct_helper_block TIMEOUT time_spec
			{
				$$ = $1;
				$1->expect.timeout = $3;
				$1->expect.timeout_loc = @3;
				$1->expect.given |= OBJ_EXPECT_TIMEOUT;
				free($2);
			}
			|	ct_helper_block SIZE NUMBER
			{
				$$ = $1;
				$1->expect.size = $3;
				$1->expect.size_loc = @3;
				$1->expect.given |= OBJ_EXPECT_SIZE;
				free($2);
			}
			|	ct_helper_block POLICY '=' '{' ct_policy_list '}'
			{
				$$ = $1;
				free($2);
			}
			|	ct_helper_block COMMENT string
			{
				$$ = $1;
				free($1->comment);
				$1->comment = comment_of(state, $3, &@3);
				free($2);
			}
			;

synproxy_block		:	%empty
			{
				$$ = state->cur_obj;
				stmt_free($$->stmt);
				$$->stmt = stmt_alloc(&@$, STMT_SYNPROXY);
				state->cur_synproxy = $$->stmt;
			}
			|	synproxy_block stmt_separator
			|	synproxy_block error stmt_separator	{ yyerrok; }
			|	synproxy_block synproxy_arg
			|	synproxy_block COMMENT string
			{
				$$ = $1;
				free($1->comment);
				$1->comment = comment_of(state, $3, &@3);
				free($2);
			}
			;

/* "mss N", "wscale N", "timestamp", "sack-perm" */
synproxy_arg		:	STRING NUMBER
			{
				struct stmt *s = state->cur_synproxy;

				if (!strcmp($1, "mss") && $2 <= UINT16_MAX) {
					s->synproxy.mss = $2;
					s->synproxy.flags |= NF_SYNPROXY_OPT_MSS;
				} else if (!strcmp($1, "wscale") && $2 <= UINT8_MAX) {
					s->synproxy.wscale = $2;
					s->synproxy.flags |= NF_SYNPROXY_OPT_WSCALE;
				} else if (!strcmp($1, "mss") || !strcmp($1, "wscale")) {
					error_queue(state->msgs, &@2, "%s %llu is out of range",
						    $1, (unsigned long long)$2);
					state->nerrs++;
				} else {
					error_queue(state->msgs, &@1,
						    "unexpected \"%s\", expected \"mss\" or \"wscale\"", $1);
					state->nerrs++;
				}
				free($1);
			}
			|	STRING
			{
				struct stmt *s = state->cur_synproxy;

				if (!strcmp($1, "timestamp")) {
					s->synproxy.flags |= NF_SYNPROXY_OPT_TIMESTAMP;
				} else if (!strcmp($1, "sack-perm")) {
					s->synproxy.flags |= NF_SYNPROXY_OPT_SACK_PERM;
				} else {
					error_queue(state->msgs, &@1,
						    "unexpected \"%s\", expected \"timestamp\" or \"sack-perm\"", $1);
					state->nerrs++;
				}
				free($1);
			}
			;

synproxy_alloc		:	SYNPROXY
			{
				$$ = stmt_alloc(&@$, STMT_SYNPROXY);
				state->cur_synproxy = $$;
				free($1);
			}
			;

synproxy_stmt		:	synproxy_alloc synproxy_args
			{
				$$ = $1;
				$$->loc = @$;
			}
			;

synproxy_args		:	%empty
			|	synproxy_args synproxy_arg
			;

/* secmark NAME { "user:role:type:level" }: the security context */
secmark_block		:	%empty		{ $$ = state->cur_obj; }
			|	secmark_block stmt_separator
			|	secmark_block error stmt_separator	{ yyerrok; }
			|	secmark_block string
			{
				$$ = $1;
				secmark_ctx($1, $2, &@2);
			}
			|	secmark_block COMMENT string
			{
				$$ = $1;
				free($1->comment);
				$1->comment = comment_of(state, $3, &@3);
				free($2);
			}
			;

ct_l3_word		:	INET	{ $$ = NFPROTO_INET; free($1); }
			|	BRIDGE	{ $$ = NFPROTO_BRIDGE; free($1); }
			|	NETDEV	{ $$ = NFPROTO_NETDEV; free($1); }
			;

ct_policy_list		:	ct_policy_item
			|	ct_policy_list COMMA ct_policy_item
			;

ct_policy_item		:	STRING COLON NUMBER
			{
				policy_add(state->cur_obj, $1, &@1, $3);
			}
			/* nft 1.1: a time with units (2m, 1h30m), kept in whole
			   seconds as the kernel keeps it (100ms is 0) */
			|	STRING COLON STRING
			{
				uint64_t ms;

				if (time_of(state, $3, &@3, &ms) < 0)
					ms = 0;
				policy_add(state->cur_obj, $1, &@1, ms / 1000);
				free($3);
			}
			;

create_cmd		:	add_cmd		{ $$ = $1; $$->op = CMD_CREATE; }
			;

insert_cmd		:	RULE rule_spec rule
			{
				$3->loc = @3;
				$$ = hcmd(CMD_INSERT, CMD_OBJ_RULE, $2, &@$, $3);
				free($1);
			}
			;

replace_cmd		:	RULE rule_spec rule
			{
				$3->loc = @3;
				$$ = hcmd(CMD_REPLACE, CMD_OBJ_RULE, $2, &@$, $3);
				free($1);
			}
			;

delete_cmd		:	TABLE table_spec
			{
				$$ = hcmd(CMD_DELETE, CMD_OBJ_TABLE, $2, &@$, NULL);
				free($1);
			}
			|	FLOWTABLE obj_spec
			{
				$$ = hcmd(CMD_DELETE, CMD_OBJ_FLOWTABLE, $2, &@$, NULL);
				free($1);
			}
			/* devices taken out of a flowtable that stays (nft 1.0.6);
			   a block without devices deletes it, as nft sends it */
			|	FLOWTABLE obj_spec flowtable_block_alloc '{' flowtable_block '}'
			{
				handle_copy(&$5->h, $2);
				$5->loc = $2->obj_loc;
				$5->read_errors = state->msgs->prev != state->obj_mark;
				state->cur_flowtable = NULL;
				$$ = hcmd(CMD_DELETE, CMD_OBJ_FLOWTABLE, $2, &@$, $5);
				free($1);
			}
			|	FLOWTABLE table_spec HANDLE NUMBER
			{
				$2->handle = $4;
				$2->handle_loc = @4;
				$$ = hcmd(CMD_DELETE, CMD_OBJ_FLOWTABLE, $2, &@$, NULL);
				free($1); free($3);
			}
			|	TABLE family_spec HANDLE NUMBER
			{
				struct handle h = { .family = $2, .handle = $4, .handle_loc = @4 };

				$$ = cmd_alloc(CMD_DELETE, CMD_OBJ_TABLE, &h, &@$, NULL);
				free($1); free($3);
			}
			|	CHAIN chain_spec
			{
				$$ = hcmd(CMD_DELETE, CMD_OBJ_CHAIN, $2, &@$, NULL);
				free($1);
			}
			|	CHAIN chain_spec chain_block_alloc '{' chain_block '}'
			{
				handle_copy(&$5->h, $2);
				$5->loc = @2;
				$$ = hcmd(CMD_DELETE, CMD_OBJ_CHAIN, $2, &@$, $5);
				state->cur_chain = NULL;
				free($1);
			}
			|	CHAIN table_spec HANDLE NUMBER
			{
				$2->handle = $4;
				$2->handle_loc = @4;
				$$ = hcmd(CMD_DELETE, CMD_OBJ_CHAIN, $2, &@$, NULL);
				free($1); free($3);
			}
			|	RULE rule_spec
			{
				$$ = hcmd(CMD_DELETE, CMD_OBJ_RULE, $2, &@$, NULL);
				free($1);
			}
			|	SET set_spec
			{
				$$ = hcmd(CMD_DELETE, CMD_OBJ_SET, $2, &@$, NULL);
				free($1);
			}
			|	SET table_spec HANDLE NUMBER
			{
				$2->handle = $4;
				$2->handle_loc = @4;
				$$ = hcmd(CMD_DELETE, CMD_OBJ_SET, $2, &@$, NULL);
				free($1); free($3);
			}
			|	MAP set_spec
			{
				$$ = hcmd(CMD_DELETE, CMD_OBJ_MAP, $2, &@$, NULL);
				free($1);
			}
			|	ELEMENT set_spec set_block_expr
			{
				$$ = hcmd(CMD_DELETE, CMD_OBJ_ELEMENTS, $2, &@$, $3);
				free($1);
			}
			|	COUNTER obj_spec
			{
				$$ = obj_cmd(state, CMD_DELETE, CMD_OBJ_OBJ, NFT_OBJECT_COUNTER, $2, &@$, NULL);
				free($1);
			}
			|	COUNTER table_spec HANDLE NUMBER
			{
				$2->handle = $4;
				$2->handle_loc = @4;
				$$ = obj_cmd(state, CMD_DELETE, CMD_OBJ_OBJ, NFT_OBJECT_COUNTER, $2, &@$, NULL);
				free($1); free($3);
			}
			|	QUOTA obj_spec
			{
				$$ = obj_cmd(state, CMD_DELETE, CMD_OBJ_OBJ, NFT_OBJECT_QUOTA, $2, &@$, NULL);
				free($1);
			}
			|	QUOTA table_spec HANDLE NUMBER
			{
				$2->handle = $4;
				$2->handle_loc = @4;
				$$ = obj_cmd(state, CMD_DELETE, CMD_OBJ_OBJ, NFT_OBJECT_QUOTA, $2, &@$, NULL);
				free($1); free($3);
			}
			|	LIMIT obj_spec
			{
				$$ = obj_cmd(state, CMD_DELETE, CMD_OBJ_OBJ, NFT_OBJECT_LIMIT, $2, &@$, NULL);
				free($1);
			}
			|	LIMIT table_spec HANDLE NUMBER
			{
				$2->handle = $4;
				$2->handle_loc = @4;
				$$ = obj_cmd(state, CMD_DELETE, CMD_OBJ_OBJ, NFT_OBJECT_LIMIT, $2, &@$, NULL);
				free($1); free($3);
			}
			|	SYNPROXY obj_spec
			{
				$$ = obj_cmd(state, CMD_DELETE, CMD_OBJ_OBJ, NFT_OBJECT_SYNPROXY, $2, &@$, NULL);
				free($1);
			}
			|	SYNPROXY table_spec HANDLE NUMBER
			{
				$2->handle = $4;
				$2->handle_loc = @4;
				$$ = obj_cmd(state, CMD_DELETE, CMD_OBJ_OBJ, NFT_OBJECT_SYNPROXY, $2, &@$, NULL);
				free($1); free($3);
			}
			|	SECMARK obj_spec
			{
				$$ = obj_cmd(state, CMD_DELETE, CMD_OBJ_OBJ, NFT_OBJECT_SECMARK, $2, &@$, NULL);
				free($1);
			}
			|	SECMARK table_spec HANDLE NUMBER
			{
				$2->handle = $4;
				$2->handle_loc = @4;
				$$ = obj_cmd(state, CMD_DELETE, CMD_OBJ_OBJ, NFT_OBJECT_SECMARK, $2, &@$, NULL);
				free($1); free($3);
			}
			|	CT ct_obj_type obj_spec
			{
				$$ = obj_cmd(state, CMD_DELETE, CMD_OBJ_OBJ, $2, $3, &@$, NULL);
				state->refused_obj = false;
				free($1);
			}
			|	CT ct_obj_type table_spec HANDLE NUMBER
			{
				$3->handle = $5;
				$3->handle_loc = @5;
				$$ = obj_cmd(state, CMD_DELETE, CMD_OBJ_OBJ, $2, $3, &@$, NULL);
				state->refused_obj = false;
				free($1); free($4);
			}
			;

list_cmd		:	HOOKS family_spec hooks_device
			{
				struct handle h = { .family = $2 };

				$$ = cmd_alloc(CMD_LIST, CMD_OBJ_HOOKS, &h, &@$, $3);
				$$->family_given = $2 != NFPROTO_UNSPEC;
				free($1);
			}
			|	RULESET family_spec
			{
				struct handle h = { .family = $2 };

				$$ = cmd_alloc(CMD_LIST, CMD_OBJ_RULESET, &h, &@$, NULL);
				$$->family_given = $2 != NFPROTO_UNSPEC;
				free($1);
			}
			|	FLOWTABLES family_spec
			{
				struct handle h = { .family = $2 };

				$$ = cmd_alloc(CMD_LIST, CMD_OBJ_FLOWTABLES, &h, &@$, NULL);
				$$->family_given = $2 != NFPROTO_UNSPEC;
				free($1);
			}
			|	FLOWTABLE obj_spec
			{
				$$ = hcmd(CMD_LIST, CMD_OBJ_FLOWTABLE, $2, &@$, NULL);
				free($1);
			}
			|	TABLES family_spec
			{
				struct handle h = { .family = $2 };

				$$ = cmd_alloc(CMD_LIST, CMD_OBJ_TABLES, &h, &@$, NULL);
				$$->family_given = $2 != NFPROTO_UNSPEC;
				free($1);
			}
			|	TABLE table_spec
			{
				$$ = hcmd(CMD_LIST, CMD_OBJ_TABLE, $2, &@$, NULL);
				free($1);
			}
			|	CHAINS family_spec
			{
				struct handle h = { .family = $2 };

				$$ = cmd_alloc(CMD_LIST, CMD_OBJ_CHAINS, &h, &@$, NULL);
				$$->family_given = $2 != NFPROTO_UNSPEC;
				free($1);
			}
			|	CHAIN chain_spec
			{
				$$ = hcmd(CMD_LIST, CMD_OBJ_CHAIN, $2, &@$, NULL);
				free($1);
			}
			|	SET set_spec
			{
				$$ = hcmd(CMD_LIST, CMD_OBJ_SET, $2, &@$, NULL);
				free($1);
			}
			|	MAP set_spec
			{
				$$ = hcmd(CMD_LIST, CMD_OBJ_MAP, $2, &@$, NULL);
				free($1);
			}
			|	SETS family_spec
			{
				struct handle h = { .family = $2 };

				$$ = cmd_alloc(CMD_LIST, CMD_OBJ_SETS, &h, &@$, NULL);
				$$->family_given = $2 != NFPROTO_UNSPEC;
				free($1);
			}
			|	STRING family_spec
			{
				/* "meters" is a word only here, as in nft: a table
				   may be called so */
				struct handle h = { .family = $2 };

				if (strcmp($1, "meters")) {
					error_queue(state->msgs, &@1,
						    "syntax error, unexpected string, expecting a chain, set, map or object");
					$$ = NULL;
				} else {
					$$ = cmd_alloc(CMD_LIST, CMD_OBJ_METERS, &h, &@$, NULL);
					$$->family_given = $2 != NFPROTO_UNSPEC;
				}
				free($1);
			}
			|	METER set_spec
			{
				$$ = hcmd(CMD_LIST, CMD_OBJ_METER, $2, &@$, NULL);
				free($1);
			}
			|	MAPS family_spec
			{
				struct handle h = { .family = $2 };

				$$ = cmd_alloc(CMD_LIST, CMD_OBJ_MAPS, &h, &@$, NULL);
				$$->family_given = $2 != NFPROTO_UNSPEC;
				free($1);
			}
			|	COUNTER obj_spec
			{
				$$ = obj_cmd(state, CMD_LIST, CMD_OBJ_OBJ, NFT_OBJECT_COUNTER, $2, &@$, NULL);
				free($1);
			}
			|	QUOTA obj_spec
			{
				$$ = obj_cmd(state, CMD_LIST, CMD_OBJ_OBJ, NFT_OBJECT_QUOTA, $2, &@$, NULL);
				free($1);
			}
			|	LIMIT obj_spec
			{
				$$ = obj_cmd(state, CMD_LIST, CMD_OBJ_OBJ, NFT_OBJECT_LIMIT, $2, &@$, NULL);
				free($1);
			}
			|	SYNPROXY obj_spec
			{
				$$ = obj_cmd(state, CMD_LIST, CMD_OBJ_OBJ, NFT_OBJECT_SYNPROXY, $2, &@$, NULL);
				free($1);
			}
			|	SYNPROXYS objs_spec
			{
				$$ = obj_cmd(state, CMD_LIST, CMD_OBJ_OBJS, NFT_OBJECT_SYNPROXY, $2, &@$, NULL);
				$$->family_given = $$->h.family != NFPROTO_UNSPEC;
				free($1);
			}
			|	SECMARK obj_spec
			{
				$$ = obj_cmd(state, CMD_LIST, CMD_OBJ_OBJ, NFT_OBJECT_SECMARK, $2, &@$, NULL);
				free($1);
			}
			|	SECMARKS objs_spec
			{
				$$ = obj_cmd(state, CMD_LIST, CMD_OBJ_OBJS, NFT_OBJECT_SECMARK, $2, &@$, NULL);
				$$->family_given = $$->h.family != NFPROTO_UNSPEC;
				free($1);
			}
			|	CT ct_obj_type obj_spec
			{
				$$ = obj_cmd(state, CMD_LIST, CMD_OBJ_OBJ, $2, $3, &@$, NULL);
				state->refused_obj = false;
				free($1);
			}
			|	COUNTERS objs_spec
			{
				$$ = obj_cmd(state, CMD_LIST, CMD_OBJ_OBJS, NFT_OBJECT_COUNTER, $2, &@$, NULL);
				$$->family_given = $$->h.family != NFPROTO_UNSPEC;
				free($1);
			}
			|	QUOTAS objs_spec
			{
				$$ = obj_cmd(state, CMD_LIST, CMD_OBJ_OBJS, NFT_OBJECT_QUOTA, $2, &@$, NULL);
				$$->family_given = $$->h.family != NFPROTO_UNSPEC;
				free($1);
			}
			|	LIMITS objs_spec
			{
				$$ = obj_cmd(state, CMD_LIST, CMD_OBJ_OBJS, NFT_OBJECT_LIMIT, $2, &@$, NULL);
				$$->family_given = $$->h.family != NFPROTO_UNSPEC;
				free($1);
			}
			|	CT ct_objs_type TABLE table_spec
			{
				$$ = obj_cmd(state, CMD_LIST, CMD_OBJ_OBJS, $2, $4, &@$, NULL);
				$$->family_given = true;
				free($1); free($3);
			}
			/* nft 1.0.6 takes these and crashes; 1.1.1 lists them */
			|	CT TIMEOUT TABLE table_spec
			{
				$$ = obj_cmd(state, CMD_LIST, CMD_OBJ_OBJS,
					     NFT_OBJECT_CT_TIMEOUT, $4, &@$, NULL);
				$$->family_given = true;
				free($1); free($2); free($3);
			}
			|	CT EXPECTATION TABLE table_spec
			{
				$$ = obj_cmd(state, CMD_LIST, CMD_OBJ_OBJS,
					     NFT_OBJECT_CT_EXPECT, $4, &@$, NULL);
				$$->family_given = true;
				free($1); free($2); free($3);
			}
			|	SETS family identifier
			{
				/* nft 1.1: the sets of the one table */
				struct handle h = { .family = $2, .table = $3,
						    .table_loc = @3 };

				$$ = cmd_alloc(CMD_LIST, CMD_OBJ_SETS, &h, &@$, NULL);
				$$->family_given = true;
				$$->h.table_loc = @3;
				free($1);
			}
			|	MAPS family identifier
			{
				struct handle h = { .family = $2, .table = $3 };

				$$ = cmd_alloc(CMD_LIST, CMD_OBJ_MAPS, &h, &@$, NULL);
				$$->family_given = true;
				$$->h.table_loc = @3;
				free($1);
			}
			|	CHAINS family identifier
			{
				struct handle h = { .family = $2, .table = $3 };

				$$ = cmd_alloc(CMD_LIST, CMD_OBJ_CHAINS, &h, &@$, NULL);
				$$->family_given = true;
				$$->h.table_loc = @3;
				free($1);
			}
			|	SETS TABLE table_spec
			{
				/* nft 1.0.6: the table must exist, then the sets
				   of every table of its family are listed */
				$$ = hcmd(CMD_LIST, CMD_OBJ_SETS, $3, &@$, NULL);
				$$->family_given = true;
				$$->all_family = true;
				free($1); free($2);
			}
			;

flush_cmd		:	RULESET family_spec
			{
				struct handle h = { .family = $2 };

				$$ = cmd_alloc(CMD_FLUSH, CMD_OBJ_RULESET, &h, &@$, NULL);
				$$->family_given = $2 != NFPROTO_UNSPEC;
				free($1);
			}
			|	TABLE table_spec
			{
				$$ = hcmd(CMD_FLUSH, CMD_OBJ_TABLE, $2, &@$, NULL);
				free($1);
			}
			|	CHAIN chain_spec
			{
				$$ = hcmd(CMD_FLUSH, CMD_OBJ_CHAIN, $2, &@$, NULL);
				free($1);
			}
			|	SET set_spec
			{
				$$ = hcmd(CMD_FLUSH, CMD_OBJ_SET, $2, &@$, NULL);
				free($1);
			}
			|	MAP set_spec
			{
				$$ = hcmd(CMD_FLUSH, CMD_OBJ_MAP, $2, &@$, NULL);
				free($1);
			}
			;

get_cmd			:	ELEMENT set_spec set_block_expr
			{
				$$ = hcmd(CMD_GET, CMD_OBJ_ELEMENTS, $2, &@$, $3);
				free($1);
			}
			;

reset_cmd		:	ELEMENT set_spec set_block_expr
			{
				$$ = hcmd(CMD_RESET, CMD_OBJ_ELEMENTS, $2, &@$, $3);
				free($1);
			}
			|	SET set_spec
			{
				$$ = hcmd(CMD_RESET, CMD_OBJ_SET, $2, &@$, NULL);
				free($1);
			}
			|	MAP set_spec
			{
				$$ = hcmd(CMD_RESET, CMD_OBJ_MAP, $2, &@$, NULL);
				free($1);
			}
			|	COUNTERS objs_spec
			{
				$$ = obj_cmd(state, CMD_RESET, CMD_OBJ_OBJS, NFT_OBJECT_COUNTER, $2, &@$, NULL);
				$$->family_given = $$->h.family != NFPROTO_UNSPEC;
				free($1);
			}
			|	QUOTAS objs_spec
			{
				$$ = obj_cmd(state, CMD_RESET, CMD_OBJ_OBJS, NFT_OBJECT_QUOTA, $2, &@$, NULL);
				$$->family_given = $$->h.family != NFPROTO_UNSPEC;
				free($1);
			}
			|	COUNTER obj_spec
			{
				$$ = obj_cmd(state, CMD_RESET, CMD_OBJ_OBJ, NFT_OBJECT_COUNTER, $2, &@$, NULL);
				free($1);
			}
			|	QUOTA obj_spec
			{
				$$ = obj_cmd(state, CMD_RESET, CMD_OBJ_OBJ, NFT_OBJECT_QUOTA, $2, &@$, NULL);
				free($1);
			}
			/* nft 1.1: the rules' counters and quotas, listed as they
			   were (the kernel's NFT_MSG_GETRULE_RESET) */
			|	rules_word family_spec
			{
				struct handle h = { .family = $2 };

				$$ = cmd_alloc(CMD_RESET, CMD_OBJ_RULES, &h, &@$, NULL);
				$$->family_given = $2 != NFPROTO_UNSPEC;
				free($1);
			}
			|	rules_word table_spec
			{
				$$ = hcmd(CMD_RESET, CMD_OBJ_RULES, $2, &@$, NULL);
				$$->family_given = true;
				free($1);
			}
			|	rules_word TABLE table_spec
			{
				$$ = hcmd(CMD_RESET, CMD_OBJ_RULES, $3, &@$, NULL);
				$$->family_given = true;
				free($1); free($2);
			}
			|	rules_word chain_spec
			{
				$$ = hcmd(CMD_RESET, CMD_OBJ_RULES, $2, &@$, NULL);
				$$->family_given = true;
				free($1);
			}
			|	rules_word CHAIN chain_spec
			{
				$$ = hcmd(CMD_RESET, CMD_OBJ_RULES, $3, &@$, NULL);
				$$->family_given = true;
				free($1); free($2);
			}
			|	RULE chain_spec HANDLE NUMBER
			{
				$2->handle = $4;
				$2->handle_loc = @4;
				$$ = hcmd(CMD_RESET, CMD_OBJ_RULES, $2, &@$, NULL);
				$$->family_given = true;
				free($1); free($3);
			}
			;
/* "rules" is a word of reset only, as in nft: a table may be called so */
rules_word		:	STRING
			{
				if (strcmp($1, "rules")) {
					error_queue(state->msgs, &@1,
						    "syntax error, unexpected string, expecting counter, counters, quota, set, map, element, quotas, rule or rules");
					free($1);
					YYERROR;
				}
				$$ = $1;
			}
			;


hooks_device		:	%empty		{ $$ = NULL; }
			|	DEVICE string	{ $$ = $2; free($1); }
			;

family_spec		:	%empty		{ $$ = NFPROTO_UNSPEC; }
			|	family		{ $$ = $1; }
			;

family			:	HDR
			{
				$$ = family_of(state, $1, &@1);
				if ($$ < 0)
					$$ = NFPROTO_IPV4;
				free($1);
			}
			|	INET	{ $$ = NFPROTO_INET; free($1); }
			|	BRIDGE	{ $$ = NFPROTO_BRIDGE; free($1); }
			|	NETDEV	{ $$ = NFPROTO_NETDEV; free($1); }
			;

table_spec		:	family identifier
			{
				$$ = xzalloc(sizeof(*$$));
				$$->family = $1;
				$$->family_loc = @1;
				$$->table = $2;
				$$->table_loc = @2;
			}
			|	identifier
			{
				$$ = xzalloc(sizeof(*$$));
				$$->family = NFPROTO_IPV4;
				$$->table = $1;
				$$->table_loc = @1;
			}
			;

chain_spec		:	table_spec chain_name
			{
				$$ = $1;
				$$->chain = $2;
				$$->chain_loc = @2;
			}
			;

set_spec		:	table_spec identifier
			{
				$$ = $1;
				$$->set = $2;
				$$->set_loc = @2;
			}
			;

rule_spec		:	chain_spec
			|	chain_spec POSITION NUMBER
			{
				$$ = $1; $$->position = $3; $$->handle_loc = @3; free($2);
			}
			|	chain_spec HANDLE NUMBER
			{
				$$ = $1; $$->handle = $3; $$->handle_loc = @3; free($2);
			}
			|	chain_spec INDEX NUMBER
			{
				$$ = $1; $$->index = $3; $$->index_set = true;
				/* "index N", both words */
				$$->handle_loc = @2;
				$$->handle_loc.last_line = @3.last_line;
				$$->handle_loc.last_col = @3.last_col;
				free($2);
			}
			;

chain_name		:	identifier
			;

keyword_identifier	:	TO | BYTES | PACKETS | OVER | UNTIL | LEVEL | PREFIX
			|	GROUP | RATE | BURST | USED | SNAPLEN | INDEX | POSITION
			|	DEVICE | DEVICES | PRIORITY | POLICY | FLAGS
			;

identifier		:	STRING
			|	QUOTED_STRING
			|	keyword_identifier	/* as nft: names that are words */
			|	EXPECTATION
			|	SYNPROXY
			|	SECMARK
			|	SETS
			|	MAPS
			|	HOOKS
			|	NAME
			|	COUNT
			|	LAST	/* as nft: a name, though a statement */
			;

string			:	STRING
			|	QUOTED_STRING
			;

table_block_alloc	:	%empty
			{
				/* one a syntax error abandoned is freed here */
				table_free(state->cur_table);
				$$ = table_alloc();
				state->cur_table = $$;
				/* only ever after table_spec: its rules may stream */
				state->stream_family = $<handle>0->family;
				state->stream_table = $<handle>0->table;
			}
			;

table_block		:	%empty		{ $$ = state->cur_table; }
			|	table_block common_block
			|	table_block error stmt_separator
			{
				yyerrok;
				bindings_drop(state);
				/* a declaration of the table may be what was lost */
				parser_lost_word(state, state->stream_table);
			}
			|	table_block stmt_separator
			|	table_block FLAGS table_flags stmt_separator	{ free($2); }
			|	table_block COMMENT string stmt_separator
			{
				free($1->comment);
				$1->comment = comment_of(state, $3, &@3);
				free($2);
			}
			|	table_block CHAIN chain_name chain_block_alloc
			{
				state->stream_chain = $3;
				state->stream_mark = state->stream_deps;
			}
				'{' chain_block block_end
			{
				struct handle h = $1->h;

				h.table = NULL;
				h.chain = $3;
				h.chain_loc = @3;
				$7->h = h;
				$7->loc = @3;
				list_add_tail(&$7->list, &$1->chains);
				state->cur_chain = NULL;
				state->stream_chain = NULL;
				$$ = $1;
				free($2);
			}
			|	table_block SET identifier set_block_alloc '{' set_block block_end
			{
				$6->h.set = $3;
				$6->h.set_loc = @3;
				$6->loc = @3;
				$6->read_errors = state->msgs->prev != state->set_mark;
				list_add_tail(&$6->list, &$1->sets);
				state->cur_set = NULL;
				state->elem_set = NULL;
				$$ = $1;
				free($2);
			}
			|	table_block COUNTER identifier obj_block_alloc '{' counter_block block_end
			{
				table_add_obj(state, $1, NFT_OBJECT_COUNTER, $6, $3, &@3);
				$$ = $1;
				free($2);
			}
			|	table_block QUOTA identifier obj_block_alloc '{' quota_block block_end
			{
				table_add_obj(state, $1, NFT_OBJECT_QUOTA, $6, $3, &@3);
				$$ = $1;
				free($2);
			}
			|	table_block LIMIT identifier obj_block_alloc '{' limit_block block_end
			{
				table_add_obj(state, $1, NFT_OBJECT_LIMIT, $6, $3, &@3);
				$$ = $1;
				free($2);
			}
			|	table_block SYNPROXY identifier obj_block_alloc '{' synproxy_block block_end
			{
				table_add_obj(state, $1, NFT_OBJECT_SYNPROXY, $6, $3, &@3);
				$$ = $1;
				free($2);
			}
			|	table_block SECMARK identifier obj_block_alloc '{' secmark_block block_end
			{
				table_add_obj(state, $1, NFT_OBJECT_SECMARK, $6, $3, &@3);
				$$ = $1;
				free($2);
			}
			|	table_block CT ct_obj_type identifier obj_block_alloc '{' ct_helper_block block_end
			{
				if ($3) {
					table_add_obj(state, $1, $3, $7, $4, &@4);
				} else {
					obj_free($7);
					free($4);
					state->cur_obj = NULL;
				}
				quiet_end(state);
				$$ = $1;
				free($2);
			}
			|	table_block FLOWTABLE identifier flowtable_block_alloc '{' flowtable_block block_end
			{
				$6->h.obj = $3;
				$6->h.obj_loc = @3;
				$6->loc = @3;
				$6->read_errors = state->msgs->prev != state->obj_mark;
				list_add_tail(&$6->list, &$1->flowtables);
				state->cur_flowtable = NULL;
				$$ = $1;
				free($2);
			}
			|	table_block MAP identifier set_block_alloc '{' set_block block_end
			{
				$6->h.set = $3;
				$6->h.set_loc = @3;
				$6->loc = @3;
				$6->is_map = true;
				$6->read_errors = state->msgs->prev != state->set_mark;
				list_add_tail(&$6->list, &$1->sets);
				state->cur_set = NULL;
				state->elem_set = NULL;
				$$ = $1;
				free($2);
			}
			;

/* flowtable NAME { hook ingress priority P; devices = { ... }; flags offload; counter } */
flowtable_block_alloc	:	%empty
			{
				/* one a syntax error abandoned is freed here */
				flowtable_free(state->cur_flowtable);
				$$ = flowtable_alloc();
				state->cur_flowtable = $$;
				state->obj_mark = state->msgs->prev;
			}
			;

flowtable_block		:	%empty		{ $$ = state->cur_flowtable; }
			|	flowtable_block common_block
			|	flowtable_block error stmt_separator	{ yyerrok; }
			|	flowtable_block stmt_separator
			|	flowtable_block HOOK STRING PRIORITY prio_expr stmt_separator
			{
				struct chain *c = $1->hook;

				/* a second hook line replaces the first */
				free(c->hook);
				expr_free(c->priority);
				c->base = true;
				c->hook = $3;
				c->hook_loc = @3;
				c->priority = $5;
				c->priority_loc = @5;
				free($2); free($4);
			}
			|	flowtable_block DEVICES '=' dev_list stmt_separator
			{
				list_add_tail(&$4->list, &$1->hook->devices);
				$1->hook->has_devices = true;
				$1->hook->dev_loc = @4;
				free($2);
			}
			|	flowtable_block FLAGS STRING stmt_separator
			{
				if (flowtable_flag(state->msgs, $1, $3, &@3) < 0)
					state->nerrs++;
				free($2); free($3);
			}
			|	flowtable_block COUNTER
			{
				flowtable_flag(state->msgs, $1, "counter", &@2);
				free($2);
			}
			;

set_block_alloc		:	%empty
			{
				state->elem_set = NULL;
				set_free(state->cur_set);
				$$ = set_alloc(NULL);
				state->cur_set = $$;
				state->set_mark = state->msgs->prev;
			}
			;

set_block		:	%empty		{ $$ = state->cur_set; }
			|	set_block common_block
			|	set_block error stmt_separator
			{
				$$ = $1;
				state->elem_set = NULL;
				yyerrok;
			}
			|	set_block stmt_separator
			|	set_block TYPE type_list stmt_separator
			{
				$$ = $1;
				expr_free($1->key);
				$1->key = $3;
				$1->key_typeof = false;
				free($2);
			}
			|	set_block TYPE type_list COLON type_list stmt_separator
			{
				$$ = $1;
				expr_free($1->key);
				expr_free($1->data);
				$1->key = $3;
				$1->data = $5;
				$1->key_typeof = $1->data_typeof = false;
				free($2);
			}
			|	set_block TYPE type_list COLON STRING type_list stmt_separator
			{
				/* "type ipv4_addr : interval ipv4_addr": the
				   values are ranges (nat maps) */
				$$ = $1;
				expr_free($1->key);
				expr_free($1->data);
				$1->key = $3;
				$1->data = $6;
				$1->key_typeof = $1->data_typeof = false;
				set_data_interval(state, $1, $5, &@5);
				free($2);
			}
			|	set_block TYPE type_list COLON map_obj_type stmt_separator
			{
				$$ = $1;
				expr_free($1->key);
				$1->key = $3;
				$1->key_typeof = false;
				$1->objtype = $5;
				free($2);
			}
			|	set_block TYPEOF typeof_list COLON typeof_obj_kw stmt_separator
			{
				$$ = $1;
				expr_free($1->key);
				$1->key = $3;
				$1->key_typeof = true;
				$1->objtype = $5;
				free($2);
			}
			|	set_block TYPEOF typeof_list stmt_separator
			{
				$$ = $1;
				expr_free($1->key);
				$1->key = $3;
				$1->key_typeof = true;
				free($2);
			}
			|	set_block TYPEOF typeof_list COLON typeof_data stmt_separator
			{
				$$ = $1;
				expr_free($1->key);
				expr_free($1->data);
				$1->key = $3;
				$1->data = $5;
				$1->key_typeof = $1->data_typeof = true;
				free($2);
			}
			|	set_block TYPEOF typeof_list COLON STRING typeof_list stmt_separator
			{
				$$ = $1;
				expr_free($1->key);
				expr_free($1->data);
				$1->key = $3;
				$1->data = $6;
				$1->key_typeof = $1->data_typeof = true;
				set_data_interval(state, $1, $5, &@5);
				free($2);
			}
			|	set_block FLAGS set_flags stmt_separator
			{
				$$ = $1;
				$1->flags_loc = @3;
				free($2);
			}
			|	set_block TIMEOUT time_spec stmt_separator
			{
				$$ = $1;
				$1->timeout = $3;
				$1->flags |= NFT_SET_TIMEOUT;
				free($2);
			}
			|	set_block GC_INTERVAL time_spec stmt_separator
			{
				$$ = $1;
				$1->gc_int = $3;
				free($2);
			}
			|	set_block SIZE NUMBER stmt_separator
			{
				$$ = $1;
				$1->size = $3;
				free($2);
			}
			|	set_block POLICY STRING stmt_separator
			{
				$$ = $1;
				if (!strcmp($3, "performance"))
					$1->policy = NFT_SET_POL_PERFORMANCE;
				else if (!strcmp($3, "memory"))
					$1->policy = NFT_SET_POL_MEMORY;
				else
					error_queue(state->msgs, &@3,
						    "unknown set policy \"%s\"", $3);
				free($2); free($3);
			}
			|	set_block AUTO_MERGE stmt_separator
			{
				$$ = $1;
				$1->automerge = true;
				free($2);
			}
			|	set_block COMMENT string stmt_separator
			{
				$$ = $1;
				free($1->comment);
				$1->comment = comment_of(state, $3, &@3);
				free($2);
			}
			|	set_block ELEMENTS '=' { state->elem_set = $1; } set_block_expr
			{
				$$ = $1;
				state->elem_set = NULL;
				/* "elements = $var": its elements stream in now,
				   or (no types yet) when the set is evaluated */
				if ($5->kind == EXPR_VARIABLE &&
				    sink_elems_var(state, $1, $5))
					$5 = compound_expr_alloc(&@5, EXPR_SET);
				if ($1->init) {
					$1->init = elems_as_set($1->init);
					$5 = elems_as_set($5);
				}
				if ($1->init) {
					/* a second elements line adds to the first */
					struct expr *i, *n;

					list_for_each_entry_safe(i, n, &$5->set.exprs, list) {
						list_del(&i->list);
						compound_expr_add($1->init, i);
					}
					expr_free($5);
				} else {
					$1->init = $5;
				}
				free($2);
			}
			|	set_block set_elem_stmts stmt_separator
			;

/* as nft lists them too: counter quota 1 mbytes */
set_elem_stmts		:	set_elem_stmt
			{
				list_add_tail(&$1->list, &state->cur_set->stmts);
			}
			|	set_elem_stmts set_elem_stmt
			{
				list_add_tail(&$2->list, &state->cur_set->stmts);
			}
			;

/* what each element of a set keeps, as nft takes them: counter; quota 1 mbytes; */
set_elem_stmt		:	counter_stmt
			|	quota_stmt
			|	limit_stmt
			|	connlimit_stmt
			;

/*
 * an object map's values: the type of the objects they name; after typeof,
 * "ct helper" reads as a ct expression, which eval turns into the type
 */
map_obj_kw		:	COUNTER		{ $$ = NFT_OBJECT_COUNTER; free($1); }
			|	QUOTA		{ $$ = NFT_OBJECT_QUOTA; free($1); }
			|	LIMIT		{ $$ = NFT_OBJECT_LIMIT; free($1); }
			|	SYNPROXY	{ $$ = NFT_OBJECT_SYNPROXY; free($1); }
			;

typeof_obj_kw		:	map_obj_kw
			|	map_ct_obj_kw
			;

/* as nft 1.0.6: secmark after "type" only */
map_obj_type		:	map_obj_kw
			|	SECMARK		{ $$ = NFT_OBJECT_SECMARK; free($1); }
			|	CT STRING
			{
				$$ = map_ct_obj_of(state, $2, &@2);
				free($1); free($2);
			}
			|	map_ct_obj_kw
			;

/* after typeof too: "ct timeout" and "ct expectation" are no ct expressions */
map_ct_obj_kw		:	CT TIMEOUT
			{
				$$ = NFT_OBJECT_CT_TIMEOUT;
				free($1); free($2);
			}
			|	CT EXPECTATION
			{
				$$ = NFT_OBJECT_CT_EXPECT;
				free($1); free($2);
			}
			;

set_flags		:	set_flag
			|	set_flags COMMA set_flag
			;

set_flag		:	STRING
			{
				struct set *set = state->cur_set;

				if (!strcmp($1, "constant"))
					set->flags |= NFT_SET_CONSTANT;
				else if (!strcmp($1, "interval"))
					set->flags |= NFT_SET_INTERVAL;
				else if (!strcmp($1, "dynamic"))
					set->flags |= NFT_SET_EVAL;
				else
					error_queue(state->msgs, &@1,
						    "unknown set flag \"%s\"", $1);
				free($1);
			}
			|	TIMEOUT
			{
				state->cur_set->flags |= NFT_SET_TIMEOUT;
				free($1);
			}
			;

/* a type's name: "mark" and other meta keys are names of types too */
type_word		:	STRING
			|	METAKEY
			;

type_list		:	type_word
			{
				$$ = symbol_expr_alloc(&@$, $1, false); free($1);
			}
			|	type_list DOT type_word
			{
				if ($1->kind != EXPR_CONCAT) {
					struct expr *c = compound_expr_alloc(&@$, EXPR_CONCAT);

					compound_expr_add(c, $1);
					$1 = c;
				}
				compound_expr_add($1, symbol_expr_alloc(&@3, $3, false));
				$1->loc = @$;
				$$ = $1;
				free($3);
			}
			;

/* a map's values: selectors, or the word "verdict" (checked in eval) */
typeof_data		:	typeof_list
			|	STRING
			{
				$$ = symbol_expr_alloc(&@$, $1, false);
				free($1);
			}
			;

typeof_list		:	primary_expr
			|	typeof_list DOT primary_expr
			{
				if ($1->kind != EXPR_CONCAT) {
					struct expr *c = compound_expr_alloc(&@$, EXPR_CONCAT);

					compound_expr_add(c, $1);
					$1 = c;
				}
				compound_expr_add($1, $3);
				$1->loc = @$;
				$$ = $1;
			}
			;

time_spec		:	STRING
			{
				if (time_of(state, $1, &@1, &$$) < 0)
					$$ = 0;
				free($1);
			}
			|	NUMBER	{ $$ = seconds_of(state, &@1, $1); }
			;

/* an element's timeout: a time, or "never" (nft 1.1) */
elem_time_spec		:	STRING
			{
				if (!strcmp($1, "never"))
					$$ = ELEM_TIMEOUT_NEVER;
				else if (time_of(state, $1, &@1, &$$) < 0)
					$$ = 0;
				free($1);
			}
			|	NUMBER	{ $$ = seconds_of(state, &@1, $1); }
			;

set_block_expr		:	set_expr
			|	VARIABLE	{ $$ = parser_var_ref(state, &@1, $1); free($1); state->stream_deps++; }
			;

table_flags		:	table_flag
			|	table_flags COMMA table_flag
			;

table_flag		:	STRING
			{
				if (!strcmp($1, "dormant"))
					state->cur_table->flags |= TABLE_F_DORMANT;
				else if (!strcmp($1, "owner"))
					state->cur_table->flags |= TABLE_F_OWNER;
				else if (!strcmp($1, "persist"))
					state->cur_table->flags |= TABLE_F_PERSIST;
				else
					error_queue(state->msgs, &@1,
						    "unknown table flag \"%s\"", $1);
				state->cur_table->flags_set = true;
				free($1);
			}
			;

chain_block_alloc	:	%empty
			{
				state->ctx->chain_id++;	/* nft counts it */
				chain_free(state->cur_chain);
				$$ = chain_alloc();
				state->cur_chain = $$;
				state->stream_chain = NULL;	/* set after, in a table */
			}
			;

chain_block		:	%empty
			{
				$$ = state->cur_chain;
				state->sep_mark = state->msgs->prev;
			}
			|	chain_block common_block
			|	chain_block error stmt_separator	{ yyerrok; bindings_drop(state); }
			|	chain_block stmt_separator
			|	chain_block hook_spec stmt_separator
			|	chain_block DEVICES '=' dev_list stmt_separator
			{
				/* devices for a base chain that is there (nft
				   1.1): added, or with delete chain removed */
				list_add_tail(&$4->list, &$1->devices);
				$1->has_devices = true;
				$1->devices_only = true;
				$1->dev_loc = @4;
				free($2);
			}
			|	chain_block POLICY symbol_value stmt_separator
			{
				expr_free($1->policy_expr);	/* the last one counts */
				$1->policy_expr = $3;
				$1->policy_loc = @3;
				free($2);
			}
			|	chain_block FLAGS STRING stmt_separator
			{
				if (!strcmp($3, "offload"))
					error_queue(state->msgs, &@3,
						    "chain flag \"offload\" is not supported");
				else
					error_queue(state->msgs, &@3,
						    "unknown chain flag \"%s\"", $3);
				free($2); free($3);
			}
			|	chain_block COMMENT string stmt_separator
			{
				free($1->comment);
				$1->comment = comment_of(state, $3, &@3);
				free($2);
			}
			|	chain_block rule stmt_separator
			{
				$2->loc = @2;
				if (rule_had_errors(state))
					rule_free($2);
				else if (!sink_rule(state, $1, $2))
					list_add_tail(&$2->list, &$1->rules);
			}
			;

hook_spec		:	TYPE STRING HOOK STRING dev_spec PRIORITY prio_expr
			{
				struct chain *c = state->cur_chain;

				c->base = true;
				/* a second hook line replaces the first */
				free(c->type);
				free(c->hook);
				expr_free(c->priority);
				c->type = $2;
				c->type_loc = @2;
				c->hook = $4;
				c->hook_loc = @4;
				c->priority = $7;
				c->priority_loc = @7;
				free($1); free($3); free($6);
			}
			;

dev_spec		:	%empty
			|	DEVICE dev_expr
			{
				struct chain *c = state->cur_chain;

				list_add_tail(&$2->list, &c->devices);
				c->has_devices = true;
				c->dev_loc = @2;
				free($1);
			}
			|	DEVICES '=' dev_list
			{
				struct chain *c = state->cur_chain;

				list_add_tail(&$3->list, &c->devices);
				c->has_devices = true;
				c->dev_loc = @3;
				free($1);
			}
			;

dev_expr		:	string		{ $$ = symbol_expr_alloc(&@1, $1, true); free($1); }
			|	VARIABLE	{ $$ = parser_var_ref(state, &@1, $1); free($1); state->stream_deps++; }
			;

dev_list		:	'{' opt_newlines set_list opt_newlines '}'	{ $$ = $3; $$->loc = @$; }
			|	VARIABLE	{ $$ = parser_var_ref(state, &@1, $1); free($1); state->stream_deps++; }
			;

prio_expr		:	NUMBER
			{
				if ($1 > INT32_MAX)
					error_queue(state->msgs, &@1,
						    "priority %llu exceeds valid range %d-%d",
						    (unsigned long long)$1, INT32_MIN, INT32_MAX);
				$$ = constant_expr_u64(&@1, &integer_type, BYTEORDER_HOST, 32, $1);
			}
			|	DASH NUMBER
			{
				if ($2 > (uint64_t)INT32_MAX + 1)
					error_queue(state->msgs, &@$,
						    "priority -%llu exceeds valid range %d-%d",
						    (unsigned long long)$2, INT32_MIN, INT32_MAX);
				$$ = constant_expr_u64(&@$, &integer_type, BYTEORDER_HOST, 32, -(int64_t)$2);
			}
			|	STRING
			{
				$$ = symbol_expr_alloc(&@1, $1, false); free($1);
			}
			|	STRING PLUS NUMBER
			{
				char *s = xasprintf("%s + %llu", $1, (unsigned long long)$3);
				$$ = symbol_expr_alloc(&@$, s, false); free(s); free($1);
			}
			|	STRING DASH NUMBER
			{
				char *s = xasprintf("%s - %llu", $1, (unsigned long long)$3);
				$$ = symbol_expr_alloc(&@$, s, false); free(s); free($1);
			}
			|	VARIABLE	{ $$ = parser_var_ref(state, &@1, $1); free($1); state->stream_deps++; }
			;

rule			:	stmt_list
			|	stmt_list COMMENT string
			{
				$$ = $1;
				$$->comment = comment_of(state, $3, &@3);
				free($2);
			}
			;

stmt_list		:	stmt
			{
				$$ = rule_alloc(&@1);
				list_add_tail(&$1->list, &$$->stmts);
			}
			|	stmt_list stmt
			{
				$$ = $1;
				list_add_tail(&$2->list, &$$->stmts);
			}
			;

stmt			:	match_stmt
			|	verdict_stmt
			|	binding_stmt
			|	counter_stmt
			|	limit_stmt
			|	quota_stmt
			|	log_stmt
			|	reject_stmt
			|	meta_stmt
			|	payload_stmt
			|	exthdr_stmt
			|	optstrip_stmt
			|	ct_stmt
			|	synproxy_stmt
			|	fwd_stmt
			|	dup_stmt
			|	nat_stmt
			|	notrack_stmt
			|	last_stmt
			|	queue_stmt
			|	flow_stmt
			|	tproxy_stmt
			|	vmap_stmt
			|	set_stmt
			|	meter_stmt
			|	objref_stmt
			|	connlimit_stmt
			;

/* ct count [over] N: the connections of this flow's key, in the ct zone */
connlimit_stmt		:	CT COUNT NUMBER
			{
				$$ = connlimit_stmt_alloc(&@$, $3, 0);
				free($1); free($2);
			}
			|	CT COUNT OVER NUMBER
			{
				$$ = connlimit_stmt_alloc(&@$, $4, NFT_CONNLIMIT_F_INV);
				free($1); free($2); free($3);
			}
			;

objref_stmt		:	CT TIMEOUT SET stmt_value
			{
				$$ = objref_stmt(&@$, NFT_OBJECT_CT_TIMEOUT, $4);
				free($1); free($2); free($3);
			}
			|	CT EXPECTATION SET stmt_value
			{
				$$ = objref_stmt(&@$, NFT_OBJECT_CT_EXPECT, $4);
				free($1); free($2); free($3);
			}
			|	SYNPROXY NAME stmt_value
			{
				$$ = objref_stmt(&@$, NFT_OBJECT_SYNPROXY, $3);
				free($1); free($2);
			}
			|	COUNTER NAME stmt_value
			{
				$$ = objref_stmt(&@$, NFT_OBJECT_COUNTER, $3);
				free($1); free($2);
			}
			|	QUOTA NAME stmt_value
			{
				$$ = objref_stmt(&@$, NFT_OBJECT_QUOTA, $3);
				free($1); free($2);
			}
			|	LIMIT NAME stmt_value
			{
				$$ = objref_stmt(&@$, NFT_OBJECT_LIMIT, $3);
				free($1); free($2);
			}
			;

vmap_stmt		:	concat_expr VMAP rhs_map
			{
				$$ = verdict_stmt_alloc(&@$, map_expr_alloc(&@$, $1, $3));
				free($2);
			}
			;

set_stmt		:	set_stmt_op SETREF '{' set_stmt_key '}'
			{
				$$ = $4;
				$$->loc = @$;
				$$->set.op = $1;
				$$->set.set = set_ref_expr_alloc(&@2, $2);
				state->stream_deps++;
				free($2);
			}
			/* a map's element and its value: add @m { KEY : DATA } */
			|	set_stmt_op SETREF '{' set_stmt_key COLON set_key_expr '}'
			{
				$$ = $4;
				$$->loc = @$;
				$$->set.op = $1;
				$$->set.set = set_ref_expr_alloc(&@2, $2);
				$$->set.data = $6;
				state->stream_deps++;
				free($2);
			}
			/* nft's older form: set add|update|delete KEY [timeout T] @s */
			|	SET set_stmt_op set_key_expr set_stmt_timeout SETREF
			{
				$$ = stmt_alloc(&@$, STMT_SET);
				$$->set.key = $3;
				$$->set.timeout = $4;
				$$->set.op = $2;
				$$->set.set = set_ref_expr_alloc(&@5, $5);
				state->stream_deps++;
				free($1); free($5);
			}
			;

set_stmt_timeout	:	%empty			{ $$ = 0; }
			|	TIMEOUT time_spec	{ $$ = $2; free($1); }
			;

/*
 * nft's older form of a dynamic set: the rule makes its own, an anonymous
 * set that only it fills.  An element times out if a timeout is given.
 */
meter_stmt		:	METER identifier '{' set_stmt_key '}'
			{
				$$ = $4;
				$$->loc = @$;
				$$->set.meter = true;
				$$->set.set = set_ref_expr_alloc(&@2, $2);
				free($1); free($2);
			}
			|	METER identifier SIZE NUMBER '{' set_stmt_key '}'
			{
				$$ = $6;
				$$->loc = @$;
				$$->set.meter = true;
				$$->set.size = $4;
				$$->set.set = set_ref_expr_alloc(&@2, $2);
				if ($4 == 0 || $4 > UINT32_MAX) {
					error_queue(state->msgs, &@4,
						    "a meter's size is a number from 1 to %u",
						    UINT32_MAX);
					state->nerrs++;
				}
				free($1); free($2); free($3);
			}
			;

/* the key a rule adds: fields and, as nft takes them, constants typed by
   the set's key (add @s { ip saddr . 22 }) */
set_key_expr		:	set_key_part
			|	set_key_expr DOT set_key_part
			{
				if ($1->kind != EXPR_CONCAT) {
					struct expr *c = compound_expr_alloc(&@$, EXPR_CONCAT);

					compound_expr_add(c, $1);
					$1 = c;
				}
				compound_expr_add($1, $3);
				$1->loc = @$;
				$$ = $1;
			}
			;

set_key_part		:	basic_expr
			|	NUMBER
			{
				char buf[32];

				snprintf(buf, sizeof(buf), "%llu", (unsigned long long)$1);
				$$ = symbol_expr_alloc(&@$, buf, false);
			}
			|	STRING		{ $$ = symbol_expr_alloc(&@$, $1, false); free($1); }
			|	QUOTED_STRING	{ $$ = symbol_expr_alloc(&@$, $1, true); free($1); }
			;

set_stmt_op		:	ADD	{ $$ = NFT_DYNSET_OP_ADD; free($1); }
			|	UPDATE	{ $$ = NFT_DYNSET_OP_UPDATE; free($1); }
			|	DELETE	{ $$ = NFT_DYNSET_OP_DELETE; free($1); }
			;

set_stmt_key		:	set_key_expr
			{
				$$ = stmt_alloc(&@$, STMT_SET);
				$$->set.key = $1;
			}
			|	set_stmt_key TIMEOUT time_spec
			{
				$$ = $1;
				$$->set.timeout = $3;
				free($2);
			}
			|	set_stmt_key counter_stmt
			{
				$$ = $1;
				list_add_tail(&$2->list, &$$->set.stmts);
			}
			|	set_stmt_key limit_stmt
			{
				$$ = $1;
				list_add_tail(&$2->list, &$$->set.stmts);
			}
			|	set_stmt_key quota_stmt
			{
				$$ = $1;
				list_add_tail(&$2->list, &$$->set.stmts);
			}
			|	set_stmt_key connlimit_stmt
			{
				/* "add @flood { ip saddr ct count over 2 }" */
				$$ = $1;
				list_add_tail(&$2->list, &$$->set.stmts);
			}
			;

/*
 * "jump { RULE; ... }": a chain bound to the rule (src/kinds/binding.c).  Its
 * rules end with a separator each, as nft wants; a block in a block is
 * refused, as nft refuses it.  The rule it is in does not stream: its
 * chain and rules go into the batch before it.
 */
binding_stmt		:	JUMP binding_open binding_rules '}'
			{
				$$ = binding_end(state, &@$, NFT_JUMP, $2, $3);
				free($1);
			}
			|	GOTO binding_open binding_rules '}'
			{
				$$ = binding_end(state, &@$, NFT_GOTO, $2, $3);
				free($1);
			}
			;

binding_open		:	'{'
			{
				/* nft's caret: the last column of the verdict */
				struct location l = @0;

				l.first_col = l.last_col;
				$$ = binding_begin(state, &l);
			}
			;

binding_rules		:	%empty
			{
				$$ = list_first_entry(&state->bindings, struct chain, list);
			}
			|	binding_rules stmt_separator
			|	binding_rules rule stmt_separator
			{
				$2->loc = @2;
				list_add_tail(&$2->list, &$1->rules);
			}
			;

verdict_stmt		:	verdict_expr	{ $$ = verdict_stmt_alloc(&@$, $1); }
			;

verdict_expr		:	ACCEPT	{ $$ = verdict_expr_alloc(&@$, NF_ACCEPT, NULL); free($1); }
			|	DROP	{ $$ = verdict_expr_alloc(&@$, NF_DROP, NULL); free($1); }
			|	CONTINUE { $$ = verdict_expr_alloc(&@$, NFT_CONTINUE, NULL); free($1); }
			|	RETURN	{ $$ = verdict_expr_alloc(&@$, NFT_RETURN, NULL); free($1); }
			|	JUMP chain_name
			{
				$$ = verdict_expr_alloc(&@$, NFT_JUMP, $2); free($1); free($2);
			}
			|	GOTO chain_name
			{
				$$ = verdict_expr_alloc(&@$, NFT_GOTO, $2); free($1); free($2);
			}
			;

/* as in nft: packets and bytes in either order, or one of them */
counter_stmt		:	COUNTER			{ $$ = counter_stmt_alloc(&@$, 0, 0); free($1); }
			|	counter_stmt PACKETS NUMBER
			{
				$$ = $1;
				$$->counter.packets = $3;
				$$->loc = @$;
				free($2);
			}
			|	counter_stmt BYTES NUMBER
			{
				$$ = $1;
				$$->counter.bytes = $3;
				$$->loc = @$;
				free($2);
			}
			;

limit_over		:	%empty		{ $$ = 0; }
			|	OVER		{ $$ = NFT_LIMIT_F_INV; free($1); }
			|	UNTIL		{ $$ = 0; free($1); }
			;

limit_stmt		:	LIMIT limit_spec
			{
				$$ = $2;
				/* a limit object may have it, a statement not */
				if ($$->limit.type == NFT_LIMIT_PKTS && !$$->limit.burst) {
					error_queue(state->msgs, &$$->loc,
						    "packet limit burst must be > 0");
					state->nerrs++;
				}
				$$->loc = @$;
				free($1);
			}
			;

limit_spec		:	RATE limit_over NUMBER SLASH time_unit limit_burst_pkts
			{
				$$ = stmt_alloc(&@$, STMT_LIMIT);
				$$->limit.flags = $2;
				$$->limit.rate = $3;
				$$->limit.type = NFT_LIMIT_PKTS;
				$$->limit.burst = $6;
				if (!$6)	/* where limit_stmt says it is 0 */
					$$->loc = @6;
				if (stmt_limit_unit($$, $5, &@5, state->msgs) < 0)
					state->nerrs++;
				free($1); free($5);
			}
			|	RATE limit_over limit_rate_bytes SLASH time_unit
				limit_burst_bytes
			{
				$$ = stmt_alloc(&@$, STMT_LIMIT);
				$$->limit.flags = $2;
				$$->limit.rate = $3;
				$$->limit.type = NFT_LIMIT_PKT_BYTES;
				$$->limit.burst = $6;
				/* nft scans "kbytes/" before a space as one
				   word: "1kbytes/ second" is no rate to it */
				if (@4.first_line == @5.first_line &&
				    @3.last_col + 1 == @4.first_col &&
				    @4.last_col + 1 < @5.first_col) {
					struct location l = @3;

					l.last_col = @4.last_col;
					error_queue(state->msgs, &l,
						    "wrong rate format: no space after the slash of a unit per time, as in 1kbytes/second");
					state->nerrs++;
				} else if (stmt_limit_unit($$, $5, &@5, state->msgs) < 0)
					state->nerrs++;
				free($1); free($5);
			}
			|	RATE limit_over NUMBER STRING limit_burst_bytes
			{
				/* "kbytes/second" is one word, as nft scans it */
				char *slash = strchr($4, '/');
				uint64_t mult = 1;

				$$ = stmt_alloc(&@$, STMT_LIMIT);
				$$->limit.flags = $2;
				$$->limit.type = NFT_LIMIT_PKT_BYTES;
				$$->limit.burst = $5;
				if (slash)
					*slash = '\0';
				if (!slash || stmt_bytes_unit($4, &mult) < 0) {
					if (slash)
						*slash = '/';
					error_queue(state->msgs, &@4,
						    "wrong rate format: \"%s\" is not a unit per time, as in kbytes/second",
						    $4);
					state->nerrs++;
				} else if (stmt_limit_unit($$, slash + 1, &@4,
							   state->msgs) < 0) {
					state->nerrs++;
				}
				$$->limit.rate = $3 * mult;
				free($1); free($4);
			}
			;

/* "second" ... "week": "day" and "hour" are bare meta keys too */
time_unit		:	STRING
			|	METAKEY
			;

/* "64 bytes", "64 kbytes" and, as nft scans them, "64bytes", "64kbytes" */
limit_rate_bytes	:	NUMBER BYTES	{ $$ = $1; free($2); }
			|	NUMBER STRING
			{
				uint64_t mult = 1;

				if (stmt_bytes_unit($2, &mult) < 0) {
					error_queue(state->msgs, &@2,
						    "wrong rate format: unknown unit \"%s\"",
						    $2);
					state->nerrs++;
				}
				$$ = $1 * mult;
				free($2);
			}
			|	STRING
			{
				if (number_with_unit(state, $1, &@1, true, &$$) < 0)
					state->nerrs++;
				free($1);
			}
			;

limit_burst_pkts	:	%empty			{ $$ = 5; }
			|	BURST NUMBER PACKETS	{ $$ = $2; free($1); free($3); }
			|	BURST STRING
			{
				if (number_with_unit(state, $2, &@2, false, &$$) < 0)
					state->nerrs++;
				free($1); free($2);
			}
			;

limit_burst_bytes	:	%empty			{ $$ = 0; }
			|	BURST NUMBER BYTES	{ $$ = $2; free($1); free($3); }
			|	BURST NUMBER STRING
			{
				uint64_t mult = 1;

				if (stmt_bytes_unit($3, &mult) < 0) {
					error_queue(state->msgs, &@3,
						    "wrong unit \"%s\"", $3);
					state->nerrs++;
				}
				$$ = $2 * mult;
				free($1); free($3);
			}
			|	BURST STRING
			{
				if (number_with_unit(state, $2, &@2, true, &$$) < 0)
					state->nerrs++;
				free($1); free($2);
			}
			;

quota_mode		:	%empty		{ $$ = 0; }
			|	OVER		{ $$ = NFT_QUOTA_F_INV; free($1); }
			|	UNTIL		{ $$ = 0; free($1); }
			;

quota_stmt		:	QUOTA quota_spec
			{
				$$ = $2;
				$$->loc = @$;
				free($1);
			}
			;

quota_spec		:	quota_mode NUMBER STRING
			{
				uint64_t b;

				$$ = stmt_alloc(&@$, STMT_QUOTA);
				$$->quota.flags = $1;
				if (stmt_bytes_unit($3, &b) < 0)
					error_queue(state->msgs, &@3,
						    "wrong unit \"%s\"", $3);
				$$->quota.bytes = $2 * b;
				free($3);
			}
			|	quota_mode NUMBER BYTES
			{
				$$ = stmt_alloc(&@$, STMT_QUOTA);
				$$->quota.flags = $1;
				$$->quota.bytes = $2;
				free($3);
			}
			|	quota_mode STRING
			{
				$$ = stmt_alloc(&@$, STMT_QUOTA);
				$$->quota.flags = $1;
				if (number_with_unit(state, $2, &@2, true,
						     &$$->quota.bytes) < 0)
					state->nerrs++;
				free($2);
			}
			|	quota_spec USED NUMBER BYTES
			{
				$$ = $1;
				$$->quota.used = $3;
				free($2); free($4);
			}
			|	quota_spec USED STRING
			{
				$$ = $1;
				if (number_with_unit(state, $3, &@3, true,
						     &$$->quota.used) < 0)
					state->nerrs++;
				free($2); free($3);
			}
			|	quota_spec USED NUMBER STRING
			{
				uint64_t b;

				$$ = $1;
				if (stmt_bytes_unit($4, &b) < 0)
					error_queue(state->msgs, &@4,
						    "wrong unit \"%s\"", $4);
				$$->quota.used = $3 * b;
				free($2); free($4);
			}
			;

log_stmt		:	LOG		{ $$ = log_stmt_alloc(&@$); free($1); }
			|	log_args
			;

log_args		:	log_stmt PREFIX string
			{
				$$ = $1;
				log_stmt_prefix($$, parser_log_prefix(state, $3, &@3));
				free($2);
			}
			|	log_stmt LEVEL STRING
			{
				$$ = $1;
				if (stmt_log_level($$, $3, &@3, state->msgs) < 0)
					state->nerrs++;
				free($2); free($3);
			}
			|	log_stmt GROUP NUMBER
			{
				$$ = $1; log_stmt_set($$, LOG_F_GROUP, $3);
				free($2);
			}
			|	log_stmt SNAPLEN NUMBER
			{
				$$ = $1; log_stmt_set($$, LOG_F_SNAPLEN, $3);
				free($2);
			}
			|	log_stmt QUEUE_THRESHOLD NUMBER
			{
				$$ = $1; log_stmt_set($$, LOG_F_QTHRESH, $3);
				free($2);
			}
			|	log_stmt FLAGS log_flags
			{
				$$ = $1;
				log_stmt_set($$, LOG_F_FLAGS, $3);
				free($2);
			}
			;

/* "tcp sequence,options", "ip options", "skuid", "ether", "all" */
log_flags		:	HDR log_tcp_flags
			{
				$$ = $2;
				if (!strcmp($1, "ip") && $2 == NF_LOG_TCPOPT) {
					$$ = NF_LOG_IPOPT;
				} else if (strcmp($1, "tcp")) {
					error_queue(state->msgs, &@1,
						    "unknown log flag \"%s\": tcp sequence,options or ip options",
						    $1);
					state->nerrs++;
				}
				free($1);
			}
			|	HDR
			{
				$$ = NF_LOG_MACDECODE;
				if (strcmp($1, "ether")) {
					error_queue(state->msgs, &@1,
						    "unknown log flag \"%s\"", $1);
					state->nerrs++;
				}
				free($1);
			}
			|	METAKEY
			{
				$$ = NF_LOG_UID;
				if (strcmp($1, "skuid")) {
					error_queue(state->msgs, &@1,
						    "unknown log flag \"%s\"", $1);
					state->nerrs++;
				}
				free($1);
			}
			|	STRING
			{
				$$ = 0;
				if (!strcmp($1, "skuid"))
					$$ = NF_LOG_UID;
				else if (!strcmp($1, "all"))
					$$ = NF_LOG_MASK;
				else {
					error_queue(state->msgs, &@1,
						    "unknown log flag \"%s\": tcp, ip, skuid, ether or all",
						    $1);
					state->nerrs++;
				}
				free($1);
			}
			;

log_tcp_flags		:	log_tcp_flag
			|	log_tcp_flags COMMA log_tcp_flag	{ $$ = $1 | $3; }
			;

/* "options" also follows "ip" */
log_tcp_flag		:	STRING
			{
				$$ = 0;
				if (!strcmp($1, "sequence"))
					$$ = NF_LOG_TCPSEQ;
				else if (!strcmp($1, "options"))
					$$ = NF_LOG_TCPOPT;
				else {
					error_queue(state->msgs, &@1,
						    "unknown log flag \"%s\": sequence or options",
						    $1);
					state->nerrs++;
				}
				free($1);
			}
			;

reject_stmt		:	REJECT_T
			{
				$$ = stmt_alloc(&@$, STMT_REJECT);
				$$->reject.type = -1;
				$$->reject.icmp_code = -1;
				free($1);
			}
			|	REJECT_T WITH reject_proto TYPE reject_code
			{
				$$ = stmt_alloc(&@$, STMT_REJECT);
				$$->reject.type = -1;
				$$->reject.icmp_code = -1;
				if (stmt_reject_with($$, $3, &@3, $5, state->msgs) < 0)
					state->nerrs++;
				free($1); free($2); free($3); free($4);
			}
			|	REJECT_T WITH reject_proto reject_code
			{
				$$ = stmt_alloc(&@$, STMT_REJECT);
				$$->reject.type = -1;
				$$->reject.icmp_code = -1;
				if (stmt_reject_with($$, $3, &@3, $4, state->msgs) < 0)
					state->nerrs++;
				free($1); free($2); free($3);
			}
			;

reject_proto		:	HDR
			|	STRING
			;

reject_code		:	symbol_value	/* "with tcp reset": a word there too */
			|	NUMBER		/* "with icmpx 3", as nft takes it */
			{
				char buf[32];

				snprintf(buf, sizeof(buf), "%llu", (unsigned long long)$1);
				$$ = symbol_expr_alloc(&@$, buf, false);
			}
			;

meta_stmt		:	META word SET stmt_value
			{
				/* as nft: "meta secmark set" names a secmark object
				   (or maps to names) unless it copies a ct expression */
				if (!strcmp($2, "secmark") && $4->kind != EXPR_CT)
					$$ = objref_stmt(&@$, NFT_OBJECT_SECMARK, $4);
				else
					$$ = stmt_meta_set(&@$, $2, &@2, $4, state->msgs);
				/* YYERROR frees nothing of this rule's symbols */
				free($1); free($2); free($3);
				if (!$$)
					YYERROR;
			}
			|	METAKEY SET stmt_value
			{
				$$ = stmt_meta_set(&@$, $1, &@1, $3, state->msgs);
				free($1); free($2);
				if (!$$)
					YYERROR;
			}
			;

payload_stmt		:	payload_expr SET stmt_value
			{
				$$ = stmt_alloc(&@$, STMT_PAYLOAD);
				$$->payload.expr = $1;
				$$->payload.val = $3;
				free($2);
			}
			;

/* "reset tcp option NAME|KIND": the protocol, the name, the kind in decimal */
optstrip_stmt		:	RESET HDR OPTION STRING
			{
				$$ = stmt_kind_parse("reset", &@$, (struct kind_word[]){
					{ $2, &@2 }, { $4, &@4 }, { NULL, NULL } },
					3, state->msgs);
				free($1); free($2); free($3); free($4);
				if (!$$)
					YYERROR;
			}
			|	RESET HDR OPTION NUMBER
			{
				char kind[24];

				snprintf(kind, sizeof(kind), "%llu",
					 (unsigned long long)$4);
				$$ = stmt_kind_parse("reset", &@$, (struct kind_word[]){
					{ $2, &@2 }, { NULL, NULL }, { kind, &@4 } },
					3, state->msgs);
				free($1); free($2); free($3);
				if (!$$)
					YYERROR;
			}
			;

exthdr_stmt		:	exthdr_expr SET stmt_value
			{
				$$ = stmt_alloc(&@$, STMT_EXTHDR);
				$$->payload.expr = $1;
				$$->payload.val = $3;
				free($2);
			}
			;

ct_stmt			:	ct_expr SET stmt_value
			{
				$$ = ct_stmt_alloc(&@$, $1, $3);
				expr_free($1);
				free($2);
			}
			|	ct_expr SET list_rhs_expr	/* ct event set new,destroy */
			{
				$$ = ct_stmt_alloc(&@$, $1, $3);
				expr_free($1);
				free($2);
			}
			;

/* "tproxy to :80", "tproxy ip to 10.0.0.1:80", "tproxy ip6 to [::1]:80" */
tproxy_stmt		:	TPROXY TO nat_addr
			{
				$$ = $3;
				stmt_set_kind($$, STMT_TPROXY);
				$$->loc = @$;
				free($1); free($2);
			}
			|	TPROXY HDR TO nat_addr
			{
				$$ = $4;
				stmt_set_kind($$, STMT_TPROXY);
				$$->loc = @$;
				if (nat_family(state, $$, $2, &@2) < 0)
					state->nerrs++;
				free($1); free($2); free($3);
			}
			|	TPROXY TO COLON basic_rhs_expr
			{
				$$ = stmt_alloc(&@$, STMT_TPROXY);
				$$->nat.proto = $4;
				free($1); free($2);
			}
			|	TPROXY HDR TO COLON basic_rhs_expr
			{
				/* "tproxy ip to :80": a port, and the family */
				$$ = stmt_alloc(&@$, STMT_TPROXY);
				$$->nat.proto = $5;
				if (nat_family(state, $$, $2, &@2) < 0)
					state->nerrs++;
				free($1); free($2); free($3);
			}
			;

notrack_stmt		:	NOTRACK
			{
				$$ = stmt_kind_parse("notrack", &@$, NULL, 0,
						     state->msgs);
				free($1);
			}
			;

/* "last", "last used never", "last used 1h2m3s" */
last_stmt		:	LAST
			{
				$$ = stmt_kind_parse("last", &@$, (struct kind_word[]){
					{ NULL, NULL } }, 1, state->msgs);
				free($1);
				if (!$$)
					YYERROR;
			}
			|	LAST USED STRING
			{
				$$ = stmt_kind_parse("last", &@$, (struct kind_word[]){
					{ $3, &@3 } }, 1, state->msgs);
				free($1); free($2); free($3);
				if (!$$)
					YYERROR;
			}
			;

/* flow add @ft, flow offload @ft: the flow goes into the flowtable */
flow_stmt		:	FLOW ADD SETREF
			{
				$$ = flow_stmt_alloc(&@$, $3, &@3);
				state->stream_deps++;
				free($1); free($2); free($3);
			}
			|	FLOW STRING SETREF
			{
				$$ = flow_stmt_alloc(&@$, $3, &@3);
				state->stream_deps++;
				if (strcmp($2, "offload")) {
					error_queue(state->msgs, &@2,
						    "expected \"add\" or \"offload\" after flow, not \"%s\"", $2);
					stmt_free($$);
					free($1); free($2); free($3);
					YYERROR;
				}
				free($1); free($2); free($3);
			}
			;

/*
 * nft 1.0.6's forms: "queue" with "num N[-M]", "bypass" and "fanout" in
 * any order (the statement is then where "queue" is), "queue to EXPR",
 * "queue flags F,... to EXPR" and "queue flags F,... num N[-M]"
 */
queue_stmt		:	QUEUE
			{
				$$ = queue_stmt_alloc(&@$, NULL, 0);
				free($1);
			}
			|	QUEUE queue_args
			{
				$$ = $2;
				$$->loc = @1;
				free($1);
			}
			|	QUEUE TO queue_expr
			{
				$$ = queue_stmt_alloc(&@$, $3, 0);
				free($1); free($2);
			}
			|	QUEUE FLAGS queue_flags QNUM queue_num
			{
				$5->loc = @5;
				$$ = queue_stmt_alloc(&@$, $5, $3);
				free($1); free($2); free($4);
			}
			|	QUEUE FLAGS queue_flags TO queue_expr
			{
				$$ = queue_stmt_alloc(&@$, $5, $3);
				free($1); free($2); free($4);
			}
			;

queue_args		:	QNUM queue_num
			{
				$2->loc = @$;
				$$ = queue_stmt_alloc(&@$, $2, 0);
				free($1);
			}
			|	queue_flags
			{
				$$ = queue_stmt_alloc(&@$, NULL, $1);
			}
			|	queue_args QNUM queue_num
			{
				$3->loc = @2;
				$3->loc.last_line = @3.last_line;
				$3->loc.last_col = @3.last_col;
				$$ = $1;
				queue_stmt_num($$, $3);
				free($2);
			}
			|	queue_args queue_flags
			{
				$$ = $1;
				queue_stmt_flags($$, $2);
			}
			;

queue_flags		:	queue_flag
			|	queue_flags COMMA queue_flag	{ $$ = $1 | $3; }
			;

queue_flag		:	BYPASS	{ $$ = queue_flag_lookup($1); free($1); }
			|	FANOUT	{ $$ = queue_flag_lookup($1); free($1); }
			;

/* a number, a range of them or a variable */
queue_num		:	NUMBER
			{
				char buf[32];

				snprintf(buf, sizeof(buf), "%llu", (unsigned long long)$1);
				$$ = symbol_expr_alloc(&@$, buf, false);
			}
			|	NUMBER DASH NUMBER
			{
				char lo[32], hi[32];

				snprintf(lo, sizeof(lo), "%llu", (unsigned long long)$1);
				snprintf(hi, sizeof(hi), "%llu", (unsigned long long)$3);
				$$ = range_expr_alloc(&@$, symbol_expr_alloc(&@1, lo, false),
						      symbol_expr_alloc(&@3, hi, false));
			}
			|	VARIABLE	{ $$ = parser_var_ref(state, &@$, $1); free($1); state->stream_deps++; }
			;

queue_expr		:	queue_num
			|	numgen_expr
			|	hash_expr
			|	map_expr
			;

fwd_stmt		:	FWD TO stmt_value
			{
				$$ = stmt_alloc(&@$, STMT_FWD);
				$$->fwd.dev = $3;
				free($1); free($2);
			}
			|	FWD HDR TO basic_rhs_expr DEVICE stmt_value
			{
				$$ = stmt_alloc(&@$, STMT_FWD);
				$$->fwd.addr = $4;
				$$->fwd.dev = $6;
				if (fwd_family(state, $$, $2, &@2) < 0)
					state->nerrs++;
				free($1); free($2); free($3); free($5);
			}
			;

/* the one value is the device in netdev, the address in ip and ip6 (eval) */
dup_stmt		:	DUP TO stmt_value
			{
				$$ = stmt_alloc(&@$, STMT_DUP);
				$$->fwd.dev = $3;
				free($1); free($2);
			}
			|	DUP TO stmt_value DEVICE stmt_value
			{
				$$ = stmt_alloc(&@$, STMT_DUP);
				$$->fwd.addr = $3;
				$$->fwd.dev = $5;
				free($1); free($2); free($4);
			}
			;

nat_stmt		:	nat_stmt_args
			|	nat_stmt_args nat_flags
			{
				$$ = $1;
				/* as nft: flags replace the prefix's netmap */
				$$->nat.flags = ($$->nat.flags & ~NF_NAT_RANGE_NETMAP) | $2;
			}
			;

nat_stmt_args		:	nat_type TO nat_addr
			{
				$$ = $3;
				$$->loc = @$;
				$$->nat.type = $1;
				free($2);
			}
			|	nat_type nat_addr
			{
				/* the older form without "to", still nft's */
				$$ = $2;
				$$->loc = @$;
				$$->nat.type = $1;
			}
			|	nat_type HDR TO nat_addr
			{
				$$ = $4;
				$$->loc = @$;
				$$->nat.type = $1;
				if (nat_family(state, $$, $2, &@2) < 0)
					state->nerrs++;
				free($2); free($3);
			}
			|	nat_type HDR PREFIX TO nat_addr
			{
				/* "snat ip prefix to ip saddr map { 10.0.0.0/8 :
				   192.168.0.0/16 }": the kernel maps the prefix */
				$$ = $5;
				$$->loc = @$;
				$$->nat.type = $1;
				$$->nat.flags |= NF_NAT_RANGE_NETMAP;
				if (nat_family(state, $$, $2, &@2) < 0)
					state->nerrs++;
				free($2); free($3); free($4);
			}
			|	nat_type HDR ADDR_PORT TO nat_addr
			{
				/* "dnat ip addr . port to ip daddr map { ... :
				   192.168.1.1 . 80 }": the map's values set both */
				$$ = $5;
				$$->loc = @$;
				$$->nat.type = $1;
				$$->nat.addr_port = true;
				if (nat_family(state, $$, $2, &@2) < 0)
					state->nerrs++;
				free($2); free($4);
			}
			|	nat_type PREFIX TO nat_addr
			{
				$$ = $4;
				$$->loc = @$;
				$$->nat.type = $1;
				$$->nat.flags |= NF_NAT_RANGE_NETMAP;
				free($2); free($3);
			}
			|	nat_type TO COLON basic_rhs_expr
			{
				/* "dnat to :80": the port alone */
				$$ = stmt_alloc(&@$, STMT_NAT);
				$$->nat.type = $1;
				$$->nat.proto = $4;
				free($2);
			}
			|	nat_type TO COLON map_expr
			{
				$$ = stmt_alloc(&@$, STMT_NAT);
				$$->nat.type = $1;
				$$->nat.proto = $4;
				free($2);
			}
			|	MASQUERADE
			{
				$$ = stmt_alloc(&@$, STMT_NAT);
				$$->nat.type = NFH_NAT_MASQ;
				free($1);
			}
			|	MASQUERADE TO COLON basic_rhs_expr
			{
				$$ = stmt_alloc(&@$, STMT_NAT);
				$$->nat.type = NFH_NAT_MASQ;
				$$->nat.proto = $4;
				free($1); free($2);
			}
			|	MASQUERADE TO COLON map_expr
			{
				/* "masquerade to :th dport map { 1 : 2 }" */
				$$ = stmt_alloc(&@$, STMT_NAT);
				$$->nat.type = NFH_NAT_MASQ;
				$$->nat.proto = $4;
				free($1); free($2);
			}
			|	REDIRECT
			{
				$$ = stmt_alloc(&@$, STMT_NAT);
				$$->nat.type = NFH_NAT_REDIR;
				free($1);
			}
			|	REDIRECT TO COLON basic_rhs_expr
			{
				$$ = stmt_alloc(&@$, STMT_NAT);
				$$->nat.type = NFH_NAT_REDIR;
				$$->nat.proto = $4;
				free($1); free($2);
			}
			|	REDIRECT TO COLON map_expr
			{
				/* "redirect to :th dport map { 1 : 2 }" */
				$$ = stmt_alloc(&@$, STMT_NAT);
				$$->nat.type = NFH_NAT_REDIR;
				$$->nat.proto = $4;
				free($1); free($2);
			}
			|	REDIRECT TO basic_rhs_expr
			{
				/* "redirect to 22": nft takes the port without
				   its colon (and lists it with one) */
				$$ = stmt_alloc(&@$, STMT_NAT);
				$$->nat.type = NFH_NAT_REDIR;
				$$->nat.proto = $3;
				free($1); free($2);
			}
			|	REDIRECT TO map_expr
			{
				$$ = stmt_alloc(&@$, STMT_NAT);
				$$->nat.type = NFH_NAT_REDIR;
				$$->nat.proto = $3;
				free($1); free($2);
			}
			;

nat_type		:	SNAT	{ $$ = NFH_NAT_SNAT; free($1); }
			|	DNAT	{ $$ = NFH_NAT_DNAT; free($1); }
			;

/* after "snat ip" or "dnat ip6" */
nat_addr		:	stmt_value
			{
				$$ = stmt_alloc(&@$, STMT_NAT);
				$$->nat.addr = $1;
			}
			|	stmt_value COLON basic_rhs_expr
			{
				$$ = stmt_alloc(&@$, STMT_NAT);
				$$->nat.addr = $1;
				$$->nat.proto = $3;
			}
			|	stmt_value COLON map_expr
			{
				/* ports from a map */
				$$ = stmt_alloc(&@$, STMT_NAT);
				$$->nat.addr = $1;
				$$->nat.proto = $3;
			}
			;

nat_flags		:	nat_flag
			|	nat_flags COMMA nat_flag	{ $$ = $1 | $3; }
			;

nat_flag		:	STRING
			{
				int f = stmt_nat_flag($1);

				if (f < 0) {
					error_queue(state->msgs, &@1,
						    "unknown nat flag \"%s\": random, fully-random or persistent",
						    $1);
					state->nerrs++;
					f = 0;
				}
				$$ = f;
				free($1);
			}
			;

stmt_value		:	basic_rhs_expr
			|	stmt_concat_expr
			|	stmt_concat_expr MAP rhs_map
			{
				$$ = map_expr_alloc(&@$, $1, $3);
				free($2);
			}
			;

/*
 * What a statement writes may combine values of the packet (nft 1.2:
 * "meta mark set ct mark & 0xffff0000 | meta mark & 0xffff"): &, ^ and |
 * take a selector as their right side too, at the same precedence; the
 * kernel's bitwise with a second source register (Linux 6.13) computes it
 */
stmt_concat_expr	:	stmt_or_expr
			|	stmt_concat_expr DOT stmt_or_expr
			{
				if ($1->kind != EXPR_CONCAT) {
					struct expr *c = compound_expr_alloc(&@$, EXPR_CONCAT);

					compound_expr_add(c, $1);
					$1 = c;
				}
				compound_expr_add($1, $3);
				$1->loc = @$;
				$$ = $1;
			}
			;

stmt_or_expr		:	stmt_xor_expr
			|	stmt_or_expr '|' rhs_xor_expr
			{
				$$ = binop_expr_alloc(&@$, OP_OR, $1, $3);
			}
			|	stmt_or_expr '|' stmt_xor_expr
			{
				$$ = binop_expr_alloc(&@$, OP_OR, $1, $3);
			}
			;

stmt_xor_expr		:	stmt_and_expr
			|	stmt_xor_expr CARET rhs_and_expr
			{
				$$ = binop_expr_alloc(&@$, OP_XOR, $1, $3);
			}
			|	stmt_xor_expr CARET stmt_and_expr
			{
				$$ = binop_expr_alloc(&@$, OP_XOR, $1, $3);
			}
			;

stmt_and_expr		:	stmt_shift_expr
			|	stmt_and_expr AMPERSAND primary_rhs_expr
			{
				$$ = binop_expr_alloc(&@$, OP_AND, $1, $3);
			}
			|	stmt_and_expr AMPERSAND stmt_shift_expr
			{
				$$ = binop_expr_alloc(&@$, OP_AND, $1, $3);
			}
			;

stmt_shift_expr		:	stmt_primary_expr
			|	stmt_shift_expr LSHIFT primary_rhs_expr
			{
				$$ = binop_expr_alloc(&@$, OP_LSHIFT, $1, $3);
			}
			|	stmt_shift_expr RSHIFT primary_rhs_expr
			{
				$$ = binop_expr_alloc(&@$, OP_RSHIFT, $1, $3);
			}
			;

stmt_primary_expr	:	selector_expr
			|	'(' stmt_or_expr ')'	{ $$ = $2; }
			;

map_expr		:	concat_expr MAP rhs_map
			{
				$$ = map_expr_alloc(&@$, $1, $3);
				free($2);
			}
			;

/* nft 1.1: a variable as the map (vmap $vm, define vm = { 1 : accept }) */
rhs_map			:	set_expr
			|	SETREF	{ $$ = set_ref_expr_alloc(&@$, $1); free($1); state->stream_deps++; }
			|	VARIABLE	{ $$ = parser_var_ref(state, &@$, $1); free($1); state->stream_deps++; }
			;

match_stmt		:	relational_expr	{ $$ = match_stmt_alloc(&@$, $1); }
			;

relational_expr		:	expr rhs_expr
			{
				$$ = relational_expr_alloc(&@$, OP_IMPLICIT, $1, $2);
			}
			|	expr list_rhs_expr
			{
				$$ = relational_expr_alloc(&@$, OP_IMPLICIT, $1, $2);
			}
			|	expr relop rhs_expr
			{
				$$ = relational_expr_alloc(&@$, $2, $1, $3);
			}
			|	expr relop list_rhs_expr
			{
				$$ = relational_expr_alloc(&@$, $2, $1, $3);
			}
			;

relop			:	EQ	{ $$ = OP_EQ; }
			|	NEQ	{ $$ = OP_NEQ; }
			|	LT	{ $$ = OP_LT; }
			|	GT	{ $$ = OP_GT; }
			|	LTE	{ $$ = OP_LTE; }
			|	GTE	{ $$ = OP_GTE; }
			|	NOT	{ $$ = OP_NEG; }
			;

expr			:	concat_expr
			;

concat_expr		:	basic_expr
			|	concat_expr DOT basic_expr
			{
				if ($1->kind != EXPR_CONCAT) {
					struct expr *c = compound_expr_alloc(&@$, EXPR_CONCAT);

					compound_expr_add(c, $1);
					$1 = c;
				}
				compound_expr_add($1, $3);
				$1->loc = @$;
				$$ = $1;
			}
			;

/*
 * C's precedence, as nft has it: << and >> bind tightest, then &, ^ and |;
 * what follows an operator is a constant of the next tighter level
 * ("meta mark | 0x1 ^ 0x3" is meta mark | 0x2)
 */
basic_expr		:	or_expr
			;

or_expr			:	xor_expr
			|	or_expr '|' rhs_xor_expr
			{
				$$ = binop_expr_alloc(&@$, OP_OR, $1, $3);
			}
			;

xor_expr		:	and_expr
			|	xor_expr CARET rhs_and_expr
			{
				$$ = binop_expr_alloc(&@$, OP_XOR, $1, $3);
			}
			;

and_expr		:	shift_expr
			|	and_expr AMPERSAND primary_rhs_expr
			{
				$$ = binop_expr_alloc(&@$, OP_AND, $1, $3);
			}
			;

shift_expr		:	primary_expr
			|	shift_expr LSHIFT primary_rhs_expr
			{
				$$ = binop_expr_alloc(&@$, OP_LSHIFT, $1, $3);
			}
			|	shift_expr RSHIFT primary_rhs_expr
			{
				$$ = binop_expr_alloc(&@$, OP_RSHIFT, $1, $3);
			}
			;

primary_expr		:	selector_expr
			|	'(' expr ')'	{ $$ = $2; }
			;

selector_expr		:	payload_expr
			|	meta_expr
			|	ct_expr
			|	fib_expr
			|	rt_expr
			|	socket_expr
			|	osf_expr
			|	ipsec_expr
			|	numgen_expr
			|	hash_expr
			|	exthdr_expr
			|	exthdr_presence	/* a boolean: "tcp option mss 1" */
			;

/* "tcp option maxseg size", "sctp chunk init flags", "frag id" */
exthdr_expr		:	HDR OPTION STRING exthdr_field
			{
				$$ = exthdr_grammar_expr(state, &@$, $1, &@1,
							 NFT_EXTHDR_OP_TCPOPT, $3, &@3, $4, &@4);
				free($1); free($2); free($3); free($4);
				if (!$$)
					YYERROR;
			}
			|	HDR OPTION NUMBER exthdr_field
			{
				$$ = tcpopt_kind_expr(state, &@$, $1, &@1, $3, &@3,
						      $4, &@4);
				free($1); free($2); free($4);
				if (!$$)
					YYERROR;
			}
			|	HDR OPTION SETREF COMMA NUMBER COMMA NUMBER
			{
				/* "tcp option @KIND,OFFSET,LENGTH", in bits */
				if (strcmp($1, "tcp")) {
					error_queue(state->msgs, &@1, "%s options have no raw form; tcp options have",
						    $1);
					$$ = NULL;
				} else {
					struct location kloc = @3;

					kloc.first_col++;	/* past the "@" */
					$$ = tcpopt_raw_parse(&@$, $3, &kloc, $5, $7,
							      state->msgs);
				}
				free($1); free($2); free($3);
				if (!$$)
					YYERROR;
			}
			|	HDR CHUNK STRING exthdr_field
			{
				$$ = exthdr_grammar_expr(state, &@$, $1, &@1,
							 NFT_EXTHDR_OP_SCTP, $3, &@3, $4, &@4);
				free($1); free($2); free($3); free($4);
				if (!$$)
					YYERROR;
			}
			|	EXTHDR_NAME exthdr_field
			{
				$$ = exthdr_grammar_expr(state, &@$, NULL, NULL,
							 NFT_EXTHDR_OP_IPV6, $1, &@1, $2, &@2);
				free($1); free($2);
				if (!$$)
					YYERROR;
			}
			;

/* "tcp option sack-perm", "exthdr frag": only before exists or missing */
/* a following word is a field: "tcp option mss size" */
exthdr_presence		:	HDR OPTION STRING %prec HDR_SYM
			{
				$$ = exthdr_grammar_expr(state, &@$, $1, &@1,
							 NFT_EXTHDR_OP_TCPOPT, $3, &@3, NULL, NULL);
				free($1); free($2); free($3);
				if (!$$)
					YYERROR;
			}
			|	HDR OPTION NUMBER %prec HDR_SYM
			{
				$$ = tcpopt_kind_expr(state, &@$, $1, &@1, $3, &@3,
						      NULL, NULL);
				free($1); free($2);
				if (!$$)
					YYERROR;
			}
			|	HDR CHUNK STRING %prec HDR_SYM
			{
				$$ = exthdr_grammar_expr(state, &@$, $1, &@1,
							 NFT_EXTHDR_OP_SCTP, $3, &@3, NULL, NULL);
				free($1); free($2); free($3);
				if (!$$)
					YYERROR;
			}
			|	EXTHDR EXTHDR_NAME
			{
				$$ = exthdr_grammar_expr(state, &@$, NULL, NULL,
							 NFT_EXTHDR_OP_IPV6, $2, &@2, NULL, NULL);
				free($1); free($2);
				if (!$$)
					YYERROR;
			}
			|	EXTHDR RT
			{
				$$ = exthdr_grammar_expr(state, &@$, NULL, NULL,
							 NFT_EXTHDR_OP_IPV6, $2, &@2, NULL, NULL);
				free($1); free($2);
				if (!$$)
					YYERROR;
			}
			;

exthdr_field		:	STRING | TYPE | SIZE | FLAGS | COUNT
			;

fib_expr		:	FIB fib_flags fib_result
			{
				$$ = fib_expr_parse(&@$, $2, $3, &@3, state->msgs);
				free($1); free($3);
				if (!$$)
					YYERROR;
			}
			;

fib_flags		:	fib_flag
			|	fib_flags DOT fib_flag	{ $$ = $1 | $3; }
			;

fib_flag		:	SADDR	{ $$ = NFTA_FIB_F_SADDR; free($1); }
			|	DADDR	{ $$ = NFTA_FIB_F_DADDR; free($1); }
			|	METAKEY
			{
				/* mark, iif, oif */
				$$ = fib_flag_lookup($1);
				if ($$ < 0) {
					error_queue(state->msgs, &@1,
						    "unknown fib flag \"%s\"; expected saddr, daddr, mark, iif or oif",
						    $1);
					state->nerrs++;
					$$ = 0;
				}
				free($1);
			}
			;

fib_result		:	METAKEY
			|	TYPE
			|	STRING	/* "check", or an unknown result's error */
			;

rt_expr			:	RT word
			{
				$$ = rt_grammar_expr(state, &@$, $2, &@2);
				free($1); free($2);
				if (!$$)
					YYERROR;
			}
			|	RT TYPE
			{
				$$ = rt_grammar_expr(state, &@$, $2, &@2);
				free($1); free($2);
				if (!$$)
					YYERROR;
			}
			|	RT HDR word
			{
				$$ = expr_kind_parse("rt", &@$, (struct kind_word[]){
					{ $2, &@2 }, { $3, &@3 } }, 2, state->msgs);
				free($1); free($2); free($3);
				if (!$$)
					YYERROR;
			}
			;

socket_expr		:	SOCKET word
			{
				$$ = expr_kind_parse("socket", &@$, (struct kind_word[]){
					{ $2, &@2 } }, 1, state->msgs);
				free($1); free($2);
				if (!$$)
					YYERROR;
			}
			|	SOCKET word LEVEL NUMBER
			{
				/* "socket cgroupv2 level 1" */
				char lvl[24];

				snprintf(lvl, sizeof(lvl), "%llu", (unsigned long long)$4);
				$$ = expr_kind_parse("socket", &@$, (struct kind_word[]){
					{ $2, &@2 }, { lvl, &@4 } }, 2, state->msgs);
				free($1); free($2); free($3);
				if (!$$)
					YYERROR;
			}
			;

/* "osf [ttl loose|skip] name|version": ttl and version are plain words */
osf_expr		:	OSF osf_key
			{
				$$ = expr_kind_parse("osf", &@$, (struct kind_word[]){
					{ NULL, NULL }, { NULL, NULL }, { $2, &@2 } },
					3, state->msgs);
				free($1); free($2);
				if (!$$)
					YYERROR;
			}
			|	OSF STRING STRING osf_key
			{
				$$ = expr_kind_parse("osf", &@$, (struct kind_word[]){
					{ $2, &@2 }, { $3, &@3 }, { $4, &@4 } },
					3, state->msgs);
				free($1); free($2); free($3); free($4);
				if (!$$)
					YYERROR;
			}
			;

/* a word after "osf" starts "ttl loose" rather than ending the key */
osf_key			:	NAME
			|	STRING %prec HDR_SYM
			;

/*
 * "ipsec in|out [spnum N] reqid|spi|ip saddr|ip6 daddr": in, out, reqid
 * and spi are plain words; "ipsec" alone is nft's unqualified meta ipsec
 */
ipsec_expr		:	IPSEC %prec HDR_SYM
			{
				$$ = meta_expr_parse(&@$, $1, &@1, true, state->msgs);
				free($1);
				if (!$$)
					YYERROR;
			}
			|	IPSEC STRING ipsec_spnum STRING
			{
				$$ = expr_kind_parse("ipsec", &@$, (struct kind_word[]){
					{ $2, &@2 }, { $3, &@3 }, { NULL, NULL }, { $4, &@4 } },
					4, state->msgs);
				free($1); free($2); free($3); free($4);
				if (!$$)
					YYERROR;
			}
			|	IPSEC STRING ipsec_spnum HDR ipsec_addr
			{
				$$ = expr_kind_parse("ipsec", &@$, (struct kind_word[]){
					{ $2, &@2 }, { $3, &@3 }, { $4, &@4 }, { $5, &@5 } },
					4, state->msgs);
				free($1); free($2); free($3); free($4); free($5);
				if (!$$)
					YYERROR;
			}
			;

ipsec_spnum		:	%empty	{ $$ = NULL; }
			|	SPNUM NUMBER
			{
				char buf[32];

				snprintf(buf, sizeof(buf), "%llu", (unsigned long long)$2);
				$$ = xstrdup(buf);
				free($1);
			}
			;

ipsec_addr		:	SADDR | DADDR | STRING
			;

numgen_expr		:	NUMGEN STRING MOD NUMBER numgen_offset
			{
				$$ = numgen_expr_parse(&@$, $2, &@2, $4, $5, state->msgs);
				free($1); free($2); free($3);
				if (!$$)
					YYERROR;
			}
			;

numgen_offset		:	%empty	{ $$ = 0; }
			|	OFFSET NUMBER	{ $$ = $2; free($1); }
			;

hash_expr		:	JHASH concat_expr MOD NUMBER numgen_offset
			{
				$$ = hash_expr_parse(&@$, NFT_HASH_JENKINS, $2, $4, -1,
						     $5, state->msgs);
				free($1); free($3);
				if (!$$)
					YYERROR;
			}
			|	JHASH concat_expr MOD NUMBER SEED NUMBER numgen_offset
			{
				$$ = hash_expr_parse(&@$, NFT_HASH_JENKINS, $2, $4,
						     $6 > UINT32_MAX ? (int64_t)UINT32_MAX + 1 : (int64_t)$6,
						     $7, state->msgs);
				free($1); free($3); free($5);
				if (!$$)
					YYERROR;
			}
			|	SYMHASH MOD NUMBER numgen_offset
			{
				$$ = hash_expr_parse(&@$, NFT_HASH_SYM, NULL, $3, -1, $4,
						     state->msgs);
				free($1); free($2);
				if (!$$)
					YYERROR;
			}
			;

payload_expr		:	SETREF COMMA NUMBER COMMA NUMBER
			{
				/* raw: @ll|@nh|@th,OFFSET,LENGTH in bits */
				enum proto_base base = payload_raw_base($1);

				if (base == PROTO_BASE_INVALID) {
					error_queue(state->msgs, &@1,
						    "unknown payload base \"%s\": %s", $1,
						    PAYLOAD_RAW_BASES);
					free($1);
					YYERROR;
				}
				if (!payload_raw_valid($3, $5)) {
					error_queue(state->msgs, &@$, "%s",
						    PAYLOAD_RAW_LIMITS);
					free($1);
					YYERROR;
				}
				$$ = payload_raw_alloc(&@$, base, $3, $5);
				free($1);
			}
			|	hdr_field_expr
			|	HDR hdr_field_expr
			{
				/* nft 1.1: "vxlan ip saddr", inside a tunnel */
				$$ = inner_expr_parse(&@$, $1, &@1, $2, state->msgs);
				free($1);
				if (!$$)
					YYERROR;
			}
			;

/* "ip saddr", "arp saddr ip" */
hdr_field_expr		:	HDR SADDR HDR
			{
				/* arp saddr ip, arp saddr ether */
				char *f = xasprintf("%s %s", $2, $3);

				$$ = payload_expr_parse(&@$, $1, &@1, f, &@2, state->msgs);
				free(f); free($1); free($2); free($3);
				if (!$$)
					YYERROR;
			}
			|	HDR DADDR HDR
			{
				char *f = xasprintf("%s %s", $2, $3);

				$$ = payload_expr_parse(&@$, $1, &@1, f, &@2, state->msgs);
				free(f); free($1); free($2); free($3);
				if (!$$)
					YYERROR;
			}
			|	HDR field_word
			{
				$$ = inner_field_wrap(payload_expr_parse(&@$, $1, &@1, $2,
									 &@2, state->msgs));
				free($1); free($2);
				if (!$$)
					YYERROR;
			}
			|	HDR TYPE
			{
				$$ = inner_field_wrap(payload_expr_parse(&@$, $1, &@1, $2,
									 &@2, state->msgs));
				free($1); free($2);
				if (!$$)
					YYERROR;
			}
			;


meta_expr		:	META word
			{
				$$ = meta_expr_parse(&@$, $2, &@2, false, state->msgs);
				free($1); free($2);
				if (!$$)
					YYERROR;
			}
			|	METAKEY
			{
				$$ = meta_expr_parse(&@$, $1, &@1, true, state->msgs);
				free($1);
				if (!$$)
					YYERROR;
			}
			;

ct_expr			:	CT word
			{
				$$ = ct_expr_parse(&@$, $2, &@2, NULL, NULL, state->msgs);
				free($1); free($2);
				if (!$$)
					YYERROR;
			}
			|	CT ct_dir word
			{
				$$ = ct_expr_parse(&@$, $3, &@3, $2, &@2, state->msgs);
				free($1); free($2); free($3);
				if (!$$)
					YYERROR;
			}
			|	CT ct_dir HDR word
			{
				/* "ct original ip6 saddr" */
				char *key = xasprintf("%s %s", $3, $4);

				$$ = ct_expr_parse(&@$, key, &@3, $2, &@2, state->msgs);
				free(key);
				free($1); free($2); free($3); free($4);
				if (!$$)
					YYERROR;
			}
			;

ct_dir			:	ORIGINAL
			|	REPLY
			;

/* words that name fields, meta and ct keys although they are keywords */
word			:	field_word
			|	METAKEY
			|	SECMARK
			|	IPSEC	/* meta ipsec, rt ipsec */
			;

field_word		:	STRING
			|	keyword_word
			;

keyword_word		:	PRIORITY | BYTES | PACKETS | PREFIX | LEVEL
			|	DEVICE | GROUP | FLAGS | HANDLE | INDEX | RATE
			|	SADDR %prec HDR_SYM
			|	DADDR %prec HDR_SYM
			;

rhs_expr		:	concat_rhs_expr
			|	set_expr
			|	SETREF	{ $$ = set_ref_expr_alloc(&@$, $1); free($1); state->stream_deps++; }
			;

list_rhs_expr		:	basic_rhs_expr COMMA basic_rhs_expr
			{
				$$ = compound_expr_alloc(&@$, EXPR_LIST);
				compound_expr_add($$, $1);
				if ($3->kind == EXPR_BINOP && $3->op.op == OP_MASK) {
					compound_expr_add($$, $3->op.left);
					$3->op.left = $$;
					$3->loc = @$;
					$$ = $3;
				} else {
					compound_expr_add($$, $3);
				}
			}
			|	list_rhs_expr COMMA basic_rhs_expr
			{
				$$ = $1;
				$$->loc = @$;
				if ($3->kind == EXPR_BINOP && $3->op.op == OP_MASK) {
					/* "a,b / c,d": the mask applies to the whole list */
					compound_expr_add($$, $3->op.left);
					$3->op.left = $$;
					$3->loc = @$;
					$$ = $3;
				} else {
					compound_expr_add($$, $3);
				}
			}
			;

concat_rhs_expr		:	basic_rhs_expr
			|	concat_rhs_expr DOT basic_rhs_expr
			{
				if ($1->kind != EXPR_CONCAT) {
					struct expr *c = compound_expr_alloc(&@$, EXPR_CONCAT);

					compound_expr_add(c, $1);
					$1 = c;
				}
				compound_expr_add($1, $3);
				$1->loc = @$;
				$$ = $1;
			}
			;

basic_rhs_expr		:	rhs_or_expr
			|	rhs_or_expr DASH rhs_or_expr
			{
				$$ = range_expr_alloc(&@$, $1, $3);
			}
			|	rhs_or_expr SLASH NUMBER
			{
				$$ = prefix_expr_alloc(&@$, $1, $3);
			}
			|	rhs_or_expr SLASH mask_list %prec MASK_LIST
			{
				$$ = binop_expr_alloc(&@$, OP_MASK, $1, $3);
			}
			;

mask_list		:	symbol_value
			|	mask_list COMMA mask_elem
			{
				if ($1->kind != EXPR_LIST) {
					struct expr *l = compound_expr_alloc(&@$, EXPR_LIST);

					compound_expr_add(l, $1);
					$1 = l;
				}
				compound_expr_add($1, $3);
				$1->loc = @$;
				$$ = $1;
			}
			;

/* "ct status expected,0x40 / expected,0x40": bits without a name too */
mask_elem		:	symbol_value
			|	NUMBER
			{
				char buf[32];

				snprintf(buf, sizeof(buf), "%llu", (unsigned long long)$1);
				$$ = symbol_expr_alloc(&@$, buf, false);
			}
			;

rhs_or_expr		:	rhs_xor_expr
			|	rhs_or_expr '|' rhs_xor_expr
			{
				$$ = binop_expr_alloc(&@$, OP_OR, $1, $3);
			}
			;

rhs_xor_expr		:	rhs_and_expr
			|	rhs_xor_expr CARET rhs_and_expr
			{
				$$ = binop_expr_alloc(&@$, OP_XOR, $1, $3);
			}
			;

rhs_and_expr		:	primary_rhs_expr
			|	rhs_and_expr AMPERSAND primary_rhs_expr
			{
				$$ = binop_expr_alloc(&@$, OP_AND, $1, $3);
			}
			;

primary_rhs_expr	:	symbol_value
			|	NUMBER
			{
				char buf[32];

				snprintf(buf, sizeof(buf), "%llu", (unsigned long long)$1);
				$$ = symbol_expr_alloc(&@$, buf, false);
			}
			|	'(' basic_rhs_expr ')'	{ $$ = $2; }
			;

symbol_value		:	STRING		{ $$ = symbol_expr_alloc(&@$, $1, false); free($1); }
			|	EXISTS		{ $$ = symbol_expr_alloc(&@$, $1, false); free($1); }
			|	MISSING		{ $$ = symbol_expr_alloc(&@$, $1, false); free($1); }
			|	LAST		{ $$ = symbol_expr_alloc(&@$, $1, false); free($1); }
			|	QUOTED_STRING	{ $$ = symbol_expr_alloc(&@$, $1, true); free($1); }
			|	VARIABLE	{ $$ = parser_var_ref(state, &@$, $1); free($1); state->stream_deps++; }
			|	HDR %prec HDR_SYM
			{
				/* "snat to tcp random": no; "snat to ip saddr": yes */
				$$ = symbol_expr_alloc(&@$, $1, false); free($1);
			}
			|	ACCEPT		{ $$ = symbol_expr_alloc(&@$, $1, false); free($1); }
			|	DROP		{ $$ = symbol_expr_alloc(&@$, $1, false); free($1); }
			|	INET		{ $$ = symbol_expr_alloc(&@$, $1, false); free($1); }
			|	BRIDGE		{ $$ = symbol_expr_alloc(&@$, $1, false); free($1); }
			|	NETDEV		{ $$ = symbol_expr_alloc(&@$, $1, false); free($1); }
			|	REDIRECT	{ $$ = symbol_expr_alloc(&@$, $1, false); free($1); }
			|	SNAT		{ $$ = symbol_expr_alloc(&@$, $1, false); free($1); }
			|	DNAT		{ $$ = symbol_expr_alloc(&@$, $1, false); free($1); }
			|	ORIGINAL	{ $$ = symbol_expr_alloc(&@$, $1, false); free($1); }
			|	REPLY		{ $$ = symbol_expr_alloc(&@$, $1, false); free($1); }
			|	DESTROY		{ $$ = symbol_expr_alloc(&@$, $1, false); free($1); }
			|	RESET		{ $$ = symbol_expr_alloc(&@$, $1, false); free($1); }
			|	BADNUMBER
			{
				/* past 64 bits: the value's type reads it (a
				   raw load that wide, "@th,64,128 0xfe80...1")
				   or says it is out of its range */
				$$ = symbol_expr_alloc(&@$, $1, false);
				free($1);
			}
			;

set_expr		:	'{' opt_newlines set_list opt_newlines '}'
			{
				$$ = $3;
				$$->loc = @$;
			}
			|	'{' opt_newlines set_list COMMA opt_newlines '}'
			{
				$$ = $3;
				$$->loc = @$;
			}
			;

set_list		:	set_elem
			{
				$$ = compound_expr_alloc(&@$, EXPR_SET);
				state->stream_deps++;
				if (!state->elem_set ||
				    !sink_elem(state, state->elem_set, $1))
					compound_expr_add($$, $1);
			}
			|	set_list COMMA opt_newlines set_elem
			{
				$$ = $1;
				if (!state->elem_set ||
				    !sink_elem(state, state->elem_set, $4))
					compound_expr_add($$, $4);
			}
			;

set_elem		:	set_elem_key
			|	set_expr	/* nested: its elements merge in */
			|	set_elem_key COLON set_rhs
			{
				$$ = mapping_expr_alloc(&@$, $1, $3);
			}
			;

set_elem_key		:	concat_rhs_expr
			|	ASTERISK	{ $$ = catchall_expr_alloc(&@$); }
			|	set_elem_key TIMEOUT elem_time_spec
			{
				$$ = elem_set_expr($1, &@$);
				$$->elem.timeout = $3;
				free($2);
			}
			|	set_elem_key EXPIRES time_spec
			{
				$$ = elem_set_expr($1, &@$);
				$$->elem.expires = $3;
				free($2);
			}
			|	set_elem_key COMMENT string
			{
				$$ = elem_set_expr($1, &@$);
				free($$->elem.comment);
				$$->elem.comment = comment_of(state, $3, &@3);
				free($2);
			}
			|	set_elem_key COUNTER
			{
				elem_counter_once(state, $1, &@2);
				$$ = elem_set_expr($1, &@$);
				$$->elem.counter = true;
				$$->elem.counter_at = elem_stmts_count($$) - 1;
				free($2);
			}
			|	set_elem_key COUNTER PACKETS NUMBER BYTES NUMBER
			{
				elem_counter_once(state, $1, &@2);
				$$ = elem_set_expr($1, &@$);
				$$->elem.counter = true;
				$$->elem.counter_at = elem_stmts_count($$) - 1;
				$$->elem.packets = $4;
				$$->elem.bytes = $6;
				free($2); free($3); free($5);
			}
			|	set_elem_key elem_own_stmt
			{
				$$ = elem_set_expr($1, &@$);
				list_add_tail(&$2->list, &$$->elem.stmts);
			}
			;

/* the element's own state, as nft 1.1 takes it: 1.2.3.4 quota 1 mbytes */
elem_own_stmt		:	quota_stmt
			|	limit_stmt
			|	connlimit_stmt
			;

set_rhs			:	concat_rhs_expr
			|	JUMP chain_name
			{
				$$ = verdict_expr_alloc(&@$, NFT_JUMP, $2); free($1); free($2);
			}
			|	GOTO chain_name
			{
				$$ = verdict_expr_alloc(&@$, NFT_GOTO, $2); free($1); free($2);
			}
			|	CONTINUE { $$ = verdict_expr_alloc(&@$, NFT_CONTINUE, NULL); free($1); }
			|	RETURN	{ $$ = verdict_expr_alloc(&@$, NFT_RETURN, NULL); free($1); }
			;

%%

/*
 * Syntax errors.  bison's own message names at most four expected tokens,
 * by their aliases ("expecting number or over"), and nothing past that;
 * this one says the same up to four, names what is valid in words past
 * that ("expecting a verdict, a statement or end of rule"), and when the
 * word that came is a misspelt keyword valid here, says which.
 */
#define EXPECTED_NAMED	4	/* by name, as bison does */
#define EXPECTED_LISTED	8	/* by name when no words fit */

/* the keyword @k stands for, or NULL: not a keyword ("number", "'{'") */
static const char *token_keyword(yysymbol_kind_t k)
{
	const char *n = yysymbol_name(k);

	if (!isalpha((unsigned char)n[0]))
		return NULL;
	return YYTRANSLATE(scanner_word_token(n)) == k ||
	       (scanner_scoped_token(n) &&
		YYTRANSLATE(scanner_scoped_token(n)) == k) ? n : NULL;
}

static void msg_add(char *msg, size_t len, const char *fmt, const char *arg)
{
	size_t used = strlen(msg);

	if (used < len)
		snprintf(msg + used, len - used, fmt, arg);
}

static bool expects(const yysymbol_kind_t *exp, int n, yysymbol_kind_t k)
{
	for (int i = 0; i < n; i++)
		if (exp[i] == k)
			return true;
	return false;
}

/* where a statement may start: a rule, a chain block (not a meter's or
   a typeof's list, which take a few of them) */
static bool expects_stmt(const yysymbol_kind_t *exp, int n)
{
	return expects(exp, n, YYSYMBOL_COUNTER) && expects(exp, n, YYSYMBOL_LOG) &&
	       expects(exp, n, YYSYMBOL_NOTRACK);
}

/*
 * "a verdict, a statement or end of rule": what @exp holds, in words,
 * for the states where words say it all (a rule, a chain or table block,
 * a command, a value, an element of a set); false in the others
 */
static bool expected_in_words(char *msg, size_t len,
			      const yysymbol_kind_t *exp, int n)
{
	bool command = expects(exp, n, YYSYMBOL_TABLE) &&
		       expects(exp, n, YYSYMBOL_ADD);
	bool stmt = expects_stmt(exp, n);
	const char *what[6];
	unsigned int k = 0;

	if (command)
		what[k++] = "a command";
	else if (expects(exp, n, YYSYMBOL_CHAIN) && expects(exp, n, YYSYMBOL_SET))
		what[k++] = "a chain, set, map or object";
	else if (stmt) {
		if (expects(exp, n, YYSYMBOL_ACCEPT))
			what[k++] = "a verdict";
		what[k++] = "a statement";
	} else if (expects(exp, n, YYSYMBOL_NUMBER) &&
		   expects(exp, n, YYSYMBOL_STRING) &&
		   expects(exp, n, YYSYMBOL_VARIABLE)) {
		what[k++] = "a value";
		if (expects(exp, n, YYSYMBOL_EQ))
			what[k++] = "a comparison operator";
	} else if (expects(exp, n, YYSYMBOL_COMMA) &&
		   expects(exp, n, YYTRANSLATE('}'))) {
		what[k++] = "comma";
	} else if (expects(exp, n, YYSYMBOL_HDR) && expects(exp, n, YYSYMBOL_META)) {
		what[k++] = "an expression";
	} else {
		return false;
	}
	if ((expects(exp, n, YYSYMBOL_NEWLINE) ||
	     expects(exp, n, YYSYMBOL_SEMICOLON)) && !command)
		what[k++] = stmt ? "end of rule" : "end of line";
	if (expects(exp, n, YYTRANSLATE('}')))
		what[k++] = "'}'";
	for (unsigned int i = 0; i < k; i++)
		msg_add(msg, len, i == 0 ? ", expecting %s" :
				  i + 1 == k ? " or %s" : ", %s", what[i]);
	return true;
}

/* "; did you mean ..." for @word among the keywords @exp holds */
static const char *suggest_keyword(struct suggest *sg, const char *word,
				   const yysymbol_kind_t *exp, int n)
{
	suggest_init(sg, word);
	for (int i = 0; i < n; i++) {
		suggest_add(sg, token_keyword(exp[i]));
		if (exp[i] == YYSYMBOL_HDR)
			for (unsigned int j = 0; proto_nth(j); j++)
				suggest_add(sg, proto_nth(j)->name);
		if (exp[i] == YYSYMBOL_METAKEY)
			for (unsigned int j = 0; j < meta_key_max(); j++)
				if (meta_template(j) && meta_template(j)->bare)
					suggest_add(sg, meta_template(j)->name);
	}
	return suggest_hint(sg);
}

/* whether the word at @loc is the last the scanner kept (last_word) */
static bool is_last_word(const struct parser_state *state,
			 const struct location *loc)
{
	const struct location *w = &state->last_word_loc;

	return state->last_word[0] && w->indesc == loc->indesc &&
	       w->first_line == loc->first_line && w->first_col == loc->first_col;
}

/*
 * "ct state established related": two values side by side where a
 * statement may start, the first right before the second on its line
 */
static bool is_value_list(const struct parser_state *state,
			  const yysymbol_kind_t *exp, int n)
{
	const struct location *p = &state->prev_word_loc;
	const struct location *w = &state->last_word_loc;

	return state->prev_word[0] && expects_stmt(exp, n) &&
	       p->indesc == w->indesc && p->first_line == w->first_line &&
	       p->last_col < w->first_col && w->first_col <= p->last_col + 3;
}

/*
 * The family that the word after the command's object keyword, on the
 * line of the error at @loc and before it, is a misspelling of ("inte"),
 * or NULL
 */
static const char *misspelt_family(const struct parser_state *state,
				   const struct location *loc)
{
	const struct location *w = &state->spec_word_loc;
	struct suggest sg;

	if (!state->spec_word[0] || w->indesc != loc->indesc ||
	    w->first_line != loc->first_line || w->first_col >= loc->first_col ||
	    family_lookup(state->spec_word) >= 0)
		return NULL;
	suggest_family(&sg, state->spec_word);
	return sg.best;
}

static int yyreport_syntax_error(const yypcontext_t *ctx, void *scanner,
				 struct parser_state *state)
{
	yysymbol_kind_t exp[YYNTOKENS], got = yypcontext_token(ctx);
	int n = yypcontext_expected_tokens(ctx, exp, YYNTOKENS);
	char msg[1024] = "syntax error";
	struct suggest sg;

	if ((got == YYSYMBOL_YYEOF || state->eof_closing) && state->lost_seen) {
		/* the braces don't match because of that error */
		state->nerrs++;
		return 0;
	}
	/*
	 * "{ type filter hook input priority filter }": the '}' still ends
	 * the block (see error_close), unless it is one given again that
	 * errs again (a '}' with no block to close): then it is dropped
	 */
	if (!strcmp(yysymbol_name(got), "'}'") && !state->block_closed) {
		const struct location *l = yypcontext_location(ctx);
		const struct location *e = &state->error_close_loc;

		if (l->indesc == e->indesc && l->first_line == e->first_line &&
		    l->first_col == e->first_col) {
			state->nerrs++;
			return 0;
		}
		state->error_close = true;
		state->error_close_lost = state->lost_braces;
		state->error_close_loc = *l;
	}
	if (got != YYSYMBOL_YYEMPTY)
		msg_add(msg, sizeof(msg), ", unexpected %s", yysymbol_name(got));
	if (n > EXPECTED_NAMED && (got != YYSYMBOL_YYEOF || !state->nerrs) &&
	    expected_in_words(msg, sizeof(msg), exp, n))
		;
	else if (n > 0 && n <= (got == YYSYMBOL_YYEOF && state->nerrs ?
				EXPECTED_NAMED : EXPECTED_LISTED))
		for (int i = 0; i < n; i++)
			msg_add(msg, sizeof(msg), i == 0 ? ", expecting %s" :
					  i + 1 < n && n > EXPECTED_NAMED ?
					  ", %s" : " or %s",
				yysymbol_name(exp[i]));
	if (got == YYSYMBOL_STRING && n > 0 &&
	    is_last_word(state, yypcontext_location(ctx))) {
		const char *hint = suggest_keyword(&sg, state->last_word, exp, n);
		const char *family = hint[0] ? NULL :
				     misspelt_family(state, yypcontext_location(ctx));

		if (family) {
			/* "add rule inte t c": inte was the table's name */
			msg_add(msg, sizeof(msg), "; \"%s\" is no family, so it was read as the table's name:",
				state->spec_word);
			msg_add(msg, sizeof(msg), " did you mean \"%s\"?", family);
		} else if (!hint[0] && is_value_list(state, exp, n)) {
			/* a list of values without braces */
			msg_add(msg, sizeof(msg),
				"; a list of values goes in braces: \"{ %s, ",
				state->prev_word);
			msg_add(msg, sizeof(msg), "%s }\"", state->last_word);
		} else {
			msg_add(msg, sizeof(msg), "%s", hint);
		}
	} else if (n == 2 && expects(exp, n, YYSYMBOL_NEWLINE) &&
		 expects(exp, n, YYSYMBOL_SEMICOLON) && !state->block_closed &&
		 token_keyword(got))
		/* "priority 0 policy drop": two statements on one line */
		msg_add(msg, sizeof(msg), "%s",
			"; end what comes before it with a newline or ';'");
	yyerror(yypcontext_location(ctx), scanner, state, msg);
	return 0;
}

bool parser_name_is_bare(const char *name)
{
	/* the scanner's {string}: a letter or _, then letters, digits, - _ . / */
	if (!isalpha((unsigned char)name[0]) && name[0] != '_')
		return false;
	for (const char *p = name; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("-_./", *p))
			return false;
	/* and a word that identifier takes */
	switch (scanner_word_token(name)) {
	case STRING:
	case TO: case BYTES: case PACKETS: case OVER: case UNTIL: case LEVEL:
	case PREFIX: case GROUP: case RATE: case BURST: case USED:
	case SNAPLEN: case INDEX: case POSITION: case DEVICE: case DEVICES:
	case PRIORITY: case POLICY: case FLAGS: case EXPECTATION:
	case SYNPROXY: case SECMARK: case SETS: case MAPS: case NAME:
	case COUNT: case LAST:
		return true;
	default:
		return false;
	}
}

/* the printer asks it (print_name_is_bare) */
__attribute__((constructor)) static void name_is_bare_register(void)
{
	print_name_is_bare = parser_name_is_bare;
}

void parser_set_debug(bool on)
{
	yydebug = on;
}
