#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: "list ruleset" while another process replaces a table over and
# over (one transaction each: its 50 sets get new names every time) never
# fails (a set listed, then gone when its elements are asked for, was
# "No such file or directory"), and each listing is one version of the
# table whole: all 50 sets and 100 rules, every name of one version
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root

ns_new NS || exit 99
dir=$(tmpdir)

# table VERSION: the table, its sets named sN_VERSION
table() {
	local i
	echo "table ip t {"
	for ((i = 0; i < 50; i++)); do
		printf '\tset s%d_%d {\n\t\ttype ipv4_addr\n\t\telements = { 10.0.0.%d, 10.1.0.1 }\n\t}\n' \
			"$i" "$1" "$i"
	done
	printf '\tchain c {\n'
	for ((i = 0; i < 50; i++)); do
		printf '\t\tip saddr @s%d_%d counter\n\t\tip daddr { 10.2.0.%d, 10.3.0.1 } drop\n' \
			"$i" "$1" "$i"
	done
	printf '\t}\n}\n'
}
table 0 >"$dir/t.nft"
tool "$NS" -f "$dir/t.nft" || exit 99

(
	v=0
	while [ ! -e "$dir/stop" ]; do
		v=$((v + 1))
		{ echo "delete table ip t"; table "$v"; } >"$dir/r.nft"
		tool "$NS" -f "$dir/r.nft" || echo "replace $v failed" >>"$dir/bg.err"
	done
) &
bg=$!
trap 'touch "$dir/stop"; wait $bg 2>/dev/null; lib_cleanup' EXIT

fails=0 torn=0 n=120
for ((i = 0; i < n; i++)); do
	if ! tool "$NS" list ruleset >"$dir/l" 2>"$dir/e"; then
		fails=$((fails + 1))
		diag <"$dir/e"
		continue
	fi
	sets=$(grep -c '^	set s[0-9]*_' "$dir/l")
	rules=$(grep -c 'counter packets\|drop$' "$dir/l")
	versions=$(grep -o 's[0-9]*_[0-9]*' "$dir/l" | sed 's/.*_//' | sort -u | wc -l)
	if [ "$sets" != 50 ] || [ "$rules" != 100 ] || [ "$versions" != 1 ]; then
		torn=$((torn + 1))
		echo "# listing $i: $sets sets, $rules rules, $versions versions"
	fi
done
touch "$dir/stop"
wait "$bg"
expect_eq "$n listings during replacements: none fails" 0 "$fails"
expect_eq "each is one version of the table, whole" 0 "$torn"
expect_eq "the replacements all loaded" "" "$(cat "$dir/bg.err" 2>/dev/null)"
finish
