#!/usr/bin/env bash
# copy_bad_sources_refused.sh - `bench copy` from sources it cannot copy
# faithfully: one clear line, exit 2 (an unusable input, as everywhere), and
# no DST or temporary file left beside it; a folder (a tree) holding a special
# file too.
. "$(dirname "$0")/../support/lib.sh"
mkdir "$T/cwd" && cd "$T/cwd" || exit 1
O=$T/out
mkdir "$O"
copy_fails() {	# NAME LINE SRC [STRATEGY]: bench copy SRC O/dst fails with LINE
	expect_fail "$1" 2 "$2" timeout 20 "$BENCH" copy --strategy "${4:-readwrite}" "$3" "$O/dst"
	expect_none "$1_no_dst" "$O" 'dst'
}

copy_fails missing "bench copy: $T/missing: No such file or directory" "$T/missing"
mkdir "$T/dir" && mkfifo "$T/dir/p"	# a folder is a tree: of files and folders only
copy_fails directory "bench copy: $T/dir -> $O/dst with readwrite: p: is a special file (trees of regular files and folders only)" "$T/dir"
mkfifo "$T/fifo"
copy_fails fifo "bench copy: $T/fifo: is a FIFO; bench copies regular files only" "$T/fifo"
copy_fails char_device "bench copy: /dev/zero: is a character device; bench copies regular files only" /dev/zero
for s in copy_file_range sendfile readwrite; do
	copy_fails "proc_file_$s" "bench copy: /proc/self/status: is a kernel pseudo-file whose size is not its length; bench copies regular files only" /proc/self/status "$s"
done
copy_fails proc_version "bench copy: /proc/version: is a kernel pseudo-file whose size is not its length; bench copies regular files only" /proc/version copy_file_range
copy_fails sysfs_file "bench copy: /sys/kernel/mm/transparent_hugepage/enabled: is a kernel pseudo-file whose size is not its length; bench copies regular files only" \
	/sys/kernel/mm/transparent_hugepage/enabled
[ -e /sys/kernel/mm/transparent_hugepage/enabled ] || true

# Unreadable: mode 000, copied by an unprivileged user (root reads anything).
if is_root && command -v setpriv >/dev/null; then
	chmod 755 "$T" "$T/cwd"
	chmod 777 "$O"
	echo secret >"$T/unreadable" && chmod 000 "$T/unreadable"
	expect_fail unreadable 2 "bench copy: $T/unreadable: Permission denied" \
		setpriv --reuid=65534 --regid=65534 --clear-groups "$BENCH" copy --strategy readwrite "$T/unreadable" "$O/dst"
	expect_none unreadable_no_dst "$O" 'dst'
	chmod 700 "$T"
fi

# A source that shrinks while mmap copies it: EFAULT (mmap: write from the
# mapping) or SIGBUS (mmap-memcpy) in the copying child, reported; nothing
# published. The source is truncated as soon as the temp file exists.
shrink() {	# STRATEGY LINE [LINE2]: either line, by how far the copy got
	local attempt pid rc
	for attempt in 1 2 3; do
		rm -f "$T/big"
		truncate -s 2G "$T/big"
		"$BENCH" copy --strategy "$1" "$T/big" "$O/dst" >"$T/.out" 2>"$T/.err" &
		pid=$!
		until compgen -G "$O/.bench-copy-*" >/dev/null || ! kill -0 "$pid" 2>/dev/null; do :; done
		truncate -s 0 "$T/big"
		wait "$pid"
		rc=$?
		if [ "$rc" = 0 ]; then	# finished before the truncation: again
			rm -f "$O/dst"
			continue
		fi
		expect_eq "shrink_$1_rc" "$rc" 1
		if [ "$(cat "$T/.err")" = "${3:-}" ]; then pass; else
			expect_eq "shrink_$1_msg" "$(cat "$T/.err")" "$2"
		fi
		expect_none "shrink_$1_no_dst" "$O" 'dst'
		expect_none "shrink_$1_no_temp" "$O" '.bench-copy-*'
		return
	done
	fail "shrink_$1: the copy always finished before the source shrank"
}
shrink mmap "bench copy: $T/big: the source shrank during the copy (EFAULT: a write from its mapping went past its end)" \
	"bench copy: $T/big: the source ended early (it shrank during the copy?)"
shrink mmap-memcpy "bench copy: $T/big: the copy was killed by SIGBUS (the source shrank during the copy, or the destination's filesystem is full)" \
	"bench copy: $T/big: the source ended early (it shrank during the copy?)"
rm -f "$T/big"

# Whatever happened, bench copy wrote nothing in its working directory.
expect_eq cwd_untouched "$(ls -A "$T/cwd")" ""
finish
