// Test helpers of the engine pieces that moved here from internal/flow
// (issue 31): the same as internal/flow's and graphfree's.
package modulebalance

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/analysis"
)

// fakePass type-checks src as package p and returns a pass over it whose
// facts live in facts (object facts) and pkgFacts.
func fakePass(t *testing.T, src string, imports ...*types.Package) (*analysis.Pass, map[types.Object][]analysis.Fact) {
	t.Helper()
	c := check(t, src)
	fset, f, info, pkg := c.fset, c.file, c.info, c.pkg
	if len(imports) > 0 {
		pkg.SetImports(append(pkg.Imports(), imports...))
	}
	facts := map[types.Object][]analysis.Fact{}
	pass := &analysis.Pass{
		Fset: fset, Files: []*ast.File{f}, Pkg: pkg, TypesInfo: info,
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

func check(t testing.TB, src string) checked {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	require.NoError(t, err)
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{},
		Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	pkg, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, info)
	require.NoError(t, err)
	return checked{fset, f, info, pkg}
}

// checked is one source file type-checked as package path "p": the unit
// tests' one way to get syntax with types.
type checked struct {
	fset *token.FileSet
	file *ast.File
	info *types.Info
	pkg  *types.Package
}
