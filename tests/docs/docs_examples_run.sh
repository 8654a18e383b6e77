#!/usr/bin/env bash
# docs_examples_run.sh [quick|long] - every `bench ...` example of README.md,
# docs/*.md and the --help texts runs for real, as written, and exits as the
# exit-code table says.
#
# An example is a command line of a code block (fenced with no language or
# sh: ```text is output, ```yaml a CI job that docs/check.md and
# docs/history.md also give step by step; or indented, not in an HTML
# comment) that starts with bench, ./bench or build/bench; lines ending in
# \ or | are joined. In a --help text (bench --help, the --help of each
# command its Commands list and of each subcommand a usage names: bench
# history add --help ...) it is a line starting with bench in its
# Examples: section. A synopsis (a line with [ ], ... or …) is no example.
# Each runs with bash -c (its pipes, && and redirections as written) and
# `set -o pipefail`, in a scratch folder where bench works as installed (a copy of it, with the
# gnuplot scripts in ../share/copybench/plots beside it: results/ under the
# current directory, datasets under $XDG_CACHE_HOME), one after the other,
# the help texts' first, then in the order of the files, so that a later
# example finds what an earlier one made. Each example's time and exit
# status are printed, then how many ran; none is a failure.
#
# quick (the default) runs every example but the long ones; long runs those
# (label large: minutes): a run of --all, bench ab, a run with --fs (each
# filesystem made, as root), none of them a --dry-run, and an example that
# names a folder a long one wrote with --out (bench plot R after --out R).
#
# What is changed, mechanically, to keep the set short:
#   - a run (bench followed by an option) gets --repeat 1 (in place of any
#     --repeat N) and --size 64K (each size of its --size list but `src`,
#     or added when it has neither --size nor --source); --files N is 20;
#     and --syscalls off unless the example is about system calls (names
#     --syscalls, --count-syscalls or --only-syscalls): counting costs a
#     run seconds, the counters' removal;
#   - bench gen KIND SIZE makes 64K; bench ab --size S is 64K;
#   - /mnt/xfs is the folder MNT; MNT, D and DIR are folders of the scratch
#     folder (DIR in an --fs list by its path, as --fs takes one);
#     --queue-depth D is 4; HOME is a scratch folder holding big.iso and
#     src/linux (a small tree), and big.dat and big.iso are in the scratch
#     folder;
#   - results/<...> (a stamp, <new>) names the latest results folder an
#     example made; a results/NAME an example reads (old-a, new-b, ...) that
#     no example made is a copy of it; results/baseline/ is the source
#     tree's committed one; $SHA, $hosts (results/xc, which the README
#     makes) and $GITHUB_STEP_SUMMARY are set;
#   - the README's `check --only-syscalls` example reads what its comment
#     says it needs: a `--workload copy --size 8M` run (made here, --repeat 1,
#     counted).
# Expected exit: 0; for a judgement of timings (check, ab, history check)
# one of the verdicts 0, 1 or 3 (never a usage error 2), since what the
# verdict is depends on the machine; an example marked "as root" (--fs,
# --tune), not as root, exits 2. DOCS_DIR overrides where the Markdown is read.
. "$(dirname "$0")/../support/lib.sh"
DOCS=${DOCS_DIR:-${SOURCE_DIR:?SOURCE_DIR names the source tree}}
SMALL=64K
STAMP="^(.*)results/<[^ ]*>(.*)\$"
W=$T/w
mkdir -p "$T/bin" "$T/base/build" "$T/home/src/linux/lib" "$T/cache" \
	"$W/build" "$W/MNT" "$W/D" "$W/DIR" "$W/results"
cp "$BENCH" "$T/bin/bench"
ln -s "$T/bin/bench" "$W/build/bench"
ln -s "$T/bin/bench" "$T/base/build/bench"
cp -r "$DOCS/results/baseline" "$W/results/baseline"
mkdir -p "$T/share/copybench"
cp -r "$DOCS/plots" "$T/share/copybench/plots"
head -c 100000 /dev/urandom >"$T/home/big.iso"
cp "$T/home/big.iso" "$W/big.iso"
cp "$T/home/big.iso" "$W/big.dat"
for i in 1 2 3 4 5; do
	head -c $((i * 3000)) /dev/urandom >"$T/home/src/linux/lib/f$i.c"
	echo "int f$i;" >"$T/home/src/linux/f$i.h"
