#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: nft's debug levels: --debug=scanner and --debug=parser print the
# scanner's and the parser's traces (flex's and bison's) on standard
# error, and nothing on standard output; --debug=proto-ctx prints the
# protocol context of each rule as nft 1.0.6 prints it, byte for byte: a
# block for each header a match names, the one known already too; twice
# for the network or transport header of a dependency nft adds; one for
# each element of a set of protocols; a vlan tag as the link layer, after
# " saved ll headers: ether"; the rules in the file's order (one with an
# anonymous set too); --debug=all has them all; --debug=foo is refused
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
		meta l4proto { tcp, udp } th dport 1
		ip protocol tcp ip protocol tcp
	}
}
table bridge b {
	chain c {
		vlan id 5 vlan type 8021q vlan id 6 ip saddr 1.1.1.1
		ether type vlan vlan type ip udp dport 5
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
got=$(run --debug=proto-ctx 2>&1)
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
# the blocks each base gets, in order (nft 1.0.6's, as it printed them)
bases=$(printf '%s\n' "$got" | sed -n 's/^\( saved ll headers:.*\)\{0,1\}update \([a-z]*\) layer protocol context:$/\2/p' | tr '\n' ' ')
expect_eq "proto-ctx: a block for each header named, repeats and dependencies twice" \
	"link network transport transport link transport transport network network link transport link network network transport transport network transport transport network transport transport network transport transport link link link network network link link network transport transport " \
	"$bases"
expect_eq "proto-ctx: a vlan tag is the link layer, the headers below it saved" \
	3 "$(printf '%s\n' "$got" | grep -c '^ saved ll headers: ether vlanupdate link layer protocol context:$\| saved ll headers: etherupdate link layer protocol context:$')"
check "proto-ctx: each element of a set of protocols" sh -c 'printf "%s\n" "$1" |
	grep -A3 "^update transport layer" | grep -q "transport layer     : udp <-"' sh "$got"
if command -v nft >/dev/null && [ "$(id -u)" -eq 0 ]; then
	want=$(unshare -n nft -c --debug=proto-ctx -f "$dir/in.nft" 2>/dev/null)
	expect_eq "proto-ctx: as nft 1.0.6 prints it, byte for byte" "$want" "$got"
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
