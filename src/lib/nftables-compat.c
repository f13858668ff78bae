// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libnftables-nfh.so.1: the calls of nft 1.0.6's libnftables, under its
 * version nodes, each made of libnfhook's public API.  A program built for
 * libnftables (python3-nftables, firewalld, the C daemons) runs on nfhook
 * when it loads this library instead: same flag values, same return codes,
 * the same buffered output and error text.
 */
#include <stdlib.h>
#include <string.h>

#include <nfhook/libnfhook.h>
#include <nfhook/nftables/libnftables.h>

#define EXPORT __attribute__((visibility("default")))

struct nft_ctx {
	struct nfh_ctx	*nfh;
	unsigned int	flags;		/* NFT_CTX_OUTPUT_*, as set */
	unsigned int	debug;		/* NFT_DEBUG_*, as set */
	uint32_t	optimize;
	bool		dry_run;
	char		**vars;		/* NAME=VALUE, for file runs */
	unsigned int	num_vars;
};

/* NFT_CTX_OUTPUT_* bit -> NFH_OUTPUT_* (0: nfhook has no such output) */
static const struct {
	unsigned int	nft;
	unsigned int	nfh;
} flag_map[] = {
	{ NFT_CTX_OUTPUT_REVERSEDNS,	0 },
	{ NFT_CTX_OUTPUT_SERVICE,	NFH_OUTPUT_SERVICE },
	{ NFT_CTX_OUTPUT_STATELESS,	NFH_OUTPUT_STATELESS },
	{ NFT_CTX_OUTPUT_HANDLE,	NFH_OUTPUT_HANDLE },
	{ NFT_CTX_OUTPUT_JSON,		NFH_OUTPUT_JSON },
	{ NFT_CTX_OUTPUT_ECHO,		NFH_OUTPUT_ECHO },
	{ NFT_CTX_OUTPUT_GUID,		NFH_OUTPUT_GUID },
	{ NFT_CTX_OUTPUT_NUMERIC_PROTO,	NFH_OUTPUT_NUMERIC_PROTO },
	{ NFT_CTX_OUTPUT_NUMERIC_PRIO,	NFH_OUTPUT_NUMERIC_PRIO },
	{ NFT_CTX_OUTPUT_NUMERIC_SYMBOL, NFH_OUTPUT_NUMERIC_SYMBOL },
	{ NFT_CTX_OUTPUT_NUMERIC_TIME,	NFH_OUTPUT_NUMERIC_TIME },
	{ NFT_CTX_OUTPUT_TERSE,		NFH_OUTPUT_TERSE },
};

EXPORT struct nft_ctx *nft_ctx_new(uint32_t flags)
{
	struct nft_ctx *ctx = calloc(1, sizeof(*ctx));

	if (!ctx)
		return NULL;
	ctx->nfh = nfh_ctx_new();
	if (!ctx->nfh) {
		free(ctx);
		return NULL;
	}
	return ctx;
}

EXPORT void nft_ctx_free(struct nft_ctx *ctx)
{
	if (!ctx)
		return;
	nft_ctx_clear_vars(ctx);
	nfh_ctx_free(ctx->nfh);
	free(ctx);
}

EXPORT bool nft_ctx_get_dry_run(struct nft_ctx *ctx)
{
	return ctx->dry_run;
}

EXPORT void nft_ctx_set_dry_run(struct nft_ctx *ctx, bool dry)
{
	ctx->dry_run = dry;
	nfh_ctx_set_dry_run(ctx->nfh, dry);
}

/*
 * nfhook does not merge rules: with NFT_OPTIMIZE_ENABLED the commands run
 * as written, which is the ruleset nft would make, unmerged (and without
 * nft's "Merging:" report).
 */
EXPORT uint32_t nft_ctx_get_optimize(struct nft_ctx *ctx)
{
	return ctx->optimize;
}

EXPORT void nft_ctx_set_optimize(struct nft_ctx *ctx, uint32_t flags)
{
	ctx->optimize = flags;
}

EXPORT unsigned int nft_ctx_output_get_flags(struct nft_ctx *ctx)
{
	return ctx->flags;
}

EXPORT void nft_ctx_output_set_flags(struct nft_ctx *ctx, unsigned int flags)
{
	unsigned int nfh = 0;

	for (size_t i = 0; i < sizeof(flag_map) / sizeof(flag_map[0]); i++)
		if (flags & flag_map[i].nft)
			nfh |= flag_map[i].nfh;
	ctx->flags = flags;
	nfh_ctx_set_output_flags(ctx->nfh, nfh);
}

