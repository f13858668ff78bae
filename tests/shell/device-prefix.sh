#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: device-name prefixes (Linux 6.17+).  A netdev ingress chain on
# "vp*" sees echo requests on vpa and vpb, and on vpc, made after the chain,
# but not on wq0 or wq1; an inet ingress chain on "wq*" sees wq0 and wq1
# (made after it); an egress chain on "*" sees every reply.  The kernel
# holds NFTA_DEVICE_PREFIX "vp", "wq" and "" (read back by hand, not by
# nfh), the listing prints "vp*" and loads back the same, as text and as
# JSON, monitor prints it, and the chains delete.  On a kernel that refuses
# the attribute (before 6.17), a load fails with a message that says so
# and leaves the ruleset as it was.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root
require_cmd python3
# shellcheck disable=SC2086 # $TOOL is split into words on purpose
if $TOOL -v 2>/dev/null | grep -q '^nftables v1\.0\.'; then
	# and it would list a chain with a real prefix forever
	echo "# nft 1.0.x has no device-name prefixes: it sends \"vp*\" as a name"
	exit 77
fi
py=/usr/bin/python3
[ -x "$py" ] || py=python3
devs() { in_ns "$1" "$py" "$REPO_DIR/tests/nft-chain-devs.py" dump "$2"; }

dir=$(tmpdir)
ns_new NS_A && ns_new NS_B || exit 99

# the kernel's answer to the attribute, asked without nfh
probe=$(unshare -n "$py" "$REPO_DIR/tests/nft-chain-devs.py" probe 2>&1)

cat >"$dir/keep.nft" <<'EOF'
table netdev keep {
	chain c {
		type filter hook ingress device "lo" priority 0; policy accept;
	}
}
EOF
cat >"$dir/prefix.nft" <<'EOF'
table netdev pfx {
	chain in {
		type filter hook ingress device "vp*" priority 0; policy accept;
		icmp type echo-request counter comment "all"
		icmp type echo-request meta iifname "vpa" counter drop comment "vpa"
		icmp type echo-request meta iifname "vpb" counter comment "vpb"
		icmp type echo-request meta iifname "vpc" counter drop comment "vpc"
	}
}
table netdev every {
	chain out {
		type filter hook egress device "*" priority 0; policy accept;
		icmp type echo-reply counter comment "replies"
	}
}
table inet pfx {
	chain in {
		type filter hook ingress devices = { "wq*" } priority 0; policy accept;
		icmp type echo-request counter comment "inet-wq"
	}
}
EOF

if [ "$probe" != accepted ]; then
	# shellcheck disable=SC2086
	in_ns "$NS_B" $TOOL -f "$dir/keep.nft" || exit 99
	tool "$NS_B" list ruleset >"$dir/before"
	# shellcheck disable=SC2086
	in_ns "$NS_B" $TOOL -f "$dir/prefix.nft" >"$dir/out" 2>"$dir/err"
	rc=$?
	expect_eq "a prefix chain fails to load on $(uname -r)" 1 "$rc"
	check "the error names the chain's line" grep -q "^$dir/prefix.nft:2:8-9: Error: " "$dir/err"
	check "and says prefixes need Linux 6.17" \
		grep -q 'device-name prefixes ("vp\*") need Linux 6.17 or later' "$dir/err"
	tool "$NS_B" list ruleset >"$dir/after"
	expect_eq "the ruleset is left as it was" "$(cat "$dir/before")" "$(cat "$dir/after")"
	ok "traffic through prefix chains # SKIP the kernel refuses NFTA_DEVICE_PREFIX ($probe)"
	finish
fi

