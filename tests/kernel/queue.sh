#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: `queue` with traffic, and a listener of our own
# (kernel/nfq-verdict: nfnetlink_queue over libmnl) giving the verdicts.
# UDP datagrams to 127.0.0.1 in one namespace; an input chain at priority
# -10 counts and queues them, one rule per pair of destination ports, and
# an input chain at priority 10 counts, per port, what came through:
#  - `queue num 5` with the listener accepting port 6001 and dropping the
#    rest: what passes is what it accepted, and its counts add up;
#  - `queue num 6 bypass` and no listener: everything passes;
#  - `queue num 7` and no listener: everything is dropped;
#  - `queue num 2-3 fanout` with the listener on queues 2 and 3: every
#    datagram reaches one of them (by CPU), the accepted ones pass;
#  - `queue num 2-3` (no fanout): datagrams from 32 source addresses are
#    spread over both queues (by a hash of the addresses).
# nfh loads every rule.  On a kernel without nft_queue (the hosts') the
# load fails naming CONFIG_NFT_QUEUE, and the test skips.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root
require_cmd python3
NFQ=$REPO_DIR/kernel/nfq-verdict
if [ ! -x "$NFQ" ]; then
	echo "# kernel/nfq-verdict is not built (make)"
	exit 77
fi

ns_new NS || exit 99
if ! out=$(tool "$NS" -f - 2>&1 <<'EOF'
table inet q {
	chain queueing {
		type filter hook input priority -10; policy accept;
		udp dport { 6001, 6002 } counter queue num 5 comment "q5"
		udp dport { 6011, 6012 } counter queue num 6 bypass comment "q6"
		udp dport { 6021, 6022 } counter queue num 7 comment "q7"
		udp dport { 6031, 6032 } counter queue num 2-3 fanout comment "q2-3"
		udp dport 6041 counter queue num 2-3 comment "q2-3h"
	}
	chain passed {
		type filter hook input priority 10; policy accept;
		udp dport 6001 counter drop comment "p6001"
		udp dport 6002 counter drop comment "p6002"
		udp dport 6011 counter drop comment "p6011"
		udp dport 6012 counter drop comment "p6012"
		udp dport 6021 counter drop comment "p6021"
		udp dport 6022 counter drop comment "p6022"
		udp dport 6031 counter drop comment "p6031"
		udp dport 6032 counter drop comment "p6032"
		udp dport 6041 counter drop comment "p6041"
	}
}
EOF
); then
	case $out in
	*"no queue support (CONFIG_NFT_QUEUE"*)
		ok "without nft_queue: refused, naming CONFIG_NFT_QUEUE"
		echo "# kernel lacks queue (CONFIG_NFT_QUEUE)"
		exit 77 ;;
	esac
	not_ok "the queue rules load"
	printf '%s\n' "$out" | diag
	finish
fi
ok "the queue rules load"
dir=$(tmpdir)

# send N PORT...: N rounds of one datagram to each PORT on 127.0.0.1
send() {
	in_ns "$NS" python3 - "$@" <<'PY'
import socket, sys
n, ports = int(sys.argv[1]), [int(p) for p in sys.argv[2:]]
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for i in range(n):
    for p in ports:
        s.sendto(b"nfhook-queue-%d" % i, ("127.0.0.1", p))
PY
}
# listen NAME ARGS...: nfq-verdict ARGS in the namespace, in the
# background, its output in $dir/NAME; one TAP line for whether it has
# bound its queues (waited for, bounded)
listen() {
	local name=$1
	shift
	ip netns exec "$NS" "$NFQ" "$@" >"$dir/$name" 2>&1 &
	LISTENER=$!
	if retry 300 grep -qx bound "$dir/$name"; then
		ok "a listener binds queue(s) $*"
	else
		not_ok "a listener binds queue(s) $*"
		diag <"$dir/$name"
	fi
}
# verdicts NAME: wait for the listener to stop (after its -n packets, or
# its -t seconds without one), and print its counts
verdicts() {
	wait "$LISTENER"
	grep -v '^bound$' "$dir/$1"
}
pkts() { packets "$NS" "comment \"$1\""; }

