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
. "$(dirname "$0")/../support/lib.sh"
command -v gnuplot >/dev/null || { echo "skip: gnuplot is not installed"; exit 77; }
shm=$(mktemp -d /dev/shm/copybench-cmp-XXXXXX 2>/dev/null) || skip "no /dev/shm to run on"
trap 'rm -rf "$shm"; cleanup' EXIT
fs1=$(stat -f -c %T "$T") fs2=$(stat -f -c %T "$shm")
[ "$fs1" != "$fs2" ] || { echo "skip: $T and /dev/shm are on one filesystem type"; exit 77; }

for i in 1 2; do
	dir=$T/data strategies=readwrite,splice
	[ $i = 2 ] && dir=$shm strategies=readwrite,sendfile
	"$BENCH" --strategy $strategies --size 1M --repeat 2 --syscalls off --quiet \
		--dir "$dir" --out "$T/r$i" >/dev/null 2>&1 || { echo "FAIL: run $i failed" >&2; exit 1; }
done
# the filesystem types as bench names them (statfs and mountinfo may differ)
fs_of() { awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "fs_type") c = i; next }
	{ print $c; exit }' "$1/summary.csv"; }
t1=$(fs_of "$T/r1") t2=$(fs_of "$T/r2")

"$BENCH" plot --out "$T/cmp" "$T/r1" "$T/r2" >"$T/plot.out" 2>&1
expect_eq plot_rc $? 0
png=$T/cmp/compare.png
[ -s "$png" ] && [ "$(head -c 8 "$png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] && pass ||
	fail "compare.png missing or not a PNG: $(cat "$T/plot.out")"
grep -q '<svg' "$T/cmp/compare.svg" 2>/dev/null && pass || fail "compare.svg missing"
dat=$T/cmp/plot-compare.dat
expect_eq groups "$(grep '^"' "$dat" | cut -d' ' -f1 | tr '\n' ' ')" "\"$t1\" \"$t2\" "
# three columns per bar: median, slowest, fastest (the whisker)
expect_eq bars_per_group "$(grep '^"' "$dat" | awk '{ print (NF - 1) / 3 }' | sort -u)" 3
expect_eq whiskers "$(grep '^"' "$dat" | awk '{ for (i = 2; i < NF; i += 3) if ($i != "NaN" && !($(i + 1) <= $i && $i <= $(i + 2))) bad++ } END { print bad + 0 }')" 0
# each filesystem lacks one strategy of the three, not the same one
nan=$(grep '^"' "$dat" | awk '{ print ($2 == "NaN") ($5 == "NaN") ($8 == "NaN") }' | tr '\n' ' ')
case $nan in
"001 010 " | "001 100 " | "010 001 " | "010 100 " | "100 001 " | "100 010 ") pass ;;
*) fail "no_bar: $nan" ;;
esac
# never pooled: the throughput chart shows one environment (the first of two
# with as many results): its strategies, not the other's
expect_eq throughput_one_env "$(grep -c '^"readwrite' "$T/cmp/plot-throughput.dat")" 1
expect_eq throughput_not_pooled "$(grep -c '^"sendfile' "$T/cmp/plot-throughput.dat")" 0
[ "$(grep -c '^[01] [0-2] "not run"$' "$dat")" = 2 ] && pass || fail "no 'not run' note for each missing bar: $(cat "$dat")"
[ ! -e "$T/r1/compare.png" ] && pass || fail "charts written into an input folder"

# a folder copied in from another machine: same filesystem, other host
host=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "host") c = i; next } { print $c; exit }' \
	"$T/r1/summary.csv")
cp -r "$T/r1" "$T/r3"
sed -i "2,\$s/,$host,/,otherhost,/" "$T/r3/summary.csv"
"$BENCH" plot --out "$T/cmp3" "$T/r1" "$T/r2" "$T/r3" >"$T/plot3.out" 2>&1
expect_eq plot3_rc $? 0
labels=$(grep '^"' "$T/cmp3/plot-compare.dat" | sed 's/" .*/"/' | sort | tr '\n' '|')
expect_eq labels3 "$labels" "$(printf '"%s"\n' "$host, $t1" "$host, $t2" "otherhost, $t1" | sort | tr '\n' '|')"

# one folder of one environment: nothing to compare, said so, nothing drawn
"$BENCH" plot "$T/r1" >"$T/plot1.out" 2>&1
expect_eq plot1_rc $? 0
grep -q '^compare: skipped: the results come from one machine, kernel and filesystem$' "$T/plot1.out" &&
	pass || fail "compare not skipped: $(cat "$T/plot1.out")"
[ ! -e "$T/r1/compare.png" ] && pass || fail "compare drawn for one environment"

finish
