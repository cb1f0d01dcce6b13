package xnack

import (
	"go/ast"
	"go/types"

	"github.com/hiplint/hiplint/internal/cgocall"
	"github.com/hiplint/hiplint/internal/flow"
)

// callOrder walks syntax in evaluation order and yields what runs there:
// each call after its function and arguments, and each function literal
// (cgo's wrappers aside) where it is written, without entering it: a
// literal is another function, run where it is written (t.Run, f.Fuzz, go,
// defer) or later. A runtime call (Index.Match) comes after the user's own
// argument expressions, cgo's wrapper seen through; another C call (C.x)
// after its arguments when it is called directly, and nothing inside it
// otherwise. yield gets a *ast.FuncLit or a *ast.CallExpr.
//
// One callOrder serves many walks, so that a walk allocates nothing: most
// nodes make no call, and closures made per node were most of an
// analyzer's allocation (docs/performance.md).
type callOrder struct {
	x       *flow.Index
	info    *types.Info
	stack   []ast.Node // the nodes being walked whose children come next
	visitFn func(ast.Node) bool
	yield   func(ast.Node)
}

// newCallOrder returns a callOrder over x's package.
func newCallOrder(info *types.Info, x *flow.Index) *callOrder {
	o := &callOrder{x: x, info: info}
	o.visitFn = o.visit
	return o
}

// Walk walks root, calling yield in evaluation order.
func (o *callOrder) Walk(root ast.Node, yield func(ast.Node)) {
	o.yield = yield
	o.walk(root)
	o.yield = nil
}

func (o *callOrder) walk(root ast.Node) {
	base := len(o.stack)
	ast.Inspect(root, o.visitFn)
	o.stack = o.stack[:base]
}

func (o *callOrder) visit(n ast.Node) bool {
	if n == nil {
		top := o.stack[len(o.stack)-1]
		o.stack = o.stack[:len(o.stack)-1]
		if call, ok := top.(*ast.CallExpr); ok {
			o.yield(call)
		}
		return true
	}
	switch n := n.(type) {
	case *ast.FuncLit:
		if !o.x.IsWrapper(n) {
			o.yield(n)
			return false
		}
	case *ast.CallExpr:
		if c := o.x.Match(n); c != nil {
			for _, arg := range c.Args {
				o.walk(arg)
			}
			o.yield(n)
			return false
		}
		if _, ok := cgocall.CName(o.info, n); ok {
			if _, direct := ast.Unparen(n.Fun).(*ast.Ident); direct {
				for _, arg := range n.Args {
					o.walk(arg)
				}
			}
			o.yield(n)
			return false
		}
	}
	o.stack = append(o.stack, n)
	return true
}
