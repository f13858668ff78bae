// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Protocol headers as data: a new header is a new table here, not new code.
 * Offsets and lengths are in bits from the start of the header.
 */
#include <string.h>
#include <netinet/in.h>
#include <linux/netfilter/nf_tables.h>

#include <proto.h>
#include <suggest.h>

#define F(n, dt, off, l, bo)	{ .name = n, .dtype = &dt, .offset = off, \
				  .len = l, .byteorder = BYTEORDER_##bo }
#define FI(n, off, l)		F(n, integer_type, off, l, BIG)

const struct proto_desc proto_eth = {
	.name = "ether", .base = PROTO_BASE_LL_HDR, .id = 1, .length = 112,
	.fields = {
		F("daddr", etheraddr_type, 0, 48, BIG),
		F("saddr", etheraddr_type, 48, 48, BIG),
		F("type", ethertype_type, 96, 16, BIG),
	},
};

/* a vlan tag right after the ethernet header */
const struct proto_desc proto_vlan = {
	.name = "vlan", .base = PROTO_BASE_LL_HDR, .id = 0x8100, .length = 32,
	.fields = {
		FI("pcp", 112, 3),
		FI("dei", 115, 1),
		FI("cfi", 115, 1),
		FI("id", 116, 12),
		F("type", ethertype_type, 128, 16, BIG),
	},
};

const struct proto_desc proto_arp = {
	.name = "arp", .base = PROTO_BASE_NETWORK_HDR, .id = 0x0806,
	.fields = {
		FI("htype", 0, 16),
		F("ptype", ethertype_type, 16, 16, BIG),
		FI("hlen", 32, 8),
		FI("plen", 40, 8),
		F("operation", arpop_type, 48, 16, BIG),
		/* addresses for ethernet and ipv4, the only layout in use */
		F("saddr ether", etheraddr_type, 64, 48, BIG),
		F("saddr ip", ipaddr_type, 112, 32, BIG),
		F("daddr ether", etheraddr_type, 144, 48, BIG),
		F("daddr ip", ipaddr_type, 192, 32, BIG),
	},
};

const struct proto_desc proto_ip = {
	.name = "ip", .base = PROTO_BASE_NETWORK_HDR, .id = 0x0800,
	.fields = {
		FI("version", 0, 4),
		FI("hdrlength", 4, 4),
		F("dscp", dscp_type, 8, 6, BIG),
		F("ecn", ecn_type, 14, 2, BIG),
		FI("length", 16, 16),
		FI("id", 32, 16),
		FI("frag-off", 48, 16),
		FI("ttl", 64, 8),
		F("protocol", inet_protocol_type, 72, 8, BIG),
		FI("checksum", 80, 16),
		F("saddr", ipaddr_type, 96, 32, BIG),
		F("daddr", ipaddr_type, 128, 32, BIG),
	},
};

const struct proto_desc proto_ip6 = {
	.name = "ip6", .base = PROTO_BASE_NETWORK_HDR, .id = 0x86dd,
	.fields = {
		FI("version", 0, 4),
		F("dscp", dscp_type, 4, 6, BIG),
		F("ecn", ecn_type, 10, 2, BIG),
		FI("flowlabel", 12, 20),
		FI("length", 32, 16),
		F("nexthdr", inet_protocol_type, 48, 8, BIG),
		FI("hoplimit", 56, 8),
		F("saddr", ip6addr_type, 64, 128, BIG),
		F("daddr", ip6addr_type, 192, 128, BIG),
	},
};

const struct proto_desc proto_icmp = {
	.name = "icmp", .base = PROTO_BASE_TRANSPORT_HDR, .id = IPPROTO_ICMP,
	.fields = {
		F("type", icmp_type_type, 0, 8, BIG),
		F("code", icmp_code_type, 8, 8, BIG),
		FI("checksum", 16, 16),
		FI("id", 32, 16),
		FI("sequence", 48, 16),
		FI("gateway", 32, 32),	/* a number in nft 1.0.6 */
		FI("mtu", 48, 16),
	},
};

