#!/usr/bin/env bash
# hiplint confirm on a GPU host: builds the confirm binary, runs it on the GPU
# example module (runtimecheck/testdata/gpu: each hazard next to its safe twin,
# judged with -silent so the twins get verdicts too),
# measures the uninstrumented baseline, and checks that a hanging test is
# killed with its whole process group.
#
#   bash runtimecheck/gpu/check.sh [outdir]      (from anywhere; needs Go, gcc, CUDA or ROCm)
#
# Everything goes to outdir (default $OUT or /tmp/hiplint-gpu), eight files:
# device.txt, baseline.txt, confirm.txt (stderr at its end), confirm.json,
# traces.tar.gz, overhead-baseline.txt, hang.txt (with the leftover check),
# verdicts.tsv (the GPU column of docs/coverage.md: one line per test marked
# //matrix:gpu; commit it as runtimecheck/gpu/verdicts.tsv and regenerate the
# doc with go test ./internal/matrix -run TestCoverageDoc -update).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-${OUT:-/tmp/hiplint-gpu}}
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
mkdir -p "$out"
cd "$root" || exit 1

{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1
  nvcc --version 2>/dev/null | tail -2
  go version; } > "$out/device.txt"
cat "$out/device.txt"

go build -o "$bin/hiplint" ./cmd/hiplint || { echo "build failed"; exit 1; }
go build -o "$bin/gpuverdicts" ./internal/matrix/gpuverdicts || { echo "build failed"; exit 1; }
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
if [ -n "$(git -C "$root" status --porcelain 2>/dev/null)" ]; then commit="$commit+changes"; fi
card=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
confirm="$bin/hiplint confirm"
echo "confirm command: $confirm"

cd runtimecheck/testdata/gpu || exit 1
# The example module has no dependencies (and no vendor directory).
export GOFLAGS=-mod=mod GOPROXY=off
inc=${CUDA_INC:-/usr/local/cuda/include}
lib=${CUDA_LIB:-/usr/local/cuda/lib64}

echo "== baseline: the same tests, uninstrumented, through the HIP-on-CUDA mapping"
CGO_CFLAGS="-I$root/runtimecheck/hipcuda/include -I$inc" CGO_LDFLAGS="-L$lib -lcudart -lcuda" \
  go test -count=1 -v ./modules ./copysync ./graphfree ./xnack ./pipe ./gfree ./modset ./cargs ./modunload ./copygo ./capture ./copyforms ./modforms ./graphforms > "$out/baseline.txt" 2>&1
grep -E '^(--- |ok|FAIL)' "$out/baseline.txt"

echo "== hiplint confirm -silent ./modules ./copysync ./graphfree ./xnack ./pipe ./gfree ./modset ./cargs ./modunload ./copygo ./capture ./copyforms ./modforms ./graphforms"
start=$(date +%s)
$confirm -silent -timeout 3m -keep -jsonfile "$out/confirm.json" ./modules ./copysync ./graphfree ./xnack ./pipe ./gfree ./modset ./cargs ./modunload ./copygo ./capture ./copyforms ./modforms ./graphforms > "$out/confirm.txt" 2> "$bin/confirm.stderr"
echo "exit status $? after $(( $(date +%s) - start )) s" | tee -a "$out/confirm.txt"
{ echo "== stderr"; cat "$bin/confirm.stderr"; } >> "$out/confirm.txt"
cat "$out/confirm.txt"
kept=$(sed -n 's/^hiplint confirm: keeping //p' "$bin/confirm.stderr" | head -1)
if [ -n "$kept" ] && [ -d "$kept" ]; then
  tar -C "$kept" -czf "$out/traces.tar.gz" --exclude=hipcuda . && rm -rf "$kept"
fi

echo "== verdicts.tsv: the GPU column of docs/coverage.md"
"$bin/gpuverdicts" -root "$root" -baseline "$out/baseline.txt" -confirm "$out/confirm.json" \
  -header "$(date -u +%Y-%m-%d), ${card:-no GPU found}, commit $commit" > "$out/verdicts.tsv"
cat "$out/verdicts.tsv"

echo "== overhead: each hazard test alone, uninstrumented, after the confirm runs (JIT caches warm)"
for t in modules:TestLoadAll modules:TestLoadTwice copysync:TestStaleStream copysync:TestStaleHost graphfree:TestPlainFree xnack:TestSystemNoSkip; do
  CGO_CFLAGS="-I$root/runtimecheck/hipcuda/include -I$inc" CGO_LDFLAGS="-L$lib -lcudart -lcuda" \
    go test -count=1 -v -run "^${t#*:}\$" "./${t%%:*}" 2>&1 | grep -E '^--- '
done | tee "$out/overhead-baseline.txt"

echo "== a hanging test: killed at the time limit, nothing left behind"
$confirm -timeout 25s ./hang > "$out/hang.txt" 2>&1
echo "exit status $?" >> "$out/hang.txt"
cat "$out/hang.txt"
sleep 1
{ echo "processes left from the hang test:"; pgrep -fa 'hang\.test' || echo none; } | tee -a "$out/hang.txt"