#   NS_A a0 ---- vpa NS_B      10.0.1.0/24   hooked by "vp*"
#        a1 ---- vpb           10.0.2.0/24   hooked by "vp*"
#        a2 ---- wq0           10.0.3.0/24   hooked by inet "wq*" only
#   after the chains are loaded:
#        a3 ---- vpc           10.0.4.0/24   hooked by "vp*"
#        a4 ---- wq1           10.0.5.0/24   hooked by inet "wq*" only
link_ns "$NS_A" a0 10.0.1.1/24 "$NS_B" vpa 10.0.1.2/24 &&
link_ns "$NS_A" a1 10.0.2.1/24 "$NS_B" vpb 10.0.2.2/24 &&
link_ns "$NS_A" a2 10.0.3.1/24 "$NS_B" wq0 10.0.3.2/24 || exit 99

load "$NS_B" "netdev and inet ingress chains on prefixes load" <"$dir/prefix.nft"

expect_eq "the kernel holds NFTA_DEVICE_PREFIX \"vp\" and \"\"" \
	"every out: prefix 
pfx in: prefix vp" "$(devs "$NS_B" netdev | sort)"
expect_eq "and \"wq\" for inet ingress" "pfx in: prefix wq" "$(devs "$NS_B" inet)"

expect_eq "echo on vpa is dropped" 0 "$(replies_from "$NS_A" 10.0.1.2 3)"
expect_eq "echo on vpb passes" 2 "$(replies_from "$NS_A" 10.0.2.2 2)"
expect_eq "echo on wq0 passes" 2 "$(replies_from "$NS_A" 10.0.3.2 2)"

link_ns "$NS_A" a3 10.0.4.1/24 "$NS_B" vpc 10.0.4.2/24 &&
link_ns "$NS_A" a4 10.0.5.1/24 "$NS_B" wq1 10.0.5.2/24 || exit 99
expect_eq "echo on vpc, made after the chain, is dropped" 0 \
	"$(replies_from "$NS_A" 10.0.4.2 2)"
expect_eq "echo on wq1, made after the chain, passes" 3 \
	"$(replies_from "$NS_A" 10.0.5.2 3)"

expect_packets "vpa: 3 counted" "$NS_B" 'comment "vpa"' 3
expect_packets "vpb: 2 counted" "$NS_B" 'comment "vpb"' 2
expect_packets "vpc: 2 counted" "$NS_B" 'comment "vpc"' 2
expect_packets "the vp* chain saw 7 requests, none from wq0 or wq1" \
	"$NS_B" 'comment "all"' 7
expect_packets "the inet wq* chain saw wq0's 2 and wq1's 3" \
	"$NS_B" 'comment "inet-wq"' 5
expect_packets "the egress chain on \"*\" saw all 7 replies" \
	"$NS_B" 'comment "replies"' 7

# listings: "vp*" back, and loading them gives the same listing
tool "$NS_B" list ruleset >"$dir/list1"
check 'the listing prints device "vp*"' \
	grep -q 'type filter hook ingress device "vp\*" priority filter; policy accept;' "$dir/list1"
check 'and device "*" and "wq*"' sh -c \
	'grep -q "hook egress device \"\\*\" priority" "$1" &&
	 grep -q "hook ingress device \"wq\\*\" priority" "$1"' sh "$dir/list1"
tool "$NS_B" -j list ruleset >"$dir/json1"
check 'the JSON listing has "dev": "vp*"' \
	grep -q '"hook": "ingress", "prio": 0, "policy": "accept", "dev": "vp\*"' "$dir/json1"

ns_new NS_RT || exit 99
{ echo "flush ruleset"; cat "$dir/list1"; } >"$dir/reload.nft"
check "the listing loads back" tool "$NS_RT" -f "$dir/reload.nft"
tool "$NS_RT" list ruleset | sed 's/packets [0-9]* bytes [0-9]*/packets 0 bytes 0/' >"$dir/list2"
sed 's/packets [0-9]* bytes [0-9]*/packets 0 bytes 0/' "$dir/list1" >"$dir/list1.zero"
expect_eq "and lists the same" "$(cat "$dir/list1.zero")" "$(cat "$dir/list2")"
expect_eq "with the same prefixes in the kernel" \
	"$(devs "$NS_B" netdev | sort; devs "$NS_B" inet)" \
	"$(devs "$NS_RT" netdev | sort; devs "$NS_RT" inet)"
