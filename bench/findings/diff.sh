#!/bin/sh
# bench/findings/diff.sh: compare hiplint's findings at a base commit with
# those of the working tree (issue 18: the analyzers' refactor onto one
# engine must keep every finding, or explain each difference as a fix).
#
#   bench/findings/diff.sh [-base REF] [-new REF] [-self] [-headers MODE]
#                          [-sources "LIST"] [-keep DIR]
#   bench/findings/diff.sh -cache [-new REF] [-headers MODE] [-sources "LIST"]
#                          [-keep DIR]
#
#   -base REF     the "before" commit (default 5248db6)
#   -new REF      the "after" side from a commit instead of the working tree
#   -self         run each binary over its own tree's inputs (default: both
#                 binaries over the after side's inputs, so that only the
#                 analyzers differ; -self is slower, the base tree's cgo
#                 results are not cached under its temporary path)
#   -headers MODE hiplint's -headers for every run (default hiplint: the
#                 same declarations on every machine, installed SDKs or not)
#   -sources LIST a subset of the sources below, space-separated
#   -keep DIR     leave the normalized findings in DIR/{base,new}/SOURCE
#   -cache        compare the result cache's modes instead of two commits
#                 (issue 33): one binary (the working tree's, or -new's)
#                 runs each source with -cache=off ("off", the base
#                 column), then twice on an empty HIPLINT_CACHE of its own:
#                 "cold" (the new column, which stores the entries) and
#                 "warm" (which must answer from them; the table adds its
#                 findings and the package paths it answered from the cache
#                 and analyzed, from HIPLINT_CACHE_STATS). Every side must be
#                 identical. fuzz does not run the binary and is left out.
#
# It builds hiplint (go build -trimpath, once per side) at REF in a temporary
# git worktree, removed at exit, and in the working tree (or a second
# worktree for -new), then runs each binary with -json -test=true and every
# analyzer over each source:
#
#   testdata/graphfree, testdata/memcpysync, testdata/modulebalance,
#   testdata/xnack  the analysistest trees testdata/src/<analyzer>/..., GOPATH
#                   style (GO111MODULE=off GOPATH=testdata), as analysistest
#                   loads them
#   testdata/loading testdata/src/loading/... and testdata/src/headers/...,
#                   packages of the main module
#   testdata/shapes testdata/src/shapes, a module of its own
#   examples        ./examples/... of the main module
#   fuzz            the programs generated from the seed corpus
#                   (internal/fuzzcheck: the in-code seeds and
#                   testdata/fuzz/FuzzAnalyzers), through the fuzz harness, not
#                   the binary (they are cgo-shaped, not cgo): go test -run
#                   TestFindingsDump (findings_dump_test.go, copied into a tree
#                   that lacks it) in each tree over the same corpus; facts are
#                   left out
#
# Each source's output becomes one sorted line per finding ("F", JSON with
# package, analyzer, position, category, message, end, related positions and
# fixes), per package error ("E"), plus the exit status ("X") and the sorted
# lines of standard error ("S"), with the tree's path replaced by $ROOT. It
# prints the findings per source and side, then a unified diff of every
# source that differs. Exit status: 0 identical, 1 a difference, 2 a usage or
# build failure. Needs git, go and jq; reuses the build cache (GOCACHE).
set -eu

usage() {
	sed -n '2,/^set -eu/p' "$0" | sed -e '/^set -eu/d' -e 's/^# \{0,1\}//' >&2
	exit 2
}

all_sources="testdata/graphfree testdata/memcpysync testdata/modulebalance testdata/xnack testdata/loading testdata/shapes examples fuzz"
base=5248db6 new= self= headers=hiplint sources= keep= cachemode=
while [ $# -gt 0 ]; do
	case $1 in
	-base) [ $# -ge 2 ] || usage; base=$2; shift 2 ;;
	-new) [ $# -ge 2 ] || usage; new=$2; shift 2 ;;
	-self) self=1; shift ;;
	-headers) [ $# -ge 2 ] || usage; headers=$2; shift 2 ;;
	-sources) [ $# -ge 2 ] || usage; sources=$2; shift 2 ;;
	-keep) [ $# -ge 2 ] || usage; keep=$2; shift 2 ;;
	-cache) cachemode=1; shift ;;
	-h | -help | --help) usage ;;
	*) echo "diff.sh: unknown argument $1" >&2; usage ;;
	esac
done
if [ -z "$sources" ]; then
	sources=$all_sources
	[ -z "$cachemode" ] || sources=${all_sources% fuzz}
fi
sides="base new"
[ -z "$cachemode" ] || sides="base new warm"
for s in $sources; do
	[ -z "$cachemode" ] || [ "$s" != fuzz ] || { echo "diff.sh: -cache: fuzz does not run the binary" >&2; exit 2; }
	case " $all_sources " in
	*" $s "*) ;;
	*) echo "diff.sh: unknown source $s (want some of: $all_sources)" >&2; exit 2 ;;
	esac