done
export HOME=$T/home XDG_CACHE_HOME=$T/cache PATH="$T/bin:$PATH"
export SHA=0123abc hosts="xc" GITHUB_STEP_SUMMARY=$W/summary.md
touch "$T/start"

# extract FILE: "LINE<TAB>command" for each example of FILE.
extract() {
	awk -v OFS='\t' '
	/<!--/ { comment = 1 }
	comment { if ($0 ~ /-->/) comment = 0; next }
	/^[ \t]*```/ {
		if (!fence) { fence = 1; other = $0 !~ /```(sh|bash|shell|console)?[ \t]*$/ } else fence = 0
		prev = ""; next
	}
	{
		line = $0
		if (cont != "") { line = cont " " line; cont = "" }
		indented = !fence && line ~ /^    / && (prev == "" || prev ~ /^    /)
		if (!(fence && !other) && !indented) { prev = $0; next }
		prev = $0
		if (line !~ /^[ \t]*(\$ )?(\.\/)?(build\/)?bench( |$)/) next
		if (line ~ /\\$/) { sub(/\\$/, "", line); cont = line; next }
		if (line ~ /\|[ \t]*$/) { cont = line; next }
		sub(/^[ \t]*(\$ )?(\.\/)?(build\/)?/, "", line)
		if (line ~ /\[|\.\.\.|…/) next
		print FNR, line
	}' "$1"
}

# latest: the results folder an example made last.
latest() {
	find "$W/results" -mindepth 2 -maxdepth 2 -name meta.json -newer "$T/start" \
		-printf "%T@ %h\n" | sort -n | tail -n 1 | sed "s|.*/||"
}

# small WORDS...: the example with the changes above, as one line.
small() {
	local out=() w prev="" run=0 sized=0 i
	[[ ${2:-} == -* && ! ${2:-} =~ ^(-h|--help|--version|-V|--completion|--help-markdown)$ ]] && run=1
	for w in "$@"; do
		case "$prev" in
		--size)
			sized=1
			[ $run = 1 ] || [ "${out[1]:-}" = ab ] && w=$(sed -E 's/[0-9.]+[KMGT]?/'$SMALL'/g' <<<"$w")
			;;
		--files) w=20 ;;
		--fs) w=$(sed -E "s#(^|,)DIR(,|\$)#\\1$W/DIR\\2#" <<<"$w") ;;
		--repeat) [ $run = 1 ] && w=1 ;;
		--queue-depth) [ "$w" = D ] && w=4 ;;
		--source) sized=1 ;;
		esac
		[ "${out[1]:-}" = gen ] && [ ${#out[@]} = 3 ] && w=$SMALL
		w=${w//\/mnt\/xfs/MNT}
		while [[ $w =~ $STAMP ]]; do
			w="${BASH_REMATCH[1]}results/$(latest)${BASH_REMATCH[2]}"
		done
		if [[ $w =~ ^results/[A-Za-z0-9._-]+$ ]] && [ "$prev" != --out ] && [ ! -e "$W/$w" ] &&
		   [ $run = 0 ] && [ -n "$(latest)" ]; then
			cp -r "$W/results/$(latest)" "$W/$w"
		fi
		out+=("$w")
		prev=$w
	done
	if [ $run = 1 ]; then
		[ $sized = 1 ] || out+=(--size "$SMALL")
		for i in "${out[@]}"; do [ "$i" = --repeat ] && run=2; done
		[ $run = 2 ] || out+=(--repeat 1)
		[[ " ${out[*]} " == *syscalls* ]] || out+=(--syscalls off)
	fi
	printf '%s\n' "${out[*]}"
}

# expected CMD: the exit statuses CMD may end with, as "0" or "0 1 3".
expected() {
	case "$1" in
	*'--fs '*|*'--tune'*) is_root || { echo 2; return; } ;;
	esac
	case "$1" in
	'bench check '*|'bench ab '*|'bench history check '*) echo "0 1 3" ;;
	*) echo 0 ;;
	esac
}

