#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: a file with one bad rule fails with exit 1, names the file and
# line in stderr, and leaves the loaded ruleset exactly as it was, even
# though the file first flushes or deletes it and adds a valid table
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_feature netdev_ingress

ns_pair 10.0.0.1/24 10.0.0.2/24
dir=$(tmpdir)

load "$NS_B" "first ruleset loads" <<EOF
table netdev keep {
	chain ingress {
		type filter hook ingress device "$VETH_B" priority 0; policy accept;
		ip saddr 10.0.0.9 counter drop comment "keep"
	}
}
EOF
before=$(tool "$NS_B" list ruleset)

# bad_file NAME LINE RULE FIRST: a file whose line LINE is RULE, whose
# first line is FIRST, all else valid.
bad_file() {
	cat >"$dir/$1" <<EOF
$4
table netdev fresh {
	chain ingress {
		type filter hook ingress device "$VETH_B" priority 0; policy drop;
		ip saddr 10.0.0.8 counter drop
		$3
	}
}
EOF
	[ "$(sed -n "$2p" "$dir/$1")" = "		$3" ] || echo "# test bug: line $2 of $1"
}

# try NAME LINE WHAT
try() {
	local rc
	tool "$NS_B" -f "$dir/$1" >"$dir/$1.out" 2>"$dir/$1.err"
	rc=$?
	expect_eq "$3: exit status 1" 1 "$rc"
	if grep -q "$1:$2:" "$dir/$1.err"; then
		ok "$3: stderr names $1:$2"
	else
		not_ok "$3: stderr names $1:$2"
		diag <"$dir/$1.err"
	fi
	expect_eq "$3: ruleset unchanged" "$before" "$(tool "$NS_B" list ruleset)"
}

bad_file syntax.nft 6 'ip saddr 10.0.0.7 counter drop drop' 'flush ruleset'
try syntax.nft 6 "syntax error"

# (nft 1.0.6 blames the wrong line for this one after "flush ruleset")
bad_file kernel.nft 6 'ip saddr 10.0.0.7 jump nosuchchain' 'delete table netdev keep'
try kernel.nft 6 "jump to a missing chain"

# the kernel still runs the old rules, not the half-loaded file's
ip -n "$NS_A" addr add 10.0.0.9/24 dev "$VETH_A"
expect_eq "10.0.0.1 is answered (no policy drop from the bad file)" 2 \
	"$(replies_from "$NS_A" 10.0.0.2 2 10.0.0.1)"
expect_eq "10.0.0.9 is still dropped" 0 "$(replies_from "$NS_A" 10.0.0.2 2 10.0.0.9)"
expect_packets "the kept rule counted both" "$NS_B" 'comment "keep"' 2
finish
