#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: add element to an interval set that holds elements already.
# With auto-merge, new intervals join those they overlap or touch (the old
# ones are deleted in the same batch), as nft joins them: the listings and
# the batches nft and nfh send are the same.  Without it, an overlap is an
# error naming both intervals and the kernel is left as it was; adding an
# interval the set holds already changes nothing.  A flush earlier in the
# batch empties the set first.  Real traffic follows the merged set.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_feature netdev_ingress

ns_pair 10.0.0.1/24 10.0.0.2/24
for a in 10.0.0.12 10.0.0.25 10.0.0.33; do
	ip -n "$NS_A" addr add "$a/24" dev "$VETH_A"
done
dir=$(tmpdir)

cat >"$dir/rules.nft" <<EOF
table netdev t {
	set merged {
		type ipv4_addr
		flags interval
		auto-merge
		elements = { 10.0.0.0-10.0.0.10, 10.0.0.20-10.0.0.30, 10.0.0.100 }
	}

	set strict {
		type ipv4_addr
		flags interval
		elements = { 10.0.0.0-10.0.0.10, 10.0.0.20-10.0.0.30 }
	}

	chain in {
		type filter hook ingress device "$VETH_B" priority 0; policy accept;
		icmp type echo-request ip saddr @merged counter drop comment "merged"
	}
}
EOF
load "$NS_B" <"$dir/rules.nft"

elements() { tool "${2:-$NS_B}" list set netdev t "$1" | tr -d '\n\t' | tr -s ' ' |
	sed 's/.*elements = //;s/}}$//'; }
add() { tool "$NS_B" add element netdev t "$@"; }

expect_eq "echo from 10.0.0.12 passes before" 2 "$(replies_from "$NS_A" 10.0.0.2 2 10.0.0.12)"
check "an interval touching two joins them" add merged '{ 10.0.0.11-10.0.0.19 }'
expect_eq "into one" "{ 10.0.0.0-10.0.0.30, 10.0.0.100 }" "$(elements merged)"
expect_eq "which drops echo from 10.0.0.12" 0 "$(replies_from "$NS_A" 10.0.0.2 2 10.0.0.12)"
expect_eq "and from 10.0.0.25 still" 0 "$(replies_from "$NS_A" 10.0.0.2 2 10.0.0.25)"
check "one overlapping the end, another touching the start, one inside" \
	add merged '{ 10.0.0.25-10.0.0.40, 10.0.0.90-10.0.0.99, 10.0.0.5 }'
expect_eq "extend them" "{ 10.0.0.0-10.0.0.40, 10.0.0.90-10.0.0.100 }" "$(elements merged)"
expect_eq "echo from 10.0.0.33 is dropped now" 0 "$(replies_from "$NS_A" 10.0.0.2 2 10.0.0.33)"
expect_packets "the merged set counted each echo it dropped" "$NS_B" 'comment "merged"' 6

out=$(add strict '{ 10.0.0.40, 10.0.0.5-10.0.0.12 }' 2>&1)
expect_eq "without auto-merge, an overlap is an error naming both" \
	"Error: interval 10.0.0.5-10.0.0.12 overlaps with 10.0.0.0-10.0.0.10, which set strict holds
add element netdev t strict { 10.0.0.40, 10.0.0.5-10.0.0.12 }
                                         ^^^^^^^^^^^^^^^^^^" "$out"
expect_eq "and the kernel is left as it was" "{ 10.0.0.0-10.0.0.10, 10.0.0.20-10.0.0.30 }" \
	"$(elements strict)"
check "adding an interval the set holds changes nothing" add strict '{ 10.0.0.20-10.0.0.30 }'
check "an adjacent one is its own element" add strict '{ 10.0.0.11-10.0.0.19 }'
expect_eq "so the set holds three" \
	"{ 10.0.0.0-10.0.0.10, 10.0.0.11-10.0.0.19, 10.0.0.20-10.0.0.30 }" "$(elements strict)"
check "after flush set in the same batch, the old elements do not conflict" \
	tool "$NS_B" -f - <<<'flush set netdev t strict
add element netdev t strict { 10.0.0.5-10.0.0.25 }'
expect_eq "the set holds the new one" "{ 10.0.0.5-10.0.0.25 }" "$(elements strict)"

# a file that declares the sets again adds to what the kernel's sets hold
out=$(tool "$NS_B" -f "$dir/rules.nft" 2>&1)
expect_eq "the first file again: its intervals overlap those strict holds now, named" \
	"Error: interval 10.0.0.0-10.0.0.10 overlaps with 10.0.0.5-10.0.0.25, which set strict holds
Error: interval 10.0.0.20-10.0.0.30 overlaps with 10.0.0.5-10.0.0.25, which set strict holds" \
	"$(echo "$out" | grep -o 'Error: .*')"
expect_eq "and nothing of the file is applied" "{ 10.0.0.0-10.0.0.40, 10.0.0.90-10.0.0.100 }" \
	"$(elements merged)"
sed '/set strict/,/^\t}/d' "$dir/rules.nft" >"$dir/again.nft"
check "without strict, it loads" tool "$NS_B" -f "$dir/again.nft"
expect_eq "and changes nothing: merged holds those intervals already" \
	"{ 10.0.0.0-10.0.0.40, 10.0.0.90-10.0.0.100 }" "$(elements merged)"
sed -i 's/10.0.0.20-10.0.0.30, 10.0.0.100/10.0.0.41-10.0.0.60/' "$dir/again.nft"
check "a declaration with new intervals loads" tool "$NS_B" -f "$dir/again.nft"
expect_eq "joining them with the kernel's (auto-merge)" \
	"{ 10.0.0.0-10.0.0.60, 10.0.0.90-10.0.0.100 }" "$(elements merged)"

if command -v nft >/dev/null; then
	ns_new NS_C
	sed "s/\"$VETH_B\"/\"lo\"/" "$dir/rules.nft" >"$dir/lo.nft"
	check "nft loads the same rules" in_ns "$NS_C" nft -f "$dir/lo.nft"
	for e in '{ 10.0.0.11-10.0.0.19 }' '{ 10.0.0.25-10.0.0.40, 10.0.0.90-10.0.0.99, 10.0.0.5 }' \
		 '{ 10.0.0.7 }' '{ 10.0.0.41-10.0.0.89 }'; do
		expect_eq "add element $e: nfh sends what nft sends" \
			"$(in_ns "$NS_C" nft -c --debug=netlink add element netdev t merged "$e" |
			   sed -n '/^merged t 0$/,$p')" \
			"$(tool "$NS_C" -c --debug=netlink add element netdev t merged "$e")"
		in_ns "$NS_C" nft add element netdev t merged "$e"
	done
	expect_eq "nft merged them into one" "{ 10.0.0.0-10.0.0.100 }" "$(elements merged "$NS_C")"
	expect_eq "which nfh lists as nft does" "$(in_ns "$NS_C" nft list ruleset)" \
		"$(tool "$NS_C" list ruleset)"
else
	echo "ok - nfh sends what nft sends # SKIP no nft"
fi

expect_eq "offline, add element joins what the ruleset read so far holds" \
	"		elements = { 10.0.0.0-10.0.0.30, 10.0.0.100 }" \
	"$(printf '%s\nadd element netdev t merged { 10.0.0.11-10.0.0.19 }\nlist set netdev t merged\n' \
		"$(cat "$dir/rules.nft")" | $TOOL --offline -i 2>&1 | grep elements)"
finish
