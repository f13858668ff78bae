# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Helpers for tests/shell/*.sh.  Source it first:
#
#	. "$(dirname "$0")/../lib.sh"
#
# A test prints one TAP line per check without a number ("ok - desc" or
# "not ok - desc"); tests/run numbers them.  Exit 77 skips the whole script.
# $TOOL is the nft-compatible binary under test.  Leave it unquoted where it
# is run, so that TOOL='libtool --mode=execute valgrind -q src/nfh' works.

LIB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_DIR=$(dirname "$LIB_DIR")
: "${TOOL:=$REPO_DIR/src/nfh}"
export TOOL

FAILED=0
LIB_NAMESPACES=()
LIB_TMPDIR=

ok() { echo "ok - $*"; }
not_ok() { echo "not ok - $*"; FAILED=$((FAILED + 1)); }
diag() { sed 's/^/# /'; }

# check DESC CMD...: one TAP line for the exit status of CMD; its output
# is shown as a comment when it fails.
check() {
	local desc=$1 out
	shift
	if out=$("$@" 2>&1); then
		ok "$desc"
	else
		not_ok "$desc"
		[ -n "$out" ] && printf '%s\n' "$out" | diag
	fi
	return 0
}

# expect_eq DESC EXPECTED ACTUAL
expect_eq() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		not_ok "$1"
		case $2$3 in
		*$'\n'*) diff -u --label expected --label actual \
			<(printf '%s\n' "$2") <(printf '%s\n' "$3") | diag ;;
		*) echo "# expected: '$2'"
		   echo "# actual:   '$3'" ;;
		esac
	fi
}

# finish: the script's exit status, 1 if any check failed.
finish() { [ "$FAILED" -eq 0 ]; exit; }

require_root() {
	if [ "$(id -u)" -ne 0 ]; then
		echo "# needs root (network namespaces)"
		exit 77
	fi
}

require_cmd() {
	local c
	for c in "$@"; do
		if ! command -v "$c" >/dev/null 2>&1; then
			echo "# needs $c"
			exit 77
		fi
	done
}

# retry N CMD...: run CMD up to N times, 0.1 s apart, until it succeeds.
retry() {
	local n=$1 i
	shift
	for ((i = 0; i < n; i++)); do
		"$@" && return 0
		sleep 0.1
	done
	return 1
}

# nft_lists_otherwise GOLDEN.in: the reason its line "# nft-lists-otherwise:
# WHY" gives (nft 1.0.6's listing of it does not load back as the same
# rules, nfh's does), empty without one.
nft_lists_otherwise() { sed -n 's/^# nft-lists-otherwise: //p' "$1"; }

tmpdir() {
	if [ -z "$LIB_TMPDIR" ]; then
		LIB_TMPDIR=$(mktemp -d "${TMPDIR:-/tmp}/nfh-test.XXXXXX")
	fi
	echo "$LIB_TMPDIR"
}

lib_cleanup() {
	local ns
	for ns in "${LIB_NAMESPACES[@]}"; do
		ip netns pids "$ns" 2>/dev/null | xargs -r kill 2>/dev/null
		ip netns del "$ns" 2>/dev/null
	done
	[ -n "$LIB_TMPDIR" ] && rm -rf "$LIB_TMPDIR"
	return 0
}
trap lib_cleanup EXIT

suffix() { printf '%04x%04x' $RANDOM $RANDOM; }

# ns_new VAR: create a namespace named nfh-VAR-<random>, store its name in
# $VAR, and delete it on exit.  IPv6 is off, so that router solicitations
# and DAD do not add to counters, and ICMP errors are not rate limited.
ns_new() {
	local name
	name="nfh-$(echo "$1" | tr 'A-Z_' 'a-z-')-$(suffix)"
	ip netns add "$name" || return 1
	LIB_NAMESPACES+=("$name")
	printf -v "$1" '%s' "$name"
	export "${1?}"
	ip netns exec "$name" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 \
		net.ipv6.conf.default.disable_ipv6=1 net.ipv4.icmp_ratelimit=0 \
		>/dev/null
	ip -n "$name" link set lo up
}

