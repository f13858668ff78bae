#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: software flow offload of a TCP connection through an inet
# flowtable, with traffic.  Client, router and server namespaces, as in
# flowtable-offload.sh; the router's forward chain counts TCP and offloads
# it (`meta l4proto tcp flow add @f`).  One TCP connection, client to
# server port 6000, the server's input chain counting its packets:
#  - the handshake goes through the forward chain; the flow is offloaded
#    once conntrack holds it established and assured (the third packet,
#    the client's ACK: nft_flow_offload takes only such TCP flows, and no
#    packet with SYN, FIN or RST);
#  - the client then sends 10 and then 200 chunks of 1000 bytes in
#    separate writes, the server reads them all: the forward counter does
#    not move while the server's input counter grows with every segment;
#  - the client closes: FIN takes the flow out of the flowtable, and the
#    closing packets go through the forward chain again.
# nfh loads every rule; the figures are printed as "# " lines.  On a
# kernel without flowtables (the hosts') the load fails naming
# CONFIG_NF_FLOW_TABLE, and the test skips.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root
require_cmd python3

dir=$(tmpdir)
ns_new C || exit 99
ns_new R || exit 99
ns_new S || exit 99
link_ns "$C" c0 10.0.1.1/24 "$R" r0 10.0.1.254/24 || exit 99
link_ns "$R" r1 10.0.2.254/24 "$S" s0 10.0.2.1/24 || exit 99
in_ns "$C" ip route add default via 10.0.1.254 || exit 99
in_ns "$S" ip route add default via 10.0.2.254 || exit 99
in_ns "$R" sysctl -qw net.ipv4.ip_forward=1 || exit 99
if ! out=$(tool "$R" -f - 2>&1 <<'EOF'
table inet r {
	flowtable f { hook ingress priority 0; devices = { r0, r1 }; counter; }
	chain forward {
		type filter hook forward priority 0; policy accept;
		ct state invalid drop
		meta l4proto tcp counter comment "forward"
		meta l4proto tcp flow add @f
	}
}
EOF
); then
	case $out in
	*"no flowtable support (CONFIG_NF_FLOW_TABLE"* | *"no flow offload support (CONFIG_NFT_FLOW_OFFLOAD"*)
		echo "# kernel lacks flowtables (CONFIG_NF_FLOW_TABLE, CONFIG_NFT_FLOW_OFFLOAD)"
		exit 77 ;;
	esac
	not_ok "the router's flowtable and forward chain load"
	printf '%s\n' "$out" | diag
	finish
fi
ok "the router's flowtable and forward chain load"
load "$S" "the server's counting input chain loads" <<'EOF'
table inet s {
	chain in {
		type filter hook input priority 0; policy accept;
		tcp dport 6000 counter comment "server"
	}
}
EOF

fwd() { packets "$R" 'comment "forward"'; }
server() { packets "$S" 'comment "server"'; }
ct_line() { in_ns "$R" grep 'dport=6000' /proc/net/nf_conntrack; }
# shellcheck disable=SC2317 # called through retry and check
offloaded() { ct_line | grep -q '\[OFFLOAD\]'; }
# shellcheck disable=SC2317
not_offloaded() { ! offloaded; }

# the server: one connection, everything it reads counted into $dir/got
in_ns "$S" python3 - "$dir" <<'PY' &
import os, socket, sys
d = sys.argv[1]
ls = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
ls.bind(("10.0.2.1", 6000))
ls.listen(1)
open(os.path.join(d, "listening"), "w").close()
c, _ = ls.accept()
n = 0
while True:
    b = c.recv(65536)
    if not b:
        break
    n += len(b)
    with open(os.path.join(d, "got.tmp"), "w") as f:
        f.write("%d\n" % n)
    os.replace(os.path.join(d, "got.tmp"), os.path.join(d, "got"))
c.close()
open(os.path.join(d, "closed"), "w").close()
PY
server_pid=$!
retry 100 test -e "$dir/listening" || { not_ok "the server listens"; finish; }

# the client: connects, sends 10 chunks, waits for "go", sends 200, waits
# for "close", closes; each chunk its own write, TCP_NODELAY
in_ns "$C" python3 - "$dir" <<'PY' &
import os, socket, sys, time
d = sys.argv[1]
def wait(name):
    while not os.path.exists(os.path.join(d, name)):
        time.sleep(0.05)
def send(n):
    for i in range(n):
        s.sendall(b"x" * 1000)
        time.sleep(0.01)
    open(os.path.join(d, "sent%d" % n), "w").close()
s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
s.bind(("10.0.1.1", 40001))
s.connect(("10.0.2.1", 6000))
send(10)
wait("go")
send(200)
wait("close")
s.close()
PY
client_pid=$!
got() { cat "$dir/got" 2>/dev/null; }
# shellcheck disable=SC2317 # called through retry
got_is() { [ "$(got)" = "$1" ]; }

retry 200 got_is 10000
expect_eq "the first 10 chunks reach the server" 10000 "$(got)"
check "the connection is offloaded" retry 50 offloaded
sleep 1
f1=$(fwd) s1=$(server)
echo "# after the handshake and 10 chunks: forward chain $f1 packets, server input $s1 packets; conntrack: $(ct_line)"
check "only the first packets went through the forward chain (at most 4 of $s1)" test "$f1" -le 4

touch "$dir/go"
retry 400 got_is 210000
expect_eq "200 more chunks reach the server" 210000 "$(got)"
sleep 1
f2=$(fwd) s2=$(server)
echo "# after 200 more chunks: forward chain $f2 packets, server input $s2 packets"
expect_eq "offloaded: the forward counter did not move" "$f1" "$f2"
check "while the server counted at least 100 more segments ($s1 -> $s2)" test $((s2 - s1)) -ge 100
check "the connection is still offloaded" offloaded

touch "$dir/close"
retry 200 test -e "$dir/closed"
check "the server saw the close" test -e "$dir/closed"
check "FIN takes the flow out of the flowtable" retry 50 not_offloaded
sleep 1
f3=$(fwd) s3=$(server)
echo "# after the close: forward chain $f3 packets, server input $s3 packets"
check "the closing packets go through the forward chain again ($f2 -> $f3)" test "$f3" -gt "$f2"
wait "$client_pid" "$server_pid" 2>/dev/null
finish
