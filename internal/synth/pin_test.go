package synth

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
	"golang.org/x/tools/go/packages"
)

// pinPackage writes a package whose a.go includes HIP's runtime header and
// uses the graph memory-node API (newer than HIP 5.2's header) beside a
// cuBLAS name, and whose b.go includes only the standard library; it
// returns the package as go/packages gives it when cgo failed, and a
// function that sets its cgo output.
func pinPackage(t *testing.T) (*packages.Package, func(string)) {
	files := map[string]string{
		"a.go": "package p\n\n// #cgo CFLAGS: -D__HIP_PLATFORM_AMD__\n// #include <hip/hip_runtime_api.h>\n// #include <cublas_v2.h>\nimport \"C\"\n\n" +
			"func Free(g C.hipGraph_t) {\n\tvar params C.hipMemAllocNodeParams\n\tparams.poolProps.location._type = 1\n" +
			"\tvar free C.hipGraphNode_t\n\tC.hipGraphAddMemFreeNode(&free, g, nil, 0, params.dptr)\n\tC.cublasNew()\n}\n",
		"b.go": "package p\n\n// #include <stdlib.h>\nimport \"C\"\n\nfunc F() { C.free(nil) }\n",
	}
	return failedPackage(t, files)
}

// failedPackage writes files (a.go and b.go) into a package directory and
// returns the package as go/packages gives it when its cgo step failed
// ("C" cannot be imported), and a function that sets its cgo output.
func failedPackage(t *testing.T, files map[string]string) (*packages.Package, func(string)) {
	dir := filepath.Join(t.TempDir(), "p")
	require.NoError(t, os.Mkdir(dir, 0o755))
	fset := token.NewFileSet()
	var syntax []*ast.File
	var goFiles []string
	for _, name := range []string{"a.go", "b.go"} {
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, []byte(files[name]), 0o644))
		f, err := parser.ParseFile(fset, path, files[name], parser.ParseComments)
		require.NoError(t, err)
		syntax = append(syntax, f)
		goFiles = append(goFiles, path)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{},
		Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	conf := types.Config{Importer: cImporter{}, Error: func(error) {}}
	tpkg, _ := conf.Check("example.com/p", fset, syntax, info)
	p := &packages.Package{ID: "example.com/p", PkgPath: "example.com/p", Name: "p", GoFiles: goFiles,
		Fset: fset, Syntax: syntax, Types: tpkg, TypesInfo: info}
	return p, func(out string) {
		p.Errors = []packages.Error{{Msg: "# example.com/p\n" + out, Kind: packages.ListError}}
	}
}

// tempSynth returns a Synth that writes what it generates under a
// temporary directory and finds no header on the machine.
func tempSynth(t *testing.T) *Synth {
	gen := t.TempDir()
	n := 0
	return New(nil, func(string) bool { return false }, func(name string, data []byte) (string, error) {
		n++
		path := filepath.Join(gen, fmt.Sprint(n), name)
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		return path, os.WriteFile(path, data, 0o644)
	})
}

func pinSynth(t *testing.T, machine func(string) bool, declares map[string]bool) (*Synth, string) {
	gen := t.TempDir()
	n := 0
	s := New(nil, func(name string) bool { return name == "hip/hip_runtime_api.h" || name == "cuda.h" },
		func(name string, data []byte) (string, error) {
			n++
			path := filepath.Join(gen, fmt.Sprint(n), name)
			require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
			return path, os.WriteFile(path, data, 0o644)
		})
	pinned := filepath.Join(t.TempDir(), "pinned")
	s.SetHeaders(Headers{Machine: machine, Declares: func(n string) bool { return declares[n] },
		Pinned: func() (string, error) { return pinned, nil }})
	return s, pinned
}

const newAPIFailure = "p/a.go:12:2: could not determine what C.hipGraphAddMemFreeNode refers to\n" +
	"p/a.go:9:13: could not determine what C.hipMemAllocNodeParams refers to\n" +
	"p/a.go:13:2: could not determine what C.cublasNew refers to\n"

var hiplintHas = map[string]bool{"hipGraphAddMemFreeNode": true, "hipMemAllocNodeParams": true}

