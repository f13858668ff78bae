// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The only place that formats rules: statements and listings as nft prints
 * them, so that a listing loads back unchanged.
 */
#include <ctype.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_synproxy.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/netfilter/nf_nat.h>
#include <libnftnl/chain.h>
#include <libnftnl/object.h>
#include <libnftnl/rule.h>
#include <libnftnl/set.h>
#include <libnftnl/table.h>
#include <libnftnl/udata.h>

#include <cache.h>
#include <ctx.h>
#include <delinearize.h>
#include <kind.h>
#include <listing.h>
#include <flowtable.h>
#include <print.h>
#include <inner.h>
#include <proto.h>
#include <set.h>
#include <wire.h>
#include <names.h>

/* --- names and strings --------------------------------------------------- */

static bool name_chars_ok(const char *s)
{
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("_./-:", *s))
			return false;
	return true;
}

bool (*print_name_is_bare)(const char *name);

/*
 * A table, chain, set or object name: bare where it reads back as itself,
 * in quotes where it is a keyword or has characters a bare word cannot
 * ("1x", "a/b"), escaped where it has some no name made here may have.
 */
void name_print(FILE *f, const char *name)
{
	if (print_name_is_bare && print_name_is_bare(name)) {
		fputs(name, f);
		return;
	}
	if (!name_chars_ok(name)) {
		/* even printable ones: nfh refuses them on the way back */
		fputc('"', f);
		for (const char *p = name; *p; p++) {
			unsigned char c = *p;

			if (c == '"' || c == '\\')
				fprintf(f, "\\%c", c);
			else if (c < 0x20 || c >= 0x7f)
				fprintf(f, "\\x%02x", c);
			else
				fputc(c, f);
		}
		fputc('"', f);
		return;
	}
	fprintf(f, "\"%s\"", name);
}

/* "[WORDS] FAMILY NAME [NAME2]": the head of a table or an event */
static void head_print(FILE *f, const char *words, const char *family,
		       const char *name, const char *name2)
{
	if (words)
		fprintf(f, "%s ", words);
	fprintf(f, "%s ", family);
	name_print(f, name);
	if (name2) {
		fputc(' ', f);
		name_print(f, name2);
	}
}

/* @name, or @"name" for a name that needs quotes */
static void setref_print(FILE *f, const char *name)
{
	bool bare = isalpha((unsigned char)name[0]) || name[0] == '_';

	for (const char *p = name; bare && *p; p++)
		bare = isalnum((unsigned char)*p) || strchr("-_./", *p);
	fputc('@', f);
	if (bare)
		fputs(name, f);
	else
		name_print(f, name);
}

static void value_print(const struct expr *e, const struct output_ctx *o,
			FILE *f)
{
	datatype_print(e, o, f);
}

/*
 * Set element ranges arrive with an exclusive end: print them inclusive.
 * In a set, a range that is a prefix of an address or a mark prints as one.
 */
static void range_print(const struct expr *e, const struct output_ctx *octx,
			FILE *f)
{
	struct expr lo = *e->range.left, hi = *e->range.right;
	struct output_ctx ro = *octx, *o = &ro;
	bool in_set = (octx->flags & NFH_PRINT_IN_SET) ||
		      (hi.flags & EXPR_F_INTERVAL_END);
	struct expr r = *e;
	unsigned int plen;

	ro.flags |= NFH_PRINT_RANGE;

	if (hi.flags & EXPR_F_INTERVAL_END) {
		/* end is exclusive: subtract one */
		be_dec(hi.val.data, expr_value_bytes(&hi));
	}
	if (!expr_value_cmp(&lo, &hi)) {
		value_print(&lo, octx, f);	/* a single value, as it is */
		return;
	}
	r.range.left = &lo;
	r.range.right = &hi;
	if (range_is_wildcard(&r)) {
		lo.flags |= EXPR_F_WILDCARD;
		value_print(&lo, o, f);
		return;
	}
	if (in_set && (lo.dtype->flags & DTYPE_F_PREFIX) &&
	    range_is_prefix(&r, &plen)) {
		value_print(&lo, o, f);
		fprintf(f, "/%u", plen);
		return;
	}
	value_print(&lo, o, f);
	fputc('-', f);
	value_print(&hi, o, f);
}

/* a flags value of more than one bit */
static bool flags_several(const struct expr *v)
{
	uint64_t x;

	if (!(v->dtype->flags & DTYPE_F_BITMASK) || !v->dtype->symbols)
		return false;
	x = expr_value_u64(v);
	return x & (x - 1);
}

/* how tightly an operator binds, as in C (and nft): 1 is the tightest */
static unsigned int binop_precedence(const struct expr *e)
{
	switch (e->op.op) {
	case OP_LSHIFT:
	case OP_RSHIFT:	return 1;
	case OP_AND:	return 2;
	case OP_XOR:	return 3;
	case OP_OR:	return 4;
	default:	return 0;
	}
}

/* an operand that binds more loosely than its operator is put in
   parentheses; on the right, one that binds as loosely too (a value of
   the packet: "meta mark | (ct mark | 0x1)" reads back as it was) */
static void binop_arg_print(const struct expr *op, const struct expr *arg,
			    const struct output_ctx *o, FILE *f)
{
	bool paren = arg->kind == EXPR_BINOP && binop_precedence(op) &&
		     (binop_precedence(op) < binop_precedence(arg) ||
		      (arg == op->op.right &&
		       binop_precedence(op) == binop_precedence(arg)));

	if (paren)
		fputc('(', f);
	expr_print(arg, o, f);
	if (paren)
		fputc(')', f);
}

static void kind_print_expr(struct kind_print *k, const struct expr *e)
{
	expr_print(e, k->octx, k->f);
}

static void kind_print_value(struct kind_print *k, const struct expr *v,
			     const struct datatype *dt, enum byteorder bo);

static void kind_print_stmt(struct kind_print *k, const struct stmt *s)
{
	stmt_print(s, k->octx, k->f);
}

static void kind_print_name(struct kind_print *k, const char *name)
{
	name_print(k->f, name);
}

static void kind_print_setref(struct kind_print *k, const char *name)
{
	setref_print(k->f, name);
}

static void kind_print_rule(struct kind_print *k, const struct rule *r)
{
	rule_print(r, k->octx, k->f);
}

#define KIND_PRINT(o, out) {						\
	.f = (out), .octx = (o), .expr = kind_print_expr,		\
	.value = kind_print_value, .stmt = kind_print_stmt,		\
	.name = kind_print_name, .setref = kind_print_setref,		\
	.rule = kind_print_rule,					\
}

/* a kind known by its ops (include/kind.h) */
static void kind_print(const struct expr *e, const struct output_ctx *o,
		       FILE *f)
{
	struct kind_print k = KIND_PRINT(o, f);

	e->ops->print(&k, e);
}

/* the key of a map of raw bits prints in hex, as in a match
   ("@th,0,8 & 0x80 map { 128 : 2 }"); the elements do not */
