#!/usr/bin/env bash
# plot_compare_keeps_environments_apart.sh - `bench plot DIR1 DIR2 ...` keeps
# environments apart: two small runs on different filesystems (the temp
# folder's and /dev/shm's tmpfs; no root needed), with one strategy in common,
# give the compare chart with one group of bars per filesystem, labelled by
# its fs_type, a bar per strategy with its min-max whisker and none where a
# filesystem has no result (a note says "not run" there); the one-environment
# charts show one of them, never both pooled; a folder from another host (the
# same results with another host name, as if copied in) is one more group
# labelled by host and filesystem; one folder of one environment skips the
# chart.
set -u
bench=${BENCH:?BENCH must name the bench executable}
command -v gnuplot >/dev/null || { echo "skip: gnuplot is not installed"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/copybench-cmp-XXXXXX")
shm=$(mktemp -d /dev/shm/copybench-cmp-XXXXXX 2>/dev/null) ||
	{ rm -rf "$work"; echo "skip: no /dev/shm to run on"; exit 77; }
trap 'rm -rf "$work" "$shm"' EXIT
fs1=$(stat -f -c %T "$work") fs2=$(stat -f -c %T "$shm")
[ "$fs1" != "$fs2" ] || { echo "skip: $work and /dev/shm are on one filesystem type"; exit 77; }
pass=0 fail=0
ok() { pass=$((pass + 1)); }
no() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
expect_eq() { if [ "$2" == "$3" ]; then ok; else no "$1: got '$2', expected '$3'"; fi; }

for i in 1 2; do
	dir=$work/data strategies=readwrite,splice
	[ $i = 2 ] && dir=$shm strategies=readwrite,sendfile
	"$bench" --strategy $strategies --size 1M --repeat 2 --syscalls off --quiet \
		--dir "$dir" --out "$work/r$i" >/dev/null 2>&1 || { echo "FAIL: run $i failed" >&2; exit 1; }
done
# the filesystem types as bench names them (statfs and mountinfo may differ)
fs_of() { awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "fs_type") c = i; next }
	{ print $c; exit }' "$1/summary.csv"; }
t1=$(fs_of "$work/r1") t2=$(fs_of "$work/r2")

"$bench" plot --out "$work/cmp" "$work/r1" "$work/r2" >"$work/plot.out" 2>&1
expect_eq plot_rc $? 0
png=$work/cmp/compare.png
[ -s "$png" ] && [ "$(head -c 8 "$png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] && ok ||
	no "compare.png missing or not a PNG: $(cat "$work/plot.out")"
grep -q '<svg' "$work/cmp/compare.svg" 2>/dev/null && ok || no "compare.svg missing"
dat=$work/cmp/plot-compare.dat
expect_eq groups "$(grep '^"' "$dat" | cut -d' ' -f1 | tr '\n' ' ')" "\"$t1\" \"$t2\" "
# three columns per bar: median, slowest, fastest (the whisker)
expect_eq bars_per_group "$(grep '^"' "$dat" | awk '{ print (NF - 1) / 3 }' | sort -u)" 3
expect_eq whiskers "$(grep '^"' "$dat" | awk '{ for (i = 2; i < NF; i += 3) if ($i != "NaN" && !($(i + 1) <= $i && $i <= $(i + 2))) bad++ } END { print bad + 0 }')" 0
# each filesystem lacks one strategy of the three, not the same one
nan=$(grep '^"' "$dat" | awk '{ print ($2 == "NaN") ($5 == "NaN") ($8 == "NaN") }' | tr '\n' ' ')
case $nan in
"001 010 " | "001 100 " | "010 001 " | "010 100 " | "100 001 " | "100 010 ") ok ;;
*) no "no_bar: $nan" ;;
esac
# never pooled: the throughput chart shows one environment (the first of two
# with as many results): its strategies, not the other's
expect_eq throughput_one_env "$(grep -c '^"readwrite' "$work/cmp/plot-throughput.dat")" 1
expect_eq throughput_not_pooled "$(grep -c '^"sendfile' "$work/cmp/plot-throughput.dat")" 0
[ "$(grep -c '^[01] [0-2] "not run"$' "$dat")" = 2 ] && ok || no "no 'not run' note for each missing bar: $(cat "$dat")"
[ ! -e "$work/r1/compare.png" ] && ok || no "charts written into an input folder"

# a folder copied in from another machine: same filesystem, other host
host=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "host") c = i; next } { print $c; exit }' \
	"$work/r1/summary.csv")
cp -r "$work/r1" "$work/r3"
sed -i "2,\$s/,$host,/,otherhost,/" "$work/r3/summary.csv"
"$bench" plot --out "$work/cmp3" "$work/r1" "$work/r2" "$work/r3" >"$work/plot3.out" 2>&1
expect_eq plot3_rc $? 0
labels=$(grep '^"' "$work/cmp3/plot-compare.dat" | sed 's/" .*/"/' | sort | tr '\n' '|')
expect_eq labels3 "$labels" "$(printf '"%s"\n' "$host, $t1" "$host, $t2" "otherhost, $t1" | sort | tr '\n' '|')"

# one folder of one environment: nothing to compare, said so, nothing drawn
"$bench" plot "$work/r1" >"$work/plot1.out" 2>&1
expect_eq plot1_rc $? 0
grep -q '^compare: skipped: the results come from one machine, kernel and filesystem$' "$work/plot1.out" &&
	ok || no "compare not skipped: $(cat "$work/plot1.out")"
[ ! -e "$work/r1/compare.png" ] && ok || no "compare drawn for one environment"

echo "plot_compare: $pass passed, $fail failed"
[ $fail -eq 0 ]
