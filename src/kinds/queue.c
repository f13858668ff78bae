// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * queue: the packet goes to a user space program over nfnetlink_queue (the
 * kernel's "queue" expression, CONFIG_NFT_QUEUE).  The queue is a number,
 * a range of them (fanout: by the CPU, else by a hash of the flow), or a
 * number a register holds (queue to jhash ..., numgen ..., a map); flags
 * bypass (no listener: the packet goes on) and fanout.  The rule ends there.
 *
 * The grammar takes nft 1.0.6's forms: "queue [num N[-M]] [bypass]
 * [fanout]" in any order, "queue to EXPR" and "queue flags F,.. to EXPR" or
 * "num N[-M]".  The listing is "queue [flags bypass,fanout] to N[-M]".
 */
#include <limits.h>
#include <string.h>
#include <jansson.h>
#include <libnftnl/expr.h>
#include <linux/netfilter/nf_tables.h>

#include <datatype.h>
#include <kind.h>
#include <queue.h>

struct queue_priv {
	struct expr	*num;	/* NULL: queue 0 */
	uint32_t	flags;	/* NFT_QUEUE_FLAG_* */
};
_Static_assert(sizeof(struct queue_priv) <= sizeof(((struct stmt *)0)->priv),
	       "queue_priv fits a statement's fields");

static const struct stmt_ops queue_ops;

struct stmt *queue_stmt_alloc(const struct location *loc, struct expr *num,
			      uint32_t flags)
{
	struct stmt *s = ops_stmt_alloc(loc, &queue_ops);
	struct queue_priv *p = stmt_priv(s);

	p->num = num;
	p->flags = flags;
	return s;
}

void queue_stmt_num(struct stmt *s, struct expr *num)
{
	struct queue_priv *p = stmt_priv(s);

	/* "queue num 3 num 4": the last one, as nft */
	expr_free(p->num);
	p->num = num;
}

void queue_stmt_flags(struct stmt *s, uint32_t flags)
{
	struct queue_priv *p = stmt_priv(s);

	p->flags |= flags;
}

uint32_t queue_flag_lookup(const char *word)
{
	if (!strcmp(word, "bypass"))
		return NFT_QUEUE_FLAG_BYPASS;
	if (!strcmp(word, "fanout"))
		return NFT_QUEUE_FLAG_CPU_FANOUT;
	return 0;
}

/* what a queue number is: 16 bits in host byte order */
static struct expr *queue_num_type(void)
{
	return constant_expr_alloc(&internal_location, &integer_type,
				   BYTEORDER_HOST, 16, NULL);
}

static int queue_eval(struct kind_eval *k, struct stmt *s)
{
	struct queue_priv *p = stmt_priv(s);
	struct expr *want;
	uint64_t max;
	int ret;

	if (!p->num)
		return 0;
	want = queue_num_type();
	if (p->num->kind == EXPR_RANGE)
		ret = k->rhs(k, want, &p->num);
	else
		ret = k->value(k, want, &p->num);
	expr_free(want);
	if (ret < 0)
		return -1;
	if (p->num->kind == EXPR_RANGE &&
	    (p->num->range.left->kind != EXPR_VALUE ||
	     p->num->range.right->kind != EXPR_VALUE))
		return error_queue(k->msgs, &p->num->loc,
				   "a queue range takes two numbers");
	if ((p->flags & NFT_QUEUE_FLAG_CPU_FANOUT) && p->num->kind != EXPR_RANGE)
		return error_queue(k->msgs, &p->num->loc,
				   "fanout requires a range to be specified");
	max = p->num->ops && p->num->ops->maxval ? p->num->ops->maxval(p->num) : 0;
	if (max > USHRT_MAX)
		return error_queue(k->msgs, &p->num->loc,
				   "queue expression max value exceeds %u",
				   USHRT_MAX);
	return 0;
}

/* a number or a range: the first and how many; else the number goes
   through register 1 */
