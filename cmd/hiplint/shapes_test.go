package main

import (
	"path/filepath"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv"
	"github.com/hiplint/hiplint/internal/testenv/assert"
)

// TestTypeShapesLintWithoutACrash: issue 16's embedded-interface package and
// the type shapes (testdata/src/shapes) through the built binary, with every
// analyzer and with each alone, and under go vet. Before the fix of
// flow.Impls.Of the binary died with "fatal error: stack overflow", exit 2.
func TestTypeShapesLintWithoutACrash(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(repoRoot, "testdata", "src", "shapes")
	// Every analyzer at once and go vet by default (testenv.Sample); each
	// analyzer alone (a flag that names it) under HIPLINT_LONGTESTS=1.
	name := func(only string) string {
		if only == "" {
			return "every analyzer"
		}
		return only
	}
	for _, only := range testenv.Sample(t, []string{"", "-graphfree", "-memcpysync", "-modulebalance", "-xnack"}, name, "every analyzer") {
		args := []string{"./..."}
		if only != "" {
			args = append([]string{only}, args...)
		}
		res := hiplint(t, dir, args...)
		assert.Equal(t, exitClean, res.code, "hiplint %v", args)
		assert.Empty(t, res.stdout)
		assert.NotContains(t, res.stderr, "stack overflow")
		assert.NotContains(t, res.stderr, "panic")
	}
	vet := run(t, dir, "go", "vet", "-vettool="+hiplintBin, "./...")
	assert.Equal(t, 0, vet.code, "go vet -vettool")
	assert.NotContains(t, vet.stderr, "stack overflow")
	assert.NotContains(t, vet.stderr, "panic")
}
