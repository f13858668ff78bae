#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: "add|insert rule ... index N" puts the rule after|before the Nth
# rule (from 0) of the chain as it was before the transaction, exactly
# where nft puts it (nft loads the same commands in a second namespace);
# an index past the last rule fails, names "index N" and changes nothing
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root
require_cmd nft

ns_new MINE && ns_new NFT || exit 99
dir=$(tmpdir)
cat >"$dir/base.nft" <<'NFT'
table ip t {
	chain c {
		ip saddr 1.1.1.1
		ip saddr 2.2.2.2
		ip saddr 3.3.3.3
	}
}
NFT
cat >"$dir/batch.nft" <<'NFT'
add rule ip t c index 1 ip saddr 7.7.7.7
add rule ip t c index 1 ip saddr 8.8.8.8
insert rule ip t c index 2 ip saddr 9.9.9.9
NFT
for ns in "$MINE" "$NFT"; do
	if [ "$ns" = "$MINE" ]; then t=$TOOL; else t=nft; fi
	# shellcheck disable=SC2086 # $t is split on purpose
	{
		in_ns "$ns" $t -f "$dir/base.nft" &&
		in_ns "$ns" $t add rule ip t c index 0 ip saddr 4.4.4.4 &&
		in_ns "$ns" $t insert rule ip t c index 0 ip saddr 5.5.5.5 &&
		in_ns "$ns" $t -f "$dir/batch.nft"
	} >"$dir/out" 2>&1
	check "the index commands load ($t)" test $? -eq 0
done
expect_eq "the rules stand where nft puts them" \
	"$(in_ns "$NFT" nft list ruleset)" "$(in_ns "$MINE" nft list ruleset)"
before=$(tool "$MINE" list ruleset)
tool "$MINE" add rule ip t c index 9 ip saddr 6.6.6.6 2>"$dir/err"
expect_eq "an index past the last rule fails" 1 $?
check "its error names the index" grep -q 'Error: index 9 is past the last rule of chain c (it holds 8 rules)' "$dir/err"
check "with a caret under \"index 9\"" grep -qx ' *^^^^^^^' "$dir/err"
expect_eq "and nothing changed" "$before" "$(tool "$MINE" list ruleset)"
# rules of a table block in the same file (compiled as they are read)
cat >"$dir/same-file.nft" <<'NFT'
flush ruleset
table ip t {
	chain c {
		ip saddr 1.1.1.1 accept
		ip saddr 2.2.2.2 accept
		ip saddr 3.3.3.3 accept
	}
}
insert rule ip t c index 1 ip saddr 9.9.9.9 accept
add rule ip t c index 2 ip saddr 8.8.8.8 accept
NFT
in_ns "$NFT" nft -f "$dir/same-file.nft"
check "index names rules of the same file" tool "$MINE" -f "$dir/same-file.nft"
expect_eq "where nft puts them" \
	"$(in_ns "$NFT" nft list ruleset)" "$(in_ns "$MINE" nft list ruleset)"
expect_eq "and so does the offline model" \
	"$(in_ns "$NFT" nft list ruleset)" \
	"$({ cat "$dir/same-file.nft"; echo "list ruleset"; } | $TOOL --offline -f -)"
expect_eq "a missing chain fails too" 1 \
	"$(tool "$MINE" add rule ip t nochain index 0 accept 2>/dev/null; echo $?)"
finish
