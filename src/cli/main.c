// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nfh: a thin front end. One option table makes both getopt's tables and
 * --help; everything else is one call into libnfhook.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <nfhook/libnfhook.h>

#include "cli.h"

enum opt_id {
	OPT_HELP = 'h', OPT_VERSION = 'V', OPT_CHECK = 'c', OPT_FILE = 'f',
	OPT_INTERACTIVE = 'i', OPT_INCLUDEPATH = 'I', OPT_DEFINE = 'D',
	OPT_HANDLE = 'a', OPT_ECHO = 'e', OPT_JSON = 'j', OPT_NUMERIC = 'n',
	OPT_STATELESS = 's', OPT_TERSE = 't', OPT_NUMERIC_PROTO = 'p',
	OPT_SERVICE = 'S', OPT_NUMERIC_PRIO = 'y', OPT_NUMERIC_TIME = 'T',
	OPT_GUID = 'u', OPT_DEBUG = 'd', OPT_REVERSEDNS = 'N',
	OPT_VERSION_V = 'v', OPT_OFFLINE = 256,
};

struct option_desc {
	const char	*name;
	int		val;
	const char	*arg;
	const char	*help;
	unsigned int	oflag;	/* the output flag the option sets, if one */
};

static const struct option_desc options[] = {
	{ "help",	OPT_HELP,	NULL,	"show this help", 0 },
	{ "version",	OPT_VERSION,	NULL,	"show the version", 0 },
	{ "version",	OPT_VERSION_V,	NULL,	"show the version, as -V (nft's -v)", 0 },
	{ "check",	OPT_CHECK,	NULL,	"check commands; the kernel validates, nothing is applied", 0 },
	{ "offline",	OPT_OFFLINE,	NULL,	"never talk to the kernel: check against an in-memory ruleset", 0 },
	{ "file",	OPT_FILE,	"FILE",	"read commands from FILE ('-' for standard input)", 0 },
	{ "interactive", OPT_INTERACTIVE, NULL,	"read commands from an interactive shell", 0 },
	{ "includepath", OPT_INCLUDEPATH, "DIR", "add DIR to the include search path", 0 },
	{ "define",	OPT_DEFINE,	"NAME=VALUE", "define variable NAME", 0 },
	{ "handle",	OPT_HANDLE,	NULL,	"list object handles", NFH_OUTPUT_HANDLE },
	{ "echo",	OPT_ECHO,	NULL,	"print what the kernel made of the commands, as monitor does", NFH_OUTPUT_ECHO },
	{ "json",	OPT_JSON,	NULL,	"JSON: list in nft's JSON schema; input starting with '{' is read as JSON", NFH_OUTPUT_JSON },
	{ "numeric",	OPT_NUMERIC,	NULL,	"print fully numerical output: -y, -p, -T and symbolic constants", NFH_OUTPUT_NUMERIC },
	{ "numeric-priority", OPT_NUMERIC_PRIO, NULL, "print chain priorities numerically", NFH_OUTPUT_NUMERIC_PRIO },
	{ "numeric-protocol", OPT_NUMERIC_PROTO, NULL, "print layer 4 protocols numerically", NFH_OUTPUT_NUMERIC_PROTO },
	{ "numeric-time", OPT_NUMERIC_TIME, NULL, "print times as whole seconds", NFH_OUTPUT_NUMERIC_TIME },
	{ "service",	OPT_SERVICE,	NULL,	"print ports as service names from /etc/services", NFH_OUTPUT_SERVICE },
	{ "reversedns",	OPT_REVERSEDNS,	NULL,	"print IP addresses as host names, where the resolver has one", NFH_OUTPUT_REVERSEDNS },
	{ "guid",	OPT_GUID,	NULL,	"print user and group ids as names from /etc/passwd and /etc/group", NFH_OUTPUT_GUID },
	{ "stateless",	OPT_STATELESS,	NULL,	"omit counter and quota values", NFH_OUTPUT_STATELESS },
	{ "terse",	OPT_TERSE,	NULL,	"omit set contents", NFH_OUTPUT_TERSE },
	{ "debug",	OPT_DEBUG,	"LEVEL", "debug output: netlink (bytecode), mnl (messages), all", 0 },
};

