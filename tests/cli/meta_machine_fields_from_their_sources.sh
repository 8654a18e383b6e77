#!/usr/bin/env bash
# meta_machine_fields_from_their_sources.sh - every machine fact of meta.json
# equals what its source says, read here by other means (uname, getconf, grep
# and sed on /proc and /sys): a field written from the wrong source shows. A
# source this machine lacks must be written as "" or null.
. "$(dirname "$0")/../support/lib.sh"
command -v jq >/dev/null || skip "jq is not installed (Debian: jq)"
R=$T/r
run "$BENCH" --strategy readwrite --size 64K --repeat 1 --syscalls off --no-limits \
	--dir "$T/d" --out "$R" --quiet
expect_eq run_rc "$RC" 0
M=$R/meta.json

# field NAME FILTER WANT: jq's raw output of FILTER on meta.json is WANT.
field() { expect_eq "$1" "$(jq -r "$2" "$M")" "$3"; }
# line FILE: its first line, or nothing.
line() { head -n 1 "$1" 2>/dev/null; }
# choice FILE: the [bracketed] word of FILE, or nothing.
choice() { line "$1" | sed -n 's/.*\[\(.*\)\].*/\1/p'; }
# int_or_null FILE: its number, or null.
int_or_null() { local v; v=$(line "$1"); echo "${v:-null}"; }
# meminfo KEY: the kB figure of /proc/meminfo's KEY.
meminfo() { awk -v k="$1:" '$1 == k { print $2 }' /proc/meminfo; }

field host_name '.host.name' "$(uname -n)"
field host_kernel '.host.kernel' "$(uname -r)"
field host_ncpu '.host.ncpu' "$(getconf _NPROCESSORS_ONLN)"
model=$(grep -m 1 '^model name' /proc/cpuinfo | sed 's/^model name[[:space:]]*:[[:space:]]*//')
field host_cpu_model '.host.cpu_model' "${model:-unknown}"
field host_mem_total_kb '.host.mem_total_kb' "$(meminfo MemTotal)"
field host_swap_total_kb '.host.swap_total_kb' "$(meminfo SwapTotal)"

if grep -q '^flags.* hypervisor' /proc/cpuinfo; then hv=true; else hv=false; fi
field hypervisor_flag '.machine.hypervisor_flag' "$hv"
field sys_vendor '.machine.sys_vendor' "$(line /sys/class/dmi/id/sys_vendor)"
field product_name '.machine.product_name' "$(line /sys/class/dmi/id/product_name)"
field page_reporting_order '.machine.page_reporting_order' \
	"$(int_or_null /sys/module/page_reporting/parameters/page_reporting_order)"
field cpufreq_governor '.machine.cpufreq_governor' \
	"$(line /sys/devices/system/cpu/cpu0/cpufreq/scaling_governor)"
field cpuidle_driver '.machine.cpuidle_driver' "$(line /sys/devices/system/cpu/cpuidle/current_driver)"
field transparent_hugepage '.machine.transparent_hugepage' \
	"$(choice /sys/kernel/mm/transparent_hugepage/enabled)"
field transparent_hugepage_defrag '.machine.transparent_hugepage_defrag' \
	"$(choice /sys/kernel/mm/transparent_hugepage/defrag)"
container=$(line /run/systemd/container)
if [ -z "$container" ]; then
	if [ -e /.dockerenv ]; then container=docker
	elif [ -e /run/.containerenv ]; then container=podman
	else container=none; fi
fi
field container '.machine.container' "$container"
feat=$(ls /sys/bus/virtio/drivers/virtio_balloon/virtio*/features 2>/dev/null | head -n 1)
if [ -n "$feat" ]; then
	[ "$(cut -c6 "$feat")" = 1 ] && bal=true || bal=false
else
	bal=null
fi
field balloon_free_page_reporting '.machine.balloon_free_page_reporting' "$bal"
# loadavg: three numbers, each within what the machine showed around the run
field loadavg_three '.machine.loadavg | length' 3
finish
