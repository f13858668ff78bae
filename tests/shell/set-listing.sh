#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: named sets and maps of every kind list exactly as nft lists them
# (element order, interval pairing, concatenations, verdicts, counters,
# comments, timeouts), with list ruleset, list sets, list maps, list set,
# -s and -t; a few thousand random prefixes and addresses too
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root
require_cmd nft awk

ns_new NS
dir=$(tmpdir)

cat >"$dir/sets.nft" <<'EOF'
table inet t {
	set plain {
		type ipv4_addr
		elements = { 10.0.0.1, 1.2.3.4, 192.168.0.1, 255.255.255.255, 0.0.0.0 }
	}

	set prefixes {
		type ipv4_addr
		flags interval
		elements = { 10.0.0.0/8, 1.2.3.4-1.2.3.9, 192.168.0.1, 255.255.255.0/24, 0.0.0.0/16 }
	}

	set v6 {
		type ipv6_addr
		flags interval
		elements = { ::1, 2001:db8::/32, ffff::/16 }
	}

	set ports {
		type inet_service
		flags interval
		elements = { 1-100, 443, 8000-9000, 65535 }
	}

	set marks {
		type mark
		elements = { 1, 2, 3, 256, 65536, 7, 8, 9, 10, 0x7fffffff }
	}

	set mark_ranges {
		type mark
		flags interval
		elements = { 1-10, 0x100-0x200, 0x10000, 0xffffff00-0xfffffffe }
	}

	set names {
		type ifname
		elements = { "eth0", "lo", "a", "zz", "abc" }
	}

	set macs {
		type ether_addr
		elements = { 00:11:22:33:44:55, 02:00:00:00:00:01 }
	}

	set pairs {
		type ipv4_addr . inet_service
		elements = { 10.0.0.1 . 22, 1.2.3.4 . 80, 10.0.0.1 . 443 }
	}

	set pair_ranges {
		type ipv4_addr . ipv4_addr
		flags interval
		elements = { 10.0.0.0/8 . 1.1.1.1, 10.0.0.0/8 . 2.2.2.0/24,
			     192.168.1.1-192.168.1.5 . 3.3.3.3, 1.0.0.0/8 . 9.9.9.9 }
	}

	set extras {
		type ipv4_addr
		flags timeout
		counter
		elements = { 10.0.0.1 timeout 1h comment "first", 1.1.1.1, 2.2.2.2 comment "" }
	}

	set empty {
		type ipv4_addr
	}

	map verdicts {
		type ipv4_addr : verdict
		elements = { 10.0.0.1 : drop, 1.2.3.4 : jump c1, 5.5.5.5 : goto c1, 6.6.6.6 : accept }
	}

	map values {
		type ipv4_addr : mark
		elements = { 10.0.0.1 : 5, 1.2.3.4 : 7 }
	}

	map to_pairs {
		type ipv4_addr : ipv4_addr . inet_service
		elements = { 10.0.0.1 : 1.1.1.1 . 80, 9.9.9.9 : 2.2.2.2 . 22 }
	}

	map range_verdicts {
		type ipv4_addr . inet_service : verdict
		flags interval
		elements = { 10.0.0.0/24 . 22-25 : accept, 1.1.1.1 . 80 : jump c1 }
	}

	chain c1 {
		ip saddr { 1.1.1.1, 2.2.2.2 } drop
		ip daddr @plain accept
	}
}
EOF
# random prefixes and addresses: the kernel lists them in its own order
awk 'BEGIN {
	srand(7)
	print "table ip big {"
	print "\tset p {\n\t\ttype ipv4_addr\n\t\tflags interval\n\t\telements = {"
	for (i = 0; i < 3000; i++) {
		len = 24 + int(rand() * 9)
		sz = 2 ^ (32 - len)
		off = int(rand() * 256)
		printf "\t\t\t%d.%d.%d.%d/%d,\n", 1 + int(i / 256), i % 256,
			int(rand() * 256), off - off % sz, len
	}
	print "\t\t}\n\t}"
	print "\tset a {\n\t\ttype ipv4_addr\n\t\telements = {"
	for (i = 0; i < 3000; i++)
		printf "\t\t\t%d.%d.%d.%d,\n", int(rand() * 256), int(rand() * 256),
			int(rand() * 256), int(rand() * 256)
	print "\t\t}\n\t}"
	print "\tset c {\n\t\ttype ipv4_addr . inet_service\n\t\telements = {"
	for (i = 0; i < 3000; i++)
		printf "\t\t\t%d.%d.%d.%d . %d,\n", int(rand() * 256), int(rand() * 256),
			int(rand() * 256), int(rand() * 256), int(rand() * 65535) + 1
	print "\t\t}\n\t}"
	print "}"
}' >"$dir/big.nft"

check "nft loads the sets" in_ns "$NS" nft -f "$dir/sets.nft"
check "nft loads the big sets" in_ns "$NS" nft -f "$dir/big.nft"

# expires counts down between the two listings
same_as_nft() {
	local what=$1
	shift
	tool "$NS" "$@" 2>&1 | sed 's/ expires [0-9a-z]*//' >"$dir/nfh.out"
	in_ns "$NS" nft "$@" 2>&1 | sed 's/ expires [0-9a-z]*//' >"$dir/nft.out"
	if cmp -s "$dir/nfh.out" "$dir/nft.out"; then
		ok "$what lists as nft lists it"
	else
		not_ok "$what lists as nft lists it"
		diff -u "$dir/nft.out" "$dir/nfh.out" | head -40 | diag
	fi
}

same_as_nft "list ruleset" list ruleset
same_as_nft "list sets" list sets
same_as_nft "list maps" list maps
same_as_nft "list set of an interval set" list set inet t prefixes
same_as_nft "list map of a verdict map" list map inet t verdicts
same_as_nft "-s list ruleset" -s list ruleset
same_as_nft "-t list ruleset" -t list ruleset

# and what nfh loads lists the same way
check "flush ruleset" in_ns "$NS" nft flush ruleset
check "nfh loads the sets" tool "$NS" -f "$dir/sets.nft"
check "nfh loads the big sets" tool "$NS" -f "$dir/big.nft"
same_as_nft "list ruleset after nfh loaded it" list ruleset
finish
