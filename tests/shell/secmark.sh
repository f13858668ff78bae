#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: secmark objects.  Where the kernel cannot make them (ENOENT: no
# security module such as SELinux knows the context, or no secmark objects)
# loading one fails with an error at the object that says so, and the
# ruleset stays as it was; where it can, the object, an object map of them
# and the rules that use them load, list back and delete.  Without a
# kernel: the -j listing of parse/ok/30-secmark loads back to the same
# listing, list secmark[s] pick the objects, and objects as a kernel dump
# carries them list (a context without its NUL, or too long for libnftnl,
# leaves its object out rather than stopping the listing)
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root
require_cmd python3

dir=$(tmpdir)
golden=$REPO_DIR/tests/parse/ok/30-secmark
ctx=system_u:object_r:ssh_server_packet_t:s0

# --- offline: JSON, list secmark[s] -----------------------------------------
{ cat "$golden.in"; printf '\nlist ruleset\n'; } >"$dir/golden.nft"
# shellcheck disable=SC2086 # $TOOL is split into words on purpose
$TOOL --offline -j -f "$dir/golden.nft" >"$dir/golden.json" 2>&1
check "the -j listing names the context" \
	grep -q '{"secmark": {"family": "inet", "name": "http", "table": "t", "handle": 3, "comment": "web traffic", "context": "system_u:object_r:http_server_packet_t:s0"}}' \
	"$dir/golden.json"
check "a reference is {\"secmark\": NAME}" grep -q '{"secmark": "sshtag"}' "$dir/golden.json"
check "a map is {\"secmark\": {\"map\": ...}}" \
	grep -q '{"secmark": {"map": {"key": {"payload": {"protocol": "tcp", "field": "dport"}}, "data": "@tags"}}}' \
	"$dir/golden.json"
check "an object map's values are \"map\": \"secmark\"" \
	grep -q '"type": "inet_service", "handle": [0-9]*, "map": "secmark"' "$dir/golden.json"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
d["nftables"].append({"list": {"ruleset": None}})
print(json.dumps(d))' "$dir/golden.json" >"$dir/relist.json"
# shellcheck disable=SC2086
$TOOL --offline -j -f "$dir/relist.json" >"$dir/relisted.json" 2>&1
if python3 -c '
import json, sys
a, b = (json.load(open(f))["nftables"] for f in sys.argv[1:3])
# handles are given in load order, which the listing does not keep
strip = lambda l: [{k: {kk: vv for kk, vv in v.items() if kk != "handle"}
		    for k, v in o.items()} for o in l]
sys.exit(strip(a) != strip(b))' "$dir/golden.json" "$dir/relisted.json"; then
	ok "the -j listing loads back to the same -j listing"
else
	not_ok "the -j listing loads back to the same -j listing"
	diff "$dir/golden.json" "$dir/relisted.json" | diag
fi

{ cat "$golden.in"; printf '\nlist secmarks\nlist secmark ip t2 a\nlist secmarks table inet t\n'; } >"$dir/list.nft"
# shellcheck disable=SC2086
$TOOL --offline -f "$dir/list.nft" >"$dir/list.out" 2>&1
expect_eq "list secmarks, list secmark, list secmarks table" \
'table inet t {
	secmark sshtag {
		"system_u:object_r:ssh_server_packet_t:s0"
	}
	secmark http {
		comment "web traffic"
		"system_u:object_r:http_server_packet_t:s0"
	}
	secmark dns {
		"system_u:object_r:dns_server_packet_t:s0"
	}
	secmark ntp {
		"system_u:object_r:ntp_server_packet_t:s0"
	}
	secmark ntp2 {
		comment "time"
		"system_u:object_r:ntp_server_packet_t:s0"
	}
}
table ip t2 {
	secmark a {
		"system_u:object_r:a_t:s0"
	}
}
table ip t2 {
	secmark a {
		"system_u:object_r:a_t:s0"
	}
}
table inet t {
	secmark sshtag {
		"system_u:object_r:ssh_server_packet_t:s0"
	}
	secmark http {
		comment "web traffic"
		"system_u:object_r:http_server_packet_t:s0"
	}
	secmark dns {
		"system_u:object_r:dns_server_packet_t:s0"
	}
	secmark ntp {
		"system_u:object_r:ntp_server_packet_t:s0"
	}
	secmark ntp2 {
		comment "time"
		"system_u:object_r:ntp_server_packet_t:s0"
	}
}' "$(cat "$dir/list.out")"

# --- objects as a kernel dump carries them ----------------------------------
# NEWTABLE and NEWOBJ messages as the kernel writes them (a context with its
# NUL), listed through the dump callbacks by fuzz-netlink's replay
lister=${FUZZ_DIR:-$REPO_DIR/tests/fuzz}/fuzz-netlink
python3 - "$dir/dump" <<'EOF'
import struct, sys

def attr(t, payload):
    n = 4 + len(payload)
    return struct.pack('=HH', n, t) + payload + b'\0' * ((4 - n % 4) % 4)

def strz(s):
    return s.encode() + b'\0'

def msg(mtype, attrs):
    body = struct.pack('=BBH', 1, 0, 0) + b''.join(attrs)   # NFPROTO_INET
    return struct.pack('=IHHII', 16 + len(body), (10 << 8) | mtype, 2, 0, 0) + body

def secmark(name, ctx, handle, comment=None):
    # TABLE, NAME, TYPE (8: secmark), DATA { SECMARK_CTX }, USE, HANDLE, USERDATA
    a = [attr(1, strz('t')), attr(2, strz(name)), attr(3, struct.pack('>I', 8)),
         attr(4 | 0x8000, attr(1, ctx)), attr(5, struct.pack('>I', 0)),
         attr(6, struct.pack('>Q', handle))]
    if comment is not None:
        a.append(attr(8, bytes([0, len(strz(comment))]) + strz(comment)))
    return msg(0x12, a)

