/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFH_PROTO_H
#define NFH_PROTO_H

#include <expr.h>

/**
 * struct proto_field - one field of a header
 * @offset, @len: position in bits from the start of the header
 */
struct proto_field {
	const char		*name;
	const struct datatype	*dtype;
	unsigned int		offset;
	unsigned int		len;
	enum byteorder		byteorder;
	/* nft 1.1's: read, but listed as its raw bits, as 1.0.6 lists it */
	bool			listed_raw;
	/* a single value of it listed as a number, whatever its type (nft
	   1.1.1's geneve type; a set of them it lists by name) */
	bool			listed_int;
};

#define PROTO_FIELDS_MAX	24

/**
 * struct proto_desc - a protocol header, described as data
 * @base:	the header base it is loaded from
 * @id:		value of the next-protocol selector that announces it
 *		(ethertype for network headers, IPPROTO_* for transport
 *		headers, ARPHRD_* for link layers)
 * @length:	header length in bits, where fixed (vlan tags stack on it)
 * @nft11:	nft 1.1 knows it and nft 1.0.6 does not (gre): a protocol
 *		value of it tells evaluation nothing, as nft 1.0.6 takes it,
 *		where listings name it (struct proto_ctx's nft11)
 */
struct proto_desc {
	const char		*name;
	enum proto_base		base;
	unsigned int		id;
	unsigned int		length;
	bool			nft11;
	struct proto_field	fields[PROTO_FIELDS_MAX];
};

extern const struct proto_desc proto_eth, proto_vlan, proto_arp, proto_ip,
	proto_ip6, proto_icmp, proto_icmp6, proto_igmp, proto_tcp, proto_udp,
	proto_udplite, proto_sctp, proto_dccp, proto_ah, proto_esp, proto_comp,
	proto_th, proto_unknown, proto_gre, proto_vxlan, proto_geneve,
	proto_gretap;

const struct proto_desc *proto_lookup(const char *name);
/* the headers in table order; NULL past the last */
const struct proto_desc *proto_nth(unsigned int i);
const struct proto_field *proto_field_lookup(const struct proto_desc *d,
					     const char *name);
/* finds the header of @base announced by @id (ethertype, l4proto) */
const struct proto_desc *proto_by_id(enum proto_base base, unsigned int id);
const char *proto_base_name(enum proto_base base);
const char *proto_base_token(enum proto_base base);


/*
 * The icmp or icmpv6 types whose messages carry field @f (echo id and
 * sequence, mtu, gateway ...), the one nft tests for it first; NULL and
 * *n = 0 for a field every message has.
 */
const uint8_t *proto_icmp_types(const struct proto_desc *d,
				const struct proto_field *f, unsigned int *n);
/* whether @f exists in icmp(v6) messages of @type (-1: not known) */
bool proto_icmp_fits(const struct proto_desc *d, const struct proto_field *f,
		     int type);
struct suggest;
const char *suggest_proto(struct suggest *s, const char *word);
const char *suggest_proto_field(struct suggest *s, const struct proto_desc *d,
				const char *word);

#endif
