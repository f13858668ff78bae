/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFH_DATATYPE_H
#define NFH_DATATYPE_H

#include <utils.h>

struct expr;
struct output_ctx;

/* numbers as the kernel stores them in set key types (NFTA_SET_KEY_TYPE) */
enum datatypes {
	TYPE_INVALID, TYPE_VERDICT, TYPE_NFPROTO, TYPE_BITMASK, TYPE_INTEGER,
	TYPE_STRING, TYPE_LLADDR, TYPE_IPADDR, TYPE_IP6ADDR, TYPE_ETHERADDR,
	TYPE_ETHERTYPE, TYPE_ARPOP, TYPE_INET_PROTOCOL, TYPE_INET_SERVICE,
	TYPE_ICMP_TYPE, TYPE_TCP_FLAG, TYPE_DCCP_PKTTYPE, TYPE_MH_TYPE,
	TYPE_TIME, TYPE_MARK, TYPE_IFINDEX, TYPE_ARPHRD, TYPE_REALM,
	TYPE_CLASSID, TYPE_UID, TYPE_GID, TYPE_CT_STATE, TYPE_CT_DIR,
	TYPE_CT_STATUS, TYPE_ICMP6_TYPE, TYPE_CT_LABEL, TYPE_PKTTYPE,
	TYPE_ICMP_CODE, TYPE_ICMPV6_CODE, TYPE_ICMPX_CODE, TYPE_DEVGROUP,
	TYPE_DSCP, TYPE_ECN, TYPE_FIB_ADDR, TYPE_BOOLEAN, TYPE_CT_EVENTBIT,
	TYPE_IFNAME, TYPE_IGMP_TYPE, TYPE_TIME_DATE, TYPE_TIME_HOUR,
	TYPE_TIME_DAY, TYPE_CGROUPV2,
	TYPE_MAX
};

enum byteorder {
	BYTEORDER_INVALID,
	BYTEORDER_HOST,		/* host endian integer: reversed on the wire */
	BYTEORDER_BIG,		/* network byte order */
};

struct symbol {
	const char	*name;
	uint64_t	value;
};

#define DTYPE_F_BITMASK		0x1	/* values combine with ',' and print as a list */
#define DTYPE_F_PREFIX		0x2	/* prefixes print as a/n */
#define DTYPE_F_HEXSYMS		0x4	/* describe lists the symbols in hex */
#define DTYPE_F_QUOTED		0x8	/* symbols print quoted: "Monday" */

/**
 * struct datatype - how a value is read from text and printed back
 * @type:	kernel-visible type number
 * @name:	name used in `type` declarations and error messages
 * @basetype:	type this one refines (symbols fall back to it)
 * @size:	size in bits, 0 for variable sized (strings)
 * @symbols:	symbolic constants, terminated by a NULL name
 * @parse:	reads @str into @res (len and byteorder already set); returns
 *		0, or -1 with an error message written into @err
 * @print:	prints a constant of this type
 */
struct datatype {
	enum datatypes		type;
	const char		*name;
	const char		*desc;
	const struct datatype	*basetype;
	enum byteorder		byteorder;
	unsigned int		size;
	unsigned int		flags;
	const struct symbol	*symbols;
	int			(*parse)(const struct datatype *dtype,
					 const char *str, struct expr *res,
					 char *err, size_t errlen);
	void			(*print)(const struct expr *e,
					 const struct output_ctx *octx,
					 FILE *f);
};

extern const struct datatype invalid_type, verdict_type, nfproto_type,
	bitmask_type, integer_type, string_type, lladdr_type, ipaddr_type,
	ip6addr_type, etheraddr_type, ethertype_type, arpop_type,
	inet_protocol_type, inet_service_type, icmp_type_type, tcp_flag_type,
	dccp_pkttype_type, mh_type_type, time_type, mark_type, ifindex_type,
	arphrd_type, realm_type, classid_type, uid_type, gid_type,
	ct_state_type, ct_dir_type, ct_status_type, icmp6_type_type,
	ct_label_type, pkttype_type, icmp_code_type, icmpv6_code_type,
	icmpx_code_type, devgroup_type, dscp_type, ecn_type, fib_addr_type,
	boolean_type, ct_event_type, ifname_type, igmp_type_type,
	date_type, hour_type, day_type, cgroupv2_type, ipsec_dir_type,
	frag_off_type, ip_version_type, sctp_chunk_type, hexflags_type,
	mptcp_subtype_type,
	objref_type;

/* a string in quotes; quotes and control bytes in it escaped */
void quoted_print(FILE *f, const char *s);
const struct datatype *datatype_lookup(enum datatypes type);
const struct datatype *datatype_lookup_byname(const char *name);

/*
 * "1d2h3m4s5ms" or a plain number of seconds -> milliseconds; 0, -1 (not
 * a time) or -ERANGE (more than the kernel takes: TIME_MS_MAX)
 */
#define TIME_MS_MAX	(UINT64_MAX / 1000000 - 1)
int time_parse(const char *str, uint64_t *ms);
/* milliseconds -> "1d2h3m4s5ms", as nft prints timeouts */
void time_print(uint64_t ms, FILE *f);
/* the same, or whole seconds "90s" where the output flags say -T */
void time_print_opt(uint64_t ms, const struct output_ctx *octx, FILE *f);
bool datatype_is_integer(const struct datatype *dtype);
/* host names in addresses: /etc/hosts only (--offline), or getaddrinfo() */
void datatype_hosts_file_only(bool on);

/* symbol table helpers */
const struct symbol *symbol_by_name(const struct symbol *tbl, const char *name);
struct suggest;
/* "; did you mean ..." for @word among the names of @tbl (suggest.h) */
const char *suggest_symbol(struct suggest *sg, const struct symbol *tbl,
			   const char *word);
const struct symbol *symbol_by_value(const struct symbol *tbl, uint64_t value);

void datatype_print(const struct expr *e, const struct output_ctx *octx, FILE *f);
int datatype_parse(const struct datatype *dtype, const char *str,
		   struct expr *res, char *err, size_t errlen);

struct suggest;
/* "; did you mean ...?" for @word among the datatypes' names (suggest.h) */
const char *suggest_datatype(struct suggest *s, const char *word);

#endif
