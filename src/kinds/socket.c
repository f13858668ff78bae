// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * socket: the local socket a packet belongs to.
 *
 * Everything about the kind is here, in its struct expr_ops; the grammar's
 * rule for "socket KEY" hands its word to socket_parse().
 */
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include <libnftnl/expr.h>
#include <libnftnl/udata.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>

#include <kind.h>
#include <proto.h>

struct socket_priv {
	uint32_t	key;	/* NFT_SOCKET_* */
	uint32_t	level;	/* cgroupv2: the ancestor's depth */
};
_Static_assert(sizeof(struct socket_priv) <= sizeof(((struct expr *)0)->priv),
	       "socket_priv fits an expression's fields");

static const struct expr_ops socket_ops;

/* socket keys (NFT_SOCKET_*) */
struct socket_template {
	const char		*name;
	const struct datatype	*dtype;
	unsigned int		len;
	enum byteorder		byteorder;
};

#define S(k, n, dt, l) [k] = { .name = n, .dtype = &dt, .len = l, \
			       .byteorder = BYTEORDER_HOST }

/* transparent and wildcard are one byte in the register (socket_maxval()
   bounds them) */
static const struct socket_template socket_templates[] = {
	S(NFT_SOCKET_TRANSPARENT,	"transparent",	integer_type,	8),
	S(NFT_SOCKET_MARK,		"mark",		mark_type,	32),
	S(NFT_SOCKET_WILDCARD,		"wildcard",	integer_type,	8),
	/* the cgroup (v2) id, its directory's inode: "level N PATH" */
	S(NFT_SOCKET_CGROUPV2,		"cgroupv2",	cgroupv2_type,	64),
};

static const struct socket_template *socket_template(unsigned int key)
{
	if (key < array_size(socket_templates) && socket_templates[key].name)
		return &socket_templates[key];
	return NULL;
}

static struct expr *socket_alloc(const struct location *loc, unsigned int key)
{
	const struct socket_template *t = socket_template(key);
	struct expr *e = selector_expr_alloc(loc, &socket_ops, t->dtype,
					     t->byteorder, t->len);
	struct socket_priv *p = expr_priv(e);

	p->key = key;
	return e;
}

static struct expr *socket_expr_parse(const struct location *loc,
				      const char *key,
				      const struct location *kloc,
				      struct list_head *msgs)
{
	for (unsigned int k = 0; k < array_size(socket_templates); k++)
		if (socket_templates[k].name && !strcmp(socket_templates[k].name, key)) {
			if (k == NFT_SOCKET_CGROUPV2) {
				error_queue(msgs, kloc, "socket cgroupv2 takes a level: socket cgroupv2 level N PATH");
				return NULL;
			}
			return socket_alloc(loc, k);
		}
	error_queue(msgs, kloc, "unknown socket key \"%s\"; expected transparent, mark, wildcard or cgroupv2",
		    key);
	return NULL;
}

/* the grammar's words: the key, and "cgroupv2"'s level */
static struct expr *socket_parse(const struct location *loc,
				 const struct kind_word *w, unsigned int n,
				 struct list_head *msgs)
{
	struct socket_priv *p;
	struct expr *e;
	unsigned long lvl;

	if (n < 2)
		return socket_expr_parse(loc, w[0].w, w[0].loc, msgs);
	if (strcmp(w[0].w, "cgroupv2")) {
		error_queue(msgs, w[0].loc, "only socket cgroupv2 takes a level");
		return NULL;
	}
	lvl = strtoul(w[1].w, NULL, 10);
	if (lvl > 255) {	/* the kernel's limit */
		error_queue(msgs, w[1].loc, "cgroupv2 level %lu exceeds valid range 0-255", lvl);
		return NULL;
	}
	e = socket_alloc(loc, NFT_SOCKET_CGROUPV2);
	p = expr_priv(e);
	p->level = lvl;
	return e;
}

static int socket_eval(struct kind_eval *k, struct expr *e)
{
	if (k->family != NFPROTO_IPV4 && k->family != NFPROTO_IPV6 &&
	    k->family != NFPROTO_INET)
		return error_queue(k->msgs, &e->loc,
				   "socket is only available in the ip, ip6 and inet families");
	return 0;
}

