#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: two processes loading different files into one namespace at the
# same moment, many times over: each exits 0, or 1 with a message, within
# 20 s; afterwards the ruleset lists exactly as one of the two files, never
# a mix; listings taken while the loads race are each one of the two
# rulesets too (or the empty one before the first load)
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_feature netdev_ingress

ITER=${CONCURRENT_ITERATIONS:-50}
ns_new NS
ip -n "$NS" link add cl0 type veth peer name cl1
dir=$(tmpdir)

# file NAME TABLE BASE: "flush ruleset", then a table with 100 rules
file() {
	{
		echo "flush ruleset"
		echo "table netdev $2 {"
		echo "	chain in {"
		echo "		type filter hook ingress device \"cl0\" priority 0; policy accept;"
		for i in $(seq 1 100); do
			echo "		ip saddr 10.$3.$((i / 250)).$((i % 250)) counter drop"
		done
		echo "	}"
		echo "}"
	} >"$dir/$1"
}
file a.nft a 1
file b.nft b 2

tool "$NS" -f "$dir/a.nft" && la=$(tool "$NS" list ruleset)
tool "$NS" -f "$dir/b.nft" && lb=$(tool "$NS" list ruleset)
tool "$NS" flush ruleset
if [ -z "$la" ] || [ -z "$lb" ] || [ "$la" = "$lb" ]; then
	not_ok "the two files load alone and list differently"
	finish
fi

# listings race with the loads in the background
(
	n=0
	while [ ! -e "$dir/stop" ]; do
		n=$((n + 1))
		tool "$NS" list ruleset >"$dir/list.$n" 2>&1 || echo "$n" >>"$dir/list-failed"
	done
) &
lister=$!

mixed=0 failed_clearly=0 failed_badly=0 both=0 slow=0
for ((i = 1; i <= ITER; i++)); do
	timeout 20 ip netns exec "$NS" $TOOL -f "$dir/a.nft" >"$dir/ra" 2>&1 &
	pa=$!
	timeout 20 ip netns exec "$NS" $TOOL -f "$dir/b.nft" >"$dir/rb" 2>&1 &
	pb=$!
	wait $pa; ra=$?
	wait $pb; rb=$?
	for r in "$ra:$dir/ra" "$rb:$dir/rb"; do
		case ${r%%:*} in
		0) ;;
		124) slow=$((slow + 1)) ;;
		1) if [ -s "${r#*:}" ]; then
			failed_clearly=$((failed_clearly + 1))
		   else
			failed_badly=$((failed_badly + 1))
		   fi ;;
		*) failed_badly=$((failed_badly + 1))
		   sed 's/^/# /' "${r#*:}" ;;
		esac
	done
	[ $ra = 0 ] && [ $rb = 0 ] && both=$((both + 1))
	now=$(tool "$NS" list ruleset)
	if [ "$now" != "$la" ] && [ "$now" != "$lb" ]; then
		mixed=$((mixed + 1))
		[ $mixed = 1 ] && diff <(echo "$la") <(echo "$now") | head -n 20 | diag
	fi
done
touch "$dir/stop"
wait $lister

echo "# $ITER rounds: both loads succeeded in $both, $failed_clearly loads failed with a message"
expect_eq "no load hung (20 s)" 0 "$slow"
expect_eq "every failed load exited 1 with a message" 0 "$failed_badly"
expect_eq "after each of $ITER rounds the ruleset is exactly a.nft's or b.nft's" 0 "$mixed"

bad=0 total=0
for ((k = 1; ; k++)); do
	f=$dir/list.$k
	[ -e "$f" ] || break
	total=$k
	l=$(cat "$f")
	grep -qx "$total" "$dir/list-failed" 2>/dev/null && continue
	if [ -n "$l" ] && [ "$l" != "$la" ] && [ "$l" != "$lb" ]; then
		bad=$((bad + 1))
		[ $bad = 1 ] && diff <(echo "$la") "$f" | head -n 20 | diag
	fi
done
echo "# $total listings taken during the loads"
expect_eq "no listing taken during the loads shows a mix" 0 "$bad"
if [ -s "$dir/list-failed" ]; then
	not_ok "no listing failed"
	head -n 3 "$dir/list.$(head -n 1 "$dir/list-failed")" | diag
else
	ok "no listing failed"
fi
finish
