// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libnfhook's buffered output and error streams, clearing of include paths
 * and variables, and NFH_OUTPUT_NUMERIC_SYMBOL, offline (no kernel, no
 * root).  One TAP line per check; exit 1 if any failed.
 * Usage: nfh-buffer DIR (a scratch directory for an include file)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nfhook/libnfhook.h>

static int failed;

static void expect(const char *desc, const char *want, const char *got)
{
	if (got && !strcmp(want, got)) {
		printf("ok - %s\n", desc);
		return;
	}
	printf("not ok - %s\n# expected: '%s'\n# actual:   '%s'\n", desc, want,
	       got ? got : "(null)");
	failed++;
}

static void expect_int(const char *desc, int want, int got)
{
	char w[32], g[32];

	snprintf(w, sizeof(w), "%d", want);
	snprintf(g, sizeof(g), "%d", got);
	expect(desc, w, g);
}

static const char ruleset[] =
	"table ip t {\n"
	"\tchain c {\n"
	"\t\ttype filter hook input priority filter; policy accept;\n"
	"\t\tct state established accept\n"
	"\t\tmeta l4proto tcp accept\n"
	"\t}\n"
	"}\n";

/* the listing of @ruleset under output @flags, from a fresh context */
static char *listing(unsigned int flags)
{
	struct nfh_ctx *ctx = nfh_ctx_new();
	char *buf, *out;

	nfh_ctx_set_offline(ctx, true);
	nfh_ctx_buffer_output(ctx);
	nfh_ctx_set_output_flags(ctx, flags);
	if (asprintf(&buf, "%slist ruleset\n", ruleset) < 0)
		exit(2);
	nfh_run_cmd_from_buffer(ctx, buf);
	out = strdup(nfh_ctx_get_output_buffer(ctx));
	free(buf);
	nfh_ctx_free(ctx);
	return out;
}

int main(int argc, char **argv)
{
	struct nfh_ctx *ctx = nfh_ctx_new();
	char path[4096], *l;
	FILE *f;

	if (argc != 2)
		return 2;
	nfh_ctx_set_offline(ctx, true);
	expect("not buffered: no output buffer", "(null)",
	       nfh_ctx_get_output_buffer(ctx) ? "buffer" : "(null)");
	expect_int("unbuffering what is not buffered fails", -1,
		   nfh_ctx_unbuffer_output(ctx));
	expect_int("buffer output", 0, nfh_ctx_buffer_output(ctx));
	expect_int("buffer error", 0, nfh_ctx_buffer_error(ctx));
	expect_int("a run that succeeds", 0,
		   nfh_run_cmd_from_buffer(ctx, "add table ip t\nlist tables"));
	expect("its output is in the buffer", "table ip t\n",
	       nfh_ctx_get_output_buffer(ctx));
	expect("and no error", "", nfh_ctx_get_error_buffer(ctx));
	expect("read again: the buffer starts anew", "",
	       nfh_ctx_get_output_buffer(ctx));
	expect_int("a run that fails", 1,
		   nfh_run_cmd_from_buffer(ctx, "add chain ip nosuch c"));
	expect("its error is in the error buffer",
	       "Error: Could not process chain: No such file or directory\n"
	       "add chain ip nosuch c\n"
	       "    ^^^^^^^^^^^^^^^^^\n",
	       nfh_ctx_get_error_buffer(ctx));
	expect("and nothing in the output", "", nfh_ctx_get_output_buffer(ctx));
	nfh_run_cmd_from_buffer(ctx, "list tables");
	nfh_ctx_buffer_output(ctx);
	expect("buffering again drops what it held", "",
	       nfh_ctx_get_output_buffer(ctx));
	expect_int("unbuffer output", 0, nfh_ctx_unbuffer_output(ctx));
	expect("unbuffered: no buffer", "(null)",
	       nfh_ctx_get_output_buffer(ctx) ? "buffer" : "(null)");
	expect("the stream before it is back", "stdout",
	       nfh_ctx_output_stream(ctx) == stdout ? "stdout" : "other");
	nfh_ctx_buffer_output(ctx);

	/* include paths and variables */
	snprintf(path, sizeof(path), "%s/inc.nft", argv[1]);
	f = fopen(path, "w");
	if (!f)
		return 2;
	fputs("add chain ip t c\nadd rule ip t c tcp dport $port accept\n", f);
	fclose(f);
	nfh_ctx_add_include_path(ctx, argv[1]);
	expect_int("add_var", 0, nfh_ctx_add_var(ctx, "port=80"));
	expect_int("a malformed variable", -1, nfh_ctx_add_var(ctx, "port"));
	expect_int("an include found on the path, with the variable", 0,
		   nfh_run_cmd_from_buffer(ctx, "include \"inc.nft\"\nlist chain ip t c"));
	expect("it made the rule",
	       "table ip t {\n\tchain c {\n\t\ttcp dport 80 accept\n\t}\n}\n",
	       nfh_ctx_get_output_buffer(ctx));
	nfh_ctx_clear_vars(ctx);
	expect_int("without the variable it fails", 1,
		   nfh_run_cmd_from_buffer(ctx, "include \"inc.nft\""));
	nfh_ctx_get_error_buffer(ctx);
	nfh_ctx_add_var(ctx, "port=81");
	nfh_ctx_clear_include_paths(ctx);
	expect_int("with the paths cleared the include is not found", 1,
		   nfh_run_cmd_from_buffer(ctx, "include \"inc.nft\"\n"));
	expect("the error says so",
	       "Error: could not find \"inc.nft\" in the include paths\n"
	       "include \"inc.nft\"\n"
	       "        ^^^^^^^^^\n", nfh_ctx_get_error_buffer(ctx));
	nfh_ctx_free(ctx);

	/* -n is four flags; NFH_OUTPUT_NUMERIC_SYMBOL only the symbols' */
	ctx = nfh_ctx_new();
	nfh_ctx_set_output_flags(ctx, NFH_OUTPUT_NUMERIC);
	expect_int("the flags read back as set", NFH_OUTPUT_NUMERIC,
		   nfh_ctx_get_output_flags(ctx));
	nfh_ctx_free(ctx);
	l = listing(NFH_OUTPUT_NUMERIC_SYMBOL);
	expect("symbols alone: priority and protocol stay names",
	       "table ip t {\n\tchain c {\n"
	       "\t\ttype filter hook input priority filter; policy accept;\n"
	       "\t\tct state 0x2 accept\n\t\tmeta l4proto tcp accept\n\t}\n}\n", l);
	free(l);
	l = listing(NFH_OUTPUT_NUMERIC);
	expect("-n: all numeric",
	       "table ip t {\n\tchain c {\n"
	       "\t\ttype filter hook input priority 0; policy accept;\n"
	       "\t\tct state 0x2 accept\n\t\tmeta l4proto 6 accept\n\t}\n}\n", l);
	free(l);
	return failed ? 1 : 0;
}
