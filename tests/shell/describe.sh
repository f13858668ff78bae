#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: nfh describe prints an expression's datatype, size, byte order
# and symbolic constants (a datatype's, for its name), needs no kernel, and
# rejects what is not an expression with a caret; where nft is installed,
# the lines nft also prints are the same (nfh adds the byte order line)
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck disable=SC2086
if ! $TOOL --version 2>/dev/null | grep -q '^nfh '; then
	echo "# describe's byte order line is nfh's own"
	exit 77
fi

# shellcheck disable=SC2086
desc() { $TOOL describe "$@" 2>&1; }

expect_eq "tcp dport" \
"payload expression, datatype inet_service (internet network service) (basetype integer), 16 bits
byte order: big endian (network)" "$(desc tcp dport)"

expect_eq "tcp flags: a bitmask, symbols in hex" \
"payload expression, datatype tcp_flag (TCP flag) (basetype bitmask, integer), 8 bits
byte order: big endian (network)

pre-defined symbolic constants (in hexadecimal):
	fin                           	0x01
	syn                           	0x02
	rst                           	0x04
	psh                           	0x08
	ack                           	0x10
	urg                           	0x20
	ecn                           	0x40
	cwr                           	0x80" "$(desc tcp flags)"

expect_eq "meta iifname: a string, in characters" \
"meta expression, datatype ifname (network interface name) (basetype string), 16 characters
byte order: host endian" "$(desc meta iifname)"

expect_eq "ct direction: symbols in decimal" \
"ct expression, datatype ct_dir (conntrack direction) (basetype integer), 8 bits
byte order: host endian

pre-defined symbolic constants (in decimal):
	original                      	                   0
	reply                         	                   1" "$(desc ct direction)"

rc=0
out=$(desc tcp dport 22) || rc=$?
expect_eq "a match is not an expression: exit 1 and a caret" \
"1: Error: syntax error, unexpected number, expecting end of file or newline or semicolon
describe tcp dport 22
                   ^^" "$rc: $out"

rc=0
out=$(desc ip sadr) || rc=$?
expect_eq "an unknown field: exit 1" 1 "$rc"

expect_eq "a datatype's name: the datatype" \
"datatype ifname (network interface name) (basetype string), 128 bits" "$(desc ifname)"
expect_eq "another word: nft 1.0.6's line, without a newline" \
"symbol expression, datatype invalid (invalid)|" "$(desc foo; echo "|")"
expect_eq "the kind's name of an expression with its own file" \
"xfrm expression, datatype integer (integer), 32 bits" "$(desc ipsec in spi | head -1)"
expect_eq "protocols: the names /etc/protocols gives" \
"	tcp                           	6" "$(desc ip protocol | grep -m1 '	tcp ')"

# the same lines as nft, where the symbol tables agree
if command -v nft >/dev/null; then
	for e in "tcp dport" "ip saddr" "ip6 saddr" "ether saddr" "meta mark" \
		"meta iifname" "meta iiftype" "meta pkttype" "meta nfproto" \
		"tcp flags" "ct status" "ct direction" "icmp type" \
		"icmpv6 type" "arp operation" "ip ecn" "vlan id" "igmp type" \
		"ct state" "ether type" "icmp code" "ip dscp" "dccp type" \
		"ip protocol" "meta l4proto" "fib daddr type" "fib daddr oif" \
		"jhash ip saddr mod 2" "symhash mod 2" "ipsec in spi" \
		"rt classid" "osf name" "numgen inc mod 2" "socket transparent" \
		ipv4_addr inet_service ct_state ifname verdict string integer \
		mark foo 1.1.1.1; do
		# shellcheck disable=SC2086
		expect_eq "same as nft: describe $e" "$(nft describe $e 2>&1)" \
			"$(desc $e | grep -v '^byte order: ')"
	done
else
	echo "# nft not installed: no comparison"
fi
finish
