#!/usr/bin/env bash
# bench/editcost.sh: what an edit of one cgo file costs hiplint's result cache,
# against a warm run, and where the difference goes (docs/performance.md, "An
# edit at the bottom of zerfoo, second round"). Usage, from anywhere:
#
#   bench/editcost.sh HIPLINT MODULE_DIR FILE RUNS [TAGS]
#
# HIPLINT is a built hiplint, MODULE_DIR a copy of the module that may be
# edited (FILE, relative to it, a cgo file of the package to edit, gets a new
# function appended before every edit: `func cacheBenchEditN() {}`, which
# keeps the package's API and facts), TAGS the build tags (`cuda` for
# zerfoo). The cache is $EDITCOST_CACHE (default /tmp/editcost/cache); run it
# once before, cold, or the first "warm" row is the cold run.
#
# Each round prints, as CPU (user + sys of the process tree, bash's time) and the load
# average when it ended:
#   warm           hiplint, nothing changed since its last run
#   edited         hiplint after an edit of FILE
#   edited, p cached  an edit, the go list of the edited run (hiplint's
#                  flags and CGO_CFLAGS), then hiplint: the edited run
#                  without the package's own cgo and compilation
#   golist ...     that go list alone: after an edit (-compiled -export
#                  -test, what hiplint's edited run lists), again with
#                  nothing edited, with nothing to build (-export of the
#                  dependencies only), and after an edit with -compiled
#                  (one cgo), -compiled -export (cgo and compile) and
#                  -compiled -test (cgo of the package and its test variant)
set -u
H=$1 dir=$2 file=$3 runs=$4 tags=${5:-}
cache=${EDITCOST_CACHE:-/tmp/editcost/cache}
cd "$dir" || exit 1
pkg=$(go list ${tags:+-tags=$tags} -f '{{.ImportPath}}' "./$(dirname "$file")") || exit 1
fields=Name,ImportPath,Error,Dir,GoFiles,IgnoredGoFiles,IgnoredOtherFiles,CFiles,CgoFiles,CXXFiles,MFiles,HFiles,FFiles,SFiles,SwigFiles,SwigCXXFiles,SysoFiles,TestGoFiles,XTestGoFiles,CompiledGoFiles,Export,DepOnly,Imports,ImportMap,TestImports,XTestImports,Module
# hiplint's CGO_CFLAGS: the user's (or go's default) with its header
# directory after every other (internal/headerless.Env).
cflags="${CGO_CFLAGS:-$(go env CGO_CFLAGS)} -idirafter $("$H" headers)"
golist() { env "CGO_CFLAGS=$cflags" go list ${tags:+-tags=$tags} -e "-json=$fields" -find=false -buildvcs=false -pgo=off -deps=true "$@" -- "$pkg"; }
hl() { env HIPLINT_CACHE="$cache" HIPLINT_CACHE_STATS=/tmp/editcost-stats.json "$H" ${tags:+-tags "$tags"} ./...; }
n=0
edit() { n=$((n + 1)); printf '\nfunc cacheBenchEdit%s_%d() {}\n' "$$" "$n" >> "$file"; }
row() {
	local label=$1 TIMEFORMAT='%R %U %S'
	shift
	rm -f /tmp/editcost-stats.json
	{ time "$@" > /dev/null 2>&1; } 2> /tmp/editcost-time.txt
	read -r e u s < <(tail -1 /tmp/editcost-time.txt)
	local st=""
	[ -f /tmp/editcost-stats.json ] && st=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print("hit/analyzed %d/%d" % (len(d.get("Hits") or []), len(d.get("Analyzed") or [])))' /tmp/editcost-stats.json)
	printf '%-40s cpu %5.2f s  wall %6.2f s  load %s  %s\n' "$label" "$(echo "$u + $s" | bc)" "$e" "$(cut -d' ' -f1 /proc/loadavg)" "$st"
}
for _ in $(seq "$runs"); do
	row warm hl
	edit
	row edited hl
	edit
	row "golist -compiled -export -test, edited" golist -compiled=true -test=true -export=true
	row "edited, p cached" hl
	row "golist -compiled -export -test, again" golist -compiled=true -test=true -export=true
	row "golist -export, nothing to build" golist -compiled=false -test=false -export=true
	edit
	row "golist -compiled, edited" golist -compiled=true -test=false -export=false
	edit
	row "golist -compiled -export, edited" golist -compiled=true -test=false -export=true
	edit
	row "golist -compiled -test, edited" golist -compiled=true -test=true -export=false
	hl > /dev/null 2>&1 # the next round's warm row is warm
done