# link_ns NS1 DEV1 ADDR1 NS2 DEV2 ADDR2: a veth pair DEV1 (in NS1) <-> DEV2
# (in NS2), addressed and up.  An empty ADDR leaves that end unaddressed.
link_ns() {
	ip -n "$1" link add "$2" type veth peer name "$5" netns "$4" || return 1
	[ -n "$3" ] && ip -n "$1" addr add "$3" dev "$2"
	[ -n "$6" ] && ip -n "$4" addr add "$6" dev "$5"
	ip -n "$1" link set "$2" up && ip -n "$4" link set "$5" up
}

# ns_pair A_ADDR B_ADDR: namespaces $NS_A and $NS_B joined by a veth pair
# $VETH_A <-> $VETH_B with the given addresses (CIDR).  Nothing is created
# in the caller's own namespace.
ns_pair() {
	VETH_A=${VETH_A:-veth-a}
	VETH_B=${VETH_B:-veth-b}
	export VETH_A VETH_B
	if ! { ns_new NS_A && ns_new NS_B &&
		link_ns "$NS_A" "$VETH_A" "$1" "$NS_B" "$VETH_B" "$2"; }; then
		echo "# could not create namespaces"
		exit 99
	fi
}

# in_ns NS CMD...: run CMD inside NS.
in_ns() { local ns=$1; shift; ip netns exec "$ns" "$@"; }

# tool NS ARGS...: run $TOOL inside NS.
# shellcheck disable=SC2086 # $TOOL is split into words on purpose
tool() { local ns=$1; shift; ip netns exec "$ns" $TOOL "$@"; }

# load NS [DESC]: load the ruleset on stdin with "$TOOL -f -" in NS; one TAP
# line.  Nothing after a failed load would mean anything, so it ends the test.
load() {
	local out
	if out=$(tool "$1" -f - 2>&1); then
		ok "${2:-ruleset loads}"
	else
		not_ok "${2:-ruleset loads}"
		printf '%s\n' "$out" | diag
		exit 1
	fi
}

# listing_has NS PATTERN: whether "$TOOL list ruleset" in NS has a line
# matching PATTERN (grep -E).
listing_has() { tool "$1" list ruleset | grep -Eq -e "$2"; }

# mac_of NS DEV
mac_of() { ip -n "$1" -o link show dev "$2" | sed -n 's/.*link\/ether \([0-9a-f:]*\).*/\1/p'; }

# ping_from NS DEST COUNT [SRC]: COUNT echo requests, 0.2 s apart; the
# exit status says whether any reply came back.
ping_from() {
	ip netns exec "$1" ping -q -n -c "$3" -i 0.2 -W 1 ${4:+-I "$4"} "$2" >/dev/null 2>&1
}

# replies_from NS DEST COUNT [SRC]: the number of echo replies received.
replies_from() {
	ip netns exec "$1" ping -q -n -c "$3" -i 0.2 -W 1 ${4:+-I "$4"} "$2" 2>/dev/null |
		sed -n 's/.* \([0-9]*\) received.*/\1/p'
}

# packets NS PATTERN: "packets N" of the first counter on a line of
# "$TOOL list ruleset" in NS that matches PATTERN (a grep -E pattern, e.g.
# 'comment "icmp"').  Prints nothing if there is no such line.
packets() {
	tool "$1" list ruleset | grep -E -e "$2" | grep -m1 -o 'counter packets [0-9]*' |
		cut -d' ' -f3
}

# expect_packets DESC NS PATTERN N: the counter reaches N within 2 s (a
# frame handed to a veth is processed in softirq context, a little later).
expect_packets() {
	retry 20 packets_are "$2" "$3" "$4"
	expect_eq "$1" "$4" "$(packets "$2" "$3")"
}
packets_are() { [ "$(packets "$1" "$2")" = "$3" ]; }

