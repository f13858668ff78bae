#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: inputs too big, too deep or plain wrong (include nesting past the
# limit, /dev/zero included, a 10 MB file and a 10 MB line, a 10 MB name,
# a 10 MB unterminated string, 100,000 bad lines, jump loops the kernel
# refuses) each fail "$TOOL -c -f" with exit status 1 and
# FILE:LINE:COL: Error: for the right line, a caret under it, at most 64 KB
# of messages (the first 100 errors, then a count of the others) and within
# 30 seconds.  In the TCG guest of make check-kernel (NFH_IN_VM=1), which
# runs code 10 to 20 times slower, the many bad lines are 10,000 and the
# bound is 120 seconds.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root
require_cmd python3

ns_new NS
dir=$(tmpdir)
limit=30 many=100000 many_text=100,000
if [ "${NFH_IN_VM:-}" = 1 ]; then
	limit=120 many=10000 many_text=10,000
fi
cd "$dir" || exit 1

# expect_error DESC FILE WHERE [MAX-BYTES]: run "$TOOL $FLAGS -f FILE" (FLAGS
# is -c unless set) and check it fails as described above, WHERE being the
# FILE:LINE its error must name
expect_error() {
	local desc=$1 file=$2 where=$3 max=${4:-65536} rc t0 t1 why= out
	out=$(echo "$desc" | tr -c 'a-zA-Z0-9\n' -)
	t0=$(date +%s%N)
	# shellcheck disable=SC2086 # $TOOL and $FLAGS are split on purpose
	timeout -k 5 "$limit" ip netns exec "$NS" $TOOL ${FLAGS--c} -f "$file" \
		>"$out.out" 2>"$out.err"
	rc=$?
	t1=$(date +%s%N)
	[ $rc -eq 1 ] || why="exit status $rc;"
	grep -Eq "^$where:[0-9]+(-[0-9]+)?: Error: " "$out.err" ||
		why="$why no \"$where:COL: Error:\";"
	grep -A2 -E "^$where:[0-9]+(-[0-9]+)?: Error: " "$out.err" |
		grep -Eq '^[[:space:].]*\^' || why="$why no caret under it;"
	[ "$(wc -c <"$out.err")" -le "$max" ] ||
		why="$why $(wc -c <"$out.err") bytes of messages;"
	if [ -z "$why" ]; then
		ok "$desc: exit 1, $where:COL: Error: with a caret, $(((t1 - t0) / 1000000)) ms"
	else
		not_ok "$desc:$why"
		head -c 2000 "$out.err" | cut -c1-200 | diag
	fi
}

# includes nested 24 deep: nft and nfh stop at 16 levels
for i in $(seq 0 23); do
	printf '# level %d\ninclude "./deep%d.nft"\n' "$i" $((i + 1)) >"deep$i.nft"
done
echo 'table ip t' >deep24.nft
expect_error "includes nested too deeply" deep0.nft ./deep16.nft:2

printf 'table ip t\ninclude "/dev/zero"\n' >zero.nft
expect_error "include of /dev/zero" zero.nft zero.nft:2

