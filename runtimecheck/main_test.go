package runtimecheck

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

// TestConfirmEndToEnd runs Main on the GPU example's modules package with a
// fake go command that replays recorded traces: the whole pipeline (analyze,
// plan, instrument, run, judge, print) on a machine without a GPU. It also
// checks that the user's tree is untouched and the temporary files are gone.
func TestConfirmEndToEnd(t *testing.T) {
	mod := gpuModule(t)
	before := treeHash(t, mod)
	fake, err := filepath.Abs("testdata/fakego/go")
	require.NoError(t, err)
	tmp := t.TempDir()
	for _, kv := range fixtureEnv(t) {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	t.Setenv("HIPLINT_GO", fake)
	t.Setenv("TMPDIR", tmp)
	t.Chdir(mod)

	var stdout, stderr bytes.Buffer
	code := Main([]string{"-json", "-timeout", "20s", "./modules"}, &stdout, &stderr)
	require.Equal(t, exitConfirmed, code, stderr.String())
	var results []Result
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &results), stdout.String())
	got := map[string]Verdict{}
	for _, r := range results {
		got[r.Finding.Posn+" "+r.Finding.ID] = r.Verdict
		t.Logf("%s %s: %s %v", r.Finding.Posn, r.Finding.ID, r.Verdict, r.Evidence)
	}
	assert.Equal(t, map[string]Verdict{
		"modules/modules.go:36:40 HL2001": Confirmed,
		"modules/modules.go:73:3 HL2002":  Confirmed,
		"modules/modules.go:84:36 HL2001": NotExercised,
	}, got)

	entries, err := os.ReadDir(tmp)
	require.NoError(t, err)
	var left []string
	for _, e := range entries {
		left = append(left, e.Name())
	}
	// Confirm's own files and what the go command leaves in TMPDIR (the
	// fake go writes cgo's leftover there, as a failed cgo step does).
	assert.Empty(t, left, "temporary files must be removed")
	assert.Equal(t, before, treeHash(t, mod), "the user's tree must be byte-identical")

	// -silent also judges the loads modulebalance found balanced: refuted.
	stdout.Reset()
	code = Main([]string{"-json", "-silent", "-timeout", "20s", "./modules"}, &stdout, &stderr)
	require.Equal(t, exitConfirmed, code, stderr.String())
	results = nil
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &results), stdout.String())
	silent := map[string]Verdict{}
	for _, r := range results {
		if r.Finding.Silent {
			silent[r.Finding.Posn+" "+r.Finding.ID] = r.Verdict
			t.Logf("silent %s %s: %s %v", r.Finding.Posn, r.Finding.ID, r.Verdict, r.Evidence)
		}
	}
	assert.Equal(t, map[string]Verdict{
		"modules/modules.go:49:40 HL2001": Refuted, // LoadEach
		"modules/modules.go:66:39 HL2001": Refuted, // LoadTwice's load: unloaded (twice)
		// LoadTwice's lookup, a use of the module (HL2003) made while it
		// is loaded: module lookups are silent sites like launches.
		"modules/modules.go:70:39 HL2003": Refuted,
	}, silent)
	assert.Len(t, results, 6)

	// Text output and -run filtering: nothing matches, so nothing runs.
	stdout.Reset()
	code = Main([]string{"-run", "NoSuchTest", "./modules"}, &stdout, &stderr)
	assert.Equal(t, exitUndecided, code, "not exercised is no verdict")
	assert.Contains(t, stdout.String(), "NOT EXERCISED")
	assert.Contains(t, stdout.String(), "(among those -run matches)")
}
