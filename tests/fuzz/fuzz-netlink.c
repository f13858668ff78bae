// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: the listing path.  Each input is a run of netlink messages
 * as a kernel dump would send them (NFT_MSG_NEWTABLE, NEWCHAIN, NEWSET,
 * NEWSETELEM, NEWRULE, in any order); they are filed into a cache exactly
 * as `nfh list ruleset` files the kernel's replies, then delinearized and
 * printed.  Whatever the kernel, or something pretending to be it, sends
 * must not crash the listing.  With NFH_FUZZ_LIST set in the environment
 * (a replay, for tests) the listing goes to stdout.
 */
#include <dlfcn.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libmnl/libmnl.h>

#include <cache.h>
#include <ctx.h>
#include <netlink.h>
#include <print.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
const char *__lsan_default_suppressions(void);

/*
 * libnftnl answers an attribute of the wrong size with exit(1) and "nf_tables
 * kernel ABI is broken": a clean end, and nft's too.  While it parses, this
 * exit() returns to the target instead, which then lists what it has; the
 * object being parsed is lost, so leaks of libnftnl objects allocated in the
 * dump callbacks are not reported (the delinearizer's and printer's are).
 */
static jmp_buf *parsing;

__attribute__((visibility("default"))) void exit(int status)
{
	static void (*real_exit)(int);
	jmp_buf *j = parsing;

	if (j) {
		parsing = NULL;
		longjmp(*j, 1);
	}
	if (!real_exit)
		real_exit = (void (*)(int))dlsym(RTLD_NEXT, "exit");
	real_exit(status);
	abort();
}

__attribute__((visibility("default"))) const char *__lsan_default_suppressions(void)
{
	/* libnftnl's frames may be missing from the stack: name its callers */
	return "leak:libnftnl.so\n"
	       "leak:table_cb\nleak:chain_cb\nleak:set_cb\nleak:rule_cb\n"
	       "leak:nlio_dump_msg\n";
}

/* lengths checked as unsigned, as netlink.c's talk() does */
static void file_msgs(struct cache *c, const char *p, size_t left)
{
	while (left >= sizeof(struct nlmsghdr)) {
		const struct nlmsghdr *nlh = (const void *)p;
		size_t step;

		if (nlh->nlmsg_len < sizeof(*nlh) || nlh->nlmsg_len > left)
			break;
		nlio_dump_msg(c, nlh);
		step = NLMSG_ALIGN((size_t)nlh->nlmsg_len);
		if (step >= left)
			break;
		p += step;
		left -= step;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null, *list;
	struct output_ctx octx = { 0 };
	static jmp_buf jb;
	struct cache *c;
	void *buf;

	if (!null && !(null = fopen("/dev/null", "w")))
		abort();
	if (!list)
		list = getenv("NFH_FUZZ_LIST") ? stdout : null;
	if (size > 1 << 20)
		return 0;
	/*
	 * A copy, so that the messages are aligned as recv() leaves them,
	 * with the NUL that netlink.c's talk() puts after what it received
	 */
	buf = malloc(size + 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	((char *)buf)[size] = '\0';

	c = cache_alloc();
	if (!setjmp(jb)) {
		parsing = &jb;
		file_msgs(c, buf, size);
	}
	parsing = NULL;
	/* the first message's port id picks the output flags (-a, -n, -s...) */
	if (size >= sizeof(struct nlmsghdr))
		octx.flags = ((const struct nlmsghdr *)buf)->nlmsg_pid;
	octx.out = octx.err = null;
	print_listing(c, LIST_RULESET, 0, NULL, NULL, &octx, list);
	cache_free(c);
	free(buf);
	return 0;
}
