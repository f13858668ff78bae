// SPDX-License-Identifier: GPL-2.0-or-later
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <kind.h>

/* the kinds' tables, as EXPR_OPS_REGISTER put them in the binary */
KIND_SECTION_NTH(struct expr_ops, nfh_expr_ops, expr_ops_nth)

/* the table of each kind of the enum that has one */
static const struct expr_ops *kind_ops[__EXPR_KIND_MAX];

__attribute__((constructor)) static void kind_ops_index(void)
{
	const struct expr_ops *o;

	for (unsigned int i = 0; (o = expr_ops_nth(i)); i++)
		if (o->kind != EXPR_SELECTOR && o->kind < array_size(kind_ops))
			kind_ops[o->kind] = o;
}

const struct expr_ops *expr_ops_by_nl_name(const char *name)
{
	const struct expr_ops *o;

	for (unsigned int i = 0; (o = expr_ops_nth(i)); i++)
		if (o->nl_name && !strcmp(o->nl_name, name))
			return o;
	return NULL;
}

const struct expr_ops *expr_ops_by_json_name(const char *key)
{
	const struct expr_ops *o;

	for (unsigned int i = 0; (o = expr_ops_nth(i)); i++)
		if (kind_name_is(o->name, o->json_names, key))
			return o;
	return NULL;
}

const struct expr_ops *expr_ops_by_typeof_kind(uint32_t kind)
{
	const struct expr_ops *o;

	for (unsigned int i = 0; (o = expr_ops_nth(i)); i++)
		if (o->typeof_parse && o->typeof_kind == kind)
			return o;
	return NULL;
}

struct expr *expr_kind_parse(const char *name, const struct location *loc,
			     const struct kind_word *w, unsigned int n,
			     struct list_head *msgs)
{
	const struct expr_ops *o;

	for (unsigned int i = 0; (o = expr_ops_nth(i)); i++)
		if (o->parse && !strcmp(o->name, name))
			return o->parse(loc, w, n, msgs);
	error_queue(msgs, loc, "internal error: no expression kind %s", name);
	return NULL;
}

struct expr *expr_alloc(const struct location *loc, enum expr_kind kind,
			const struct datatype *dtype, enum byteorder bo,
			unsigned int len)
{
	struct expr *e = xzalloc(sizeof(*e));

	init_list_head(&e->list);
	e->loc = loc ? *loc : internal_location;
	e->kind = kind;
	e->dtype = dtype ? dtype : &invalid_type;
	e->byteorder = bo;
	e->len = len;
	if (kind < array_size(kind_ops))
		e->ops = kind_ops[kind];
	if (kind == EXPR_LIST || kind == EXPR_SET || kind == EXPR_CONCAT)
		init_list_head(&e->set.exprs);
	return e;
}

struct expr *selector_expr_alloc(const struct location *loc,
				 const struct expr_ops *ops,
				 const struct datatype *dtype,
				 enum byteorder bo, unsigned int len)
{
	struct expr *e = expr_alloc(loc, EXPR_SELECTOR, dtype, bo, len);

	e->ops = ops;
	return e;
}

static struct expr *clone(const struct expr *e, size_t *nodes)
{
	struct expr *n, *i;

