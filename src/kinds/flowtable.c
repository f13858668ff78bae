// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Flowtables (CONFIG_NF_FLOW_TABLE): a table's flowtable hooks the ingress
 * of its devices; a connection that "flow add @ft" (or "flow offload @ft")
 * puts into it takes a short cut there, past the forward path, until it
 * ends or times out (the kernel's "flow_offload" expression,
 * CONFIG_NFT_FLOW_OFFLOAD).
 *
 *	flowtable ft {
 *		hook ingress priority 0; devices = { eth0, eth1 };
 *		flags offload; counter
 *	}
 *
 * A flowtable is its own kind of object on the wire (NFT_MSG_NEWFLOWTABLE):
 * this file has the block's lines, the message, the listing in text and
 * JSON and the JSON input; the flow add statement is a kind with its ops.
 * Its hook, priority and devices are kept as a netdev base chain's are,
 * and evaluated as those (nft takes the netdev family's hooks and
 * priorities for them).
 */
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include <libnftnl/expr.h>
#include <libnftnl/flowtable.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>

#include <ctx.h>
#include <flowtable.h>
#include <kind.h>
#include <names.h>
#include <nlalloc.h>

int flowtable_flag(struct list_head *msgs, struct flowtable *ft,
		   const char *word, const struct location *loc)
{
	if (!strcmp(word, "offload"))
		ft->flags |= NFT_FLOWTABLE_HW_OFFLOAD;
	else if (!strcmp(word, "counter"))
		ft->flags |= NFT_FLOWTABLE_COUNTER;
	else
		return error_queue(msgs, loc,
				   "unknown flowtable flag \"%s\": flags offload, or counter on its own line",
				   word);
	return 0;
}

/*
 * "delete flowtable inet t f { devices = { a }; }": the devices in the
 * block's order in NFTA_FLOWTABLE_HOOK, which makes the kernel take them
 * out of the flowtable and keep it (nft 1.1.1 sends them alone; nft 1.0.6
 * adds a hook and a priority of 0, which the kernel refuses with
 * EOPNOTSUPP when the flowtable has another priority).  nfh sends the
 * hook and the priority where the block has a hook line, for the kernel
 * to check them against the flowtable's.  Without devices, nothing: the
 * whole flowtable goes, as with nft.
 */
static void flowtable_del_devs(struct nftnl_flowtable *nlf, const struct chain *c)
{
	const struct expr *d;
	const char **devs;
	unsigned int n = 0;

	list_for_each_entry(d, &c->devices, list)
		n++;
	if (!n)
		return;
	if (c->hook) {
		nftnl_flowtable_set_u32(nlf, NFTNL_FLOWTABLE_HOOKNUM, c->hooknum);
		nftnl_flowtable_set_s32(nlf, NFTNL_FLOWTABLE_PRIO, c->prio);
	}
	devs = xzalloc((n + 1) * sizeof(*devs));
	n = 0;
	list_for_each_entry(d, &c->devices, list)
		devs[n++] = d->sym.str;
	xnftnl_flowtable_set_array(nlf, NFTNL_FLOWTABLE_DEVICES, devs);
	free(devs);
}

/*
 * nft 1.0.6 sends a hook and a priority always (0 and 0 without a hook
 * line), the devices in reverse order of the block's, and the flags
 */
struct nftnl_flowtable *flowtable_nl(const struct cmd *cmd)
{
	struct nftnl_flowtable *nlf = xnftnl_flowtable_alloc();
	const struct flowtable *ft = cmd->flowtable;
	const struct chain *c;
	const struct expr *d;
	unsigned int n = 0;

