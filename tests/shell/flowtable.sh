#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: flowtables and flow add.  Offline: list flowtables, list
# flowtable, -a, the -j listing (nft 1.0.6's flowtable_print_json), the -j
# listing loading back, JSON input making nft's batch, and the model's
# answers (create of one that exists, delete by name and handle, delete of
# one a rule offloads to, destroy of a missing one); devices taken out of a
# flowtable that stays (delete|destroy flowtable ... { devices = ... }, text
# and JSON; the model's ENOENT and EOPNOTSUPP; the message byte for byte
# as nft 1.1.1 and nft 1.0.6 send it); device-name prefixes
# (Linux 6.17+: "veth*", "*"), listed, loaded back (text and JSON), sent
# as NFTA_DEVICE_PREFIX, overlaps refused.  (On a kernel with flowtables,
# tests/kernel/flowtable-events.sh loads one: refused before 6.17.)  On a kernel without
# flowtables (CONFIG_NF_FLOW_TABLE): a load fails at the flowtable's name
# with a message that names the option, and the ruleset is unchanged; with
# them, the flowtable loads and lists, and one with "flags offload" on lo
# and veth (no hardware offload) fails saying so.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root || exit 77
dir=$(tmpdir)
cd "$dir" || exit 1
# shellcheck disable=SC2086 # $TOOL is split into words on purpose
nfh() { $TOOL "$@"; }

cat >ft.nft <<'EOF2'
table inet t {
	flowtable ft {
		hook ingress priority 0; devices = { lo };
		flags offload;
		counter
	}
	flowtable slow {
		hook ingress priority filter + 10
		devices = { veth0, veth1 }
	}
	chain fw {
		type filter hook forward priority 0; policy accept;
		ip protocol tcp flow add @ft
	}
}
EOF2

# --- offline: listings --------------------------------------------------------
got=$({ cat ft.nft; echo "list flowtables"; echo "list flowtable inet t slow"; } |
	nfh --offline -f - 2>&1)
