package fuzzcheck

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/hiplint/hiplint/analyzers"
	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
	"golang.org/x/tools/go/analysis"
)

// perAnalyzerHuge bounds one analyzer on one huge function. Typical times
// are in docs/reliability.md; the bound is loose because test machines are
// shared, and exists to catch time that grows with the square of the size.
const perAnalyzerHuge = 30 * time.Second

// TestHugeFunctions runs each analyzer on a function nested 200 deep and on
// one of 2,000 runtime calls in branches (20,000 with HIPLINT_LONG=1, where
// memcpysync and modulebalance still take minutes: docs/reliability.md).
func TestHugeFunctions(t *testing.T) {
	if testing.Short() {
		t.Skip("huge functions take seconds")
	}
	calls := 2000
	if os.Getenv("HIPLINT_LONG") != "" {
		calls = 20000
	}
	for _, tc := range []struct {
		name string
		prog Program
	}{{"deep200", DeepProgram(200)}, {fmt.Sprintf("calls%d", calls), HugeProgram(calls)}} {
		t.Run(tc.name, func(t *testing.T) {
			for _, a := range analyzers.Suite() {
				start := time.Now()
				res, err := Analyze(tc.prog, []*analysis.Analyzer{a})
				require.NoError(t, err)
				d := time.Since(start)
				t.Logf("%s: %v, %d lines", a.Name, d.Round(time.Millisecond), len(res.Lines))
				assert.Less(t, d, perAnalyzerHuge, a.Name)
			}
		})
	}
}