	nftnl_flowtable_set_u32(nlf, NFTNL_FLOWTABLE_FAMILY, cmd->h.family);
	xnftnl_flowtable_set_str(nlf, NFTNL_FLOWTABLE_TABLE, cmd->h.table);
	if (cmd->h.obj)
		xnftnl_flowtable_set_str(nlf, NFTNL_FLOWTABLE_NAME, cmd->h.obj);
	else
		nftnl_flowtable_set_u64(nlf, NFTNL_FLOWTABLE_HANDLE, cmd->h.handle);
	if (ft && (cmd->op == CMD_DELETE || cmd->op == CMD_DESTROY))
		flowtable_del_devs(nlf, ft->hook);
	if (!ft || (cmd->op != CMD_ADD && cmd->op != CMD_CREATE))
		return nlf;
	c = ft->hook;
	nftnl_flowtable_set_u32(nlf, NFTNL_FLOWTABLE_HOOKNUM,
				c->hook ? c->hooknum : NF_NETDEV_INGRESS);
	nftnl_flowtable_set_s32(nlf, NFTNL_FLOWTABLE_PRIO, c->hook ? c->prio : 0);
	list_for_each_entry(d, &c->devices, list)
		n++;
	if (n) {
		const char **devs = xzalloc((n + 1) * sizeof(*devs));
		unsigned int i = n;

		list_for_each_entry(d, &c->devices, list)
			devs[--i] = d->sym.str;
		xnftnl_flowtable_set_array(nlf, NFTNL_FLOWTABLE_DEVICES, devs);
		free(devs);
	}
	nftnl_flowtable_set_u32(nlf, NFTNL_FLOWTABLE_FLAGS, ft->flags);
	return nlf;
}

static int dev_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* the devices as nft 1.0.6 lists them, sorted by name; NULL if none */
static const char **devs_sorted(const struct nftnl_flowtable *nlf)
{
	const char *const *d;
	const char **v;
	unsigned int n = 0;

	if (!nftnl_flowtable_is_set(nlf, NFTNL_FLOWTABLE_DEVICES))
		return NULL;
	d = nftnl_flowtable_get_array(nlf, NFTNL_FLOWTABLE_DEVICES);
	while (d && d[n])
		n++;
	if (!n)
		return NULL;
	v = xzalloc((n + 1) * sizeof(*v));
	memcpy(v, d, n * sizeof(*v));
	qsort(v, n, sizeof(*v), dev_cmp);
	return v;
}

/* "devices = { a, "veth*" }": names bare, as nft 1.0.6 prints them, a
   prefix quoted, as the star is no name character */
static void devs_print(FILE *f, const char **devs)
{
	fputs("devices = { ", f);
	for (unsigned int i = 0; devs[i]; i++) {
		fputs(i ? ", " : "", f);
		if (dev_is_prefix(devs[i]))
			quoted_print(f, devs[i]);
		else
			fputs(devs[i], f);
	}
	fputs(" }", f);
}

static void tabs(FILE *f, unsigned int n)
{
	while (n--)
		fputc('\t', f);
}

/* nft 1.0.6's declaration: the hook line, the devices (sorted, as nft
   sorts them when it reads them back), counter, flags */
void flowtable_print(FILE *f, const struct nftnl_flowtable *nlf,
		     const struct output_ctx *octx, unsigned int indent)
{
	uint32_t flags = nftnl_flowtable_is_set(nlf, NFTNL_FLOWTABLE_FLAGS) ?
			 nftnl_flowtable_get_u32(nlf, NFTNL_FLOWTABLE_FLAGS) : 0;
	uint32_t hook = nftnl_flowtable_get_u32(nlf, NFTNL_FLOWTABLE_HOOKNUM);
	const char **devs = devs_sorted(nlf);

	tabs(f, indent);
	fprintf(f, "flowtable %s {", nftnl_flowtable_get_str(nlf, NFTNL_FLOWTABLE_NAME));
	if (octx->flags & NFH_OUTPUT_HANDLE)
		fprintf(f, " # handle %llu", (unsigned long long)
			nftnl_flowtable_get_u64(nlf, NFTNL_FLOWTABLE_HANDLE));
	fputc('\n', f);
	tabs(f, indent + 1);
	fprintf(f, "hook %s priority ", hook_name(NFPROTO_NETDEV, hook));
	prio_print(f, NFPROTO_NETDEV, hook,
		   nftnl_flowtable_get_s32(nlf, NFTNL_FLOWTABLE_PRIO),
		   octx->flags & NFH_OUTPUT_NUMERIC_PRIO);
	fputc('\n', f);
	if (devs) {
		tabs(f, indent + 1);
		devs_print(f, devs);
		fputc('\n', f);
		free(devs);
	}
	if (flags & NFT_FLOWTABLE_COUNTER) {
		tabs(f, indent + 1);
		fputs("counter\n", f);
	}
	if (flags & NFT_FLOWTABLE_HW_OFFLOAD) {
		tabs(f, indent + 1);
		fputs("flags offload\n", f);
	}
	tabs(f, indent);
	fputs("}\n", f);
}

