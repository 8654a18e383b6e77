#!/usr/bin/env bash
# measurement-record.sh - a dated measurement record (docs/measurements/)
# written from a results folder: the date, the machine's facts and the exact
# command from its meta.json, and one row per case of its summary.csv.
#
#   tools/measurement-record.sh [--title TEXT] [--out FILE] RESULTS_DIR
#
# Without --out the record goes to stdout. Needs jq. Add below the figures
# what they show; the reference page that states the conclusion links here.
set -euo pipefail

usage() { echo "usage: tools/measurement-record.sh [--title TEXT] [--out FILE] RESULTS_DIR" >&2; exit 2; }
die() { echo "measurement-record: $*" >&2; exit 2; }

title="" out=""
while [ $# -gt 0 ]; do
	case "$1" in
	--title) [ $# -ge 2 ] || usage; title=$2; shift 2 ;;
	--out) [ $# -ge 2 ] || usage; out=$2; shift 2 ;;
	-h | --help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	-*) usage ;;
	*) break ;;
	esac
done
[ $# -eq 1 ] || usage
dir=$1
meta=$dir/meta.json
summary=$dir/summary.csv
[ -f "$meta" ] || die "$meta: no such file (not a results folder)"
[ -f "$summary" ] || die "$summary: no such file (not a results folder)"
command -v jq >/dev/null || die "jq is not installed"

# The header: date, machine facts and the command line, from meta.json.
header() {
	jq -r --arg title "$title" --arg sq "'" '
	def q: if type == "string" and test("[^A-Za-z0-9_./,=:+@%-]")
		then $sq + gsub($sq; $sq + "\\" + $sq + $sq) + $sq else . end;
	def mib: ((. // 0) / 1024 | floor | tostring) + " MiB";
	(if $title != "" then $title else "Measurement of " + (.start_utc[0:10]) end) as $t |
	"# \($t)\n",
	"- **Date:** \(.start_utc[0:10]) (\(.start_utc) to \(.end_utc))",
	"- **Machine:** \(.host.name): \(.host.ncpu) CPUs \(.host.cpu_model), \(.host.mem_total_kb | mib), Linux \(.host.kernel)"
		+ (if (.machine.virtualization // "none") != "none" then ", a virtual machine (\(.machine.virtualization))" else "" end)
		+ (if .machine.balloon_free_page_reporting == true then " with free page reporting" else "" end)
		+ "; load \(.machine.loadavg // [] | map(tostring) | join(" "))",
	"- **Filesystem:** \(.filesystem.type) on \(.filesystem.source)"
		+ (if .filesystem.journal == false then ", no journal" else "" end)
		+ (if .filesystem.options then ", mounted \(.filesystem.options)" else "" end),
	"- **bench:** \(.bench.version) \(.bench.git_describe), \(.bench.build_type), \(.bench.compiler)",
	"- **Command:**\n",
	"```sh",
	(.command_line | map(q) | join(" ")),
	"```\n"' "$meta"
}

# The figures: one row per case of summary.csv, in its order (fastest first
# within each group). A quoted CSV field may hold commas.
figures() {
	awk '
	function split_csv(line, f,    n, c, i, q, cell) {
		n = 0; cell = ""; q = 0
		for (i = 1; i <= length(line); i++) {
			c = substr(line, i, 1)
			if (q) {
				if (c == "\"" && substr(line, i + 1, 1) == "\"") { cell = cell c; i++ }
				else if (c == "\"") q = 0
				else cell = cell c
			} else if (c == "\"") q = 1
			else if (c == ",") { f[++n] = cell; cell = "" }
			else cell = cell c
		}
		f[++n] = cell
		return n
	}
	function v(name) { return (name in col) ? row[col[name]] : "" }
	function size(b) {
		if (b == "" || b == 0) return "-"
		if (b % 1073741824 == 0) return b / 1073741824 "G"
		if (b % 1048576 == 0) return b / 1048576 "M"
		if (b % 1024 == 0) return b / 1024 "K"
		return b
	}
	NR == 1 {
		n = split_csv($0, h)
		for (i = 1; i <= n; i++) col[h[i]] = i
		print "| workload | strategy | dataset | size | buffer | cache | knobs | runs | median ms | ±95% | MiB/s | files/s | CV | status |"
		print "| --- | --- | --- | ---: | ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
		next
	}
	{
		split_csv($0, row)
		if (v("status") != "ok") for (i in col) if (i ~ /^(median_ns|median_ci_pct|mb_per_s|files_per_s|cv)$/) row[col[i]] = ""
		name = v("strategy")
		knobs = ""
		nk = split("batch_lines part_size fsync threads queue_depth files file_size", k, " ")
		for (i = 1; i <= nk; i++)
			if (v(k[i]) != "" && v(k[i]) != "0") knobs = knobs (knobs == "" ? "" : " ") k[i] "=" v(k[i])
		if (knobs == "") knobs = "-"
		ms = v("median_ns") == "" ? "-" : sprintf("%.2f", v("median_ns") / 1e6)
		ci = v("median_ci_pct") == "" ? "-" : v("median_ci_pct") "%"
		cv = v("cv") == "" ? "-" : sprintf("%.1f%%", v("cv") * 100)
		printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
			v("workload"), name, v("dataset"), size(v("size_bytes")), size(v("buffer_bytes")),
			v("cache"), knobs, v("counted_runs"), ms, ci, v("mb_per_s") == "" ? "-" : v("mb_per_s"),
			v("files_per_s") == "" ? "-" : v("files_per_s"), cv, v("status")
	}' "$summary"
}

record() {
	header
	echo "Figures from \`summary.csv\`: median of the counted runs, half its 95 % interval over the"
	echo "median, and the coefficient of variation."
	echo
	figures
}

if [ -n "$out" ]; then
	record >"$out"
	echo "measurement-record: wrote $out" >&2
else
	record
fi