# tcp_probe NS ADDR PORT [SRC]: prints open, refused or timeout (1 s).
tcp_probe() {
	ip netns exec "$1" python3 - "$2" "$3" "${4:-}" <<'PY'
import socket, sys
addr, port, src = sys.argv[1], int(sys.argv[2]), sys.argv[3]
s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
s.settimeout(1.0)
if src:
    s.bind((src, 0))
try:
    s.connect((addr, port))
    print("open")
except ConnectionRefusedError:
    print("refused")
except OSError:
    print("timeout")
PY
}

# udp_send NS ADDR PORT COUNT [SRC]: sends exactly COUNT datagrams, then waits up
# to 1 s for an answer; prints reply, refused (ICMP port unreachable came
# back, i.e. the datagram reached the stack) or timeout.  Unlike ping, which
# resends when a local hook drops (ENOBUFS), the count is exact.
udp_send() {
	ip netns exec "$1" python3 - "$2" "$3" "$4" "${5:-}" <<'PY'
import socket, sys
addr, port, count, src = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.settimeout(1.0)
if src:
    s.bind((src, 0))
s.connect((addr, port))
state = "timeout"
for i in range(count):
    # An ICMP error from an earlier datagram fails this send, unsent.
    try:
        s.send(b"nfhook-test")
    except ConnectionRefusedError:
        state = "refused"
        s.send(b"nfhook-test")
try:
    s.recv(100)
    state = "reply"
except ConnectionRefusedError:
    state = "refused"
except OSError:
    pass
print(state)
PY
}

# send_vlan NS DEV VID COUNT [PCP]: COUNT broadcast 802.1Q frames tagged VID
# from DEV, written to a raw AF_PACKET socket (the kernel has no 8021q).
send_vlan() {
	ip netns exec "$1" python3 - "$2" "$3" "$4" "${5:-0}" <<'PY'
import socket, struct, sys
dev, vid, count, pcp = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind((dev, 0))
src = s.getsockname()[4]
frame = b"\xff" * 6 + src + struct.pack("!HHH", 0x8100, pcp << 13 | vid, 0x88b5)
frame += b"nfhook-vlan-test".ljust(46, b"\0")
for i in range(count):
    s.send(frame)
PY
}

# guest_slow WHY: in kernel/vm's TCG guest (NFH_IN_VM=1) the script is
# skipped (exit 77) with WHY, unless NFH_VM_SLOW=1 (make check-kernel
# passes it on).  For the scripts whose guest run costs minutes and tests
# nothing of the kernel that the host's run does not: kernel/README.md
# lists them.
guest_slow() {
	if [ "${NFH_IN_VM:-}" = 1 ] && [ "${NFH_VM_SLOW:-}" != 1 ]; then
		echo "# left out in the TCG guest (NFH_VM_SLOW=1 runs it): $1"
		exit 77
	fi
}

