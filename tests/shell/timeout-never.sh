#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: an element's "timeout never" (nft 1.1) reaches the kernel as a
# timeout of 0, which the set's default timeout does not replace: the
# kernel lists it back so (nfh, and nft 1.1.1 where it is there, list it
# as "timeout never" where the set has a default); nfh's -j writes it as
# nft 1.1.1 does (UINT64_MAX ms in seconds) and reads that, and the word
# "never", back; and an element nft 1.1.1 loaded lists the same in nfh
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root
NFT11=${NFT11:-$(cd "$REPO_DIR/.." && pwd)/shared/oracle/nft-1.1.1}
[ -x "$NFT11" ] || NFT11=$(cd "$REPO_DIR/../.." && pwd)/shared/oracle/nft-1.1.1

ns_new NS || exit 99
rules='table ip t {
	set s {
		type ipv4_addr
		timeout 1h
		elements = { 1.1.1.1 timeout never, 2.2.2.2 timeout 2h }
	}

	map m {
		type ipv4_addr : mark
		timeout 1m
		elements = { 1.1.1.1 timeout never : 0x00000003 }
	}
}'
# what the kernel holds: timers masked
masked() { sed -E 's/ expires [0-9dhms]+//g'; }
load "$NS" <<<"$rules"
expect_eq "listed as written" "$rules" "$(tool "$NS" list ruleset | masked)"
if [ -x "$NFT11" ]; then
	expect_eq "nft 1.1.1 lists nfh's elements so" "$rules" \
		"$(in_ns "$NS" "$NFT11" list ruleset | masked)"
	want=$(in_ns "$NS" "$NFT11" -j list ruleset | sed 's/"version": "[^"]*", "release_name": "[^"]*"//')
	got=$(tool "$NS" -j list ruleset | sed 's/"version": "[^"]*", "release_name": "[^"]*"//')
	expect_eq "-j as nft 1.1.1 writes it" "$want" "$got"
else
	ok "nft 1.1.1 lists nfh's elements so # SKIP no $NFT11"
fi
json=$(tool "$NS" -j list ruleset)
case $json in
*'"timeout": 18446744073709551}'*) ok "-j writes never as UINT64_MAX ms in seconds" ;;
*) not_ok "-j writes never as UINT64_MAX ms in seconds"; printf '%s\n' "$json" | diag ;;
esac
tool "$NS" flush ruleset
check "nfh reads its -j back" tool "$NS" -j -f - <<<"$json"
expect_eq "... the same" "$rules" "$(tool "$NS" list ruleset | masked)"
check "nfh reads \"timeout\": \"never\"" tool "$NS" -j -f - <<<'{"nftables": [{"add": {"element": {"family": "ip", "table": "t", "name": "s", "elem": [{"elem": {"val": "9.9.9.9", "timeout": "never"}}]}}}]}'
check "... as never" listing_has "$NS" '9\.9\.9\.9 timeout never'
if [ -x "$NFT11" ]; then
	tool "$NS" flush ruleset
	in_ns "$NS" "$NFT11" -f - <<<"$rules"
	expect_eq "nfh lists nft 1.1.1's elements so" "$rules" "$(tool "$NS" list ruleset | masked)"
fi
finish
