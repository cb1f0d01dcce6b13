#!/bin/sh
# Forced tier-3 diff (issue 30): lint the analyzers' testdata (GOPATH mode, as
# analysistest lays it out) with the C types and again with every cgo package
# forced to tier 3 (HIPLINT_TIER3=force), and print the differences: findings
# only tier 3 makes (there must be none: tier 3 says less, never wrong) and the
# findings tier 3 loses, with a count per check.
#
# Usage: bench/tier3/diff.sh [hiplint binary]   (run from the repository root)
set -eu
bin=${1:-}
root=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -z "$bin" ]; then
	bin=$work/hiplint
	go build -o "$bin" ./cmd/hiplint
fi
mkdir -p "$work/gopath"
cp -r testdata/src testdata/include "$work/gopath/"
rm -rf "$work/gopath/src/loading" # module-mode packages: tiers_test.go and synth_test.go
cd "$work/gopath/src"
pkgs=$(find . -name '*.go' -exec dirname {} \; | sort -u)
export GO111MODULE=off GOPATH="$work/gopath" GOFLAGS= GOCACHE="$work/gocache"
# shellcheck disable=SC2086
"$bin" $pkgs > "$work/full.txt" 2> "$work/full.err" || true
# shellcheck disable=SC2086
HIPLINT_TIER3=force "$bin" $pkgs > "$work/tier3.txt" 2> "$work/tier3.err" || true
grep -v '^	' "$work/full.txt" | sort > "$work/full"
grep -v '^	' "$work/tier3.txt" | sort > "$work/tier3"
echo "findings: $(wc -l < "$work/full") with C types, $(wc -l < "$work/tier3") at tier 3 ($(grep -c 'note: cgo failed' "$work/tier3.err" || true) packages at tier 3)"
echo "internal errors: $(cat "$work/full.err" "$work/tier3.err" | grep -c 'internal error' || true)"
echo "== only at tier 3 (must be empty)"
comm -13 "$work/full" "$work/tier3"
echo "== lost at tier 3, per check"
comm -23 "$work/full" "$work/tier3" | grep -o '(HL[0-9]*)$' | sort | uniq -c
echo "== lost at tier 3"
comm -23 "$work/full" "$work/tier3"