# feature probes: a small ruleset per kernel feature, loaded with nft when it
# is installed (the oracle; a bug in $TOOL must fail a test, not skip it),
# otherwise with $TOOL, in a scratch namespace with a veth pair veth0/veth1.
feature_ruleset() {
	case $1 in
	netdev_ingress)	# netdev family, Linux 4.2
		echo 'table netdev p { chain c { type filter hook ingress device "veth0" priority 0; counter
		}
		}' ;;
	netdev_egress)	# netdev egress hook, Linux 5.16 (42df6e1d221d)
		echo 'table netdev p { chain c { type filter hook egress device "veth0" priority 0; counter
		}
		}' ;;
	netdev_devices)	# one chain on several devices, Linux 5.5 (d54725cd11a5)
		echo 'table netdev p { chain c { type filter hook ingress devices = { veth0, veth1 } priority 0; counter
		}
		}' ;;
	fwd)		# nft_fwd_netdev, Linux 4.11
		echo 'table netdev p { chain c { type filter hook ingress device "veth0" priority 0; fwd to "veth1"
		}
		}' ;;
	dup)		# nft_dup_netdev, Linux 4.11
		echo 'table netdev p { chain c { type filter hook ingress device "veth0" priority 0; dup to "veth1"
		}
		}' ;;
	tcp_option)	# exthdr tcp options on the inet input hook, Linux 4.10
		echo 'table inet p { chain c { type filter hook input priority 0; tcp option maxseg size 1460 counter
		}
		}' ;;
	ct_timeout)	# ct timeout objects, Linux 4.19, CONFIG_NF_CONNTRACK_TIMEOUT
		echo 'table ip p { ct timeout t { protocol udp; l3proto ip; policy = { unreplied: 2 }; }
		chain c { type filter hook prerouting priority 0; ct timeout set "t"
		}
		}' ;;
	ct_expect)	# ct expectation objects, Linux 5.3
		echo 'table ip p { ct expectation e { protocol udp; dport 9; timeout 1s; size 1; l3proto ip; }
		chain c { type filter hook input priority 0; ct expectation set "e"
		}
		}' ;;
	synproxy)	# synproxy objects, Linux 5.4, CONFIG_NFT_SYNPROXY
		echo 'table ip p { synproxy s { mss 1460; wscale 7; }
		chain c { type filter hook input priority 0; synproxy name "s"
		}
		}' ;;
	secmark)	# secmark objects (Linux 4.20) and a security module
			# (SELinux) that knows this context
		echo 'table inet p { secmark s { "system_u:object_r:ssh_server_packet_t:s0" }
		}' ;;
	queue)		# nft_queue, CONFIG_NFT_QUEUE
		echo 'table inet p { chain c { type filter hook input priority 0; queue flags bypass to 1
		}
		}' ;;
	flowtable)	# flowtables, CONFIG_NF_FLOW_TABLE (and _INET), and flow
			# offload, CONFIG_NFT_FLOW_OFFLOAD
		echo 'table inet p { flowtable f { hook ingress priority 0; devices = { veth0 }; }
		chain c { type filter hook forward priority 0; flow add @f
		}
		}' ;;
	inner)		# nft_inner, Linux 6.2 (3a07327d10a0); nft 1.0.6 cannot
			# write it, so $TOOL probes it
		echo 'table netdev p { chain c { type filter hook ingress device "veth0" priority 0; udp dport 4789 vxlan ip saddr 1.1.1.1 counter
		}
		}' ;;
	concat_byteorder)
			# a concatenation of ip saddr and the 1-byte meta l4proto
			# against an interval set: nft 1.0.6 (and nfh, which
			# emits its bytecode) converts l4proto with a byteorder
			# of size 2 and length 1, which kernels that refuse
			# multi-register conversions (EOPNOTSUPP: Debian's
			# 6.12.118, not this project's 6.18 hosts) do not take;
			# nft 1.1.1 emits no byteorder there
		echo 'table netdev p { set s { type ipv4_addr . inet_proto; flags interval; }
		chain c { type filter hook ingress device "veth0" priority 0; ip saddr . meta l4proto @s
		}
		}' ;;
	*)
		echo "# unknown feature $1" >&2
		return 1 ;;
	esac
}

# the features above that nft 1.0.6 cannot write: $TOOL probes them
FEATURES_NFH_ONLY=" inner "

have_feature() {
	local rules probe=$TOOL
	rules=$(feature_ruleset "$1") || return 1
	case $FEATURES_NFH_ONLY in
	*" $1 "*) ;;
	*) command -v nft >/dev/null 2>&1 && probe=nft ;;
	esac
	# shellcheck disable=SC2086 # $TOOL is split into words on purpose
	printf '%s\n' "$rules" | unshare -n sh -c \
		'ip link add veth0 type veth peer name veth1 && exec "$@"' sh \
		$probe -f - >/dev/null 2>&1
}

require_feature() {
	local f
	require_root
	for f in "$@"; do
		if ! have_feature "$f"; then
			echo "# kernel lacks $f"
			exit 77
		fi
	done
}
