#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# timeout-scale: 5
# checks, for every listing golden that nfh passes (tests/parse/ok/X.out
# whose X.in is not in TODO.list), loaded by nft into a namespace: "nfh -j
# list" of the ruleset, the tables, chains, sets and maps, the first table,
# chain, set and named object prints what "nft -j" prints (tests/json-equal.py says which
# known differences it allows).  json-roundtrip.sh loads them with nfh.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root
require_cmd nft python3
# the system's python starts fast; a version manager's shim may not
py=/usr/bin/python3
[ -x "$py" ] || py=python3

dir=$(tmpdir)
equal="$REPO_DIR/tests/json-equal.py"

# list_cmds LISTING: the list commands worth asking for in that ruleset
list_cmds() {
	"$py" -c '
import json, sys
print("list ruleset\nlist tables\nlist chains\nlist sets\nlist maps")
print("list counters\nlist quotas\nlist limits")
seen = set()
for o in json.load(sys.stdin)["nftables"]:
    for kind in ("table", "chain", "set", "map", "counter", "quota", "limit",
                 "ct helper"):
        if kind not in o or kind in seen:
            continue
        seen.add(kind)
        x = o[kind]
        name = [x["family"]] + ([x["table"]] if kind != "table" else []) + [x["name"]]
        print("list", kind, " ".join(name))
' <"$1"
}

# one namespace for all: both tools list whatever state it holds
ns_new NFT || exit 99
ip -n "$NFT" link add veth0 type veth peer name veth1 || exit 99
for f in "$REPO_DIR"/tests/parse/ok/*.out; do
	name=$(basename "${f%.out}")
	grep -qx "parse/ok/$name.in" "$REPO_DIR/tests/TODO.list" && continue
	# nft 1.0.6's listing of it is wrong, nfh's is not
	why=$(nft_lists_otherwise "${f%.out}.in")
	if [ -n "$why" ]; then
		echo "ok - $name: nfh -j list # SKIP nft lists it otherwise: $why"
		continue
	fi
	in_ns "$NFT" nft flush ruleset
	if ! out=$(in_ns "$NFT" nft -f "$f" 2>&1); then
		echo "ok - $name: nft -j # SKIP nft cannot load it: $out"
		continue
	fi
	in_ns "$NFT" nft -j list ruleset >"$dir/ruleset.nft"
	mapfile -t cmds < <(list_cmds "$dir/ruleset.nft")
	# nfh lists them all in one run, one JSON document a line
	printf '%s\n' "${cmds[@]}" | tool "$NFT" -j -f - >"$dir/got.all" 2>&1
	mapfile -t got <"$dir/got.all"
	pairs=() i=0
	for cmd in "${cmds[@]}"; do
		i=$((i + 1))
		# shellcheck disable=SC2086 # the command is split into words
		in_ns "$NFT" nft -j $cmd >"$dir/want.$i" 2>&1
		if [ ${#got[@]} -eq ${#cmds[@]} ]; then
			printf '%s\n' "${got[i - 1]}" >"$dir/got.$i"
		else
			# shellcheck disable=SC2086
			tool "$NFT" -j $cmd >"$dir/got.$i" 2>&1
		fi
		pairs+=("$name: nfh -j $cmd" "$dir/want.$i" "$dir/got.$i")
	done
	"$py" "$equal" "${pairs[@]}" || FAILED=$((FAILED + 1))
done
finish