expect_eq "list flowtables, list flowtable" \
'table inet t {
	flowtable ft {
		hook ingress priority filter
		devices = { lo }
		counter
		flags offload
	}
	flowtable slow {
		hook ingress priority filter + 10
		devices = { veth0, veth1 }
	}
}
table inet t {
	flowtable slow {
		hook ingress priority filter + 10
		devices = { veth0, veth1 }
	}
}' "$got"
got=$({ cat ft.nft; echo "list flowtable inet t nope"; } | nfh --offline -f - 2>&1)
check "list flowtable of a missing one fails" sh -c 'case "$1" in *"Error: Could not process flowtable: No such file or directory"*) exit 0;; esac; exit 1' sh "$got"
check "-a lists the handle" sh -c '{ cat ft.nft; echo "list flowtables"; } |
	'"$TOOL"' --offline -a -f - | grep -Eq "^	flowtable ft \{ # handle [0-9]+$"'
{ cat ft.nft; echo "list ruleset"; } | nfh --offline -j -f - >ft.json 2>&1
got=$(python3 -c '
import json, sys
for o in json.load(open(sys.argv[1]))["nftables"]:
    if "flowtable" in o:
        o["flowtable"].pop("handle")
        print(json.dumps(o))
    if "rule" in o:
        print(json.dumps(o["rule"]["expr"]))' ft.json 2>&1)
expect_eq "-j lists flowtables and flow add as nft 1.0.6 does" \
'{"flowtable": {"family": "inet", "name": "ft", "table": "t", "hook": "ingress", "prio": 0, "dev": "lo"}}
{"flowtable": {"family": "inet", "name": "slow", "table": "t", "hook": "ingress", "prio": 10, "dev": ["veth0", "veth1"]}}
[{"match": {"op": "==", "left": {"payload": {"protocol": "ip", "field": "protocol"}}, "right": "tcp"}}, {"flow": {"op": "add", "flowtable": "@ft"}}]' \
	"$got"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
d["nftables"].append({"list": {"ruleset": None}})
json.dump(d, open(sys.argv[2], "w"))' ft.json ft-list.json
nfh --offline -j -f ft-list.json >back.json 2>&1
check "the -j listing loads back as the same flowtables and rule" \
	python3 -c '
import json, sys
def strip(f):
    out = []
    for o in json.load(open(f))["nftables"]:
        if "metainfo" in o:
            continue
        for v in o.values():
            v.pop("handle", None)
        out.append(o)
    return out
a = strip(sys.argv[1]); b = strip(sys.argv[2])
sys.exit(0 if a == b else print(a, b, sep="\n") or 1)' ft.json back.json

# --- offline: the model's answers ----------------------------------------------
got=$({ cat ft.nft; echo "create flowtable inet t ft { hook ingress priority 0; devices = { lo }; }"; } |
	nfh --offline -f - 2>&1; echo "rc=$?")
check "create of one that exists: EEXIST" sh -c 'case "$1" in *"Could not process flowtable: File exists"*rc=1) exit 0;; esac; exit 1' sh "$got"
# a device is hooked by one flowtable of a table at most (6.12's
# nft_register_flowtable_net_hooks: EEXIST), a new one's as one added
got=$({ cat ft.nft; echo "add flowtable inet t ft2 { hook ingress priority 5; devices = { veth2, veth1 }; }"; } |
	nfh --offline -f - 2>&1; echo "rc=$?")
expect_eq "a new flowtable on a device another one of the table hooks: EEXIST" \
'/dev/stdin:16:22-24: Error: Could not process flowtable: File exists
add flowtable inet t ft2 { hook ingress priority 5; devices = { veth2, veth1 }; }
                     ^^^
rc=1' "$got"
got=$({ cat ft.nft; echo "delete flowtable inet t slow { devices = { veth1 }; }"
	echo "add flowtable inet t ft2 { hook ingress priority 5; devices = { veth1 }; }"
	echo "delete flowtable inet t slow"
	echo "add flowtable inet t ft3 { hook ingress priority 5; devices = { veth0 }; }"
	echo "add table inet u"
	echo "add flowtable inet u ft { hook ingress priority 0; devices = { lo }; }"
	echo "list flowtables"; } | nfh --offline -f - 2>&1)
expect_eq "one a deletion of the batch took out (or whose flowtable went) is free; another table's is not taken" \
'table inet t {
	flowtable ft {
		hook ingress priority filter
		devices = { lo }
		counter
		flags offload
	}
	flowtable ft2 {
		hook ingress priority filter + 5
		devices = { veth1 }
	}
	flowtable ft3 {
		hook ingress priority filter + 5
		devices = { veth0 }
	}
}
table inet u {
	flowtable ft {
		hook ingress priority filter
		devices = { lo }
	}
}' "$got"
got=$({ cat ft.nft; echo "delete flowtable inet t ft"; } | nfh --offline -f - 2>&1; echo "rc=$?")
check "delete of one a rule offloads to: EBUSY" sh -c 'case "$1" in *"Could not process flowtable: Device or resource busy"*rc=1) exit 0;; esac; exit 1' sh "$got"
got=$({ cat ft.nft; echo "delete flowtable inet t slow"; echo "destroy flowtable inet t gone"; echo "list flowtables"; } |
	nfh --offline -f - 2>&1)
check "delete by name; destroy of a missing one is no error" sh -c 'case "$1" in *"flowtable slow"*) exit 1;; *"flowtable ft {"*) exit 0;; esac; exit 1' sh "$got"
h=$({ cat ft.nft; echo "list flowtables"; } | nfh --offline -a -f - | sed -n 's/^	flowtable slow { # handle \([0-9]*\)$/\1/p')
got=$({ cat ft.nft; echo "delete flowtable inet t handle $h"; echo "list flowtables"; } | nfh --offline -f - 2>&1)
check "delete by handle" sh -c 'case "$1" in *"flowtable slow"*) exit 1;; *"flowtable ft {"*) exit 0;; esac; exit 1' sh "$got"
got=$(printf 'table inet t {\n\tchain fw {\n\t\ttype filter hook forward priority 0;\n\t\tflow add @ft\n\t}\n}\n' >nope.nft; nfh --offline -c -f nope.nft 2>&1; echo "rc=$?")
expect_eq "--offline -c: a flowtable the table lacks, at the statement" \
'nope.nft:4:3-14: Error: flowtable "ft" does not exist in table inet t
		flow add @ft
		^^^^^^^^^^^^
