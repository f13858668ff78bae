#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: --offline refuses what the kernel refuses, with the same error
# under the same place: a rule of 129 expressions (the kernel takes 128:
# EINVAL), a netdev chain of 256 dummy devices (255: EFBIG), a zero-length
# value (ip daddr 0.0.0.0/0 as nfh compiles it today).  One less loads
# both ways.  nft 1.0.6 sending the same file into a namespace shows that
# the kernel refuses it too.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root
require_cmd python3

dir=$(tmpdir)
cd "$dir" || exit 1

python3 - <<'PY'
def rule(name, n):	# n "meta mark N" (2 expressions each), then counter
    with open(name + '.nft', 'w') as f:
        f.write('table ip t {\n\tchain c {\n\t\t' +
                ' '.join('meta mark %d' % i for i in range(n)) +
                ' counter\n\t}\n}\n')
rule('exprs129', 64)
rule('exprs127', 63)
def devs(name, n):
    with open(name + '.nft', 'w') as f:
        f.write('table netdev t {\n\tchain c {\n\t\ttype filter hook ingress devices = { ' +
                ', '.join('d%d' % i for i in range(n)) +
                ' } priority 0;\n\t}\n}\n')
devs('devs256', 256)
devs('devs255', 255)
with open('zero.nft', 'w') as f:
    f.write('table ip t {\n\tchain c {\n\t\tip daddr 0.0.0.0/0 counter\n\t}\n}\n')
PY

# outcome CMD...: "rc=N" and the first error line's FILE:LINE: Error: MSG
# (the kernel's answer marks the expression it refused, the offline model
# the rule: the columns may differ)
outcome() {
	local rc
	"$@" >out 2>err
	rc=$?
	printf 'rc=%d %s\n' $rc "$(grep -m1 ': Error: ' err |
		sed 's/^\([^:]*:[0-9]*\):[0-9-]*: /\1: /')"
}

# dummies NS: dummy devices d0 to d255 in NS, the devices the devs
# files name (a kernel before 6.16 refuses a chain on a device that does
# not exist, ENOENT, before it counts them; 6.16 and later take one)
dummies() {
	local i
	for i in $(seq 0 255); do
		echo "link add d$i type dummy"
	done | ip -n "$1" -batch - >/dev/null 2>&1
}
r=$(uname -r)
maj=${r%%.*} min=${r#*.}
min=${min%%[!0-9]*}
missing_ok=0
{ [ "$maj" -gt 6 ] || { [ "$maj" -eq 6 ] && [ "$min" -ge 16 ]; }; } && missing_ok=1

# agree NAME NFT-TOO [DEVS]: the kernel (nfh -c in a fresh namespace, with
# the dummy devices if DEVS is 1) and --offline end the same; with NFT-TOO
# 1, nft 1.0.6 fails there too
agree() {
	local name=$1 nft_too=$2 kernel offline nft
	ns_new NS || exit 99
	if [ "${3:-0}" = 1 ] && ! dummies "$NS" && [ $missing_ok = 0 ]; then
		echo "ok - $name: --offline ends as the kernel does # SKIP no dummy devices, and Linux $r (before 6.16) refuses a chain on a missing device"
		echo "skip"
		return
	fi
	# shellcheck disable=SC2086 # $TOOL is split on purpose
	kernel=$(outcome ip netns exec "$NS" $TOOL -c -f "$name.nft")
	# shellcheck disable=SC2086
	offline=$(outcome $TOOL --offline -c -f "$name.nft")
	expect_eq "$name: --offline ends as the kernel does" "$kernel" "$offline"
	if [ "$nft_too" = 1 ] && command -v nft >/dev/null; then
		nft=$(outcome ip netns exec "$NS" nft -c -f "$name.nft")
		case $nft:$kernel in
		rc=0*:rc=0* | rc=1*:rc=1*) ok "$name: nft 1.0.6 ends the same (${nft%% *})" ;;
		*) not_ok "$name: nft 1.0.6: $nft, the kernel via nfh: $kernel" ;;
		esac
	fi
	printf '%s\n' "$kernel"
}

r=$(agree exprs129 1); printf '%s\n' "$r" | sed '$d'
case ${r##*$'\n'} in
'rc=1 exprs129.nft:3: Error: Could not process rule: Invalid argument') ok "129 expressions: refused under the rule" ;;
*) not_ok "129 expressions: ${r##*$'\n'}" ;;
esac
r=$(agree exprs127 1); printf '%s\n' "$r" | sed '$d'
case ${r##*$'\n'} in rc=0*) ok "128 expressions load" ;; *) not_ok "128 expressions: ${r##*$'\n'}" ;; esac
r=$(agree devs256 1 1); printf '%s\n' "$r" | sed '$d'
case ${r##*$'\n'} in
'rc=1 devs256.nft:2: Error: Could not process chain: File too large') ok "256 devices: refused under the chain" ;;
skip) echo "ok - 256 devices: refused under the chain # SKIP as above" ;;
*) not_ok "256 devices: ${r##*$'\n'}" ;;
esac
r=$(agree devs255 1 1); printf '%s\n' "$r" | sed '$d'
case ${r##*$'\n'} in
rc=0*) ok "255 devices load" ;;
skip) echo "ok - 255 devices load # SKIP as above" ;;
*) not_ok "255 devices: ${r##*$'\n'}" ;;
esac
r=$(agree zero 0); printf '%s\n' "$r" | sed '$d'
finish
