#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: monitor prints the named objects (counter, quota, limit, ct
# helper, ct timeout, ct expectation, synproxy) that are added, updated and
# deleted, in text, with -a and with -j, as nft monitor prints them, both
# monitors listening to the same namespace.
# Where nft 1.0.6 is wrong, nfh does not follow it:
#  - on Linux 6.18, nft monitor (1.0.6 and 1.1.1) dies of SIGSEGV on a
#    deleted ct timeout, so the comparison stops before that event; nfh
#    prints "delete ct timeout ip t to" and goes on;
#  - a deleted object's event on 6.18 carries no values, and nft -j
#    prints made-up ones ("rate": 0, "per": "error", "type": "(null)"):
#    nfh prints the family, name, table and handle that name it, and
#    those must agree.  6.12 sends the object whole: nft survives the ct
#    timeout, and prints the values, and nfh must print the same.
# secmark objects need an LSM that knows the context: not here.
# Under TOOL=nft the checks past nft's crash are skipped.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root
require_cmd nft python3
py=/usr/bin/python3
[ -x "$py" ] || py=python3

dir=$(tmpdir)
ns_new NS || exit 99
# shellcheck disable=SC2086
is_nfh=$($TOOL --version 2>/dev/null | grep -c '^nfh ')

pids=()
# shellcheck disable=SC2086 # $TOOL is split into words on purpose
for flags in "" -a -j; do
	in_ns "$NS" nft $flags monitor >>"$dir/nft$flags" 2>/dev/null &
	pids+=($!)
	in_ns "$NS" $TOOL $flags monitor >>"$dir/nfh$flags" 2>>"$dir/nfh$flags.err" &
	pids+=($!)
done
stop() { kill "${pids[@]}" 2>/dev/null; wait 2>/dev/null; }

listening() {
	local f
	for f in nft nft-a nfh nfh-a; do
		grep -q '^delete table ip probe' "$dir/$f" || return 1
	done
	for f in nft-j nfh-j; do
		grep -q '"delete": {"table": {"family": "ip", "name": "probe"' "$dir/$f" || return 1
	done
}
for ((i = 0; i < 50; i++)); do
	in_ns "$NS" nft add table ip probe && in_ns "$NS" nft delete table ip probe
	listening && break
	sleep 0.1
done
for f in nft nft-a nft-j nfh nfh-a nfh-j; do : >"$dir/$f"; done

cat >"$dir/objs.nft" <<'NFT'
table ip t {
	counter cnt { packets 0 bytes 0; comment "a counter"; }
	counter cnt2 { }
	quota q { over 10 mbytes used 1 kbytes }
	quota q2 { 5 bytes; comment "qc"; }
	limit l { rate 10/minute burst 5 packets }
	limit l2 { rate over 1 mbytes/second burst 2 mbytes }
	ct helper h { type "ftp" protocol tcp; l3proto ip; }
	ct helper h2 { type "sip" protocol udp; l3proto ip; comment "hc"; }
	ct timeout to { protocol udp; l3proto ip; policy = { unreplied : 15, replied : 60 }; }
	ct timeout to2 { protocol tcp; policy = { established : 100 }; comment "tc"; }
	ct expectation e { protocol tcp; dport 2121; timeout 12m; size 12; l3proto ip; }
	ct expectation e2 { protocol udp; dport 53; timeout 1s; size 1; comment "ec"; }
	synproxy sp { mss 1460; wscale 7; timestamp sack-perm; }
	synproxy sp1 { mss 1460; wscale 7; }
	synproxy sp2 { mss 1460; wscale 7; sack-perm; }
	synproxy sp3 { mss 1; wscale 1; timestamp; comment "sc"; }
}
NFT
if ! out=$(in_ns "$NS" nft -f "$dir/objs.nft" 2>&1); then
	stop
	echo "# nft does not load the objects here"
	printf '%s\n' "$out" | diag
	exit 77