rc=1' "$got"

# --- offline: device-name prefixes (Linux 6.17+) ---------------------------------
cat >pfx.nft <<'EOF2'
table inet p {
	flowtable f {
		hook ingress priority 0; devices = { "veth*", lo };
	}
	flowtable all {
		hook ingress priority 5; devices = { "*" };
	}
}
EOF2
got=$({ cat pfx.nft; echo "list ruleset"; } | nfh --offline -f - 2>&1)
expect_eq "prefixes list quoted (a list sorted by name)" \
'table inet p {
	flowtable f {
		hook ingress priority filter
		devices = { lo, "veth*" }
	}

	flowtable all {
		hook ingress priority filter + 5
		devices = { "*" }
	}
}' "$got"
check "the listing loads back as the same" sh -c '
	printf "%s\nlist ruleset\n" "$1" | '"$TOOL"' --offline -f - | diff - /dev/stdin <<EOF3
$1
EOF3' sh "$got"
{ cat pfx.nft; echo "list ruleset"; } | nfh --offline -j -f - >pfx.json 2>&1
check "-j lists a prefix as its text" grep -q '"dev": \["lo", "veth\*"\]' pfx.json
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
d["nftables"].append({"list": {"ruleset": None}})
json.dump(d, open(sys.argv[2], "w"))' pfx.json pfx-list.json
nfh --offline -j -f pfx-list.json >pfx-back.json 2>&1
expect_eq "the -j listing loads back as the same" "$(cat pfx.json)" "$(cat pfx-back.json)"
# on the wire: NFTA_DEVICE_PREFIX (2) "veth" in NFTA_FLOWTABLE_HOOK_DEVS,
# where nft 1.1.1 (no prefixes) sends NFTA_DEVICE_NAME (1) "veth*"
# (-c asks a kernel: here one without flowtables, whose refusal is left out)
# shellcheck disable=SC2086 # $TOOL is split into words on purpose
mnl=$(unshare -n $TOOL -c --debug=mnl -f pfx.nft 2>/dev/null | sed 's/\x1b\[[0-9;]*m//g')
check "the message holds NFTA_DEVICE_PREFIX \"veth\"" sh -c 'printf "%s\n" "$1" |
	grep -A2 "^|00009|--|00002|" | grep -q "^| 76 65 74 68  |"' sh "$mnl"
check "and NFTA_DEVICE_PREFIX \"\" for \"*\"" sh -c 'printf "%s\n" "$1" |
	grep -A1 "^|00005|--|00002|" | grep -q "^| 00 00 00 00  |"' sh "$mnl"
check "and NFTA_DEVICE_NAME \"lo\"" sh -c 'printf "%s\n" "$1" |
	grep -A1 "^|00007|--|00001|" | grep -q "^| 6c 6f 00 00  |"' sh "$mnl"
got=$(printf 'table inet p {\n\tflowtable f { hook ingress priority 0; devices = { "ve*", "veth*" }; }\n}\n' |
	nfh --offline -c -f - 2>&1 | head -n 1)
expect_eq "overlapping prefixes: refused, as the kernel would (EEXIST)" \
	'/dev/stdin:2:60-66: Error: "ve*" and "veth*" overlap: a flowtable hooks each device once, by one name or prefix' "$got"
got=$(printf 'table inet p {\n\tflowtable f { hook ingress priority 0; devices = { veth* }; }\n}\n' |
	nfh --offline -c -f - 2>&1 | head -n 1)
expect_eq "a prefix needs quotes" \
	'/dev/stdin:2:53-57: Error: a device name with a wildcard needs quotes in a device list: "veth*"' "$got"

