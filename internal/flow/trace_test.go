package flow

import (
	"go/ast"
	"go/types"
	"strings"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

// TestTrace traces the names of the functions whose results a variable
// may hold, joined with "|", through locals, package variables,
// conversions and a cycle that the depth bound ends.
func TestTrace(t *testing.T) {
	src := `package p
import "unsafe"
func a() *int { return nil }
func b() *int { return nil }
func two() (*int, *int) { return nil, nil }
var g = b()
func f(c bool) {
	x := a()
	if c {
		x = g
	}
	_, y := two()
	z := unsafe.Pointer(x)
	p, q := z, z
	p = unsafe.Pointer(q)
	q = p
	_, _ = y, q
}
`
	pass, _ := fakePass(t, src)
	info := pass.TypesInfo
	tr := &Trace[string, *types.Info]{Ctx: info, Info: info, Sources: indexSources(info, pass.Files),
		Expr: func(info *types.Info, e ast.Expr, s Step[string, *types.Info]) string {
			if call, ok := e.(*ast.CallExpr); ok {
				return Callee(info, call).Name()
			}
			return ""
		},
		Call: func(info *types.Info, call *ast.CallExpr, result int, s Step[string, *types.Info]) string {
			return Callee(info, call).Name() + "#" + string(rune('0'+result))
		},
		Join: func(a, b string) string { return a + "|" + b },
	}
	vars := map[string]*types.Var{}
	for id, obj := range info.Defs {
		if v, ok := obj.(*types.Var); ok && id.Name != "_" {
			vars[id.Name] = v
		}
	}
	trace := func(name string) string { return tr.Start().Sources(tr.Sources.Of[vars[name]]) }
	assert.Equal(t, "a|b", trace("x"), "a local: what either assignment gives, the package variable traced too")
	assert.Equal(t, "two#1", trace("y"), "a call with several results: Call with its result")
	assert.Equal(t, "a|b", trace("z"), "conversions are stripped")
	q := trace("q")
	assert.True(t, strings.HasPrefix(q, "a|b"), "the cycle p = q; q = p ends: %q", q)
	assert.LessOrEqual(t, strings.Count(q, "|"), 1<<maxTrace, "bounded by MaxTrace")

	tr.Follow = func(v *types.Var) bool { return v.Name() != "g" }
	assert.Equal(t, "a|", trace("x"), "a variable Follow rejects is Expr's")
	var zero Trace[int, any]
	zero.Sources = &Sources{}
	assert.Equal(t, 0, zero.Start().Sources(nil), "no sources: the zero value")
}
