#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: named ct timeout, ct expectation and synproxy objects do their work
# on real packets between two namespaces:
#  - a ct timeout object shortens the conntrack timeouts of the flows it is
#    set on (udp unreplied, tcp established), by name or through a named or
#    an anonymous map, so an expired udp flow is new again, while a flow
#    without it keeps the default timeouts;
#  - a ct expectation object set on a udp flow, by name or through a map,
#    makes the expected flow back to the client "ct state related", and a
#    flow to another port is new;
#  - a synproxy object, by name or through a map, answers the handshake
#    itself with its own mss, and a connection through it completes, while
#    one to a port that is not synproxied is dropped.
# A case the kernel lacks is skipped on its own.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root
require_cmd python3

ns_pair 10.0.0.1/24 10.0.0.2/24
dir=$(tmpdir)

# skip_case DESC WHY: one TAP line for a case the kernel lacks
skip_case() { echo "ok - $1 # SKIP $2"; }

# same_listing DESC NS TABLE: nft lists the table as nfh does, with -j
# too, and nfh reads its own -j listing back to the same table
same_listing() {
	local text
	text=$(tool "$2" list table ip "$3")
	if command -v nft >/dev/null 2>&1; then
		expect_eq "$1" "$(in_ns "$2" nft list table ip "$3")" "$text"
		in_ns "$2" nft -j list table ip "$3" >"$dir/nft.json"
		tool "$2" -j list table ip "$3" >"$dir/nfh.json"
		python3 "$REPO_DIR/tests/json-equal.py" "$1, -j" \
			"$dir/nft.json" "$dir/nfh.json" || FAILED=$((FAILED + 1))
	else
		skip_case "$1" "no nft"
	fi
	tool "$2" -j list table ip "$3" >"$dir/nfh.json"
	# counters are loaded with the values listed
	if tool "$2" delete table ip "$3" && tool "$2" -j -f "$dir/nfh.json"; then
		expect_eq "$1: nfh -j -f reads its -j listing back" \
			"$text" "$(tool "$2" list table ip "$3")"
	else
		not_ok "$1: nfh -j -f reads its -j listing back"
	fi
}

# Servers in $NS_B on 10.0.0.2: every udp port in $1 (comma separated)
# echoes each datagram; every tcp port in $2 echoes what a connection sends
# and keeps it open until the client closes it.  $dir/servers-up appears
# once all sockets listen.
start_servers() {
	in_ns "$NS_B" python3 - "$1" "$2" "$dir/servers-up" <<'PY' &
import socket, sys, threading
ports = lambda s: [int(p) for p in s.split(",") if p]
def udp(s):
    while True:
        data, peer = s.recvfrom(1500)
        s.sendto(data, peer)
def conn(c):
    while True:
        data = c.recv(1500)
        if not data:
            break
        c.sendall(data)
    c.close()
def tcp(s):
    while True:
        c, _ = s.accept()
        threading.Thread(target=conn, args=(c,), daemon=True).start()
threads = []
for p in ports(sys.argv[1]):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("10.0.0.2", p))
    threads.append(threading.Thread(target=udp, args=(s,), daemon=True))
for p in ports(sys.argv[2]):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("10.0.0.2", p))
    s.listen(8)
    threads.append(threading.Thread(target=tcp, args=(s,), daemon=True))
for t in threads:
    t.start()
open(sys.argv[3], "w").close()
threading.Event().wait()
PY
	retry 30 test -e "$dir/servers-up"
}

# udp_echo NS DEST SPORT:DPORT...: from each source port, one datagram to
# DEST:DPORT; prints "reply" or "timeout" (0.5 s) per pair, space separated.
udp_echo() {
	local ns=$1 dest=$2
	shift 2
	in_ns "$ns" python3 - "$dest" "$@" <<'PY'
import socket, sys
out = []
for pair in sys.argv[2:]:
    sport, dport = (int(x) for x in pair.split(":"))
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("", sport))
    s.settimeout(0.5)
    s.sendto(b"nfhook-ct", (sys.argv[1], dport))
    try:
        s.recv(100)
        out.append("reply")
    except OSError:
        out.append("timeout")
    s.close()
print(" ".join(out))
PY
}

# ct_timeout_of NS PROTO DPORT: the seconds left of NS's conntrack entry
# for PROTO flows to DPORT, as /proc/net/nf_conntrack shows them; nothing
# if there is none.
ct_timeout_of() {
	in_ns "$1" cat /proc/net/nf_conntrack |
		awk -v p="$2" -v d="dport=$3" '$3 == p { for (i = 6; i <= NF; i++) if ($i == d) { print $5; exit } }'
}
ct_state_of() {
	in_ns "$1" cat /proc/net/nf_conntrack |
		awk -v d="dport=$2" '$3 == "tcp" { for (i = 6; i <= NF; i++) if ($i == d) { print $6; exit } }'
}
# shellcheck disable=SC2317 # called through retry and check
has_ct_entry() { [ -n "$(ct_timeout_of "$@")" ]; }

