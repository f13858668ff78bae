/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFH_NLALLOC_H
#define NFH_NLALLOC_H

/*
 * libnftnl's allocators, and its setters that copy (strings, user data,
 * device lists), checked the way xmalloc() checks malloc(): a failure
 * ends in memory_allocation_error() (exit 2).  Unchecked, a NULL object
 * crashes later, and a setter that failed quietly leaves the attribute
 * out of the message, which the kernel may take as a different command.
 */
#include <libnftnl/table.h>
#include <libnftnl/chain.h>
#include <libnftnl/rule.h>
#include <libnftnl/expr.h>
#include <libnftnl/set.h>
#include <libnftnl/object.h>
#include <libnftnl/flowtable.h>
#include <libnftnl/gen.h>
#include <libnftnl/trace.h>
#include <libnftnl/udata.h>

#include <utils.h>

static inline void *nl_checked(void *p)
{
	if (!p)
		memory_allocation_error();
	return p;
}

static inline void nl_set_checked(int rc)
{
	if (rc < 0)
		memory_allocation_error();
}

#define xnftnl_table_alloc()	((struct nftnl_table *)nl_checked(nftnl_table_alloc()))
#define xnftnl_chain_alloc()	((struct nftnl_chain *)nl_checked(nftnl_chain_alloc()))
#define xnftnl_rule_alloc()	((struct nftnl_rule *)nl_checked(nftnl_rule_alloc()))
#define xnftnl_set_alloc()	((struct nftnl_set *)nl_checked(nftnl_set_alloc()))
#define xnftnl_obj_alloc()	((struct nftnl_obj *)nl_checked(nftnl_obj_alloc()))
#define xnftnl_flowtable_alloc() \
	((struct nftnl_flowtable *)nl_checked(nftnl_flowtable_alloc()))
#define xnftnl_flowtable_set_str(o, a, s) \
	nl_set_checked(nftnl_flowtable_set_str(o, a, s))
#define xnftnl_flowtable_set_array(o, a, d) \
	nl_set_checked(nftnl_flowtable_set_array(o, a, d))
#define xnftnl_gen_alloc()	((struct nftnl_gen *)nl_checked(nftnl_gen_alloc()))
#define xnftnl_trace_alloc()	((struct nftnl_trace *)nl_checked(nftnl_trace_alloc()))
#define xnftnl_set_elem_alloc() \
	((struct nftnl_set_elem *)nl_checked(nftnl_set_elem_alloc()))
#define xnftnl_expr_alloc(name) \
	((struct nftnl_expr *)nl_checked(nftnl_expr_alloc(name)))
#define xnftnl_udata_buf_alloc(n) \
	((struct nftnl_udata_buf *)nl_checked(nftnl_udata_buf_alloc(n)))

#define xnftnl_table_set_str(o, a, s)	nl_set_checked(nftnl_table_set_str(o, a, s))
#define xnftnl_chain_set_str(o, a, s)	nl_set_checked(nftnl_chain_set_str(o, a, s))
#define xnftnl_rule_set_str(o, a, s)	nl_set_checked(nftnl_rule_set_str(o, a, s))
#define xnftnl_set_set_str(o, a, s)	nl_set_checked(nftnl_set_set_str(o, a, s))
#define xnftnl_expr_set_str(o, a, s)	nl_set_checked(nftnl_expr_set_str(o, a, s))
#define xnftnl_set_elem_set_str(o, a, s) \
	nl_set_checked(nftnl_set_elem_set_str(o, a, s))
#define xnftnl_table_set_data(o, a, p, n) \
	nl_set_checked(nftnl_table_set_data(o, a, p, n))
#define xnftnl_chain_set_data(o, a, p, n) \
	nl_set_checked(nftnl_chain_set_data(o, a, p, n))
#define xnftnl_rule_set_data(o, a, p, n) \
	nl_set_checked(nftnl_rule_set_data(o, a, p, n))
#define xnftnl_set_set_data(o, a, p, n) \
	nl_set_checked(nftnl_set_set_data(o, a, p, n))
#define xnftnl_set_elem_set(o, a, p, n) \
	nl_set_checked(nftnl_set_elem_set(o, a, p, n))

/* the object setters return nothing: whether the attribute took tells */
static inline void xnftnl_obj_set_data(struct nftnl_obj *o, uint16_t attr,
				       const void *data, uint32_t len)
{
	nftnl_obj_set_data(o, attr, data, len);
	if (!nftnl_obj_is_set(o, attr))
		memory_allocation_error();
}

static inline void xnftnl_obj_set_str(struct nftnl_obj *o, uint16_t attr,
				      const char *str)
{
	nftnl_obj_set_str(o, attr, str);
	if (!nftnl_obj_is_set(o, attr))
		memory_allocation_error();
}

#endif
