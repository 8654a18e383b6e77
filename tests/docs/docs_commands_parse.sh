#!/usr/bin/env bash
# docs_commands_parse.sh - every `bench ...` command line of README.md and
# docs/*.md still parses. In code blocks, a run (`bench [options]`) is run
# with --dry-run (its --dir and --out moved into a temp folder, --source
# given a small file) and must exit 0; a subcommand's options must each be
# in its --help. Inline `bench ...` spans, and lines with placeholders, get
# the option check only. DOCS_DIR overrides where the Markdown is read.
. "$(dirname "$0")/../support/lib.sh"
cd "$T" || exit 1
DOCS=${DOCS_DIR:-${SOURCE_DIR:?SOURCE_DIR names the source tree}}
SUBCOMMANDS=" $(bench_commands | grep -v ' ' | tr '\n' ' ') "
echo source >"$T/src.bin"

# extract FILE: "LINE<TAB>full|names<TAB>command" for each command line.
extract() {
	awk -v OFS='\t' '
	/^[ \t]*```/ { fence = !fence; next }
	{
		line = $0
		if (cont != "") { line = cont " " line; cont = "" }
		code = fence || line ~ /^    /
		if (code && line ~ /^[ \t]*(\$ )?(\.\/)?(build\/)?bench( |$)/) {
			if (line ~ /\\$/) { sub(/\\$/, "", line); cont = line; next }
			sub(/^[ \t]*(\$ )?(\.\/)?(build\/)?/, "", line)
			print FNR, "full", line
			next
		}
		while (match(line, /`(\.\/)?(build\/)?bench [^`]*`/)) {
			span = substr(line, RSTART + 1, RLENGTH - 2)
			sub(/^(\.\/)?(build\/)?/, "", span)
			print FNR, "names", span
			line = substr(line, RSTART + RLENGTH)
		}
	}' "$1"
}

# clean CMD: the command alone, without comments, pipes, redirections, && ...
clean() {
	local c=$1
	c=${c%%  #*}; c=${c%% # *}; c=${c%%&&*}; c=${c%%;*}; c=${c%%|*}; c=${c%%>*}
	echo "$c" | sed 's/[[:space:]]*$//'
}

# names_ok WHERE ARGS...: the subcommand exists and takes each --option named.
names_ok() {
	local where=$1 sub=() help opt w
	shift
	case " $SUBCOMMANDS " in *" $1 "*) sub=("$1") ;; esac
	if [ "${1:-}" = history ] && [ -n "${2:-}" ] && [[ ${2:-} != -* ]]; then sub+=("$2"); fi
	if ! help=$("$BENCH" "${sub[@]}" --help 2>&1); then
		fail "$where: bench ${sub[*]} --help failed: $help"
		return
	fi
	for w in "$@"; do
		[[ $w == --* ]] || continue
		opt=${w%%=*}
		opt=${opt//\'/}
		if ! grep -q -- "$opt\\b" <<<"$help"; then
			fail "$where: bench ${sub[*]}: $opt is not in its --help"
			return
		fi
	done
	pass
}

# dry_run_ok WHERE ARGS...: bench ARGS --dry-run exits 0 (or, not as root,
# 2 for a --fs that the run, as the dry run, refuses to make without root).
dry_run_ok() {
	local where=$1 args=() prev=""
	shift
	for w in "$@"; do
		case "$prev" in --source) w=$T/src.bin ;; --dir) w=$T/d ;; --out) w=$T/r ;; esac
		args+=("$w")
		prev=$w
	done
	run "$BENCH" "${args[@]}" --dir "$T/d" --out "$T/r" --dry-run
	if [ "$RC" = 0 ]; then
		pass
	elif [ "$RC" = 2 ] && ! is_root && grep -q 'making and mounting a filesystem needs root' "$T/.err"; then
		pass
	else fail "$where: bench $* --dry-run: exit $RC: $(head -c 300 "$T/.err")"; fi
}

checked=0
for f in "$DOCS/README.md" "$DOCS"/docs/*.md; do
	[ -f "$f" ] || continue
	while IFS=$'\t' read -r n kind cmd; do
		local_where="${f#"$DOCS"/}:$n"
		cmd=$(clean "$cmd")
		[ "$cmd" = bench ] && continue
		case "$cmd" in *'['*|*'...'*|*'…'*) continue ;; esac
		# words as a shell splits them (quotes kept together: a --command
		# template is one word), else split at blanks without the quotes
		if ! mapfile -t words < <(printf '%s\n' "$cmd" | xargs -n 1 printf '%s\n' 2>/dev/null) ||
		   [ ${#words[@]} = 0 ]; then
			# shellcheck disable=SC2206
			words=(${cmd//\'/})
		fi
		words=("${words[@]:1}")
		checked=$((checked + 1))
		placeholder=0
		for w in "${words[@]}"; do
			[[ $w =~ (^|,)[A-Z][A-Z0-9_]*(,|$) || $w == *'<'* || $w == *'$'* || $w == *'~'* ]] && placeholder=1
		done
		if [ "$kind" = full ] && [[ ${words[0]:-} == -* ]] && [ $placeholder = 0 -o "${words[*]}" != "${words[*]//--source/}" ]; then
			dry_run_ok "$local_where" "${words[@]}"
		else
			names_ok "$local_where" "${words[@]}"
		fi
	done < <(extract "$f")
done
expect_eq some_commands_found "$([ "$checked" -gt 20 ] && echo yes)" yes
rm -rf "$T/d" "$T/r"
finish
