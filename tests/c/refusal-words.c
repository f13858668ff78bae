// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The words nfh gives a kernel's refusal of a new chain or set, from a
 * recorded exchange: each file named holds two lines of hex, the message
 * sent and the kernel's NLMSG_ERROR answer to it, as tests/kernel-reply.py
 * records them (tests/shell/kernel-refusal-words.sh).  Prints, for each,
 * the words of nlio_refusal_words(), or "(none)" when it has none.
 * Exit status 0, 2 on a file it cannot read.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libmnl/libmnl.h>

#include <netlink.h>

/* one line of hex into @buf (aligned for a netlink message); its length,
   or -1 */
static long hex_line(FILE *f, unsigned char *buf, size_t cap)
{
	char line[16384];
	size_t n = 0;

	if (!fgets(line, sizeof(line), f))
		return -1;
	for (char *p = line; p[0] && p[0] != '\n'; p += 2) {
		unsigned int b;

		if (n == cap || sscanf(p, "%2x", &b) != 1)
			return -1;
		buf[n++] = b;
	}
	return n >= sizeof(struct nlmsghdr) ? (long)n : -1;
}

int main(int argc, char **argv)
{
	static unsigned char sent[8192] __attribute__((aligned(4)));
	static unsigned char reply[8192] __attribute__((aligned(4)));

	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "r");
		char *words;

		if (!f || hex_line(f, sent, sizeof(sent)) < 0 ||
		    hex_line(f, reply, sizeof(reply)) < 0) {
			fprintf(stderr, "%s: not a recorded exchange\n", argv[i]);
			return 2;
		}
		fclose(f);
		words = nlio_refusal_words((struct nlmsghdr *)sent,
					   (struct nlmsghdr *)reply);
		printf("%s\n", words ? words : "(none)");
		free(words);
	}
	return 0;
}