fi
# declared again: quotas and synproxies are updated, and announced again
in_ns "$NS" nft -f "$dir/objs.nft"
in_ns "$NS" nft -f - <<'NFT'
delete counter ip t cnt
delete quota ip t q
delete limit ip t l
delete ct helper ip t h
delete ct expectation ip t e
delete synproxy ip t sp
NFT
in_ns "$NS" nft delete ct timeout ip t to
in_ns "$NS" nft delete table ip t
if [ "$is_nfh" = 1 ]; then
	retry 50 grep -q '^delete table ip t$' "$dir/nfh"
	retry 50 grep -q '^delete table ip t # handle' "$dir/nfh-a"
	retry 50 grep -q '"delete": {"table": {"family": "ip", "name": "t"' "$dir/nfh-j"
else
	retry 20 grep -q '^delete ct expectation ip t e' "$dir/nfh"
fi
stop

check "nft monitor saw the objects" grep -q '^add synproxy ip t sp3 { comment "sc" mss 1 wscale 1 timestamp ; } $' "$dir/nft"

norm() { sed -E 's/^# new generation [0-9]+ by process [0-9]+ \(.*\)$/# new generation N/' "$1"; }
# nft's events up to where it died
upto() { sed '/delete ct timeout ip t to/,$d' "$1"; }
for flags in "" -a; do
	want=$(norm "$dir/nft$flags" | upto /dev/stdin)
	got=$(norm "$dir/nfh$flags" | upto /dev/stdin)
	expect_eq "monitor ${flags:-(no flag)} prints the objects as nft does" "$want" "$got"
	[ "$is_nfh" = 1 ] &&
	check "monitor ${flags:-(no flag)}: the ct timeout deletion, then the rest" \
		grep -Pzq 'delete ct timeout ip t to\n# new generation .*\ndelete counter ip t cnt2\n(.*\n)*delete table ip t( # handle [0-9]+)?\n' "$dir/nfh$flags"
	[ "$is_nfh" = 1 ] &&
	expect_eq "monitor ${flags:-(no flag)} prints no errors" "" "$(cat "$dir/nfh$flags.err")"
done
check "-a monitor: an object's handle inside its braces" \
	grep -Eq '^add counter ip t cnt \{ # handle [0-9]+ comment "a counter" packets 0 bytes 0 \} $' "$dir/nfh-a"

got=$("$py" - "$dir/nft-j" "$dir/nfh-j" "$is_nfh" 2>&1 <<'EOF'
import json, sys
want = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
got = [json.loads(l) for l in open(sys.argv[2]) if l.strip()]
def deleted_to(o):
    return o.get("delete", {}).get("ct timeout", {}).get("name") == "to"
# nft -j died at the ct timeout's deletion where the kernel's event names
# the object alone (6.18); where it sends it whole (6.12), nft goes on
cut = next((i for i, o in enumerate(got) if deleted_to(o)), None)
if cut is None:
    if sys.argv[3] == "1":
        print("nfh printed no deletion of ct timeout to")
    cut = len(got)
if any(deleted_to(o) for o in want):
    if len(want) != len(got):
        print(f"nft printed {len(want)} events, nfh {len(got)}")
elif len(want) != cut:
    print(f"nft printed {len(want)} events before the ct timeout's deletion, nfh {cut}")
NAMES = ("family", "name", "table", "handle")
def names(o):
    (kind, v), = o["delete"].items()
    return {"delete": {kind: {k: v[k] for k in NAMES if k in v}}}
for w, g in zip(want, got):
    # an event that names the deleted object alone: nft's values are
    # made up, the names agree; one that carries its values: nfh prints
    # them, and they agree with nft's
    if "delete" in w and (sys.argv[3] != "1" or g == names(g)):
        w = names(w)
        g = names(g)
    if w != g:
        print("nft:", json.dumps(w))
        print("nfh:", json.dumps(g))
        break
if not any("ct expectation" in o.get("add", {}) for o in got):
    print("no ct expectation event")
EOF
)
expect_eq "-j monitor prints the objects as nft -j does" "" "$got"
finish
