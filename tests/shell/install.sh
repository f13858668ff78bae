#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: make install puts nfh, libnfhook and libnftables-nfh with their
# headers, the pkg-config file, the libnftables.so.1 link for
# LD_LIBRARY_PATH, the man pages, the unit and the bash completion where
# they belong, make uninstall
# takes them all away again, -V and --help say what they should, and nfh(8)
# documents every option --help lists, and no other
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
if [ ! -f "$REPO_DIR/Makefile" ]; then
	echo "# no configured build tree"
	exit 77
fi
# libtool relinks libnftables-nfh against the installed libnfhook, in
# src/.libs: not in the test kernel's guest, where the tree is read-only
if [ ! -w "$REPO_DIR/src/.libs" ]; then
	echo "# the build tree is read-only (make install relinks in src/.libs)"
	exit 77
fi
dest=$(tmpdir)/dest
# shellcheck disable=SC2317 # run through check
mk() { make -s -C "$REPO_DIR" "$@" DESTDIR="$dest" >/dev/null 2>&1; }
# installed paths, relative to the prefix where there is one
vars=$(make -s -C "$REPO_DIR" -f - print-dirs <<'EOF2'
include Makefile
print-dirs:
	@echo "$(sbindir) $(libdir) $(includedir) $(mandir) $(unitdir) $(bashcompletiondir) $(pkglibdir)"
EOF2
)
read -r sbindir libdir includedir mandir unitdir compdir pkglibdir <<<"$vars"

check "make install" mk install
for f in "$sbindir/nfh" "$libdir/libnfhook.so.0" "$includedir/nfhook/libnfhook.h" \
	"$mandir/man8/nfh.8" "$mandir/man5/nfhook.conf.5" \
	"$unitdir/nfhook.service" "$compdir/nfh" \
	"$libdir/libnftables-nfh.so.1" "$includedir/nfhook/nftables/libnftables.h" \
	"$libdir/pkgconfig/libnftables-nfh.pc" "$mandir/man3/libnftables-nfh.3"; do
	if [ -f "$dest$f" ]; then ok "installed $f"; else not_ok "installed $f"; fi
done
if grep -q "^ExecStart=$sbindir/nfh " "$dest$unitdir/nfhook.service"; then
	ok "the unit runs the installed nfh"
else
	not_ok "the unit runs the installed nfh"
fi
# the name programs linked against libnftables ask for, for LD_LIBRARY_PATH
expect_eq "\$(pkglibdir)/libnftables.so.1 is libnftables-nfh.so.1" \
	"$(readlink -f "$dest$libdir/libnftables-nfh.so.1")" \
	"$(readlink -f "$dest$pkglibdir/libnftables.so.1")"
check "make uninstall" mk uninstall
expect_eq "nothing left after uninstall" "" "$(find "$dest" -type f -o -type l)"

version=$(make -s -C "$REPO_DIR" -f - print-version <<'EOF2'
include Makefile
print-version:
	@echo "$(VERSION)"
EOF2
)
if [[ $TOOL == *nfh* ]]; then
	# shellcheck disable=SC2086
	expect_eq "-V names nfh and the package version" "nfh $version (nfhook)" "$($TOOL -V)"
	# shellcheck disable=SC2086
	expect_eq "--help starts with the usage line" "Usage: nfh [ options ] [ cmds... ]" \
		"$($TOOL --help | head -n1)"
fi

# shellcheck disable=SC2086
help=$($TOOL --help | grep -oE -- '--[a-z][a-z-]*' | sort -u)
man=$(grep -oE -- '\\-\\-[a-z][a-z\\-]*' "$REPO_DIR/doc/nfh.8.in" |
	sed 's/\\//g' | sort -u)
if [[ $TOOL == *nfh* ]]; then
	expect_eq "nfh(8) documents exactly the options of --help" "$help" "$man"
fi
finish
