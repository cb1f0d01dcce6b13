package xnack

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/hiplint/hiplint/internal/cgocall"
)

// VarInitCalls calls yield with the calls that package-level variable
// initializers make, which run before every init function and main: in
// source order, each call before the calls in its arguments, function
// literals (cgo's wrappers aside) not entered. It stops when yield returns
// false.
func varInitCalls(info *types.Info, files []*ast.File, yield func(*ast.CallExpr) bool) {
	more := true
	for _, f := range files {
		for _, d := range f.Decls {
			gen, ok := d.(*ast.GenDecl)
			if !ok || gen.Tok != token.VAR || !more {
				continue
			}
			ast.Inspect(gen, func(n ast.Node) bool {
				if !more {
					return false
				}
				if lit, ok := n.(*ast.FuncLit); ok && !cgocall.IsWrapper(info, lit) {
					return false
				}
				if call, ok := n.(*ast.CallExpr); ok {
					more = yield(call)
				}
				return more
			})
		}
	}
}