static int queue_linearize(struct kind_lin *k, const struct stmt *s)
{
	const struct queue_priv *p = stmt_priv(s);
	struct nftnl_expr *x;
	uint64_t lo = 0, hi = 0;

	if (p->num && p->num->kind == EXPR_VALUE) {
		lo = hi = expr_value_u64(p->num);
	} else if (p->num && p->num->kind == EXPR_RANGE) {
		lo = expr_value_u64(p->num->range.left);
		hi = expr_value_u64(p->num->range.right);
	} else if (p->num) {
		struct expr *want = queue_num_type();
		int ret = k->value(k, p->num, want, BYTEORDER_HOST);

		expr_free(want);
		if (ret < 0)
			return -1;
		x = k->add(k, "queue");
		nftnl_expr_set_u32(x, NFTNL_EXPR_QUEUE_SREG_QNUM, NFT_REG_1);
		nftnl_expr_set_u16(x, NFTNL_EXPR_QUEUE_FLAGS, p->flags);
		return 0;
	}
	x = k->add(k, "queue");
	nftnl_expr_set_u16(x, NFTNL_EXPR_QUEUE_NUM, lo);
	/* 0-65535 is 65536 queues: 0 in 16 bits, as nft sends it */
	nftnl_expr_set_u16(x, NFTNL_EXPR_QUEUE_TOTAL, hi - lo + 1);
	nftnl_expr_set_u16(x, NFTNL_EXPR_QUEUE_FLAGS, p->flags);
	return 0;
}

static struct expr *queue_value(uint16_t v)
{
	return constant_expr_u64(&internal_location, &integer_type,
				 BYTEORDER_HOST, 16, v);
}

static void queue_delinearize(struct kind_delin *k,
			      const struct nftnl_expr *nle)
{
	uint16_t flags = nftnl_expr_is_set(nle, NFTNL_EXPR_QUEUE_FLAGS) ?
			 nftnl_expr_get_u16(nle, NFTNL_EXPR_QUEUE_FLAGS) : 0;
	struct expr *num;

	if (nftnl_expr_is_set(nle, NFTNL_EXPR_QUEUE_SREG_QNUM)) {
		num = k->reg_get(k, nftnl_expr_get_u32(nle,
						NFTNL_EXPR_QUEUE_SREG_QNUM));
		if (!num) {
			k->unsupported(k, "queue");
			return;
		}
	} else {
		uint16_t lo = nftnl_expr_get_u16(nle, NFTNL_EXPR_QUEUE_NUM);
		uint16_t total = nftnl_expr_get_u16(nle, NFTNL_EXPR_QUEUE_TOTAL);

		num = queue_value(lo);
		if (total > 1)
			num = range_expr_alloc(&internal_location, num,
					       queue_value(lo + total - 1));
	}
	k->add_stmt(k, queue_stmt_alloc(&internal_location, num, flags));
}

/* nft 1.0.6: "queue flags bypass,fanout to 2-5", "queue to 0" */
static void queue_print(struct kind_print *k, const struct stmt *s)
{
	const struct queue_priv *p = stmt_priv(s);
	const char *sep = " flags ";

	fputs("queue", k->f);
	if (p->flags & NFT_QUEUE_FLAG_BYPASS) {
		fprintf(k->f, "%sbypass", sep);
		sep = ",";
	}
	if (p->flags & NFT_QUEUE_FLAG_CPU_FANOUT)
		fprintf(k->f, "%sfanout", sep);
	if (!p->num)
		return;
	fputs(" to ", k->f);
	if (p->num->kind == EXPR_VALUE || p->num->kind == EXPR_RANGE)
		k->expr(k, p->num);
	else
		k->value(k, p->num, &integer_type, BYTEORDER_HOST);
}

