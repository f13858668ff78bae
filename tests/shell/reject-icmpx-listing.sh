#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: in an inet table, an icmpx reject after a match on a network
# protocol other than ip and ip6 (meta nfproto 153, ether type arp) lists
# with its code, since a bare reject does not load there ("cannot infer
# ICMP reject variant"); nft 1.0.6 lists it bare (tests/diff/KNOWN), so
# nfh's listing reloads where nft's does not
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root
require_cmd nft
ns_new NFT && ns_new NFH || exit 99
rules='table inet t {
	chain c {
		type filter hook input priority filter; policy accept;
		meta nfproto 153 reject with icmpx port-unreachable
		ether type arp reject with icmpx port-unreachable
		meta nfproto { ipv4, 153 } reject with icmpx port-unreachable
	}
}'
in_ns "$NFT" nft -f - <<<"$rules" || exit 99
listing=$(tool "$NFT" list ruleset)
expect_eq "nfh lists the code where a bare reject would not load" "$rules" "$listing"
check "nfh loads its listing" tool "$NFH" -f - <<<"$listing"
expect_eq "to the same bytecode" "$(in_ns "$NFT" nft --debug=netlink list ruleset)" \
	"$(in_ns "$NFH" nft --debug=netlink list ruleset)"
finish
