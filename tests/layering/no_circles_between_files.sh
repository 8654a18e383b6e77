#!/usr/bin/env bash
# no_circles_between_files.sh BUILD_DIR - no two product files call each
# other, directly or round a longer ring: read from the product libraries'
# symbols (nm), a file uses another when it needs a symbol the other
# defines, and that graph has no circle (a strongly connected set of more
# than one file). A circle is a seam drawn in the wrong place: the shared
# part belongs in one of them or a third file both use. Prints each circle
# with the names that tie it, then the count; exits 0 when it is 0.
set -u
build=${1:?usage: no_circles_between_files.sh BUILD_DIR}
mapfile -t libs < <(find "$build" -name 'libcopybench_*.a' ! -name '*test_support*' \
	! -name '*fixtures*' | LC_ALL=C sort)
[ "${#libs[@]}" -gt 10 ] || { echo "only ${#libs[@]} product libraries in $build: build it first" >&2; exit 1; }
python3 - <(nm -A --defined-only -g "${libs[@]}" 2>/dev/null) \
	<(nm -A --undefined-only "${libs[@]}" 2>/dev/null) <<'PY'
import sys
from collections import defaultdict

def rows(path):
    # "DIR/libcopybench_lib.a:stats.c.o:0000000000000a40 T name" or
    # "DIR/libcopybench_lib.a:stats.c.o:                 U name"
    for line in open(path):
        parts = line.split()
        if len(parts) < 3:
            continue
        lib, obj = parts[0].split(':')[:2]
        room = lib.rsplit('/', 1)[-1][len('libcopybench_'):-2]
        yield room + '/' + obj[:-4], parts[-1]

defined = {}
for obj, sym in rows(sys.argv[1]):
    defined[sym] = obj
uses = defaultdict(lambda: defaultdict(set))
for obj, sym in rows(sys.argv[2]):
    other = defined.get(sym)
    if other and other != obj:
        uses[obj][other].add(sym)

index, low, stack, on, sccs, n = {}, {}, [], set(), [], [0]
def visit(v):
    index[v] = low[v] = n[0]; n[0] += 1
    stack.append(v); on.add(v)
    for w in uses[v]:
        if w not in index:
            visit(w); low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        scc = []
        while True:
            w = stack.pop(); on.discard(w); scc.append(w)
            if w == v:
                break
        if len(scc) > 1:
            sccs.append(sorted(scc))
sys.setrecursionlimit(10000)
files = sorted(set(defined.values()) | set(uses))
for v in files:
    if v not in index:
        visit(v)
for scc in sccs:
    print("circle of %d files: %s" % (len(scc), ", ".join(scc)))
    for a in scc:
        for b in scc:
            if b in uses[a]:
                print("  %s -> %s: %s" % (a, b, ", ".join(sorted(uses[a][b]))))
print("%d files, %d circles" % (len(files), len(sccs)))
sys.exit(1 if sccs or len(files) < 100 else 0)
PY
