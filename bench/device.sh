#!/usr/bin/env bash
# bench/device.sh: issue 33's figures on the 16-core GPU host (no Go, no
# network there). Prepare on this machine, from the repository root:
#
#   bash ../shared/gpu/pack.sh                      # .gpu/: Go and the vendored modules
#   for m in zerfoo-cuda icicle; do ...; done       # copies of the staged modules
#       (docs/corpus.md) with `go mod vendor` run in each, packed as
#       tar -cf - zerfoo icicle | xz > .gpu/mods.tar.xz
#   xz -c ~/go/bin/staticcheck > .gpu/staticcheck.xz   # v0.8.2
#
# then run on the host, carrying .gpu:
#
#   bash bench/device.sh $OUT bench "examples gen"  # bench/run.sh, zerfoo and icicle added
#   bash bench/device.sh $OUT lsp                   # bench/cmd/lspedit on zerfoo
#
# Results go to $OUT/bench.txt (bench.log, env.txt) and $OUT/lsp.txt.
set -u
source .gpu/enter.sh
out=$1 what=$2
mkdir -p /tmp/mods && { [ -d /tmp/mods/zerfoo ] || tar -xJf .gpu/mods.tar.xz -C /tmp/mods; }
case $what in
bench)
	[ -x /tmp/staticcheck ] || { xz -dc .gpu/staticcheck.xz > /tmp/staticcheck && chmod +x /tmp/staticcheck; }
	echo "nproc $(nproc); $(uptime)" > "$out/env.txt"
	bench/run.sh -runs 3 -base 50 -keep /tmp/benchkeep -inputs "$3" \
		-module zerfoo=/tmp/mods/zerfoo:cuda -module icicle=/tmp/mods/icicle \
		-staticcheck /tmp/staticcheck > "$out/bench.txt" 2> "$out/bench.log"
	echo "rc $?" >> "$out/env.txt" ;;
lsp)
	go build -o /tmp/hl ./cmd/hiplint && go build -o /tmp/lspedit ./bench/cmd/lspedit || exit 1
	for f in tensor/transfer_test.go internal/cuda/runtime.go; do
		echo "== $f $(uptime)" >> "$out/lsp.txt"
		HIPLINT_CACHE=/tmp/lspc /tmp/lspedit -bin /tmp/hl -edits 7 /tmp/mods/zerfoo "$f" -tags cuda >> "$out/lsp.txt" 2>&1
	done ;;
*) echo "usage: bench/device.sh OUT bench INPUTS | OUT lsp" >&2; exit 2 ;;
esac
