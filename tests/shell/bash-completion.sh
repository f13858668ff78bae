#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: files/completion/nfh.bash, loaded by bash-completion, completes
# options (from nfh --help), commands, list objects, families and the
# table names of a live ruleset
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
bc=/usr/share/bash-completion/bash_completion
if [ ! -f "$bc" ]; then
	echo "# needs the bash-completion package"
	exit 77
fi
require_root
ns_new NS
tool "$NS" -f - <<'EOF2' || exit 99
table netdev edge { chain c { counter; }; }
table ip filt { chain c { counter; }; }
EOF2

# complete LINE: what Tab offers after LINE (which ends where the cursor is)
# shellcheck disable=SC2016 # the bash -c script takes its own arguments
complete_line() {
	ip netns exec "$NS" bash -c '
		. "$1"; . "$2"
		PATH=$3:$PATH
		COMP_LINE=$4; COMP_POINT=${#COMP_LINE}
		read -ra COMP_WORDS <<<"$COMP_LINE"
		[[ $COMP_LINE == *" " ]] && COMP_WORDS+=("")
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		_nfh nfh "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
		printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "' \
		sh "$bc" "$REPO_DIR/files/completion/nfh.bash" "$REPO_DIR/src" "$1"
}

expect_eq "options from --help" "--handle --help " "$(complete_line 'nfh --h')"
expect_eq "commands" "delete describe destroy " "$(complete_line 'nfh de')"
expect_eq "list objects" "chain chains " "$(complete_line 'nfh list ch')"
expect_eq "families and ip tables" "arp bridge filt inet ip ip6 netdev " \
	"$(complete_line 'nfh list table ')"
expect_eq "tables of a family" "edge " "$(complete_line 'nfh flush table netdev ')"
expect_eq "what reset takes" "counter counters " "$(complete_line 'nfh reset co')"
expect_eq "what get takes" "element " "$(complete_line 'nfh get ')"
finish
