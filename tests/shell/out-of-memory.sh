#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: under an address-space limit (ulimit -v) too small for the work,
# "--offline -c" of a 100,000-element set (text and JSON), and "list
# ruleset" and "-j list ruleset" of a kernel holding it, end in "out of
# memory" with exit status 2 at every limit tried, never in a signal;
# with room enough they succeed.  Each limit runs the same command again,
# so an allocation whose failure is not checked anywhere on the way shows
# as a crash at some limit (libnftnl objects and their setters, the
# scanner's buffers, jansson's values).
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root
require_cmd python3
case $TOOL in
*valgrind*) echo "# valgrind does not run under a small ulimit -v"; exit 77 ;;
*memcheck-exec*) echo "# the sanitizers reserve more address space than the limit"; exit 77 ;;
esac

ns_new NS
dir=$(tmpdir)
cd "$dir" || exit 1

python3 - <<'PY'
n = 100000
with open('big.nft', 'w') as f:
    f.write('table ip t {\n\tset s {\n\t\ttype ipv4_addr\n\t\telements = {\n')
    f.write(',\n'.join('\t\t\t10.%d.%d.%d' % (i >> 16, (i >> 8) & 255, i & 255)
                       for i in range(n)))
    f.write('\n\t\t}\n\t}\n\tchain c {\n\t\tip saddr @s counter drop\n\t}\n}\n')
import json
elems = ['10.%d.%d.%d' % (i >> 16, (i >> 8) & 255, i & 255) for i in range(n)]
with open('big.json', 'w') as f:
    json.dump({'nftables': [
        {'add': {'table': {'family': 'ip', 'name': 't'}}},
        {'add': {'set': {'family': 'ip', 'table': 't', 'name': 's',
                         'type': 'ipv4_addr'}}},
        {'add': {'element': {'family': 'ip', 'table': 't', 'name': 's',
                             'elem': elems}}}]}, f)
PY

# sweep DESC FROM STEP TO CMD...: run CMD in $NS under "ulimit -v" of FROM, FROM +
# STEP, ... KB up to TO, or up to the first limit it succeeds at.  Each run
# must exit 0, or 2 with "out of memory"; one must run out, one succeed.
sweep() {
	local desc=$1 from=$2 step=$3 to=$4 v rc oom=0 okat= why=
	shift 4
	for ((v = from; v <= to; v += step)); do
		# the limit is set in the namespace, for nfh alone
		ip netns exec "$NS" sh -c 'ulimit -v "$0" && exec "$@"' "$v" \
			"$@" >/dev/null 2>err
		rc=$?
		if [ $rc -eq 0 ]; then
			okat=$v
			break
		elif [ $rc -eq 2 ] && grep -q 'out of memory' err; then
			oom=$((oom + 1))
		elif [ $rc -eq 127 ] && grep -q 'error while loading shared' err; then
			:	# too small to start: not ours
		else
			why="$why at $v KB exit $rc ($(head -c 80 err | tr '\n' ' '));"
		fi
	done
	[ $oom -gt 0 ] || why="$why never out of memory;"
	[ -n "$okat" ] || why="$why never succeeded up to $to KB;"
	if [ -z "$why" ]; then
		ok "$desc: $oom limits out of memory (exit 2), succeeds at $okat KB"
	else
		not_ok "$desc:$why"
	fi
}

# shellcheck disable=SC2086
sweep "--offline -c of a 100,000-element set" 12288 3072 262144 \
	$TOOL --offline -c -f big.nft
# jansson's allocations too: its parser called a failed one "invalid JSON"
# shellcheck disable=SC2086
sweep "--offline -c -j of a 100,000-element set" 8192 4096 262144 \
	$TOOL --offline -c -j -f big.json
# shellcheck disable=SC2086
check "the set loads" ip netns exec "$NS" $TOOL -f big.nft
# shellcheck disable=SC2086
sweep "list ruleset of a 100,000-element set" 6144 512 262144 \
	$TOOL list ruleset
# shellcheck disable=SC2086
sweep "-j list ruleset of a 100,000-element set" 8192 4096 262144 \
	$TOOL -j list ruleset
finish
