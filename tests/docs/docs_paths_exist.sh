#!/usr/bin/env bash
# docs_paths_exist.sh - every path of the source tree that the README, docs/
# and the sources' comments name exists: a file moved or renamed without its
# pointers fails here with the pointer and where it is. So does a test name
# that README.md or docs/ give and the suite does not have, and a long
# option they name that neither bench nor the tool it belongs to takes. What bench makes
# when it runs (results/..., datasets/cache/...) and paths under a build
# folder (build/tests/...) are not the source tree's and are left out, as
# are names with placeholders (<name>, *). tests/e2e/add_plugins.sh names
# the files it makes in its scratch copy, so its own names are left out. A
# folder's CMakeLists.txt names files as CMake reads them, relative to that
# folder (the tests' folders in tests/CMakeLists.txt are under tests/).
. "$(dirname "$0")/../support/lib.sh"
cd "${SOURCE_DIR:?SOURCE_DIR names the source tree}" || exit 1

roots='harness|lib|strategies|workloads|datasets|tests|tools|plots|docs|\.ci'
pointers() {
	grep -rnoP "(?<![\w./-])($roots)/[\w.*<>/-]*[\w>*]" "$@" 2>/dev/null
}
{
	pointers README.md docs
	pointers --include='*.c' --include='*.h' --include='*.sh' --include='*.gp' \
		--include='*.cmake' --include='CMakeLists.txt' \
		harness lib strategies workloads datasets tests tools plots CMakeLists.txt
} | grep -v '^tests/e2e/add_plugins.sh:' >"$T/pointers"

checked=0
missing=""
while IFS= read -r hit; do
	path=${hit##*:}
	case "$path" in
	*'<'* | *'*'* | datasets/cache*) continue ;;
	esac
	checked=$((checked + 1))
	# a folder's CMakeLists.txt names files relative to that folder
	file=${hit%%:*}
	[[ $file == */CMakeLists.txt && -e ${file%/*}/$path ]] && continue
	[ -e "$path" ] || missing="$missing
  ${hit%:*}: $path"
done <"$T/pointers"

expect_eq some_pointers_found "$([ "$checked" -gt 100 ] && echo yes)" yes
expect_eq pointers_to_missing_paths "$missing" ""

# Markdown links: a relative link's file exists, seen from the page's folder.
links=0
broken=""
while IFS= read -r hit; do
	page=${hit%%:*}
	target=${hit##*](}
	target=${target%)}
	target=${target%%#*}
	case "$target" in '' | http://* | https://* | mailto:*) continue ;; esac
	links=$((links + 1))
	loc=${hit%%](*}
	[ -e "$(dirname "$page")/$target" ] || broken="$broken
  ${loc%:}: $target"
done < <(grep -noP '\]\([^)[:space:]]+\)' README.md docs/*.md docs/measurements/*.md)
expect_eq some_links_found "$([ "$links" -gt 50 ] && echo yes)" yes
expect_eq links_to_missing_files "$broken" ""

# Test names: `build/tests/NAME` and every `snake_case_name` of three words
# or more is a CTest test of this build, or a name the sources use (a
# function, a column, a field), or one the docs cite of the kernel or of
# Google Benchmark. (docs/measurements/ are records: they are not checked.)
cited_names=" bytes_per_second ext4_evict_inode find_inode_bit free_bitmap_enable
	io_cqring_wait io_uring_submit_req max_waiting_mib min_free_ms
	page_reporting_bitmap_mark_allocated page_reporting_publish_free_bitmap recently_deleted
	sched_process_exit sync_file_range "
ctest --test-dir "$(dirname "$BENCH")" -N 2>/dev/null |
	sed -n 's/^ *Test *#[0-9]*: //p' | sort -u >"$T/ctest"
expect_eq ctest_lists_the_suite "$([ "$(wc -l <"$T/ctest")" -gt 100 ] && echo yes)" yes
{
	grep -noP 'build/tests/\K[a-z0-9_]+' README.md docs/*.md
	grep -noP '`\K[a-z][a-z0-9]*(_[a-z0-9]+){2,}(?=`)' README.md docs/*.md
} | sort -u >"$T/tests"
named=0
unknown=""
while IFS= read -r hit; do
	name=${hit##*:}
	named=$((named + 1))
	grep -qxF "$name" "$T/ctest" && continue
	case "$cited_names" in *[[:space:]]"$name"[[:space:]]*) continue ;; esac
	grep -rqw --include='*.[ch]' --include='*.cc' --include='*.sh' --include='*.gp' \
		--include='*.cmake' --include='*.json' --include='CMakeLists.txt' --include='README.md' \
		-e "$name" harness lib strategies workloads datasets tools plots docs/schema \
		CMakeLists.txt results/README.md 2>/dev/null && continue
	unknown="$unknown
  ${hit%:*}: $name"
done <"$T/tests"
expect_eq some_test_names_found "$([ "$named" -gt 50 ] && echo yes)" yes
expect_eq names_not_in_the_suite_or_sources "$unknown" ""

# Long options: each is one of bench's (any command's), one a script or
# program of tools/ takes (it names it), or one of the other programs the
# docs show: cmake, ctest, git, cp, rsync, perf, hyperfine, Google Benchmark.
others=" --preset --build --install --prefix --no-tests --test-dir --global --add --oneline
	--abbrev-ref --show --reflink --sparse --inplace --exclude --no-children --sort --stdio
	--prepare --no-color --benchmark_filter --benchmark_out --benchmark_out_format
	--benchmark_repetitions --benchmark_list_tests "
"$BENCH" --help-markdown | grep -oP '`\K--[a-z][a-z0-9-]*' | sort -u >"$T/bench-options"
expect_eq bench_options_listed "$([ "$(wc -l <"$T/bench-options")" -gt 50 ] && echo yes)" yes
grep -rnoIP '(?<![\w-])--[a-z][a-z0-9_-]*[a-z0-9](?![\w*-])' README.md docs | sort -u >"$T/options"
options=0
unknown=""
while IFS= read -r hit; do
	opt=${hit##*:}
	options=$((options + 1))
	grep -qxF -- "$opt" "$T/bench-options" && continue
	case "$others" in *[[:space:]]"$opt"[[:space:]]*) continue ;; esac
	grep -rqw -- "$opt" tools && continue
	unknown="$unknown
  ${hit%:*}: $opt"
done <"$T/options"
expect_eq some_options_found "$([ "$options" -gt 200 ] && echo yes)" yes
expect_eq options_nothing_takes "$unknown" ""
finish
