#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: "monitor trace" prints the packet traces of real pings (packet,
# rule with its verdict, policy; netdev ingress and inet chains, a jump, a
# return, a mark, an output chain) as nft monitor trace prints them for the
# same packets, nft being the oracle; "-j monitor trace" says it is not
# supported
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root
require_cmd nft

dir=$(tmpdir)
ns_pair 10.0.0.1/24 10.0.0.2/24

load "$NS_B" <<EOF
table netdev n {
	chain ing {
		type filter hook ingress device "$VETH_B" priority 0;
		ip protocol icmp meta nftrace set 1
		udp dport 9 meta nftrace set 1
	}
}
table inet t {
	chain in {
		type filter hook input priority filter; policy drop;
		meta mark set 7 jump other
		icmp type echo-request counter accept comment "ping"
	}
	chain other {
		ip saddr 192.0.2.1 drop
		icmp type echo-request return
	}
	chain out {
		type filter hook output priority filter;
		icmp type echo-reply meta nftrace set 1
	}
}
EOF

in_ns "$NS_B" nft monitor trace >>"$dir/nft" 2>&1 &
pids=($!)
in_ns "$NS_B" $TOOL monitor trace >>"$dir/nfh" 2>"$dir/nfh.err" &
pids+=($!)
stop() { kill "${pids[@]}" 2>/dev/null; wait 2>/dev/null; }

# both listen once a probe datagram shows in both
for ((i = 0; i < 50; i++)); do
	in_ns "$NS_A" bash -c 'echo > /dev/udp/10.0.0.2/9' 2>/dev/null
	grep -q 'udp dport 9' "$dir/nft" && grep -q 'udp dport 9' "$dir/nfh" && break
	sleep 0.1
done

ping_from "$NS_A" 10.0.0.2 3 && ok "pings pass" || not_ok "pings pass"
# each ping gives 8 lines and each reply 3 (see below)
retry 50 eval '[ "$(grep -c "icmp type echo-re" "$dir/nfh")" -ge 9 ]'
retry 50 eval '[ "$(grep -c "icmp type echo-re" "$dir/nft")" -ge 9 ]'
stop

# the pings' traces, trace ids numbered in order of appearance
norm() {
	awk '
	$1 == "trace" && / packet: / { icmp[$3] = / icmp type echo-re/ }
	$1 == "trace" && icmp[$3] {
		if (!($3 in n)) n[$3] = ++k
		$3 = "T" n[$3]
		print
	}' "$1"
}
norm "$dir/nft" >"$dir/nft.norm"
norm "$dir/nfh" >"$dir/nfh.norm"
check "nft traced the pings" grep -q 'rule icmp type echo-request counter' "$dir/nft.norm"
expect_eq "monitor trace prints what nft prints for the same packets" \
	"$(cat "$dir/nft.norm")" "$(cat "$dir/nfh.norm")"
expect_eq "monitor trace prints no errors" "" "$(cat "$dir/nfh.err")"

out=$(tool "$NS_B" -j monitor trace 2>&1)
expect_eq "-j monitor trace is refused" \
'Error: monitor trace: JSON output is not supported' "$(printf '%s\n' "$out" | grep -m1 Error)"
finish
