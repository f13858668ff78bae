#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: every example rule file of Debian's nftables package that nft
# itself loads on this kernel also loads with $TOOL, and both tools list
# the result exactly as nft lists its own load of it
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root
require_cmd nft
dir=/usr/share/doc/nftables/examples
[ -d "$dir" ] || { echo "# no $dir"; exit 77; }

# features nfh does not have yet (none of the files nft loads here)
unsupported=" "

ns_new NS
ip -n "$NS" link add eth0 type veth peer name eth1
for f in "$dir"/*.nft; do
	name=$(basename "$f")
	in_ns "$NS" nft flush ruleset
	if ! in_ns "$NS" nft -f "$f" >/dev/null 2>&1; then
		echo "# $name: nft cannot load it on this kernel either"
		continue
	fi
	want=$(in_ns "$NS" nft list ruleset)
	in_ns "$NS" nft flush ruleset
	if ! out=$(tool "$NS" -f "$f" 2>&1); then
		case $unsupported in
		*" $name "*) echo "# $name: not supported yet"; continue ;;
		esac
		not_ok "$name loads"
		printf '%s\n' "$out" | diag
		continue
	fi
	ok "$name loads"
	expect_eq "$name lists as nft lists it" "$want" "$(tool "$NS" list ruleset)"
	expect_eq "$name: nft lists nfh's load the same" "$want" "$(in_ns "$NS" nft list ruleset)"
done
finish
