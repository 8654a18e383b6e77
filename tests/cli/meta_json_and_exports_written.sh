#!/usr/bin/env bash
# meta_json_and_exports_written.sh - a results folder says how it was made
# (meta.json, every field present and of its type, parsed with jq), and the
# exports --export-json/--export-csv/--export-markdown are written beside the
# table: the same cases, every measured run's time in the JSON, schema_version
# set.
. "$(dirname "$0")/../support/lib.sh"
command -v jq >/dev/null || skip "jq is not installed (Debian: jq)"
mkdir "$T/cwd" && cd "$T/cwd" || exit 1
D=$T/d
R=$T/r

# jqt NAME FILTER FILE: the jq filter (a test) is true on FILE.
jqt() {
	if [ "$(jq -e "$2" "$3" 2>&1)" = true ]; then pass; else fail "$1: $2 is not true in $3"; fi
}

run "$BENCH" --strategy readwrite --size 1M --repeat 2 --syscalls off --dir "$D" --out "$R" \
	--quiet --export-json "$T/e.json" --export-csv "$T/e.csv" --export-markdown "$T/e.md"
expect_eq run_rc "$RC" 0
expect_eq table_on_stdout "$(grep -c '^  readwrite ' "$T/.out")" 1
expect_eq results_line "$(grep '^results: ' "$T/.out")" \
	"results: $R/ (meta.json, runs.csv, summary.csv, syscalls.csv)"
expect_eq nothing_in_cwd "$(ls -A)" ""

M=$R/meta.json
jqt schema_version '.schema_version == 2' "$M"
jqt bench '.bench | (.version | length > 0) and (.git_describe | length > 0) and
	(.build_type | type == "string") and (.sanitizers | type == "string") and
	(.optimized | type == "boolean") and (.assertions | type == "boolean") and
	(.compiler | length > 0) and (.c_flags | type == "string")' "$M"
# A sanitizer build says so (its times are not a release build's).
if ldd "$BENCH" 2>/dev/null | grep -q libasan; then sanitizers=address,undefined; else sanitizers=; fi
jqt sanitizers ".bench.sanitizers == \"$sanitizers\"" "$M"
jqt command_line '.command_line[1:5] == ["--strategy", "readwrite", "--size", "1M"]' "$M"
jqt cwd ".cwd == \"$T/cwd\"" "$M"
jqt seed '.seed == 1' "$M"
jqt times '(.start_utc | test("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}\\.[0-9]{3}Z$")) and
	.end_utc >= .start_utc and .interrupted == false' "$M"
jqt cases '.cases == 4' "$M"
jqt syscall_counting '.syscall_counting == {"asked": "off", "used": null,
	"why_not": "counting disabled (--syscalls off)"}' "$M"
jqt files '.files == ["runs.csv", "summary.csv", "syscalls.csv"]' "$M"
jqt host ".host | (.name | length > 0) and (.kernel == \"$(uname -r)\") and
	(.cpu_model | length > 0) and .ncpu == $(nproc) and .mem_total_kb > 0 and
	.swap_total_kb >= 0" "$M"
