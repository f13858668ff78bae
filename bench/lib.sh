# lib.sh - helpers for bench/cp_bench.sh (sourced, not executed).
# Everything is relative to the directory holding this file.
PB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

pb_log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
pb_die() { pb_log "ERROR: $*"; exit 1; }


# pb_ns_cleanup NS...  -- delete our own namespaces (only pb-* names)
pb_ns_cleanup() {
  local ns
  for ns in "$@"; do
    case "$ns" in pb-*) ip netns del "$ns" 2>/dev/null || true ;; *) pb_die "refusing to touch non pb- netns $ns" ;; esac
  done
}

# pb_nfnl_listeners: print one line per nfnetlink socket, in any network
# namespace, subscribed to NFNLGRP_NFTABLES (group 7), e.g. an 'nft monitor'.
# Netlink keeps its listener bitmap per protocol for the whole machine, so
# while one exists every nf_tables commit in every namespace builds a
# notification per rule and per set element: loads get several times slower.
# (Groups is hex; bit 0x40 is group 7.)
pb_nfnl_listeners() {
  local p ino
  for p in /proc/[0-9]*; do
    ino=$(stat -L -c %i "$p/ns/net" 2>/dev/null) || continue
    echo "$ino ${p#/proc/}"
  done | sort -u -k1,1 | while read -r ino p; do
    awk -v pid="$p" -v ino="$ino" 'NR > 1 && $2 == 12 && substr($4, length($4) - 1, 1) ~ /[4-7c-fC-F]/ {
      print "netns " ino " (seen from pid " pid "): nfnetlink socket portid " $3 " listens to nf_tables events" }' "/proc/$p/net/netlink" 2>/dev/null
  done
}

# pb_build NAME  -- compile bench/NAME.c into a scratch dir, echo binary path
pb_build() {
  local src="$PB_DIR/$1.c" out="${PB_SCRATCH:-/tmp/bench-build}/$1"
  mkdir -p "$(dirname "$out")"
  if [ ! -x "$out" ] || [ "$src" -nt "$out" ]; then
    ${CC:-cc} -O2 -Wall -o "$out" "$src" || pb_die "cannot build $src"
  fi
  echo "$out"
}

# The summaries below read cp_bench's raw TSV:
#   workload<TAB>label<TAB>rep<TAB>op<TAB>metric<TAB>value
# labels are nft (first) and nfh; ratios are per repetition, nfh/nft.

# awk helpers shared by the summaries: med() sorts a copy and sets MN/MX
PB_AWK_MED='
function med(s,   a, n, i, j, t) { n = split(s, a, " "); if (!n) { MN = MX = "NA"; return "NA" }
  for (i = 2; i <= n; i++) { t = a[i] + 0; j = i - 1; while (j >= 1 && a[j] + 0 > t) { a[j+1] = a[j]; j-- } a[j+1] = t }
  MN = a[1]; MX = a[n]; return (n % 2) ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2 }
function g(x) { return (x == "NA") ? "NA" : (x >= 100 ? sprintf("%.0f", x) : sprintf("%.3g", x)) }
function r3(x) { return (x == "NA") ? "NA" : sprintf("%.3f", x) }
'