// TestStepServesHiplintDeclarations: a package whose cgo step fails with the
// machine's HIP header only on runtime names hiplint's declarations have is
// served hiplint's: its include of the runtime header is rewritten in place
// to hiplint's copy, those names are not synthesized (a nested field such as
// params.poolProps.location cannot be), the library's name is, and the note
// says which header served and why.
func TestStepServesHiplintDeclarations(t *testing.T) {
	p, fail := pinPackage(t)
	s, pinned := pinSynth(t, func(h string) bool { return h == "hip/hip_runtime_api.h" }, hiplintHas)
	fail(newAPIFailure)
	require.True(t, s.Step([]*packages.Package{p}, false))
	ov, err := s.Overlay()
	require.NoError(t, err)
	a := string(ov[p.GoFiles[0]])
	orig, _ := os.ReadFile(p.GoFiles[0])
	assert.Equal(t, strings.Count(string(orig), "\n"), strings.Count(a, "\n"), "no line added or removed")
	assert.Contains(t, a, `#include "`+filepath.Join(pinned, "hip", "hip_runtime_api.h")+`"`)
	assert.NotContains(t, a, "<hip/hip_runtime_api.h>")
	assert.NotContains(t, ov, p.GoFiles[1], "b.go includes no runtime header")
	decls := s.files[p.GoFiles[0]].decls
	assert.Contains(t, decls, "cublasNew")
	assert.NotContains(t, decls, "hipMemAllocNodeParams", "served by hiplint's declarations, not synthesized")
	assert.NotContains(t, decls, "hipGraphAddMemFreeNode")

	p.Errors = nil // cgo succeeds
	rs := s.Rescued([]*packages.Package{p})
	require.Len(t, rs, 1)
	assert.Equal(t, []string{"hip/hip_runtime_api.h"}, rs[0].Pinned)
	assert.Equal(t, []string{"hipGraphAddMemFreeNode", "hipMemAllocNodeParams"}, rs[0].Lacking)
	assert.Contains(t, rs[0].Note(), "the machine's runtime header lacks 2 C names the package uses that hiplint's declarations have (hipGraphAddMemFreeNode, hipMemAllocNodeParams): served <hip/hip_runtime_api.h> by hiplint's declarations instead of the machine's")
	assert.Contains(t, rs[0].Note(), "declared 1 C names from their use in Go (cublasNew)")
}

// TestStepServesOnlyWhereItHelps: hiplint's declarations are not served
// where the header that failed was hiplint's own already (the machine has
// none), nor for names hiplint's lack too: the names take synthesis's path.
func TestStepServesOnlyWhereItHelps(t *testing.T) {
	for name, s := range map[string]func(t *testing.T) (*Synth, string){
		"hiplint's header served already": func(t *testing.T) (*Synth, string) {
			return pinSynth(t, func(string) bool { return false }, hiplintHas)
		},
		"hiplint's lacks them too": func(t *testing.T) (*Synth, string) {
			return pinSynth(t, func(string) bool { return true }, nil)
		},
	} {
		t.Run(name, func(t *testing.T) {
			p, fail := pinPackage(t)
			s, pinned := s(t)
			fail(newAPIFailure)
			require.True(t, s.Step([]*packages.Package{p}, false))
			ov, err := s.Overlay()
			require.NoError(t, err)
			assert.NotContains(t, string(ov[p.GoFiles[0]]), pinned)
			assert.Empty(t, s.pinned)
		})
	}
}

// TestStepUnservesWhatLosesNames: a package served hiplint's declarations
// that then fails on a runtime name the machine's header had declared
// (hiplint's lacks it) gets the machine's header back, for good.
func TestStepUnservesWhatLosesNames(t *testing.T) {
	p, fail := pinPackage(t)
	s, pinned := pinSynth(t, func(string) bool { return true }, hiplintHas)
	fail(newAPIFailure)
	require.True(t, s.Step([]*packages.Package{p}, false))
	require.NotEmpty(t, s.pinned)

	fail("p/a.go:8:13: could not determine what C.hipGraph_t refers to\n")
	require.True(t, s.Step([]*packages.Package{p}, false), "the repairs changed: served no longer")
	ov, err := s.Overlay()
	require.NoError(t, err)
	assert.NotContains(t, string(ov[p.GoFiles[0]]), pinned)
	assert.Empty(t, s.pinned)

	fail(newAPIFailure)
	s.Step([]*packages.Package{p}, false)
	assert.Empty(t, s.pinned, "never served again")
}
