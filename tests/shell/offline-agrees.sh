#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: --offline ends where the kernel ends.  Each file is loaded into a
# fresh namespace (handles from 1) and into the offline model; the exit
# status and the listing must be the same: deleting chains, sets and tables
# by handle, a chain deleted with its rules but not while jumped to,
# "flush table" of a table that has no chain yet, named counters whose name
# fills 4 bytes, destroy of what is missing, elements that clash with what a
# set holds (an interval inside or around another, a map key with another
# value, create element of one held), devices added to and removed from a
# base chain, and the JSON form.  Where nft
# knows the commands, nft loading the file must agree too.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root

dir=$(tmpdir)
cd "$dir" || exit 99
have_nft=0
command -v nft >/dev/null && have_nft=1
DUMMIES=

base='table inet t {
	set s {
		type ipv4_addr
		elements = { 10.0.0.1 }
	}

	counter cnt4 {
	}

	chain c {
		counter name cnt4 accept
	}

	chain d {
		jump c
	}
}
table inet u {
}'

# agree NAME NFT-TOO: NAME.nft (or NAME.json, with -j) loaded both ways
agree() {
	local name=$1 nft_too=$2 f=$1.nft j= list='list ruleset' want got
	if [ -f "$name.json" ]; then
		f=$name.json j=-j list='{"list": {"ruleset": null}}'
	fi
	ns_new NS || exit 99
	[ -z "$DUMMIES" ] || dummies "$NS"
	want=$(tool "$NS" $j -f "$f" 2>/dev/null; echo "rc=$?"; tool "$NS" $j list ruleset)
	if [ -n "$j" ]; then
		got=$(sed 's/]}[[:space:]]*$/, '"$list"']}/' "$f" |
		      $TOOL --offline -j -f - 2>/dev/null; echo "rc=$?")
	else
		got=$({ cat "$f"; printf '\n%s\n' "$list"; } |
		      $TOOL --offline -f - 2>/dev/null; echo "rc=$?")
	fi
	got="$(printf '%s\n' "$got" | tail -n 1)
$(printf '%s\n' "$got" | sed '$d')"
	# a failed load lists nothing offline: compare the exit status only
	case $want in rc=0*) ;; *) want=${want%%$'\n'*} ;; esac
	case $got in rc=0*) ;; *) got=${got%%$'\n'*} ;; esac
	expect_eq "$name: offline exits and lists as the kernel does" "$want" "$got"
	KERNEL_RC=${want%%$'\n'*}
	[ "$nft_too" = 1 ] && [ $have_nft = 1 ] || return 0
	ns_new NSN || exit 99
	in_ns "$NSN" nft $j -f "$f" 2>/dev/null
	expect_eq "$name: nft exits the same" "${want%%$'\n'*}" "rc=$?"
	expect_eq "$name: nft makes the same ruleset" \
		"$(in_ns "$NSN" nft list ruleset)" "$(tool "$NS" list ruleset)"
}

# case_ NAME NFT-TOO COMMANDS: NAME.nft is $base, then COMMANDS
case_() {
	printf '%s\n%s\n' "$base" "$3" >"$1.nft"
	agree "$1" "$2"
}

# handles: chains c 1, d 2, counter cnt4 3, set s 4, rules from 5
case_ delete-chain-handle 1 'delete chain inet t handle 2'
case_ delete-chain-jumped-to 1 'delete chain inet t handle 1'
case_ delete-chain-then-target 1 'delete chain inet t d
delete chain inet t handle 1'
case_ delete-chain-missing-handle 1 'delete chain inet t handle 9'
case_ destroy-chain-handle 0 'destroy chain inet t handle 2'
case_ destroy-chain-missing-handle 0 'destroy chain inet t handle 9'
case_ delete-set-handle-in-use 1 'delete set inet t handle 4'
case_ delete-set-handle 1 'delete rule inet t c handle 5
delete chain inet t d
delete chain inet t c
delete set inet t handle 4'
case_ delete-counter-handle-in-use 1 'delete counter inet t handle 3'
case_ delete-rule-handle 1 'delete rule inet t c handle 5'
case_ delete-table-handle 1 'delete table inet handle 2'
case_ delete-table-missing-handle 1 'delete table inet handle 7'
case_ flush-declared-table 1 'table inet v
flush table inet v
table inet v {
	counter abcd {
	}

	chain c {
		counter name abcd
	}
}'
case_ flush-then-fill 1 'flush table inet t
table inet t {
	chain e {
		counter name "cnt4" drop
	}
}'
case_ destroy-absent-element 0 'destroy element inet t s { 10.0.0.2 }
destroy element inet t s { 10.0.0.3, 10.0.0.1 }'
# DESTROYSETELEM (Linux 6.3): the kernel takes elements the set lacks
expect_eq "destroy-absent-element: the kernel takes it" rc=0 "$KERNEL_RC"
case_ delete-absent-element 1 'delete element inet t s { 10.0.0.2 }'

