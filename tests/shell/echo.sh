#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: -e prints what the kernel made of a file and of commands (table,
# chain, set, elements, rules with their counters, the new generation)
# exactly as nft -e prints it, each tool in its own namespace
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root
require_cmd nft

ns_new MINE && ns_new NFT || exit 99
dir=$(tmpdir)
cat >"$dir/f.nft" <<'NFT'
table ip t {
	set s {
		type ipv4_addr
		elements = { 10.0.0.1 }
	}
	chain c {
		type filter hook input priority 0;
		ip saddr @s counter accept
		tcp dport { 22, 80 } drop
	}
}
NFT
run_all() {
	local ns=$1
	shift
	# shellcheck disable=SC2068 # the tool's words are split on purpose
	{
		in_ns "$ns" $@ -e -f "$dir/f.nft"
		in_ns "$ns" $@ -e add rule ip t c ip daddr 1.2.3.4 counter
		in_ns "$ns" $@ -e add element ip t s { 10.0.0.2, 10.0.0.3 }
		in_ns "$ns" $@ -e add table inet u
	} 2>&1 | sed 's/by process [0-9]* ([a-z]*)/by process P/'
}
want=$(run_all "$NFT" nft)
got=$(run_all "$MINE" $TOOL)
expect_eq "-e prints what nft -e prints" "$want" "$got"
check "the elements were echoed" grep -q 'add element ip t s { 10.0.0.1 }' <<<"$got"
finish