static void map_key_print(const struct expr *key, const struct output_ctx *o,
			  FILE *f)
{
	const struct expr *sel = key;
	struct output_ctx ho = *o;

	while (sel->kind == EXPR_BINOP)
		sel = sel->op.left;
	if (inner_child(sel))
		sel = inner_child(sel);	/* raw bits in a tunnel too */
	if (sel->kind == EXPR_PAYLOAD && sel->payload.is_raw)
		ho.flags |= NFH_PRINT_HEX;
	expr_print(key, &ho, f);
}

static void binop_print(const struct expr *e, const struct output_ctx *o,
			FILE *f)
{
	binop_arg_print(e, e->op.left, o, f);
	fprintf(f, " %s ", expr_op_name(e->op.op));
	if (e->op.op == OP_LSHIFT || e->op.op == OP_RSHIFT) {
		/* a shift is by a plain number, in decimal */
		struct output_ctx so = *o;

		so.flags &= ~NFH_PRINT_HEX;
		binop_arg_print(e, e->op.right, &so, f);
		return;
	}
	if (e->op.right->kind == EXPR_VALUE && flags_several(e->op.right)) {
		/* "tcp flags & (syn | ack)", as nft prints a mask */
		struct output_ctx so = *o;

		so.flags |= NFH_PRINT_FLAGS_OR;
		fputc('(', f);
		expr_print(e->op.right, &so, f);
		fputc(')', f);
		return;
	}
	binop_arg_print(e, e->op.right, o, f);
}

static void elem_counter_print(const struct expr *e,
			       const struct output_ctx *o, FILE *f)
{
	if (o->flags & NFH_OUTPUT_STATELESS)
		fprintf(f, " counter");
	else
		fprintf(f, " counter packets %llu bytes %llu",
			(unsigned long long)e->elem.packets,
			(unsigned long long)e->elem.bytes);
}

/* a set element: its key, and what it keeps */
static void set_elem_print(const struct expr *e, const struct output_ctx *o,
			   FILE *f)
{
	const struct stmt *st;
	unsigned int p = 0;

	expr_print(e->elem.key, o, f);
	/* the counter and the element's own statements, in the set's order */
	list_for_each_entry(st, &e->elem.stmts, list) {
		if (e->elem.counter && p++ == e->elem.counter_at)
			elem_counter_print(e, o, f);
		fputc(' ', f);
		stmt_print(st, o, f);
	}
	if (e->elem.counter && p <= e->elem.counter_at)
		elem_counter_print(e, o, f);
	if (e->elem.timeout == ELEM_TIMEOUT_NEVER) {
		fprintf(f, " timeout never");
	} else if (e->elem.timeout) {
		fprintf(f, " timeout ");
		time_print_opt(e->elem.timeout, o, f);
	}
	if (e->elem.expires && !(o->flags & NFH_OUTPUT_STATELESS)) {
		fprintf(f, " expires ");
		time_print_opt(e->elem.expires, o, f);
	}
	if (e->elem.comment)
		fputs(" comment ", f), quoted_print(f, e->elem.comment);
}

static void symbol_print(const struct expr *e, const struct output_ctx *o,
			 FILE *f)
{
	if (e->sym.quoted)
		quoted_print(f, e->sym.str);
	else
		fputs(e->sym.str, f);
}

static void prefix_print(const struct expr *e, const struct output_ctx *o,
			 FILE *f)
{
	expr_print(e->prefix.expr, o, f);
	fprintf(f, "/%u", e->prefix.prefix_len);
}

/* the expressions of a set, list or concatenation, with sep between them */
static void exprs_print(const struct expr *e, const char *sep,
			const struct output_ctx *o, FILE *f)
{
	const struct expr *i;
	bool first = true;

	list_for_each_entry(i, &e->set.exprs, list) {
		if (!first)
			fputs(sep, f);
		expr_print(i, o, f);
		first = false;
	}
}

static void set_print(const struct expr *e, const struct output_ctx *o,
		      FILE *f)
{
	struct output_ctx so = *o;

	so.flags |= NFH_PRINT_IN_SET;
	fprintf(f, "{ ");
	exprs_print(e, ", ", &so, f);
	fprintf(f, " }");
}

static void list_print(const struct expr *e, const struct output_ctx *o,
		       FILE *f)
{
	exprs_print(e, ",", o, f);
}

static void concat_print(const struct expr *e, const struct output_ctx *o,
			 FILE *f)
{
	exprs_print(e, " . ", o, f);
}

static void set_ref_print(const struct expr *e, const struct output_ctx *o,
			  FILE *f)
{
	setref_print(f, e->setref.name);
}

static void map_print(const struct expr *e, const struct output_ctx *o,
		      FILE *f)
{
	map_key_print(e->op.left, o, f);
	fprintf(f, " map ");
	expr_print(e->op.right, o, f);
}

static void mapping_print(const struct expr *e, const struct output_ctx *o,
			  FILE *f)
{
	expr_print(e->op.left, o, f);
	fprintf(f, " : ");
	expr_print(e->op.right, o, f);
}

static void verdict_expr_print(const struct expr *e,
			       const struct output_ctx *o, FILE *f)
{
	fprintf(f, "%s", verdict_name(e->verdict.verdict));
	if (e->verdict.chain)
		fputc(' ', f), name_print(f, e->verdict.chain);
}

/* the printers of the kinds without ops of their own */
static void (*const expr_printers[__EXPR_KIND_MAX])(const struct expr *,
						     const struct output_ctx *,
						     FILE *) = {
	[EXPR_VALUE]	= value_print,
	[EXPR_SYMBOL]	= symbol_print,
	[EXPR_BINOP]	= binop_print,
	[EXPR_PREFIX]	= prefix_print,
	[EXPR_RANGE]	= range_print,
	[EXPR_SET]	= set_print,
	[EXPR_LIST]	= list_print,
	[EXPR_SET_REF]	= set_ref_print,
	[EXPR_CONCAT]	= concat_print,
	[EXPR_MAP]	= map_print,
	[EXPR_MAPPING]	= mapping_print,
	[EXPR_SET_ELEM]	= set_elem_print,
	[EXPR_VERDICT]	= verdict_expr_print,
};

void expr_print(const struct expr *e, const struct output_ctx *o, FILE *f)
{
	if (e->ops && e->ops->print)
		kind_print(e, o, f);
	else if (expr_printers[e->kind])
		expr_printers[e->kind](e, o, f);
	else
		fprintf(f, "<unknown expression>");
}

static bool is_flags(const struct expr *e)
{
	return (e->dtype->flags & DTYPE_F_BITMASK) && e->dtype->symbols;
}

/*
 * A flags value compared exactly: one flag by its name, several bits of a
 * header field as a number ("tcp flags == 0x12", as nft prints it), of
 * anything else as the bits joined by " | ", as nft prints them (nft then
 * leaves out the "==", and its listing loads back as a bit test; the
 * operator is printed by the caller)
 */
