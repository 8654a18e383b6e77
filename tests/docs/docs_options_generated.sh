#!/usr/bin/env bash
# docs_options_generated.sh - docs/options.md is what `bench --help-markdown`
# writes from the option table, to the byte: an option added, renamed or
# reworded in harness/options/cli_table.c without regenerating the docs fails
# here (build/bench --help-markdown > docs/options.md). Also: every command's
# section is there, and every option of its --help is in its table.
. "$(dirname "$0")/../support/lib.sh"
DOC=${SOURCE_DIR:?SOURCE_DIR names the source tree}/docs/options.md

run "$BENCH" --help-markdown
expect_eq markdown_rc "$RC $(wc -c <"$T/.err")" "0 0"
if [ ! -f "$DOC" ]; then
	fail "docs/options.md is missing"
elif ! diff -u "$DOC" "$T/.out" >"$T/diff"; then
	fail "docs/options.md differs from bench --help-markdown (regenerate it):
$(head -40 "$T/diff")"
else
	pass
fi

# Each command's --help options appear in its section of the Markdown: the
# run (""), then every command bench lists.
mapfile -t COMMANDS < <(echo; bench_commands)
for c in "${COMMANDS[@]}"; do
	# shellcheck disable=SC2086
	want=$("$BENCH" $c --help | sed -n -E 's/^  (-[a-zA-Z], |    )(--[a-z][a-z-]*).*/\2/p' | sort -u)
	got=$(awk -v h="## bench${c:+ $c}" '$0 == h { on = 1; next } /^## / { on = 0 } on' "$T/.out" |
		grep '^| `' | grep -o -- '`--[a-z][a-z-]*`' | tr -d '`' | sort -u)
	missing=$(comm -23 <(echo "$want") <(echo "$got") | tr '\n' ' ')
	expect_eq "section 'bench${c:+ $c}' lacks" "$missing $(echo "$want" | wc -l)" " $(echo "$got" | wc -l)"
done
finish