/* one flag as a string, two as an array */
static json_t *queue_flags_json(uint32_t flags)
{
	json_t *a = json_array();

	if (flags & NFT_QUEUE_FLAG_BYPASS)
		json_array_append_new(a, json_string("bypass"));
	if (flags & NFT_QUEUE_FLAG_CPU_FANOUT)
		json_array_append_new(a, json_string("fanout"));
	if (json_array_size(a) == 1) {
		json_t *one = json_incref(json_array_get(a, 0));

		json_decref(a);
		return one;
	}
	if (!json_array_size(a)) {
		json_decref(a);
		return NULL;
	}
	return a;
}

/* { "queue": { "num": N, "flags": F } }, or null with neither */
static json_t *queue_json(struct kind_json *k, const struct stmt *s)
{
	const struct queue_priv *p = stmt_priv(s);
	json_t *o = json_object(), *flags;

	if (p->num) {
		json_t *n = p->num->kind == EXPR_VALUE ||
			    p->num->kind == EXPR_RANGE ?
			    k->expr(k, p->num) :
			    k->value(k, p->num, &integer_type, BYTEORDER_HOST);

		o = kind_json_set(o, "num", n);
		if (!o)
			return NULL;
	}
	flags = queue_flags_json(p->flags);
	if (flags)
		json_object_set_new(o, "flags", flags);
	if (!json_object_size(o)) {
		json_decref(o);
		o = json_null();
	}
	return kind_json_wrap("queue", o);
}

static int queue_flags_parse_json(struct kind_jparse *k, json_t *v,
				  uint32_t *flags)
{
	json_t *f;
	size_t i;

	if (json_is_string(v)) {
		*flags = queue_flag_lookup(json_string_value(v));
		if (!*flags)
			return k->error(k, v, "queue: unknown flag \"%s\"",
					json_string_value(v));
		return 0;
	}
	if (!json_is_array(v))
		return k->error(k, v, "queue: \"flags\" must be a string or an array of strings");
	*flags = 0;
	json_array_foreach(v, i, f) {
		uint32_t one = json_is_string(f) ?
			       queue_flag_lookup(json_string_value(f)) : 0;

		if (!one)
			return k->error(k, f, "queue: unknown flag");
		*flags |= one;
	}
	return 0;
}

static struct stmt *queue_parse_json(struct kind_jparse *k, const char *key,
				     json_t *v, const struct location *loc)
{
	static const char *const props[] = { "num", "flags", NULL };
	struct expr *num = NULL;
	uint32_t flags = 0;
	json_t *n, *f;

	if (json_is_null(v))
		return queue_stmt_alloc(loc, NULL, 0);
	if (!json_is_object(v) || k->check_keys(k, v, "queue", props) < 0)
		return k->error(k, v, "queue: expected null or an object"), NULL;
	f = json_object_get(v, "flags");
	if (f && queue_flags_parse_json(k, f, &flags) < 0)
		return NULL;
	n = json_object_get(v, "num");
	if (n && !(num = k->expr(k, n)))
		return NULL;
	return queue_stmt_alloc(loc, num, flags);
}

/* for the delinearizer: a map's values are queue numbers */
static struct expr **queue_value_of(struct stmt *s, struct expr **field)
{
	struct queue_priv *p = stmt_priv(s);

	*field = queue_num_type();
	return &p->num;
}

static void queue_destroy(struct stmt *s)
{
	struct queue_priv *p = stmt_priv(s);

	expr_free(p->num);
}

static const struct stmt_ops queue_ops = {
	.name		= "queue",
	.nl_name	= "queue",
	.kind		= STMT_OPS,
	.bare		= true,
	.eval		= queue_eval,
	.linearize	= queue_linearize,
	.delinearize	= queue_delinearize,
	.print		= queue_print,
	.json		= queue_json,
	.parse_json	= queue_parse_json,
	.destroy	= queue_destroy,
	.value		= queue_value_of,
	.terminal	= "queue",
};
STMT_OPS_REGISTER(queue_ops);
