#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: pktgen in its default xmit_mode start_xmit calls the driver
# directly and bypasses the nf egress hook; xmit_mode queue_xmit goes
# through dev_queue_xmit and is seen.  Needs CONFIG_NET_PKTGEN (the test
# kernel has it; the CI host kernel does not, so this skips there).
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=tests/kernel/lib-hooks.bash
. "$(dirname "$0")/lib-hooks.bash"
require_feature netdev_egress

ns_pair "" ""
if ! in_ns "$NS_A" test -w /proc/net/pktgen/pgctrl; then
	echo "# kernel lacks pktgen (CONFIG_NET_PKTGEN)"
	exit 77
fi

load "$NS_A" <<EOF2
table netdev t {
$(hook_chain a egress "$VETH_A" 'udp dport 9 counter comment "pktgen"')
}
EOF2

# pktgen_run MODE COUNT: send COUNT frames from veth-a with pktgen; prints
# pktgen's result line.
pktgen_run() {
	# shellcheck disable=SC2016 # expanded by the inner sh
	in_ns "$NS_A" sh -e -c '
		pg() { echo "$2" >"/proc/net/pktgen/$1"; }
		pg kpktgend_0 rem_device_all
		pg kpktgend_0 "add_device $0"
		pg "$0" "count $2"
		pg "$0" "pkt_size 60"
		pg "$0" "dst 10.77.0.2"
		pg "$0" "dst_mac ff:ff:ff:ff:ff:ff"
		pg "$0" "xmit_mode $1"
		pg pgctrl start
		sed -n "s/^Result: //p" "/proc/net/pktgen/$0"
	' "$VETH_A" "$1" "$2" 2>&1
}

tx0=$(stat "$NS_A" "$VETH_A" tx_packets)
r=$(pktgen_run start_xmit 10)
check "pktgen start_xmit ran: $r" grep -q '^OK:' <<<"$r"
expect_eq "start_xmit: 10 frames left $VETH_A" $((tx0 + 10)) "$(stat "$NS_A" "$VETH_A" tx_packets)"
expect_eq "start_xmit: the egress hook saw none" 0 "$(packets "$NS_A" 'comment "pktgen"')"

tx0=$(stat "$NS_A" "$VETH_A" tx_packets)
r=$(pktgen_run queue_xmit 10)
check "pktgen queue_xmit ran: $r" grep -q '^OK:' <<<"$r"
expect_eq "queue_xmit: 10 frames left $VETH_A" $((tx0 + 10)) "$(stat "$NS_A" "$VETH_A" tx_packets)"
expect_packets "queue_xmit: the egress hook saw all 10" "$NS_A" 'comment "pktgen"' 10
in_ns "$NS_A" sh -c 'echo rem_device_all >/proc/net/pktgen/kpktgend_0'
finish
