package flow

import (
	"go/ast"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

func TestAddOut(t *testing.T) {
	src := `package p
import "unsafe"
type T struct{ ptr unsafe.Pointer }
func alloc(out *unsafe.Pointer) {}
func f() {
	var v unsafe.Pointer
	var t T
	alloc(&v)
	alloc((*unsafe.Pointer)(unsafe.Pointer(&t.ptr)))
	alloc(nil)
}
`
	pass, _ := fakePass(t, src)
	info := pass.TypesInfo
	s := indexSources(info, pass.Files)
	var calls []*ast.CallExpr
	ast.Inspect(pass.Files[0], func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && Callee(info, call) != nil && Callee(info, call).Name() == "alloc" {
			calls = append(calls, call)
		}
		return true
	})
	require.Len(t, calls, 3)
	for _, call := range calls {
		s.AddOut(info, call.Args[0], call)
	}
	byName := map[string][]Source{}
	for o, srcs := range s.Of {
		byName[o.Name()] = append(byName[o.Name()], srcs...)
	}
	require.Len(t, byName["v"], 1, "&v")
	assert.Equal(t, Source{Call: calls[0], Result: outArgs}, byName["v"][0])
	require.Len(t, byName["ptr"], 1, "&t.ptr, through the conversions: the field in every value")
	assert.Equal(t, calls[1], byName["ptr"][0].Call)
	require.Len(t, s.Fields, 1, "and the field of t; nil writes nothing")
	for k, srcs := range s.Fields {
		assert.Equal(t, "t.ptr", k.String())
		assert.Equal(t, []Source{{Call: calls[1], Result: outArgs}}, srcs)
	}
}
