// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A libnftables client in C that uses nothing but nft 1.0.6's calls: it
 * builds against <nftables/libnftables.h> and links with either the
 * system's libnftables.so.1 or nfhook's libnftables-nfh.so.1.  It prints
 * each call's return value and what each buffer held, so that
 * tests/shell/libnftables-compat.sh can compare the two libraries' logs.
 * Run it as root in a namespace of its own.
 * Usage: nft-ctx SCRATCH-DIR
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nftables/libnftables.h>

static struct nft_ctx *nft;

/* a buffer's text, one line of the log: escapes for what is not printable */
static void show(const char *what, const char *text)
{
	printf("  %s: \"", what);
	for (const char *p = text ? text : "(null)"; *p; p++)
		if (*p == '\n')
			fputs("\\n", stdout);
		else if (*p == '\t')
			fputs("\\t", stdout);
		else
			putchar(*p);
	puts("\"");
}

static void run(const char *cmd)
{
	int rc = nft_run_cmd_from_buffer(nft, cmd);

	printf("run %s -> %d\n", cmd, rc);
	show("out", nft_ctx_get_output_buffer(nft));
	show("err", nft_ctx_get_error_buffer(nft));
}

int main(int argc, char **argv)
{
	char path[4096], var[] = "port=80", novar[] = "novalue";
	FILE *f;
	int rc;

	if (argc != 2)
		return 2;
	/* the log is whole up to a crash */
	setvbuf(stdout, NULL, _IOLBF, 0);
	nft = nft_ctx_new(NFT_CTX_DEFAULT);
	if (!nft)
		return 1;
	printf("set_output(stderr) gives back stdout: %d\n",
	       nft_ctx_set_output(nft, stderr) == stdout);
	printf("set_output(stdout) gives back stderr: %d\n",
	       nft_ctx_set_output(nft, stdout) == stderr);
	printf("set_error(stderr) gives back stderr: %d\n",
	       nft_ctx_set_error(nft, stderr) == stderr);
	printf("buffer_output -> %d\n", nft_ctx_buffer_output(nft));
	printf("buffer_error -> %d\n", nft_ctx_buffer_error(nft));
	printf("flags %u debug %u dry_run %d optimize %u\n",
	       nft_ctx_output_get_flags(nft), nft_ctx_output_get_debug(nft),
	       nft_ctx_get_dry_run(nft), nft_ctx_get_optimize(nft));

	run("add table ip t");
	run("add chain ip t c { type filter hook input priority 0; }\n"
	    "add rule ip t c tcp dport 22 counter accept");
	run("list ruleset");
	run("add rule ip t c tcp dport 23 accept; add rule ip t c tcp dport 24 acept");
	run("list table ip nosuch");

	nft_ctx_output_set_flags(nft, NFT_CTX_OUTPUT_HANDLE | NFT_CTX_OUTPUT_ECHO);
	printf("flags -> %u\n", nft_ctx_output_get_flags(nft));
	run("add rule ip t c udp dport 53 accept");
	nft_ctx_output_set_flags(nft, NFT_CTX_OUTPUT_NUMERIC_ALL | NFT_CTX_OUTPUT_STATELESS);
	run("list chain ip t c");
	nft_ctx_output_set_flags(nft, NFT_CTX_OUTPUT_JSON);
	run("list table ip t");
	nft_ctx_output_set_flags(nft, NFT_CTX_OUTPUT_JSON | NFT_CTX_OUTPUT_ECHO);
	run("{\"nftables\": [{\"add\": {\"rule\": {\"family\": \"ip\", \"table\": \"t\","
	    " \"chain\": \"c\", \"expr\": [{\"drop\": null}]}}}]}");
	nft_ctx_output_set_flags(nft, 0);

	nft_ctx_set_dry_run(nft, true);
	printf("dry_run -> %d\n", nft_ctx_get_dry_run(nft));
	run("add table ip dry");
	nft_ctx_set_dry_run(nft, false);
	run("list tables");

	nft_ctx_output_set_debug(nft, NFT_DEBUG_NETLINK);
	printf("debug -> %u\n", nft_ctx_output_get_debug(nft));
	nft_ctx_output_set_debug(nft, 0);
	nft_ctx_set_optimize(nft, NFT_OPTIMIZE_ENABLED);
	printf("optimize -> %u\n", nft_ctx_get_optimize(nft));
	nft_ctx_set_optimize(nft, 0);

	/* nft 1.0.6 writes into the string it is given (a literal crashes it) */
	printf("add_var(\"port=80\") -> %d\n", nft_ctx_add_var(nft, var));
	printf("add_var(\"novalue\") -> %d\n", nft_ctx_add_var(nft, novar));
	snprintf(path, sizeof(path), "%s/inc.nft", argv[1]);
	f = fopen(path, "w");
	if (!f)
		return 2;
	fputs("add rule ip t c tcp dport $port accept\n", f);
	fclose(f);
	printf("add_include_path -> %d\n", nft_ctx_add_include_path(nft, argv[1]));
	run("include \"inc.nft\"\nlist chain ip t c");
	rc = nft_run_cmd_from_filename(nft, path);
	printf("run_cmd_from_filename -> %d\n", rc);
	show("out", nft_ctx_get_output_buffer(nft));
	show("err", nft_ctx_get_error_buffer(nft));
	printf("unbuffer_output -> %d\n", nft_ctx_unbuffer_output(nft));
	printf("unbuffer_output again -> %d\n", nft_ctx_unbuffer_output(nft));
	printf("unbuffer_error -> %d\n", nft_ctx_unbuffer_error(nft));
	printf("unbuffered, to stdout:\n");
	rc = nft_run_cmd_from_buffer(nft, "list tables");
	fflush(stdout);
	printf("-> %d\n", rc);
	nft_ctx_free(nft);

	/* last: nft 1.0.6 frees the include paths a second time in
	   nft_ctx_free() after nft_ctx_clear_include_paths(), and the
	   variables in the next file run after nft_ctx_clear_vars(), so
	   this context runs no file and is not freed */
	nft = nft_ctx_new(NFT_CTX_DEFAULT);
	nft_ctx_buffer_output(nft);
	nft_ctx_buffer_error(nft);
	nft_ctx_add_var(nft, var);
	nft_ctx_clear_vars(nft);
	nft_ctx_add_include_path(nft, argv[1]);
	nft_ctx_clear_include_paths(nft);
	/* the return code alone: nft 1.0.6 prints no error here */
	printf("include with the paths cleared -> %d\n",
	       nft_run_cmd_from_buffer(nft, "include \"inc.nft\"\n"));
	return 0;
}
