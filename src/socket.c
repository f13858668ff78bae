// SPDX-License-Identifier: GPL-2.0-or-later
/* socket: the local socket a packet belongs to */
#include <string.h>
#include <linux/netfilter/nf_tables.h>

#include <proto.h>

#define S(k, n, dt, l) [k] = { .name = n, .dtype = &dt, .len = l, \
			       .byteorder = BYTEORDER_HOST }

/* transparent and wildcard are one byte in the register */
static const struct socket_template socket_templates[] = {
	S(NFT_SOCKET_TRANSPARENT,	"transparent",	integer_type,	8),
	S(NFT_SOCKET_MARK,		"mark",		mark_type,	32),
	S(NFT_SOCKET_WILDCARD,		"wildcard",	integer_type,	8),
};

const struct socket_template *socket_template(unsigned int key)
{
	if (key < array_size(socket_templates) && socket_templates[key].name)
		return &socket_templates[key];
	return NULL;
}

struct expr *socket_expr_alloc(const struct location *loc, unsigned int key)
{
	const struct socket_template *t = socket_template(key);
	struct expr *e = expr_alloc(loc, EXPR_SOCKET, t->dtype, t->byteorder,
				    t->len);

	e->socket.key = key;
	return e;
}

struct expr *socket_expr_parse(const struct location *loc, const char *key,
			       const struct location *kloc,
			       struct list_head *msgs)
{
	for (unsigned int k = 0; k < array_size(socket_templates); k++)
		if (socket_templates[k].name && !strcmp(socket_templates[k].name, key))
			return socket_expr_alloc(loc, k);
	if (!strcmp(key, "cgroupv2"))
		error_queue(msgs, kloc, "socket cgroupv2 is not supported yet");
	else
		error_queue(msgs, kloc, "unknown socket key \"%s\"; expected transparent, mark or wildcard",
			    key);
	return NULL;
}