# --- devices taken out of a flowtable that stays ---------------------------------
# (nft 1.0.6 and 1.1.1: "delete flowtable ... { devices = { ... }; }"; the
# kernel keeps the flowtable and unhooks those devices, Linux 5.8+)
cat >dd.nft <<'EOF2'
table inet d {
	flowtable f {
		hook ingress priority 10; devices = { lo, veth0, "eth*" };
	}
	chain fw {
		type filter hook forward priority 0;
		flow add @f
	}
}
EOF2
got=$({ cat dd.nft; echo 'delete flowtable inet d f { devices = { lo, "eth*" }; }'; echo "list flowtables"; } |
	nfh --offline -f - 2>&1)
expect_eq "--offline: the flowtable keeps its other devices (a rule offloads to it: no EBUSY)" \
'table inet d {
	flowtable f {
		hook ingress priority filter + 10
		devices = { veth0 }
	}
}' "$got"
got=$({ cat dd.nft; echo 'destroy flowtable inet d f { devices = { veth0 }; }'
	echo 'delete flowtable inet d f { hook ingress priority 10; devices = { lo, "eth*" }; }'
	echo "list flowtables"; } | nfh --offline -f - 2>&1)
expect_eq "destroy takes devices out too; so does a block with the flowtable's hook line; none left" \
'table inet d {
	flowtable f {
		hook ingress priority filter + 10
	}
}' "$got"
got=$({ cat dd.nft; echo 'delete flowtable inet d f { devices = { eth9 }; }'; } | nfh --offline -f - 2>&1; echo "rc=$?")
expect_eq "a device it does not hook: ENOENT (6.12's nft_delflowtable_hook), in words at the device" \
'/dev/stdin:10:41-44: Error: Could not process flowtable: flowtable f of table inet d has no device "eth9"
delete flowtable inet d f { devices = { eth9 }; }
                                        ^^^^
rc=1' "$got"
got=$({ cat dd.nft; printf '%s\n' 'delete flowtable inet d f { devices = { lo,' '	"veth*" }; }'; } | nfh --offline -f - 2>&1)
expect_eq "the one it does not hook of several, a prefix with its star, on the block's second line" \
'/dev/stdin:11:2-8: Error: Could not process flowtable: flowtable f of table inet d has no device "veth*"
	"veth*" }; }
	^^^^^^^'  "$got"
got=$({ cat dd.nft; echo 'delete flowtable inet d f { devices = { lo }; }'
	echo 'delete flowtable inet d f { devices = { lo }; }'; } | nfh --offline -f - 2>&1 | head -n 1)
expect_eq "one taken out earlier in the batch: ENOENT" \
	'/dev/stdin:11:41-42: Error: Could not process flowtable: flowtable f of table inet d has no device "lo"' "$got"
got=$({ cat dd.nft; echo 'destroy flowtable inet d f { devices = { eth9 }; }'; } | nfh --offline -f - 2>&1 | head -n 1)
expect_eq "destroy: ENOENT for the device too (only a missing flowtable is no error)" \
	'/dev/stdin:10:42-45: Error: Could not process flowtable: flowtable f of table inet d has no device "eth9"' "$got"
got=$({ cat dd.nft; echo 'destroy flowtable inet d gone { devices = { lo }; }'; } | nfh --offline -f - 2>&1; echo "rc=$?")
expect_eq "destroy of a missing flowtable with devices: no error" "rc=0" "$got"
got=$({ cat dd.nft; echo 'delete flowtable inet d f { hook ingress priority 11; devices = { lo }; }'; } | nfh --offline -f - 2>&1 | head -n 1)
expect_eq "a priority other than the flowtable's: EOPNOTSUPP, as the kernel checks it" \
	'/dev/stdin:10:8-73: Error: Could not process flowtable: Operation not supported' "$got"
got=$({ cat dd.nft; echo 'delete flowtable inet d f { }'; } | nfh --offline -f - 2>&1 | head -n 1)
expect_eq "a block without devices deletes the flowtable, as nft sends it (here EBUSY: a rule offloads to it)" \
	'/dev/stdin:10:8-29: Error: Could not process flowtable: Device or resource busy' "$got"
