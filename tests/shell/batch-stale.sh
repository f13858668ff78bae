#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: a batch is checked against the generation of the ruleset it was
# evaluated against, and never sent again as it was.  While nfh -f works
# through 50,000 rules after reading the type of set s (ipv4_addr), another
# process replaces s by a "type mark" set: the batch is refused, evaluated
# again, and 10.9.9.9 is then no mark (exit 1, nothing applied; before,
# the address went in as mark 0x0909090a).  A harmless commit in between
# (another table) makes it evaluate again and succeed: each rule once
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root
py=/usr/bin/python3
[ -x "$py" ] || py=python3
require_cmd "$py"
forge=$LIB_DIR/nl-forge.py

ns_new NS || exit 99
dir=$(tmpdir)
in_ns "$NS" "$py" "$forge" ports $$ >/dev/null
[ $? -eq 77 ] && { echo "# no netlink socket to look for"; exit 77; }

# (the variable keeps the rules from being compiled as they are read:
# they are evaluated after the element, so after the set was read)
{
	echo 'define x = 10.0.0.1'
	echo 'add element ip t s { 10.9.9.9 }'
	for ((i = 0; i < 50000; i++)); do
		echo 'add rule ip t c ip saddr $x counter'
	done
} >"$dir/load.nft"

setup() {
	tool "$NS" flush ruleset
	tool "$NS" -f - <<'EOF'
table ip t {
	set s {
		type ipv4_addr
	}
	chain c {
	}
}
EOF
}

# race CHANGE: load.nft, and CHANGE (a file) committed once nfh has read
# the kernel's sets, i.e. has its socket; rc in $rc
race() {
	local pid
	ip netns exec "$NS" $TOOL -f "$dir/load.nft" >"$dir/out" 2>"$dir/err" &
	pid=$!
	until [ -n "$(in_ns "$NS" "$py" "$forge" ports "$pid")" ]; do
		kill -0 "$pid" 2>/dev/null || break
	done
	tool "$NS" -f "$1" || echo "change failed" >>"$dir/err"
	wait "$pid"
	rc=$?
}
rules() { tool "$NS" list chain ip t c | grep -c 'counter packets'; }

printf 'delete set ip t s\nadd set ip t s { type mark; }\n' >"$dir/swap.nft"
hit=0
for ((try = 0; try < 5 && !hit; try++)); do
	setup
	race "$dir/swap.nft"
	elems=$(tool "$NS" list set ip t s | grep -c elements)
	if [ "$rc" -eq 0 ] && [ "$elems" -eq 0 ]; then
		continue	# the swap came after the batch: again
	fi
	hit=1
done
[ "$hit" = 1 ] || { echo "# the swap never came in time"; exit 77; }
expect_eq "a set swapped after it was read: the batch fails" 1 "$rc"
grep -q 'could not parse packet mark value "10.9.9.9"' "$dir/err" &&
	ok "evaluated again against the swapped set" ||
	{ not_ok "evaluated again against the swapped set"; head -5 "$dir/err" | diag; }
expect_eq "and nothing is applied: no element" 0 "$elems"
expect_eq "and no rule" 0 "$(rules)"

echo 'add table ip other' >"$dir/other.nft"
setup
race "$dir/other.nft"
expect_eq "a harmless commit in between: the load succeeds" 0 "$rc"
expect_eq "quietly" "" "$(cat "$dir/err")"
expect_eq "each rule once" 50000 "$(rules)"
tool "$NS" list set ip t s | grep -q 'elements = { 10.9.9.9 }' &&
	ok "the element too" || not_ok "the element too"
finish
