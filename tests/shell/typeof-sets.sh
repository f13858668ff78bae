#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: a "typeof ip saddr . tcp dport" set drops exactly the listed
# address and port, and a "typeof meta mark : ..." map loads; nft (the
# oracle, where installed) lists nfh's typeof sets as typeof, as nfh does,
# and nfh lists a typeof set that nft loaded as nft does
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_feature netdev_ingress
require_cmd python3

ns_pair 10.0.0.1/24 10.0.0.2/24
ip -n "$NS_A" addr add 10.0.0.3/24 dev "$VETH_A"

load "$NS_B" <<EOF
table netdev t {
	set pairs {
		typeof ip saddr . tcp dport
		elements = { 10.0.0.1 . 2222 }
	}

	map marks {
		typeof meta mark : ip daddr
		elements = { 0x00000001 : 10.0.0.1 }
	}

	chain ingress {
		type filter hook ingress device "$VETH_B" priority filter; policy accept;
		ip saddr . tcp dport @pairs counter drop comment "pairs"
	}
}
EOF

expect_eq "tcp 2222 from 10.0.0.1 (in the set) is dropped" timeout "$(tcp_probe "$NS_A" 10.0.0.2 2222 10.0.0.1)"
expect_eq "tcp 2223 from 10.0.0.1 (other port) is refused by the host" refused "$(tcp_probe "$NS_A" 10.0.0.2 2223 10.0.0.1)"
expect_eq "tcp 2222 from 10.0.0.3 (other address) is refused by the host" refused "$(tcp_probe "$NS_A" 10.0.0.2 2222 10.0.0.3)"
check "the set's rule counted the dropped syn" listing_has "$NS_B" 'counter packets [1-9][0-9]* bytes [0-9]+ drop comment "pairs"'
check "nfh lists the set as typeof" listing_has "$NS_B" 'typeof ip saddr \. tcp dport'
check "nfh lists the map as typeof" listing_has "$NS_B" 'typeof meta mark : ip daddr'
got=$(tool "$NS_B" list set netdev t pairs | grep -c 'typeof ip saddr . tcp dport')
expect_eq "list set says typeof too" 1 "$got"

if command -v "${NFT:-nft}" >/dev/null 2>&1; then
	expect_eq "nft lists nfh's ruleset as nfh does" \
		"$(tool "$NS_B" list ruleset)" "$(in_ns "$NS_B" ${NFT:-nft} list ruleset)"
	in_ns "$NS_B" ${NFT:-nft} -f - <<'EOF'
table ip o {
	set s {
		typeof meta iifname . ip protocol . udp dport
		elements = { "veth0" . udp . 53 }
	}

	map v {
		typeof ct mark : verdict
		elements = { 0x00000002 : drop }
	}
}
EOF
	expect_eq "nfh lists nft's typeof sets as nft does" \
		"$(in_ns "$NS_B" ${NFT:-nft} list table ip o)" "$(tool "$NS_B" list table ip o)"
else
	echo "ok - nft oracle comparison # SKIP no nft"
fi
finish
