package memcpysync_test

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/hiplint/hiplint/analyzers/memcpysync"
	"github.com/hiplint/hiplint/internal/fuzzcheck"
	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
	"golang.org/x/tools/go/analysis"
)

// Regression: comparing states through sorted fmt strings, and tracking
// every in-flight copy of a function, made time grow with the square of a
// function's size: 200 nested ifs took minutes under hiplint. The bound is
// loose (shared test machines); these take about a second. 20,000 calls in
// branches (HIPLINT_LONG=1) still take about a minute: docs/reliability.md.
func TestHugeFunctionsStayFast(t *testing.T) {
	if testing.Short() {
		t.Skip("huge functions take seconds")
	}
	calls := 2000
	if os.Getenv("HIPLINT_LONG") != "" {
		calls = 20000
	}
	for name, prog := range map[string]fuzzcheck.Program{
		"deep200": fuzzcheck.DeepProgram(200),
		"calls":   fuzzcheck.HugeProgram(calls),
	} {
		start := time.Now()
		_, err := fuzzcheck.Analyze(prog, []*analysis.Analyzer{memcpysync.Analyzer})
		require.NoError(t, err, name)
		d := time.Since(start)
		t.Logf("%s: %v", name, d)
		assert.Less(t, d, 30*time.Second, name)
	}
}

// With more copies in flight than the analyzer tracks, the first ones
// still produce their findings.
func TestManyCopiesStillReported(t *testing.T) {
	body := "\t_Cfunc_hipStreamCreateWithFlags(&s, _Ciconst_hipStreamNonBlocking)\n"
	for range 100 {
		body += "\t_Cfunc_hipMemcpy(q, p, 64, _Ciconst_hipMemcpyDeviceToDevice)\n"
	}
	body += "\t_Cfunc_hipMemcpyAsync(p, q, 64, _Ciconst_hipMemcpyDeviceToHost, s)\n"
	res, err := fuzzcheck.Analyze(fuzzcheck.ShapedProgram(body), []*analysis.Analyzer{memcpysync.Analyzer})
	require.NoError(t, err)
	var found bool
	for _, l := range res.Lines {
		if strings.Contains(l, "(HL1001)") {
			found = true
		}
	}
	assert.True(t, found, "no HL1001 in %q", res.Lines)
}
