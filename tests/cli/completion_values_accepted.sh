#!/usr/bin/env bash
# completion_values_accepted.sh - every value the bash completion offers is
# one the command takes: each is fed back to its command and option (a run's
# as a dry run, a copy as a copy, the others parsed with --help), and none may
# be refused as a bad value (exit 2). The completion names what the run can
# select: the tree methods, no limit workload, no `all` for bench copy.
. "$(dirname "$0")/../support/lib.sh"
cd "$T" || exit 1

"$BENCH" --completion bash >"$T/complete.bash" || fail "no completion script"
# "CMD OPTION WORD" for every value offered after an option
awk '/^\t[a-z-]+:--[a-z-]+\)$/ { key = $1; sub(/\)$/, "", key); next }
	key != "" && /_bench_words/ { match($0, /"[^"]*"/); w = substr($0, RSTART + 1, RLENGTH - 2)
		n = split(w, a, " "); split(key, k, ":"); for (i = 1; i <= n; i++) print k[1], k[2], a[i] }
	{ key = "" }' "$T/complete.bash" >"$T/values"
[ -s "$T/values" ] || fail "no completion values found"

echo data >"$T/src"
n=0
while read -r cmd opt word; do
	n=$((n + 1))
	case "$cmd:$opt" in
	run:--strategy)
		run "$BENCH" --workload all --strategy "$word" --size 4K --files 10 --dry-run --dir "$T/d" ;;
	run:--workload)
		run "$BENCH" --workload "$word" --size 4K --files 10 --dry-run --dir "$T/d" ;;
	run:--fs)
		run "$BENCH" --fs "$word" --strategy readwrite --size 4K --dry-run --dir "$T/d"
		if [ "$RC" = 2 ] && ! is_root && grep -q 'needs root' "$T/.err"; then RC=0; fi ;;
	run:*)
		run "$BENCH" "$opt" "$word" --strategy readwrite --size 4K --dry-run --dir "$T/d" ;;
	copy:--strategy)
		run "$BENCH" copy --strategy "$word" "$T/src" "$T/dst-$n" ;;
	*)
		run "$BENCH" ${cmd//-/ } "$opt" "$word" --help ;;
	esac
	if [ "$RC" = 2 ]; then
		fail "$cmd $opt $word: refused: $(head -c 200 "$T/.err")"
	else
		pass
	fi
done <"$T/values"

# gen KIND: the kinds, not file names
line=$(grep -A1 '"$cmd" = gen' "$T/complete.bash" | grep -o 'compgen -W "[^"]*"')
expect_eq gen_kinds "$line" 'compgen -W "random text zero sparse"'
for kind in random text zero sparse; do
	run "$BENCH" gen "$kind" 4K "$T/gen-$kind"
	expect_eq "gen_$kind" "$RC" 0
done
expect_eq tree_methods "$(grep -c -E '^run --strategy (uring|pool|inode-order)$' "$T/values")" 3
expect_eq no_limit_workload "$(grep -c '^run --workload limit$' "$T/values")" 0
expect_eq copy_no_all "$(grep -c '^copy --strategy all$' "$T/values")" 0
finish
