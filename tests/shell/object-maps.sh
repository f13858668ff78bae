#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: a named map of counters counts echoes per source address, elements
# added and deleted later steer the counting, and nft lists object maps
# (ct helper ones and typeof keys too) as nfh does
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root
require_cmd nft
require_cmd python3

ns_pair 10.0.0.1/24 10.0.0.2/24
ip -n "$NS_A" addr add 10.0.0.3/24 dev "$VETH_A"

load "$NS_B" <<EOF2
table ip t {
	counter from1 {
	}

	counter from3 {
	}

	map bysrc {
		type ipv4_addr : counter
		elements = { 10.0.0.1 : "from1", 10.0.0.3 : "from3" }
	}

	chain in {
		type filter hook input priority 0;
		icmp type echo-request counter name ip saddr map @bysrc
	}
}
EOF2

# obj_packets NS NAME: "packets N" of counter NAME as "list counter" shows it
obj_packets() {
	tool "$1" list counter ip t "$2" | sed -n 's/.*packets \([0-9]*\) bytes.*/\1/p'
}
obj_packets_are() { [ "$(obj_packets "$1" "$2")" = "$3" ]; }

expect_eq "2 echoes from 10.0.0.1 are answered" 2 \
	"$(replies_from "$NS_A" 10.0.0.2 2 10.0.0.1)"
expect_eq "3 echoes from 10.0.0.3 are answered" 3 \
	"$(replies_from "$NS_A" 10.0.0.2 3 10.0.0.3)"
retry 20 obj_packets_are "$NS_B" from3 3
expect_eq "the map counts 10.0.0.1's echoes in from1" 2 "$(obj_packets "$NS_B" from1)"
expect_eq "the map counts 10.0.0.3's echoes in from3" 3 "$(obj_packets "$NS_B" from3)"

# 10.0.0.3 now goes to from1; 10.0.0.1 is no longer counted
check "delete element" tool "$NS_B" delete element ip t bysrc '{ 10.0.0.1, 10.0.0.3 }'
check "add element" tool "$NS_B" add element ip t bysrc '{ 10.0.0.3 : "from1" }'
replies_from "$NS_A" 10.0.0.2 1 10.0.0.1 >/dev/null
replies_from "$NS_A" 10.0.0.2 4 10.0.0.3 >/dev/null
retry 20 obj_packets_are "$NS_B" from1 6
expect_eq "from1 counts the new element's echoes only" 6 "$(obj_packets "$NS_B" from1)"
expect_eq "from3 no longer counts" 3 "$(obj_packets "$NS_B" from3)"

check "an element naming a missing counter is refused" \
	sh -c "! ip netns exec $NS_B $TOOL add element ip t bysrc '{ 10.0.0.9 : \"nope\" }' 2>/dev/null"
check "a counter a map names cannot be deleted" \
	sh -c "! ip netns exec $NS_B $TOOL delete counter ip t from1 2>/dev/null"

expect_eq "nft lists the counter map as nfh does" \
	"$(in_ns "$NS_B" nft list ruleset)" "$(tool "$NS_B" list ruleset)"

# maps nft 1.0.6 lists but cannot declare: ct helper values, typeof keys
load "$NS_B" "ct helper and typeof object maps load" <<EOF2
table ip h {
	ct helper ftp {
		type "ftp" protocol tcp
	}

	map hm {
		type ipv4_addr : ct helper
		elements = { 10.0.0.1 : "ftp" }
	}

	map tm {
		typeof ip daddr : quota
	}

	quota q {
		over 1 mbytes
	}

	chain pre {
		type filter hook prerouting priority 0;
		ct helper set ip saddr map @hm
		quota name ip daddr map @tm
	}
}
EOF2
check "add element to a typeof quota map" \
	tool "$NS_B" add element ip h tm '{ 10.0.0.2 : "q" }'
expect_eq "nft lists the ct helper and typeof maps as nfh does" \
	"$(in_ns "$NS_B" nft list table ip h)" "$(tool "$NS_B" list table ip h)"
dir=$(tmpdir)
in_ns "$NS_B" nft -j list table ip h >"$dir/nft.json"
tool "$NS_B" -j list table ip h >"$dir/nfh.json"
python3 "$REPO_DIR/tests/json-equal.py" "nft -j lists them as nfh -j does" \
	"$dir/nft.json" "$dir/nfh.json" || FAILED=$((FAILED + 1))
finish
