#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: nft's debug levels: --debug=scanner and --debug=parser print the
# scanner's and the parser's traces (flex's and bison's) on standard
# error, and nothing on standard output; --debug=proto-ctx prints the
# protocol context of each rule as nft prints it (nft prints a block again
# when a match names the header known already, nfh only when it changes:
# compared with nft's repeats collapsed); --debug=all has them all;
# --debug=foo is refused
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
dir=$(tmpdir)
cat >"$dir/in.nft" <<'RULES'
table inet t {
	chain c {
		meta nfproto ipv6 udp dport 53 accept
		tcp dport 22 ip saddr 1.1.1.1
		meta l4proto icmp icmp type echo-request
	}
}
table netdev n {
	chain c {
		ip6 saddr ::1 udp sport 1
	}
}
table ip i {
	chain c {
		tcp dport 22 accept
	}
}
RULES
# shellcheck disable=SC2086
run() { $TOOL --offline -c "$@" -f "$dir/in.nft"; }
out=$(run --debug=scanner 2>"$dir/err")
expect_eq "scanner: nothing on standard output" "" "$out"
grep -q '^--accepting rule at line [0-9]* ("icmp")$' "$dir/err" &&
	ok "scanner: flex's trace of each word on standard error" ||
	not_ok "scanner: flex's trace of each word on standard error"
out=$(run --debug=parser 2>"$dir/err")
expect_eq "parser: nothing on standard output" "" "$out"
grep -q '^Starting parse$' "$dir/err" && grep -q '^Reading a token$' "$dir/err" &&
	ok "parser: bison's trace on standard error" ||
	not_ok "parser: bison's trace on standard error"
collapse() { awk 'BEGIN { RS = ""; ORS = "\n\n" } $0 != prev { print } { prev = $0 }'; }
got=$(run --debug=proto-ctx 2>&1 | collapse)
case $got in
"update link layer protocol context:
 link layer          : inet <-
 network layer       : none
 transport layer     : none
 payload data        : none

update network layer protocol context:
 link layer          : inet
 network layer       : ip6 <-"*) ok "proto-ctx: the blocks nft prints" ;;
*) not_ok "proto-ctx: the blocks nft prints"; printf '%s\n' "$got" | head -8 | diag ;;
esac
if command -v nft >/dev/null && [ "$(id -u)" -eq 0 ]; then
	want=$(unshare -n nft -c --debug=proto-ctx -f "$dir/in.nft" 2>/dev/null | collapse)
	expect_eq "proto-ctx: as nft prints it" "$want" "$got"
fi
out=$(run --debug=all 2>&1)
grep -q '^--accepting rule' <<<"$out" && grep -q '^Starting parse$' <<<"$out" &&
	grep -q ' transport layer     : udp <-' <<<"$out" &&
	grep -q 'payload load 2b @ transport header + 2' <<<"$out" &&
	ok "all: every level" || not_ok "all: every level"
# shellcheck disable=SC2086
out=$($TOOL --offline -c --debug=foo -f "$dir/in.nft" 2>&1)
rc=$?
expect_eq "an unknown level is refused" "1: nfh: invalid debug level \"foo\"" "$rc: $out"
finish
