// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <utils.h>

void __noreturn memory_allocation_error(void)
{
	fprintf(stderr, "nfh: out of memory\n");
	exit(2);
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		memory_allocation_error();
	return p;
}

void *xzalloc(size_t size)
{
	void *p = calloc(1, size ? size : 1);

	if (!p)
		memory_allocation_error();
	return p;
}

void *xrealloc(void *ptr, size_t size)
{
	void *p = realloc(ptr, size ? size : 1);

	if (!p)
		memory_allocation_error();
	return p;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		memory_allocation_error();
	return p;
}

char *xstrndup(const char *s, size_t n)
{
	char *p = strndup(s, n);

	if (!p)
		memory_allocation_error();
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;

	va_start(ap, fmt);
	if (vasprintf(&p, fmt, ap) < 0)
		memory_allocation_error();
	va_end(ap);
	return p;
}