# in_range DESC LOW HIGH VALUE
in_range() {
	if [ -n "$4" ] && [ "$4" -ge "$2" ] && [ "$4" -le "$3" ]; then
		ok "$1"
	else
		not_ok "$1"
		echo "# expected $2..$3, got '$4'"
	fi
}

start_servers 5001,5002,5005,5006 5003,5004 ||
	{ not_ok "the udp and tcp servers start"; finish; }

# --- ct timeout -------------------------------------------------------
ct_timeout_case() {
	load "$NS_B" "ct timeout objects load" <<EOF2
table ip cto {
	ct timeout udp-short {
		protocol udp
		l3proto ip
		policy = { unreplied: 2 }
	}

	ct timeout tcp-short {
		protocol tcp
		l3proto ip
		policy = { established: 7, close: 4 }
	}

	map bydport {
		type inet_service : ct timeout
		elements = { 5005 : "udp-short" }
	}

	chain pre {
		type filter hook prerouting priority filter;
		udp dport 5001 ct timeout set "udp-short"
		tcp dport 5003 ct timeout set "tcp-short"
		udp dport 5005 ct timeout set udp dport map @bydport
		udp dport 5006 ct timeout set udp dport map { 5006 : "udp-short" }
		udp dport 5001 ct state new counter comment "new 5001"
		udp dport 5001 ct state established counter comment "est 5001"
		udp dport 5002 ct state new counter comment "new 5002"
		udp dport 5002 ct state established counter comment "est 5002"
		udp dport 5005 ct state new counter comment "new 5005"
		udp dport 5005 ct state established counter comment "est 5005"
		udp dport 5006 ct state new counter comment "new 5006"
		udp dport 5006 ct state established counter comment "est 5006"
	}
}
EOF2
	local procfs=1 port how
	[ -r /proc/net/nf_conntrack ] || procfs=
	# 5001: by name, 5005: named map, 5006: anonymous map, 5002: none
	local -A by=([5001]="by name" [5005]="through a named map"
		     [5006]="through an anonymous map")
	# One echoed datagram per flow, from fixed source ports; then again
	# from the same ports once the short timeout has run out.
	expect_eq "the udp flows are echoed" "reply reply reply reply" \
		"$(udp_echo "$NS_A" 10.0.0.2 41001:5001 41002:5002 41005:5005 41006:5006)"
	if [ -n "$procfs" ]; then
		for port in 5001 5005 5006; do
			in_range "a udp flow given the ct timeout ${by[$port]} has at most 2 s left" \
				0 2 "$(ct_timeout_of "$NS_B" udp $port)"
		done
		in_range "the udp flow without it has the default 30 s" 20 30 \
			"$(ct_timeout_of "$NS_B" udp 5002)"
	else
		skip_case "conntrack timeouts read back" "no /proc/net/nf_conntrack"
	fi
	sleep 3
	if [ -n "$procfs" ]; then
		for port in 5001 5005 5006; do
			check "the udp flow given it ${by[$port]} has expired after 3 s" \
				sh -c "! ip netns exec $NS_B cat /proc/net/nf_conntrack | grep -q 'dport=$port '"
		done
		check "the udp flow without it is still there" has_ct_entry "$NS_B" udp 5002
	fi
	expect_eq "the udp flows are echoed again" "reply reply reply reply" \
		"$(udp_echo "$NS_A" 10.0.0.2 41001:5001 41002:5002 41005:5005 41006:5006)"
	for port in 5001 5005 5006; do
		how=${by[$port]}
		expect_packets "the expired flow given the ct timeout $how is new again" \
			"$NS_B" "\"new $port\"" 2
		expect_packets "so the one given it $how was never established" \
			"$NS_B" "\"est $port\"" 0
	done
	expect_packets "the flow without the ct timeout was new once" "$NS_B" '"new 5002"' 1
	expect_packets "and its second datagram was established" "$NS_B" '"est 5002"' 1

	# tcp: the established timeout of the object (7 s), not the
	# default (5 days), on a connection that stays open
	if [ -n "$procfs" ]; then
		in_ns "$NS_A" python3 - <<'PY' &
import socket, time
socks = []
for port in (5003, 5004):
    s = socket.create_connection(("10.0.0.2", port), timeout=2)
    s.sendall(b"hello")
    s.recv(100)
    socks.append(s)
time.sleep(2)
PY
		local client=$!
		retry 20 has_ct_entry "$NS_B" tcp 5004
		expect_eq "the tcp connection with the ct timeout is established" \
			ESTABLISHED "$(ct_state_of "$NS_B" 5003)"
		in_range "it has at most the object's 7 s left" 0 7 \
			"$(ct_timeout_of "$NS_B" tcp 5003)"
		in_range "the connection without it has the default 5 days" \
			431000 432000 "$(ct_timeout_of "$NS_B" tcp 5004)"
		wait "$client"
	else
		skip_case "tcp established timeout" "no /proc/net/nf_conntrack"
	fi
	same_listing "nft lists the ct timeout table as nfh does" "$NS_B" cto
}

