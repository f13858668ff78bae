#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# timeout-scale: 5
# checks, for every listing golden that nfh passes (tests/parse/ok/X.out
# whose X.in is not in TODO.list):
# - loaded by nfh, "nfh -j list ruleset" prints what "nft -j list ruleset"
#   prints with the same file loaded by nft (tests/json-equal.py)
# - round trip: load -> list -> -j list -> flush -> -j -f -> list gives the
#   same listing
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root
require_cmd nft python3
# the system's python starts fast; a version manager's shim may not
py=/usr/bin/python3
[ -x "$py" ] || py=python3

dir=$(tmpdir)
equal="$REPO_DIR/tests/json-equal.py"

# NFT and NFH see the same loads, so the kernel hands out the same table
# handles in both; the round trips happen in RT
# (NJ: nft loads its own JSON listing back, apart, not to move their handles)
veths() { ip -n "$1" link add veth0 type veth peer name veth1; }
ns_new NFT && ns_new NFH && ns_new RT && ns_new NJ || exit 99
for ns in "$NFT" "$NFH" "$RT" "$NJ"; do
	veths "$ns" || exit 99
done
# a kernel without SELinux (or without secmark objects) makes none
secmark=0
have_feature secmark && secmark=1
# nor queue and flowtables without their modules
queue=0 flowtable=0
have_feature queue && queue=1
have_feature flowtable && flowtable=1
# device-name prefixes: Linux 6.17 and later
prefixes=0
r=$(uname -r)
maj=${r%%.*} min=${r#*.}
min=${min%%[!0-9]*}
{ [ "$maj" -gt 6 ] || { [ "$maj" -eq 6 ] && [ "$min" -ge 17 ]; }; } && prefixes=1
pairs=()
for f in "$REPO_DIR"/tests/parse/ok/*.out; do
	name=$(basename "${f%.out}")
	grep -qx "parse/ok/$name.in" "$REPO_DIR/tests/TODO.list" && continue
	if [ $secmark = 0 ] && grep -q '^[[:space:]]*secmark ' "$f"; then
		echo "ok - $name: JSON round trip # SKIP the kernel makes no secmark objects (shell/secmark.sh checks it offline)"
		continue
	fi
	if [ $queue = 0 ] && grep -Eq '(^|[[:space:]])queue([[:space:]]|$)' "$f"; then
		echo "ok - $name: JSON round trip # SKIP the kernel has no nft_queue (shell/queue.sh checks it offline)"
		continue
	fi
	if [ $flowtable = 0 ] && grep -Eq '^[[:space:]]*flowtable |flow (add|offload) @' "$f"; then
		echo "ok - $name: JSON round trip # SKIP the kernel has no flowtables (shell/flowtable.sh checks it offline)"
		continue
	fi
	# device-name prefixes need Linux 6.17 (shell/device-prefix.sh checks
	# the refusal before it)
	if [ $prefixes = 0 ] && grep -Eq 'devices? (= \{[^}]*)?"[^"]*\*"' "$f"; then
		echo "ok - $name: JSON round trip # SKIP device-name prefixes need Linux 6.17 (shell/device-prefix.sh checks the refusal)"
		continue
	fi
	why=$(nft_lists_otherwise "${f%.out}.in")
	# no device here (veth, lo) offloads flows to hardware: the kernel
	# refuses "flags offload" (shell/flowtable.sh checks that), so the
	# rest of such a golden goes round without it
	if [ $flowtable = 1 ] && grep -Eq '^[[:space:]]*flags offload;?$' "$f"; then
		sed -E '/^[[:space:]]*flags offload;?$/d' "$f" >"$dir/$name.sw.out"
		f=$dir/$name.sw.out
	fi
	# each load replaces what the golden before left, in one transaction
	check "$name: nfh loads it" sh -c '{ echo "flush ruleset"; cat "$1"; } |
		ip netns exec "$2" $TOOL -f -' sh "$f" "$NFH"
	# nft's own JSON listing of the golden, and whether nft loads it back
	nft_json=0
	if { echo "flush ruleset"; cat "$f"; } | in_ns "$NFT" nft -f - >/dev/null 2>&1; then
		in_ns "$NFT" nft -j list ruleset >"$dir/want"
		sed 's/^{"nftables": \[/&{"flush": {"ruleset": null}}, /' "$dir/want" >"$dir/want.json"
		in_ns "$NJ" nft -j -f "$dir/want.json" >/dev/null 2>&1 && nft_json=1
		# warnings on standard error, as nft's (a chain binding has
		# no JSON form: "warning: stmt ops chain have no json callback")
		tool "$NFH" -j list ruleset >"$dir/got" 2>"$dir/got.err"
		if [ -n "$why" ]; then
			echo "ok - $name: loaded by nfh, -j list ruleset # SKIP nft lists it otherwise: $why"
		else
			# compared at the end, in one python run (a python start
			# costs seconds in the TCG guest of make check-kernel)
			mv "$dir/want" "$dir/want.$name"
			mv "$dir/got" "$dir/got.$name"
			pairs+=("$name: loaded by nfh, -j list ruleset" \
				"$dir/want.$name" "$dir/got.$name")
		fi
	else
		echo "ok - $name: loaded by nfh, -j list ruleset # SKIP nft cannot load it"
		nft_json=1
		# nfh's namespace saw a load that nft's did not: the kernel
		# would hand out other table handles in the two from here on,
		# so both start afresh
		ip netns del "$NFT" && ip netns del "$NFH" &&
			ns_new NFT && ns_new NFH && veths "$NFT" && veths "$NFH" || exit 99
	fi

	{ echo "flush ruleset"; cat "$f"; echo "list ruleset"; } |
		tool "$RT" -f - >"$dir/first"
	# the listing, after a JSON flush of the ruleset
	tool "$RT" -j list ruleset |
		sed 's/^{"nftables": \[/&{"flush": {"ruleset": null}}, /' >"$dir/json"
	if tool "$RT" -j -f "$dir/json" >"$dir/err" 2>&1; then
		ok "$name: -j -f loads the JSON listing"
	elif [ $nft_json = 0 ]; then
		# nft 1.0.6's JSON names a typeof set's datatypes: one of
		# integers (vlan id, tcp doff) declares nothing it can load
		echo "ok - $name: -j -f loads the JSON listing # SKIP nft cannot load its own JSON listing of it either"
		echo "ok - $name: JSON round trip lists the same ruleset # SKIP nothing was loaded"
		continue
	else
		not_ok "$name: -j -f loads the JSON listing"
		diag <"$dir/err"
	fi
	tool "$RT" list ruleset >"$dir/second"
	# nft 1.0.6's JSON names a typeof set's datatypes, not its expressions
	# (and -j list above equals nft's): after the round trip such a set is
	# declared by type, so its declaration lines are left out of the diff
	if grep -q '^		typeof ' "$dir/first"; then
		sed -i '/^		type\(of\)\? /d' "$dir/first" "$dir/second"
	fi
	# nft 1.0.6's JSON has no flowtable flags, and nfh's -j list is
	# nft's (src/flowtable.c): a flowtable's counter does not go round
	if grep -q '^	flowtable ' "$dir/first"; then
		sed -i '/^	flowtable /,/^	}/{/^		counter$/d}' "$dir/first" "$dir/second"
	fi
	if diff -u --label text --label "after JSON" "$dir/first" "$dir/second" >"$dir/diff"; then
		ok "$name: JSON round trip lists the same ruleset"
	else
		not_ok "$name: JSON round trip lists the same ruleset"
		diag <"$dir/diff"
	fi
done
if [ ${#pairs[@]} -gt 0 ]; then
	"$py" "$equal" "${pairs[@]}" || FAILED=$((FAILED + 1))
fi
finish
