package fuzzcheck

import (
	"testing"
	"time"

	"github.com/hiplint/hiplint/analyzers"
	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
	"golang.org/x/tools/go/analysis"
)

// shapeSeeds pick every type shape, alone and together, with goto
// functions of both kinds.
var shapeSeeds = [][]byte{
	{0}, {1}, {2}, {3}, {4}, {5},
	{0, 1, 2, 3, 4, 5},
	{0x80, 63, 2},
	{1, 17, 0x83, 4},
	{5, 40},
}

// FuzzTypeShapes runs the suite on the type and control-flow shapes of
// issue 29 (CycleProgram): instantiation cycles, mutually recursive
// generic types and goto-heavy functions, with checkProgram's checks
// (bounded time, determinism, well-formed output).
func FuzzTypeShapes(f *testing.F) {
	for _, s := range shapeSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 16 {
			data = data[:16]
		}
		checkProgram(t, CycleProgram(data))
	})
}

// The goto-heavy dispatcher of issue 29 (300 labels): memcpysync took 11.5 s at 400
// labels (time and memory grew with the square of the size; 2,000 labels
// ran out of memory). Each analyzer must now take a fraction of a second
// (the bound is loose for shared machines; bench/ has the figures), and
// memcpysync still reports its hazards.
func TestGotoFunctions(t *testing.T) {
	if testing.Short() {
		t.Skip("a function of 400 labels")
	}
	for _, unused := range []bool{false, true} {
		prog := GotoProgram(300, unused)
		for _, a := range analyzers.Suite() {
			start := time.Now()
			res, err := Analyze(prog, []*analysis.Analyzer{a})
			require.NoError(t, err)
			d := time.Since(start)
			t.Logf("unused=%v %s: %v, %d lines", unused, a.Name, d.Round(time.Millisecond), len(res.Lines))
			assert.Less(t, d, 8*time.Second, a.Name)
			if a.Name == "memcpysync" {
				assert.Greater(t, len(res.Lines), 100, "its hazards are reported")
			}
		}
	}
}