# elements added again in the same batch, or clashing with what the set
# holds: the kernel's EEXIST (nft refuses these too)
sets='table ip e {
	set s {
		type ipv4_addr
		flags interval
		elements = { 10.0.0.0/8, 20.0.0.0-20.0.0.255 }
	}

	set c {
		type ipv4_addr . inet_service
		flags interval
		elements = { 10.0.0.0/8 . 1-100 }
	}

	map m {
		type ipv4_addr : mark
		elements = { 1.1.1.1 : 0x00000001 }
	}
}'
# elem NAME OK COMMAND: $sets then COMMAND; OK 1 if the kernel takes it
elem() {
	printf '%s\n%s\n' "$sets" "$3" >"$1.nft"
	agree "$1" 1
	expect_eq "$1: the kernel's answer" "rc=$([ "$2" = 1 ] && echo 0 || echo 1)" "$KERNEL_RC"
}
elem elem-interval-same 1 'add element ip e s { 10.0.0.0/8 }'
elem elem-interval-inside 0 'add element ip e s { 10.1.0.0/16 }'
elem elem-interval-around 0 'add element ip e s { 10.0.0.0/7 }'
elem elem-interval-partial 0 'add element ip e s { 20.0.0.128-20.0.1.5 }'
elem elem-interval-between 1 'add element ip e s { 11.0.0.0-19.255.255.255, 9.0.0.0/8 }'
elem elem-interval-create 0 'create element ip e s { 10.0.0.0/8 }'
elem elem-box-inside 0 'add element ip e c { 10.1.0.0/16 . 50-60 }'
elem elem-box-beside 1 'add element ip e c { 10.1.0.0/16 . 101-160, 9.0.0.0/8 . 50-60 }'
elem elem-map-same 1 'add element ip e m { 1.1.1.1 : 0x00000001 }'
elem elem-map-other-value 0 'add element ip e m { 1.1.1.1 : 0x00000002 }'
elem elem-map-create 0 'create element ip e m { 1.1.1.1 : 0x00000001 }'
elem elem-map-create-new 1 'create element ip e m { 1.1.1.2 : 0x00000001 }'

# devices added to and removed from a base chain (nft 1.1's add chain and
# delete chain with devices alone), in one batch and across two
devs='table netdev d {
	chain c {
		type filter hook ingress devices = { d0, d1 } priority filter; policy accept;
	}

	chain x {
	}
}'
# The offline model takes a chain on a device that does not exist, as
# Linux 6.16 and later do; before, the kernel refuses it (ENOENT).  So
# the namespace gets dummy devices d0 to d9 where the kernel has them, and
# a kernel before 6.16 without them skips these cases with the reason.
dummies() {
	local i
	for i in 0 1 2 3 4 5 6 7 8 9; do
		echo "link add d$i type dummy"
	done | ip -n "$1" -batch - >/dev/null 2>&1
}
r=$(uname -r)
maj=${r%%.*} min=${r#*.}
min=${min%%[!0-9]*}
devs_why=
if ! unshare -n ip link add d0 type dummy 2>/dev/null; then
	{ [ "$maj" -gt 6 ] || { [ "$maj" -eq 6 ] && [ "$min" -ge 16 ]; }; } ||
		devs_why="no dummy devices, and Linux $r (before 6.16) refuses a chain on a missing device"
fi
# devs NAME OK COMMANDS: $devs then COMMANDS; OK 1 if the kernel takes it
devs() {
	if [ -n "$devs_why" ]; then
		echo "ok - $1: offline exits and lists as the kernel does # SKIP $devs_why"
		return
	fi
	printf '%s\n%s\n' "$devs" "$3" >"$1.nft"
	DUMMIES=1
	agree "$1" 0
	DUMMIES=
	expect_eq "$1: the kernel's answer" "rc=$([ "$2" = 1 ] && echo 0 || echo 1)" "$KERNEL_RC"
}
devs devs-add 1 'add chain netdev d c { devices = { d2, d3 }; }'
devs devs-delete 1 'delete chain netdev d c { devices = { d0 }; }'
devs devs-delete-all 1 'delete chain netdev d c { devices = { d0, d1 }; }'
devs devs-block 1 'table netdev d {
	chain c {
		devices = { d7 };
	}
}'
devs devs-delete-missing 0 'delete chain netdev d c { devices = { d9 }; }'
devs devs-delete-added 0 'add chain netdev d c { devices = { d3 }; }
delete chain netdev d c { devices = { d3 }; }'
devs devs-add-twice 0 'add chain netdev d c { devices = { d5 }; }
add chain netdev d c { devices = { d5 }; }'
devs devs-add-held 1 'add chain netdev d c { devices = { d0 }; }'
devs devs-regular-chain 0 'add chain netdev d x { devices = { d0 }; }'
devs devs-missing-chain 0 'add chain netdev d y { devices = { d0 }; }'

cat >json-delete-chain-handle.json <<'EOF'
{"nftables": [{"add": {"table": {"family": "inet", "name": "t"}}},
 {"add": {"chain": {"family": "inet", "table": "t", "name": "c"}}},
 {"add": {"chain": {"family": "inet", "table": "t", "name": "d"}}},
 {"delete": {"chain": {"family": "inet", "table": "t", "handle": 1}}}]}
EOF
agree json-delete-chain-handle 1
cat >json-destroy-chain-handle.json <<'EOF'
{"nftables": [{"add": {"table": {"family": "inet", "name": "t"}}},
 {"add": {"chain": {"family": "inet", "table": "t", "name": "c"}}},
 {"destroy": {"chain": {"family": "inet", "table": "t", "handle": 1}}},
 {"destroy": {"chain": {"family": "inet", "table": "t", "handle": 1}}}]}
EOF
agree json-destroy-chain-handle 0

finish