got=$(printf 'delete flowtable inet d handle 3 { devices = { lo }; }\n' | nfh --offline -c -f - 2>&1 | head -n 1)
expect_eq "by handle: no block, as in nft 1.0.6 and 1.1.1" \
	"/dev/stdin:1:34-34: Error: syntax error, unexpected '{', expecting end of file or newline or semicolon" "$got"
# devices added to one that exists (6.12's nft_flowtable_update), and
# taken out in the same batch: the kernel hooks them at the commit
got=$({ cat dd.nft; echo 'add flowtable inet d f { hook ingress priority 10; devices = { lo, veth1 }; }'
	echo "list flowtables"; } | nfh --offline -f - 2>&1)
expect_eq "--offline: devices added to one that exists (one it has already is no error)" \
'table inet d {
	flowtable f {
		hook ingress priority filter + 10
		devices = { "eth*", lo, veth0, veth1 }
	}
}' "$got"
for b in 'add flowtable inet d f { hook ingress priority 10; devices = { veth1 }; }
delete flowtable inet d f { devices = { veth1 }; }:flowtable f of table inet d has no device "veth1"' \
	'add flowtable inet d f { hook ingress priority 10; devices = { veth1 }; }
add flowtable inet d f { hook ingress priority 10; devices = { veth1 }; }:File exists' \
	'add flowtable inet d f { hook ingress priority 0; devices = { veth1 }; }:Operation not supported' \
	'add flowtable inet d f { hook ingress priority 10; devices = { veth1 }; flags offload; }:Operation not supported'; do
	got=$({ cat dd.nft; printf '%s\n' "${b%:*}"; } | nfh --offline -f - 2>&1 | sed -n 's/^.*Error: Could not process flowtable: //p')
	expect_eq "--offline: $(printf '%s' "${b%:*}" | tr '\n' ';'): ${b##*:}" "${b##*:}" "$got"
done
cat >dd.json <<'EOF2'
{"nftables": [{"add": {"table": {"family": "inet", "name": "d"}}},
 {"add": {"flowtable": {"family": "inet", "table": "d", "name": "f", "hook": "ingress", "prio": 10, "dev": ["lo", "veth0", "eth*"]}}},
 {"delete": {"flowtable": {"family": "inet", "table": "d", "name": "f", "dev": ["lo", "eth*"]}}},
 {"destroy": {"flowtable": {"family": "inet", "table": "d", "name": "f", "hook": "ingress", "prio": 10, "dev": "veth0"}}},
 {"add": {"flowtable": {"family": "inet", "table": "d", "name": "g", "hook": "ingress", "prio": 0, "dev": ["lo", "veth0"]}}},
 {"delete": {"flowtable": {"family": "inet", "table": "d", "name": "g", "dev": "lo"}}},
 {"list": {"ruleset": null}}]}
