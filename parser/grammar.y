/* SPDX-License-Identifier: GPL-2.0-or-later */
%{
#include <stdlib.h>
#include <string.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>

#include <ctx.h>
#include <parser.h>
#include <proto.h>
#include <rule.h>
#include <stmt.h>

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

static void yyerror(struct location *loc, void *scanner, struct parser_state *state,
		    const char *s)
{
	error_queue(state->msgs, loc, "%s", s);
	state->nerrs++;
}

static void add_cmd(struct parser_state *state, struct cmd *cmd)
{
	list_add_tail(&cmd->list, state->cmds);
}

static void handle_set_family(struct handle *h, int family)
{
	h->family = family;
}

static struct stmt *counter_stmt(const struct location *loc, uint64_t p, uint64_t b)
{
	struct stmt *s = stmt_alloc(loc, STMT_COUNTER);

	s->counter.packets = p;
	s->counter.bytes = b;
	return s;
}

static int family_of(struct parser_state *state, const char *name,
		     const struct location *loc)
{
	int f = family_lookup(name);

	if (f < 0)
		return error_queue(state->msgs, loc,
				   "unknown address family \"%s\"", name);
	return f;
}
%}

%define api.pure full
%define parse.error verbose
%define parse.lac full
%locations
%define api.location.type {struct location}
%parse-param { void *scanner } { struct parser_state *state }
%lex-param { scanner }
%expect 0
%initial-action { @$.indesc = NULL; @$.first_line = @$.last_line = 1; @$.first_col = @$.last_col = 1; @$.line_offset = 0; }

