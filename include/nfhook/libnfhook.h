/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LIBNFHOOK_H
#define LIBNFHOOK_H

#include <stdbool.h>
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
	NFH_OUTPUT_NUMERIC	= (1 << 1),	/* -n */
	NFH_OUTPUT_STATELESS	= (1 << 2),	/* -s */
	NFH_OUTPUT_ECHO		= (1 << 3),	/* -e */
	NFH_OUTPUT_TERSE	= (1 << 4),	/* -t */
	NFH_OUTPUT_JSON		= (1 << 5),	/* -j */
	NFH_OUTPUT_SERVICE	= (1 << 6),	/* -S */
	NFH_OUTPUT_NUMERIC_PROTO = (1 << 7),	/* -N: numeric protocols */
};

enum nfh_debug_flags {
	NFH_DEBUG_SCANNER	= (1 << 0),
	NFH_DEBUG_PARSER	= (1 << 1),
	NFH_DEBUG_EVALUATION	= (1 << 2),
	NFH_DEBUG_NETLINK	= (1 << 3),
	NFH_DEBUG_MNL		= (1 << 4),
};

/**
 * nfh_ctx_new - create a context
 * Return: the context, or NULL when out of memory
 */
struct nfh_ctx *nfh_ctx_new(void);
void nfh_ctx_free(struct nfh_ctx *ctx);

void nfh_ctx_set_output_flags(struct nfh_ctx *ctx, unsigned int flags);
unsigned int nfh_ctx_get_output_flags(const struct nfh_ctx *ctx);
void nfh_ctx_set_debug(struct nfh_ctx *ctx, unsigned int flags);
/** nfh_ctx_set_dry_run - build and send the batch, then abort it (-c) */
void nfh_ctx_set_dry_run(struct nfh_ctx *ctx, bool dry);
/** nfh_ctx_set_offline - never open a netlink socket; keep an in-memory ruleset */
void nfh_ctx_set_offline(struct nfh_ctx *ctx, bool offline);
int nfh_ctx_add_include_path(struct nfh_ctx *ctx, const char *path);
/** nfh_ctx_add_var - `-D NAME=VALUE`; returns -1 if malformed */
int nfh_ctx_add_var(struct nfh_ctx *ctx, const char *def);
void nfh_ctx_set_output(struct nfh_ctx *ctx, FILE *out, FILE *err);

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

#ifdef __cplusplus
}
#endif

#endif
