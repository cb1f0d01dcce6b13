package runtimecheck

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fixtureEnv points cgo at hiplint's declarations-only headers, so the
// testdata GPU module type-checks and compiles (without linking) anywhere.
func fixtureEnv(t *testing.T) []string {
	return withEnv(os.Environ(), "CGO_CFLAGS=-I"+fixtureInclude(t), "GOFLAGS=-mod=mod", "HIPLINT_PLATFORM=none")
}

func gpuModule(t *testing.T) string {
	dir, err := filepath.Abs("testdata/gpu")
	require.NoError(t, err)
	return dir
}

func TestPlanFindsTheTestsThatReachAFinding(t *testing.T) {
	dir := gpuModule(t)
	l, err := findingsOf(t.Context(), dir, fixtureEnv(t), []string{"./modules"}, false)
	require.NoError(t, err)
	pkgs, findings, errs := l.pkgs, l.findings, l.errs
	require.Empty(t, errs)
	pl := newPlanner(pkgs)
	got := map[int][]string{}
	for _, f := range findings {
		fn := pl.enclosing(f.File, f.Line)
		require.NotNil(t, fn, f.Posn)
		var names []string
		for _, p := range pl.plan(fn) {
			names = append(names, p.Name)
		}
		got[f.Line] = names
		t.Logf("%s %s in %s: %v", f.Posn, f.ID, fn, names)
	}
	assert.Equal(t, []string{"TestLoadAll"}, got[36], "the leak in LoadAll")
	assert.Equal(t, []string{"TestLoadTwice"}, got[73], "the double unload in LoadTwice")
	assert.Empty(t, got[84], "Unreached has no test")
}
