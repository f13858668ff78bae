// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nl-seed FILE OUT: seeds for fuzz-netlink.  Loads the rule file FILE
 * offline, then writes the resulting ruleset to OUT as the messages of a
 * kernel dump (tables, chains, named objects, flowtables, sets, set
 * elements, rules); device prefixes of chains and flowtables go as the
 * kernel sends them (NFTA_DEVICE_PREFIX).
 */
#include <endian.h>
#include <stdio.h>
#include <stdlib.h>
#include <arpa/inet.h>
#include <libmnl/libmnl.h>
#include <linux/netfilter/nf_tables.h>
#include <libnftnl/chain.h>
#include <libnftnl/common.h>
#include <libnftnl/flowtable.h>
#include <libnftnl/object.h>
#include <libnftnl/rule.h>
#include <libnftnl/set.h>
#include <libnftnl/table.h>

#include <cache.h>
#include <ctx.h>
#include <netlink.h>

static char buf[1 << 20];

static void put(FILE *f, struct nlmsghdr *nlh)
{
	if (fwrite(nlh, 1, NLMSG_ALIGN(nlh->nlmsg_len), f) != NLMSG_ALIGN(nlh->nlmsg_len)) {
		perror("nl-seed");
		exit(1);
	}
}

static struct nlmsghdr *hdr(uint16_t type, uint32_t family)
{
	return nftnl_nlmsg_build_hdr(buf, type, family, NLM_F_MULTI, 0);
}

/*
 * A named object as the kernel dumps it.  libnftnl writes a secmark's
 * context without its NUL; the kernel's dump has one: that one is
 * written here.
 */
static void put_obj(FILE *f, struct nftnl_obj *o, uint32_t fam)
{
	struct nlmsghdr *nlh = hdr(NFT_MSG_NEWOBJ, fam);
	const void *ud;
	struct nlattr *nest;
	uint32_t len;

	if (nftnl_obj_get_u32(o, NFTNL_OBJ_TYPE) != NFT_OBJECT_SECMARK) {
		nftnl_obj_nlmsg_build_payload(nlh, o);
		put(f, nlh);
		return;
	}
	mnl_attr_put_strz(nlh, NFTA_OBJ_TABLE, nftnl_obj_get_str(o, NFTNL_OBJ_TABLE));
	mnl_attr_put_strz(nlh, NFTA_OBJ_NAME, nftnl_obj_get_str(o, NFTNL_OBJ_NAME));
	mnl_attr_put_u32(nlh, NFTA_OBJ_TYPE, htonl(NFT_OBJECT_SECMARK));
	nest = mnl_attr_nest_start(nlh, NFTA_OBJ_DATA);
	mnl_attr_put_strz(nlh, NFTA_SECMARK_CTX, nftnl_obj_get_str(o, NFTNL_OBJ_SECMARK_CTX));
	mnl_attr_nest_end(nlh, nest);
	mnl_attr_put_u32(nlh, NFTA_OBJ_USE, 0);
	mnl_attr_put_u64(nlh, NFTA_OBJ_HANDLE, htobe64(nftnl_obj_get_u64(o, NFTNL_OBJ_HANDLE)));
	if (nftnl_obj_is_set(o, NFTNL_OBJ_USERDATA)) {
		ud = nftnl_obj_get_data(o, NFTNL_OBJ_USERDATA, &len);
		mnl_attr_put(nlh, NFTA_OBJ_USERDATA, len, ud);
	}
	put(f, nlh);
}

int main(int argc, char *argv[])
{
	struct nfh_ctx *ctx;
	struct cache_table *t;
	struct cache_chain *ch;
	struct cache_rule *r;
	struct cache_obj *co;
	struct cache_flowtable *cf;
	struct cache_set *s;
	struct nlmsghdr *nlh;
	FILE *out;

	if (argc != 3) {
		fprintf(stderr, "usage: nl-seed FILE OUT\n");
		return 2;
	}
	ctx = nfh_ctx_new();
	nfh_ctx_set_offline(ctx, true);
	if (nfh_run_cmd_from_filename(ctx, argv[1]) != 0 || !ctx->offline_cache) {
		nfh_ctx_free(ctx);
		return 1;
	}
	out = fopen(argv[2], "wb");
	if (!out) {
		perror(argv[2]);
		return 1;
	}
	list_for_each_entry(t, &ctx->offline_cache->tables, list) {
		uint32_t fam = nftnl_table_get_u32(t->nlt, NFTNL_TABLE_FAMILY);

		nlh = hdr(NFT_MSG_NEWTABLE, fam);
		nftnl_table_nlmsg_build_payload(nlh, t->nlt);
		put(out, nlh);
		list_for_each_entry(ch, &t->chains, list) {
			nlh = hdr(NFT_MSG_NEWCHAIN, fam);
			nl_chain_build_payload(nlh, ch->nlc);
			put(out, nlh);
		}
		list_for_each_entry(co, &t->objs, list)
			put_obj(out, co->nlo, fam);
		list_for_each_entry(cf, &t->flowtables, list) {
			nlh = hdr(NFT_MSG_NEWFLOWTABLE, fam);
			nl_flowtable_build_payload(nlh, cf->nlf);
			put(out, nlh);
		}
		list_for_each_entry(s, &t->sets, list) {
			nlh = hdr(NFT_MSG_NEWSET, fam);
			nftnl_set_nlmsg_build_payload(nlh, s->nls);
			put(out, nlh);
			nlh = hdr(NFT_MSG_NEWSETELEM, fam);
			nftnl_set_elems_nlmsg_build_payload(nlh, s->nls);
			put(out, nlh);
		}
		list_for_each_entry(ch, &t->chains, list)
			list_for_each_entry(r, &ch->rules, list) {
				nlh = hdr(NFT_MSG_NEWRULE, fam);
				nftnl_rule_nlmsg_build_payload(nlh, r->nlr);
				put(out, nlh);
			}
	}
	fclose(out);
	nfh_ctx_free(ctx);
	return 0;
}
