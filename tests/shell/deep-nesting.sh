#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: under a 256 KB stack (ulimit -s 256), operators nested 1,023
# deep ("meta mark 1|2|...|1024") still compile; deeper ones ("|" chains
# of 5,000 and 50,000, parentheses, a chain of defines each "$prev | N")
# fail with exit 1 and "nested too deeply" under the line, never a
# signal; a chain of 50,000 defines that only rename still compiles.
# JSON expressions nest at most 512 levels: 500 compile, 1,000 fail.
# nft 1.0.6 has no bound: it crashes on 5,000 under this stack.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_cmd python3
case $TOOL in
*valgrind*) echo "# valgrind keeps its own stack"; exit 77 ;;
esac
# ASan's frames are several times larger (redzones, no reuse of slots)
stack=256
case $TOOL in *memcheck-exec*) stack=4096 ;; esac

dir=$(tmpdir)
cd "$dir" || exit 1

python3 - <<'PY'
def rule(name, body, defs=''):
    with open(name + '.nft', 'w') as f:
        f.write(defs + 'table ip t {\n\tchain c {\n\t\t' + body + '\n\t}\n}\n')
ors = lambda n: '|'.join(str(i) for i in range(1, n + 1))
rule('or1024', 'meta mark ' + ors(1024))
rule('set1023', 'meta mark set meta mark|' + ors(1023))
rule('or5000', 'meta mark ' + ors(5000))
rule('set50000', 'meta mark set meta mark|' + ors(50000))
rule('parens', 'meta mark ' + '(' * 3000 + '1' +
     ''.join('|%d)' % i for i in range(3000)))
rule('defor', 'meta mark $a4999', 'define a0 = 1\n' +
     ''.join('define a%d = $a%d | %d\n' % (i, i - 1, i) for i in range(1, 5000)))
rule('alias', 'meta mark $a49999', 'define a0 = 1\n' +
     ''.join('define a%d = $a%d\n' % (i, i - 1) for i in range(1, 50000)))
for n in (500, 1000):	# JSON: "meta mark set meta mark | 0 | 1 ...", n deep
    v = '{"|": [' * n + '{"meta": {"key": "mark"}}' + \
        ''.join(', %d]}' % i for i in range(n))
    with open('json%d.json' % n, 'w') as f:
        f.write('{"nftables": [{"add": {"table": {"family": "ip", "name": "t"}}},\n'
                '{"add": {"chain": {"family": "ip", "table": "t", "name": "c"}}},\n'
                '{"add": {"rule": {"family": "ip", "table": "t", "chain": "c", '
                '"expr": [{"mangle": {"key": {"meta": {"key": "mark"}}, '
                '"value": ' + v + '}}]}}}]}\n')
PY

# run FILE: $TOOL --offline -c -f FILE.nft (or -j -f FILE.json) under a
# 256 KB stack; sets $rc
run() {
	local f=$1.nft j=
	[ -f "$1.json" ] && f=$1.json j=-j
	# shellcheck disable=SC2086 # $TOOL is split on purpose
	(ulimit -s "$stack" && exec $TOOL --offline -c $j -f "$f") >out 2>err
	rc=$?
}

# deep DESC FILE LINE: FILE fails with exit 1 and "nested too deeply" at
# FILE:LINE, with a caret
deep() {
	run "$2"
	if [ $rc -eq 1 ] &&
	   grep -Eq "^$2\.(nft|json):$3:[0-9]+-[0-9]+: Error: expression nested too deeply" err &&
	   grep -q '\^' err; then
		ok "$1: exit 1, nested too deeply at $2:$3"
	else
		not_ok "$1: exit $rc"
		head -c 600 err | cut -c1-160 | diag
	fi
}

# fine DESC FILE: FILE compiles
fine() {
	run "$2"
	if [ $rc -eq 0 ]; then
		ok "$1: compiles"
	else
		not_ok "$1: exit $rc"
		head -c 600 err | cut -c1-160 | diag
	fi
}

fine "1,023 operators in a relation" or1024
fine "1,023 operators in meta mark set" set1023
deep "5,000 operators in a relation" or5000 3
deep "50,000 operators in meta mark set" set50000 3
deep "3,000 parenthesised operators" parens 3
deep "5,000 defines, each \$prev | N" defor 5003
fine "50,000 defines, each naming the one before" alias
fine "JSON: 500 nested operators" json500
deep "JSON: 1,000 nested operators (at most 512 levels)" json1000 3
finish
