/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFH_CTX_H
#define NFH_CTX_H

#include <nfhook/libnfhook.h>
#include <utils.h>

struct mnl_socket;
struct nlmsghdr;
struct cache;

/*
 * Output flags for the printers alone, above the public ones: inside
 * a set's elements, where a range may print as a prefix; the ends of a
 * range, which nft prints as numbers, never as symbols; the plain numbers
 * of a match on raw payload bits, which nft prints in hex.
 */
#define NFH_PRINT_IN_SET	(1u << 30)
#define NFH_PRINT_RANGE		(1u << 29)
/* flags joined by " | ", as one value of a set or a mask: "syn | ack" */
#define NFH_PRINT_FLAGS_OR	(1u << 28)
#define NFH_PRINT_HEX		(1u << 27)

struct output_ctx {
	unsigned int	flags;
	FILE		*out;
	FILE		*err;
};

/* an output or error stream buffered in memory (nfh_ctx_buffer_output) */
struct nfh_membuf {
	FILE		*fp;		/* writes here land in @data */
	FILE		*orig;		/* the stream it stands in for */
	char		*data;
	size_t		len;		/* written since the last read */
	size_t		cap;
};

struct nfh_ctx {
	struct output_ctx	octx;
	unsigned int		oflags;		/* as set, for the getter */
	struct nfh_membuf	*outbuf;
	struct nfh_membuf	*errbuf;
	unsigned int		debug;
	bool			dry_run;
	bool			keep_items;	/* a batch sent keeps its objects (a
						   check before the model reads them) */
	bool			offline;
	char			**include_paths;
	unsigned int		num_include_paths;
	bool			no_default_include; /* cleared, even the
						      built-in one */
	char			**defines;	/* NAME=VALUE */
	unsigned int		num_defines;
	struct list_head	inputs;		/* input_desc, kept for erecs */
	struct mnl_socket	*nl;
	bool			no_netlink;	/* the socket would not open:
						   exit status 3, as nft's */
	uint32_t		seq;
	uint32_t		dump_genid;	/* the last listing's generation */
	uint32_t		cache_gen;	/* of the first read of the ruleset */
	bool			cache_gen_set;	/* in this run (the batch's) */
	unsigned long		forged;		/* messages dropped: not
						   the kernel's, not ours */
	uint32_t		set_id;		/* last anonymous set id used */
	uint32_t		chain_id;	/* last chain id (NFTA_CHAIN_ID) */
	bool			dump_torn;	/* a set dump came with elements
						   twice: read it again */
	uint32_t		rule_id;	/* last rule id ("index N") */
	struct cache		*offline_cache;	/* offline ruleset */
	struct cache		*set_cache;	/* kernel sets, read for a run */
	struct plan		*plan;		/* the rest the run read
						   (compile/plan.c) */
	struct list_head	ext_sets;	/* struct set made from them */
	/* -e: each message the kernel echoes for a batch goes to @echo (the
	   monitor's printer), with @echo_data */
	void			(*echo)(void *data, const struct nlmsghdr *nlh);
	void			*echo_data;
};

#endif