static void exact_flags_print(const struct expr *l, const struct expr *r,
			      const struct output_ctx *o, FILE *f)
{
	struct output_ctx so = *o;
	uint64_t v = expr_value_u64(r);

	if (!(v & (v - 1))) {
		expr_print(r, o, f);
		return;
	}
	if (l->kind == EXPR_PAYLOAD ||
	    (inner_child(l) && inner_child(l)->kind == EXPR_PAYLOAD)) {
		fprintf(f, "0x%llx", (unsigned long long)v);
		return;
	}
	so.flags |= NFH_PRINT_FLAGS_OR;
	expr_print(r, &so, f);
}

/* "x & MASK == VALUE" on flags, as nft lists it; false if not one */
static bool masked_flags_print(const struct expr *rel,
			       const struct output_ctx *o, FILE *f)
{
	const struct expr *l = rel->op.left, *r = rel->op.right, *m;
	uint64_t mv;

	/* nft 1.1.1 lists a mask of flags in a tunnel as any mask */
	if (l->kind != EXPR_BINOP || l->op.op != OP_AND || !is_flags(l->op.left) ||
	    inner_child(l->op.left) ||
	    r->kind != EXPR_VALUE || l->op.right->kind != EXPR_VALUE ||
	    (rel->op.op != OP_EQ && rel->op.op != OP_NEQ))
		return false;
	m = l->op.right;
	mv = expr_value_u64(m);
	expr_print(l->op.left, o, f);
	if (rel->op.op == OP_EQ && expr_value_is_zero(r)) {
		/* "ct status ! snat,dnat": none of these bits, as nft lists it */
		fprintf(f, " ! ");
		expr_print(m, o, f);
		return true;
	}
	if (!(mv & (mv - 1))) {
		/* "tcp flags & syn == syn": one bit under the mask */
		fprintf(f, " & ");
		expr_print(m, o, f);
		fprintf(f, " %s ", expr_op_name(rel->op.op));
		expr_print(r, o, f);
		return true;
	}
	/* "tcp flags syn / syn,ack" */
	fprintf(f, rel->op.op == OP_NEQ ? " != " : " ");
	expr_print(r, o, f);
	fprintf(f, " / ");
	expr_print(m, o, f);
	return true;
}

static void relational_print(const struct expr *rel,
			     const struct output_ctx *octx, FILE *f)
{
	const struct expr *l = rel->op.left, *r = rel->op.right, *sel = l, *tun;
	struct output_ctx ho = *octx, *o = &ho;

	/* nft prints the numbers of a match on raw bits in hex, masks too;
	   in a tunnel (nft 1.1.1) only those under a mask */
	while (sel->kind == EXPR_BINOP)
		sel = sel->op.left;
	tun = inner_child(sel);
	if (tun && l->kind == EXPR_BINOP)
		sel = tun;
	/* vxlan's and geneve's own fields, numbers to nft 1.1.1, in hex in
	   a range, an order or under a mask (vxlan vni 0xa-0x14), not alone
	   or in a set */
	if (tun && tun->kind == EXPR_PAYLOAD && tun->payload.desc &&
	    tun->payload.desc->base == PROTO_BASE_TUN_HDR &&
	    tun->dtype == &integer_type &&
	    (l->kind == EXPR_BINOP || r->kind == EXPR_RANGE ||
	     (rel->op.op != OP_EQ && rel->op.op != OP_NEQ &&
	      rel->op.op != OP_IMPLICIT) ||
	     /* vxlan flags, a bitmask to nft, in a set too */
	     (r->kind == EXPR_SET && tun->payload.tmpl &&
	      !strcmp(tun->payload.tmpl->name, "flags"))))
		ho.flags |= NFH_PRINT_HEX;
	if (sel->kind == EXPR_PAYLOAD && sel->payload.is_raw)
		ho.flags |= NFH_PRINT_HEX;
	if (sel->kind == EXPR_CONCAT) {
		const struct expr *i;

		/* "@nh,0,16 . ip length { 0x1 . 0x2 }": the key has no
		 * type nft knows, its values are raw bits */
		list_for_each_entry(i, &sel->set.exprs, list)
			if (i->kind == EXPR_PAYLOAD && i->payload.is_raw)
				ho.flags |= NFH_PRINT_HEX;
	}

	if (masked_flags_print(rel, o, f))
		return;
	if ((rel->op.op == OP_EQ || rel->op.op == OP_NEQ) &&
	    l->kind != EXPR_BINOP && r->kind == EXPR_VALUE && is_flags(r)) {
		/* a bare flag would mean "any of these bits" */
		expr_print(l, o, f);
		fprintf(f, " %s ", expr_op_name(rel->op.op));
		exact_flags_print(l, r, o, f);
		return;
	}
	expr_print(l, o, f);
	if (l->kind == EXPR_BINOP && rel->op.op == OP_EQ &&
	    !(rel->flags & EXPR_F_HTON))
		fprintf(f, " ==");
	else if (rel->op.op == OP_EQ && r->kind == EXPR_VALUE &&
		 r->dtype == &ct_label_type)
		/* a bare label is a bit test: the exact compare keeps "==" */
		fprintf(f, " ==");
	else if (rel->op.op != OP_EQ && rel->op.op != OP_IMPLICIT)
		fprintf(f, " %s", expr_op_name(rel->op.op));
	fputc(' ', f);
	if (l->kind == EXPR_BINOP && r->kind == EXPR_SET)
		/* "@nh,0,8 & 0x1f == { 12, 21-255 }": the elements of raw
		 * bits under a mask are plain numbers to nft */
		ho.flags &= ~NFH_PRINT_HEX;
	expr_print(r, o, f);
}

void print_match(const struct expr *rel, const struct output_ctx *o, FILE *f)
{
	relational_print(rel, o, f);
}




/* a value as a register held it, printed as a constant of type @dt */
static void register_value_print(const struct expr *e, const struct datatype *dt,
				 enum byteorder bo, const struct output_ctx *o,
				 FILE *f)
{
	struct expr v;

	if (!e)
		return;
	if (e->kind != EXPR_VALUE) {
		struct output_ctx ho = *o;
		const struct expr *sel = e;

		/* raw bits written elsewhere print in hex, as in a match */
		while (sel->kind == EXPR_BINOP)
			sel = sel->op.left;
		if (inner_child(sel))
			sel = inner_child(sel);
		if (sel->kind == EXPR_PAYLOAD && sel->payload.is_raw)
			ho.flags |= NFH_PRINT_HEX;
		expr_print(e, &ho, f);
		return;
	}
	v = *e;
	if (bo == BYTEORDER_HOST && dt != &ifname_type && dt != &string_type)
		bytes_reverse(v.val.data, expr_value_bytes(&v));
	v.dtype = dt;
	expr_print(&v, o, f);
}


static void kind_print_value(struct kind_print *k, const struct expr *v,
			     const struct datatype *dt, enum byteorder bo)
{
	register_value_print(v, dt, bo, k->octx, k->f);
}

/* a statement kind known by its ops (include/kind.h) */
static void kind_stmt_print(const struct stmt *s, const struct output_ctx *o,
			    FILE *f)
{
	struct kind_print k = KIND_PRINT(o, f);

	s->ops->print(&k, s);
}

