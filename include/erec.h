/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFH_EREC_H
#define NFH_EREC_H

#include <stdarg.h>
#include <utils.h>

struct location;

/**
 * struct input_desc - one source of text: a file, stdin or a command line
 * @name:	name printed in front of errors (NULL for the command line)
 * @data:	whole text, kept so that error records can print the line
 * @len:	length of @data
 * @parent:	location of the include statement that opened this file
 * @depth:	include depth
 */
struct input_desc {
	struct list_head	list;
	char			*name;
	char			*data;
	size_t			len;
	struct location		*parent;
	unsigned int		depth;
};

/**
 * struct location - a span of source text
 * @indesc:	input the span belongs to; NULL for internally made nodes
 * @line_offset: byte offset of the first line in @indesc->data
 * @first_line, @last_line, @first_col, @last_col: 1-based positions
 */
struct location {
	const struct input_desc	*indesc;
	unsigned int		line_offset;
	unsigned int		first_line;
	unsigned int		last_line;
	unsigned int		first_col;
	unsigned int		last_col;
};

extern const struct location internal_location;

enum erec_type {
	EREC_ERROR,
	EREC_WARNING,
};

#define EREC_MAX_LOCS	2

/* the errors of a run printed (erec_print_list()); then a count */
#define ERRORS_SHOWN	100

struct error_record {
	struct list_head	list;
	enum erec_type		type;
	unsigned int		num_locs;
	struct location		locations[EREC_MAX_LOCS];
	char			*msg;
};

struct error_record *erec_vcreate(enum erec_type type,
				  const struct location *loc,
				  const char *fmt, va_list ap);
struct error_record *erec_create(enum erec_type type,
				 const struct location *loc,
				 const char *fmt, ...) __fmt(3, 4);
void erec_add_location(struct error_record *erec, const struct location *loc);
void erec_destroy(struct error_record *erec);
void erec_print(FILE *f, const struct error_record *erec);
void erec_print_list(FILE *f, struct list_head *list);
void erec_free_list(struct list_head *list);
/* in the order of their places in the input (stable); @inputs: the
   input_desc list, in the order read */
void erec_sort(struct list_head *list, const struct list_head *inputs);

/* queue an error at @loc; returns -1 so a check is one line */
int error_queue(struct list_head *msgs, const struct location *loc,
		const char *fmt, ...) __fmt(3, 4);
int error_queue2(struct list_head *msgs, const struct location *loc,
		 const struct location *loc2, const char *fmt, ...) __fmt(4, 5);

#endif
