#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: frames that tc ingress redirects to an ifb device are re-injected
# into the receive path with skb->tc_skip_classify set, so they skip both tc
# and nf ingress of the original device, and the ifb device's nf egress
# (they were redirected); they still reach the stack.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=tests/kernel/lib-hooks.bash
. "$(dirname "$0")/lib-hooks.bash"
require_feature netdev_ingress netdev_egress
require_cmd python3 tc ping

ns_pair 10.9.0.1/24 10.9.0.2/24
if ! ip -n "$NS_B" link add ifb0 type ifb 2>/dev/null; then
	echo "# kernel lacks ifb"
	exit 77
fi
ip -n "$NS_B" link set ifb0 up

load "$NS_B" <<EOF2
table netdev t {
	chain in {
		type filter hook ingress device "$VETH_B" priority 0; policy accept;
		icmp type echo-request counter comment "nf-in"
	}
	chain ifb-out {
		type filter hook egress device "ifb0" priority 0; policy accept;
		icmp type echo-request counter comment "nf-ifb-out"
	}
	chain ifb-in {
		type filter hook ingress device "ifb0" priority 0; policy accept;
		icmp type echo-request counter comment "nf-ifb-in"
	}
}
EOF2

expect_eq "without ifb, 3 echo replies" 3 "$(replies_from "$NS_A" 10.9.0.2 3)"
expect_packets "nf ingress counted the 3 requests" "$NS_B" 'comment "nf-in"' 3

in_ns "$NS_B" tc qdisc replace dev "$VETH_B" clsact
check "tc ingress redirect $VETH_B -> ifb0 added" \
	in_ns "$NS_B" tc filter add dev "$VETH_B" ingress protocol all u32 match u32 0 0 \
	action mirred egress redirect dev ifb0
ifb0=$(stat "$NS_B" ifb0 tx_packets)
expect_eq "through ifb, still 3 echo replies" 3 "$(replies_from "$NS_A" 10.9.0.2 3)"
check "ifb0 transmitted (re-injected) the frames" test "$(stat "$NS_B" ifb0 tx_packets)" -ge $((ifb0 + 3))
expect_eq "re-injected requests skipped nf ingress of $VETH_B" 3 "$(packets "$NS_B" 'comment "nf-in"')"
expect_eq "and the nf egress hook of ifb0" 0 "$(packets "$NS_B" 'comment "nf-ifb-out"')"
expect_eq "and never entered ifb0's ingress" 0 "$(packets "$NS_B" 'comment "nf-ifb-in"')"
finish
