package flow

import (
	"go/ast"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

func TestSourcesValueFlow(t *testing.T) {
	src := `package p
import "iter"
var a, b, c, d, e, f, g *int
func mk() []*int { return []*int{b} }
func each(yield func(*int) bool) { yield(f) }
func seq() iter.Seq[*int] { return func(yield func(*int) bool) { yield(g) } }
func use() {
	xs := []*int{a}
	xs = append(xs, mk()...)
	for _, x := range xs {
		_ = x
	}
	ch := make(chan *int, 1)
	ch <- c
	for y := range ch {
		_ = y
	}
	var boxed any = d
	switch z := boxed.(type) {
	case *int:
		_ = z
	}
	m := map[string]*int{"k": e}
	for k, w := range m {
		_, _ = k, w
	}
	for it := range each {
		_ = it
	}
	for jt := range seq() {
		_ = jt
	}
}
`
	pass, _ := fakePass(t, src)
	info := pass.TypesInfo
	s := indexSources(info, pass.Files)
	vars := map[string]types.Object{}
	ast.Inspect(pass.Files[0], func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && info.Defs[id] != nil {
			vars[id.Name] = info.Defs[id]
		}
		return true
	})
	for _, c := range info.Implicits {
		vars[c.Name()] = c // the type switch clause's z
	}
	exprs := func(srcs []Source) []string {
		var out []string
		for _, src := range srcs {
			out = append(out, types.ExprString(src.Expr))
		}
		return out
	}
	assert.Equal(t, []string{"a", "b"}, exprs(s.Received(info, vars["x"])),
		"a slice's loop value: its literal's element and the elements of what is appended (a function's returned literal)")
	assert.Equal(t, []string{"c"}, exprs(s.Received(info, vars["y"])), "a channel's loop key: what is sent")
	assert.Equal(t, []string{"e"}, exprs(s.Received(info, vars["w"])), "a map's loop value")
	assert.Empty(t, s.Received(info, vars["k"]), "a map's key is not an element")
	assert.Equal(t, []string{"f"}, exprs(s.Received(info, vars["it"])), "an iterator function's yield argument")
	assert.Equal(t, []string{"g"}, exprs(s.Received(info, vars["jt"])), "the yield argument of the literal an iterator factory returns")
	assert.Equal(t, []string{"boxed"}, exprs(s.Of[vars["z"]]), "a type switch clause's variable is the value switched on")
}
