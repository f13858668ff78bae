#!/bin/bash
# cp_bench.sh - control-plane cost of nfh against nft, side by side, interleaved
# in one run on the same generated files: load, check (-c), list ruleset,
# add one rule to a big chain, delete.  Prints per-repetition ratios nfh/nft
# (median [min-max]) of wall time, CPU time (user+sys) and peak RSS, next to
# the targets of issue 3.
#
#   bench/cp_bench.sh                 # MODE=full: the target workloads, 5 reps
#   MODE=quick bench/cp_bench.sh      # 10k/100k sizes, 3 reps (a few minutes)
#   WORKLOADS="iset100k rules50k" REPS=7 bench/cp_bench.sh
#
# Workloads (WORKLOADS, space separated; N takes a k or m suffix):
#   rulesN  N mixed rules, N/2 in an ingress chain + N/2 in an egress chain
#   incrN   one ingress chain of N rules, then 'add rule' of one more (from a
#           file, and on the command line)
#   isetN   ipv4_addr set, flags interval, N random non-overlapping prefixes
#   psetN   plain ipv4_addr set, N random addresses
#   csetN   ipv4_addr . inet_service set, N elements
# Per workload, rep and tool T (order A B, then B A, ...), from an empty ruleset:
#   check   T -c -f FILE          (CHECK=rules: only for rules*/incr*; all; none)
#   load    T -f FILE
#   list    T list ruleset > file (each tool lists what it loaded; the line
#                                  counts of the two listings are compared)
#   incr_file / incr_cli          (incr only) T -f ADD1 / T add rule ...
#   delete  T -f DEL              (DEL: 'delete table netdev pbbench')
# Every command runs under pb_time (bench/pb_time.c, built on the fly): wall ns
# around fork..wait4, user/sys CPU and peak RSS from wait4's rusage.
#
# Environment: MODE (full|quick) REPS WORKLOADS CHECK (rules|all|none)
#   OPS (operations to time, default "check load list add1 delete"; load always runs)
#   NFT (nft) NFH (this tree's src/.libs/nfh) TIMEOUT (s per command, 600)
#   OUT (results dir, default bench/results) PB_NS (namespace, default pb-cp;
#   another name lets two runs go at once)
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/.." && pwd)
. "$HERE/lib.sh"

MODE=${MODE:-full}
case $MODE in
quick) def_reps=3 def_wl="rules10k incr10k iset10k iset100k pset10k pset100k cset10k cset100k" ;;
full) def_reps=5 def_wl="rules50k incr50k pset1m cset1m iset1m" ;;
*) pb_die "MODE must be quick or full" ;;
esac
REPS=${REPS:-$def_reps}; WORKLOADS=${WORKLOADS:-$def_wl}
CHECK=${CHECK:-rules}; TIMEOUT=${TIMEOUT:-600}
OPS=${OPS:-check load list add1 delete}
NFT=${NFT:-nft}
OUT=${OUT:-$HERE/results}
NS=${PB_NS:-pb-cp} DEV=pb-cp0
case $NS in pb-*) ;; *) pb_die "PB_NS must start with pb-" ;; esac

if [ -z "${NFH:-}" ]; then
	[ -x "$TOP/src/.libs/nfh" ] || pb_die "no $TOP/src/.libs/nfh: build first (scripts/setup.sh)"
	# the real binary, not libtool's wrapper script (a bash start per call)
	NFH="env LD_LIBRARY_PATH=$TOP/src/.libs $TOP/src/.libs/nfh"
fi

if [ -z "${PB_CP_INNER:-}" ]; then
	[ "$(id -u)" = 0 ] || pb_die "must run as root"
	command -v "${NFT%% *}" >/dev/null || pb_die "$NFT not found (apt-get install nftables)"
	PB_TIME=$(pb_build pb_time) || exit 1
	export PB_NS=$NS PB_TIME NFH MODE REPS WORKLOADS CHECK OPS TIMEOUT NFT OUT
	pb_ns_cleanup $NS
	trap 'pb_ns_cleanup $NS' EXIT
	trap 'exit 130' INT TERM
	ip netns add $NS
	ip netns exec $NS sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
	ip -n $NS link add pb-cp0 type veth peer name pb-cp1
	ip -n $NS link set pb-cp0 up; ip -n $NS link set pb-cp1 up
	PB_CP_INNER=1 ip netns exec $NS "$0" "$@"
	exit $?
fi

# ---- inside the namespace from here on ----
SCR=$(mktemp -d /tmp/bench-cp.XXXXXX)
trap 'rm -rf "$SCR"' EXIT
mkdir -p "$OUT"
STAMP=$(date -u +%Y%m%d-%H%M%S)
RAW=$OUT/cp-$STAMP-$NS.tsv; : > "$RAW"
tools=("$NFT" "$NFH"); labels=(nft nfh)

has_op() { case " $OPS " in *" $1 "*) return 0 ;; esac; return 1; }
num() { local n=$1; case $n in *k) echo $(( ${n%k} * 1000 )) ;; *m) echo $(( ${n%m} * 1000000 )) ;; *) echo "$n" ;; esac; }