%code {
int yylex(YYSTYPE *lval, YYLTYPE *lloc, void *scanner);
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
	struct handle		handle;
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
%token <string> METAKEY	"meta key"

%token <string> ACCEPT "accept" ADD "add" OVER "over" BRIDGE "bridge"
%token <string> BURST "burst" BYTES "bytes" CHAIN "chain" CHAINS "chains"
%token <string> COMMENT "comment" CONTINUE "continue" COUNTER "counter"
%token <string> COUNTERS "counters" CREATE "create" CT "ct" DEFINE "define"
%token <string> DELETE "delete" DESTROY "destroy" DEVICE "device"
%token <string> DEVICES "devices" DROP "drop" DNAT "dnat" DUP "dup"
%token <string> FLAGS "flags" FLUSH "flush" FWD "fwd" GOTO "goto"
%token <string> GROUP "group" HANDLE "handle" HOOK "hook"
%token <string> INCLUDE "include" INDEX "index" INET "inet" INSERT "insert"
%token <string> JUMP "jump" LEVEL "level" LIMIT "limit" LIST "list" LOG "log"
%token <string> MASQUERADE "masquerade" META "meta" NETDEV "netdev"
%token <string> NOTRACK "notrack" PACKETS "packets" POLICY "policy"
%token <string> POSITION "position" PREFIX "prefix" PRIORITY "priority"
%token <string> QUEUE_THRESHOLD "queue-threshold" QUOTA "quota" RATE "rate"
%token <string> REDEFINE "redefine" REDIRECT "redirect" REJECT_T "reject"
%token <string> REPLACE "replace" RESET "reset" RETURN "return" RULE "rule"
%token <string> RULESET "ruleset" SET "set" SNAPLEN "snaplen" SNAT "snat"
%token <string> TABLE "table" TABLES "tables" TO "to" TYPE "type"
%token <string> ORIGINAL "original" REPLY "reply"
%token <string> UNDEFINE "undefine" UNTIL "until" USED "used" WITH "with"

%type <string> identifier string word field_word keyword_word chain_name reject_proto ct_dir
%type <num> family_spec family
%type <handle> table_spec chain_spec rule_spec
%type <cmd> base_cmd add_cmd create_cmd insert_cmd replace_cmd delete_cmd
%type <cmd> list_cmd flush_cmd reset_cmd
%type <table> table_block table_block_alloc
%type <chain> chain_block chain_block_alloc
%type <rule> rule stmt_list
%type <stmt> stmt match_stmt verdict_stmt counter_stmt limit_stmt quota_stmt
%type <stmt> log_stmt log_args reject_stmt meta_stmt payload_stmt ct_stmt
%type <stmt> fwd_stmt dup_stmt nat_stmt notrack_stmt
%type <expr> expr primary_expr selector_expr payload_expr meta_expr ct_expr
%type <expr> rhs_expr basic_rhs_expr primary_rhs_expr list_rhs_expr
%type <expr> set_expr set_list set_elem rhs_or_expr rhs_and_expr
%type <expr> symbol_value prio_expr dev_list dev_expr relational_expr
%type <expr> verdict_expr stmt_value
%type <num> relop limit_over quota_mode

%destructor { free($$); } <string>
%destructor { expr_free($$); } <expr>
%destructor { stmt_free($$); } <stmt>
%destructor { rule_free($$); } <rule>
%destructor { cmd_free($$); } <cmd>
%destructor { handle_free(&$$); } <handle>

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
			|	SEMICOLON
			;

opt_newlines		:	%empty
			|	opt_newlines NEWLINE
			;

line			:	common_block
			|	stmt_separator
			|	base_cmd stmt_separator	{ if ($1) add_cmd(state, $1); }
			|	base_cmd END		{ if ($1) add_cmd(state, $1); YYACCEPT; }
			|	error stmt_separator	{ yyerrok; }
			;

common_block		:	INCLUDE QUOTED_STRING stmt_separator
			{
				scanner_include(scanner, $2, &@2);
				free($1); free($2);
			}
			|	DEFINE identifier '=' rhs_expr stmt_separator
			{
				parser_define(state, $2, $4, &@2);
				free($1); free($2);
			}
			|	REDEFINE identifier '=' rhs_expr stmt_separator
			{
				parser_define(state, $2, $4, &@2);
				free($1); free($2);
			}
			|	UNDEFINE identifier stmt_separator
			{
				struct var *v = parser_var_lookup(state, $2);

				if (!v)
					error_queue(state->msgs, &@2,
						    "undefined symbol \"%s\"", $2);
				else {
					list_del(&v->list);
					expr_free(v->expr);
					free(v->name);
					free(v);
				}
				free($1); free($2);
			}
			;

base_cmd		:	add_cmd			{ $$ = $1; }
			|	ADD add_cmd		{ $$ = $2; free($1); }
			|	CREATE create_cmd	{ $$ = $2; free($1); }
			|	INSERT insert_cmd	{ $$ = $2; free($1); }
			|	REPLACE replace_cmd	{ $$ = $2; free($1); }
			|	DELETE delete_cmd	{ $$ = $2; $$->op = CMD_DELETE; free($1); }
			|	DESTROY delete_cmd	{ $$ = $2; $$->op = CMD_DESTROY; free($1); }
			|	LIST list_cmd		{ $$ = $2; free($1); }
			|	FLUSH flush_cmd		{ $$ = $2; free($1); }
			|	RESET reset_cmd		{ $$ = $2; free($1); }
			;

add_cmd			:	TABLE table_spec
			{
				$$ = cmd_alloc(CMD_ADD, CMD_OBJ_TABLE, &$2, &@$, NULL);
				free($1);
			}
			|	TABLE table_spec table_block_alloc '{' table_block '}'
			{
				handle_copy(&$5->h, &$2);
				$5->loc = @2;
				$$ = cmd_alloc(CMD_ADD, CMD_OBJ_TABLE, &$2, &@$, $5);
				state->cur_table = NULL;
				free($1);
			}
			|	CHAIN chain_spec
			{
				$$ = cmd_alloc(CMD_ADD, CMD_OBJ_CHAIN, &$2, &@$, NULL);
				free($1);
			}
			|	CHAIN chain_spec chain_block_alloc '{' chain_block '}'
			{
				handle_copy(&$5->h, &$2);
				$5->loc = @2;
				$$ = cmd_alloc(CMD_ADD, CMD_OBJ_CHAIN, &$2, &@$, $5);
				state->cur_chain = NULL;
				free($1);
			}
			|	RULE rule_spec rule
			{
				$3->loc = @3;
				$$ = cmd_alloc(CMD_ADD, CMD_OBJ_RULE, &$2, &@$, $3);
				free($1);
			}
			;

create_cmd		:	add_cmd		{ $$ = $1; $$->op = CMD_CREATE; }
			;

insert_cmd		:	RULE rule_spec rule
			{
				$3->loc = @3;
				$$ = cmd_alloc(CMD_INSERT, CMD_OBJ_RULE, &$2, &@$, $3);
				free($1);
			}
			;

replace_cmd		:	RULE rule_spec rule
			{
				$3->loc = @3;
				$$ = cmd_alloc(CMD_REPLACE, CMD_OBJ_RULE, &$2, &@$, $3);
				free($1);
			}
			;

delete_cmd		:	TABLE table_spec
			{
				$$ = cmd_alloc(CMD_DELETE, CMD_OBJ_TABLE, &$2, &@$, NULL);
				free($1);
			}
			|	TABLE family_spec HANDLE NUMBER
			{
				struct handle h = { .family = $2, .handle = $4, .handle_loc = @4 };

				$$ = cmd_alloc(CMD_DELETE, CMD_OBJ_TABLE, &h, &@$, NULL);
				free($1); free($3);
			}
			|	CHAIN chain_spec
			{
				$$ = cmd_alloc(CMD_DELETE, CMD_OBJ_CHAIN, &$2, &@$, NULL);
				free($1);
			}
			|	CHAIN table_spec HANDLE NUMBER
			{
				$2.handle = $4;
				$2.handle_loc = @4;
				$$ = cmd_alloc(CMD_DELETE, CMD_OBJ_CHAIN, &$2, &@$, NULL);
				free($1); free($3);
			}
			|	RULE rule_spec
			{
				$$ = cmd_alloc(CMD_DELETE, CMD_OBJ_RULE, &$2, &@$, NULL);
				free($1);
			}
			;

list_cmd		:	RULESET family_spec
			{
				struct handle h = { .family = $2 };

				$$ = cmd_alloc(CMD_LIST, CMD_OBJ_RULESET, &h, &@$, NULL);
				$$->family_given = $2 != NFPROTO_UNSPEC;
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
				$$ = cmd_alloc(CMD_LIST, CMD_OBJ_TABLE, &$2, &@$, NULL);
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
				$$ = cmd_alloc(CMD_LIST, CMD_OBJ_CHAIN, &$2, &@$, NULL);
				free($1);
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
				$$ = cmd_alloc(CMD_FLUSH, CMD_OBJ_TABLE, &$2, &@$, NULL);
				free($1);
			}
			|	CHAIN chain_spec
			{
				$$ = cmd_alloc(CMD_FLUSH, CMD_OBJ_CHAIN, &$2, &@$, NULL);
				free($1);
			}
			;

reset_cmd		:	COUNTERS family_spec
			{
				struct handle h = { .family = $2 };

				$$ = cmd_alloc(CMD_RESET, CMD_OBJ_COUNTERS, &h, &@$, NULL);
				free($1);
			}
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
				memset(&$$, 0, sizeof($$));
				$$.family = $1;
				$$.family_loc = @1;
				$$.table = $2;
				$$.table_loc = @2;
			}
			|	identifier
			{
				memset(&$$, 0, sizeof($$));
				$$.family = NFPROTO_IPV4;
				$$.table = $1;
				$$.table_loc = @1;
			}
			;

