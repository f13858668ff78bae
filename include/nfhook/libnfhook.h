/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LIBNFHOOK_H
#define LIBNFHOOK_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * struct nfh_ctx - one nfhook session: options, include paths, defines
 *
 * A context compiles nft rule text into nf_tables netlink messages and
 * sends each run as one atomic transaction, or, offline, applies it to an
 * in-memory ruleset that lives as long as the context.
 */
struct nfh_ctx;

enum nfh_output_flags {
	NFH_OUTPUT_HANDLE	= (1 << 0),	/* -a */
	NFH_OUTPUT_NUMERIC	= (1 << 1),	/* -n: symbolic constants as
						   numbers; implies the
						   three NUMERIC_ below */
	NFH_OUTPUT_STATELESS	= (1 << 2),	/* -s */
	NFH_OUTPUT_ECHO		= (1 << 3),	/* -e */
	NFH_OUTPUT_TERSE	= (1 << 4),	/* -t */
	NFH_OUTPUT_JSON		= (1 << 5),	/* -j */
	NFH_OUTPUT_SERVICE	= (1 << 6),	/* -S */
	NFH_OUTPUT_NUMERIC_PROTO = (1 << 7),	/* -p: layer 4 protocols */
	NFH_OUTPUT_NUMERIC_PRIO	= (1 << 8),	/* -y: chain priorities */
	NFH_OUTPUT_NUMERIC_TIME	= (1 << 9),	/* -T: times as seconds */
	NFH_OUTPUT_GUID		= (1 << 10),	/* -u: user and group names */
	NFH_OUTPUT_NUMERIC_SYMBOL = (1 << 11),	/* symbolic constants as
						   numbers, without the
						   other three of -n */
	NFH_OUTPUT_REVERSEDNS	= (1 << 12),	/* -N: addresses as host
						   names, where they have one */
};

enum nfh_debug_flags {
	NFH_DEBUG_SCANNER	= (1 << 0),
	NFH_DEBUG_PARSER	= (1 << 1),
	NFH_DEBUG_EVALUATION	= (1 << 2),
	NFH_DEBUG_NETLINK	= (1 << 3),
	NFH_DEBUG_MNL		= (1 << 4),
	NFH_DEBUG_PROTO_CTX	= (1 << 5),
};

/**
 * nfh_ctx_new - create a context
 * Return: the context, or NULL when out of memory
 */
struct nfh_ctx *nfh_ctx_new(void);
void nfh_ctx_free(struct nfh_ctx *ctx);

void nfh_ctx_set_output_flags(struct nfh_ctx *ctx, unsigned int flags);
/** nfh_ctx_get_output_flags - the flags as last set (-n not expanded) */
unsigned int nfh_ctx_get_output_flags(const struct nfh_ctx *ctx);
void nfh_ctx_set_debug(struct nfh_ctx *ctx, unsigned int flags);
/** nfh_ctx_set_dry_run - build and send the batch, then abort it (-c) */
void nfh_ctx_set_dry_run(struct nfh_ctx *ctx, bool dry);
/** nfh_ctx_set_offline - never open a netlink socket; keep an in-memory ruleset */
void nfh_ctx_set_offline(struct nfh_ctx *ctx, bool offline);
int nfh_ctx_add_include_path(struct nfh_ctx *ctx, const char *path);
/** nfh_ctx_clear_include_paths - forget them all, the built-in one too */
void nfh_ctx_clear_include_paths(struct nfh_ctx *ctx);
/** nfh_ctx_add_var - `-D NAME=VALUE`; returns -1 if malformed */
int nfh_ctx_add_var(struct nfh_ctx *ctx, const char *def);
void nfh_ctx_clear_vars(struct nfh_ctx *ctx);
void nfh_ctx_set_output(struct nfh_ctx *ctx, FILE *out, FILE *err);
FILE *nfh_ctx_output_stream(const struct nfh_ctx *ctx);
FILE *nfh_ctx_error_stream(const struct nfh_ctx *ctx);

/**
 * nfh_ctx_buffer_output - keep the output in memory instead of writing it
 *
 * The stream set before is put back by nfh_ctx_unbuffer_output(). A
 * second call while buffered drops what the buffer held.
 * Return: 0, or -1 if the memory stream could not be made
 */
