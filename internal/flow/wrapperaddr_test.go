package flow

import (
	"go/ast"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

// TestWrapperAddressed: the addresses a cgo wrapper's assignments take (its
// shape: func() { _cgo0 := &p; _cgo1 := n; f(_cgo0, _cgo1) }), in order;
// plain values are none.
func TestWrapperAddressed(t *testing.T) {
	src := `package p
import "unsafe"
func cf(unsafe.Pointer, int) {}
func g(p unsafe.Pointer, n int) {
	func() {
		_cgo0 := unsafe.Pointer(&p)
		_cgo1 := n
		_ = &n
		cf(_cgo0, _cgo1)
	}()
}
`
	pass, _ := fakePass(t, src)
	fd := pass.Files[0].Decls[2].(*ast.FuncDecl)
	lit := fd.Body.List[0].(*ast.ExprStmt).X.(*ast.CallExpr).Fun.(*ast.FuncLit)
	var got []string
	for _, l := range (Locator{Info: pass.TypesInfo}).WrapperAddressed(lit) {
		got = append(got, l.String())
	}
	assert.Equal(t, []string{"p", "n"}, got)
}