# queue num 5: the listener accepts port 6001, drops 6002
listen q5 -q 5 -a 6001 -n 10 -t 60
send 5 6001 6002
verdicts q5 >"$dir/q5.out"
got=$(cat "$dir/q5.out")
expect_eq "the listener: 10 packets on queue 5, 5 accepted, 5 dropped" \
	"queue 5 packets 10
accepted 5
dropped 5" "$got"
echo "# queue 5 verdicts: $(tr "\n" " " <<<"$got")"
expect_eq "queue num 5 counted 10" 10 "$(pkts q5)"
expect_eq "what passes is what the listener accepted: port 6001, 5" 5 "$(pkts p6001)"
expect_eq "what the listener dropped does not pass: port 6002, 0" 0 "$(pkts p6002)"

# queue num 6 bypass, no listener: they pass
send 3 6011 6012
retry 50 packets_are "$NS" 'comment "q6"' 6
expect_eq "queue num 6 bypass counted 6" 6 "$(pkts q6)"
expect_eq "bypass without a listener: port 6011 passes, 3" 3 "$(pkts p6011)"
expect_eq "bypass without a listener: port 6012 passes, 3" 3 "$(pkts p6012)"

# queue num 7, no bypass, no listener: they are dropped
send 3 6021 6022
retry 50 packets_are "$NS" 'comment "q7"' 6
expect_eq "queue num 7 counted 6" 6 "$(pkts q7)"
expect_eq "no bypass, no listener: port 6021 dropped" 0 "$(pkts p6021)"
expect_eq "no bypass, no listener: port 6022 dropped" 0 "$(pkts p6022)"

# queue num 2-3 fanout: queue 2 + the CPU number modulo 2
listen q23 -q 2 -q 3 -a 6031 -n 8 -t 60
send 4 6031 6032
verdicts q23 >"$dir/q23.out"
got=$(cat "$dir/q23.out")
echo "# queue 2-3 fanout verdicts: $(tr "\n" " " <<<"$got")"
q2=$(sed -n 's/^queue 2 packets //p' <<<"$got")
q3=$(sed -n 's/^queue 3 packets //p' <<<"$got")
expect_eq "fanout: queues 2 and 3 got the 8 packets between them" 8 "$((q2 + q3))"
expect_eq "fanout: 4 accepted, 4 dropped" "accepted 4
dropped 4" "$(grep -v '^queue' <<<"$got")"
if [ "$(nproc)" = 1 ]; then
	expect_eq "fanout on one CPU (CPU 0): all on queue 2" "8 0" "$q2 $q3"
fi
expect_eq "queue num 2-3 fanout counted 8" 8 "$(pkts q2-3)"
expect_eq "fanout: what passes is what the listener accepted: port 6031, 4" 4 "$(pkts p6031)"
expect_eq "fanout: port 6032 dropped" 0 "$(pkts p6032)"

# queue num 2-3: by a hash of the addresses (with a random seed; all 32 on
# one queue has a probability of 2^-31)
listen q23h -q 2 -q 3 -a 6041 -n 32 -t 60
in_ns "$NS" python3 - <<'PY'
import socket
for i in range(1, 33):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("127.0.1.%d" % i, 0))
    s.sendto(b"nfhook-queue-hash", ("127.0.0.1", 6041))
PY
verdicts q23h >"$dir/q23h.out"
got=$(cat "$dir/q23h.out")
echo "# queue 2-3 verdicts: $(tr "\n" " " <<<"$got")"
q2=$(sed -n 's/^queue 2 packets //p' <<<"$got")
q3=$(sed -n 's/^queue 3 packets //p' <<<"$got")
expect_eq "by hash: queues 2 and 3 got the 32 packets between them" 32 "$((q2 + q3))"
check "by hash: both queues got some ($q2 and $q3)" test "$q2" -gt 0 -a "$q3" -gt 0
expect_eq "by hash: what passes is what the listener accepted, 32" 32 "$(pkts p6041)"
finish
