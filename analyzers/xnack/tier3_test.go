package xnack

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/flow"
	"golang.org/x/tools/go/analysis"
)

// TestUntypedExpressions feeds the expression classifiers expressions that
// have no type, as C expressions have at tier 3 (cgo replaced by a fake
// package "C"): they say nothing, and do not panic on the nil type.
func TestUntypedExpressions(t *testing.T) {
	info := &types.Info{
		Types:      map[ast.Expr]types.TypeAndValue{},
		Uses:       map[*ast.Ident]types.Object{},
		Defs:       map[*ast.Ident]types.Object{},
		Selections: map[*ast.SelectorExpr]*types.Selection{},
	}
	pkg := types.NewPackage("p", "p")
	pass := &analysis.Pass{TypesInfo: info, Pkg: pkg, TypesSizes: types.SizesFor("gc", "amd64"),
		Fset: token.NewFileSet(), ResultOf: map[*analysis.Analyzer]any{}}
	idx, err := flow.IndexAnalyzer.Run(pass)
	if err != nil {
		t.Fatal(err)
	}
	pass.ResultOf[flow.IndexAnalyzer] = idx
	a := newAnalyzer(pass, false)
	fi := &fnInfo{sig: types.NewSignatureType(nil, nil, nil, nil, nil, false)}
	for _, src := range []string{
		"&C.args[0]", "&(*C.block)[1]", "&C.dev.ptr", "C.x[2]", "T{C.p}", "[]unsafe.Pointer{C.p}",
		"&C.dev[0]", "C.prop.pageableMemoryAccess",
	} {
		e, err := parser.ParseExpr(src)
		if err != nil {
			t.Fatal(err)
		}
		a.kargs.Carried(e, true)
		a.provs.Of(e)
		a.paramOf(fi, e)
		a.kargs.C.Loc(e)
		a.kargs.C.Buffer(e)
		a.attrValue(e)
		flow.SlotBound(info, e, 64)
		if u, ok := e.(*ast.UnaryExpr); ok {
			if ix, ok := ast.Unparen(u.X).(*ast.IndexExpr); ok {
				a.kargs.C.ElemLoc(ix)
			}
		}
		if lit, ok := e.(*ast.CompositeLit); ok {
			flow.LitFields(info, lit)
		}
	}
}