EOF2
got=$(nfh --offline -j -f dd.json 2>&1 | python3 -c '
import json, sys
for o in json.load(sys.stdin)["nftables"]:
    if "flowtable" in o:
        o["flowtable"].pop("handle")
        print(json.dumps(o))')
expect_eq "-j input: \"dev\" in a delete or destroy takes those devices out" \
'{"flowtable": {"family": "inet", "name": "f", "table": "d", "hook": "ingress", "prio": 10}}
{"flowtable": {"family": "inet", "name": "g", "table": "d", "hook": "ingress", "prio": 0, "dev": "veth0"}}' "$got"
got=$(printf '%s' '{"nftables": [{"delete": {"flowtable": {"family": "inet", "table": "d", "name": "f", "prio": 3, "dev": "lo"}}}]}' |
	nfh --offline -j -c -f - 2>&1 | head -n 1)
expect_eq "-j input: \"prio\" without \"hook\" is refused" \
	'/dev/stdin:1:94-94: Error: flowtable: "prio" goes with "hook"' "$got"

# on the wire, the DELFLOWTABLE (DESTROYFLOWTABLE) message byte for byte:
# as nft 1.1.1 sends it (the devices alone in NFTA_FLOWTABLE_HOOK), and with
# "hook ingress priority 0" as nft 1.0.6 sends it (which adds hook 0 and
# priority 0 whatever the block says); the sequence number left out
ftmsg() {
	sed 's/\x1b\[[0-9;]*m//g' | awk '
		/^\| 0258[46] \||^\| 02592 \|/ { p = 1 }
		p && /sequence number/ { next }
		p && /^----------------\t------------------$/ && ++n == 2 { exit }
		p'
}
# shellcheck disable=SC2086 # $TOOL is split into words on purpose
mnl_of() { printf '%s\n' "$2" >mnl.nft; unshare -n $1 -c --debug=mnl -f mnl.nft 2>/dev/null | ftmsg; }
NFT11=${NFT11:-$(cd "$REPO_DIR/.." && pwd)/shared/oracle/nft-1.1.1}
[ -x "$NFT11" ] || NFT11=$(cd "$REPO_DIR/../.." && pwd)/shared/oracle/nft-1.1.1
for c in 'delete flowtable inet d f { devices = { lo, veth0 }; }' \
	'destroy flowtable inet d f { devices = { veth0 }; }' \
	'delete flowtable inet d f { }'; do
	mine=$(mnl_of "$TOOL" "$c")
	# NFTA_FLOWTABLE_HOOK and its NFTA_FLOWTABLE_HOOK_DEVS, or neither
	case $c in *'{ }'*) n=0;; *) n=2;; esac
	expect_eq "the message of \"$c\" has $n nests of type 3" "$n" \
		"$(printf '%s\n' "$mine" | grep -c '^|000[0-9][0-9]|N-|00003|')"
	if [ -x "$NFT11" ]; then
		# nft 1.1.1's destroy drops the block (it sends the name alone,
		# and the whole flowtable goes): nfh's destroy is its delete
		# with the other message type
		case $c in
		destroy*) want=$(mnl_of "$NFT11" "${c/destroy/delete}" | sed 's/^| 02584 |/| 02592 |/')
			d="as nft 1.1.1 sends the delete (its destroy drops the devices)";;
		*)	want=$(mnl_of "$NFT11" "$c"); d="as nft 1.1.1 sends it";;
		esac
		expect_eq "\"$c\": $d" "$want" "$mine"
	else
		ok "\"$c\": as nft 1.1.1 sends it # SKIP no $NFT11"
	fi
done
# a prefix as the add path sends it: NFTA_DEVICE_PREFIX (2) "eth" (nft
# 1.1.1 sends NFTA_DEVICE_NAME "eth*")
mine=$(mnl_of "$TOOL" 'destroy flowtable inet d f { devices = { "eth*" }; }')
check "destroy ... { devices = { \"eth*\" }; }: NFTA_DEVICE_PREFIX \"eth\"" sh -c 'printf "%s\n" "$1" |
	grep -A1 "^|00008|--|00002|" | grep -q "^| 65 74 68 00  |"' sh "$mine"
c='delete flowtable inet d f { hook ingress priority 0; devices = { lo, veth0 }; }'
mine=$(mnl_of "$TOOL" "$c")
check "with a hook line: NFTA_FLOWTABLE_HOOK_NUM and _PRIORITY too" sh -c 'printf "%s\n" "$1" | grep -q "^|00008|--|00002|"' sh "$mine"
if command -v nft >/dev/null 2>&1; then
	expect_eq "\"$c\": as nft 1.0.6 sends it" "$(mnl_of nft "$c")" "$mine"
fi

# --- JSON input: nft's batch ------------------------------------------------------
cat >in.json <<'EOF2'
{"nftables": [{"add": {"table": {"family": "inet", "name": "t"}}},
 {"add": {"flowtable": {"family": "inet", "table": "t", "name": "f", "hook": "ingress", "prio": 0, "dev": ["lo", "veth0"]}}},
 {"add": {"flowtable": {"family": "inet", "table": "t", "name": "g", "hook": "ingress", "prio": -3, "dev": "veth1"}}},
 {"add": {"chain": {"family": "inet", "table": "t", "name": "c", "type": "filter", "hook": "forward", "prio": 0, "policy": "accept"}}},
 {"add": {"rule": {"family": "inet", "table": "t", "chain": "c", "expr": [{"flow": {"op": "add", "flowtable": "@f"}}]}}},
 {"delete": {"flowtable": {"family": "inet", "table": "t", "name": "g"}}}]}
