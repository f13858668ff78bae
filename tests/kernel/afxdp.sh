#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: frames sent through an AF_XDP socket in copy mode
# (xsk_generic_xmit -> __dev_direct_xmit) and the nf egress hook.
#
# Mainline (6.12 through 6.18 at least) skips the hook on this path: the
# chain counts nothing and a drop rule does not stop the frames.  The
# nfhook test kernel carries kernel/patches 0003, which runs the hook
# there: it counts the frames, sees IPv4 ones as IPv4 (ip daddr matches),
# and a drop rule keeps them off the wire while their descriptors still
# complete.  The test expects the patched behaviour on a kernel whose
# release ends in "-nfhook" (kernel/config sets CONFIG_LOCALVERSION) and
# the mainline behaviour elsewhere; NFH_AFXDP_EXPECT=hook|bypass overrides
# that, e.g. to show the test failing on an unpatched test kernel.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=tests/kernel/lib-hooks.bash
. "$(dirname "$0")/lib-hooks.bash"
require_feature netdev_egress
XSK=$REPO_DIR/kernel/xsk-tx
if [ ! -x "$XSK" ]; then
	echo "# kernel/xsk-tx is not built (make)"
	exit 77
fi
case ${NFH_AFXDP_EXPECT:-} in
hook | bypass) expect=$NFH_AFXDP_EXPECT ;;
'') case $(uname -r) in
	*-nfhook*) expect=hook ;;
	*) expect=bypass ;;
	esac ;;
*)
	echo "# NFH_AFXDP_EXPECT must be hook or bypass"
	exit 99
	;;
esac
echo "# kernel $(uname -r): expecting the egress hook to $([ "$expect" = hook ] && echo see || echo miss) AF_XDP frames"
ns_pair "" ""

load "$NS_A" <<EOF2
table netdev t {
	chain a {
		type filter hook egress device "$VETH_A" priority 0;
		ether type $ETYPE counter comment "xsk"
		ip daddr 192.0.2.7 udp dport 9 counter comment "xsk-ip"
	}
}
EOF2

tx0=$(stat "$NS_A" "$VETH_A" tx_packets)
out=$(in_ns "$NS_A" "$XSK" "$VETH_A" 10 2>&1)
if [ $? = 77 ]; then
	echo "# kernel lacks AF_XDP sockets"
	exit 77
fi
expect_eq "10 AF_XDP copy-mode descriptors completed" 10 "$out"
expect_eq "10 frames left $VETH_A" $((tx0 + 10)) "$(stat "$NS_A" "$VETH_A" tx_packets)"
expect_eq "4 IPv4 descriptors completed" 4 "$(in_ns "$NS_A" "$XSK" "$VETH_A" 4 ipv4 2>&1)"
if [ $expect = hook ]; then
	expect_packets "the egress hook counted the 10 AF_XDP frames" "$NS_A" 'comment "xsk"' 10
	expect_packets "it saw the 4 IPv4 frames as IPv4 (ip daddr, udp dport)" "$NS_A" 'comment "xsk-ip"' 4
else
	sleep 0.3
	expect_eq "mainline: the egress hook saw none of the 10 frames" 0 "$(packets "$NS_A" 'comment "xsk"')"
	expect_eq "mainline: nor the 4 IPv4 frames" 0 "$(packets "$NS_A" 'comment "xsk-ip"')"
fi

load "$NS_A" "drop rule added" <<EOF2
insert rule netdev t a ether type $ETYPE counter drop comment "drop"
EOF2
tx0=$(stat "$NS_A" "$VETH_A" tx_packets)
expect_eq "with a drop rule all 8 descriptors still complete" 8 "$(in_ns "$NS_A" "$XSK" "$VETH_A" 8 2>&1)"
if [ $expect = hook ]; then
	expect_packets "the drop rule dropped the 8 AF_XDP frames" "$NS_A" 'comment "drop"' 8
	expect_eq "none of them left $VETH_A" "$tx0" "$(stat "$NS_A" "$VETH_A" tx_packets)"
else
	expect_eq "mainline: all 8 left $VETH_A past the drop rule" $((tx0 + 8)) "$(stat "$NS_A" "$VETH_A" tx_packets)"
	expect_eq "mainline: the drop rule saw none of them" 0 "$(packets "$NS_A" 'comment "drop"')"
fi
finish
