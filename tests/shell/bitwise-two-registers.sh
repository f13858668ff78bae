#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: a meta or ct key set from two values of the packet (nft 1.2's
# "meta mark set ct mark & 0xffff0000 | meta mark & 0xffff", the kernel's
# bitwise of two registers, Linux 6.13) computes on real packets what it
# says, for |, ^ and &; the rules list back as they were written, and the
# listing loads again to the same listing; the derived message of
# kernel-refusal-words (such a rule, written from the kernel's attribute
# layout) is one this kernel takes and nfh lists
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root

ns_pair "10.9.1.1/24" "10.9.1.2/24" || exit 99
load "$NS_B" <<'EOF2'
table ip t {
	chain pre {
		type filter hook prerouting priority 0; policy accept;
		icmp type echo-request meta mark set 0xaaaa5678
		icmp type echo-request ct mark set 0x1234abcd
		icmp type echo-request meta mark set ct mark & 0xffff0000 | meta mark & 0xffff
		meta mark 0x12345678 counter comment "or"
		icmp type echo-request ct mark set meta mark ^ ct mark
		ct mark 0x0000fdb5 counter comment "xor"
		icmp type echo-request meta mark set meta mark & (ct mark | 0xff000000)
		meta mark 0x12005430 counter comment "and"
		meta mark 0xaaaa5678 counter comment "unchanged"
	}
}
EOF2
ping_from "$NS_A" 10.9.1.2 3
expect_eq "the pings got through" 0 $?
expect_packets "ct mark & 0xffff0000 | meta mark & 0xffff made 0x12345678" "$NS_B" 'comment "or"' 3
expect_packets "meta mark ^ ct mark made 0xfdb5" "$NS_B" 'comment "xor"' 3
expect_packets "meta mark & (ct mark | 0xff000000) made 0x12005430" "$NS_B" 'comment "and"' 3
expect_eq "no rule saw the mark unchanged" 0 "$(packets "$NS_B" 'comment "unchanged"')"

listing=$(tool "$NS_B" list ruleset)
if printf '%s\n' "$listing" |
	grep -Fq 'meta mark set ct mark & 0xffff0000 | meta mark & 0x0000ffff' &&
	printf '%s\n' "$listing" | grep -Fq 'ct mark set meta mark ^ ct mark' &&
	printf '%s\n' "$listing" |
	grep -Fq 'meta mark set meta mark & (ct mark | 0xff000000)'; then
	ok "the rules list as they were written"
else
	not_ok "the rules list as they were written"
	printf '%s\n' "$listing" | diag
fi
ns_new NS_C || exit 99
printf '%s\n' "$listing" | load "$NS_C" "the listing loads again"
expect_eq "... and lists the same" "$listing" "$(tool "$NS_C" list ruleset)"

# the message kernel-refusal-words/ip-bitwise-pair.derived.hex holds, written
# from the kernel's attribute layout, is one this kernel takes, sent in a
# batch of its own; nfh lists the rule it makes
ns_new NS_D || exit 99
in_ns "$NS_D" python3 - "$REPO_DIR/tests/shell/kernel-refusal-words/ip-bitwise-pair.derived.hex" <<'PY'
import socket, struct, sys
rule = bytearray.fromhex(open(sys.argv[1]).readline().strip())
def attr(t, p):
    n = 4 + len(p)
    return struct.pack('=HH', n, t) + p + b'\0' * ((4 - n % 4) % 4)
def msg(t, flags, seq, body):
    return struct.pack('=IHHII', 16 + len(body), t, flags, seq, 0) + body
res = struct.pack('=BBH', 0, 0, socket.htons(10))
fam = struct.pack('=BBH', 2, 0, 0)
struct.pack_into('=HI', rule, 6, 0x0c05 | 0x4, 4)
batch = (msg(0x10, 1, 1, res) +
         msg(0x0a00, 0x405, 2, fam + attr(1, b't\0')) +
         msg(0x0a03, 0x405, 3, fam + attr(1, b't\0') + attr(3, b'c\0')) +
         bytes(rule) + msg(0x11, 1, 5, res))
s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 12)
s.bind((0, 0))
s.send(batch)
s.settimeout(1)
acks = {}
try:
    while len(acks) < 3:
        d = s.recv(65536)
        off = 0
        while off < len(d):
            n, t, _, seq, _ = struct.unpack_from('=IHHII', d, off)
            if t == 2:
                acks[seq] = struct.unpack_from('=i', d, off + 16)[0]
            off += (n + 3) & ~3
except socket.timeout:
    pass
sys.exit(0 if acks == {2: 0, 3: 0, 4: 0} else 1)
PY
expect_eq "this kernel takes the derived message" 0 $?
expect_eq "... and nfh lists its rule" "		meta mark set ct mark | meta mark" \
	"$(tool "$NS_D" list ruleset | grep 'meta mark set')"
finish