void stmt_print(const struct stmt *s, const struct output_ctx *o, FILE *f)
{
	if (s->ops && s->ops->print) {
		kind_stmt_print(s, o, f);
		return;
	}
	switch (s->kind) {
	case STMT_EXPRESSION:
		print_match(s->expr, o, f);
		break;
	case STMT_VERDICT:
		if (s->verdict.expr->kind == EXPR_MAP) {
			const struct expr *tun = inner_child(s->verdict.expr->op.left);
			struct output_ctx ho = *o;

			map_key_print(s->verdict.expr->op.left, o, f);
			fprintf(f, " vmap ");
			/* vxlan flags, a bitmask to nft 1.1.1: its keys in hex */
			if (tun && tun->kind == EXPR_PAYLOAD && tun->payload.desc &&
			    tun->payload.desc->base == PROTO_BASE_TUN_HDR &&
			    tun->payload.tmpl && !strcmp(tun->payload.tmpl->name, "flags"))
				ho.flags |= NFH_PRINT_HEX;
			expr_print(s->verdict.expr->op.right, &ho, f);
			break;
		}
		expr_print(s->verdict.expr, o, f);
		break;
	default:
		fprintf(f, "# unsupported expression \"%s\" (nfh cannot print it yet)",
			s->verdict.expr ? s->verdict.expr->sym.str : "?");
		break;
	}
}

void rule_print(const struct rule *r, const struct output_ctx *o, FILE *f)
{
	const struct stmt *s;
	bool first = true;

	list_for_each_entry(s, &r->stmts, list) {
		if (!first)
			fputc(' ', f);
		stmt_print(s, o, f);
		first = false;
	}
	if (r->comment)
		fprintf(f, "%scomment ", first ? "" : " "), quoted_print(f, r->comment);
}

/* --- listings ----------------------------------------------------------- */

/* one entry of "devices = { ... }": names bare, as nft 1.0.6 prints them,
 * a prefix quoted, as the star is no name character */
static void dev_print(FILE *f, unsigned int i, const char *dev)
{
	fputs(i ? ", " : "", f);
	/* a device may be named "a;b": such a name, too, is quoted */
	if (dev_is_prefix(dev) || !print_name_is_bare ||
	    !print_name_is_bare(dev))
		quoted_print(f, dev);
	else
		fputs(dev, f);
}

/* a table's or chain's comment line, from its user data, if it has one */
static void comment_line_print(FILE *f, const char *indent, const void *ud,
			       uint32_t len)
{
	char *cm = udata_get_comment(ud, len);

	if (cm)
		fprintf(f, "%scomment ", indent), quoted_print(f, cm), fputc('\n', f);
	free(cm);
}

/*
 * A base chain's devices: one as "device NAME", more as a list, sorted as
 * nft sorts them; none (all removed from the chain, nft 1.1) as nothing,
 * as nft lists it
 */
static void chain_devices_print(const struct nftnl_chain *c, FILE *f)
{
	const char **devs;

	if (nftnl_chain_is_set(c, NFTNL_CHAIN_DEV)) {
		fputs(" device ", f);
		quoted_print(f, nftnl_chain_get_str(c, NFTNL_CHAIN_DEV));
		return;
	}
	if (!nftnl_chain_is_set(c, NFTNL_CHAIN_DEVICES))
		return;
	devs = nl_chain_devs_sorted(c);
	if (devs[0] && !devs[1]) {
		fputs(" device ", f), quoted_print(f, devs[0]);
	} else if (devs[0]) {
		fprintf(f, " devices = { ");
		for (unsigned int i = 0; devs[i]; i++)
			dev_print(f, i, devs[i]);
		fprintf(f, " }");
	}
	free(devs);
}


static void chain_hook_print(struct nftnl_chain *c, unsigned int family,
			     const struct output_ctx *o, FILE *f)
{
	unsigned int hook = nftnl_chain_get_u32(c, NFTNL_CHAIN_HOOKNUM);

	fprintf(f, "\t\ttype %s hook %s",
		nftnl_chain_get_str(c, NFTNL_CHAIN_TYPE),
		hook_name(family, hook));
	chain_devices_print(c, f);
	fprintf(f, " priority ");
	prio_print(f, family, hook, nftnl_chain_get_s32(c, NFTNL_CHAIN_PRIO),
		   o->flags & NFH_OUTPUT_NUMERIC_PRIO);
	fprintf(f, "; policy %s;\n",
		nftnl_chain_get_u32(c, NFTNL_CHAIN_POLICY) == NF_DROP ?
		"drop" : "accept");
}

static void chain_head_print(struct cache_table *t, struct cache_chain *ch,
			     const struct output_ctx *o, FILE *f)
{
	unsigned int family = nftnl_table_get_u32(t->nlt, NFTNL_TABLE_FAMILY);
	struct nftnl_chain *c = ch->nlc;

	fputs("\tchain ", f);
	name_print(f, nftnl_chain_get_str(c, NFTNL_CHAIN_NAME));
	fputs(" {", f);
	if (o->flags & NFH_OUTPUT_HANDLE)
		fprintf(f, " # handle %llu",
			(unsigned long long)nftnl_chain_get_u64(c, NFTNL_CHAIN_HANDLE));
	fputc('\n', f);
	if (nftnl_chain_is_set(c, NFTNL_CHAIN_USERDATA)) {
		uint32_t len;
		const void *ud = nftnl_chain_get_data(c, NFTNL_CHAIN_USERDATA, &len);

		comment_line_print(f, "\t\t", ud, len);
	}
	if (nftnl_chain_is_set(c, NFTNL_CHAIN_HOOKNUM))
		chain_hook_print(c, family, o, f);
}

static void rule_line_print(struct cache_table *t, struct cache_rule *cr,
			    const struct output_ctx *o, FILE *f)
{
	struct rule *r = delin_rule(t, cr->nlr);

	fprintf(f, "\t\t");
	rule_print(r, o, f);
	if (o->flags & NFH_OUTPUT_HANDLE)
		fprintf(f, " # handle %llu", (unsigned long long)r->h.handle);
	fputc('\n', f);
	rule_free(r);
}

/* how nft breaks long element lists: a few values a line, by type */
static const char *elem_delim(const struct expr *key, unsigned int *count)
{
	static const char newline[] = ",\n\t\t\t     ";

	if (key->kind == EXPR_CONCAT)
		return newline;
	switch (key->dtype->type) {
	case TYPE_NFPROTO: case TYPE_INTEGER: case TYPE_ARPOP:
	case TYPE_INET_PROTOCOL: case TYPE_INET_SERVICE: case TYPE_TCP_FLAG:
	case TYPE_DCCP_PKTTYPE: case TYPE_MARK: case TYPE_IFINDEX:
	case TYPE_CLASSID: case TYPE_UID: case TYPE_GID: case TYPE_CT_DIR:
		if (*count < 5)
			return ", ";
		*count = 0;
		return newline;
	case TYPE_IPADDR: case TYPE_CT_STATE: case TYPE_CT_STATUS:
	case TYPE_PKTTYPE:
		if (*count < 2)
			return ", ";
		*count = 0;
		return newline;
	default:
		return newline;
	}
}

