package fuzzcheck

import (
	"flag"
	"os"
	"testing"
	"time"

	"github.com/hiplint/hiplint/analyzers"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

// perInput bounds the time every analyzer together may take on one
// generated program (two packages of at most maxStmts statements each). Typical
// inputs take a few milliseconds; the bound is generous because fuzzing
// runs several workers on shared cores.
const perInput = 2 * time.Second

// FuzzAnalyzers generates a cgo-shaped program from the input, runs every
// analyzer of the suite on it twice, and checks that they neither panic nor
// misbehave (see Analyze), finish in bounded time, and report the same
// diagnostics and facts in the same order both times.
//
// go test runs the seed corpus (testdata/fuzz/FuzzAnalyzers and the seeds
// below); go test -fuzz=FuzzAnalyzers explores.
func FuzzAnalyzers(f *testing.F) {
	for _, seed := range seeds {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkProgram(t, Generate(data))
	})
}

func checkProgram(t *testing.T, prog Program) {
	t.Helper()
	suite := analyzers.Suite()
	start := time.Now()
	first, err := Analyze(prog, suite)
	if err != nil {
		t.Fatalf("%v\n\nprogram:\n%s", err, prog.Source())
	}
	firstTook := time.Since(start)
	start = time.Now()
	second, err := Analyze(prog, suite)
	require.NoError(t, err)
	secondTook := time.Since(start)
	// Both runs over the bound: a slow input, not a busy machine (a fuzz run
	// on two loaded cores once took 6.9 s for an input that takes 0.1 s).
	if d := min(firstTook, secondTook); d > perInput {
		t.Fatalf("the analyzers took %v and %v (slowest: %s, %v), more than %v twice\n\nprogram:\n%s",
			firstTook, secondTook, first.SlowestWhat, first.Slowest, perInput, prog.Source())
	}
	if !equalLines(first.Lines, second.Lines) {
		t.Fatalf("the analyzers are not deterministic\nfirst run:\n%s\nsecond run:\n%s\n\nprogram:\n%s",
			join(first.Lines), join(second.Lines), prog.Source())
	}
}

func equalLines(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func join(lines []string) string {
	s := ""
	for _, l := range lines {
		s += l + "\n"
	}
	return s
}

var dump = flag.String("dump", "", "print the program generated from this corpus file, and what the analyzers report on it")

// TestDump prints the program a corpus file generates (go test -run TestDump
// -dump testdata/fuzz/FuzzAnalyzers/NAME), for reading a fuzzer's finding.
func TestDump(t *testing.T) {
	if *dump == "" {
		t.Skip("no -dump file")
	}
	data, err := os.ReadFile(*dump)
	require.NoError(t, err)
	input, err := parseCorpusFile(data)
	require.NoError(t, err)
	prog := Generate(input)
	t.Log(prog.Source())
	res, err := Analyze(prog, analyzers.Suite())
	require.NoError(t, err)
	t.Logf("slowest: %s %v\n%s", res.SlowestWhat, res.Slowest, join(res.Lines))
}
