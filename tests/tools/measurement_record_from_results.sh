#!/usr/bin/env bash
# measurement_record_from_results.sh - tools/measurement-record.sh writes a record of a
# real results folder: the title, the date and the command line of its
# meta.json, one table row per case of its summary.csv (the command row's
# words quoted as a shell reads them); a folder that is not a results folder
# is refused with exit 2 and one line.
. "$(dirname "$0")/../support/lib.sh"
TOOL=${SOURCE_DIR:?SOURCE_DIR names the source tree}/tools/measurement-record.sh
command -v jq >/dev/null || skip "jq is not installed"

run "$BENCH" --strategy readwrite,splice --command 'dd1m=dd if={src} of={dst} bs=1M status=none' \
	--size 64K --repeat 1 --no-limits --syscalls off --dir "$T/d" --out "$T/r"
expect_eq run_rc "$RC" 0

run "$TOOL" --title "Two strategies and dd" "$T/r"
expect_eq record_rc "$RC $(wc -c <"$T/.err")" "0 0"
expect_eq title "$(head -n 1 "$T/.out")" "# Two strategies and dd"
day=$(jq -r '.start_utc[0:10]' "$T/r/meta.json")
expect_eq date_line "$(grep -c "^- \*\*Date:\*\* $day (" "$T/.out")" 1
want="$BENCH --strategy readwrite,splice --command 'dd1m=dd if={src} of={dst} bs=1M status=none' --size 64K --repeat 1 --no-limits --syscalls off --dir $T/d --out $T/r"
expect_eq command_line "$(sed -n '/^```sh$/{n;p;q}' "$T/.out")" "$want"
cases=$(($(wc -l <"$T/r/summary.csv") - 1))
expect_eq rows_one_per_case "$(grep -c '^| copy | ' "$T/.out")" "$cases"
expect_eq command_row "$(grep -c '^| copy | dd1m | random | 64K | - | warm | - | 1 | .* | ok |$' "$T/.out")" 1

run "$TOOL" --out "$T/rec.md" "$T/r"
expect_eq written_rc "$RC $(cat "$T/.err")" "0 measurement-record: wrote $T/rec.md"
expect_eq written_same "$(tail -n +2 "$T/rec.md" | md5sum)" "$("$TOOL" "$T/r" | tail -n +2 | md5sum)"

mkdir "$T/empty"
expect_fail not_a_results_folder 2 \
	"measurement-record: $T/empty/meta.json: no such file (not a results folder)" "$TOOL" "$T/empty"
finish
