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
	values := func(as []KernelArg) []string {
		var out []string
		for _, a := range as {
			out = append(out, types.ExprString(a.Value))
		}
		return out
	}
	assert.Equal(t, []string{"d", "b.ptr"}, text(k.GoArray(args[0])), "n is a scalar")
	assert.Equal(t, []string{"d"}, values(k.Carried(args[1], true)))
	assert.Equal(t, []string{"d"}, text(k.CSlots(args[2])))
	assert.Equal(t, []string{"b.ptr"}, text(k.CBuffer(args[3])))
	assert.Equal(t, []string{"b.ptr"}, values(k.Carried(args[3], true)))
	assert.Empty(t, k.Carried(args[4], true))
	assert.True(t, IsArgArrayType(types.NewPointer(types.Typ[types.UnsafePointer])))
	assert.True(t, IsArgArrayType(types.NewSlice(types.Typ[types.UnsafePointer])))
	assert.False(t, IsArgArrayType(types.Typ[types.UnsafePointer]))
	assert.False(t, IsArgArrayType(nil))
}

func TestKernelArgsCarried(t *testing.T) {
	src := `package p
import "unsafe"
func block(p, q unsafe.Pointer, n int, more ...unsafe.Pointer) (int, []unsafe.Pointer) { return 0, nil }
func launch(args ...unsafe.Pointer) {}
func f(d, e unsafe.Pointer, extra []unsafe.Pointer) {
	_, args := block(d, e, 1, e)
	_, spread := block(d, e, 1, extra...)
	var local []unsafe.Pointer
	if d != nil {
		_, local = block(e, d, 2)
	} else {
		_, local = block(d, e, 3)
	}
	lit := []unsafe.Pointer{unsafe.Pointer(&d)}
	launch(unsafe.Pointer(&args[0]), unsafe.Pointer(unsafe.SliceData(spread)), unsafe.Pointer(&local[0]), unsafe.Pointer(&lit[0]), unsafe.Pointer(&extra[0]))
}
`
	pass, _ := fakePass(t, src)
	info := pass.TypesInfo
	srcs := IndexSources(info, pass.Files)
	c := NewCMemory(info, types.SizesFor("gc", "amd64"), srcs, pass.Files, func(*ast.CallExpr) bool { return false })
	k := KernelArgs{Info: info, Sources: srcs, C: c, Built: func(fn *types.Func, result int) []int {
		if fn.Name() == "block" && result == 1 {
			return []int{0, 3} // p, and the variadic slice (never followed)
		}
		return nil
	}}
	var args []ast.Expr
	ast.Inspect(pass.Files[0], func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && types.ExprString(call.Fun) == "launch" {
			args = call.Args
		}
		return true
	})
	text := func(as []KernelArg) []string {
		var out []string
		for _, a := range as {
			out = append(out, types.ExprString(a.Value)+"@"+a.Helper)
		}
		return out
	}
	assert.Equal(t, []string{"d@block"}, text(k.Carried(args[0], false)), "the caller's argument in p")
	assert.Equal(t, []string{"d@block"}, text(k.Carried(args[1], false)), "through unsafe.SliceData")
	assert.Equal(t, []string{"e@block", "d@block"}, text(k.Carried(args[2], false)), "a local takes every assignment")
	assert.Equal(t, []string{"d@"}, text(k.Carried(args[3], false)), "an array built in place has no helper")
	assert.Empty(t, k.Carried(args[4], false), "a parameter is not followed")
	k.Built = nil
	assert.Empty(t, k.Carried(args[0], false), "no summaries, no helpers")
}
