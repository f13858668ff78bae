// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * "*": the catch-all element of a set or map, the one a lookup finds when
 * no other key matches (ip saddr vmap { 10.0.0.1 : accept, * : drop }).
 * The kernel keeps it as an element without a key, flagged
 * NFT_SET_ELEM_CATCHALL; it lists last.  The element store keeps it apart
 * from the keyed ones (elemstore.c), the listing reads it back as this
 * kind (elemdump.c, delinearize.c).
 */
#include <jansson.h>

#include <kind.h>
#include <catchall.h>

static const struct expr_ops catchall_ops;

struct expr *catchall_expr_alloc(const struct location *loc)
{
	return expr_alloc(loc, EXPR_CATCHALL, &invalid_type, BYTEORDER_INVALID,
			  0);
}

static void catchall_print(struct kind_print *k, const struct expr *e)
{
	fputc('*', k->f);
}

static json_t *catchall_json(struct kind_json *k, const struct expr *e)
{
	return json_string("*");
}

static const struct expr_ops catchall_ops = {
	.kind		= EXPR_CATCHALL,
	.print		= catchall_print,
	.json		= catchall_json,
};
EXPR_OPS_REGISTER(catchall_ops);
