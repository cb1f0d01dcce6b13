package flow

import (
	"go/ast"
	"go/types"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestKernelArgs(t *testing.T) {
	src := `package p
import "unsafe"
type B struct{ ptr unsafe.Pointer }
func alloc(n int) unsafe.Pointer { return nil }
func launch(args ...unsafe.Pointer) {}
func f(d unsafe.Pointer, b *B, n int) {
	lit := []unsafe.Pointer{unsafe.Pointer(&d), unsafe.Pointer(&b.ptr), unsafe.Pointer(&n)}
	var grown []unsafe.Pointer
	grown = append(grown, unsafe.Pointer(&d))
	block := alloc(16)
	*(*unsafe.Pointer)(block) = unsafe.Pointer(&d)
	buf := (*[2]unsafe.Pointer)(alloc(16))
	buf[1] = b.ptr
	launch(unsafe.Pointer(&lit[0]), unsafe.Pointer(&grown[0]), block, unsafe.Pointer(&buf[0]), unsafe.Pointer(&n))
}
`
	pass, _ := fakePass(t, src)
	info := pass.TypesInfo
	srcs := IndexSources(info, pass.Files)
	c := NewCMemory(info, types.SizesFor("gc", "amd64"), srcs, pass.Files, func(call *ast.CallExpr) bool {
		fn := Callee(info, call)
		return fn != nil && fn.Name() == "alloc"
	})
	k := KernelArgs{Info: info, Sources: srcs, C: c}
	var args []ast.Expr
	ast.Inspect(pass.Files[0], func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "launch" {
				args = call.Args
			}
		}
		return true
	})
	text := func(es []ast.Expr) []string {
		var out []string
		for _, e := range es {
			out = append(out, types.ExprString(e))
		}
		return out
	}
	assert.Equal(t, []string{"d", "b.ptr"}, text(k.GoArray(args[0])), "n is a scalar")
	assert.Equal(t, []string{"d"}, text(k.Values(args[1])))
	assert.Equal(t, []string{"d"}, text(k.CSlots(args[2])))
	assert.Equal(t, []string{"b.ptr"}, text(k.CBuffer(args[3])))
	assert.Equal(t, []string{"b.ptr"}, text(k.Values(args[3])))
	assert.Empty(t, k.Values(args[4]))
	assert.True(t, IsArgArrayType(types.NewPointer(types.Typ[types.UnsafePointer])))
	assert.True(t, IsArgArrayType(types.NewSlice(types.Typ[types.UnsafePointer])))
	assert.False(t, IsArgArrayType(types.Typ[types.UnsafePointer]))
	assert.False(t, IsArgArrayType(nil))
}
