#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# scripts/demo.sh: nfhook's main job, end to end.  Builds two throwaway
# network namespaces joined by a veth pair (eth0 on both sides), loads
# files/examples/ingress-drop.nft on the receiving side with nfh, sends
# pings and a TCP connection attempt, and shows the ruleset with the drop
# counters matching exactly the packets sent.  Needs root; touches nothing
# outside its namespaces, which are deleted on exit.  Exit 0 iff the drops
# and counts come out as expected.
#
# TOOL=nft scripts/demo.sh runs the same demo with nft.

cd "$(dirname "$0")/.." || exit 1
TOOL=${TOOL:-src/nfh}
RULES=files/examples/ingress-drop.nft
# shellcheck source=tests/lib.sh
. tests/lib.sh

if [ "$(id -u)" -ne 0 ]; then
	echo "demo: needs root (it creates network namespaces)" >&2
	exit 1
fi
if [ "$TOOL" = src/nfh ] && [ ! -x src/nfh ]; then
	echo "demo: src/nfh is not built; run scripts/setup.sh first" >&2
	exit 1
fi

fail() { echo "demo: FAILED: $*" >&2; exit 1; }
say() { printf '\n== %s\n' "$*"; }

# The example file hooks "eth0", so both ends of the veth are called eth0.
VETH_A=eth0 VETH_B=eth0
ns_pair 10.0.0.1/24 10.0.0.2/24
ip -n "$NS_A" addr add 192.0.2.1/24 dev eth0
echo "namespaces: $NS_A (sender, 10.0.0.1 and 192.0.2.1) -- $NS_B (receiver, 10.0.0.2)"

say "before: ping 10.0.0.2 from 10.0.0.1"
ping_from "$NS_A" 10.0.0.2 2 || fail "no connectivity before loading any rules"
echo "2 of 2 answered"

say "$TOOL -f $RULES (in $NS_B)"
tool "$NS_B" -f "$RULES" || fail "$TOOL could not load $RULES"
echo loaded

say "ping 10.0.0.2 five times from 10.0.0.1 (icmp echo is dropped)"
got=$(replies_from "$NS_A" 10.0.0.2 5)
echo "${got:-0} of 5 answered"
[ "$got" = 0 ] || fail "echo requests were not dropped"

say "ping 10.0.0.2 three times from 192.0.2.1 (a blocked prefix)"
got=$(replies_from "$NS_A" 10.0.0.2 3 192.0.2.1)
echo "${got:-0} of 3 answered"
[ "$got" = 0 ] || fail "blocked prefix was not dropped"

say "tcp connect to 10.0.0.2:80 (allowed: the receiver answers with a reset)"
if in_ns "$NS_A" timeout 3 bash -c 'exec 3<>/dev/tcp/10.0.0.2/80' 2>&1 |
	grep -q 'Connection refused'; then
	echo "connection refused: the SYN got through"
else
	fail "allowed tcp traffic did not get through"
fi

say "$TOOL list ruleset (in $NS_B)"
tool "$NS_B" list ruleset

echo_count=$(packets "$NS_B" 'comment "icmp echo"')
prefix_count=$(packets "$NS_B" 'comment "blocked prefix"')
[ "$echo_count" = 5 ] || fail "icmp echo counter is '$echo_count', expected 5"
[ "$prefix_count" = 3 ] || fail "blocked prefix counter is '$prefix_count', expected 3"
say "ok: 5 echoes and 3 blocked-prefix packets sent, dropped and counted"
