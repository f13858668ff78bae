#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: on ingress tc runs before netfilter.  A tc drop hides the frames
# from an nf ingress counter on the same device, and tc still sees the
# frames that an nf ingress rule drops.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=tests/kernel/lib-hooks.bash
. "$(dirname "$0")/lib-hooks.bash"
require_feature netdev_ingress
require_cmd python3 tc

ns_pair "" ""
link_ns "$NS_A" veth-c "" "$NS_B" veth-d "" || exit 99

load "$NS_B" <<EOF2
table netdev t {
	chain b {
		type filter hook ingress device "$VETH_B" priority 0; policy accept;
		ether type $ETYPE counter comment "nf-b"
	}
	chain d {
		type filter hook ingress device "veth-d" priority 0; policy accept;
		ether type $ETYPE counter drop comment "nf-d"
	}
}
EOF2

send_frames "$NS_A" "$VETH_A" 5 >/dev/null
expect_packets "without tc, nf ingress counts the 5 frames" "$NS_B" 'comment "nf-b"' 5

check "tc ingress drop filter added" tc_drop "$NS_B" "$VETH_B" ingress
rx0=$(stat "$NS_B" "$VETH_B" rx_packets)
send_frames "$NS_A" "$VETH_A" 5 >/dev/null
retry 20 test "$(stat "$NS_B" "$VETH_B" rx_packets)" -ge $((rx0 + 5))
expect_eq "the 5 frames reached $VETH_B" $((rx0 + 5)) "$(stat "$NS_B" "$VETH_B" rx_packets)"
sleep 0.3
expect_eq "tc dropped them before nf ingress: counter still 5" 5 "$(packets "$NS_B" 'comment "nf-b"')"

# nf drops on veth-d; a tc mirred mirror on veth-d's ingress still sees
# every frame, because it runs first.
link_ns "$NS_B" veth-m "" "$NS_B" veth-n "" || exit 99
check "tc ingress mirror on veth-d added" tc_mirred "$NS_B" veth-d ingress mirror veth-m
send_frames "$NS_A" veth-c 4 >/dev/null
expect_packets "nf ingress on veth-d dropped the 4 frames" "$NS_B" 'comment "nf-d"' 4
expect_eq "tc ingress saw the 4 frames nf dropped" 4 "$(tc_seen "$NS_B" veth-d ingress)"
expect_eq "the mirror copies left veth-m" 4 "$(stat "$NS_B" veth-m tx_packets)"
finish