out = msg(0, [attr(1, strz('t')), attr(2, struct.pack('>I', 0)),
              attr(3, struct.pack('>I', 0)), attr(4, struct.pack('>Q', 1))])
out += secmark('ssh', strz('system_u:object_r:ssh_server_packet_t:s0'), 2, 'ssh servers')
out += secmark('nonul', b'system_u:object_r:x_t:s0', 3)
out += secmark('toolong', strz('a' * 255), 4)
out += secmark('empty', b'', 5)
out += secmark('longest', strz('b' * 254), 6)
open(sys.argv[1], 'wb').write(out)
EOF
if [ -x "$lister" ]; then
	# shellcheck disable=SC2086 # $FUZZ_WRAP is split on purpose
	NFH_FUZZ_LIST=1 ${FUZZ_WRAP:-} "$lister" "$dir/dump" >"$dir/dump.out" 2>&1
	expect_eq "dumped secmark objects list; broken contexts are left out" \
"table inet t {
	secmark ssh {
		comment \"ssh servers\"
		\"system_u:object_r:ssh_server_packet_t:s0\"
	}

	secmark longest {
		\"$(printf 'b%.0s' $(seq 254))\"
	}
}" "$(cat "$dir/dump.out")"
else
	echo "ok - dumped secmark objects list # SKIP no $lister: run make"
fi

# --- the kernel ---------------------------------------------------------------
ns_new NS || exit 99
# whether this kernel makes secmark objects, asked of nft where there is one
probe=$TOOL
command -v nft >/dev/null 2>&1 && probe=nft
# shellcheck disable=SC2086 # $probe is split into words on purpose
probe_out=$(feature_ruleset secmark | ip netns exec "$NS" $probe -f - 2>&1)
probe_rc=$?
in_ns "$NS" nft flush ruleset 2>/dev/null || tool "$NS" flush ruleset
cat >"$dir/rules.nft" <<EOF
table inet t {
	secmark ssh {
		"$ctx"
	}

	map tags {
		type inet_service : secmark
		elements = { 22 : "ssh" }
	}

	chain input {
		type filter hook input priority filter; policy accept;
		ct state new meta secmark set tcp dport map @tags
		ct state new ct secmark set meta secmark
		ct state established,related meta secmark set ct secmark
		tcp dport 2222 meta secmark set "ssh"
	}
}
EOF
load "$NS" "a table to keep" <<EOF
table inet keep {
	counter c {
		packets 0 bytes 0
	}
}
EOF
before=$(tool "$NS" list ruleset)

if [ $probe_rc -ne 0 ]; then
	case $probe_out in
	*'No such file or directory'*) ;;
	*)	echo "ok - the kernel's refusal # SKIP it is not ENOENT: ${probe_out%%$'\n'*}"
		finish ;;
	esac
	echo "# the kernel makes no secmark objects here (no SELinux, or none built in)"
	cd "$dir" || exit 1
	for mode in -c ""; do
		# shellcheck disable=SC2086 # an empty $mode is no argument
		tool "$NS" $mode -f rules.nft 2>err
		expect_eq "${mode:+-c: }the load fails" 1 $?
		expect_eq "${mode:+-c: }the error names the object and says why" \
			"rules.nft:2:10-12: Error: Could not process secmark: No such file or directory: the kernel has no security ID for \"$ctx\" (no security module that knows the context, such as SELinux, is active, or the kernel lacks secmark objects); the ruleset is unchanged" \
			"$(sed -n 1p err)"
		expect_eq "${mode:+-c: }with the caret under its name" \
			$'\tsecmark ssh {\n\t        ^^^' "$(sed -n 2,3p err)"
		expect_eq "${mode:+-c: }only the object gets that error" 1 \
			"$(grep -c 'Could not process secmark' err)"
		expect_eq "${mode:+-c: }the ruleset is unchanged" "$before" \
			"$(tool "$NS" list ruleset)"
	done
	tool "$NS" add secmark inet keep s "\"$ctx\"" 2>err
	expect_eq "a command gets the same error" \
		"Error: Could not process secmark: No such file or directory: the kernel has no security ID for \"$ctx\" (no security module that knows the context, such as SELinux, is active, or the kernel lacks secmark objects); the ruleset is unchanged" \
		"$(sed -n 1p err)"
	tool "$NS" add secmark inet nosuch s "\"$ctx\"" 2>err
	expect_eq "a missing table is a missing table" \
		"Error: Could not process object: No such file or directory" \
		"$(sed -n 1p err)"
	expect_eq "still unchanged" "$before" "$(tool "$NS" list ruleset)"
	finish
fi

echo "# the kernel makes secmark objects"
check "the ruleset loads" tool "$NS" -f "$dir/rules.nft"
expect_eq "and lists back" "$before
$(cat "$dir/rules.nft")" "$(tool "$NS" list ruleset)"
expect_eq "list secmark" "table inet t {
	secmark ssh {
		\"$ctx\"
	}
}" "$(tool "$NS" list secmark inet t ssh)"
check "-j list names the context" sh -c \
	"ip netns exec $NS $TOOL -j list secmarks | grep -q '\"context\": \"$ctx\"'"
if command -v nft >/dev/null 2>&1; then
	expect_eq "nft lists what nfh loaded the same" \
		"$(in_ns "$NS" nft list ruleset)" "$(tool "$NS" list ruleset)"
fi
check "a new one by command" tool "$NS" add secmark inet t web '"system_u:object_r:http_server_packet_t:s0"'
check "deleted by name" tool "$NS" delete secmark inet t web
expect_eq "gone" "" "$(tool "$NS" list secmarks table inet t | grep web)"
finish