const struct proto_desc proto_icmp6 = {
	.name = "icmpv6", .base = PROTO_BASE_TRANSPORT_HDR,
	.id = IPPROTO_ICMPV6,
	.fields = {
		F("type", icmp6_type_type, 0, 8, BIG),
		F("code", icmpv6_code_type, 8, 8, BIG),
		FI("checksum", 16, 16),
		FI("mtu", 32, 32),
		FI("parameter-problem", 32, 32),
		FI("id", 32, 16),
		FI("sequence", 48, 16),
		FI("max-delay", 32, 16),
		/* nft 1.1: the target of neighbour discovery and mld, and
		   the destination of a redirect */
		{ .name = "taddr", .dtype = &ip6addr_type, .offset = 64,
		  .len = 128, .byteorder = BYTEORDER_BIG, .listed_raw = true },
		{ .name = "daddr", .dtype = &ip6addr_type, .offset = 192,
		  .len = 128, .byteorder = BYTEORDER_BIG, .listed_raw = true },
	},
};

const struct proto_desc proto_igmp = {
	.name = "igmp", .base = PROTO_BASE_TRANSPORT_HDR, .id = IPPROTO_IGMP,
	.fields = {
		F("type", igmp_type_type, 0, 8, BIG),
		FI("mrt", 8, 8),
		FI("checksum", 16, 16),
		FI("group", 32, 32),	/* a number in nft 1.0.6 */
	},
};

const struct proto_desc proto_tcp = {
	.name = "tcp", .base = PROTO_BASE_TRANSPORT_HDR, .id = IPPROTO_TCP,
	.fields = {
		F("sport", inet_service_type, 0, 16, BIG),
		F("dport", inet_service_type, 16, 16, BIG),
		FI("sequence", 32, 32),
		FI("ackseq", 64, 32),
		FI("doff", 96, 4),
		FI("reserved", 100, 4),
		F("flags", tcp_flag_type, 104, 8, BIG),
		FI("window", 112, 16),
		FI("checksum", 128, 16),
		FI("urgptr", 144, 16),
	},
};

const struct proto_desc proto_udp = {
	.name = "udp", .base = PROTO_BASE_TRANSPORT_HDR, .id = IPPROTO_UDP,
	.fields = {
		F("sport", inet_service_type, 0, 16, BIG),
		F("dport", inet_service_type, 16, 16, BIG),
		FI("length", 32, 16),
		FI("checksum", 48, 16),
	},
};

const struct proto_desc proto_udplite = {
	.name = "udplite", .base = PROTO_BASE_TRANSPORT_HDR,
	.id = IPPROTO_UDPLITE,
	.fields = {
		F("sport", inet_service_type, 0, 16, BIG),
		F("dport", inet_service_type, 16, 16, BIG),
		FI("csumcov", 32, 16),
		FI("checksum", 48, 16),
	},
};

const struct proto_desc proto_sctp = {
	.name = "sctp", .base = PROTO_BASE_TRANSPORT_HDR, .id = IPPROTO_SCTP,
	.fields = {
		F("sport", inet_service_type, 0, 16, BIG),
		F("dport", inet_service_type, 16, 16, BIG),
		FI("vtag", 32, 32),
		FI("checksum", 64, 32),
	},
};

const struct proto_desc proto_dccp = {
	.name = "dccp", .base = PROTO_BASE_TRANSPORT_HDR, .id = IPPROTO_DCCP,
	.fields = {
		F("sport", inet_service_type, 0, 16, BIG),
		F("dport", inet_service_type, 16, 16, BIG),
		F("type", dccp_pkttype_type, 67, 4, BIG),
	},
};

