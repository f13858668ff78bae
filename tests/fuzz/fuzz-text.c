// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: the text front end.  Each input is a rule file, run offline
 * (scanner, grammar, evaluator, linearizer, the in-memory ruleset), then
 * listed back (delinearizer, printer).  Nothing here opens a socket.
 *
 * Built with FUZZ_JSON (fuzz-json.c), only inputs that nfh reads as JSON
 * (json_looks_like) go in, so the mutations stay in the JSON front end.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nfhook/libnfhook.h>
#include <json.h>
#include <parser_json.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null;
	struct nfh_ctx *ctx;
	char *text;
#ifdef FUZZ_JSON
	const unsigned int json = NFH_OUTPUT_JSON;
#else
	const unsigned int json = 0;
#endif

	if (!null && !(null = fopen("/dev/null", "w")))
		abort();
	/* the buffer API takes a string: the text ends at a NUL, as C's do */
	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
#ifdef FUZZ_JSON
	if (!json_looks_like(text)) {
		free(text);
		return 0;
	}
#endif

	ctx = nfh_ctx_new();
	nfh_ctx_set_offline(ctx, true);
	nfh_ctx_set_output(ctx, null, null);
#ifdef FUZZ_JSON
	/* as -j: without it the input would go to the nft-syntax parser */
	nfh_ctx_set_output_flags(ctx, json);
#endif
	/* a check run, then the same text applied and listed back */
	nfh_ctx_set_dry_run(ctx, true);
	nfh_run_cmd_from_buffer(ctx, text);
	nfh_ctx_set_dry_run(ctx, false);
	if (nfh_run_cmd_from_buffer(ctx, text) == 0) {
		nfh_run_cmd_from_buffer(ctx, "list ruleset");
		nfh_ctx_set_output_flags(ctx, json | NFH_OUTPUT_HANDLE |
					      NFH_OUTPUT_NUMERIC);
		nfh_run_cmd_from_buffer(ctx, "list ruleset");
	}
	nfh_ctx_free(ctx);
	free(text);
	return 0;
}