	if (!e)
		return NULL;
	(*nodes)++;
	n = xmalloc(sizeof(*n));
	*n = *e;
	init_list_head(&n->list);
	if (e->ops && e->ops->clone)
		e->ops->clone(n, e, nodes);
	switch (e->kind) {
	case EXPR_SYMBOL:
		n->sym.str = xstrdup(e->sym.str);
		break;
	case EXPR_VARIABLE:
		n->sym.str = xstrdup(e->sym.str);
		break;
	case EXPR_BINOP:
	case EXPR_RELATIONAL:
	case EXPR_MAPPING:
	case EXPR_MAP:
		n->op.left = clone(e->op.left, nodes);
		n->op.right = clone(e->op.right, nodes);
		break;
	case EXPR_PREFIX:
		n->prefix.expr = clone(e->prefix.expr, nodes);
		break;
	case EXPR_RANGE:
		n->range.left = clone(e->range.left, nodes);
		n->range.right = clone(e->range.right, nodes);
		break;
	case EXPR_LIST:
	case EXPR_SET:
	case EXPR_CONCAT:
		init_list_head(&n->set.exprs);
		n->set.name = e->set.name ? xstrdup(e->set.name) : NULL;
		list_for_each_entry(i, &e->set.exprs, list)
			list_add_tail(&clone(i, nodes)->list, &n->set.exprs);
		break;
	case EXPR_SET_REF:
		n->setref.name = xstrdup(e->setref.name);
		break;
	case EXPR_SET_ELEM:
		n->elem.key = clone(e->elem.key, nodes);
		n->elem.comment = e->elem.comment ? xstrdup(e->elem.comment) :
						    NULL;
		break;
	case EXPR_VERDICT:
		n->verdict.chain = e->verdict.chain ?
				   xstrdup(e->verdict.chain) : NULL;
		break;
	default:
		break;
	}
	return n;
}

struct expr *expr_clone_counted(const struct expr *e, size_t *nodes)
{
	return clone(e, nodes);
}

struct expr *expr_clone(const struct expr *e)
{
	size_t nodes = 0;

	return clone(e, &nodes);
}

void expr_free(struct expr *e)
{
	struct expr *i, *next;

	/*
	 * "1|2|3|..." nests to the left as deep as it is long, and is freed
	 * before evaluation refuses it: that spine is walked, not recursed
	 */
	while (e && (e->kind == EXPR_BINOP || e->kind == EXPR_RELATIONAL ||
		     e->kind == EXPR_MAPPING || e->kind == EXPR_MAP)) {
		next = e->op.left;
		expr_free(e->op.right);
		free(e);
		e = next;
	}
	if (!e)
		return;
	if (e->ops && e->ops->destroy)
		e->ops->destroy(e);
	switch (e->kind) {
	case EXPR_SYMBOL:
	case EXPR_VARIABLE:
		free(e->sym.str);
		break;
	case EXPR_PREFIX:
		expr_free(e->prefix.expr);
		break;
	case EXPR_RANGE:
		expr_free(e->range.left);
		expr_free(e->range.right);
		break;
	case EXPR_LIST:
	case EXPR_SET:
	case EXPR_CONCAT:
		list_for_each_entry_safe(i, next, &e->set.exprs, list) {
			list_del(&i->list);
			expr_free(i);
		}
		free(e->set.name);
		break;
	case EXPR_SET_REF:
		free(e->setref.name);
		break;
	case EXPR_SET_ELEM:	/* its statements: elem.c's ops */
		expr_free(e->elem.key);
		free(e->elem.comment);
		break;
	case EXPR_VERDICT:
		free(e->verdict.chain);
		break;
	default:
		break;
	}
	free(e);
}

struct expr *symbol_expr_alloc(const struct location *loc, const char *str,
			       bool quoted)
{
	struct expr *e = expr_alloc(loc, EXPR_SYMBOL, NULL, BYTEORDER_INVALID, 0);

	e->sym.str = xstrdup(str);
	e->sym.quoted = quoted;
	return e;
}

struct expr *variable_expr_alloc(const struct location *loc, const char *name)
{
	struct expr *e = expr_alloc(loc, EXPR_VARIABLE, NULL,
				    BYTEORDER_INVALID, 0);

	e->sym.str = xstrdup(name);
	return e;
}

struct expr *constant_expr_alloc(const struct location *loc,
				 const struct datatype *dtype,
				 enum byteorder bo, unsigned int len,
				 const void *data)
{
	struct expr *e = expr_alloc(loc, EXPR_VALUE, dtype, bo, len);

	e->flags |= EXPR_F_CONSTANT | EXPR_F_SINGLETON;
	if (data)
		memcpy(e->val.data, data, div_round_up(len, 8));
	return e;
}

