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

# list_cmds LISTING: the list commands worth asking for in that ruleset,
# from one python process for the whole run (LIST_CMDS, a coprocess: a
# python start costs seconds in the TCG guest of make check-kernel); it
# reads a file name a line and answers with the commands, then a "."
coproc LIST_CMDS { "$py" -u -c '
import json, sys
for path in sys.stdin:
    print("list ruleset\nlist tables\nlist chains\nlist sets\nlist maps")
    print("list counters\nlist quotas\nlist limits")
    seen = set()
    try:
        doc = json.load(open(path.rstrip("\n")))["nftables"]
    except (OSError, ValueError, KeyError):
        doc = []
    for o in doc:
        for kind in ("table", "chain", "set", "map", "counter", "quota", "limit",
                     "ct helper"):
            if kind not in o or kind in seen:
                continue
            seen.add(kind)
            x = o[kind]
            name = [x["family"]] + ([x["table"]] if kind != "table" else []) + [x["name"]]
            print("list", kind, " ".join(name))
    print(".")
'; }
# (into the array cmds: a subshell would not have the coprocess's pipes)
list_cmds() {
	local line
	cmds=()
	printf '%s\n' "$1" >&"${LIST_CMDS[1]}"
	while IFS= read -r line <&"${LIST_CMDS[0]}" && [ "$line" != . ]; do
		cmds+=("$line")
	done
}

# one namespace for all: both tools list whatever state it holds
ns_new NFT || exit 99
ip -n "$NFT" link add veth0 type veth peer name veth1 || exit 99
pairs=()
for f in "$REPO_DIR"/tests/parse/ok/*.out; do
	name=$(basename "${f%.out}")
	grep -qx "parse/ok/$name.in" "$REPO_DIR/tests/TODO.list" && continue
	# nft 1.0.6's listing of it is wrong, nfh's is not
	why=$(nft_lists_otherwise "${f%.out}.in")
	if [ -n "$why" ]; then
		echo "ok - $name: nfh -j list # SKIP nft lists it otherwise: $why"
		continue
	fi
	# no device here (veth, lo) offloads flows to hardware: the kernel
	# refuses "flags offload" (shell/flowtable.sh checks that), so such
	# a golden is listed without it (as in json-roundtrip.sh)
	if grep -Eq '^[[:space:]]*flags offload;?$' "$f"; then
		sed -E '/^[[:space:]]*flags offload;?$/d' "$f" >"$dir/$name.sw.out"
		f=$dir/$name.sw.out
	fi
	in_ns "$NFT" nft flush ruleset
	if ! out=$(in_ns "$NFT" nft -f "$f" 2>&1); then
		echo "ok - $name: nft -j # SKIP nft cannot load it: $out"
		continue
	fi
	in_ns "$NFT" nft -j list ruleset >"$dir/ruleset.nft"
	list_cmds "$dir/ruleset.nft"
	# nfh lists them all in one run, one JSON document a line
	printf '%s\n' "${cmds[@]}" | tool "$NFT" -j -f - >"$dir/got.all" 2>&1
	mapfile -t got <"$dir/got.all"
	i=0
	for cmd in "${cmds[@]}"; do
		i=$((i + 1))
		# shellcheck disable=SC2086 # the command is split into words
		in_ns "$NFT" nft -j $cmd >"$dir/want.$name.$i" 2>&1
		if [ ${#got[@]} -eq ${#cmds[@]} ]; then
			printf '%s\n' "${got[i - 1]}" >"$dir/got.$name.$i"
		else
			# shellcheck disable=SC2086
			tool "$NFT" -j $cmd >"$dir/got.$name.$i" 2>&1
		fi
		pairs+=("$name: nfh -j $cmd" "$dir/want.$name.$i" "$dir/got.$name.$i")
	done
done
# all compared in one python run (a python start costs seconds in the TCG
# guest of make check-kernel)
if [ ${#pairs[@]} -gt 0 ]; then
	"$py" "$equal" "${pairs[@]}" || FAILED=$((FAILED + 1))
fi
finish
