package synth

import (
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

// TestStepSetsAsideMissingImports: a cgo package go list ran no cgo step
// for, because an import was not found, has that import set aside in every
// file that imports it (the path replaced by "unsafe" in place, padded: no
// line or column moves), so that the next listing runs cgo; the note says
// so. A package whose cgo step ran and failed is not such a package.
func TestStepSetsAsideMissingImports(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "p")
	require.NoError(t, os.Mkdir(dir, 0o755))
	const missing = "github.com/absent/memalloc"
	files := map[string]string{
		"a.go": "package p\n\n// #include <stdlib.h>\nimport \"C\"\n\nimport (\n\t\"unsafe\"\n\n\t\"" + missing + "\" // the pool\n)\n\nfunc F() { C.free(unsafe.Pointer(nil)); memalloc.New() }\n",
		"b.go": "package p\n\nimport m \"" + missing + "\"\n\nfunc G() { m.New() }\n",
		"c.go": "package p\n\nimport \"errors\"\n\nvar E = errors.New(\"e\")\n",
	}
	fset := token.NewFileSet()
	var syntax []*ast.File
	var goFiles []string
	for _, name := range []string{"a.go", "b.go", "c.go"} {
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
	placeholder := &packages.Package{ID: missing, PkgPath: missing,
		Errors: []packages.Error{{Pos: "a.go:9:2", Msg: "no required module provides package " + missing, Kind: packages.ListError}}}
	p := &packages.Package{ID: "example.com/p", PkgPath: "example.com/p", Name: "p", GoFiles: goFiles,
		Fset: fset, Syntax: syntax, Types: tpkg, TypesInfo: info,
		Imports: map[string]*packages.Package{missing: placeholder, "unsafe": {PkgPath: "unsafe", GoFiles: []string{"unsafe.go"}}}}
	assert.Equal(t, []string{missing}, notRun(p))

	s := New(nil, func(string) bool { return false }, func(string, []byte) (string, error) { return "", nil })
	require.True(t, s.Step([]*packages.Package{p}, false))
	ov, err := s.Overlay()
	require.NoError(t, err)
	for i, name := range []string{"a.go", "b.go"} {
		got := string(ov[goFiles[i]])
		orig := files[name]
		require.Equal(t, len(orig), len(got), "%s: no byte moves", name)
		assert.Equal(t, strings.Replace(orig, `"`+missing+`"`, `"unsafe"`+strings.Repeat(" ", len(missing)+2-8), 1), got, name)
	}
	assert.NotContains(t, ov, goFiles[2], "c.go does not import it")

	p.Types = types.NewPackage("example.com/p", "p") // cgo ran: no fake "C"
	rs := s.Rescued([]*packages.Package{p})
	require.Len(t, rs, 1)
	assert.Equal(t, []string{missing}, rs[0].Aside)
	assert.Equal(t, "example.com/p: note: cgo failed (not run: its import "+missing+" was not found); ran cgo with its imports that were not found set aside ("+
		missing+"; the code that uses them is analyzed as with any import not found): analyzed with the runtime's C types", rs[0].Note())

	// cgo ran and failed: not a package whose cgo step was not run.
	p.Types = tpkg
	p.Errors = []packages.Error{{Msg: "# example.com/p\np/a.go:3:10: fatal error: lib.h: No such file or directory", Kind: packages.ListError}}
	assert.Empty(t, notRun(p))
}
