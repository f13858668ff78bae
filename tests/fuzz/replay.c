// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * main() for a fuzz target built without libFuzzer: runs the target once
 * on each file named on the command line, so that the regression inputs
 * (tests/fuzz/regress/) replay under any compiler, sanitizer or valgrind.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char *argv[])
{
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		size_t cap = 4096, n = 0, r;
		uint8_t *buf;

		if (!f) {
			perror(argv[i]);
			return 1;
		}
		buf = malloc(cap);
		while (buf && (r = fread(buf + n, 1, cap - n, f)) > 0) {
			n += r;
			if (n == cap)
				buf = realloc(buf, cap *= 2);
		}
		if (!buf || ferror(f)) {
			fprintf(stderr, "%s: read error\n", argv[i]);
			return 1;
		}
		fclose(f);
		LLVMFuzzerTestOneInput(buf, n);
		free(buf);
	}
	return 0;
}
