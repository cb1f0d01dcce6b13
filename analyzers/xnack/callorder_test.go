package xnack

import (
	"go/ast"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/flow"
	"github.com/hiplint/hiplint/internal/testenv"
	"github.com/hiplint/hiplint/internal/testenv/assert"
)

func TestCallOrder(t *testing.T) {
	src := indexSrc + `
func _Cfunc_getenv(p0 unsafe.Pointer) unsafe.Pointer { return nil }
func g(p unsafe.Pointer) unsafe.Pointer { return p }

func h(p unsafe.Pointer) {
	func() _Ctype_hipError_t { _cgo0 := g(p); _cgoCheckPointer(_cgo0, nil); return _Cfunc_hipFree(_cgo0) }()
	do(func() { g(nil) })
	_ = g(_Cfunc_getenv(g(p)))
}
`
	c := testenv.TypeCheck(t, src)
	f, info := c.File, c.Info
	x := flow.NewIndex(c.Fset, []*ast.File{f}, info)
	var body *ast.BlockStmt
	for _, fn := range x.Funcs() {
		if fn.Decl != nil && fn.Decl.Name.Name == "h" {
			body = fn.Body
		}
	}
	o := newCallOrder(info, x)
	var got []string
	for _, stmt := range body.List {
		o.Walk(stmt, func(n ast.Node) {
			switch n := n.(type) {
			case *ast.FuncLit:
				got = append(got, "lit")
			case *ast.CallExpr:
				if c := x.Match(n); c != nil {
					got = append(got, "runtime "+c.Func.Name)
				} else {
					got = append(got, types.ExprString(n.Fun))
				}
			}
		})
	}
	assert.Equal(t, []string{
		"g", "runtime hipFree", // the user's argument g(p), then the runtime call
		"lit", "do", // the literal is not entered
		"g", "_Cfunc_getenv", "g", // arguments first
	}, got)
}