static void socket_linearize(struct kind_lin *k, const struct expr *e,
			     uint32_t dreg)
{
	const struct socket_priv *p = expr_priv(e);
	struct nftnl_expr *x = k->add(k, "socket");

	nftnl_expr_set_u32(x, NFTNL_EXPR_SOCKET_KEY, p->key);
	nftnl_expr_set_u32(x, NFTNL_EXPR_SOCKET_DREG, dreg);
	if (p->key == NFT_SOCKET_CGROUPV2)
		nftnl_expr_set_u32(x, NFTNL_EXPR_SOCKET_LEVEL, p->level);
}

static void socket_delinearize(struct kind_delin *k,
			       const struct nftnl_expr *e)
{
	uint32_t key = nftnl_expr_get_u32(e, NFTNL_EXPR_SOCKET_KEY);
	struct expr *x;

	if (!socket_template(key)) {
		k->unsupported(k, "socket");
		return;
	}
	x = socket_alloc(&internal_location, key);
	if (key == NFT_SOCKET_CGROUPV2) {
		struct socket_priv *p = expr_priv(x);

		p->level = nftnl_expr_get_u32(e, NFTNL_EXPR_SOCKET_LEVEL);
	}
	k->reg_set(k, nftnl_expr_get_u32(e, NFTNL_EXPR_SOCKET_DREG), x);
}

static void socket_print(struct kind_print *k, const struct expr *e)
{
	const struct socket_priv *p = expr_priv(e);

	fprintf(k->f, "socket %s", socket_template(p->key)->name);
	if (p->key == NFT_SOCKET_CGROUPV2)
		fprintf(k->f, " level %u", p->level);
}

/* { "socket": { "key": K } } */
static json_t *socket_json(struct kind_json *k, const struct expr *e)
{
	const struct socket_priv *p = expr_priv(e);

	return kind_json_wrap("socket", kind_json_wrap("key",
		json_string(socket_template(p->key)->name)));
}

static struct expr *socket_parse_json(struct kind_jparse *k, const char *name,
				      json_t *o, const struct location *loc)
{
	static const char *const keys[] = { "key", NULL };
	const char *key;
	struct location kloc;

	if (!json_is_object(o) || k->check_keys(k, o, name, keys) < 0)
		return k->error(k, o, "%s: expected an object", name), NULL;
	key = k->get_str(k, o, "key", true);
	if (!key)
		return NULL;
	kloc = k->loc(k, json_object_get(o, "key"));
	return socket_expr_parse(loc, key, &kloc, k->msgs);
}

/* typeof: record 0 is the NFT_SOCKET_* key; nft keeps no cgroupv2 level
   (it lists "level 0" back, as we do: the key is the same) */
static void socket_typeof_put(struct nftnl_udata_buf *b, const struct expr *e)
{
	const struct socket_priv *p = expr_priv(e);

	nftnl_udata_put_u32(b, 0, p->key);
}

static struct expr *socket_typeof_parse(const struct kind_typeof *t,
					unsigned int family)
{
	if (!t->set[0] || !socket_template(t->v[0]))
		return NULL;
	return socket_alloc(&internal_location, t->v[0]);
}

/* transparent and wildcard are 0 or 1: nft refuses a match on more */
static uint64_t socket_maxval(const struct expr *e)
{
	const struct socket_priv *p = expr_priv(e);

	return p->key == NFT_SOCKET_TRANSPARENT || p->key == NFT_SOCKET_WILDCARD ?
	       1 : UINT64_MAX;
}

static const struct expr_ops socket_ops = {
	.name		= "socket",
	.nl_name	= "socket",
	.kind		= EXPR_SELECTOR,
	.parse		= socket_parse,
	.eval		= socket_eval,
	.linearize	= socket_linearize,
	.delinearize	= socket_delinearize,
	.print		= socket_print,
	.json		= socket_json,
	.parse_json	= socket_parse_json,
	.maxval		= socket_maxval,
	.typeof_kind	= TYPEOF_KIND_SOCKET,
	.typeof_recs	= 1,
	.typeof_put	= socket_typeof_put,
	.typeof_parse	= socket_typeof_parse,
};
EXPR_OPS_REGISTER(socket_ops);