# --- ct expectation ---------------------------------------------------
# The first datagram of a flow from the client to udp port 8888 sets the
# expectation; it expects a udp flow back from the server to the client's
# port 9876 (any source port).
ct_expectation_case() {
	load "$NS_B" "ct expectation object loads" <<EOF2
table ip cte {
	ct expectation back {
		protocol udp
		dport 9876
		timeout 1m
		size 8
		l3proto ip
	}

	ct expectation back2 {
		protocol udp
		dport 9878
		timeout 1m
		size 8
		l3proto ip
	}

	map bydport {
		type inet_service : ct expectation
		elements = { 8889 : "back" }
	}

	chain in {
		type filter hook input priority filter;
		ct state new udp dport 8888 ct expectation set "back"
		ct state new udp dport 8889 ct expectation set udp dport map @bydport
		ct state new udp dport 8890 ct expectation set udp dport map { 8890 : "back2" }
	}

	chain out {
		type filter hook output priority filter;
		udp dport 9876 ct state related counter comment "related 9876"
		udp dport 9876 ct state new counter comment "new 9876"
		udp dport 9877 ct state related counter comment "related 9877"
		udp dport 9877 ct state new counter comment "new 9877"
		udp dport 9878 ct state related counter comment "related 9878"
		udp dport 9878 ct state new counter comment "new 9878"
	}
}
EOF2
	# before the expectation: a flow to 9876 is new
	udp_send "$NS_B" 10.0.0.1 9876 1 >/dev/null
	expect_packets "before the expectation a flow to 9876 is new" "$NS_B" '"new 9876"' 1
	udp_send "$NS_A" 10.0.0.2 8888 1 >/dev/null
	if [ -r /proc/net/nf_conntrack_expect ]; then
		check "the kernel holds the expectation 10.0.0.2 -> 10.0.0.1 udp port 9876" \
			sh -c "ip netns exec $NS_B cat /proc/net/nf_conntrack_expect |
				grep -q 'proto=17 src=10.0.0.2 dst=10.0.0.1 sport=0 dport=9876'"
	else
		skip_case "the expectation read back" "no /proc/net/nf_conntrack_expect"
	fi
	udp_send "$NS_B" 10.0.0.1 9876 1 >/dev/null
	udp_send "$NS_B" 10.0.0.1 9877 1 >/dev/null
	expect_packets "the expected flow to 9876 is related" "$NS_B" '"related 9876"' 1
	expect_packets "and not new" "$NS_B" '"new 9876"' 1
	expect_packets "a flow to 9877 is not related" "$NS_B" '"related 9877"' 0
	expect_packets "but new" "$NS_B" '"new 9877"' 1
	# the expectation was used up; a flow to 8891 sets none
	udp_send "$NS_A" 10.0.0.2 8891 1 >/dev/null
	udp_send "$NS_B" 10.0.0.1 9876 1 >/dev/null
	expect_packets "once used, the expectation is gone: 9876 is new again" \
		"$NS_B" '"new 9876"' 2
	udp_send "$NS_A" 10.0.0.2 8889 1 >/dev/null
	udp_send "$NS_B" 10.0.0.1 9876 1 >/dev/null
	expect_packets "an expectation set through a named map makes 9876 related" \
		"$NS_B" '"related 9876"' 2
	udp_send "$NS_A" 10.0.0.2 8890 1 >/dev/null
	udp_send "$NS_B" 10.0.0.1 9878 1 >/dev/null
	expect_packets "one set through an anonymous map makes 9878 related" \
		"$NS_B" '"related 9878"' 1
	expect_packets "so no flow to 9878 was new" "$NS_B" '"new 9878"' 0
	same_listing "nft lists the ct expectation table as nfh does" "$NS_B" cte
}