/* a set's statements kept per element, as templates without values,
   separated by blanks, after @first */
static void set_stmts_print(const struct list_head *stmts,
			    const struct output_ctx *o, const char *first,
			    FILE *f)
{
	struct output_ctx so = *o;
	const struct stmt *i;
	const char *sep = first;

	so.flags |= NFH_OUTPUT_STATELESS;
	list_for_each_entry(i, stmts, list) {
		fputs(sep, f);
		stmt_print(i, &so, f);
		sep = " ";
	}
}

static void set_flags_print(uint32_t flags, FILE *f)
{
	static const struct {
		uint32_t	flag;
		const char	*name;
	} names[] = {
		{ NFT_SET_CONSTANT, "constant" }, { NFT_SET_EVAL, "dynamic" },
		{ NFT_SET_INTERVAL, "interval" }, { NFT_SET_TIMEOUT, "timeout" },
	};
	const char *sep = "";

	if (!(flags & (NFT_SET_CONSTANT | NFT_SET_EVAL | NFT_SET_INTERVAL |
		       NFT_SET_TIMEOUT)))
		return;
	fprintf(f, "\t\tflags ");
	for (unsigned int i = 0; i < array_size(names); i++)
		if (flags & names[i].flag) {
			fprintf(f, "%s%s", sep, names[i].name);
			sep = ",";
		}
	fputc('\n', f);
}

/* "type ipv4_addr : verdict" or "typeof ip saddr : verdict" */
static void set_type_print(const struct set *s, const struct output_ctx *o,
			   FILE *f)
{
	if (!s->key_sel) {
		fprintf(f, "type ");
		set_key_print(s->key, f);
	} else {
		fprintf(f, "typeof ");
		expr_print(s->key_sel, o, f);
	}
	if (!s->data)
		return;
	fprintf(f, " : %s", s->data_interval ? "interval " : "");
	if (s->objtype)
		fprintf(f, "%s", obj_type_name(s->objtype) ?
			obj_type_name(s->objtype) : "unknown");
	else if (s->data_sel)
		expr_print(s->data_sel, o, f);
	else
		set_key_print(s->data, f);
}

static void set_head_print(const struct set *s, const struct output_ctx *o,
			   FILE *f)
{
	fprintf(f, "\t%s ", s->is_meter ? "meter" : s->is_map ? "map" : "set");
	name_print(f, s->h.set);
	fputs(" {", f);
	if (o->flags & NFH_OUTPUT_HANDLE)
		fprintf(f, " # handle %llu", (unsigned long long)s->h.handle);
	fprintf(f, "\n\t\t");
	set_type_print(s, o, f);
	fputc('\n', f);
	if (s->policy == NFT_SET_POL_MEMORY)
		fprintf(f, "\t\tpolicy memory\n");
	/* nft lists no size for a constant set: it is what the set holds */
	if (s->size && !(s->flags & NFT_SET_CONSTANT))
		fprintf(f, "\t\tsize %u\n", s->size);
	/* nft lists no timeout flag alone when the set has a timeout */
	if (s->timeout && (s->flags & (NFT_SET_CONSTANT | NFT_SET_EVAL |
				       NFT_SET_INTERVAL | NFT_SET_TIMEOUT)) ==
			  NFT_SET_TIMEOUT)
		set_flags_print(s->flags & ~NFT_SET_TIMEOUT, f);
	else
		set_flags_print(s->flags, f);
	if (!list_empty(&s->stmts)) {
		/* as nft: on one line */
		set_stmts_print(&s->stmts, o, "\t\t", f);
		fputc('\n', f);
	}
	if (s->automerge)
		fprintf(f, "\t\tauto-merge\n");
	if (s->timeout) {
		fprintf(f, "\t\ttimeout ");
		time_print_opt(s->timeout, o, f);
		fputc('\n', f);
	}
	if (s->gc_int) {
		fprintf(f, "\t\tgc-interval ");
		time_print_opt(s->gc_int, o, f);
		fputc('\n', f);
	}
	if (s->comment)
		fputs("\t\tcomment ", f), quoted_print(f, s->comment), fputc('\n', f);
}

/*
 * A set typed by raw loads ("typeof @th,0,1", "typeof @nh,64,8 . @th,0,8")
 * holds raw bits: hex.  (nft prints a raw part of a concatenation with
 * other kinds of parts in hex too, the other parts not: nfh does not.)
 */
static bool set_of_raw(const struct set *s)
{
	const struct expr *i, *k = s->key_sel;

	if (!k)
		return false;
	if (k->kind != EXPR_CONCAT)
		return k->kind == EXPR_PAYLOAD && k->payload.is_raw;
	list_for_each_entry(i, &k->set.exprs, list)
		if (i->kind != EXPR_PAYLOAD || !i->payload.is_raw)
			return false;
	return true;
}

void set_decl_print(const struct set *s, const struct output_ctx *o, FILE *f)
{
	struct output_ctx so = *o;
	const struct expr *i;
	unsigned int count = 0;
	const char *d = "";

	so.flags |= NFH_PRINT_IN_SET;
	if (set_of_raw(s))
		so.flags |= NFH_PRINT_HEX;

	set_head_print(s, o, f);
	if (s->init && !list_empty(&s->init->set.exprs) &&
	    !(o->flags & NFH_OUTPUT_TERSE)) {
		fprintf(f, "\t\telements = { ");
		list_for_each_entry(i, &s->init->set.exprs, list) {
			fputs(d, f);
			expr_print(i, &so, f);
			count++;
			d = elem_delim(s->key, &count);
		}
		fprintf(f, " }\n");
	}
	fprintf(f, "\t}\n");
}

/*
 * A kernel set: its elements are typed and printed one at a time, so that
 * listing a million elements never holds a million expressions.
 */
static void kernel_set_print(struct cache_set *cs, const struct set *s,
			     const struct output_ctx *o, FILE *f)
{
	struct output_ctx so = *o;
	struct set_elem_iter *it;
	unsigned int count = 0;
	const char *d = "\t\telements = { ";
	bool any = false;
	struct expr *e;

	set_head_print(s, o, f);
	if (!(o->flags & NFH_OUTPUT_TERSE)) {
		it = set_elem_iter_new(cs, s);
		so.flags |= NFH_PRINT_IN_SET;
		if (set_of_raw(s))
			so.flags |= NFH_PRINT_HEX;
		while ((e = set_elem_iter_next(it))) {
			fputs(d, f);
			expr_print(e, &so, f);
			expr_free(e);
			count++;
			d = elem_delim(s->key, &count);
			any = true;
		}
		if (any)
			fprintf(f, " }\n");
		set_elem_iter_free(it);
	}
	fprintf(f, "\t}\n");
}


/*
 * An object's body is a few lines; a monitor event runs them together on
 * one line, as nft does: ct objects end each with "; ", the rest with " ".
 */
static void obj_line(FILE *f, bool oneline)
{
	if (!oneline)
		fputs("\t\t", f);
}

