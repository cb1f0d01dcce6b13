package flow

import (
	"go/ast"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
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
	srcs := indexSources(info, pass.Files)
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
	srcs := indexSources(info, pass.Files)
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

// TestPassedArgVariadic: a kernelParams parameter that is variadic is
// passed the slice spread with `...`, or the arguments listed from it on,
// whose elements Carried reads as a slice literal's; a value among several
// variadic ones, and a field of them, are not followed.
func TestPassedArgVariadic(t *testing.T) {
	src := `package p
import "unsafe"
func launch(n int, args ...unsafe.Pointer) {}
func one(p unsafe.Pointer) {}
func f(d, e unsafe.Pointer, n int32) {
	launch(1, unsafe.Pointer(&d), unsafe.Pointer(&n), unsafe.Pointer(&e))
	list := []unsafe.Pointer{unsafe.Pointer(&e)}
	launch(2, list...)
	launch(3)
	one(d)
}
`
	pass, _ := fakePass(t, src)
	info := pass.TypesInfo
	srcs := indexSources(info, pass.Files)
	c := NewCMemory(info, types.SizesFor("gc", "amd64"), srcs, pass.Files, func(*ast.CallExpr) bool { return false })
	k := KernelArgs{Info: info, Sources: srcs, C: c}
	var calls []*ast.CallExpr
	ast.Inspect(pass.Files[0], func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if name := types.ExprString(call.Fun); name == "launch" || name == "one" {
				calls = append(calls, call)
			}
		}
		return true
	})
	require.Len(t, calls, 4)
	sig := func(call *ast.CallExpr) *types.Signature { return Callee(info, call).Signature() }
	carried := func(e ast.Expr) []string {
		var out []string
		for _, a := range k.Carried(e, false) {
			out = append(out, types.ExprString(a.Value))
		}
		return out
	}
	listed := PassedArg(info, calls[0], sig(calls[0]), Ref{Param: 1}, true)
	require.IsType(t, &variadicArgs{}, listed)
	assert.Equal(t, calls[0].Args[1].Pos(), listed.Pos(), "it stands at the first of them")
	assert.Equal(t, []string{"d", "e"}, carried(listed), "the listed arguments' values (n is no pointer)")
	spread := PassedArg(info, calls[1], sig(calls[1]), Ref{Param: 1}, true)
	assert.Same(t, calls[1].Args[1], spread, "the spread slice itself")
	assert.Equal(t, []string{"e"}, carried(spread))
	assert.Nil(t, PassedArg(info, calls[2], sig(calls[2]), Ref{Param: 1}, true), "no variadic arguments")
	assert.Nil(t, PassedArg(info, calls[0], sig(calls[0]), Ref{Param: 1}, false), "a value among several")
	assert.Nil(t, PassedArg(info, calls[0], sig(calls[0]), Ref{Param: 1, Path: ".x"}, true), "a field of them")
	assert.Same(t, calls[0].Args[0], PassedArg(info, calls[0], sig(calls[0]), Ref{Param: 0}, true), "a plain parameter")
	assert.Same(t, calls[3].Args[0], PassedArg(info, calls[3], sig(calls[3]), Ref{Param: 0}, false))
	assert.Empty(t, k.Carried(&variadicArgs{Expr: calls[3].Args[0], Elems: calls[3].Args}, false),
		"elements that are no addresses carry nothing, and nothing else is looked at")
}