int nfh_ctx_buffer_output(struct nfh_ctx *ctx);
/** nfh_ctx_unbuffer_output - back to the stream; -1 if not buffered */
int nfh_ctx_unbuffer_output(struct nfh_ctx *ctx);
/**
 * nfh_ctx_get_output_buffer - the output written since the last call
 *
 * The text is NUL-terminated and belongs to the context; it stays valid
 * until the next run or the next output: the buffer then starts again
 * from empty.
 * Return: the text ("" if none), or NULL when not buffered
 */
const char *nfh_ctx_get_output_buffer(struct nfh_ctx *ctx);
/* the same three for the error stream */
int nfh_ctx_buffer_error(struct nfh_ctx *ctx);
int nfh_ctx_unbuffer_error(struct nfh_ctx *ctx);
const char *nfh_ctx_get_error_buffer(struct nfh_ctx *ctx);

/**
 * nfh_run_cmd_from_buffer - parse, evaluate and run commands from text
 *
 * All commands of @buf form one transaction: either all of them take
 * effect or none does. Errors are printed with their source location.
 * Return: 0 on success, 1 on error
 */
int nfh_run_cmd_from_buffer(struct nfh_ctx *ctx, const char *buf);
/** nfh_run_cmd_from_filename - same for a file; "-" reads standard input */
int nfh_run_cmd_from_filename(struct nfh_ctx *ctx, const char *filename);

/**
 * enum nfh_obj_kind - kinds of ruleset objects reported by nfh_ruleset_foreach()
 */
enum nfh_obj_kind {
	NFH_OBJ_TABLE,
	NFH_OBJ_CHAIN,
	NFH_OBJ_SET,
	NFH_OBJ_MAP,
	NFH_OBJ_RULE,
};

/**
 * struct nfh_obj - one named object of a ruleset, as seen by a callback
 * @kind:	what it is
 * @family:	family name as written in commands: "ip", "netdev", ...
 * @table:	table it lives in (the table's own name for a table)
 * @chain:	chain name for chains and rules, else NULL
 * @name:	name of a table, chain, set or map; NULL for a rule
 * @handle:	kernel handle
 *
 * The strings belong to the library and are valid during the callback only.
 */
struct nfh_obj {
	enum nfh_obj_kind	kind;
	const char		*family;
	const char		*table;
	const char		*chain;
	const char		*name;
	uint64_t		handle;
};

/**
 * nfh_ruleset_foreach - call @cb for each table, chain, set, map and rule
 * @ctx:	context; offline contexts walk their in-memory ruleset
 * @cb:		called once per object, parents before children; a non-zero
 *		return stops the walk and is returned
 * @data:	passed to @cb
 *
 * Lets front ends (the shell's completion, for one) see the live ruleset
 * without parsing a listing. Anonymous sets are skipped. Errors reading the
 * ruleset are printed like command errors.
 * Return: 0 after a full walk, -1 if the ruleset could not be read, or the
 * non-zero value @cb returned
 */
int nfh_ruleset_foreach(struct nfh_ctx *ctx,
			int (*cb)(const struct nfh_obj *obj, void *data),
			void *data);

/**
 * nfh_expr_words - the words that may come next in a match's selector
 * @words:	the words of the selector typed so far; none at all, a
 *		header ("tcp"), "meta", "ct", "ct original", or a whole
 *		selector ("tcp flags", "ct state", "mark")
 * @n:		how many
 * @cb:		called with each word that may follow: with no words, the
 *		selector keywords (headers, "meta", "ct", the meta keys that
 *		stand alone); after a header, "meta" or "ct", its fields or
 *		keys; after a whole selector, the symbolic values its datatype
 *		accepts. A non-zero return stops the walk.
 * @data:	passed to @cb
 *
 * For completion and help in front ends: the words come from the same
 * protocol, meta, ct and datatype tables the parser uses.
 * Return: the number of words reported, or -1 if @words do not start a
 * selector
 */
int nfh_expr_words(const char *const *words, unsigned int n,
		   int (*cb)(const char *word, void *data), void *data);

/**
 * nfh_stmt_words - the keywords of the statements a rule may hold
 * @bare:	only those of the statements that take no argument, after
 *		which another statement may follow at once ("counter")
 * @cb:		called with each keyword; a non-zero return stops the walk
 * @data:	passed to @cb
 *
 * From the table of the library's statement kinds, so that a front end
 * offers a new statement with no change of its own.  Verdicts ("accept",
 * "jump") are not statement kinds and are not among them.
 * Return: the number of words reported
 */
int nfh_stmt_words(bool bare, int (*cb)(const char *word, void *data),
		   void *data);

#ifdef __cplusplus
}
#endif

#endif
