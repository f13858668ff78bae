#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: "fib ... oif exists|missing" compares the whole result register
# (4 bytes for oif), as nft sends it, so that nft lists a
# rule nfh loaded as written (a 1-byte compare listed as "missing/8"), and
# nfh lists nft's; found with firewalld's rpfilter rule
# (tests/shell/firewalld.sh); and exists/missing after the type result
# give nft's bytecode too (the kernel refuses it, for both)
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root
require_cmd nft
ns_new NFH && ns_new NFT || exit 99
rules='table inet t {
	chain c {
		type filter hook prerouting priority filter; policy accept;
		meta nfproto ipv6 fib saddr . mark . iif oif missing drop
		fib daddr oif exists accept
	}
}'
check "nfh loads them" tool "$NFH" -f - <<<"$rules"
expect_eq "nft lists nfh's rules as written" "$rules" "$(in_ns "$NFH" nft list ruleset)"
in_ns "$NFT" nft -f - <<<"$rules"
expect_eq "the bytecode is nft's" "$(in_ns "$NFT" nft --debug=netlink list ruleset)" \
	"$(in_ns "$NFH" nft --debug=netlink list ruleset)"
# shellcheck disable=SC2086
expect_eq "nfh lists nft's rules as written" "$rules" "$(tool "$NFT" list ruleset)"
# after the type result too, which nft sends and the kernel refuses
rules='table ip t {
	chain c {
		type filter hook prerouting priority filter; policy accept;
		fib daddr type exists
		fib saddr . iif type != missing
	}
}'
expect_eq "fib ... type exists: nft's bytecode" \
	"$(in_ns "$NFT" nft -c --debug=netlink -f - <<<"$rules" 2>/dev/null)" \
	"$(tool "$NFT" --offline -c --debug=netlink -f - <<<"$rules" 2>&1)"
if tool "$NFH" -f - <<<"$rules" 2>/dev/null; then
	not_ok "the kernel refuses fib ... type exists, for nfh too"
else
	ok "the kernel refuses fib ... type exists, for nfh too"
fi
finish
