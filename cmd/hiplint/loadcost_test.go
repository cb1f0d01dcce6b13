package main

import (
	"os"
	"strings"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

// TestOneGoListForTheLoad: where every package that may produce facts is
// among the packages named (here ./examples/..., whose dependencies are
// the standard library), a run lists the packages once, with export data,
// as the fact-free floor does (docs/performance.md, "2026-12-07 (later):
// one go list"): no go list of the graph alone before it.
func TestOneGoListForTheLoad(t *testing.T) {
	t.Parallel()
	res := runCmdIn(t, repoRoot, append(os.Environ(), "GOPACKAGESDEBUG=true"), hiplintBin, "-cache=off", "./examples/...")
	assert.Equal(t, exitFindings, res.code)
	var lists []string
	for _, line := range strings.Split(res.stderr, "\n") {
		// go/packages' debug log: "... starting ENV go list ARGS".
		if strings.Contains(line, " starting ") && strings.Contains(line, " go list ") && strings.Contains(line, " -json=") {
			lists = append(lists, line)
		}
	}
	if assert.Len(t, lists, 1, "go list runs of packages") {
		assert.Contains(t, lists[0], " -export=true ")
	}
}