# help_commands: the commands with a --help text, one a line: "" (bench
# itself), each of its Commands list, and each subcommand a command's usage
# names (history add, baseline save).
help_commands() {
	local c
	echo ""
	for c in $(bench --help | awk '/^Commands/ { on = 1; next } on && /^$/ { exit }
				       on && /^  [a-z]/ { print $1 }'); do
		echo "$c"
		bench "$c" --help | sed -nE "s/^(usage:)? +bench $c ([a-z]+)( .*)?\$/$c \\2/p" |
			awk '!seen[$0]++'
	done
}

# extract_help: "LINE<TAB>command" for each example of the --help text on stdin.
extract_help() {
	awk -v OFS='\t' '
	/^Examples?:/ { on = 1; next }
	on && !/^  / { on = 0 }
	on && /^ +bench( |$)/ {
		line = $0
		sub(/^ +/, "", line)
		if (line ~ /\[|\.\.\.|…/) next
		print NR, line
	}'
}

# Every example, in order: WHERE[i] (file:line, or "bench CMD --help:line")
# and CMD[i] (its comment cut off).
WHERE=()
CMD=()
add_examples() {
	local n cmd
	while IFS=$'\t' read -r n cmd; do
		cmd=${cmd%%  #*}
		cmd=${cmd%% # *}
		WHERE+=("$1:$n")
		CMD+=("$cmd")
	done
}
while IFS= read -r c; do
	# shellcheck disable=SC2086
	add_examples "bench${c:+ $c} --help" < <(bench $c --help | extract_help)
done < <(help_commands)
from_help=${#CMD[@]}
for f in "$DOCS/README.md" "$DOCS"/docs/*.md; do
	add_examples "${f#"$DOCS"/}" < <(extract "$f")
done

# is_long CMD: a run of --all, bench ab or a run with --fs, not a --dry-run.
is_long() {
	[[ " $1 " == *' --dry-run '* ]] && return 1
	[[ $1 == 'bench ab '* ]] && return 0
	[[ $1 == 'bench -'* && ( " $1 " == *' --all '* || " $1 " == *' --fs '* ) ]]
}

# LONG[i]: 1 for a long example, or one naming a folder a long one wrote
# (--out); LONG_OUTS holds those folders' names.
LONG=()
LONG_OUTS=" "
for i in "${!CMD[@]}"; do
	read -ra words <<<"${CMD[i]}"
	long=0
	is_long "${CMD[i]}" && long=1
	for w in "${words[@]}"; do
		[[ $LONG_OUTS == *" $w "* ]] && long=1
	done
	if [ $long = 1 ]; then
		for j in "${!words[@]}"; do
			[ "${words[j]}" = --out ] && LONG_OUTS+="${words[j + 1]:-} "
		done
	fi
	LONG+=("$long")
done

MODE=${1:-quick}
case "$MODE" in
quick) want_long=0 ;;
long) want_long=1 ;;
*) echo "usage: docs_examples_run.sh [quick|long]" >&2; exit 2 ;;
esac
ran=0
ran_help=0
for i in "${!CMD[@]}"; do
	[ "${LONG[i]}" = $want_long ] || continue
	where=${WHERE[i]}
	cmd=${CMD[i]}
	read -ra words <<<"$cmd"
	if [[ $cmd == *'--only-syscalls'* ]]; then
		(cd "$W" && bench --workload copy --size 8M --repeat 1 --quiet >/dev/null 2>&1)
	fi
	line=$(cd "$W" && small "${words[@]}")
	want=$(expected "$line")
	start=$SECONDS
	(cd "$W" && bash -c "set -o pipefail; $line" </dev/null >"$T/.out" 2>"$T/.err")
	RC=$?
	echo "$where: $((SECONDS - start)) s, exit $RC: $line"
	ran=$((ran + 1))
	[ "$i" -lt "$from_help" ] && ran_help=$((ran_help + 1))
	if [[ " $want " == *" $RC "* ]]; then
		pass
	else
		fail "$where: exit $RC, expected ${want// / or }: $line: $(grep -m 3 -i 'error\|refus\|bench' "$T/.err" | head -c 400)"
	fi
done
echo "$MODE: $ran of ${#CMD[@]} examples run ($ran_help of the $from_help from the --help texts), in $SECONDS s"
expect_eq examples_ran "$([ "$ran" -gt 0 ] && echo yes)" yes
expect_eq help_examples_found "$([ "$from_help" -gt 0 ] && echo yes)" yes
finish
