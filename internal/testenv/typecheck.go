package testenv

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/require"
	"golang.org/x/tools/go/analysis"
)

// Checked is one source file type-checked as package path "p": the unit
// tests' one way to get syntax with types.
type Checked struct {
	Fset *token.FileSet
	File *ast.File
	Info *types.Info
	Pkg  *types.Package
}

// TypeCheck parses src as p.go and type-checks it as package "p", with the
// standard library from export data.
func TypeCheck(t testing.TB, src string) Checked {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	require.NoError(t, err)
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{},
		Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{},
		Implicits: map[ast.Node]types.Object{}}
	pkg, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, info)
	require.NoError(t, err)
	return Checked{fset, f, info, pkg}
}

// FakePass type-checks src (TypeCheck) and returns a pass over it whose
// object facts are recorded in the map it returns; it imports no facts.
// The engine pieces that moved into the analyzers (issue 31) test with it.
func FakePass(t *testing.T, src string, imports ...*types.Package) (*analysis.Pass, map[types.Object][]analysis.Fact) {
	t.Helper()
	c := TypeCheck(t, src)
	if len(imports) > 0 {
		c.Pkg.SetImports(append(c.Pkg.Imports(), imports...))
	}
	facts := map[types.Object][]analysis.Fact{}
	pass := &analysis.Pass{
		Fset: c.Fset, Files: []*ast.File{c.File}, Pkg: c.Pkg, TypesInfo: c.Info,
		ResultOf: map[*analysis.Analyzer]any{},
		ExportObjectFact: func(obj types.Object, fact analysis.Fact) {
			facts[obj] = append(facts[obj], fact)
		},
		ImportObjectFact:  func(types.Object, analysis.Fact) bool { return false },
		ExportPackageFact: func(analysis.Fact) {},
		ImportPackageFact: func(*types.Package, analysis.Fact) bool { return false },
		AllObjectFacts:    func() []analysis.ObjectFact { return nil },
	}
	return pass, facts
}