static void show_help(FILE *f, const char *name)
{
	fprintf(f, "Usage: %s [ options ] [ cmds... ]\n\nOptions:\n", name);
	for (unsigned int i = 0; i < sizeof(options) / sizeof(options[0]); i++) {
		const struct option_desc *o = &options[i];
		char left[64];

		if (o->val < 256)
			snprintf(left, sizeof(left), "-%c, --%s%s%s", o->val,
				 o->name, o->arg ? " " : "", o->arg ? o->arg : "");
		else
			snprintf(left, sizeof(left), "    --%s%s%s", o->name,
				 o->arg ? " " : "", o->arg ? o->arg : "");
		fprintf(f, "  %-30s %s\n", left, o->help);
	}
}

static int debug_flags(const char *arg, unsigned int *flags)
{
	char *copy = strdup(arg), *tok, *save = NULL;
	int ret = 0;

	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "netlink"))
			*flags |= NFH_DEBUG_NETLINK;
		else if (!strcmp(tok, "mnl"))
			*flags |= NFH_DEBUG_MNL;
		else if (!strcmp(tok, "scanner"))
			*flags |= NFH_DEBUG_SCANNER;
		else if (!strcmp(tok, "parser"))
			*flags |= NFH_DEBUG_PARSER;
		else if (!strcmp(tok, "proto-ctx"))
			*flags |= NFH_DEBUG_PROTO_CTX;
		else if (!strcmp(tok, "all"))
			*flags |= NFH_DEBUG_NETLINK | NFH_DEBUG_MNL |
				  NFH_DEBUG_SCANNER | NFH_DEBUG_PARSER |
				  NFH_DEBUG_PROTO_CTX;
		else if (!strcmp(tok, "eval") || !strcmp(tok, "segtree"))
			fprintf(stderr, "nfh: debug level \"%s\" is not supported yet, ignored\n", tok);
		else {
			fprintf(stderr, "nfh: invalid debug level \"%s\"\n", tok);
			ret = -1;
		}
	}
	free(copy);
	return ret;
}

/*
 * A descriptor 0, 1 or 2 closed by the caller would be the next one
 * opened: the netlink socket, which would then get the listing or the
 * errors.  Each gets /dev/null, open the wrong way round as glibc does
 * for set-user-ID programs, so that using it fails as using a closed one
 * does (and is reported).
 */
static void std_fds_open(void)
{
	for (int fd = 0; fd <= 2; fd++) {
		int got;

		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		got = open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY);
		if (got < 0)
			exit(1);
		if (got != fd) {
			if (dup2(got, fd) < 0)
				exit(1);
			close(got);
		}
	}
}

/*
 * Whatever is still buffered goes out now; a write that failed, now or
 * before, makes the exit status 1 (coreutils' close_stdout).
 */
static int std_streams_close(int ret)
{
	int err;

	errno = 0;
	if (fflush(stdout) != 0 || ferror(stdout) || fclose(stdout) != 0) {
		err = errno;
		if (err)
			fprintf(stderr, "nfh: write error: %s\n", strerror(err));
		else
			fprintf(stderr, "nfh: write error\n");
		ret = 1;
	}
	if (fflush(stderr) != 0 || ferror(stderr))
		ret = 1;
	return ret;
}

#define NOPTIONS	(sizeof(options) / sizeof(options[0]))

/* getopt's tables, from the option table */
static void getopt_tables(struct option *longopts, char *shortopts)
{
	size_t n = strlen(shortopts);

	for (unsigned int i = 0; i < NOPTIONS; i++) {
		longopts[i] = (struct option){
			options[i].name,
			options[i].arg ? required_argument : no_argument,
			NULL, options[i].val,
		};
		if (options[i].val < 256) {
			shortopts[n++] = options[i].val;
			if (options[i].arg)
				shortopts[n++] = ':';
		}
	}
	memset(&longopts[NOPTIONS], 0, sizeof(longopts[0]));
}