static void obj_eol(FILE *f, bool oneline, bool semi)
{
	fputs(!oneline ? "\n" : semi ? "; " : " ", f);
}

/* an object type known by its ops (include/kind.h) */
static void kind_obj_print(const struct obj_ops *ops, struct nftnl_obj *n,
			   const struct output_ctx *o, FILE *f, bool oneline)
{
	struct kind_print k = KIND_PRINT(o, f);

	k.oneline = oneline;
	ops->print(&k, n);
}

/* what follows "{" in a listing (a line each) or a monitor event */
static void obj_body_print(struct nftnl_obj *n, const struct output_ctx *o,
			   FILE *f, bool oneline)
{
	uint32_t type = nftnl_obj_get_u32(n, NFTNL_OBJ_TYPE);
	const struct obj_ops *ops = obj_ops_by_type(type);
	uint32_t len;

	if (nftnl_obj_is_set(n, NFTNL_OBJ_USERDATA)) {
		const void *ud = nftnl_obj_get_data(n, NFTNL_OBJ_USERDATA, &len);
		char *cm = udata_get_comment(ud, len);

		if (cm) {
			obj_line(f, oneline);
			fputs("comment ", f);
			quoted_print(f, cm);
			obj_eol(f, oneline, false);
		}
		free(cm);
	}
	if (ops && ops->print)
		kind_obj_print(ops, n, o, f, oneline);
	else
		obj_line(f, oneline);	/* a type nfh does not know */
}

static void obj_print(struct cache_obj *co, const struct output_ctx *o,
		      FILE *f)
{
	struct nftnl_obj *n = co->nlo;

	fprintf(f, "\t%s ", obj_type_name(nftnl_obj_get_u32(n, NFTNL_OBJ_TYPE)));
	name_print(f, nftnl_obj_get_str(n, NFTNL_OBJ_NAME));
	fputs(" {", f);
	if (o->flags & NFH_OUTPUT_HANDLE)
		fprintf(f, " # handle %llu",
			(unsigned long long)nftnl_obj_get_u64(n, NFTNL_OBJ_HANDLE));
	fputc('\n', f);
	obj_body_print(n, o, f, false);
	fprintf(f, "\t}\n");
}

/* --- the text emitter of the listing walker (listing.c) ----------------- */

struct text_listing {
	const struct output_ctx	*o;
	FILE			*f;
	bool			after_flags;	/* the table's flags line */
};

/*
 * The blank line before a thing of a table: between two of them, and
 * after the table's flags line (as nft, where a comment alone has none),
 * but not in a list of one kind (ALONE: "list counters", "list sets").
 */
static void text_sep(struct text_listing *tl, unsigned int n, bool alone)
{
	if ((n || tl->after_flags) && !alone)
		fputc('\n', tl->f);
	tl->after_flags = false;
}

static void text_table_name(void *d, struct cache_table *t)
{
	struct text_listing *tl = d;
	unsigned int family = nftnl_table_get_u32(t->nlt, NFTNL_TABLE_FAMILY);

	head_print(tl->f, "table", family_name(family),
		   nftnl_table_get_str(t->nlt, NFTNL_TABLE_NAME), NULL);
	fputc('\n', tl->f);
}

/* a whole table has its handle, comment and flags; list chain(s), sets
   and objects show its name alone, as nft */
static void text_table_begin(void *d, struct cache_table *t,
			     enum list_what what)
{
	struct text_listing *tl = d;
	struct nftnl_table *nlt = t->nlt;
	bool whole = what == LIST_RULESET || what == LIST_TABLE;
	FILE *f = tl->f;

	tl->after_flags = false;

	head_print(f, "table",
		   family_name(nftnl_table_get_u32(nlt, NFTNL_TABLE_FAMILY)),
		   nftnl_table_get_str(nlt, NFTNL_TABLE_NAME), NULL);
	fputs(" {", f);
	if (whole && (tl->o->flags & NFH_OUTPUT_HANDLE))
		fprintf(f, " # handle %llu",
			(unsigned long long)nftnl_table_get_u64(nlt, NFTNL_TABLE_HANDLE));
	fputc('\n', f);
	if (whole && nftnl_table_is_set(nlt, NFTNL_TABLE_FLAGS)) {
		/* as nft 1.1.1: dormant and persist, owner not */
		uint32_t fl = nftnl_table_get_u32(nlt, NFTNL_TABLE_FLAGS);

		if (fl & (NFT_TABLE_F_DORMANT | TABLE_F_PERSIST))
			fprintf(f, "\tflags %s%s%s\n",
				fl & NFT_TABLE_F_DORMANT ? "dormant" : "",
				(fl & NFT_TABLE_F_DORMANT) &&
				(fl & TABLE_F_PERSIST) ? "," : "",
				fl & TABLE_F_PERSIST ? "persist" : "");
		tl->after_flags = fl & (NFT_TABLE_F_DORMANT | TABLE_F_PERSIST);
	}
	/* nft prints the flags first */
	if (whole && nftnl_table_is_set(nlt, NFTNL_TABLE_USERDATA)) {
		uint32_t len;
		const void *ud = nftnl_table_get_data(nlt, NFTNL_TABLE_USERDATA, &len);

		comment_line_print(f, "\t", ud, len);
	}
}

static int text_table_end(void *d, struct cache_table *t, enum list_what what)
{
	struct text_listing *tl = d;

	fprintf(tl->f, "}\n");
	return 0;
}

/* a blank line between the things of a table, but in "list counters" */
static void text_obj(void *d, struct cache_table *t, struct cache_obj *co,
		     enum list_what what, unsigned int n)
{
	struct text_listing *tl = d;

	text_sep(tl, n, what == LIST_OBJS);
	obj_print(co, tl->o, tl->f);
}

/* ... and between sets, but in "list sets" and "list maps" */
static int text_set(void *d, struct cache_table *t, struct cache_set *cs,
		    enum list_what what, unsigned int n)
{
	struct text_listing *tl = d;
	struct set *s = delin_set(t, cs, false);

	text_sep(tl, n, what == LIST_SETS || what == LIST_MAPS ||
		 what == LIST_METERS);
	s->is_meter = what == LIST_METERS || what == LIST_METER;
	kernel_set_print(cs, s, tl->o, tl->f);
	set_free(s);
	return 0;
}

/* ... and between chains, but in "list chains" */
static void text_chain_begin(void *d, struct cache_table *t,
			     struct cache_chain *ch, enum list_what what,
			     unsigned int n, bool rules)
{
	struct text_listing *tl = d;

	text_sep(tl, n, what == LIST_CHAINS);
	chain_head_print(t, ch, tl->o, tl->f);
}

static int text_rule(void *d, struct cache_table *t, struct cache_chain *ch,
		     struct cache_rule *cr)
{
	struct text_listing *tl = d;

	rule_line_print(t, cr, tl->o, tl->f);
	return 0;
}

static void text_chain_end(void *d, struct cache_table *t,
			   struct cache_chain *ch, bool rules)
{
	struct text_listing *tl = d;

	fprintf(tl->f, "\t}\n");
}

