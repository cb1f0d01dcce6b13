#!/bin/sh
# bench/corpus/run.sh: lint checked-out repositories as a CI runner without
# GPU SDKs would (issue 17): the C compiler sees the system's headers minus
# every GPU runtime and SDK header, and each repository starts with an empty
# build cache. Prints one row per repository: GPU-calling packages analyzed
# of all GPU-calling packages, how many of them at tier 3 (cgo failed:
# analyzed from the Go files), how many with an import not found, findings,
# wall time and peak memory of the hiplint process. See docs/corpus.md.
#
#   bench/corpus/run.sh [-out DIR] REPO[:tag,tag]...
#
# REPO is a checked-out repository: with a go.work, one run at its root over
# the modules it uses; otherwise one run per go.mod below it. -out keeps each
# repository's findings (NAME.txt) and messages (NAME.err).
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
out=
while [ $# -gt 0 ]; do
	case $1 in
	-out) out=$2; shift 2 ;;
	-*) echo "usage: bench/corpus/run.sh [-out DIR] REPO[:tags]..." >&2; exit 2 ;;
	*) break ;;
	esac
done
[ $# -gt 0 ] || { echo "usage: bench/corpus/run.sh [-out DIR] REPO[:tags]..." >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[ -n "$out" ] && mkdir -p "$out"
(cd "$root" && go build -o "$work/hiplint" ./cmd/hiplint)

# A sysroot that mirrors / without GPU headers (internal/testenv.NoGPUHeaders
# does the same for the tests).
sys=$work/sysroot
mkdir -p "$sys/usr/include" "$sys/usr/local"
for e in /usr/include/*; do
	case ${e##*/} in
	hip | hipblas* | hipfft* | hiprand* | rocblas* | rocrand* | rccl* | miopen* | cuda* | cu*.h | nv*.h | nccl* | cudnn* | curand* | cufft* | cublas* | cusparse* | cusolver* | thrust | cub) continue ;;
	esac
	ln -s "$e" "$sys/usr/include/${e##*/}"
done
for e in /usr/local/*; do
	case ${e##*/} in cuda* | rocm*) continue ;; esac
	ln -s "$e" "$sys/usr/local/${e##*/}"
done
for d in lib lib64 usr/lib usr/lib64; do
	[ -e "/$d" ] && ln -s "/$d" "$sys/$d"
done
gcc=$(command -v gcc)
printf '#!/bin/sh\nexec %s --sysroot=%s "$@"\n' "$gcc" "$sys" > "$work/cc"
chmod +x "$work/cc"

printf '%-12s %-22s %6s %8s %9s %8s %9s\n' repository "gpu pkgs analyzed" "tier3" "partial" findings "time(s)" "peak(MB)"
n=0
for arg; do
	dir=${arg%%:*}
	tags=
	case $arg in *:*) tags=${arg#*:} ;; esac
	name=$(basename "$dir")
	n=$((n + 1))
	: > "$work/report" ; : > "$work/out" ; : > "$work/err"
	runs=
	if [ -f "$dir/go.work" ]; then
		pats=$(cd "$dir" && go work edit -json | sed -n 's/.*"DiskPath": "\(.*\)".*/\1\/.../p' | tr '\n' ' ')
		runs="$dir|$pats"
	else
		for mod in $(find "$dir" -name go.mod -not -path '*/vendor/*' -not -path '*/testdata/*' | sort); do
			runs="$runs
$(dirname "$mod")|./..."
		done
	fi
	time_total=0 peak=0
	echo "$runs" | while IFS='|' read -r mdir pats; do
		[ -n "$mdir" ] || continue
		rm -f "$work/one"
		# shellcheck disable=SC2086
		mod=-mod=mod
		[ -f "$mdir/go.work" ] && mod= # workspace mode takes no -mod=mod
		(cd "$mdir" && env CC="$work/cc" CGO_ENABLED=1 GOCACHE="$work/cache$n" GOFLAGS=$mod \
			HIPLINT_LOADREPORT="$work/one" /usr/bin/time -f '%e %M' -o "$work/time" \
			"$work/hiplint" ${tags:+-tags=$tags} $pats >> "$work/out" 2>> "$work/err") || true
		[ -f "$work/one" ] && cat "$work/one" >> "$work/report"
		cat "$work/time" >> "$work/times"
	done
	total=$(awk '$3 == "gpu"' "$work/report" | sort -u | wc -l)
	analyzed=$(awk '$3 == "gpu" && $2 != "failed"' "$work/report" | sort -u | wc -l)
	tier3=$(awk '$3 == "gpu" && $2 == "tier3"' "$work/report" | sort -u | wc -l)
	partial=$(awk '$3 == "gpu" && $2 == "partial"' "$work/report" | sort -u | wc -l)
	findings=$(grep -c '^[^	]' "$work/out" || true)
	secs=$(awk 'NF == 2 && $2 ~ /^[0-9]+$/ { s += $1 } END { printf "%.1f", s }' "$work/times")
	mb=$(awk 'NF == 2 && $2 ~ /^[0-9]+$/ && $2 > m { m = $2 } END { printf "%d", m / 1024 }' "$work/times")
	rm -f "$work/times"
	printf '%-12s %-22s %6s %8s %9s %8s %9s\n' "$name" "$analyzed / $total" "$tier3" "$partial" "$findings" "$secs" "$mb"
	if [ -n "$out" ]; then
		cp "$work/out" "$out/$name.txt"
		cp "$work/err" "$out/$name.err"
		cp "$work/report" "$out/$name.load"
	fi
done