struct args {
	const char	*file;
	bool		interactive;
	unsigned int	oflags, dflags;
};

/* one option into @ctx or @a: -1 to go on, else the exit status */
static int option_apply(struct nfh_ctx *ctx, struct args *a, int c,
			const char *argv0)
{
	for (unsigned int i = 0; i < NOPTIONS; i++)
		if (options[i].val == c && options[i].oflag) {
			a->oflags |= options[i].oflag;
			return -1;
		}
	switch (c) {
	case OPT_HELP:
		show_help(stdout, "nfh");
		return 0;
	case OPT_VERSION:
	case OPT_VERSION_V:
		printf("nfh %s (nfhook)\n", PACKAGE_VERSION);
		return 0;
	case OPT_CHECK:		nfh_ctx_set_dry_run(ctx, true); return -1;
	case OPT_OFFLINE:	nfh_ctx_set_offline(ctx, true); return -1;
	case OPT_FILE:		a->file = optarg; return -1;
	case OPT_INTERACTIVE:	a->interactive = true; return -1;
	case OPT_INCLUDEPATH:	nfh_ctx_add_include_path(ctx, optarg); return -1;
	case OPT_DEFINE:
		if (nfh_ctx_add_var(ctx, optarg) < 0) {
			fprintf(stderr, "Error: invalid define \"%s\": expected NAME=VALUE\n", optarg);
			return 1;
		}
		return -1;
	case OPT_DEBUG:
		return debug_flags(optarg, &a->dflags) < 0 ? 1 : -1;
	default:
		fprintf(stderr, "Try '%s --help' for more information.\n", argv0);
		return 1;
	}
}

/* the words after the options as one command line */
static int run_words(struct nfh_ctx *ctx, int argc, char *argv[])
{
	size_t len = 0;
	char *buf;
	int ret;

	for (int i = optind; i < argc; i++)
		len += strlen(argv[i]) + 1;
	buf = calloc(1, len + 1);
	if (!buf)
		return 2;
	for (int i = optind; i < argc; i++) {
		strcat(buf, argv[i]);
		if (i + 1 < argc)
			strcat(buf, " ");
	}
	ret = nfh_run_cmd_from_buffer(ctx, buf);
	free(buf);
	return ret;
}

static int run(struct nfh_ctx *ctx, const struct args *a, int argc,
	       char *argv[])
{
	if (a->interactive) {
		if (a->file || optind < argc) {
			fprintf(stderr, "Error: -i takes no %s\n",
				a->file ? "-f" : "commands");
			return 1;
		}
		return cli_run(ctx);
	}
	if (a->file) {
		if (optind < argc) {
			fprintf(stderr, "Error: -f takes no commands after the file name: \"%s\"\n",
				argv[optind]);
			return 1;
		}
		return nfh_run_cmd_from_filename(ctx, a->file);
	}
	if (optind < argc)
		return run_words(ctx, argc, argv);
	fprintf(stderr, "Error: no command given; try '%s --help'\n", argv[0]);
	return 1;
}

int main(int argc, char *argv[])
{
	struct option longopts[NOPTIONS + 1];
	char shortopts[64] = "+";
	struct args a = { 0 };
	struct nfh_ctx *ctx;
	int ret = -1, c;

	getopt_tables(longopts, shortopts);
	std_fds_open();
	ctx = nfh_ctx_new();
	if (!ctx)
		return 2;
	while (ret < 0 &&
	       (c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1)
		ret = option_apply(ctx, &a, c, argv[0]);
	if (ret < 0) {
		nfh_ctx_set_output_flags(ctx, a.oflags);
		nfh_ctx_set_debug(ctx, a.dflags);
		ret = run(ctx, &a, argc, argv);
	}
	nfh_ctx_free(ctx);
	return std_streams_close(ret);
}