done
for tool in git go jq; do
	command -v $tool >/dev/null || { echo "diff.sh: needs $tool" >&2; exit 2; }
done

script_dir=$(cd "$(dirname "$0")" && pwd)
root=$(git -C "$script_dir" rev-parse --show-toplevel)
dump_test=internal/fuzzcheck/findings_dump_test.go
start=$(date +%s)

work=$(mktemp -d "${TMPDIR:-/tmp}/hiplint-findings.XXXXXX")
cleanup() {
	for wt in "$work/base" "$work/new"; do
		[ -d "$wt" ] && git -C "$root" worktree remove --force "$wt" 2>/dev/null
	done
	git -C "$root" worktree prune 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 2' HUP INT TERM
mkdir -p "$work/bin" "$work/out/base" "$work/out/new" "$work/out/warm" "$work/raw" "$work/stats"

say() { printf '%s\n' "$*" >&2; }
elapsed() { echo "$(($(date +%s) - start))s"; }

# worktree NAME REF: a detached worktree of REF at $work/NAME.
worktree() {
	sha=$(git -C "$root" rev-parse --verify --quiet "$2^{commit}") || { say "diff.sh: $2: no such commit"; exit 2; }
	git -C "$root" worktree add --detach --quiet "$work/$1" "$sha" >/dev/null
	echo "$sha"
}

if [ -z "$cachemode" ]; then
	base_sha=$(worktree base "$base")
	base_tree=$work/base
fi
if [ -n "$new" ]; then
	new_sha=$(worktree new "$new")
	new_tree=$work/new
	new_label="$new ($new_sha)"
else
	new_tree=$root
	new_label="working tree ($(git -C "$root" rev-parse HEAD)$(git -C "$root" diff --quiet HEAD 2>/dev/null || echo ', with changes'))"
fi
if [ -n "$cachemode" ]; then
	# One binary, three runs: off, then cold and warm on a cache of their own.
	base_tree=$new_tree warm_tree=$new_tree
	say "cache modes of: $new_label (off | cold | warm)"
	say "cache: $work/cache"
	set -- new
else
	say "base: $base ($base_sha)"
	say "new:  $new_label"
	set -- base new
fi

for side in "$@"; do
	eval "tree=\$${side}_tree"
	say "building hiplint ($side)..."
	(cd "$tree" && GOWORK=off go build -trimpath -o "$work/bin/$side" ./cmd/hiplint) || { say "diff.sh: building hiplint ($side) failed"; exit 2; }
	# The fuzz helper: a tree that lacks it gets this tree's copy.
	[ -f "$tree/$dump_test" ] || cp "$root/$dump_test" "$tree/$dump_test"
done
say "built ($(elapsed))"
if [ -n "$cachemode" ]; then
	cp "$work/bin/new" "$work/bin/base"
	cp "$work/bin/new" "$work/bin/warm"
fi

# normalize_json TREE: hiplint's -json tree on stdin, one sorted line per
# finding or error on stdout, TREE's path replaced by $ROOT.
normalize_json() {
	jq -r --arg root "$1" '
		def norm: with_entries(select(.value != null)) | tojson | split($root + "/") | join("$ROOT/");
		to_entries[] | .key as $p | .value | to_entries[] | .key as $a |
		if (.value | type) == "array" then
			.value[] | "F\t" + ({pkg: $p, analyzer: $a, posn, category, message, end: .end, related, suggested_fixes} | norm)
		else
			"E\t" + ({pkg: $p, analyzer: $a, error: .value.error} | norm)
		end'
}

# replace_root TREE: every line of stdin with TREE's path replaced by $ROOT.
replace_root() {
	awk -v root="$1/" '{ out = ""; while ((i = index($0, root)) > 0) { out = out substr($0, 1, i - 1) "$ROOT/"; $0 = substr($0, i + length(root)) } print out $0 }'
}

# run_source SIDE SOURCE: the normalized findings of SIDE's binary (or, for
# fuzz, SIDE's harness) on SOURCE, in $work/out/SIDE/SOURCE.
run_source() {
	side=$1 src=$2
	bin=$work/bin/$side
	eval "code_tree=\$${side}_tree"
	in=$new_tree
	[ -z "$self" ] || in=$code_tree
	name=$(echo "$src" | tr / _)
	raw=$work/raw/$side.$name
	out=$work/out/$side/$name
	flags="-json -test=true -headers=$headers"
	if [ -n "$cachemode" ]; then
		bin=$work/bin/new
		[ "$side" != base ] || flags="$flags -cache=off"
	fi
	status=0
	case $src in
	testdata/shapes)
		(cd "$in/testdata/src/shapes" && GOWORK=off "$bin" $flags ./...) >"$raw.json" 2>"$raw.err" || status=$? ;;
	testdata/loading)
		(cd "$in" && GOWORK=off "$bin" $flags ./testdata/src/loading/... ./testdata/src/headers/...) >"$raw.json" 2>"$raw.err" || status=$? ;;
	testdata/*)
		(cd "$in/testdata/src" && GO111MODULE=off GOPATH="$in/testdata" GOFLAGS= GOWORK=off "$bin" $flags "./${src#testdata/}/...") >"$raw.json" 2>"$raw.err" || status=$? ;;
	examples)
		(cd "$in" && GOWORK=off "$bin" $flags ./examples/...) >"$raw.json" 2>"$raw.err" || status=$? ;;
	fuzz)
		(cd "$code_tree" && HIPLINT_FINDINGS_DUMP="$raw.json" HIPLINT_FINDINGS_CORPUS="$in/internal/fuzzcheck/testdata/fuzz/FuzzAnalyzers" \
			GOWORK=off go test -trimpath -count=1 -run '^TestFindingsDump$' ./internal/fuzzcheck) >"$raw.err" 2>&1 || status=$? ;;
	esac
	{
		if [ "$src" = fuzz ]; then
			if [ "$status" = 0 ]; then
				cat "$raw.json"
			else
				cat "$raw.err" # go test failed: what it printed
			fi
		else
			normalize_json "$in" <"$raw.json" 2>"$raw.jq" ||
				echo "X	output is not hiplint's JSON ($(head -n 1 "$raw.jq")): $(head -c 200 "$raw.json" | tr '\n\t' '  ')"
			replace_root "$in" <"$raw.err" | sed 's/^/S	/'
		fi
		echo "X	exit $status"
	} | LC_ALL=C sort >"$out"
}

if [ -n "$cachemode" ]; then
	export HIPLINT_CACHE="$work/cache"
	export HIPLINT_CACHE_LIMIT=1G
fi
for src in $sources; do
	for side in $sides; do
		t0=$(date +%s)
		if [ -n "$cachemode" ]; then
			HIPLINT_CACHE_STATS="$work/stats/$side.$(echo "$src" | tr / _)"
			export HIPLINT_CACHE_STATS
			run_source $side "$src"
			unset HIPLINT_CACHE_STATS
		else
			run_source $side "$src"
		fi
		say "$src ($side): $(($(date +%s) - t0))s"
	done
done

# The figures, then the differences.
differ=
if [ -n "$cachemode" ]; then
	printf '%-24s %9s %9s %9s %7s %7s %15s  %s\n' source off cold warm errors exit "warm hit/anlzd" result
else
	printf '%-24s %9s %9s %7s %7s  %s\n' source base new errors exit result
fi
for src in $sources; do
	name=$(echo "$src" | tr / _)
	b=$work/out/base/$name n=$work/out/new/$name
	fb=$(grep -c '^F' "$b" || true) fn=$(grep -c '^F' "$n" || true)
	eb=$(grep -c '^E' "$b" || true) en=$(grep -c '^E' "$n" || true)
	xb=$(sed -n 's/^X	exit //p' "$b") xn=$(sed -n 's/^X	exit //p' "$n")
	if cmp -s "$b" "$n"; then result=same; else result=DIFFERENT; differ="$differ $src"; fi
	errs=$eb exits=$xb
	[ "$eb" = "$en" ] || errs=$eb/$en
	[ "$xb" = "$xn" ] || exits=$xb/$xn
	if [ -n "$cachemode" ]; then
		w=$work/out/warm/$name
		fw=$(grep -c '^F' "$w" || true)
		if ! cmp -s "$b" "$w"; then
			result=DIFFERENT
			case " $differ " in *" $src "*) ;; *) differ="$differ $src" ;; esac
		fi
		st=$work/stats/warm.$name hits=- analyzed=-
		if [ -s "$st" ]; then
			hits=$(jq -s '[.[].Hits // [] | length] | add' "$st")
			analyzed=$(jq -s '[.[].Analyzed // [] | length] | add' "$st")
			off=$(jq -rs '[.[].Off // empty] | join("; ")' "$st")
			[ -z "$off" ] || analyzed="$analyzed (off: $off)"
		fi
		printf '%-24s %9s %9s %9s %7s %7s %15s  %s\n' "$src" "$fb" "$fn" "$fw" "$errs" "$exits" "$hits/$analyzed" "$result"
	else
		printf '%-24s %9s %9s %7s %7s  %s\n' "$src" "$fb" "$fn" "$errs" "$exits" "$result"
	fi
done
if [ -n "$keep" ]; then
	mkdir -p "$keep"
	cp -R "$work/out/base" "$work/out/new" "$keep/"
	[ -z "$cachemode" ] || cp -R "$work/out/warm" "$keep/"
fi
say "done in $(elapsed)"
[ -n "$differ" ] || exit 0
for src in $differ; do
	name=$(echo "$src" | tr / _)
	echo
	if [ -n "$cachemode" ]; then
		diff -u --label "off/$src" --label "cold/$src" "$work/out/base/$name" "$work/out/new/$name" || true
		diff -u --label "off/$src" --label "warm/$src" "$work/out/base/$name" "$work/out/warm/$name" || true
	else
		diff -u --label "base/$src" --label "new/$src" "$work/out/base/$name" "$work/out/new/$name" || true
	fi
done
exit 1
