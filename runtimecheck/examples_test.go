package runtimecheck

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

// TestIssue20Examples: the GPU examples of issue 20 (each hazard with its
// fixed twin), as the analyzers see them and as confirm plans them.
func TestIssue20Examples(t *testing.T) {
	dir := gpuModule(t)
	l := gpuFindings(t, true, "pipe", "gfree", "modset", "cargs")
	pkgs, findings, errs := l.pkgs, l.findings, l.errs
	require.Empty(t, errs)
	pl := newPlanner(pkgs)
	var got []string
	for _, f := range findings {
		rel, _ := filepath.Rel(dir, f.File)
		var plans []string
		for _, p := range pl.plan(pl.enclosing(f.File, f.Line)) {
			plans = append(plans, p.Name)
		}
		got = append(got, fmt.Sprintf("%s:%d %s silent=%v %v", rel, f.Line, f.ID, f.Silent, plans))
	}
	// modset's leak (modules appended to a pool's slice by a method, the
	// pool dropped on an error return) and cargs' system memory in a kernel
	// argument block built by a helper were "missed" on the H200 until
	// modulebalance and xnack learnt those shapes; now they are findings,
	// and the twins are candidates. Each site is planned only with its own
	// package's tests: TestPipe once reached gfree through the call graph.
	assert.Equal(t, []string{
		"cargs/cargs_test.go:14 HL4004 silent=false [TestFillHost]",                // FillHost: C.malloc memory through argBlock
		"gfree/gfree.go:54 HL3001 silent=true [TestFreeAllocated TestFreeManaged]", // the runtime call inside freeNode
		"gfree/gfree.go:65 HL3001 silent=false [TestFreeManaged]",                  // gr.freeNode(p), p managed
		"gfree/gfree.go:76 HL3001 silent=true [TestFreeAllocated]",                 // gr.freeNode(dptr, node)
		"gfree/gfree_test.go:6 HL4004 silent=false [TestFreeManaged]",
		"modset/modset.go:46 HL2001 silent=false [TestLoadPool]",    // p.add(image), p dropped on the error return
		"modset/modset.go:81 HL2001 silent=true [TestLoadRegistry]", // r closed by its defer
		"pipe/pipe.go:53 HL1002 silent=false [TestPipe]",            // no wait
		"pipe/pipe.go:69 HL1002 silent=true [TestPipe]",             // event wait
	}, got)
}