const struct proto_desc proto_ah = {
	.name = "ah", .base = PROTO_BASE_TRANSPORT_HDR, .id = IPPROTO_AH,
	.fields = {
		F("nexthdr", inet_protocol_type, 0, 8, BIG),
		FI("hdrlength", 8, 8),
		FI("reserved", 16, 16),
		FI("spi", 32, 32),
		FI("sequence", 64, 32),
	},
};

const struct proto_desc proto_esp = {
	.name = "esp", .base = PROTO_BASE_TRANSPORT_HDR, .id = IPPROTO_ESP,
	.fields = {
		FI("spi", 0, 32),
		FI("sequence", 32, 32),
	},
};

const struct proto_desc proto_comp = {
	.name = "comp", .base = PROTO_BASE_TRANSPORT_HDR, .id = IPPROTO_COMP,
	.fields = {
		F("nexthdr", inet_protocol_type, 0, 8, BIG),
		F("flags", hexflags_type, 8, 8, BIG),
		FI("cpi", 16, 16),
	},
};

/*
 * nft 1.1: gre's own header, a transport header ("gre protocol ip"), and
 * the headers of the tunnels nft_inner looks into.  vxlan's and geneve's
 * fields sit at the kernel's tunnel header base (NFT_PAYLOAD_TUN_HEADER):
 * they are read through the inner expression only (src/inner.c); gretap
 * has no fields of its own.
 */
const struct proto_desc proto_gre = {
	.name = "gre", .base = PROTO_BASE_TRANSPORT_HDR, .id = IPPROTO_GRE,
	.nft11 = true,
	.fields = {
		FI("flags", 0, 5),
		FI("version", 13, 3),
		F("protocol", ethertype_type, 16, 16, BIG),
	},
};

const struct proto_desc proto_gretap = {
	.name = "gretap", .base = PROTO_BASE_TUN_HDR,
};

const struct proto_desc proto_vxlan = {
	.name = "vxlan", .base = PROTO_BASE_TUN_HDR,
	.fields = {
		FI("flags", 0, 8),
		FI("vni", 32, 24),
	},
};

const struct proto_desc proto_geneve = {
	.name = "geneve", .base = PROTO_BASE_TUN_HDR,
	.fields = {
		{ .name = "type", .dtype = &ethertype_type, .offset = 16,
		  .len = 16, .byteorder = BYTEORDER_BIG, .listed_int = true },
		FI("vni", 32, 24),
	},
};

/* "th": the ports of whatever transport header, with no dependency */
const struct proto_desc proto_th = {
	.name = "th", .base = PROTO_BASE_TRANSPORT_HDR, .id = 0,
	.fields = {
		F("sport", inet_service_type, 0, 16, BIG),
		F("dport", inet_service_type, 16, 16, BIG),
	},
};

/*
 * What a meta key announces when its value names no header nfh knows
 * ("meta l4proto 21", "meta iiftype ppp"): no header can be matched
 * above it, as in nft.  It has no fields and is in no table.
 */
const struct proto_desc proto_unknown = {
	.name = "unknown", .base = PROTO_BASE_INVALID,
};

static const struct proto_desc *const protocols[] = {
	&proto_eth, &proto_vlan, &proto_arp, &proto_ip, &proto_ip6,
	&proto_icmp, &proto_icmp6, &proto_igmp, &proto_tcp, &proto_udp,
	&proto_udplite, &proto_sctp, &proto_dccp, &proto_ah, &proto_esp,
	&proto_comp, &proto_th, &proto_gre, &proto_gretap, &proto_vxlan,
	&proto_geneve,
};

const struct proto_desc *proto_nth(unsigned int i)
{
	return i < array_size(protocols) ? protocols[i] : NULL;
}

const struct proto_desc *proto_lookup(const char *name)
{
	for (unsigned int i = 0; i < array_size(protocols); i++)
		if (!strcmp(protocols[i]->name, name))
			return protocols[i];
	return NULL;
}