chain_spec		:	table_spec chain_name
			{
				$$ = $1;
				$$.chain = $2;
				$$.chain_loc = @2;
			}
			;

rule_spec		:	chain_spec
			|	chain_spec POSITION NUMBER
			{
				$$ = $1; $$.position = $3; $$.handle_loc = @3; free($2);
			}
			|	chain_spec HANDLE NUMBER
			{
				$$ = $1; $$.handle = $3; $$.handle_loc = @3; free($2);
			}
			|	chain_spec INDEX NUMBER
			{
				$$ = $1; $$.index = $3; $$.index_set = true;
				$$.handle_loc = @3; free($2);
			}
			;

chain_name		:	identifier
			;

identifier		:	STRING
			|	QUOTED_STRING
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
			}
			;

table_block		:	%empty		{ $$ = state->cur_table; }
			|	table_block common_block
			|	table_block error stmt_separator	{ yyerrok; }
			|	table_block stmt_separator
			|	table_block FLAGS table_flags stmt_separator	{ free($2); }
			|	table_block COMMENT string stmt_separator
			{
				free($1->comment);
				$1->comment = $3;
				free($2);
			}
			|	table_block CHAIN chain_name chain_block_alloc '{' chain_block '}'
			{
				struct handle h = $1->h;

				h.table = NULL;
				h.chain = $3;
				h.chain_loc = @3;
				$6->h = h;
				$6->loc = @3;
				list_add_tail(&$6->list, &$1->chains);
				state->cur_chain = NULL;
				$$ = $1;
				free($2);
			}
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
				else
					error_queue(state->msgs, &@1,
						    "unknown table flag \"%s\"", $1);
				state->cur_table->flags_set = true;
				free($1);
			}
			;

