package flow

import (
	"go/ast"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

func TestResultHelpers(t *testing.T) {
	src := `package p
import (
	"errors"
	"fmt"
	"unsafe"
)
type HostPtr uintptr
type E struct{}
func (*E) Error() string { return "" }
func check(int) error { return nil }
func f(n int) (err error) {
	g := func() error { return nil }
	e := g()
	if n == 0 {
		return errors.New("x")
	}
	if n == 1 {
		return fmt.Errorf("y")
	}
	if n == 2 {
		return &E{}
	}
	if n == 3 {
		return e
	}
	if n == 4 {
		return err
	}
	return check(n)
}
var _ unsafe.Pointer
`
	pass, _ := fakePass(t, src)
	var body *ast.BlockStmt
	for _, d := range pass.Files[0].Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == "f" {
			body = fd.Body
		}
	}
	assert.Len(t, ReturnStmts(body), 6, "the literal's return is not f's")

	assert.True(t, IsRawPointer(types.Typ[types.UnsafePointer]))
	assert.True(t, IsRawPointer(pass.Pkg.Scope().Lookup("HostPtr").Type()))
	assert.False(t, IsRawPointer(types.Typ[types.Int]))
	assert.False(t, IsRawPointer(types.NewPointer(types.Typ[types.Int])), "a Go pointer is not raw")
	cfloat := types.NewNamed(types.NewTypeName(0, nil, "_Ctype_float", nil), types.Typ[types.Float32], nil)
	assert.True(t, IsRawPointer(types.NewPointer(cfloat)))
}
