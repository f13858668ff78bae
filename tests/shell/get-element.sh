#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: "get element" lists a set with only the elements that hold the
# values asked for (a value inside a range gets the range), as nft does, in
# text and JSON, from JSON input too, and offline; a value in no element is
# an error under that value, with nothing printed; "reset element" lists
# the per-element counters that real traffic raised and zeroes exactly
# those, "reset set" all of them; interface-name wildcards in sets ("veth-*") match real traffic
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_feature netdev_ingress

ns_pair 10.0.0.1/24 10.0.0.2/24
ip -n "$NS_A" addr add 10.0.0.9/24 dev "$VETH_A"
dir=$(tmpdir)

cat >"$dir/rules.nft" <<EOF
table netdev t {
	set blk {
		type ipv4_addr
		flags interval
		counter
		elements = { 10.0.0.0/29, 10.0.0.9, 10.1.0.1-10.1.0.9, 192.168.1.1 }
	}

	set nets {
		type ipv4_addr
		flags interval
		elements = { 10.0.0.0/29, 10.0.0.9, 10.1.0.1-10.1.0.9, 192.168.1.1 }
	}

	set pairs {
		type ipv4_addr . inet_service
		elements = { 1.1.1.1 . 22, 2.2.2.2 . 80 }
	}

	set boxes {
		type ipv4_addr . inet_service
		flags interval
		elements = { 1.1.1.0/24 . 22-25 }
	}

	set names {
		type ifname
		flags interval
		elements = { "lo", "nomatch*", "${VETH_B%b}*" }
	}

	map vm {
		type ipv4_addr . inet_proto : verdict
		elements = { 1.2.3.4 . tcp : jump c, 1.2.3.4 . udp : accept }
	}

	chain c {
	}

	chain in {
		type filter hook ingress device "$VETH_B" priority 0; policy accept;
		iifname @names icmp type echo-request counter comment "names"
		ip saddr @blk
	}
}
EOF
load "$NS_B" <"$dir/rules.nft"

get() { tool "$NS_B" get element netdev t "$@" 2>&1; }

expect_eq "a value inside a prefix gets the prefix" "table netdev t {
	set blk {
		type ipv4_addr
		flags interval
		counter
		elements = { 10.0.0.0/29 counter packets 0 bytes 0 }
	}
}" "$(get blk '{ 10.0.0.5 }')"
expect_eq "a range inside a range gets the range; a single value itself" \
	"		elements = { 10.0.0.9 counter packets 0 bytes 0, 10.1.0.1-10.1.0.9 counter packets 0 bytes 0 }" \
	"$(get blk '{ 10.1.0.2-10.1.0.4, 10.0.0.9 }' | grep elements)"
expect_eq "concatenations are found whole" \
	"		elements = { 2.2.2.2 . 80 }" "$(get pairs '{ 2.2.2.2 . 80 }' | grep elements)"
expect_eq "a concatenated interval holds a value when each field does" \
	"		elements = { 1.1.1.0/24 . 22-25 }" "$(get boxes '{ 1.1.1.7 . 24 }' | grep elements)"
expect_eq "a verdict map lists its element with the verdict" \
	"		elements = { 1.2.3.4 . tcp : jump c }" "$(get vm '{ 1.2.3.4 . tcp }' | grep elements)"
expect_eq "a name under a wildcard gets the wildcard" \
	"		elements = { \"${VETH_B%b}*\" }" "$(get names "{ \"$VETH_B\" }" | grep elements)"

out=$(tool "$NS_B" get element netdev t blk '{ 10.0.0.5, 10.0.0.10 }' 2>"$dir/err")
rc=$?
expect_eq "a value in no element fails, and nothing is listed" "1:" "$rc:$out"
expect_eq "the error is under that value" "Error: element not found in set blk
get element netdev t blk { 10.0.0.5, 10.0.0.10 }
                                     ^^^^^^^^^" "$(cat "$dir/err")"
expect_eq "a range that only overlaps an element is not in it" \
	"Error: element not found in set blk" "$(get blk '{ 10.0.0.4-10.0.0.9 }' | head -n 1)"
expect_eq "a concatenation with one field outside is not in it" \
	"Error: element not found in set boxes" "$(get boxes '{ 1.1.1.7 . 26 }' | head -n 1)"
expect_eq "a missing set is named" \
	"Error: set \"nope\" does not exist in table netdev t" "$(get nope '{ 1.1.1.1 }' | head -n 1)"

if command -v nft >/dev/null; then
	# (nft 1.0.6 leaves counters out of what it gets: nets has none)
	for q in 'nets { 10.0.0.5 }' 'nets { 192.168.1.1 }' 'nets { 10.1.0.1-10.1.0.9 }' \
		 'nets { 10.0.0.9, 10.1.0.2 }' \
		 'pairs { 1.1.1.1 . 22 }' 'vm { 1.2.3.4 . udp }'; do
		# shellcheck disable=SC2086 # the words of $q are arguments
		expect_eq "get element netdev t $q lists as nft lists it" \
			"$(in_ns "$NS_B" nft get element netdev t $q 2>&1)" \
			"$(get $q)"
	done
else
	echo "ok - get element lists as nft does # SKIP no nft"
fi

check "-j get element lists the set with the element in JSON" sh -c \
	'ip netns exec "$1" $2 -j get element netdev t blk "{ 10.0.0.5 }" |
	 python3 -c "import json, sys