# In a chroot no mount in /proc/self/mountinfo covers the directory (findmnt
# finds none either): bench then falls back to statfs, which knows no mount point.
fstype=$(findmnt -n -o FSTYPE --target "$D" 2>/dev/null | head -n 1)
if [ -n "$fstype" ]; then
	jqt filesystem ".filesystem | .dir == \"$D\" and .type == \"$fstype\" and
		(.mount_point | length > 0) and (.options | test(\"^r[ow]\")) and
		(.dev | test(\"^[0-9]+:[0-9]+$\")) and .from == \"mountinfo\"" "$M"
else
	jqt filesystem_statfs ".filesystem | .dir == \"$D\" and (.type | length > 0) and
		.type != \"unknown\" and (.options | test(\"^r[ow]\")) and
		(.dev | test(\"^[0-9]+:[0-9]+$\")) and .from == \"statfs\"" "$M"
fi
jqt machine '.machine | (.virtualization | length > 0) and (.container | length > 0) and
	(.transparent_hugepage | type == "string") and (.cpufreq_governor | type == "string") and
	(.loadavg | length == 3) and
	([.hypervisor_flag, .balloon_free_page_reporting, .damon_active] |
	 all(. == null or type == "boolean"))' "$M"
jqt no_source '.source == null' "$M"
# Every field is documented in results/README.md (by its path in backquotes).
if [ -n "${SOURCE_DIR:-}" ]; then
	undocumented=$(jq -r 'leaf_paths | map(select(type == "string")) | join(".")' "$M" | sort -u |
		while read -r field; do
			grep -qF "\`$field\`" "$SOURCE_DIR/results/README.md" || echo "$field"
		done)
	expect_eq meta_fields_documented "$undocumented" ""
fi

# The exports: the summary's cases, each with its runs, beside the table;
# the Markdown table shows the identifying columns that vary (buffer_bytes).
runs=$(($(wc -l <"$R/runs.csv") - 1))
jqt export_json_schema '.schema_version == 2' "$T/e.json"
jqt export_json_dir ".results_dir == \"$R\"" "$T/e.json"
jqt export_json_cases '.cases | length == 4' "$T/e.json"
jqt export_json_runs "[.cases[].runs | length] | add == $runs" "$T/e.json"
# (a run disturbed from outside is run again: counted are those not retried)
jqt export_json_times '.cases[] | select(.strategy == "readwrite") |
	([.runs[] | select(.retried | not)] | length == 2) and
	all(.runs[]; .wall_ns > 0 and .verified == true)' "$T/e.json"
expect_eq export_csv "$(cmp "$T/e.csv" "$R/summary.csv" && echo same)" same
expect_eq export_md_rows "$(grep -c '^| ' "$T/e.md")" 6
expect_eq export_md_head "$(head -n 1 "$T/e.md")" \
	"| workload | strategy | buffer | MiB/s | ±95% | CV | rank | tie | xfastest | syscalls | %limit | verified | status |"
# its rows in the table's order
expect_eq export_md_order "$(awk -F'|' 'NR > 2 { gsub(/ /, "", $3); print $3 }' "$T/e.md" | tr '\n' ' ')" \
	"$(grep -E '^  [a-z][a-z0-9_-]* ' "$T/.out" | grep -Ev '^  (strategy|not ranked:|commands:) ' | awk '{ print $1 }' | tr '\n' ' ')"
expect_eq export_md_row "$(grep -c '^| copy | readwrite | 128K | [0-9.]* | .* | [0-9]* | ok |$' "$T/e.md")" 1

# direct (device I/O, not ranked) is planned before readwrite, and printed
# after it: the Markdown follows the table
run "$BENCH" --strategy direct,readwrite --size 1M --repeat 1 --syscalls off --no-limits --dir "$D" \
	--out "$T/r-md" --quiet --export-markdown "$T/e2.md"
if grep -q '^  direct .*device I/O' "$T/.out"; then
	expect_eq export_md_order_ranked "$(awk -F'|' 'NR > 2 { gsub(/ /, "", $3); print $3 }' "$T/e2.md" | tr '\n' ' ')" \
		"readwrite direct "
fi

# --format json: the same document on stdout, the results folder on stderr.
run "$BENCH" --strategy readwrite --size 1M --repeat 1 --syscalls off --no-limits --dir "$D" \
	--out "$T/r2" --format json
expect_eq json_rc "$RC" 0
jqt json_stdout '.schema_version == 2 and ([.cases[0].runs[] | select(.retried | not)] | length == 1)' "$T/.out"
expect_eq json_results_line "$(tail -n 1 "$T/.err")" "bench: results in $T/r2/"
expect_eq sanitizer_note "$(grep -c '^bench: note: this bench is a sanitizer build' "$T/.err")" \
	"$([ -n "$sanitizers" ] && echo 1 || echo 0)"

# Exports that cannot be written are refused before any work.
mkdir "$T/adir"
expect_fail export_dir 2 "bench: --export-json '$T/adir': is a directory" \
	"$BENCH" --size 64K --dir "$D" --export-json "$T/adir"
expect_fail export_no_folder 2 "bench: --export-markdown '$T/none/e.md': its folder does not exist" \
	"$BENCH" --size 64K --dir "$D" --export-markdown "$T/none/e.md"
# A meta.json bench did not write makes --out someone else's.
mkdir "$T/theirs" && echo '{"mine": 1}' >"$T/theirs/meta.json"
expect_fail foreign_meta 2 "bench: --out '$T/theirs': meta.json there was not written by bench; choose another --out" \
	"$BENCH" --size 64K --dir "$D" --out "$T/theirs"
finish