# emit WORKLOAD LABEL REP OP METRIC VALUE
emit() { printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" "$6" >> "$RAW"; }

# timed W LABEL REP OP STDOUT CMD... : runs CMD, records wall_ms cpu_s user_s sys_s rss_mb
timed() {
	local w=$1 lab=$2 rep=$3 op=$4 so=$5 wall usr sys rss st; shift 5
	"$PB_TIME" -t "$TIMEOUT" -o "$SCR/time.out" "$@" > "$so" 2> "$SCR/err"
	read -r wall usr sys rss st < "$SCR/time.out"
	if [ "$st" != 0 ]; then
		pb_log "FAILED ($w $lab $op, status $st): $* :: $(head -c 400 "$SCR/err")"
		emit "$w" "$lab" "$rep" "$op" fail 1
		T_MS=NA
		return 1
	fi
	T_MS=$(awk -v n="$wall" 'BEGIN { printf "%.3f", n / 1e6 }')
	T_RSS=$(awk -v k="$rss" 'BEGIN { printf "%.2f", k / 1024 }')
	emit "$w" "$lab" "$rep" "$op" wall_ms "$T_MS"
	emit "$w" "$lab" "$rep" "$op" cpu_s "$(awk -v u="$usr" -v s="$sys" 'BEGIN { printf "%.6f", (u + s) / 1e6 }')"
	emit "$w" "$lab" "$rep" "$op" user_s "$(awk -v u="$usr" 'BEGIN { printf "%.6f", u / 1e6 }')"
	emit "$w" "$lab" "$rep" "$op" sys_s "$(awk -v s="$sys" 'BEGIN { printf "%.6f", s / 1e6 }')"
	emit "$w" "$lab" "$rep" "$op" rss_mb "$T_RSS"
}

echo 'delete table netdev pbbench' > "$SCR/del.nft"
echo 'add rule netdev pbbench in ip saddr 10.255.255.1 tcp dport 1 counter drop' > "$SCR/add1.nft"

pb_log "nft: $(command -v "${NFT%% *}") ($($NFT --version 2>&1 | head -n 1)); nfh: $NFH"
pb_log "mode $MODE, $REPS reps, workloads: $WORKLOADS, ops: $OPS; raw: $RAW"
for w in $WORKLOADS; do
	kind=${w%%[0-9]*}; n=$(num "${w#"$kind"}")
	f=$SCR/$w.nft
	case $kind in
	rules) "$HERE/gen_rules.sh" rules "$n" $DEV $DEV > "$f" ;;
	iset|pset|cset) "$HERE/gen_rules.sh" "$kind" "$n" $DEV > "$f" ;;
	incr) "$HERE/gen_rules.sh" chain "$n" $DEV > "$f" ;;
	*) pb_die "unknown workload $w" ;;
	esac
	docheck=0
	case $CHECK in all) docheck=1 ;; rules) case $kind in rules|incr) docheck=1 ;; esac ;; esac
	has_op check || docheck=0
	pb_log "workload $w: $(wc -l < "$f") lines, $(( $(stat -c %s "$f") / 1024 )) KiB"
	for rep in $(seq 1 "$REPS"); do
		lis=$(pb_nfnl_listeners)
		if [ -n "$lis" ]; then
			pb_log "WARNING: nf_tables event listeners present, loads will be slow for both tools:"
			pb_log "$lis"
		fi
		emit "$w" - "$rep" env listeners "$(printf '%s' "$lis" | grep -c .)"
		order=(0 1); [ $((rep % 2)) = 0 ] && order=(1 0)
		for ti in "${order[@]}"; do
			T=${tools[$ti]} lab=${labels[$ti]}
			$NFT flush ruleset
			if [ $docheck = 1 ]; then
				timed "$w" $lab "$rep" check /dev/null $T -c -f "$f"
			fi
			timed "$w" $lab "$rep" load /dev/null $T -f "$f"; lm=$T_MS lr=${T_RSS:-NA}
			if has_op list && timed "$w" $lab "$rep" list "$SCR/list.$lab" $T list ruleset; then
				emit "$w" $lab "$rep" list lines "$(wc -l < "$SCR/list.$lab")"
			fi
			if [ "$kind" = incr ] && has_op add1; then
				timed "$w" $lab "$rep" add1_file /dev/null $T -f "$SCR/add1.nft"
				timed "$w" $lab "$rep" add1_cli /dev/null $T add rule netdev pbbench in ip saddr 10.255.255.2 tcp dport 2 counter drop
			fi
			has_op delete && timed "$w" $lab "$rep" delete /dev/null $T -f "$SCR/del.nft"
			pb_log "  rep $rep $lab: load $lm ms, $lr MB"
		done
	done
done
$NFT flush ruleset

SUM=$OUT/cp-$STAMP-$NS.summary.md
{
	echo "# cp_bench $STAMP: mode $MODE, $REPS reps, $(nproc) CPUs, kernel $(uname -r), $($NFT --version 2>&1 | head -n 1)"
	echo
	pb_ratio_md "$RAW"
	echo
	pb_user_share_md "$RAW"
	echo
	pb_checks_md "$RAW"
} > "$SUM"
cat "$SUM"
echo "SUMMARY cp_bench: raw=$RAW summary=$SUM"