s = json.load(sys.stdin)[\"nftables\"][1][\"set\"]
assert s[\"name\"] == \"blk\", s
assert s[\"elem\"] == [{\"elem\": {\"val\": {\"prefix\": {\"addr\": \"10.0.0.0\", \"len\": 29}}, \"counter\": {\"packets\": 0, \"bytes\": 0}}}], s[\"elem\"]"' \
	sh "$NS_B" "$TOOL"
echo '{"nftables": [{"get": {"element": {"family": "netdev", "table": "t", "name": "pairs", "elem": [{"concat": ["1.1.1.1", 22]}]}}}]}' >"$dir/get.json"
expect_eq "JSON input gets elements too" "[{'concat': ['1.1.1.1', 22]}]" \
	"$(tool "$NS_B" -j -f "$dir/get.json" |
	   python3 -c 'import json, sys; print(json.load(sys.stdin)["nftables"][1]["set"]["elem"])')"
expect_eq "offline, get element answers from the file" "		elements = { 10.1.0.1-10.1.0.9 counter packets 0 bytes 0 }" \
	"$( { cat "$dir/rules.nft"; echo 'get element netdev t blk { 10.1.0.5 }'; } |
	    $TOOL --offline -f - | grep elements)"

# traffic: 3 pings from 10.0.0.1 (in 10.0.0.0/29), 2 from 10.0.0.9
ping_from "$NS_A" 10.0.0.2 3 10.0.0.1
ping_from "$NS_A" 10.0.0.2 2 10.0.0.9
expect_packets "the wildcard \"${VETH_B%b}*\" matches packets on $VETH_B" "$NS_B" 'comment "names"' 5
retry 20 sh -c 'ip netns exec "$1" $2 get element netdev t blk "{ 10.0.0.1 }" | grep -q "packets 3 "' \
	sh "$NS_B" "$TOOL"
expect_eq "get element shows the element's counter" \
	"		elements = { 10.0.0.0/29 counter packets 3 bytes 252 }" \
	"$(get blk '{ 10.0.0.1 }' | grep elements)"
expect_eq "reset element lists the counters as they were" \
	"		elements = { 10.0.0.0/29 counter packets 3 bytes 252 }" \
	"$(tool "$NS_B" reset element netdev t blk '{ 10.0.0.3 }' 2>&1 | grep elements)"
expect_eq "and zeroes that element's counter only" \
	"		elements = { 10.0.0.0/29 counter packets 0 bytes 0, 10.0.0.9 counter packets 2 bytes 168 }" \
	"$(get blk '{ 10.0.0.1, 10.0.0.9 }' | grep elements)"
out=$(tool "$NS_B" reset element netdev t blk '{ 10.0.0.9, 10.0.0.10 }' 2>&1)
expect_eq "reset element with a value in no element resets nothing" \
	"Error: element not found in set blk|		elements = { 10.0.0.9 counter packets 2 bytes 168 }" \
	"$(echo "$out" | head -n 1)|$(get blk '{ 10.0.0.9 }' | grep elements)"
expect_eq "-j reset element lists the counter in JSON" 2 \
	"$(tool "$NS_B" -j reset element netdev t blk '{ 10.0.0.9 }' |
	   python3 -c 'import json, sys; print(json.load(sys.stdin)["nftables"][1]["set"]["elem"][0]["elem"]["counter"]["packets"])')"
expect_eq "and resets it" "		elements = { 10.0.0.9 counter packets 0 bytes 0 }" \
	"$(get blk '{ 10.0.0.9 }' | grep elements)"
ping_from "$NS_A" 10.0.0.2 2 10.0.0.1
retry 20 sh -c 'ip netns exec "$1" $2 get element netdev t blk "{ 10.0.0.1 }" | grep -q "packets 2 "' \
	sh "$NS_B" "$TOOL"
expect_eq "reset set lists every element as it was" \
	"		elements = { 10.0.0.0/29 counter packets 2 bytes 168, 10.0.0.9 counter packets 0 bytes 0," \
	"$(tool "$NS_B" reset set netdev t blk 2>&1 | grep elements)"
expect_eq "and zeroes them all" "		elements = { 10.0.0.0/29 counter packets 0 bytes 0 }" \
	"$(get blk '{ 10.0.0.1 }' | grep elements)"
ping_from "$NS_A" 10.0.0.2 1 10.0.0.9
retry 20 sh -c 'ip netns exec "$1" $2 get element netdev t blk "{ 10.0.0.9 }" | grep -q "packets 1 "' \
	sh "$NS_B" "$TOOL"
echo '{"nftables": [{"reset": {"element": {"family": "netdev", "table": "t", "name": "blk", "elem": ["10.0.0.9"]}}}]}' >"$dir/reset.json"
expect_eq "JSON input resets elements too" 1 \
	"$(tool "$NS_B" -j -f "$dir/reset.json" |
	   python3 -c 'import json, sys; print(json.load(sys.stdin)["nftables"][1]["set"]["elem"][0]["elem"]["counter"]["packets"])')"
expect_eq "reset element offline is refused" \
	"Error: reset element needs the kernel's set: it cannot run with --offline" \
	"$( { cat "$dir/rules.nft"; echo 'reset element netdev t blk { 10.1.0.5 }'; } |
	    $TOOL --offline -f - 2>&1 | head -n 1 | sed 's/^[^ ]* Error/Error/')"
finish