/* ... and between flowtables, but in "list flowtables" */
static void text_flowtable(void *d, struct cache_table *t,
			   struct cache_flowtable *cf, enum list_what what,
			   unsigned int n)
{
	struct text_listing *tl = d;

	text_sep(tl, n, what == LIST_FLOWTABLES);
	flowtable_print(tl->f, cf->nlf, tl->o, 1);
}

static const struct listing_emitter text_emitter = {
	.table_name	= text_table_name,
	.table_begin	= text_table_begin,
	.table_end	= text_table_end,
	.obj		= text_obj,
	.set		= text_set,
	.chain_begin	= text_chain_begin,
	.rule		= text_rule,
	.chain_end	= text_chain_end,
	.flowtable	= text_flowtable,
};

int print_objs(struct cache *c, unsigned int family, const char *table,
	       uint32_t type, const char *name, const struct output_ctx *o,
	       FILE *f)
{
	struct text_listing tl = { .o = o, .f = f };

	return listing_walk_objs(c, family, table, type, name, &text_emitter,
				 &tl) == -1 ? -1 : 0;
}

int print_listing(struct cache *c, enum list_what what, unsigned int family,
		  const char *table, const char *chain,
		  const struct output_ctx *o, FILE *f)
{
	struct text_listing tl = { .o = o, .f = f };

	return listing_walk(c, what, family, table, chain, &text_emitter,
			    &tl) == -1 ? -1 : 0;
}

/* --- monitor events ------------------------------------------------------ */

static void chain_event_print(struct nftnl_chain *c, const struct output_ctx *o,
			      FILE *f)
{
	unsigned int family = nftnl_chain_get_u32(c, NFTNL_CHAIN_FAMILY);
	unsigned int hook;

	if (!nftnl_chain_is_set(c, NFTNL_CHAIN_HOOKNUM))
		return;
	hook = nftnl_chain_get_u32(c, NFTNL_CHAIN_HOOKNUM);
	fprintf(f, " { type %s hook %s", nftnl_chain_get_str(c, NFTNL_CHAIN_TYPE),
		hook_name(family, hook));
	chain_devices_print(c, f);
	fprintf(f, " priority ");
	prio_print(f, family, hook, nftnl_chain_get_s32(c, NFTNL_CHAIN_PRIO),
		   o->flags & NFH_OUTPUT_NUMERIC_PRIO);
	fprintf(f, "; policy %s; }",
		nftnl_chain_get_u32(c, NFTNL_CHAIN_POLICY) == NF_DROP ?
		"drop" : "accept");
}

/* -a: " # handle N" after what an event added, as nft prints it */
static void event_handle_print(const struct output_ctx *o, uint64_t handle,
			       FILE *f)
{
	if (o->flags & NFH_OUTPUT_HANDLE)
		fprintf(f, " # handle %llu", (unsigned long long)handle);
}

/* "add counter ip t c { packets 0 bytes 0 } ", "delete quota ip t q" */
static void obj_event_print(bool add, struct nftnl_obj *n,
			    const struct output_ctx *o, FILE *f)
{
	fprintf(f, "%s %s ", add ? "add" : "delete",
		obj_type_name(nftnl_obj_get_u32(n, NFTNL_OBJ_TYPE)));
	head_print(f, NULL, family_name(nftnl_obj_get_u32(n, NFTNL_OBJ_FAMILY)),
		   nftnl_obj_get_str(n, NFTNL_OBJ_TABLE),
		   nftnl_obj_get_str(n, NFTNL_OBJ_NAME));
	if (add) {
		fprintf(f, " {");
		event_handle_print(o, nftnl_obj_get_u64(n, NFTNL_OBJ_HANDLE), f);
		fputc(' ', f);
		obj_body_print(n, o, f, true);
		/* nft ends the line with a space, too */
		fputs("} ", f);
	}
	fputc('\n', f);
}

static void table_event_print(const char *op, struct nftnl_table *nlt,
			      const struct output_ctx *o, FILE *f)
{
	fprintf(f, "%s table %s ", op,
		family_name(nftnl_table_get_u32(nlt, NFTNL_TABLE_FAMILY)));
	name_print(f, nftnl_table_get_str(nlt, NFTNL_TABLE_NAME));
	event_handle_print(o, nftnl_table_get_u64(nlt, NFTNL_TABLE_HANDLE), f);
	fputc('\n', f);
}

static void chain_event_line_print(const char *op, bool add,
				   struct nftnl_chain *nlc,
				   const struct output_ctx *o, FILE *f)
{
	fprintf(f, "%s chain ", op);
	head_print(f, NULL, family_name(nftnl_chain_get_u32(nlc, NFTNL_CHAIN_FAMILY)),
		   nftnl_chain_get_str(nlc, NFTNL_CHAIN_TABLE),
		   nftnl_chain_get_str(nlc, NFTNL_CHAIN_NAME));
	if (add) {
		chain_event_print(nlc, o, f);
		event_handle_print(o, nftnl_chain_get_u64(nlc, NFTNL_CHAIN_HANDLE), f);
	}
	fputc('\n', f);
}

/* a rule added (decompiled in its table t) or deleted (its handle) */
static void rule_event_print(const char *op, bool add, struct nftnl_rule *nlr,
			     struct cache_table *t, const struct output_ctx *o,
			     FILE *f)
{
	struct rule *r;

	fprintf(f, "%s rule ", op);
	head_print(f, NULL, family_name(nftnl_rule_get_u32(nlr, NFTNL_RULE_FAMILY)),
		   nftnl_rule_get_str(nlr, NFTNL_RULE_TABLE),
		   nftnl_rule_get_str(nlr, NFTNL_RULE_CHAIN));
	fputc(' ', f);
	if (!add) {
		fprintf(f, "handle %llu\n", (unsigned long long)
			nftnl_rule_get_u64(nlr, NFTNL_RULE_HANDLE));
		return;
	}
	/* nft 1.0.6 names the rule before it, where the kernel says */
	if (nftnl_rule_is_set(nlr, NFTNL_RULE_POSITION))
		fprintf(f, "handle %llu ", (unsigned long long)
			nftnl_rule_get_u64(nlr, NFTNL_RULE_POSITION));
	r = delin_rule(t, nlr);
	rule_print(r, o, f);
	event_handle_print(o, nftnl_rule_get_u64(nlr, NFTNL_RULE_HANDLE), f);
	fputc('\n', f);
	rule_free(r);
}

/* deletions only: adding a set needs the set printer */
static void set_event_print(struct nftnl_set *nls, FILE *f)
{
	head_print(f, "delete set",
		   family_name(nftnl_set_get_u32(nls, NFTNL_SET_FAMILY)),
		   nftnl_set_get_str(nls, NFTNL_SET_TABLE),
		   nftnl_set_get_str(nls, NFTNL_SET_NAME));
	fputc('\n', f);
}

