// Test helpers of the engine pieces that moved here from internal/flow
// (issue 31), shared with the other analyzers through internal/testenv.
package graphfree

import (
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/flow"
	"github.com/hiplint/hiplint/internal/testenv"
	"github.com/hiplint/hiplint/internal/testenv/require"
	"golang.org/x/tools/go/analysis"
)

var fakePass = testenv.FakePass

func lookupMethod(t *testing.T, pass *analysis.Pass, typ, name string) *types.Func {
	obj, _, _ := types.LookupFieldOrMethod(pass.Pkg.Scope().Lookup(typ).Type(), true, pass.Pkg, name)
	fn, ok := obj.(*types.Func)
	require.True(t, ok, name)
	return fn
}

func funcsOf(pass *analysis.Pass) []flow.Func {
	x := flow.NewIndex(pass.Fset, pass.Files, pass.TypesInfo)
	return x.Funcs()
}