python3 - "$many" <<'PY'
import sys
big = 10 * 1024 * 1024
bad = 'table ip t {\n\tchain c {\n\t\tip saddr 10.0.0.1 dorp\n\t}\n}\n'
with open('bigfile.nft', 'w') as f:	# 10 MB of comments, then line N
	line = '# ' + 'x' * 60 + '\n'
	f.write(line * (big // len(line) + 1) + bad)
with open('bigline.nft', 'w') as f:	# line 1 is 10 MB long
	f.write('# ' + 'x' * big + '\n' + bad)
with open('bigname.nft', 'w') as f:
	f.write('table ip ' + 't' * big + ' {\n}\n')
with open('bigstring.nft', 'w') as f:
	f.write('table ip t {\n\tchain c {\n\t\tip saddr 10.0.0.1 drop comment "'
		+ 'y' * big + '\n\t}\n}\n')
with open('manyerrors.nft', 'w') as f:
	f.write('table ip t {\n\tchain c {\n' + '\t\tip saddr 10.0.0.1 dorp\n' * int(sys.argv[1])
		+ '\t}\n}\n')
PY
expect_error "10 MB file, error on its last rule" bigfile.nft \
	bigfile.nft:$(($(wc -l <bigfile.nft) - 2))
expect_error "10 MB line, error on the next rule" bigline.nft bigline.nft:4
expect_error "10 MB table name" bigname.nft bigname.nft:1
expect_error "unterminated 10 MB string" bigstring.nft bigstring.nft:3
expect_error "$many_text bad rules" manyerrors.nft manyerrors.nft:3
expect_eq "$many_text bad rules: the first 100 shown" 100 \
	"$(grep -c '^manyerrors.nft:[0-9]*:[0-9-]*: Error: ' "${many_text/,/-}-bad-rules.err")"
expect_eq "$many_text bad rules: every other one counted" \
	"Error: $((many - 100)) more errors not shown (the first 100 are)" \
	"$(tail -n 1 "${many_text/,/-}-bad-rules.err")"

# the kernel finds loops when it commits, not under -c: load for real.
# The error lands on the rule that closes the loop.
FLAGS=
cat >loop.nft <<'NFT'
table ip t {
	chain a {
		jump b
	}
	chain b {
		jump a
	}
	chain input {
		type filter hook input priority 0;
		jump a
	}
}
NFT
expect_error "jump loop reached from a base chain" loop.nft loop.nft:10
cat >self.nft <<'NFT'
table ip t {
	chain input {
		type filter hook input priority 0;
		ip saddr 10.0.0.1 jump input
	}
}
NFT
expect_error "base chain jumping to itself" self.nft self.nft:4
cat >missing.nft <<'NFT'
table ip t {
	chain input {
		type filter hook input priority 0;
		ip saddr 10.0.0.1 accept
		ip saddr 10.0.0.2 jump nowhere
	}
}
NFT
expect_error "jump to a chain that does not exist" missing.nft missing.nft:5
expect_eq "nothing was loaded" "" "$(tool "$NS" list ruleset)"
# the offline model finds the loop on the same line, and nesting past the
# kernel's 15 levels too; the deepest nesting allowed and a loop that no
# base chain reaches load in both
FLAGS="--offline -c"
expect_error "jump loop, offline" loop.nft loop.nft:10
python3 -c '
print("table ip t {\n chain in { type filter hook input priority 0; jump c1; }")
for i in range(1, 17):
    print(" chain c%d { %s; }" % (i, "jump c%d" % (i + 1) if i < 16 else "accept"))
print("}")' >deep-jumps.nft
expect_error "jumps nested 16 deep, offline" deep-jumps.nft deep-jumps.nft:17
FLAGS=
expect_error "jumps nested 16 deep" deep-jumps.nft deep-jumps.nft:17
cat >jumps-ok.nft <<'NFT'
# the deepest the kernel allows, and a loop no base chain reaches: both load
table ip t {
 chain in { type filter hook input priority 0; jump c1; }
 chain c1 { jump c2; }
 chain c2 { jump c3; }
 chain c3 { jump c4; }
 chain c4 { jump c5; }
 chain c5 { jump c6; }
 chain c6 { jump c7; }
 chain c7 { jump c8; }
 chain c8 { jump c9; }
 chain c9 { jump c10; }
 chain c10 { jump c11; }
 chain c11 { jump c12; }
 chain c12 { jump c13; }
 chain c13 { jump c14; }
 chain c14 { jump c15; }
 chain c15 { accept; }
 chain x { jump y; }
 chain y { ip saddr 10.0.0.9 goto x; }
 chain z { jump c1; jump x; }
}
NFT
expect_eq "15 nested jumps and an unreachable loop load" 0 \
	"$(ip netns exec "$NS" $TOOL -f jumps-ok.nft >/dev/null 2>&1; echo $?)"
expect_eq "and offline" 0 \
	"$(ip netns exec "$NS" $TOOL --offline -c -f jumps-ok.nft >/dev/null 2>&1; echo $?)"
tool "$NS" delete table ip t
finish
