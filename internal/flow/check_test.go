package flow

import (
	"go/ast"
	"go/token"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv"
)

// checked is one source file type-checked as package path "p": the unit
// tests' one way to get syntax with types.
type checked struct {
	fset *token.FileSet
	file *ast.File
	info *types.Info
	pkg  *types.Package
}

func check(t testing.TB, src string) checked {
	t.Helper()
	c := testenv.TypeCheck(t, src)
	return checked{c.Fset, c.File, c.Info, c.Pkg}
}
