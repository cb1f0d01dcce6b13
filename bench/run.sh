#!/bin/sh
# bench/run.sh: time hiplint against its no-op floor and go vet on the
# standard library, the example programs and a generated HIP-heavy module at
# 1x, 2x and 4x its package count. See docs/performance.md.
#
#   bench/run.sh [-runs N] [-base PACKAGES] [-funcs N] [-inputs "std examples gen"]
#
# The first, untimed run of every tool on every input warms the build cache;
# the figures are the medians of the timed runs after it.
set -eu
cd "$(dirname "$0")/.."
root=$(pwd)
runs=3 base=100 funcs=24 inputs="std examples gen" keep=
while [ $# -gt 0 ]; do
	case $1 in
	-runs) runs=$2; shift 2 ;;
	-base) base=$2; shift 2 ;;
	-funcs) funcs=$2; shift 2 ;;
	-inputs) inputs=$2; shift 2 ;;
	-keep) keep=$2; shift 2 ;; # reuse (or create) generated modules under this directory
	*) echo "usage: bench/run.sh [-runs N] [-base PACKAGES] [-funcs N] [-inputs \"std examples gen\"] [-keep DIR]" >&2; exit 2 ;;
	esac
done
work=${keep:-$(mktemp -d)}
[ -n "$keep" ] || trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin"
go build -o "$work/bin/hiplint" ./cmd/hiplint
go build -o "$work/bin/noop" ./bench/noop
go build -o "$work/bin/benchrun" ./bench/cmd/benchrun

set --
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
echo "go: $(go version); GOMAXPROCS=${GOMAXPROCS:-$(nproc)}; $(nproc) CPUs; $(free -g | awk '/Mem:/{print $2}') GiB"
"$work/bin/benchrun" -hiplint "$work/bin/hiplint" -noop "$work/bin/noop" -runs "$runs" "$@"