void print_monitor_event(enum mon_op mop, enum nl_obj type, void *obj,
			 struct cache_table *t, const struct output_ctx *o,
			 FILE *f)
{
	static const char *const ops[] = {
		[MON_OP_DELETE] = "delete", [MON_OP_ADD] = "add",
		[MON_OP_INSERT] = "insert",
	};
	const char *op = ops[mop];
	bool add = mop != MON_OP_DELETE;

	switch (type) {
	case NLO_TABLE:
		table_event_print(op, obj, o, f);
		break;
	case NLO_CHAIN:
		chain_event_line_print(op, add, obj, o, f);
		break;
	case NLO_RULE:
		rule_event_print(op, add, obj, t, o, f);
		break;
	case NLO_OBJ:
		obj_event_print(add, obj, o, f);
		break;
	case NLO_SET:
		set_event_print(obj, f);
		break;
	case NLO_FLOWTABLE:
		flowtable_event_print(f, add, obj, o);
		break;
	default:
		break;
	}
}

/* "add set ip t s { type ipv4_addr; flags interval; } ", as nft monitor */
void print_monitor_set(const struct set *s, const struct output_ctx *o, FILE *f)
{
	static const struct {
		uint32_t	flag;
		const char	*name;
	} names[] = {
		{ NFT_SET_CONSTANT, "constant" }, { NFT_SET_EVAL, "dynamic" },
		{ NFT_SET_INTERVAL, "interval" }, { NFT_SET_TIMEOUT, "timeout" },
	};

	head_print(f, s->is_map ? "add map" : "add set",
		   family_name(s->h.family), s->h.table, s->h.set);
	fputs(" {", f);
	/* nft's place for it: "{ # handle 2 type ipv4_addr; }" */
	event_handle_print(o, s->h.handle, f);
	fputc(' ', f);
	set_type_print(s, o, f);
	fprintf(f, "; ");
	if (s->policy == NFT_SET_POL_MEMORY)
		fprintf(f, "policy memory; ");
	if (s->size)
		fprintf(f, "size %u; ", s->size);
	/* nft monitor leaves out a timeout flag that comes alone */
	if (s->flags & (NFT_SET_CONSTANT | NFT_SET_EVAL | NFT_SET_INTERVAL)) {
		const char *sep = "";

		fprintf(f, "flags ");
		for (unsigned int i = 0; i < array_size(names); i++)
			if (s->flags & names[i].flag) {
				fprintf(f, "%s%s", sep, names[i].name);
				sep = ",";
			}
		fprintf(f, "; ");
	}
	if (!list_empty(&s->stmts)) {
		set_stmts_print(&s->stmts, o, "", f);
		fprintf(f, "; ");
	}
	if (s->automerge)
		fprintf(f, "auto-merge; ");
	if (s->timeout) {
		fprintf(f, "timeout ");
		time_print_opt(s->timeout, o, f);
		fprintf(f, "; ");
	}
	if (s->gc_int) {
		fprintf(f, "gc-interval ");
		time_print_opt(s->gc_int, o, f);
		fprintf(f, "; ");
	}
	if (s->comment)
		fputs("comment ", f), quoted_print(f, s->comment), fputs("; ", f);
	/* nft ends the line with a space, too */
	fprintf(f, "} \n");
}

/* "add element ip t s { 10.0.0.0/8 }": one element a line, as nft monitor */
void print_monitor_elem(bool add, const struct set *s, const struct expr *elem,
			const struct output_ctx *o, FILE *f)
{
	struct output_ctx so = *o;

	so.flags |= NFH_PRINT_IN_SET;
	head_print(f, add ? "add element" : "delete element",
		   family_name(s->h.family), s->h.table, s->h.set);
	fputs(" { ", f);
	expr_print(elem, &so, f);
	fprintf(f, " }\n");
}

static const char *describe_kind(const struct expr *e)
{
	/* nft names a field in a tunnel by the field's kind */
	if (inner_child(e))
		e = inner_child(e);
	if (e->ops && e->ops->name) {
		/* nft's names of the kinds: ipsec is "xfrm", jhash and
		   symhash "hash" */
		if (!strcmp(e->ops->name, "ipsec"))
			return "xfrm";
		if (strstr(e->ops->name, "hash"))
			return "hash";
		return e->ops->name;
	}
	/* every selector has its kind's ops: the rest are constants */
	return "symbol";
}

static bool dtype_is_string(const struct datatype *d)
{
	for (; d; d = d->basetype)
		if (d == &string_type)
			return true;
	return false;
}

/* the named constants of the datatype d, of len bits, as describe lists
   them */
static void describe_constants(const struct datatype *d, unsigned int len,
			       FILE *f)
{
	bool hex = d->print == bitmask_type.print || d->flags & DTYPE_F_HEXSYMS;

	if (d == &inet_protocol_type) {
		/* nft lists /etc/protocols, as it names protocols by it */
		bool seen[256] = { false };
		struct protoent *p;

		setprotoent(0);
		while ((p = getprotoent()))
			if (p->p_proto >= 0 && p->p_proto < 256 &&
			    !seen[p->p_proto]) {
				seen[p->p_proto] = true;	/* its first name */
				fprintf(f, "\t%-30s\t%d\n", p->p_name, p->p_proto);
			}
		endprotoent();
		return;
	}
	if (!d->symbols)
		return;
	fprintf(f, "\npre-defined symbolic constants (in %s):\n",
		hex ? "hexadecimal" : "decimal");
	for (const struct symbol *s = d->symbols; s->name; s++) {
		if (hex)
			fprintf(f, "\t%-30s\t0x%0*llx\n", s->name,
				(int)((len + 7) / 8 * 2),
				(unsigned long long)s->value);
		else
			fprintf(f, "\t%-30s\t%20llu\n", s->name,
				(unsigned long long)s->value);
	}
}

/* the first line and the symbol list read as nft's describe prints them */
void describe_print(const struct expr *e, FILE *f)
{
	const struct datatype *d = e->dtype;
	bool type_only = e->kind == EXPR_SYMBOL;
	unsigned int len = e->len;

	if (type_only) {
		/* "describe ipv4_addr": the datatype and its size; another
		   word as nft 1.0.6 describes it (no newline) */
		d = datatype_lookup_byname(e->sym.str);
		if (!d) {
			fputs("symbol expression, datatype invalid (invalid)", f);
			return;
		}
		len = d->size;
		fprintf(f, "datatype %s (%s)", d->name, d->desc);
	} else {
		fprintf(f, "%s expression, datatype %s (%s)", describe_kind(e),
			d->name, d->desc);
	}
	for (const struct datatype *b = d->basetype; b; b = b->basetype)
		fprintf(f, "%s%s", b == d->basetype ? " (basetype " : ", ",
			b->desc);
	if (d->basetype)
		fputc(')', f);
	if (!type_only && dtype_is_string(d))
		fprintf(f, ", %u characters", len / 8);
	else if (len || type_only)
		fprintf(f, ", %u bits", len);
	fputc('\n', f);
	if (!type_only && e->byteorder == BYTEORDER_BIG)
		fprintf(f, "byte order: big endian (network)\n");
	else if (!type_only && e->byteorder == BYTEORDER_HOST)
		fprintf(f, "byte order: host endian\n");
	describe_constants(d, len, f);
}