EOF2
nfh --offline -j -c --debug=netlink -f in.json 2>&1 | grep -v '^$' >nfh.bc
check "-j input: flowtables and flow add" sh -c 'grep -q "flow table (null) (null) use 0 size 0 flags 0 hook prerouting prio -3  dev {  veth1  }" nfh.bc &&
	grep -q "flow_offload flowtable f" nfh.bc'
if command -v nft >/dev/null 2>&1; then
	unshare -n sh -c 'ip link add veth0 type veth peer name veth1 && nft -j -c --debug=netlink -f in.json' 2>/dev/null |
		grep -v '^$' >nft.bc
	expect_eq "-j input: the batch nft builds from the same JSON" "$(cat nft.bc)" "$(cat nfh.bc)"
fi

# --- the kernel ---------------------------------------------------------------------
ns_new NS || exit 99
ip -n "$NS" link add veth0 type veth peer name veth1 || exit 99
load "$NS" "a table without flowtables loads" <<'EOF2'
table ip keep {
	chain c {
		type filter hook input priority 0; policy accept;
		counter
	}
}
EOF2
before=$(tool "$NS" list ruleset)
if have_feature flowtable; then
	# lo and veth cannot offload to hardware: "flags offload" is refused
	tool "$NS" -f ft.nft 2>err
	expect_eq "flags offload on lo: the load fails" 1 $?
	expect_eq "at the flowtable's name, saying why" \
		'ft.nft:2:12-13: Error: Could not process flowtable: Operation not supported: a device of the flowtable cannot offload flows to hardware (flags offload; without it, flows are offloaded in software); the ruleset is unchanged' \
		"$(sed -n 1p err)"
	expect_eq "flags offload refused: the ruleset is unchanged" "$before" "$(tool "$NS" list ruleset)"
	# software offload
	sed -e '/flags offload/d' ft.nft >ft-sw.nft
	check "flowtables load (software offload)" tool "$NS" -f ft-sw.nft
	check "and list" listing_has "$NS" '^[[:space:]]+devices = \{ veth0, veth1 \}$'
	# a device is in one flowtable of a table at most
	tool "$NS" -f - 2>err <<'EOF3'
add flowtable inet t again { hook ingress priority 0; devices = { veth1 }; }
EOF3
	expect_eq "a new flowtable on a device another one hooks: EEXIST" \
		'/dev/stdin:1:22-26: Error: Could not process flowtable: File exists' "$(sed -n 1p err)"
	check "list flowtables" sh -c "ip netns exec $NS $TOOL list flowtables | grep -q 'flowtable slow {'"
else
	tool "$NS" -f ft.nft 2>err
	expect_eq "without flowtables the load fails" 1 $?
	expect_eq "at the flowtable's name, naming the kernel options" \
		'ft.nft:2:12-13: Error: Could not process flowtable: this kernel has no flowtable support (CONFIG_NF_FLOW_TABLE and CONFIG_NF_FLOW_TABLE_INET, module nf_flow_table_inet); the ruleset is unchanged' \
		"$(sed -n 1p err)"
	expect_eq "with the caret under the name" $'\tflowtable ft {\n\t          ^^' "$(sed -n 2,3p err)"
	expect_eq "each flowtable is named" 2 "$(grep -c 'no flowtable support' err)"
	check "the rule's flow add names flow offload or a missing flowtable" \
		grep -q '^ft.nft:13:19-30: Error: Could not process rule: this kernel has no flow offload support (CONFIG_NFT_FLOW_OFFLOAD, module nft_flow_offload), or the table has no such flowtable; the ruleset is unchanged$' err
	expect_eq "the ruleset is unchanged" "$before" "$(tool "$NS" list ruleset)"
	expect_eq "list flowtables reads the kernel's (none)" 'table ip keep {
}' "$(tool "$NS" list flowtables)"
fi
finish