# --- synproxy ---------------------------------------------------------
# The server answers port 8080 through synproxy object "sp" (mss 1200),
# 8083 and 8084 through "sp2" (mss 1300) from a named and an anonymous map,
# and port 8082 itself; port 8081's handshake is untracked but not
# synproxied, so it is dropped.
synproxy_case() {
	in_ns "$NS_B" sysctl -qw net.ipv4.tcp_syncookies=2 net.ipv4.tcp_timestamps=1 \
		net.netfilter.nf_conntrack_tcp_loose=0
	load "$NS_B" "synproxy object loads" <<EOF2
table ip syn {
	synproxy sp {
		mss 1200
		wscale 7
		timestamp sack-perm
	}

	synproxy sp2 {
		mss 1300
		wscale 7
		timestamp sack-perm
	}

	map bydport {
		type inet_service : synproxy
		elements = { 8083 : "sp2" }
	}

	chain pre {
		type filter hook prerouting priority raw;
		tcp dport { 8080, 8081, 8083, 8084 } tcp flags syn notrack
	}

	chain in {
		type filter hook input priority filter;
		tcp dport 8080 ct state invalid,untracked counter synproxy name "sp"
		tcp dport 8080 ct state invalid,untracked counter drop comment "drop 8080"
		tcp dport 8081 ct state invalid,untracked counter drop comment "drop 8081"
		tcp dport 8083 ct state invalid,untracked counter synproxy name tcp dport map @bydport
		tcp dport 8084 ct state invalid,untracked counter synproxy name tcp dport map { 8084 : "sp2" }
		tcp dport { 8083, 8084 } ct state invalid,untracked counter drop comment "drop 8083/4"
	}
}
EOF2
	in_ns "$NS_B" python3 - "$dir/syn-up" <<'PY' &
import socket, sys, threading
def serve(s):
    while True:
        c, _ = s.accept()
        data = c.recv(100)
        c.sendall(data[::-1])
        c.close()
for port in (8080, 8081, 8082, 8083, 8084):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("10.0.0.2", port))
    s.listen(8)
    threading.Thread(target=serve, args=(s,), daemon=True).start()
open(sys.argv[1], "w").close()
threading.Event().wait()
PY
	retry 30 test -e "$dir/syn-up" || { not_ok "the synproxy test server starts"; return; }
	# per port: "PORT open MSS REPLY" or "PORT timeout"
	out=$(in_ns "$NS_A" python3 - <<'PY'
import socket
for port in (8080, 8081, 8082, 8083, 8084):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.settimeout(1.5)
    try:
        s.connect(("10.0.0.2", port))
        mss = s.getsockopt(socket.IPPROTO_TCP, socket.TCP_MAXSEG)
        s.sendall(b"synproxy")
        print(port, "open", mss, s.recv(100).decode())
    except OSError:
        print(port, "timeout")
    s.close()
PY
)
	local line
	line=$(grep '^8080 ' <<<"$out")
	# mss 1200 less the 12 bytes of the timestamp option
	expect_eq "a connection through synproxy completes, with the object's mss" \
		"8080 open 1188 yxorpnys" "$line"
	line=$(grep '^8081 ' <<<"$out")
	expect_eq "an untracked handshake without synproxy is dropped" "8081 timeout" "$line"
	line=$(grep '^8082 ' <<<"$out")
	expect_eq "a direct connection has the server's own mss" "8082 open 1448 yxorpnys" "$line"
	line=$(grep '^8083 ' <<<"$out")
	expect_eq "a connection through synproxy from a named map has that object's mss" \
		"8083 open 1288 yxorpnys" "$line"
	line=$(grep '^8084 ' <<<"$out")
	expect_eq "and one through synproxy from an anonymous map too" \
		"8084 open 1288 yxorpnys" "$line"
	# the client's SYN and its ACK of synproxy's cookie
	expect_packets "the synproxy rule saw the SYN and the ACK" "$NS_B" 'synproxy name "sp"' 2
	expect_packets "synproxy left nothing of port 8080 to the drop rule" "$NS_B" '"drop 8080"' 0
	in_range "port 8081's SYNs reached the drop rule" 1 5 "$(packets "$NS_B" '"drop 8081"')"
	expect_packets "the synproxy rules with maps saw the SYN and the ACK" "$NS_B" 'map @bydport' 2
	expect_packets "each" "$NS_B" 'map \{ 8084' 2
	expect_packets "and left nothing to the drop rule" "$NS_B" '"drop 8083/4"' 0
	same_listing "nft lists the synproxy table as nfh does" "$NS_B" syn
}

if have_feature ct_timeout; then
	ct_timeout_case
else
	skip_case "ct timeout" "kernel lacks ct timeout objects"
fi
if have_feature ct_expect; then
	ct_expectation_case
else
	skip_case "ct expectation" "kernel lacks ct expectation objects"
fi
if have_feature synproxy; then
	synproxy_case
else
	skip_case "synproxy" "kernel lacks synproxy objects"
fi
finish