chain_block_alloc	:	%empty
			{
				chain_free(state->cur_chain);
				$$ = chain_alloc();
				state->cur_chain = $$;
			}
			;

chain_block		:	%empty		{ $$ = state->cur_chain; }
			|	chain_block common_block
			|	chain_block error stmt_separator	{ yyerrok; }
			|	chain_block stmt_separator
			|	chain_block hook_spec stmt_separator
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
				$1->comment = $3;
				free($2);
			}
			|	chain_block rule stmt_separator
			{
				$2->loc = @2;
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
			|	VARIABLE	{ $$ = variable_expr_alloc(&@1, $1); free($1); }
			;

dev_list		:	'{' opt_newlines set_list opt_newlines '}'	{ $$ = $3; $$->loc = @$; }
			|	VARIABLE	{ $$ = variable_expr_alloc(&@1, $1); free($1); }
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
			|	VARIABLE	{ $$ = variable_expr_alloc(&@1, $1); free($1); }
			;

rule			:	stmt_list
			|	stmt_list COMMENT string
			{
				$$ = $1;
				$$->comment = $3;
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
			|	counter_stmt
			|	limit_stmt
			|	quota_stmt
			|	log_stmt
			|	reject_stmt
			|	meta_stmt
			|	payload_stmt
			|	ct_stmt
			|	fwd_stmt
			|	dup_stmt
			|	nat_stmt
			|	notrack_stmt
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

counter_stmt		:	COUNTER			{ $$ = counter_stmt(&@$, 0, 0); free($1); }
			|	COUNTER PACKETS NUMBER BYTES NUMBER
			{
				$$ = counter_stmt(&@$, $3, $5);
				free($1); free($2); free($4);
			}
			;

limit_over		:	%empty		{ $$ = 0; }
			|	OVER		{ $$ = NFT_LIMIT_F_INV; free($1); }
			|	UNTIL		{ $$ = 0; free($1); }
			;

limit_stmt		:	LIMIT RATE limit_over NUMBER SLASH STRING
			{
				$$ = stmt_alloc(&@$, STMT_LIMIT);
				$$->limit.flags = $3;
				$$->limit.rate = $4;
				$$->limit.type = NFT_LIMIT_PKTS;
				$$->limit.burst = 5;
				if (stmt_limit_unit($$, $6, &@6, state->msgs) < 0)
					state->nerrs++;
				free($1); free($2); free($6);
			}
			|	limit_stmt BURST NUMBER PACKETS
			{
				$$ = $1;
				$$->limit.burst = $3;
				free($2); free($4);
			}
			|	LIMIT RATE limit_over NUMBER STRING SLASH STRING
			{
				$$ = stmt_alloc(&@$, STMT_LIMIT);
				$$->limit.flags = $3;
				$$->limit.type = NFT_LIMIT_PKT_BYTES;
				if (stmt_limit_bytes($$, $4, $5, &@5, state->msgs) < 0 ||
				    stmt_limit_unit($$, $7, &@7, state->msgs) < 0)
					state->nerrs++;
				free($1); free($2); free($5); free($7);
			}
			|	limit_stmt BURST NUMBER BYTES
			{
				$$ = $1;
				$$->limit.burst = $3;
				free($2); free($4);
			}
			|	limit_stmt BURST NUMBER STRING
			{
				uint64_t b;

				$$ = $1;
				if (stmt_bytes_unit($4, &b) < 0)
					error_queue(state->msgs, &@4,
						    "wrong unit \"%s\"", $4);
				$$->limit.burst = $3 * b;
				free($2); free($4);
			}
			;

quota_mode		:	%empty		{ $$ = 0; }
			|	OVER		{ $$ = NFT_QUOTA_F_INV; free($1); }
			|	UNTIL		{ $$ = 0; free($1); }
			;

quota_stmt		:	QUOTA quota_mode NUMBER STRING
			{
				uint64_t b;

				$$ = stmt_alloc(&@$, STMT_QUOTA);
				$$->quota.flags = $2;
				if (stmt_bytes_unit($4, &b) < 0)
					error_queue(state->msgs, &@4,
						    "wrong unit \"%s\"", $4);
				$$->quota.bytes = $3 * b;
				free($1); free($4);
			}
			|	quota_stmt USED NUMBER STRING
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

log_stmt		:	LOG		{ $$ = stmt_alloc(&@$, STMT_LOG); free($1); }
			|	log_args
			;

log_args		:	log_stmt PREFIX string
			{
				$$ = $1;
				free($$->log.prefix);
				$$->log.prefix = $3;
				$$->log.flags |= LOG_F_PREFIX;
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
				$$ = $1; $$->log.group = $3; $$->log.flags |= LOG_F_GROUP;
				free($2);
			}
			|	log_stmt SNAPLEN NUMBER
			{
				$$ = $1; $$->log.snaplen = $3; $$->log.flags |= LOG_F_SNAPLEN;
				free($2);
			}
			|	log_stmt QUEUE_THRESHOLD NUMBER
			{
				$$ = $1; $$->log.qthreshold = $3; $$->log.flags |= LOG_F_QTHRESH;
				free($2);
			}
			|	log_stmt FLAGS log_flags
			{
				$$ = $1; free($2);
			}
			;

log_flags		:	log_flag
			|	log_flags COMMA log_flag
			;

log_flag		:	word
			{
				error_queue(state->msgs, &@1,
					    "log flags are not supported yet");
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
			|	REJECT_T WITH reject_proto TYPE symbol_value
			{
				$$ = stmt_alloc(&@$, STMT_REJECT);
				$$->reject.type = -1;
				$$->reject.icmp_code = -1;
				if (stmt_reject_with($$, $3, &@3, $5, state->msgs) < 0)
					state->nerrs++;
				free($1); free($2); free($3); free($4);
			}
			|	REJECT_T WITH reject_proto symbol_value
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

meta_stmt		:	META word SET stmt_value
			{
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

ct_stmt			:	ct_expr SET stmt_value
			{
				$$ = stmt_alloc(&@$, STMT_CT);
				$$->ct.key = $1->ct.key;
				$$->ct.dir = $1->ct.dir;
				$$->ct.expr = $3;
				expr_free($1);
				free($2);
			}
			;

notrack_stmt		:	NOTRACK	{ $$ = stmt_alloc(&@$, STMT_NOTRACK); free($1); }
			;

fwd_stmt		:	FWD TO stmt_value
			{
				$$ = stmt_alloc(&@$, STMT_FWD);
				$$->fwd.dev = $3;
				free($1); free($2);
			}
			;

dup_stmt		:	DUP TO stmt_value
			{
				$$ = stmt_alloc(&@$, STMT_DUP);
				$$->fwd.dev = $3;
				free($1); free($2);
			}
			;

nat_stmt		:	SNAT TO stmt_value
			{
				$$ = stmt_alloc(&@$, STMT_NAT);
				$$->nat.type = NFH_NAT_SNAT;
				$$->nat.addr = $3;
				free($1); free($2);
			}
			|	DNAT TO stmt_value
			{
				$$ = stmt_alloc(&@$, STMT_NAT);
				$$->nat.type = NFH_NAT_DNAT;
				$$->nat.addr = $3;
				free($1); free($2);
			}
			|	MASQUERADE
			{
				$$ = stmt_alloc(&@$, STMT_NAT);
				$$->nat.type = NFH_NAT_MASQ;
				free($1);
			}
			|	REDIRECT
			{
				$$ = stmt_alloc(&@$, STMT_NAT);
				$$->nat.type = NFH_NAT_REDIR;
				free($1);
			}
			;

stmt_value		:	basic_rhs_expr
			|	selector_expr
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
			|	NOT	{ $$ = OP_NEQ; }
			;

expr			:	primary_expr
			|	expr AMPERSAND primary_rhs_expr
			{
				$$ = binop_expr_alloc(&@$, OP_AND, $1, $3);
			}
			|	expr '|' primary_rhs_expr
			{
				$$ = binop_expr_alloc(&@$, OP_OR, $1, $3);
			}
			|	expr CARET primary_rhs_expr
			{
				$$ = binop_expr_alloc(&@$, OP_XOR, $1, $3);
			}
			|	expr LSHIFT primary_rhs_expr
			{
				$$ = binop_expr_alloc(&@$, OP_LSHIFT, $1, $3);
			}
			|	expr RSHIFT primary_rhs_expr
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
			;

payload_expr		:	HDR field_word
			{
				$$ = payload_expr_parse(&@$, $1, &@1, $2, &@2, state->msgs);
				free($1); free($2);
				if (!$$)
					YYERROR;
			}
			|	HDR TYPE
			{
				$$ = payload_expr_parse(&@$, $1, &@1, $2, &@2, state->msgs);
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
			;

ct_dir			:	ORIGINAL
			|	REPLY
			;

/* words that name fields, meta and ct keys although they are keywords */
word			:	field_word
			|	METAKEY
			;

field_word		:	STRING
			|	keyword_word
			;

keyword_word		:	PRIORITY | BYTES | PACKETS | PREFIX | LEVEL
			|	DEVICE | GROUP | FLAGS | HANDLE | INDEX | RATE
			;

rhs_expr		:	basic_rhs_expr
			|	set_expr
			|	SETREF	{ $$ = set_ref_expr_alloc(&@$, $1); free($1); }
			;

list_rhs_expr		:	basic_rhs_expr COMMA basic_rhs_expr
			{
				$$ = compound_expr_alloc(&@$, EXPR_LIST);
				compound_expr_add($$, $1);
				compound_expr_add($$, $3);
			}
			|	list_rhs_expr COMMA basic_rhs_expr
			{
				$$ = $1;
				$$->loc = @$;
				compound_expr_add($$, $3);
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
			;

rhs_or_expr		:	rhs_and_expr
			|	rhs_or_expr '|' rhs_and_expr
			{
				$$ = binop_expr_alloc(&@$, OP_OR, $1, $3);
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
			|	QUOTED_STRING	{ $$ = symbol_expr_alloc(&@$, $1, true); free($1); }
			|	VARIABLE	{ $$ = variable_expr_alloc(&@$, $1); free($1); }
			|	HDR		{ $$ = symbol_expr_alloc(&@$, $1, false); free($1); }
			|	ACCEPT		{ $$ = symbol_expr_alloc(&@$, $1, false); free($1); }
			|	DROP		{ $$ = symbol_expr_alloc(&@$, $1, false); free($1); }
			|	INET		{ $$ = symbol_expr_alloc(&@$, $1, false); free($1); }
			|	BRIDGE		{ $$ = symbol_expr_alloc(&@$, $1, false); free($1); }
			|	NETDEV		{ $$ = symbol_expr_alloc(&@$, $1, false); free($1); }
			|	REDIRECT	{ $$ = symbol_expr_alloc(&@$, $1, false); free($1); }
			|	ORIGINAL	{ $$ = symbol_expr_alloc(&@$, $1, false); free($1); }
			|	REPLY		{ $$ = symbol_expr_alloc(&@$, $1, false); free($1); }
			|	BADNUMBER
			{
				error_queue(state->msgs, &@1,
					    "number \"%s\" is out of range", $1);
				$$ = symbol_expr_alloc(&@$, "0", false);
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
				compound_expr_add($$, $1);
			}
			|	set_list COMMA opt_newlines set_elem
			{
				$$ = $1;
				compound_expr_add($$, $4);
			}
			;

set_elem		:	basic_rhs_expr
			;

%%
