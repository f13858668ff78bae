#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench/growth.sh [CASE...]: times nfh on inputs of size N and 10N and
# prints the ratio of the two times.  Near-linear work gives about 10
# (less while start-up dominates); quadratic work gives about 100.
#
#   defines   a chain of N defines, each naming the one before
#   refused   N rules the kernel refuses (a jump to a missing chain), each
#             reported under its line (root: runs in a network namespace
#             of its own made with unshare -n)
#   json      N JSON "add table" commands, --offline -c
#   chains    N chains in one table block, --offline -c
#
# SCALE (default 1) multiplies every N (defines 5000, refused 5000, json
# 2000, chains 4000); NFH is the nfh command line (default: this tree's
# src/nfh); MAX_RATIO, if set, makes the exit status 1 when a ratio is
# above it (tests/shell/linear-growth.sh uses 25); TIMEOUT (default 120)
# bounds each run in seconds, and a run that times out counts as above
# any MAX_RATIO.
DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
: "${NFH:=$DIR/../src/nfh}"
: "${SCALE:=1}"
: "${TIMEOUT:=120}"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/nfh-growth.XXXXXX") || exit 1
trap 'rm -rf "$WORK"' EXIT

# gen CASE N FILE: write the input of CASE at size N
gen() {
	python3 - "$@" <<'PY'
import json, sys
case, n, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
with open(path, 'w') as f:
    if case == 'defines':
        f.write('define a0 = 1\n')
        for i in range(1, n):
            f.write('define a%d = $a%d\n' % (i, i - 1))
        f.write('table ip t {\n\tchain c {\n\t\tmeta mark $a%d\n\t}\n}\n' % (n - 1))
    elif case == 'refused':
        f.write('table ip t {\n\tchain c {\n')
        for i in range(n):
            f.write('\t\tip saddr 10.%d.%d.%d jump nosuch\n'
                    % (i >> 16, (i >> 8) & 255, i & 255))
        f.write('\t}\n}\n')
    elif case == 'json':
        cmds = [{'add': {'table': {'family': 'ip', 'name': 't%d' % i}}}
                for i in range(n)]
        json.dump({'nftables': cmds}, f, indent=1)
    elif case == 'chains':
        f.write('table ip t {\n')
        for i in range(n):
            f.write('\tchain c%d {\n\t}\n' % i)
        f.write('}\n')
PY
}

# run CASE FILE: nfh on FILE as CASE needs; prints the wall time in ms,
# or "timeout"
run() {
	local case=$1 file=$2 t0 t1 rc
	t0=$(date +%s%N)
	case $case in
	refused)
		# shellcheck disable=SC2086 # $NFH is split on purpose
		timeout "$TIMEOUT" unshare -n $NFH -f "$file" >/dev/null 2>&1
		rc=$? ;;
	json)
		# shellcheck disable=SC2086
		timeout "$TIMEOUT" $NFH --offline -c -j -f "$file" >/dev/null 2>&1
		rc=$? ;;
	*)
		# shellcheck disable=SC2086
		timeout "$TIMEOUT" $NFH --offline -c -f "$file" >/dev/null 2>&1
		rc=$? ;;
	esac
	t1=$(date +%s%N)
	if [ $rc -eq 124 ]; then
		echo timeout
	else
		echo $(((t1 - t0) / 1000000))
	fi
}

base() {
	case $1 in
	defines) echo 5000 ;; refused) echo 5000 ;;
	json) echo 2000 ;; chains) echo 4000 ;;
	esac
}

cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=(defines refused json chains)
status=0
printf '%-8s %8s %9s %8s %9s %7s\n' case N ms 10N ms ratio
for c in "${cases[@]}"; do
	n=$(awk -v b="$(base "$c")" -v s="$SCALE" 'BEGIN { printf "%d", b * s }')
	if [ "$n" -eq 0 ]; then
		echo "unknown case $c" >&2
		exit 2
	fi
	if [ "$c" = refused ] && [ "$(id -u)" -ne 0 ]; then
		echo "refused: needs root (skipped)"
		continue
	fi
	gen "$c" "$n" "$WORK/small"
	gen "$c" $((n * 10)) "$WORK/big"
	# the best of three for the small size, whose time start-up blurs
	small=
	for _ in 1 2 3; do
		t=$(run "$c" "$WORK/small")
		[ "$t" = timeout ] && { small=$t; break; }
		[ -z "$small" ] || [ "$t" -lt "$small" ] && small=$t
	done
	big=$(run "$c" "$WORK/big")
	if [ "$small" = timeout ] || [ "$big" = timeout ]; then
		ratio=timeout
		[ -n "${MAX_RATIO:-}" ] && status=1
	else
		[ "$small" -gt 0 ] || small=1
		ratio=$(awk -v a="$small" -v b="$big" 'BEGIN { printf "%.1f", b / a }')
		if [ -n "${MAX_RATIO:-}" ] &&
		   awk -v r="$ratio" -v m="$MAX_RATIO" 'BEGIN { exit !(r > m) }'; then
			status=1
		fi
	fi
	printf '%-8s %8d %9s %8d %9s %7s\n' "$c" "$n" "$small" $((n * 10)) "$big" "$ratio"
done
exit $status
