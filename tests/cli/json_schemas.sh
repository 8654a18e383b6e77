#!/usr/bin/env bash
# json_schemas.sh - every JSON bench writes matches its schema in
# docs/schema/: the run summary (--format json and --export-json, a copy
# with a command row, a cold split, a transform, a tree), each results
# folder's meta.json (with and without --source, counting on and off),
# bench list --format json, and bench check --format json (timing and
# --only-syscalls). A schema lists every key with its JSON type(s), all
# required, no others: a key renamed, added, dropped or given another type
# fails here until the schema (and schema_version, when a reader would
# break) says so.
. "$(dirname "$0")/../support/lib.sh"
PY=/usr/bin/python3
[ -x "$PY" ] || skip "Debian's python3 is not installed (tools/deps.sh installs it)"
"$PY" -c 'import jsonschema' 2>/dev/null ||
	skip "python3-jsonschema is not installed (tools/deps.sh installs it)"
SCHEMA=${SOURCE_DIR:?SOURCE_DIR names the source tree}/docs/schema
export XDG_CACHE_HOME=$T/cache

# json NAME ARGS...: a run of bench with --format json; its stdout kept as NAME.json.
json() {
	local name=$1
	shift
	run "$BENCH" "$@" --warmup 0 --no-limits --quiet --dir "$T/d" --format json
	expect_eq "${name}_rc" "$RC" 0
	cp "$T/.out" "$T/$name.json"
}

head -c 100000 /dev/urandom >"$T/src.dat"
json copy --strategy readwrite,sendfile --command cp --size 64K --repeat 8 --out "$T/r-copy" \
	--export-json "$T/export.json"
json split --workload split --strategy readwrite,mmap --size 64K --repeat 8 --cache cold --out "$T/r-split"
json transform --workload transform --strategy pipe --size 64K --repeat 8 --syscalls off --out "$T/r-tr"
json tree --workload tree --files 20 --size 4K --strategy readwrite --repeat 2 --out "$T/r-tree"
json source --source "$T/src.dat" --strategy readwrite --repeat 2 --out "$T/r-src"
run "$BENCH" list --format json
expect_eq list_rc "$RC" 0
cp "$T/.out" "$T/list.json"
run "$BENCH" check --baseline "$T/r-copy" --current "$T/r-copy" --format json
# the same 8 runs a side: ok, or inconclusive when they spread too much
expect_eq check_rc "$([ "$RC" = 0 ] || [ "$RC" = 3 ] && echo 0-or-3 || echo "$RC")" 0-or-3
cp "$T/.out" "$T/check.json"
run "$BENCH" check --only-syscalls --baseline "$T/r-copy" --current "$T/r-copy" --format json
expect_eq check_syscalls_rc "$RC" 0
cp "$T/.out" "$T/check-syscalls.json"

# validate NAME FILE...: each FILE against the schema docs/schema/<NAME>.schema.json;
# one line per FILE: "ok" or the first error.
validate() {
	"$PY" - "$SCHEMA/$1.schema.json" "${@:2}" <<'PY'
import json, sys
import jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(schema)
v = jsonschema.Draft202012Validator(schema)
for f in sys.argv[2:]:
    errors = sorted(v.iter_errors(json.load(open(f))), key=lambda e: list(e.absolute_path))
    where = lambda e: "/".join(str(p) for p in e.absolute_path)
    print(f.rsplit("/", 1)[-1], "ok" if not errors else "%s: %s" % (where(errors[0]), errors[0].message[:200]))
PY
}

expect_eq run_json "$(validate run "$T"/{copy,split,transform,tree,source,export}.json)" \
	"$(printf '%s ok\n' {copy,split,transform,tree,source,export}.json)"
expect_eq meta_json "$(validate meta "$T"/r-{copy,split,tr,tree,src}/meta.json | sort | uniq -c | xargs)" "5 meta.json ok"
expect_eq list_json "$(validate list "$T/list.json")" "list.json ok"
expect_eq check_json "$(validate check "$T/check.json" "$T/check-syscalls.json")" \
	"$(printf '%s ok\n' check.json check-syscalls.json)"
finish
