# SPDX-License-Identifier: GPL-2.0-or-later
# bash completion for nfh(8). Options come from "nfh --help", so they stay
# in step with nfh's option table; table names come from "nfh list tables"
# (as root). The interactive shell (nfh -i) completes far more.
# shellcheck disable=SC2207 # COMPREPLY=($(compgen ...)) is the idiom: words never have spaces

_nfh_tables()
{
	# "table FAMILY NAME" lines; quietly nothing without the rights to list
	"$1" list tables 2>/dev/null | while read -r _ family name; do
		[ -z "$2" ] || [ "$2" = "$family" ] && printf '%s\n' "$name"
	done
}

_nfh()
{
	local cur prev words cword i cmd='' family=''
	_init_completion || return

	case $prev in
	-f|--file)
		_filedir
		return ;;
	-I|--includepath)
		_filedir -d
		return ;;
	-d|--debug)
		COMPREPLY=($(compgen -W 'netlink all' -- "$cur"))
		return ;;
	-D|--define)
		return ;;
	esac

	for ((i = 1; i < cword; i++)); do
		case ${words[i]} in
		-*) ;;
		*) cmd=${words[i]}; break ;;
		esac
	done

	if [ -z "$cmd" ]; then
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "$("${words[0]}" --help 2>/dev/null |
				grep -oE -- '(^|[ ,])--?[a-zA-Z][a-zA-Z-]*' | tr -d ' ,')" -- "$cur"))
		else
			COMPREPLY=($(compgen -W 'add create insert replace delete destroy
				list flush get reset describe table chain rule' -- "$cur"))
		fi
		return
	fi

	case $prev in
	add|create|delete|destroy)
		COMPREPLY=($(compgen -W 'table chain rule set map element' -- "$cur")) ;;
	get)
		COMPREPLY=($(compgen -W 'element' -- "$cur")) ;;
	reset)
		COMPREPLY=($(compgen -W 'element set map counters counter quotas quota' -- "$cur")) ;;
	insert|replace)
		COMPREPLY=($(compgen -W 'rule' -- "$cur")) ;;
	list)
		COMPREPLY=($(compgen -W 'ruleset tables table chains chain sets set
			maps map counters quotas' -- "$cur")) ;;
	flush)
		COMPREPLY=($(compgen -W 'ruleset table chain' -- "$cur")) ;;
	describe)
		COMPREPLY=($(compgen -W 'ether vlan arp ip ip6 icmp icmpv6 igmp
			tcp udp udplite sctp dccp ah esp comp th meta ct' -- "$cur")) ;;
	ruleset|tables|chains)
		COMPREPLY=($(compgen -W 'arp bridge inet ip ip6 netdev' -- "$cur")) ;;
	table|chain|rule)
		COMPREPLY=($(compgen -W "arp bridge inet ip ip6 netdev
			$(_nfh_tables "${words[0]}" ip)" -- "$cur")) ;;
	arp|bridge|inet|ip|ip6|netdev)
		case ${words[cword - 2]} in
		table|chain|rule)
			family=$prev
			COMPREPLY=($(compgen -W "$(_nfh_tables "${words[0]}" "$family")" -- "$cur")) ;;
		esac ;;
	esac
} &&
complete -F _nfh nfh
