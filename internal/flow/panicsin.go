package flow

import (
	"go/ast"
	"go/types"

	"github.com/hiplint/hiplint/internal/cgocall"
)

// PanicCalls finds the calls to functions of a package that panic
// themselves (Panicking: a must or Result helper). The zero value is ready
// to use; the package's functions are looked at once, on first use.
type PanicCalls struct {
	panics map[*types.Func]bool
}

// In returns the first call in n (through cgo's wrappers, not into other
// closures) to one of funcs that panics, or nil.
func (p *PanicCalls) In(info *types.Info, funcs []Func, n ast.Node) *ast.CallExpr {
	if p.panics == nil {
		p.panics = panicking(info, funcs)
	}
	wrapper := func(lit *ast.FuncLit) bool { return cgocall.IsWrapper(info, lit) }
	return FirstCall(n, wrapper, func(call *ast.CallExpr) bool { return p.panics[Callee(info, call)] })
}
