package runtimecheck

import (
	"crypto/sha256"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// treeHash hashes every file under dir, so tests can assert that the user's
// tree is byte-identical after instrumenting or confirming.
func treeHash(t *testing.T, dir string) map[string][32]byte {
	out := map[string][32]byte{}
	require.NoError(t, filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		out[p] = sha256.Sum256(data)
		return err
	}))
	return out
}

// TestOverlayCompiles instruments the GPU example packages (with a probe at
// a host read) and builds them with go build -overlay against the fixture
// headers: the rewritten Go, the cgo preamble and the generated C wrappers
// all compile, and the user's files are untouched.
func TestOverlayCompiles(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("no C compiler")
	}
	mod := gpuModule(t)
	before := treeHash(t, mod)
	work := t.TempDir()
	next := 1
	var overlays []*Instrumented
	for _, pkg := range []string{"modules", "copysync", "graphfree"} {
		dir := filepath.Join(mod, pkg)
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		require.NoError(t, err)
		var probes []probeAt
		if pkg == "copysync" {
			probes = []probeAt{{filepath.Join(dir, "copysync.go"), 72, 9, true}}
		}
		pdir := filepath.Join(work, pkg)
		require.NoError(t, os.MkdirAll(pdir, 0o755))
		inst, err := instrument(dir, files, pdir, next, probes)
		require.NoError(t, err)
		require.NotEmpty(t, inst.Overlay)
		next += len(inst.Sites) + 1
		overlays = append(overlays, inst)

		cmd := exec.Command("go", "build", "-overlay="+inst.Overlay, "./"+pkg)
		cmd.Dir = mod
		cmd.Env = fixtureEnv(t)
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
	}
	mods := overlays[0]
	assert.Equal(t, Site{ID: 1, File: filepath.Join(mod, "modules/modules.go"), Line: 36, Col: 40, API: "hipModuleLoadData"}, mods.Sites[1])
	rewritten, err := os.ReadFile(filepath.Join(work, "modules", "0_modules.go"))
	require.NoError(t, err)
	assert.Contains(t, string(rewritten), "C.hiplint_hipModuleLoadData(C.int(1), &m, img)")
	assert.Contains(t, string(rewritten), `#include "hiplint_trace.h"`)
	assert.Contains(t, string(rewritten), "//line "+filepath.Join(mod, "modules/modules.go")+":12\n")
	// Every line below the preamble keeps its number.
	orig, _ := os.ReadFile(filepath.Join(mod, "modules/modules.go"))
	origLines, newLines := strings.Split(string(orig), "\n"), strings.Split(string(rewritten), "\n")
	assert.Equal(t, len(origLines)+2, len(newLines))

	var probe bool
	for _, s := range overlays[1].Sites {
		probe = probe || s.Probe && s.Line == 72
	}
	assert.True(t, probe, "a probe at the host read")
	assert.Equal(t, before, treeHash(t, mod), "the user's tree must be byte-identical")
}
