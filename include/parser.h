/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFH_PARSER_H
#define NFH_PARSER_H

#include <rule.h>

#define MAX_INCLUDE_DEPTH	16

struct nfh_ctx;
struct parser_state;
struct suggest;

/**
 * struct parser_sink - where the grammar hands what it has just read
 * @cmd:	a command: returns what to queue instead (NULL: nothing)
 * @rule:	a rule of chain block @c: true when it was taken (and freed)
 * @elem:	an element of set declaration @s: true when taken
 * @elems_var:	"elements = $var" of @s: true when its elements were taken
 *
 * The parser knows nothing of evaluation or the kernel; the library sets
 * these (src/compile/stream.c) so that rules and set elements are compiled as they
 * are read.  Without a sink everything waits for the whole input.
 */
struct parser_sink {
	struct cmd	*(*cmd)(struct parser_state *state, struct cmd *cmd);
	bool		(*rule)(struct parser_state *state, struct chain *c,
				struct rule *r);
	bool		(*elem)(struct parser_state *state, struct set *s,
				struct expr *e);
	bool		(*elems_var)(struct parser_state *state, struct set *s,
				     struct expr *e);
};

/**
 * struct parser_state - what the grammar and scanner share
 * @msgs:	error records
 * @cmds:	parsed commands, in order
 * @ctx:	library context (include paths, defines, inputs)
 * @sink:	what takes commands, rules and elements as they are read
 * @scope:	variable definitions, innermost first
 */
struct parser_state {
	struct list_head	*msgs;
	struct list_head	*cmds;
	struct nfh_ctx		*ctx;
	const struct parser_sink *sink;	/* NULL: nothing streams */
	struct list_head	vars;
	struct var		**var_tab;	/* @vars hashed by name */
	unsigned int		var_tab_size;	/* a power of two, or 0 */
	unsigned int		nvars;
	/* definitions undone by undefine or redefine: what was written
	   before still names them (struct var), so they live to the end */
	struct list_head	retired;
	unsigned int		nerrs;
	/* the last error record queued before the last separator (';' or
	   newline), and before the one before it: a rule in between got
	   errors as it was read when they differ */
	struct list_head	*sep_mark;
	struct list_head	*rule_mark;
	struct list_head	*set_mark;	/* as the set block opened */
	struct list_head	*obj_mark;	/* as the object block opened */
	/* '{' that error recovery dropped and no '}' closed yet, and
	   those read since (the scanner's open_brace()) */
	unsigned int		lost_braces;
	unsigned int		lost_inner;
	/* the indentation of the line of each dropped '{' (the latest
	   LOST_INDENTS; -1: not known): a '}' that opens a line indented
	   less closes the block around instead (the '{' went with its
	   broken line: "udp dport { 53 drop") */
#define LOST_INDENTS	16
	int			lost_indent[LOST_INDENTS];
	bool			lost_seen;	/* one was, ever */
	/* the end of the input closes the blocks whose '}' closed a dropped
	   '{' instead (lost_closed of them, at most): a newline, then a '}'
	   each (eof_closing from then; one too many is no error) */
	unsigned int		lost_closed;
	bool			eof_closing;
	/* a syntax error came and no separator since; a '}' then read
	   goes to the parser after a newline (close_brace()) */
	bool			recovering;
	bool			close_queued;
	struct location		close_loc;
	/* a '}' that was itself the token of a syntax error ("priority
	   filter }"): error recovery throws it away, so the scanner gives
	   it again after a newline (that ends the broken statement), unless
	   the recovery dropped the '{' it closes (lost_braces grew past
	   error_close_lost) */
	bool			error_close;
	bool			error_close_check;
	unsigned int		error_close_lost;
	struct location		error_close_loc;
	/* the last word the scanner read as a string, and where: the one
	   a syntax error there is about ("did you mean") */
	char			last_word[65];
	struct location		last_word_loc;
	/* the string before it ("established" of "established related") */
	char			prev_word[65];
	struct location		prev_word_loc;
	/* the string that came first after a command's object keyword
	   ("inte" of "add rule inte t c"), where a family may go */
	char			spec_word[65];
	struct location		spec_word_loc;
	/*
	 * the words of what syntax errors made the parser skip, but for
	 * rules (a rule declares nothing): a table named there may have
	 * lost a declaration, so what the model would say of that table
	 * may be a cascade (lin_cmds())
	 */
	char			**lost_words;
	unsigned int		nlost_words;
	/* a command that could not be read may have declared something in
	   any table (JSON: one whose table cannot be told) */
	bool			lost_all;
	struct table		*cur_table;	/* block being parsed */
	struct chain		*cur_chain;
	struct set		*cur_set;
	struct set		*elem_set;	/* elements stream into it */
	struct obj		*cur_obj;
	struct flowtable	*cur_flowtable;
	/*
	 * a ct object type was refused ("not supported yet"): the errors
	 * its block gives are not reported on top of that (@quiet, set when
	 * the block opens; when it closes, the records queued after
	 * @quiet_mark are dropped)
	 */
	bool			refused_obj;
	/* the synproxy statement or object whose arguments are being read */
	struct stmt		*cur_synproxy;
	bool			quiet;
	/* a block in a table just closed, and no separator came since */
	bool			block_closed;
	struct list_head	*quiet_mark;
	struct location		cur_loc;
	/* rules streaming (src/compile/stream.c): the table block and chain block
	 * being parsed, and a count of what makes a rule wait for the whole
	 * file (variables, set references, anonymous sets) */
	unsigned int		stream_family;
	const char		*stream_table;	/* NULL: not in a table block */
	const char		*stream_chain;	/* NULL: not in its chain block */
	unsigned int		stream_deps;
	unsigned int		stream_mark;	/* stream_deps after the last rule */
	/* "; did you mean ..." for the undefined variable @name: what the
	   evaluator, handed the state, calls (parser_var_suggest) */
	const char		*(*var_suggest)(struct parser_state *state,
						struct suggest *s,
						const char *name);
	/* the chain bindings ("jump { ... }") being parsed: their rules,
	   and the outer rule's error mark */
	struct list_head	bindings;	/* struct chain, innermost first */
	struct list_head	*binding_mark;
};