/*
 * A monitor or -e event, on one line as nft prints other objects (nft
 * 1.0.6 and 1.1.1 print none for flowtables): "add flowtable inet t f {
 * hook ingress priority filter; devices = { a, b }; counter; } ", the
 * handle after the brace with -a.  A deletion as the event holds it:
 * whole where the kernel sends it whole (6.12 does; and for devices taken
 * out of a flowtable that stays, the hook and those devices), by its name
 * where it sends that alone
 */
void flowtable_event_print(FILE *f, bool add, const struct nftnl_flowtable *nlf,
			   const struct output_ctx *octx)
{
	uint32_t flags = nftnl_flowtable_is_set(nlf, NFTNL_FLOWTABLE_FLAGS) ?
			 nftnl_flowtable_get_u32(nlf, NFTNL_FLOWTABLE_FLAGS) : 0;
	const char **devs = devs_sorted(nlf);

	fprintf(f, "%s flowtable %s %s %s", add ? "add" : "delete",
		family_name(nftnl_flowtable_get_u32(nlf, NFTNL_FLOWTABLE_FAMILY)),
		nftnl_flowtable_get_str(nlf, NFTNL_FLOWTABLE_TABLE),
		nftnl_flowtable_get_str(nlf, NFTNL_FLOWTABLE_NAME));
	if (!add && !nftnl_flowtable_is_set(nlf, NFTNL_FLOWTABLE_HOOKNUM)) {
		fputc('\n', f);
		free(devs);
		return;
	}
	fputs(" {", f);
	if (octx->flags & NFH_OUTPUT_HANDLE)
		fprintf(f, " # handle %llu", (unsigned long long)
			nftnl_flowtable_get_u64(nlf, NFTNL_FLOWTABLE_HANDLE));
	if (nftnl_flowtable_is_set(nlf, NFTNL_FLOWTABLE_HOOKNUM)) {
		uint32_t hook = nftnl_flowtable_get_u32(nlf, NFTNL_FLOWTABLE_HOOKNUM);

		fprintf(f, " hook %s priority ", hook_name(NFPROTO_NETDEV, hook));
		prio_print(f, NFPROTO_NETDEV, hook,
			   nftnl_flowtable_get_s32(nlf, NFTNL_FLOWTABLE_PRIO),
			   octx->flags & NFH_OUTPUT_NUMERIC_PRIO);
		fputc(';', f);
	}
	if (devs) {
		fputc(' ', f);
		devs_print(f, devs);
		fputc(';', f);
		free(devs);
	}
	if (flags & NFT_FLOWTABLE_COUNTER)
		fputs(" counter;", f);
	if (flags & NFT_FLOWTABLE_HW_OFFLOAD)
		fputs(" flags offload;", f);
	/* nft ends the line with a space, as for other objects */
	fputs(" } \n", f);
}

/* the members that name the flowtable: family, name, table, handle */
static json_t *flowtable_json_names(const struct nftnl_flowtable *nlf)
{
	json_t *o = json_object();

	json_object_set_new(o, "family", json_string(family_name(
		nftnl_flowtable_get_u32(nlf, NFTNL_FLOWTABLE_FAMILY))));
	json_object_set_new(o, "name", json_string(
		nftnl_flowtable_get_str(nlf, NFTNL_FLOWTABLE_NAME)));
	json_object_set_new(o, "table", json_string(
		nftnl_flowtable_get_str(nlf, NFTNL_FLOWTABLE_TABLE)));
	json_object_set_new(o, "handle", json_integer(
		nftnl_flowtable_get_u64(nlf, NFTNL_FLOWTABLE_HANDLE)));
	return o;
}

/* nft 1.0.6: one device as a string, more as an array; no flags */
json_t *flowtable_json(const struct nftnl_flowtable *nlf)
{
	uint32_t hook = nftnl_flowtable_get_u32(nlf, NFTNL_FLOWTABLE_HOOKNUM);
	json_t *o = flowtable_json_names(nlf), *devs = NULL;
	const char **d = devs_sorted(nlf);

	json_object_set_new(o, "hook", json_string(hook_name(NFPROTO_NETDEV, hook)));
	json_object_set_new(o, "prio", json_integer(
		nftnl_flowtable_get_s32(nlf, NFTNL_FLOWTABLE_PRIO)));
	for (unsigned int i = 0; d && d[i]; i++) {
		if (!devs) {
			devs = json_string(d[i]);
		} else if (json_is_string(devs)) {
			json_t *a = json_array();

			json_array_append_new(a, devs);
			json_array_append_new(a, json_string(d[i]));
			devs = a;
		} else {
			json_array_append_new(devs, json_string(d[i]));
		}
	}
	free(d);
	if (devs)
		json_object_set_new(o, "dev", devs);
	return kind_json_wrap("flowtable", o);
}

