package runtimecheck

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

// TestSilentSites: with -silent, the candidate suite adds the sites each
// analyzer checked and found safe (the fixed twins of the GPU examples), and
// nothing the real suite already reports.
func TestSilentSites(t *testing.T) {
	dir := gpuModule(t)
	l := gpuFindings(t, true, "modules", "copysync", "graphfree", "xnack")
	findings, errs := l.findings, l.errs
	require.Empty(t, errs)
	var loud, silent []string
	for _, f := range findings {
		rel, _ := filepath.Rel(dir, f.File)
		s := fmt.Sprintf("%s:%d %s", rel, f.Line, f.ID)
		if f.Silent {
			silent = append(silent, s)
			assert.Contains(t, f.Message, "no finding: hiplint checked this site for "+f.ID)
		} else {
			loud = append(loud, s)
		}
	}
	t.Logf("findings: %v", loud)
	assert.Equal(t, []string{
		"copysync/copysync.go:62 HL1001",   // SyncedStream's read, after hipDeviceSynchronize
		"copysync/copysync.go:81 HL1001",   // SyncedHost's host read
		"graphfree/graphfree.go:46 HL3001", // GraphFree frees params.dptr
		"modules/modules.go:49 HL2001",     // LoadEach unloads in the loop
		"modules/modules.go:66 HL2001",     // LoadTwice unloads (HL2002 is its finding)
		"xnack/xnack.go:86 HL2001",         // FillSystem's kernel() load, unloaded by defer
		"xnack/xnack.go:113 HL2001",        // FillManaged's
		"xnack/xnack_test.go:17 HL4004",    // TestSystemSkip skips unless pageable
	}, silent)
	assert.Contains(t, loud, "copysync/copysync.go:47 HL1001")
	assert.Contains(t, loud, "xnack/xnack_test.go:7 HL4004")
}