EXPORT unsigned int nft_ctx_output_get_debug(struct nft_ctx *ctx)
{
	return ctx->debug;
}

/* the bits are libnfhook's too; it prints the netlink ones alone */
EXPORT void nft_ctx_output_set_debug(struct nft_ctx *ctx, unsigned int mask)
{
	ctx->debug = mask;
	nfh_ctx_set_debug(ctx->nfh, mask);
}

EXPORT FILE *nft_ctx_set_output(struct nft_ctx *ctx, FILE *fp)
{
	FILE *old = nfh_ctx_output_stream(ctx->nfh);

	if (!fp || ferror(fp))
		return NULL;
	nfh_ctx_set_output(ctx->nfh, fp, nfh_ctx_error_stream(ctx->nfh));
	return old;
}

EXPORT FILE *nft_ctx_set_error(struct nft_ctx *ctx, FILE *fp)
{
	FILE *old = nfh_ctx_error_stream(ctx->nfh);

	if (!fp || ferror(fp))
		return NULL;
	nfh_ctx_set_output(ctx->nfh, nfh_ctx_output_stream(ctx->nfh), fp);
	return old;
}

EXPORT int nft_ctx_buffer_output(struct nft_ctx *ctx)
{
	return nfh_ctx_buffer_output(ctx->nfh) ? 1 : 0;
}

EXPORT int nft_ctx_unbuffer_output(struct nft_ctx *ctx)
{
	return nfh_ctx_unbuffer_output(ctx->nfh) ? 1 : 0;
}

EXPORT int nft_ctx_buffer_error(struct nft_ctx *ctx)
{
	return nfh_ctx_buffer_error(ctx->nfh) ? 1 : 0;
}

EXPORT int nft_ctx_unbuffer_error(struct nft_ctx *ctx)
{
	return nfh_ctx_unbuffer_error(ctx->nfh) ? 1 : 0;
}

EXPORT const char *nft_ctx_get_output_buffer(struct nft_ctx *ctx)
{
	return nfh_ctx_get_output_buffer(ctx->nfh);
}

EXPORT const char *nft_ctx_get_error_buffer(struct nft_ctx *ctx)
{
	return nfh_ctx_get_error_buffer(ctx->nfh);
}

EXPORT int nft_ctx_add_include_path(struct nft_ctx *ctx, const char *path)
{
	return nfh_ctx_add_include_path(ctx->nfh, path) ? 1 : 0;
}

EXPORT void nft_ctx_clear_include_paths(struct nft_ctx *ctx)
{
	nfh_ctx_clear_include_paths(ctx->nfh);
}

/*
 * libnftables defines its variables for nft_run_cmd_from_filename() only
 * (as nft allows -D with -f alone): a buffer run does not see them.
 */
EXPORT int nft_ctx_add_var(struct nft_ctx *ctx, const char *var)
{
	char **vars, *copy;

	if (!strchr(var, '='))
		return -1;
	vars = realloc(ctx->vars, (ctx->num_vars + 1) * sizeof(*vars));
	if (!vars)
		return -1;
	ctx->vars = vars;
	copy = strdup(var);
	if (!copy)
		return -1;
	ctx->vars[ctx->num_vars++] = copy;
	return 0;
}

EXPORT void nft_ctx_clear_vars(struct nft_ctx *ctx)
{
	for (unsigned int i = 0; i < ctx->num_vars; i++)
		free(ctx->vars[i]);
	free(ctx->vars);
	ctx->vars = NULL;
	ctx->num_vars = 0;
}

/* libnftables answers -1 for every failure, libnfhook nft's exit status */
EXPORT int nft_run_cmd_from_buffer(struct nft_ctx *nft, const char *buf)
{
	return nfh_run_cmd_from_buffer(nft->nfh, buf) ? -1 : 0;
}

EXPORT int nft_run_cmd_from_filename(struct nft_ctx *nft, const char *filename)
{
	int ret;

	for (unsigned int i = 0; i < nft->num_vars; i++)
		nfh_ctx_add_var(nft->nfh, nft->vars[i]);
	ret = nfh_run_cmd_from_filename(nft->nfh, filename);
	nfh_ctx_clear_vars(nft->nfh);
	return ret ? -1 : 0;
}