json_t *flowtable_event_json(bool add, const struct nftnl_flowtable *nlf)
{
	json_t *o;

	if (add || nftnl_flowtable_is_set(nlf, NFTNL_FLOWTABLE_HOOKNUM))
		return flowtable_json(nlf);
	/* a deletion that names the flowtable alone */
	o = flowtable_json_names(nlf);
	return kind_json_wrap("flowtable", o);
}

/* a device name as the block's devices hold them */
static int dev_parse_json(struct kind_jparse *k, json_t *v,
			  struct list_head *devs, const struct location *loc)
{
	struct expr *set = compound_expr_alloc(loc, EXPR_SET);
	json_t *d;
	size_t i;

	if (json_is_string(v)) {
		compound_expr_add(set, symbol_expr_alloc(loc, json_string_value(v), true));
	} else if (json_is_array(v)) {
		json_array_foreach(v, i, d) {
			if (!json_is_string(d)) {
				expr_free(set);
				return k->error(k, d, "flowtable: a device is a string");
			}
			compound_expr_add(set, symbol_expr_alloc(loc,
					json_string_value(d), true));
		}
	} else {
		expr_free(set);
		return k->error(k, v, "flowtable: \"dev\" must be a string or an array of strings");
	}
	list_add_tail(&set->list, devs);
	return 0;
}

/* "flags": "offload" or an array of flags; 0 or -1 (an error queued) */
static int flags_parse_json(struct kind_jparse *k, json_t *flags,
			    struct flowtable *ft, const struct location *loc)
{
	json_t *f;
	size_t i;

	if (json_is_string(flags)) {
		if (flowtable_flag(k->msgs, ft, json_string_value(flags), loc) < 0)
			goto failed;
		return 0;
	}
	if (!json_is_array(flags))
		return k->error(k, flags, "flowtable: \"flags\" must be a string or an array");
	json_array_foreach(flags, i, f) {
		if (!json_is_string(f))
			return k->error(k, f, "flowtable: a flag is a string");
		if (flowtable_flag(k->msgs, ft, json_string_value(f), loc) < 0)
			goto failed;
	}
	return 0;
failed:
	k->failed(k);
	return -1;
}

struct flowtable *flowtable_parse_json(struct kind_jparse *k, json_t *o,
				       bool add)
{
	static const char *const keys[] = {
		"family", "table", "name", "handle", "hook", "prio", "dev",
		"flags", NULL
	};
	struct location loc = k->loc(k, o);
	struct flowtable *ft;
	const char *hook;
	json_t *prio, *dev, *flags;

	if (k->check_keys(k, o, "flowtable", keys) < 0)
		return NULL;
	ft = flowtable_alloc();
	ft->loc = loc;
	dev = json_object_get(o, "dev");
	/* a deletion: with "dev", those devices go and the flowtable stays,
	   as "delete flowtable ... { devices = { ... }; }" (nft 1.0.6 and
	   1.1.1 take no "dev" here and delete the whole flowtable); a hook
	   and a priority with them are checked by the kernel */
	if (!add && !dev)
		return ft;
	hook = k->get_str(k, o, "hook", add);
	prio = json_object_get(o, "prio");
	if (!hook && (add || json_object_get(o, "hook")))
		goto fail;	/* told */
	if (!add && !hook && prio) {
		k->error(k, prio, "flowtable: \"prio\" goes with \"hook\"");
		goto fail;
	}
	if (!add && !hook) {
		if (dev_parse_json(k, dev, &ft->hook->devices, &loc) < 0)
			goto fail;
		ft->hook->dev_loc = loc;
		return ft;
	}
	if (!prio || !json_is_integer(prio)) {
		k->error(k, prio ? prio : o, "flowtable: \"prio\" must be an integer");
		goto fail;
	}
	ft->hook->base = true;
	ft->hook->hook = xstrdup(hook);
	ft->hook->hook_loc = loc;
	ft->hook->priority = constant_expr_u64(&loc, &integer_type, BYTEORDER_HOST,
					       32, json_integer_value(prio));
	ft->hook->priority_loc = loc;
	if (dev && dev_parse_json(k, dev, &ft->hook->devices, &loc) < 0)
		goto fail;
	ft->hook->dev_loc = loc;
	if (!add)
		return ft;
	/* nfh's own: nft 1.0.6 lists no flags, and reads none */
	flags = json_object_get(o, "flags");
	if (flags && flags_parse_json(k, flags, ft, &loc) < 0)
		goto fail;
	return ft;
fail:
	flowtable_free(ft);
	return NULL;
}

