#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks, for every listing golden that nfh passes (tests/parse/ok/X.out
# whose X.in is not in TODO.list):
# - with the file loaded by nft, "nfh -j list ruleset|tables|chains|table|
#   chain" prints what "nft -j" prints (tests/json-equal.py says which known
#   differences it allows)
# - with the file loaded by nfh instead, nfh -j lists what nft -j lists
# - round trip: load -> list -> -j list -> flush -> -j -f -> list gives the
#   same listing
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root
require_cmd nft python3

dir=$(tmpdir)
equal="$REPO_DIR/tests/json-equal.py"

# json_check DESC NFT-FILE NFH-FILE ...: one TAP line for each triple
json_check() {
	python3 "$equal" "$@" || FAILED=$((FAILED + 1))
}

# the list commands worth asking for in a ruleset: each table and chain
list_cmds() {
	python3 -c '
import json, sys
print("list ruleset"); print("list tables"); print("list chains")
for o in json.load(sys.stdin)["nftables"]:
    if "table" in o:
        print("list table %s %s" % (o["table"]["family"], o["table"]["name"]))
    if "chain" in o:
        c = o["chain"]
        print("list chain %s %s %s" % (c["family"], c["table"], c["name"]))
' <"$1"
}

for f in "$REPO_DIR"/tests/parse/ok/*.out; do
	name=$(basename "${f%.out}")
	grep -qx "parse/ok/$name.in" "$REPO_DIR/tests/TODO.list" && continue
	ns_new NFT && ns_new NFH || exit 99
	for ns in "$NFT" "$NFH"; do
		ip -n "$ns" link add veth0 type veth peer name veth1 || exit 99
	done
	if ! out=$(in_ns "$NFT" nft -f "$f" 2>&1); then
		echo "ok - $name: nft -j # SKIP nft cannot load it: $out"
		continue
	fi
	in_ns "$NFT" nft -j list ruleset >"$dir/ruleset.nft"
	pairs=() i=0
	while read -r cmd; do
		i=$((i + 1))
		# shellcheck disable=SC2086 # the command is split into words
		in_ns "$NFT" nft -j $cmd >"$dir/want.$i" 2>&1
		# shellcheck disable=SC2086
		tool "$NFT" -j $cmd >"$dir/got.$i" 2>&1
		pairs+=("$name: nfh -j $cmd" "$dir/want.$i" "$dir/got.$i")
	done < <(list_cmds "$dir/ruleset.nft")

	check "$name: nfh loads it" tool "$NFH" -f "$f"
	tool "$NFH" -j list ruleset >"$dir/got" 2>&1
	json_check "${pairs[@]}" \
		"$name: loaded by nfh, -j list ruleset" "$dir/ruleset.nft" "$dir/got"

	tool "$NFH" list ruleset >"$dir/first"
	tool "$NFH" -j list ruleset >"$dir/json"
	tool "$NFH" flush ruleset
	check "$name: -j -f loads the JSON listing" tool "$NFH" -j -f "$dir/json"
	tool "$NFH" list ruleset >"$dir/second"
	if diff -u --label text --label "after JSON" "$dir/first" "$dir/second" >"$dir/diff"; then
		ok "$name: JSON round trip lists the same ruleset"
	else
		not_ok "$name: JSON round trip lists the same ruleset"
		diag <"$dir/diff"
	fi
	ip netns del "$NFT"
	ip netns del "$NFH"
done
finish
