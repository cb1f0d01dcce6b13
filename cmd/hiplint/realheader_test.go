package main

import (
	"os"
	"sort"
	"strconv"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

const realHIPHeader = "/usr/include/hip/hip_runtime_api.h"

// TestRealHeaderStandaloneAndVetAgree lints a package that includes Debian's
// real HIP header (libamdhip64-dev) both ways: hiplint's findings are the
// marked hazards, and go vet -vettool reports the same.
func TestRealHeaderStandaloneAndVetAgree(t *testing.T) {
	if _, err := os.Stat(realHIPHeader); err != nil {
		t.Skipf("%s not installed (apt-get install libamdhip64-dev): skipping the real-header comparison", realHIPHeader)
	}
	t.Parallel()
	const pkg = "./cmd/hiplint/testdata/realhip"
	res := hiplint(t, repoRoot, pkg)
	require.Equal(t, exitFindings, res.code, "exit status; stderr: %s", res.stderr)
	standalone := parseText(t, res.stdout)

	want := markedHazards(t, "cmd/hiplint/testdata/realhip/realhip.go")
	require.NotEmpty(t, want)
	assert.Equal(t, sortedMarks(want), marksOf(standalone))

	vet := run(t, repoRoot, "go", "vet", "-vettool="+hiplintBin, pkg)
	assert.NotEqual(t, 0, vet.code, "go vet exit status with findings")
	key := func(found []reported) []string {
		var keys []string
		for _, f := range found {
			keys = append(keys, f.file+":"+strconv.Itoa(f.line)+": "+f.message)
		}
		sort.Strings(keys)
		return keys
	}
	assert.Equal(t, key(standalone), key(parseVet(t, vet.stderr)))
}

// TestRealHeaderGraphMemNodes lints graph code compiled against Debian's real
// HIP header (HIP 5.2.3, which predates the graph memory-node API) plus
// hiplint's declarations of that API: the graph-free hazards are found, the
// alloc-node pattern is not, and go vet agrees.
func TestRealHeaderGraphMemNodes(t *testing.T) {
	if _, err := os.Stat(realHIPHeader); err != nil {
		t.Skipf("%s not installed (apt-get install libamdhip64-dev): skipping", realHIPHeader)
	}
	t.Parallel()
	const pkg = "./cmd/hiplint/testdata/realgraph"
	res := hiplint(t, repoRoot, pkg)
	require.Equal(t, exitFindings, res.code, "stderr: %s", res.stderr)
	standalone := parseText(t, res.stdout)
	assert.Equal(t, sortedMarks(markedHazards(t, "cmd/hiplint/testdata/realgraph/realgraph.go")), marksOf(standalone))
	vet := run(t, repoRoot, "go", "vet", "-vettool="+hiplintBin, pkg)
	assert.Len(t, parseVet(t, vet.stderr), len(standalone))
}