sed 's/^{"nftables": \[/&{"flush": {"ruleset": null}}, /' "$dir/json1" >"$dir/reload.json"
check "the JSON listing loads back" tool "$NS_RT" -j -f "$dir/reload.json"
tool "$NS_RT" list ruleset >"$dir/list3"
expect_eq "and lists the same" "$(cat "$dir/list1")" "$(cat "$dir/list3")"

# monitor: the chain as it is added
in_ns "$NS_RT" $TOOL monitor chains >"$dir/mon" 2>&1 &
mon=$!
in_ns "$NS_RT" $TOOL -j monitor chains >"$dir/jmon" 2>&1 &
jmon=$!
for ((i = 0; i < 50; i++)); do
	tool "$NS_RT" add chain netdev every probe
	tool "$NS_RT" delete chain netdev every probe
	grep -q 'probe' "$dir/mon" && grep -q 'probe' "$dir/jmon" && break
	sleep 0.1
done
tool "$NS_RT" -f - 2>"$dir/err" <<'EOF'
table netdev every {
	chain more {
		type filter hook ingress devices = { "vq*", lo, "x*x" } priority 1;
	}
}
EOF
expect_eq "a star inside a name is refused" 1 $?
expect_eq "with a caret under it" \
'/dev/stdin:3:53-53: Error: "*" must be the last character of device name "x*x" (a prefix is written "x*")
		type filter hook ingress devices = { "vq*", lo, "x*x" } priority 1;
		                                                  ^' "$(cat "$dir/err")"
tool "$NS_RT" -f - <<'EOF'
table netdev every {
	chain more {
		type filter hook ingress devices = { "vq*", lo } priority 1;
	}
}
EOF
retry 20 grep -q 'chain netdev every more' "$dir/mon"
expect_eq "monitor prints the new chain with its prefix" \
	'add chain netdev every more { type filter hook ingress devices = { "vq*", lo } priority filter + 1; policy accept; }' \
	"$(grep 'chain netdev every more' "$dir/mon")"
retry 20 grep -q '"more"' "$dir/jmon"
check '-j monitor prints "dev": ["vq*", "lo"]' grep -q '"name": "more".*"dev": \["vq\*", "lo"\]' "$dir/jmon"
kill "$mon" "$jmon" 2>/dev/null
wait "$mon" "$jmon" 2>/dev/null

# a batch the kernel refuses (the chain exists) changes nothing
tool "$NS_RT" list ruleset >"$dir/before"
tool "$NS_RT" -f - >"$dir/out" 2>"$dir/err" <<'EOF'
table netdev fresh {
	chain c {
		type filter hook ingress device "fr*" priority 0;
	}
}
create chain netdev pfx in { type filter hook ingress device "vp*" priority 0; }
EOF
expect_eq "create on an existing prefix chain fails" 1 $?
tool "$NS_RT" list ruleset >"$dir/after"
expect_eq "and leaves the ruleset as it was" "$(cat "$dir/before")" "$(cat "$dir/after")"

# delete and flush
check "flush chain" tool "$NS_RT" flush chain netdev pfx in
check "delete chain" tool "$NS_RT" delete chain netdev pfx in
check "delete table" tool "$NS_RT" delete table inet pfx
expect_eq "the kernel holds the other prefix chains only" \
	"every more: prefix vq, name lo
every out: prefix " "$(devs "$NS_RT" netdev | sort; devs "$NS_RT" inet)"
check "flush ruleset" tool "$NS_RT" flush ruleset
expect_eq "and then none" "" "$(devs "$NS_RT" netdev; devs "$NS_RT" inet)"
finish