# pb_ratio_md RAW: one row per workload and operation: medians for nft and nfh
# and the per-rep ratio nfh/nft as median [min-max] for wall time, CPU time
# (user+sys) and peak RSS, with issue 3's target and whether it is met (for
# sizes other than the target's, the verdict is in parentheses: indicative).
pb_ratio_md() {
	awk -F'\t' "$PB_AWK_MED"'
	function target(w, op,   kind, n) {
		kind = w; sub(/[0-9].*/, "", kind); n = substr(w, length(kind) + 1)
		EXACT = 0; TT = ""; TR = ""
		if (kind == "iset" && op == "load") { TT = 0.25; TR = 0.25; EXACT = (n == "1m") }
		else if ((kind == "pset" || kind == "cset") && op == "load") { TT = 0.5; TR = 0.3; EXACT = (n == "1m") }
		else if ((kind == "iset" || kind == "pset" || kind == "cset") && op == "list") { TT = 0.1; TR = 0.3; EXACT = (n == "1m") }
		else if (kind == "rules" && (op == "load" || op == "check")) { TT = 0.5; TR = 0.3; EXACT = (n == "50k") }
		else if (kind == "incr" && (op == "add1_file" || op == "add1_cli")) { TT = 0.5; EXACT = (n == "50k") }
	}
	function verdict(ratio, t) {
		if (t == "" || ratio == "NA") return "-"
		v = (ratio + 0 <= t + 0) ? "yes" : "no"
		return EXACT ? v : "(" v ")"
	}
	function ratio(w, op, m,   r, s) {
		s = ""
		for (r = 1; r <= maxrep; r++)
			if (((w, "nft", r, op, m) in val) && ((w, "nfh", r, op, m) in val) && val[w, "nft", r, op, m] > 0)
				s = s " " val[w, "nfh", r, op, m] / val[w, "nft", r, op, m]
		RM = med(s); if (RM == "NA") return "NA"
		return sprintf("%.3f [%.3f-%.3f]", RM, MN, MX)
	}
	$5 == "fail" || $4 == "env" { next }
	{ if (!(($1, $4) in seen)) { seen[$1, $4] = 1; rows[++nr] = $1 SUBSEP $4 }
	  val[$1, $2, $3, $4, $5] = $6; all[$1, $2, $4, $5] = all[$1, $2, $4, $5] " " $6
	  if ($3 + 0 > maxrep) maxrep = $3 + 0 }
	END {
		print "| workload | op | wall ms nft / nfh | wall nfh/nft | CPU s nft / nfh | CPU nfh/nft | RSS MB nft / nfh | RSS nfh/nft | target time / RSS | met time / RSS |"
		print "|---|---|---|---|---|---|---|---|---|---|"
		for (i = 1; i <= nr; i++) {
			split(rows[i], p, SUBSEP); w = p[1]; op = p[2]
			target(w, op)
			rw = ratio(w, op, "wall_ms"); rwm = RM
			rc = ratio(w, op, "cpu_s")
			rr = ratio(w, op, "rss_mb"); rrm = RM
			printf "| %s | %s | %s / %s | %s | %s / %s | %s | %s / %s | %s | %s / %s | %s / %s |\n", w, op,
				g(med(all[w, "nft", op, "wall_ms"])), g(med(all[w, "nfh", op, "wall_ms"])), rw,
				g(med(all[w, "nft", op, "cpu_s"])), g(med(all[w, "nfh", op, "cpu_s"])), rc,
				g(med(all[w, "nft", op, "rss_mb"])), g(med(all[w, "nfh", op, "rss_mb"])), rr,
				(TT == "" ? "-" : "<= " TT), (TR == "" ? "-" : "<= " TR),
				verdict(rwm, TT), verdict(rrm, TR)
		}
		print ""
		print "Ratios are per repetition (nfh and nft run back to back, order alternating), median [min-max]."
		print "\"met\" judges the median wall-time and peak-RSS ratios; in parentheses: not the target size, indicative only."
	}' "$1"
}

# pb_user_share_md RAW: where nfh spends its load CPU time (user vs kernel)
pb_user_share_md() {
	awk -F'\t' "$PB_AWK_MED"'
	$2 == "nfh" && $4 == "load" && ($5 == "user_s" || $5 == "sys_s" || $5 == "cpu_s") {
		if (!($1 in seen)) { seen[$1] = 1; ws[++nw] = $1 }
		v[$1, $5] = v[$1, $5] " " $6; byrep[$1, $3, $5] = $6; if ($3 + 0 > maxrep) maxrep = $3 + 0 }
	END {
		print "| workload | nfh load user s (med) | sys s (med) | user share of user+sys: med [min-max] |"
		print "|---|---|---|---|"
		for (i = 1; i <= nw; i++) { w = ws[i]; s = ""
			for (r = 1; r <= maxrep; r++) if (((w, r, "cpu_s") in byrep) && byrep[w, r, "cpu_s"] > 0)
				s = s " " byrep[w, r, "user_s"] / byrep[w, r, "cpu_s"]
			sh = med(s); shs = (sh == "NA") ? "NA" : sprintf("%.2f [%.2f-%.2f]", sh, MN, MX)
			printf "| %s | %s | %s | %s |\n", w, g(med(v[w, "user_s"])), g(med(v[w, "sys_s"])), shs }
	}' "$1"
}

# pb_checks_md RAW: failed commands, and listings whose line counts differ
pb_checks_md() {
	awk -F'\t' '
	$5 == "fail" { fail[++nf] = $1 " " $2 " rep " $3 " " $4 }
	$4 == "env" && $5 == "listeners" { nrep++; if ($6 > 0) { nl++; if (!($1 in lw)) { lw[$1] = 1; lws = lws " " $1 } } }
	$4 == "list" && $5 == "lines" { lines[$1, $3, $2] = $6; ws[$1] = 1; if ($3 + 0 > maxrep) maxrep = $3 + 0 }
	END {
		print "Checks:"
		for (i = 1; i <= nf; i++) print "- FAILED: " fail[i]
		bad = 0
		for (w in ws) for (r = 1; r <= maxrep; r++)
			if (((w, r, "nft") in lines) && ((w, r, "nfh") in lines) && lines[w, r, "nft"] != lines[w, r, "nfh"]) {
				print "- listing length differs: " w " rep " r ": nft " lines[w, r, "nft"] " lines, nfh " lines[w, r, "nfh"]; bad++ }
		if (nl) print "- nf_tables event listeners (nft monitor) present in " nl " of " nrep " repetitions (workloads:" lws "): the kernel built a notification per rule/element, so load wall and sys times of both tools are inflated (check and list are not affected, nor is RSS)"
		if (!nf && !bad) print "- every command succeeded; nft and nfh listings have the same number of lines"
		if (!nl) print "- no nf_tables event listener (nft monitor) anywhere on the machine during the run"
	}' "$1"
}
