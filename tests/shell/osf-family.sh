#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: osf is taken in every family, as nft 1.0.6 takes it; the kernel
# holds it in a regular arp chain and refuses it in an arp base chain
# (EOPNOTSUPP), with the error under the rule
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root || exit 77
ns_new NS
dir=$(tmpdir)

load "$NS" "osf in a regular arp chain loads" <<EOF
table arp t {
	chain c {
		osf name "Linux" drop
	}
}
EOF
check "the listing has it" listing_has "$NS" '^[[:space:]]+osf name "Linux" drop$'

printf 'table arp b {\n\tchain c {\n\t\ttype filter hook input priority filter;\n\t\tosf name "Linux" drop\n\t}\n}\n' >"$dir/base.nft"
out=$(tool "$NS" -f "$dir/base.nft" 2>&1)
expect_eq "osf in an arp base chain: the kernel refuses it" 1 $?
expect_eq "the error is the kernel's, under the rule" \
	"$dir/base.nft:4:3-23: Error: Could not process rule: Operation not supported" \
	"$(printf '%s\n' "$out" | head -1)"
check "and nothing of it was committed" sh -c "! ip netns exec $NS $TOOL list table arp b"
finish
