package runtimecheck

import (
	"crypto/sha256"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
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

// TestMarkersCompile: a finding on the call of a wrapper (gfree's
// gr.freeNode(p), a return statement) and a silent site on another
// (gr.freeNode(dptr, node)) get enter and exit records around the Go call,
// a host read still gets a probe, and the rewritten package builds.
func TestMarkersCompile(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("no C compiler")
	}
	mod := gpuModule(t)
	dir := filepath.Join(mod, "gfree")
	file := filepath.Join(dir, "gfree.go")
	files, err := filepath.Glob(filepath.Join(dir, "gfree.go"))
	require.NoError(t, err)
	work := t.TempDir()
	inst, err := instrument(dir, files, work, 1, []probeAt{
		{file, 65, 9, false}, // return gr.freeNode(p)
		{file, 54, 9, false}, // a runtime call on the line: nothing to add
		{file, 32, 2, false}, // return nil: no call on the line
	})
	require.NoError(t, err)
	var markers []Site
	for _, s := range inst.Sites {
		if s.Marker {
			markers = append(markers, s)
		}
	}
	require.Len(t, markers, 1, "one marker: line 54 has its runtime call, line 32 no call")
	assert.Equal(t, 65, markers[0].Line)
	out, err := os.ReadFile(filepath.Join(work, "0_gfree.go"))
	require.NoError(t, err)
	id := markers[0].ID
	assert.Contains(t, string(out), "C.hiplint_mark(C.int("+itoa(id)+"), 0); defer C.hiplint_mark(C.int("+itoa(id)+"), 1); return gr.freeNode(p)")

	// A simple statement gets its exit right after it; an if statement's
	// header call gets it at the start of each branch and after it.
	setDir := filepath.Join(mod, "modset")
	setFile := filepath.Join(setDir, "modset.go")
	setWork := t.TempDir()
	inst2, err := instrument(setDir, []string{setFile}, setWork, 100, []probeAt{{setFile, 46, 13, false}})
	require.NoError(t, err)
	out, err = os.ReadFile(filepath.Join(setWork, "0_modset.go"))
	require.NoError(t, err)
	mark := -1
	for id, s := range inst2.Sites {
		if s.Marker {
			mark = id
		}
	}
	m := "C.hiplint_mark(C.int(" + itoa(mark) + "), "
	assert.Contains(t, string(out), m+"0); if err := p.add(image); err != nil { "+m+"1);")
	assert.Contains(t, string(out), "\t\t}; "+m+"1)\n")
	for _, b := range []struct {
		inst *Instrumented
		pkg  string
	}{{inst, "./gfree"}, {inst2, "./modset"}} {
		cmd := exec.Command("go", "build", "-overlay="+b.inst.Overlay, b.pkg)
		cmd.Dir = mod
		cmd.Env = fixtureEnv(t)
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// TestGoCallPassing: a copy-sync finding on a pointer handed to a Go
// function (readLast(dst), inside a goroutine) is that call's to mark; a
// dereference in the arguments, a conversion or a C call is not.
func TestGoCallPassing(t *testing.T) {
	src := `package p

func f(dst, q *byte, s struct{ p *byte }) {
	go func() { out = readLast(dst) }()
	use(*q)
	use((*byte)(q), s.p)
	C.read(dst)
}
`
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "p.go", src, 0)
	require.NoError(t, err)
	name := func(line, col int) string {
		call := goCallPassing(fset, file, line, col)
		if call == nil {
			return ""
		}
		return types.ExprString(call.Fun)
	}
	assert.Equal(t, "readLast", name(4, 29))
	assert.Equal(t, "", name(5, 6), "*q is read on the host, before the call")
	assert.Equal(t, "", name(6, 14), "q inside a conversion")
	assert.Equal(t, "use", name(6, 18), "a field handed on")
	assert.Equal(t, "", name(7, 9), "a C call is traced itself")
}