const struct proto_field *proto_field_lookup(const struct proto_desc *d,
					     const char *name)
{
	for (unsigned int i = 0; i < PROTO_FIELDS_MAX && d->fields[i].name; i++)
		if (!strcmp(d->fields[i].name, name))
			return &d->fields[i];
	return NULL;
}

const struct proto_desc *proto_by_id(enum proto_base base, unsigned int id)
{
	for (unsigned int i = 0; i < array_size(protocols); i++) {
		const struct proto_desc *d = protocols[i];

		if (d->base == base && d->id == id && d != &proto_th &&
		    d != &proto_vlan)
			return d;
	}
	return NULL;
}

const char *proto_base_name(enum proto_base base)
{
	switch (base) {
	case PROTO_BASE_LL_HDR:		return "link layer";
	case PROTO_BASE_NETWORK_HDR:	return "network layer";
	case PROTO_BASE_TRANSPORT_HDR:	return "transport layer";
	case PROTO_BASE_INNER_HDR:	return "inner";
	case PROTO_BASE_TUN_HDR:	return "tunnel";
	default:			return "invalid";
	}
}

const char *proto_base_token(enum proto_base base)
{
	switch (base) {
	case PROTO_BASE_LL_HDR:		return "ll";
	case PROTO_BASE_NETWORK_HDR:	return "nh";
	case PROTO_BASE_TRANSPORT_HDR:	return "th";
	case PROTO_BASE_INNER_HDR:	return "ih";
	default:			return "invalid";
	}
}

const uint8_t *proto_icmp_types(const struct proto_desc *d,
				const struct proto_field *f, unsigned int *n)
{
	static const struct {
		const struct proto_desc	*desc;
		const char		*field;
		uint8_t			types[6];
		unsigned int		n;
	} deps[] = {
		{ &proto_icmp, "id", { 8, 0 }, 2 },
		{ &proto_icmp, "sequence", { 8, 0 }, 2 },
		{ &proto_icmp, "gateway", { 5 }, 1 },
		{ &proto_icmp, "mtu", { 3 }, 1 },
		{ &proto_icmp6, "id", { 128, 129 }, 2 },
		{ &proto_icmp6, "sequence", { 128, 129 }, 2 },
		{ &proto_icmp6, "mtu", { 2 }, 1 },
		{ &proto_icmp6, "parameter-problem", { 4 }, 1 },
		{ &proto_icmp6, "max-delay", { 130 }, 1 },
		{ &proto_icmp6, "taddr", { 130, 131, 132, 135, 136, 137 }, 6 },
		{ &proto_icmp6, "daddr", { 137 }, 1 },
	};

	*n = 0;
	if (!f || (d != &proto_icmp && d != &proto_icmp6))
		return NULL;
	for (unsigned int i = 0; i < sizeof(deps) / sizeof(deps[0]); i++)
		if (deps[i].desc == d && !strcmp(deps[i].field, f->name)) {
			*n = deps[i].n;
			return deps[i].types;
		}
	return NULL;
}

bool proto_icmp_fits(const struct proto_desc *d, const struct proto_field *f,
		     int type)
{
	unsigned int n;
	const uint8_t *t = proto_icmp_types(d, f, &n);

	for (unsigned int i = 0; i < n; i++)
		if (t[i] == type)
			return true;
	return n == 0;
}

/* did you mean: the headers, and the fields of one */
const char *suggest_proto(struct suggest *s, const char *word)
{
	suggest_init(s, word);
	for (unsigned int i = 0; proto_nth(i); i++)
		suggest_add(s, proto_nth(i)->name);
	return suggest_hint(s);
}

const char *suggest_proto_field(struct suggest *s, const struct proto_desc *d,
				const char *word)
{
	suggest_init(s, word);
	for (unsigned int i = 0; i < PROTO_FIELDS_MAX && d->fields[i].name; i++)
		suggest_add(s, d->fields[i].name);
	return suggest_hint(s);
}
