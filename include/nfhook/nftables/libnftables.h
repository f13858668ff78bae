/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nfhook's libnftables-compatible interface (libnftables-nfh.so.1): the
 * calls, types and flag values of nft 1.0.6's libnftables, so that a
 * program written for it builds against nfhook with
 * `pkg-config --cflags --libs libnftables-nfh` and no change to its source.
 * See libnftables-nfh(3) for what differs.
 */
#ifndef NFHOOK_LIBNFTABLES_H
#define NFHOOK_LIBNFTABLES_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

struct nft_ctx;

enum nft_debug_level {
	NFT_DEBUG_SCANNER	= 0x01,
	NFT_DEBUG_PARSER	= 0x02,
	NFT_DEBUG_EVALUATION	= 0x04,
	NFT_DEBUG_NETLINK	= 0x08,
	NFT_DEBUG_MNL		= 0x10,
	NFT_DEBUG_PROTO_CTX	= 0x20,
	NFT_DEBUG_SEGTREE	= 0x40,
};

/* the only value nft_ctx_new() takes */
#define NFT_CTX_DEFAULT		0

enum nft_optimize_flags {
	NFT_OPTIMIZE_ENABLED	= 0x1,
};

enum {
	NFT_CTX_OUTPUT_REVERSEDNS	= 1 << 0,
	NFT_CTX_OUTPUT_SERVICE		= 1 << 1,
	NFT_CTX_OUTPUT_STATELESS	= 1 << 2,
	NFT_CTX_OUTPUT_HANDLE		= 1 << 3,
	NFT_CTX_OUTPUT_JSON		= 1 << 4,
	NFT_CTX_OUTPUT_ECHO		= 1 << 5,
	NFT_CTX_OUTPUT_GUID		= 1 << 6,
	NFT_CTX_OUTPUT_NUMERIC_PROTO	= 1 << 7,
	NFT_CTX_OUTPUT_NUMERIC_PRIO	= 1 << 8,
	NFT_CTX_OUTPUT_NUMERIC_SYMBOL	= 1 << 9,
	NFT_CTX_OUTPUT_NUMERIC_TIME	= 1 << 10,
	NFT_CTX_OUTPUT_NUMERIC_ALL	= NFT_CTX_OUTPUT_NUMERIC_PROTO |
					  NFT_CTX_OUTPUT_NUMERIC_PRIO |
					  NFT_CTX_OUTPUT_NUMERIC_SYMBOL |
					  NFT_CTX_OUTPUT_NUMERIC_TIME,
	NFT_CTX_OUTPUT_TERSE		= 1 << 11,
};

struct nft_ctx *nft_ctx_new(uint32_t flags);
void nft_ctx_free(struct nft_ctx *ctx);

bool nft_ctx_get_dry_run(struct nft_ctx *ctx);
void nft_ctx_set_dry_run(struct nft_ctx *ctx, bool dry);
uint32_t nft_ctx_get_optimize(struct nft_ctx *ctx);
void nft_ctx_set_optimize(struct nft_ctx *ctx, uint32_t flags);

unsigned int nft_ctx_output_get_flags(struct nft_ctx *ctx);
void nft_ctx_output_set_flags(struct nft_ctx *ctx, unsigned int flags);
unsigned int nft_ctx_output_get_debug(struct nft_ctx *ctx);
void nft_ctx_output_set_debug(struct nft_ctx *ctx, unsigned int mask);

/* each returns the stream it replaces, or NULL if @fp is NULL or in error */
FILE *nft_ctx_set_output(struct nft_ctx *ctx, FILE *fp);
FILE *nft_ctx_set_error(struct nft_ctx *ctx, FILE *fp);
/* 0 on success; unbuffering fails when nothing was buffered */
int nft_ctx_buffer_output(struct nft_ctx *ctx);
int nft_ctx_unbuffer_output(struct nft_ctx *ctx);
int nft_ctx_buffer_error(struct nft_ctx *ctx);
int nft_ctx_unbuffer_error(struct nft_ctx *ctx);
/* the text written since the last call ("" if none); the buffer is then
   reused, so copy it before the next run */
const char *nft_ctx_get_output_buffer(struct nft_ctx *ctx);
const char *nft_ctx_get_error_buffer(struct nft_ctx *ctx);

int nft_ctx_add_include_path(struct nft_ctx *ctx, const char *path);
void nft_ctx_clear_include_paths(struct nft_ctx *ctx);
int nft_ctx_add_var(struct nft_ctx *ctx, const char *var);
void nft_ctx_clear_vars(struct nft_ctx *ctx);

/* 0 on success, non-zero with the errors on the error stream */
int nft_run_cmd_from_buffer(struct nft_ctx *nft, const char *buf);
int nft_run_cmd_from_filename(struct nft_ctx *nft, const char *filename);

#ifdef __cplusplus
}
#endif

#endif
