# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Helpers for tests/kernel/*.sh, the tests of the netdev hooks themselves
# (where they run relative to tc, which paths skip them).  Source it after
# tests/lib.sh.  The traffic is raw Ethernet frames of the local
# experimental EtherType 0x88b5 written to an AF_PACKET socket, so the
# counters see exactly the frames a test sends and nothing else (no ARP, no
# IPv6 neighbour discovery).

ETYPE=0x88b5

# send_frames NS DEV COUNT [bypass]: COUNT broadcast frames of EtherType
# $ETYPE from DEV.  With "bypass" the socket sets PACKET_QDISC_BYPASS, so the
# frames go through dev_direct_xmit() instead of dev_queue_xmit().  Prints
# how many send() calls the kernel accepted.
send_frames() {
	ip netns exec "$1" python3 - "$2" "$3" "${4:-}" <<'PY'
import socket, struct, sys
dev, count, mode = sys.argv[1], int(sys.argv[2]), sys.argv[3]
SOL_PACKET, PACKET_QDISC_BYPASS = 263, 20
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
if mode == "bypass":
    s.setsockopt(SOL_PACKET, PACKET_QDISC_BYPASS, 1)
s.bind((dev, 0))
src = s.getsockname()[4]
frame = b"\xff" * 6 + src + struct.pack("!H", 0x88b5) + b"nfhook-hook-test".ljust(46, b"\0")
sent = 0
for i in range(count):
    try:
        s.send(frame)
        sent += 1
    except OSError:
        pass
print(sent)
PY
}

# stat NS DEV rx_packets|tx_packets|...: one counter of DEV.
stat() { ip netns exec "$1" cat "/sys/class/net/$2/statistics/$3"; }

# tc_drop NS DEV ingress|egress: a clsact filter on DEV that drops every
# frame of EtherType $ETYPE and lets everything else through.  It is a
# classic BPF program in direct-action mode (cls_bpf), because gact is not
# in every kernel this runs on:
#   ldh [12]; jeq #0x88b5, L1, L2; L1: ret #2 (TC_ACT_SHOT); L2: ret #-1
tc_drop() {
	ip netns exec "$1" tc qdisc replace dev "$2" clsact &&
	ip netns exec "$1" tc filter add dev "$2" "$3" bpf da \
		bytecode "4,40 0 0 12,21 0 1 34997,6 0 0 2,6 0 0 4294967295"
}

# tc_mirred NS DEV ingress|egress mirror|redirect TARGET: a clsact u32
# filter on DEV that mirrors or redirects every frame of EtherType $ETYPE to
# TARGET's egress.  The mirred action counts what it saw (tc_seen).
tc_mirred() {
	ip netns exec "$1" tc qdisc replace dev "$2" clsact &&
	ip netns exec "$1" tc filter add dev "$2" "$3" protocol "$ETYPE" \
		u32 match u32 0 0 action mirred egress "$4" dev "$5"
}

# tc_seen NS DEV ingress|egress: packets the mirred action on DEV counted.
tc_seen() {
	ip netns exec "$1" tc -s filter show dev "$2" "$3" |
		sed -n 's/^[[:space:]]*Sent [0-9]* bytes \([0-9]*\) pkt.*/\1/p' | head -n 1
}

# kernel_at_least MAJOR MINOR: whether the running kernel is MAJOR.MINOR+.
kernel_at_least() {
	local r maj min
	r=$(uname -r)
	maj=${r%%.*}
	min=${r#*.}
	min=${min%%[!0-9]*}
	[ "$maj" -gt "$1" ] || { [ "$maj" -eq "$1" ] && [ "$min" -ge "$2" ]; }
}

# hook_chain NAME HOOK DEVICE [RULE]: the text of one netdev chain on
# DEVICE (a name, or a "devices = { ... }" spec) with at most one rule.
hook_chain() {
	local dev=$3
	case $dev in devices*) ;; *) dev="device \"$dev\"" ;; esac
	printf 'chain %s {\n\ttype filter hook %s %s priority 0; policy accept;\n%s\n}\n' \
		"$1" "$2" "$dev" "${4:-}"
}
