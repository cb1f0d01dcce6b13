package flow

import (
	"go/ast"
	"go/types"

	"github.com/hiplint/hiplint/internal/cgocall"
)

// registered calls lit with each closure passed to call (t.Cleanup(func()
// {...}), ctx.Do(func() error {...})), cgo's wrappers left out, and method
// with the receiver and the method of each method value passed to it
// (t.Cleanup(m.Close)): the functions call registers or runs.
func registered(info *types.Info, call *ast.CallExpr, lit func(*ast.FuncLit), method func(recv ast.Expr, fn *types.Func)) {
	for _, arg := range call.Args {
		switch x := ast.Unparen(arg).(type) {
		case *ast.FuncLit:
			if !cgocall.IsWrapper(info, x) {
				lit(x)
			}
		case *ast.SelectorExpr:
			if fn, ok := info.Uses[x.Sel].(*types.Func); ok && fn.Signature().Recv() != nil {
				method(x.X, fn)
			}
		}
	}
}