struct var {
	struct list_head	list;
	struct var		*hnext;		/* in its bucket of var_tab */
	char			*name;
	struct expr		*expr;
	struct location		loc;
	size_t			nodes;		/* expressions it expands to,
						   nested variables included */
};

void parser_init(struct parser_state *state, struct nfh_ctx *ctx,
		 struct list_head *msgs, struct list_head *cmds);
void parser_exit(struct parser_state *state);
/* a syntax error made the parser skip from @from to @to (its separator),
   or in the table block of @table (NULL: none) */
void parser_lost(struct parser_state *state, const struct location *from,
		 const struct location *to);
void parser_lost_word(struct parser_state *state, const char *word);
int parser_define(struct parser_state *state, const char *name,
		  struct expr *e, const struct location *loc);
struct var *parser_var_lookup(struct parser_state *state, const char *name);
int parser_undefine(struct parser_state *state, const char *name,
		    const struct location *loc);
int parser_redefine(struct parser_state *state, const char *name,
		    struct expr *e, const struct location *loc);
/* log prefix "... $name ...": the variables' text put in, or NULL (an
   error is queued); @str is freed */
char *parser_log_prefix(struct parser_state *state, char *str,
			const struct location *loc);
struct suggest;
/* "; did you mean ..." for undefined variable @name, or "" */
const char *parser_var_suggest(struct parser_state *state, struct suggest *s,
			       const char *name);
/* $name as written here: it keeps the definition in force now */
struct expr *parser_var_ref(struct parser_state *state,
			    const struct location *loc, const char *name);

/* scanner.l */
void *scanner_init(struct parser_state *state);
/* --debug=scanner, --debug=parser: flex's and bison's traces on stderr */
void scanner_set_debug(void *scanner, bool on);
void parser_set_debug(bool on);
void scanner_destroy(void *scanner);
int scanner_push_buffer(void *scanner, const char *name, const char *buf,
			const struct location *parent);
int scanner_read_file(void *scanner, const char *filename,
		      const struct location *loc);
int scanner_include(void *scanner, const char *pattern,
		    const struct location *loc);
/* the token a bare word is read as (STRING, or a keyword's) */
int scanner_word_token(const char *word);
/* the indentation of the line @loc is on (a tab to the next multiple of
   8), or -1 if its text is not known; *@first: whether @loc starts it */
int scanner_line_indent(const struct location *loc, bool *first);
/* the token @word is after the keyword that gives it its meaning ("bypass"
   after "queue"), or 0 if it is no such word */
int scanner_scoped_token(const char *word);

/* grammar.y */
int yyparse(void *scanner, struct parser_state *state);
/*
 * Whether @name, written bare, is read back as the name @name (a table,
 * chain, set or object name); a listing quotes the others.
 */
bool parser_name_is_bare(const char *name);

#endif