struct expr *set_type_placeholder(const struct location *loc,
				  const struct datatype *dt, unsigned int len,
				  enum byteorder bo)
{
	return constant_expr_alloc(loc, dt, bo, len, NULL);
}

struct expr *constant_expr_u64(const struct location *loc,
			       const struct datatype *dtype,
			       enum byteorder bo, unsigned int len,
			       uint64_t value)
{
	struct expr *e = constant_expr_alloc(loc, dtype, bo, len, NULL);

	expr_value_set_u64(e, value);
	return e;
}

/* a variable counts as what it stands for (parser_var_ref() sets it) */
unsigned int expr_depth(const struct expr *e)
{
	return e ? e->depth : 0;
}

struct expr *binop_expr_alloc(const struct location *loc, enum ops op,
			      struct expr *l, struct expr *r)
{
	struct expr *e = expr_alloc(loc, EXPR_BINOP, l->dtype, l->byteorder,
				    l->len);
	unsigned int dl = expr_depth(l), dr = expr_depth(r);

	e->depth = (dl > dr ? dl : dr) + 1;
	if (!e->depth)
		e->depth = UINT_MAX;	/* saturates */
	e->op.op = op;
	e->op.left = l;
	e->op.right = r;
	return e;
}

struct expr *relational_expr_alloc(const struct location *loc, enum ops op,
				   struct expr *l, struct expr *r)
{
	struct expr *e = expr_alloc(loc, EXPR_RELATIONAL, &boolean_type,
				    BYTEORDER_INVALID, 0);

	e->op.op = op;
	e->op.left = l;
	e->op.right = r;
	return e;
}

struct expr *prefix_expr_alloc(const struct location *loc, struct expr *v,
			       unsigned int len)
{
	struct expr *e = expr_alloc(loc, EXPR_PREFIX, v->dtype, v->byteorder,
				    v->len);

	e->prefix.expr = v;
	e->prefix.prefix_len = len;
	return e;
}

struct expr *range_expr_alloc(const struct location *loc, struct expr *l,
			      struct expr *r)
{
	struct expr *e = expr_alloc(loc, EXPR_RANGE, l->dtype, l->byteorder,
				    l->len);

	e->range.left = l;
	e->range.right = r;
	return e;
}

struct expr *compound_expr_alloc(const struct location *loc,
				 enum expr_kind kind)
{
	return expr_alloc(loc, kind, NULL, BYTEORDER_INVALID, 0);
}

void compound_expr_add(struct expr *c, struct expr *e)
{
	list_add_tail(&e->list, &c->set.exprs);
	c->set.size++;
}

struct expr *verdict_expr_alloc(const struct location *loc, int verdict,
				const char *chain)
{
	struct expr *e = expr_alloc(loc, EXPR_VERDICT, &verdict_type,
				    BYTEORDER_INVALID, 0);

	e->verdict.verdict = verdict;
	e->verdict.chain = chain ? xstrdup(chain) : NULL;
	e->flags |= EXPR_F_CONSTANT;
	return e;
}

struct expr *set_ref_expr_alloc(const struct location *loc, const char *name)
{
	struct expr *e = expr_alloc(loc, EXPR_SET_REF, NULL, BYTEORDER_INVALID,
				    0);

	e->setref.name = xstrdup(name);
	return e;
}

unsigned int expr_value_bytes(const struct expr *e)
{
	unsigned int n = div_round_up(e->len, 8);

	/* a length read from the kernel can claim more than a value holds */
	return n > NFH_VAL_MAXLEN ? NFH_VAL_MAXLEN : n;
}

uint64_t expr_value_u64(const struct expr *e)
{
	unsigned int n = expr_value_bytes(e);
	uint64_t v = 0;

	/* the low 64 bits of a big-endian value */
	for (unsigned int i = n > 8 ? n - 8 : 0; i < n; i++)
		v = (v << 8) | e->val.data[i];
	return v;
}

