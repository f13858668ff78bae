#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# timeout-scale: 10
# checks libnftables-nfh.so.1 against Debian's libnftables.so.1, each in
# namespaces of its own:
# - libnfhook's buffered streams, include paths, variables and
#   NFH_OUTPUT_NUMERIC_SYMBOL (tests/c/nfh-buffer, offline);
# - a C client using only nft 1.0.6's calls (tests/c/nft-ctx.c): built
#   against Debian's libnftables.so.1, then run once on it and once on
#   nfhook's library through LD_LIBRARY_PATH and a libnftables.so.1 link
#   (as make install puts in $(pkglibdir)), and once as built against
#   libnftables-nfh: the three logs agree, up to the differences below;
# - Debian's python3-nftables on every listing golden: cmd(), json_cmd(),
#   json_validate(), the set_*_output toggles, dry run, echo, JSON echo,
#   a file run with a variable and errors, through both libraries
#   (tests/libnftables-compat.py says what is compared and which
#   differences it allows).
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root
guest_slow "two library runs over every golden, about 40 processes and 7 namespaces per golden each: 12 minutes under TCG (kernel/README.md)"
py=/usr/bin/python3
if ! [ -x "$py" ] || ! "$py" -c 'import nftables' 2>/dev/null; then
	echo "# needs Debian's python3-nftables (scripts/setup.sh installs it)"
	exit 77
fi
debian=$(ldconfig -p | awk '$1 == "libnftables.so.1" { print $NF; exit }')
ours=$REPO_DIR/src/.libs/libnftables-nfh.so.1
if [ -z "$debian" ]; then
	echo "# needs the system's libnftables.so.1"
	exit 77
fi
if ! [ -f "$ours" ] || ! [ -x "$REPO_DIR/tests/c/nft-ctx" ]; then
	echo "# no libnftables-nfh.so.1 built in $REPO_DIR"
	exit 77
fi
dir=$(tmpdir)

# libnfhook's own calls, offline
mkdir "$dir/buf"
out=$("$REPO_DIR/tests/c/nfh-buffer" "$dir/buf" 2>&1)
printf '%s\n' "$out"
grep -q '^not ok' <<<"$out" && FAILED=$((FAILED + 1))

# the version nodes: every call Debian's library exports, under the same
# version, and nothing else
syms() {
	objdump -T "$1" | awk '$2 == "g" && /LIBNFTABLES_/ { print $(NF-1), $NF }' | sort
}
if command -v objdump >/dev/null; then
	expect_eq "libnftables-nfh.so.1 exports Debian's calls under its version nodes" \
		"$(syms "$debian")" "$(syms "$ours")"
fi

# the C client.  The logs differ where the two engines do (and not in the
# library calls): nfh's error messages are its own (tests/diff compares
# the engines); the JSON metainfo names each library; an echo names the
# process.
normalize_log() {
	sed -e 's/"version": "[^"]*", "release_name": "[^"]*"/"version": "V", "release_name": "R"/' \
		-e 's/by process [0-9]* ([^)]*)/by process PID/' \
		-e 's|/nfh-test\.[A-Za-z0-9]*/[a-z0-9]*|/SCRATCH|g' \
		-e 's/^  err: ".\+"$/  err: (an error)/' "$1"
}
c_run() {	# NAME PROGRAM [ENV...]: the client's log, in a namespace of its own
	local name=$1 prog=$2
	shift 2
	mkdir "$dir/$name"
	unshare -n env "$@" "$prog" "$dir/$name" >"$dir/$name.log" 2>&1
	echo "exit $?" >>"$dir/$name.log"
}
c_run ours "$REPO_DIR/tests/c/nft-ctx"
if command -v cc >/dev/null &&
	cc -o "$dir/nft-ctx-debian" -I"$REPO_DIR/include/nfhook" \
		"$REPO_DIR/tests/c/nft-ctx.c" "$debian" 2>"$dir/cc.err"; then
	mkdir "$dir/lib"
	ln -s "$ours" "$dir/lib/libnftables.so.1"
	c_run debian "$dir/nft-ctx-debian"
	c_run swapped "$dir/nft-ctx-debian" LD_LIBRARY_PATH="$dir/lib"
	expect_eq "the C client linked with libnftables.so.1 loads nfhook's through LD_LIBRARY_PATH" \
		"$(readlink -f "$ours")" "$(unshare -n env LD_LIBRARY_PATH="$dir/lib" sh -c \
			'ldd "$1" | sed -n "s/.*libnftables.so.1 => \([^ ]*\) .*/\1/p"' sh \
			"$dir/nft-ctx-debian" | xargs readlink -f)"
	normalize_log "$dir/debian.log" >"$dir/debian.n"
	for who in ours swapped; do
		case $who in
		ours) desc="C client built against libnftables-nfh" ;;
		*) desc="C client linked with Debian's, run on nfhook's" ;;
		esac
		normalize_log "$dir/$who.log" >"$dir/$who.n"
		expect_eq "$desc: what Debian's library gives" \
			"$(sed -e '/^  err:/d' "$dir/debian.n")" "$(sed -e '/^  err:/d' "$dir/$who.n")"
		expect_eq "$desc: errors where Debian's library has them" \
			"$(grep -c '^  err: (an error)' "$dir/debian.n")" \
			"$(grep -c '^  err: (an error)' "$dir/$who.n")"
	done
else
	echo "ok - C client against Debian's libnftables # SKIP no C compiler: $(head -c 200 "$dir/cc.err" 2>/dev/null)"
fi
expect_eq "C client on nfhook's library ends well" "exit 0" "$(tail -n1 "$dir/ours.log")"

# python3-nftables over the goldens: the driver makes a network
# namespace of its own for each golden
mkdir "$dir/a" "$dir/b"
unshare -n "$py" "$REPO_DIR/tests/libnftables-compat.py" run "$debian" nft \
	"$REPO_DIR" "$dir/a/rec.json" 2>"$dir/a.err"
check "python3-nftables on Debian's library ran" test -s "$dir/a/rec.json"
unshare -n "$py" "$REPO_DIR/tests/libnftables-compat.py" run "$ours" "$TOOL" \
	"$REPO_DIR" "$dir/b/rec.json" 2>"$dir/b.err"
if ! test -s "$dir/b/rec.json"; then
	not_ok "python3-nftables on nfhook's library ran"
	diag <"$dir/b.err"
	finish
fi
ok "python3-nftables on nfhook's library ran"
"$py" "$REPO_DIR/tests/libnftables-compat.py" compare "$dir/a/rec.json" \
	"$dir/b/rec.json" >"$dir/tap" || FAILED=$((FAILED + 1))
cat "$dir/tap"
finish
