#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: "list hooks netdev device DEV" shows DEV's ingress and egress
# hooks with nfh's netdev chains (and an inet ingress chain) in priority
# order, each at its priority; a device without hooks, or one that does not
# exist, lists nothing; "list hooks ip" shows a chain next to conntrack's
# own hook functions; where nft is installed, nft lists the same (nft 1.0.6
# asks for the ingress hook only: its listing is compared with nfh's
# without the egress block).  On a kernel without
# CONFIG_NETFILTER_NETLINK_HOOK (the hosts') nfh refuses with a message
# naming it, and the rest is skipped.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_feature netdev_ingress netdev_egress

ns_new NS || exit 99
in_ns "$NS" ip link add vh0 type veth peer name vh1 || exit 99
in_ns "$NS" ip link set vh0 up && in_ns "$NS" ip link set vh1 up || exit 99

if ! out=$(tool "$NS" list hooks 2>&1); then
	case $out in
	*"no hook listing (CONFIG_NETFILTER_NETLINK_HOOK"*)
		ok "without the kernel's hook listing: refused, naming CONFIG_NETFILTER_NETLINK_HOOK"
		echo "# kernel lacks CONFIG_NETFILTER_NETLINK_HOOK (list hooks)"
		exit 77 ;;
	esac
	not_ok "list hooks in an empty namespace"
	printf '%s\n' "$out" | diag
	finish
fi
expect_eq "an empty namespace has no hooks" "" "$out"

# an inet ingress chain (Linux 5.10) shares the device's ingress hook
inet_ingress=1
printf 'table inet p {\n\tchain c {\n\t\ttype filter hook ingress device "vh0" priority 0;\n\t}\n}\n' |
	unshare -n sh -c 'ip link add vh0 type veth peer name vh1 && exec "$@"' sh \
		$TOOL -f - >/dev/null 2>&1 || inet_ingress=0

load "$NS" <<'EOF'
table netdev t {
	chain in_b {
		type filter hook ingress device "vh0" priority 20;
	}
	chain in_a {
		type filter hook ingress device "vh0" priority -10;
	}
	chain out_a {
		type filter hook egress device "vh0" priority 5;
	}
	chain out_b {
		type filter hook egress device "vh0" priority -100;
	}
	chain out_z {
		type filter hook egress device "vh0" priority 0;
	}
}
EOF
want_inet=
if [ $inet_ingress = 1 ]; then
	load "$NS" <<'EOF'
table inet ti {
	chain ing {
		type filter hook ingress device "vh0" priority -300;
	}
}
EOF
	want_inet=$'\t\t-0000000300 chain inet ti ing\n'
fi

want="family netdev {
	hook ingress {
${want_inet}		-0000000010 chain netdev t in_a
		+0000000020 chain netdev t in_b
	}
	hook egress {
		-0000000100 chain netdev t out_b
		 0000000000 chain netdev t out_z
		+0000000005 chain netdev t out_a
	}
}"
got=$(tool "$NS" list hooks netdev device vh0 2>&1)
expect_eq "vh0: ingress and egress hooks, nfh's chains in priority order" "$want" "$got"
expect_eq "vh1: no hooks" "" "$(tool "$NS" list hooks netdev device vh1 2>&1)"
check "a device that does not exist: no hooks, no error" \
	test -z "$(tool "$NS" list hooks netdev device nosuch 2>&1)"

# the chain deleted: its entry goes, the others stay in place
check "delete chain netdev t in_a" tool "$NS" delete chain netdev t in_a
got=$(tool "$NS" list hooks netdev device vh0 2>&1)
expect_eq "vh0 after the delete" "$(printf '%s\n' "$want" | grep -v ' in_a$')" "$got"

if command -v nft >/dev/null 2>&1; then
	nft_out=$(in_ns "$NS" nft list hooks netdev device vh0 2>&1)
	ours=$got
	# nft 1.0.6 asks for the ingress hook only
	case $nft_out in
	*"hook egress"*) ;;
	*) ours=$(printf '%s\n' "$got" | awk '
		/^\thook egress \{$/ { skip = 1; next }
		skip && /^\t\}$/ { skip = 0; next }
		!skip') ;;
	esac
	expect_eq "nft lists vh0's ingress hook as nfh does" "$nft_out" "$ours"
fi

# conntrack's own hooks (built-in functions, no chain) next to a chain
if printf 'table ip c {\n\tchain in {\n\t\ttype filter hook input priority 0;\n\t\tct state established accept\n\t}\n}\n' |
	tool "$NS" -f - >/dev/null 2>&1; then
	got=$(tool "$NS" list hooks ip 2>&1)
	check "list hooks ip: the input chain at 0" \
		grep -qx $'\t\t 0000000000 chain ip c in' <<<"$got"
	check "list hooks ip: a conntrack function (no chain) at -200 on prerouting" \
		grep -Eq $'^\t\t-0000000200 [a-z_0-9]+( \\[[a-z_0-9]+\\])?$' <<<"$got"
	if command -v nft >/dev/null 2>&1; then
		expect_eq "nft lists the ip hooks as nfh does" \
			"$(in_ns "$NS" nft list hooks ip 2>&1)" "$got"
		expect_eq "nft lists the inet families' hooks as nfh does" \
			"$(in_ns "$NS" nft list hooks inet 2>&1)" "$(tool "$NS" list hooks inet 2>&1)"
		expect_eq "nft lists the hooks of every family (and vh0's ingress) as nfh does" \
			"$(in_ns "$NS" nft list hooks device vh0 2>&1)" \
			"$(tool "$NS" list hooks device vh0 2>&1)"
	fi
else
	echo "ok - list hooks ip with conntrack # SKIP the kernel has no conntrack (ct state)"
fi
finish