void expr_value_set_u64(struct expr *e, uint64_t v)
{
	unsigned int n = expr_value_bytes(e);

	memset(e->val.data, 0, sizeof(e->val.data));
	for (unsigned int i = n; i > 0 && n - i < 8; i--) {
		e->val.data[i - 1] = v & 0xff;
		v >>= 8;
	}
}

int expr_value_cmp(const struct expr *a, const struct expr *b)
{
	unsigned int n = expr_value_bytes(a);

	if (expr_value_bytes(b) > n)
		n = expr_value_bytes(b);
	return memcmp(a->val.data, b->val.data, n);
}

void bytes_reverse(uint8_t *data, unsigned int n)
{
	for (unsigned int i = 0; i < n / 2; i++) {
		uint8_t t = data[i];

		data[i] = data[n - 1 - i];
		data[n - 1 - i] = t;
	}
}

bool expr_value_is_zero(const struct expr *e)
{
	for (unsigned int i = 0; i < expr_value_bytes(e); i++)
		if (e->val.data[i])
			return false;
	return true;
}

const char *expr_op_name(enum ops op)
{
	static const char *const names[] = {
		[OP_IMPLICIT]	= "",
		[OP_EQ]		= "==",
		[OP_NEQ]	= "!=",
		[OP_LT]		= "<",
		[OP_GT]		= ">",
		[OP_LTE]	= "<=",
		[OP_GTE]	= ">=",
		[OP_AND]	= "&",
		[OP_OR]		= "|",
		[OP_XOR]	= "^",
		[OP_LSHIFT]	= "<<",
		[OP_RSHIFT]	= ">>",
		[OP_NEG]	= "!",
		[OP_MASK]	= "/",
	};

	return op < array_size(names) && names[op] ? names[op] : "?";
}

bool expr_is_constant(const struct expr *e)
{
	return e->flags & EXPR_F_CONSTANT;
}

struct expr *mapping_expr_alloc(const struct location *loc, struct expr *key,
				struct expr *value)
{
	struct expr *e = expr_alloc(loc, EXPR_MAPPING, NULL, BYTEORDER_INVALID, 0);

	e->op.left = key;
	e->op.right = value;
	return e;
}

struct expr *map_expr_alloc(const struct location *loc, struct expr *sel,
			    struct expr *map)
{
	struct expr *e = expr_alloc(loc, EXPR_MAP, NULL, BYTEORDER_INVALID, 0);

	e->op.left = sel;
	e->op.right = map;
	return e;
}

struct expr *set_elem_expr_alloc(const struct location *loc, struct expr *key)
{
	struct expr *e = expr_alloc(loc, EXPR_SET_ELEM, NULL, BYTEORDER_INVALID, 0);

	e->elem.key = key;
	init_list_head(&e->elem.stmts);
	return e;
}

unsigned int elem_stmts_count(const struct expr *e)
{
	const struct list_head *p;
	unsigned int n = e->elem.counter;

	for (p = e->elem.stmts.next; p != &e->elem.stmts; p = p->next)
		n++;
	return n;
}

const struct expr *elem_key(const struct expr *e)
{
	if (e->kind == EXPR_MAPPING)
		e = e->op.left;
	return e->kind == EXPR_SET_ELEM ? e->elem.key : e;
}

bool elem_is_catchall(const struct expr *e)
{
	if (e->kind == EXPR_MAPPING)
		e = e->op.left;
	return elem_key(e)->kind == EXPR_CATCHALL;
}

bool elem_is_interval(const struct expr *e)
{
	const struct expr *k = elem_key(e), *i;

	if (k->kind == EXPR_RANGE || k->kind == EXPR_PREFIX)
		return true;
	if (k->kind == EXPR_CONCAT)
		list_for_each_entry(i, &k->set.exprs, list)
			if (i->kind == EXPR_RANGE || i->kind == EXPR_PREFIX)
				return true;
	return false;
}

