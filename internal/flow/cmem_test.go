package flow

import (
	"go/ast"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

func TestCMemory(t *testing.T) {
	src := `package p
import "unsafe"
func alloc(n int) unsafe.Pointer { return nil }
func f(p, q unsafe.Pointer) {
	block := alloc(32)
	*(*unsafe.Pointer)(block) = p
	*(*unsafe.Pointer)(unsafe.Add(block, 8)) = q
	array := (*[2]unsafe.Pointer)(unsafe.Add(block, 16))
	array[1] = block
	first := &array[0]
	_ = first
	other := p
	*(*unsafe.Pointer)(other) = q
}
`
	pass, _ := fakePass(t, src)
	info := pass.TypesInfo
	m := NewCMemory(info, types.SizesFor("gc", "amd64"), indexSources(info, pass.Files), pass.Files,
		func(call *ast.CallExpr) bool {
			fn := Callee(info, call)
			return fn != nil && fn.Name() == "alloc"
		})
	var block types.Object
	var first ast.Expr
	ast.Inspect(pass.Files[0], func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			switch {
			case id.Name == "block" && info.Defs[id] != nil:
				block = info.Defs[id]
			case id.Name == "first" && info.Uses[id] != nil:
				first = id
			}
		}
		return true
	})
	require.NotNil(t, block)
	name := func(es []ast.Expr) []string {
		var out []string
		for _, e := range es {
			out = append(out, types.ExprString(e))
		}
		return out
	}
	assert.Equal(t, []string{"p"}, name(m.StoresAt(CLoc{block, 0})))
	assert.Equal(t, []string{"q"}, name(m.StoresAt(CLoc{block, 8})))
	assert.Equal(t, []string{"block"}, name(m.StoresAt(CLoc{block, 24})), "array[1] is 16+8")
	l, ok := m.Loc(first)
	assert.True(t, ok)
	assert.Equal(t, CLoc{block, 16}, l)
	assert.Equal(t, block, m.Buffer(first))
	assert.ElementsMatch(t, []string{"p", "q", "block"}, name(m.StoresInto(block)))
	assert.EqualValues(t, 64, SlotBound(info, first, 64), "first is a variable, not &array[c]")
	assert.Nil(t, m.Buffer(&ast.Ident{Name: "C"}), "no type, no object: nothing")
	_, ok = m.Loc(&ast.BadExpr{})
	assert.False(t, ok)

	// Over an Index's list of nodes, the same stores.
	x := NewIndex(pass.Fset, pass.Files, info)
	mx := NewCMemory(info, types.SizesFor("gc", "amd64"), x.Sources(), pass.Files, m.IsAlloc)
	mx.Index = x
	for _, off := range []int64{0, 8, 24} {
		assert.Equal(t, name(m.StoresAt(CLoc{block, off})), name(mx.StoresAt(CLoc{block, off})))
	}
	assert.ElementsMatch(t, name(m.StoresInto(block)), name(mx.StoresInto(block)))
}
