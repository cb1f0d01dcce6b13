#!/bin/sh
# bench/run.sh: time hiplint against the fact-free floor (bench/floor: x/tools'
# multichecker with one no-op analyzer, every dependency from export data),
# its old all-syntax loading (bench/noop, column noop-syntax), go vet and
# staticcheck on the standard library, the example programs, a generated
# HIP-heavy module at 1x, 2x and 4x its package count, and real modules
# given with -module. See docs/performance.md.
#
#   bench/run.sh [-runs N] [-base PACKAGES] [-funcs N] [-inputs "std examples gen"]
#                [-module NAME=DIR[:TAGS]]... [-staticcheck VERSION|PATH|off]
#
# -module adds a checked-out module (./... at DIR, with build tags TAGS),
# staged as docs/corpus.md says; repeatable. staticcheck is installed with
# go install honnef.co/go/tools/cmd/staticcheck@VERSION into the work
# directory (default v0.8.2) unless a path to a binary or off is given.
#
# The first, untimed run of every tool on every input warms the build cache;
# the figures are the medians of the timed runs after it.
set -eu
cd "$(dirname "$0")/.."
root=$(pwd)
runs=3 base=100 funcs=24 inputs="std examples gen" keep= modules= sc=v0.8.2
while [ $# -gt 0 ]; do
	case $1 in
	-runs) runs=$2; shift 2 ;;
	-base) base=$2; shift 2 ;;
	-funcs) funcs=$2; shift 2 ;;
	-inputs) inputs=$2; shift 2 ;;
	-keep) keep=$2; shift 2 ;; # reuse (or create) generated modules under this directory
	-module) modules="$modules $2"; shift 2 ;;
	-staticcheck) sc=$2; shift 2 ;;
	*) echo "usage: bench/run.sh [-runs N] [-base PACKAGES] [-funcs N] [-inputs \"std examples gen\"] [-keep DIR] [-module NAME=DIR[:TAGS]]... [-staticcheck VERSION|PATH|off]" >&2; exit 2 ;;
	esac
done
work=${keep:-$(mktemp -d)}
[ -n "$keep" ] || trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin"
go build -o "$work/bin/hiplint" ./cmd/hiplint
go build -o "$work/bin/floor" ./bench/floor
go build -o "$work/bin/noop" ./bench/noop
set --
case $sc in
off) ;;
v*)
	[ -x "$work/bin/staticcheck" ] || GOBIN=$work/bin GOFLAGS= go install "honnef.co/go/tools/cmd/staticcheck@$sc"
	set -- -staticcheck "$work/bin/staticcheck" ;;
*) set -- -staticcheck "$sc" ;;
esac
go build -o "$work/bin/benchrun" ./bench/cmd/benchrun

for in in $inputs; do
	case $in in
	std) set -- "$@" -input "std=$root:std" ;;
	examples) set -- "$@" -input "examples=$root:./examples/..." ;;
	gen)
		for scale in 1 2 4; do
			n=$((base * scale))
			dir=$work/gen$n
			[ -f "$dir/go.mod" ] || go run ./bench/gen -n "$n" -funcs "$funcs" -include "$root/testdata/include" -o "$dir"
			set -- "$@" -input "gen-${scale}x=$dir:./...:$n"
		done ;;
	*) echo "bench/run.sh: unknown input $in" >&2; exit 2 ;;
	esac
done
for m in $modules; do
	name=${m%%=*} rest=${m#*=}
	dir=${rest%%:*} tags=
	case $rest in *:*) tags=${rest#*:} ;; esac
	set -- "$@" -input "$name=$dir:./...::$tags"
done
echo "go: $(go version); GOMAXPROCS=${GOMAXPROCS:-$(nproc)}; $(nproc) CPUs; $(free -g | awk '/Mem:/{print $2}') GiB"
"$work/bin/benchrun" -hiplint "$work/bin/hiplint" -floor "$work/bin/floor" -noop "$work/bin/noop" -runs "$runs" "$@"
