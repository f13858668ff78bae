#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: the nat forms with a port alone ("redirect to 9000" without its
# colon, "dnat to :9000") and "dnat ip addr . port to" a map of address .
# port send TCP connections to B's listener on port 9000
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_cmd python3

#   A 10.0.0.1 ---- B 10.0.0.2 (listens on 9000); A reaches 10.9.9.9 via B
ns_pair 10.0.0.1/24 10.0.0.2/24
ip -n "$NS_A" route add 10.9.9.0/24 via 10.0.0.2

ip netns exec "$NS_B" python3 -c '
import socket
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("0.0.0.0", 9000))
s.listen(16)
while True:
    c, _ = s.accept()
    c.close()
' &
retry 20 sh -c "ip netns exec $NS_B ss -ltn | grep -q ':9000 '"

load "$NS_B" <<EOF
table ip nat {
	chain pre {
		type nat hook prerouting priority dstnat; policy accept;
		tcp dport 8080 counter redirect to 9000 comment "redirect"
		tcp dport 8081 counter dnat to :9000 comment "port-only"
		meta l4proto tcp counter dnat ip addr . port to ip daddr map { 10.9.9.9 : 10.0.0.2 . 9000 } comment "addr-port"
	}
}
EOF

expect_eq "no rule for 8082: refused" refused "$(tcp_probe "$NS_A" 10.0.0.2 8082)"
expect_eq "redirect to 9000 reaches the listener" open "$(tcp_probe "$NS_A" 10.0.0.2 8080)"
expect_packets "the redirect rule counted the connection" "$NS_B" 'comment "redirect"' 1
expect_eq "dnat to :9000 reaches the listener" open "$(tcp_probe "$NS_A" 10.0.0.2 8081)"
expect_packets "the port-only rule counted the connection" "$NS_B" 'comment "port-only"' 1
expect_eq "addr . port from the map reaches the listener" open "$(tcp_probe "$NS_A" 10.9.9.9 80)"
check "redirect lists its port with a colon, as nft lists it" \
	listing_has "$NS_B" 'redirect to :9000'
check "the address . port rule lists as nft lists it" \
	listing_has "$NS_B" 'dnat ip to ip daddr map \{ 10\.9\.9\.9 : 10\.0\.0\.2 \. 9000 \}'
finish