/* --- flow add @ft ---------------------------------------------------------- */

struct flow_priv {
	char		*name;	/* the flowtable's */
};
_Static_assert(sizeof(struct flow_priv) <= sizeof(((struct stmt *)0)->priv),
	       "flow_priv fits a statement's fields");

static const struct stmt_ops flow_ops;

struct stmt *flow_stmt_alloc(const struct location *loc, const char *name,
			     const struct location *name_loc)
{
	struct stmt *s = ops_stmt_alloc(loc, &flow_ops);
	struct flow_priv *p = stmt_priv(s);

	(void)name_loc;
	p->name = xstrdup(name);
	return s;
}

/* the flowtable is the table's: in the input, or (offline) the model's */
static int flow_eval(struct kind_eval *k, struct stmt *s)
{
	const struct flow_priv *p = stmt_priv(s);

	if (k->flowtable && k->flowtable(k, p->name) == 0)
		return error_queue(k->msgs, &s->loc,
				   "flowtable \"%s\" does not exist in table %s %s",
				   p->name, k->family_name, k->table);
	return 0;
}

static int flow_linearize(struct kind_lin *k, const struct stmt *s)
{
	const struct flow_priv *p = stmt_priv(s);
	struct nftnl_expr *x = k->add(k, "flow_offload");

	xnftnl_expr_set_str(x, NFTNL_EXPR_FLOW_TABLE_NAME, p->name);
	return 0;
}

static void flow_delinearize(struct kind_delin *k, const struct nftnl_expr *nle)
{
	if (!nftnl_expr_is_set(nle, NFTNL_EXPR_FLOW_TABLE_NAME)) {
		k->unsupported(k, "flow_offload");
		return;
	}
	k->add_stmt(k, flow_stmt_alloc(&internal_location,
			nftnl_expr_get_str(nle, NFTNL_EXPR_FLOW_TABLE_NAME), NULL));
}

/* nft 1.0.6 lists both forms as "flow add @ft" */
static void flow_print(struct kind_print *k, const struct stmt *s)
{
	const struct flow_priv *p = stmt_priv(s);

	fprintf(k->f, "flow add @%s", p->name);
}

static json_t *flow_json(struct kind_json *k, const struct stmt *s)
{
	const struct flow_priv *p = stmt_priv(s);
	char *at = xasprintf("@%s", p->name);
	json_t *o = json_object();

	json_object_set_new(o, "op", json_string("add"));
	json_object_set_new(o, "flowtable", json_string(at));
	free(at);
	return kind_json_wrap("flow", o);
}

/* { "flow": { "op": "add", "flowtable": "@ft" } } */
static struct stmt *flow_parse_json(struct kind_jparse *k, const char *key,
				    json_t *v, const struct location *loc)
{
	static const char *const props[] = { "op", "flowtable", NULL };
	const char *op, *ft;

	if (!json_is_object(v) || k->check_keys(k, v, "flow", props) < 0)
		return k->error(k, v, "flow: expected an object"), NULL;
	op = k->get_str(k, v, "op", true);
	ft = k->get_str(k, v, "flowtable", true);
	if (!op || !ft)
		return NULL;
	if (strcmp(op, "add"))
		return k->error(k, json_object_get(v, "op"),
				"flow: unknown op \"%s\", only \"add\"", op), NULL;
	if (ft[0] != '@' || !ft[1])
		return k->error(k, json_object_get(v, "flowtable"),
				"flow: \"flowtable\" is \"@NAME\""), NULL;
	return flow_stmt_alloc(loc, ft + 1, loc);
}

static void flow_destroy(struct stmt *s)
{
	struct flow_priv *p = stmt_priv(s);

	free(p->name);
}

static const struct stmt_ops flow_ops = {
	.name		= "flow",
	.nl_name	= "flow_offload",
	.kind		= STMT_OPS,
	.eval		= flow_eval,
	.linearize	= flow_linearize,
	.delinearize	= flow_delinearize,
	.print		= flow_print,
	.json		= flow_json,
	.parse_json	= flow_parse_json,
	.destroy	= flow_destroy,
};
STMT_OPS_REGISTER(flow_ops);
