package runtimecheck

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/hiplint/hiplint/internal/hipapi"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

// fixtureInclude is hiplint's own declarations-only header directory.
func fixtureInclude(t *testing.T) string {
	dir, err := filepath.Abs("../testdata/include")
	require.NoError(t, err)
	return dir
}

// TestWrappersCompileForEveryAPI generates wrappers for every row of the API
// table and compiles them (without linking) against the fixture headers.
func TestWrappersCompileForEveryAPI(t *testing.T) {
	cc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("no C compiler")
	}
	var apis []string
	for _, f := range hipapi.All() {
		if wrappable(f.Name) {
			apis = append(apis, f.Name)
		}
	}
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, TraceHeader), []byte(generateHeader(apis)), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, TraceSource), []byte(generateSource(apis)), 0o644))
	out, err := exec.Command(cc, "-std=gnu11", "-Wall", "-Werror", "-Wno-unused-function", "-c", "-I", dir, "-I", fixtureInclude(t),
		"-o", filepath.Join(dir, "t.o"), filepath.Join(dir, TraceSource)).CombinedOutput()
	require.NoError(t, err, "%s", out)
}