bool expr_is_selector(const struct expr *e)
{
	switch (e->kind) {
	case EXPR_PAYLOAD:
	case EXPR_EXTHDR:
	case EXPR_META:
	case EXPR_CT:
	case EXPR_FIB:
	case EXPR_HASH:
	case EXPR_SELECTOR:
		return true;
	default:
		return false;
	}
}

/* --- bits of constants, as the delinearizer reads masks (expr.h) ------- */

unsigned int mask_bits(const struct expr *m, unsigned int *first)
{
	unsigned int n = expr_value_bytes(m) * 8, f = n, last = 0;

	for (unsigned int b = 0; b < n; b++)
		if (m->val.data[b / 8] & (0x80 >> (b % 8))) {
			if (f == n)
				f = b;
			last = b + 1;
		}
	*first = f;
	return f == n ? 0 : last - f;
}

bool mask_is_run(const struct expr *m, unsigned int first, unsigned int len)
{
	for (unsigned int b = first; b < first + len; b++)
		if (!(m->val.data[b / 8] & (0x80 >> (b % 8))))
			return false;
	return true;
}

bool mask_is_prefix(const struct expr *m, unsigned int *plen)
{
	unsigned int first, len = mask_bits(m, &first);

	if (len == 0) {
		/* "& 0 == 0" is how nft writes 0.0.0.0/0 */
		*plen = 0;
		return true;
	}
	if (first != 0)
		return false;
	/* every bit of the first @len, none after: 255.0.255.0 is no prefix */
	for (unsigned int b = 0; b < expr_value_bytes(m) * 8; b++)
		if (!(m->val.data[b / 8] & (0x80 >> (b % 8))) != (b >= len))
			return false;
	*plen = len;
	return true;
}

static void shift_right(struct expr *v, unsigned int shift, unsigned int bytes)
{
	uint64_t x = 0;

	for (unsigned int i = 0; i < bytes && i < 8; i++)
		x = (x << 8) | v->val.data[i];
	x = shift < 64 ? x >> shift : 0;	/* a reply can ask for any shift */
	memset(v->val.data, 0, sizeof(v->val.data));
	v->len = bytes * 8;
	expr_value_set_u64(v, x);
}

/*
 * a value, a range or a set's keys of a sub-byte field of @width bits,
 * shifted down; a range's end past the field (an open interval ends at
 * the key's last value) stops at the field's last value, as the bits past
 * it are masked off before the lookup
 */
void shift_rhs_right(struct expr *r, unsigned int shift,
		     unsigned int bytes, unsigned int width)
{
	struct expr *i, *k;

	switch (r->kind) {
	case EXPR_VALUE:
		shift_right(r, shift, bytes);
		break;
	case EXPR_RANGE:
		/* an interval's exclusive end: the last value in it, shifted */
		if (r->range.right->kind != EXPR_VALUE ||
		    r->range.left->kind != EXPR_VALUE)
			break;
		if (r->range.right->flags & EXPR_F_INTERVAL_END) {
			be_dec(r->range.right->val.data,
			       expr_value_bytes(r->range.right));
			r->range.right->flags &= ~EXPR_F_INTERVAL_END;
		}
		shift_right(r->range.left, shift, bytes);
		shift_right(r->range.right, shift, bytes);
		if (width < 64 &&
		    expr_value_u64(r->range.right) > (1ULL << width) - 1)
			expr_value_set_u64(r->range.right, (1ULL << width) - 1);
		break;
	case EXPR_SET:
		list_for_each_entry(i, &r->set.exprs, list) {
			k = i->kind == EXPR_MAPPING ? i->op.left : i;
			if (k->kind == EXPR_SET_ELEM)
				k = k->elem.key;
			if (k->kind == EXPR_VALUE || k->kind == EXPR_RANGE)
				shift_rhs_right(k, shift, bytes, width);
		}
		break;
	default:
		break;
	}
}
