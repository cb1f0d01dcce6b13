package flow

import (
	"go/ast"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

// TestBindCallbacks: a literal's parameter is given what the helper
// passes it: the caller's argument for a parameter (the receiver
// included) passed on as it is, else the helper's expression; a variadic
// helper, a method expression and a named function passed as a value
// give nothing.
func TestBindCallbacks(t *testing.T) {
	src := `package p
type Pool struct{ buf []byte }
func with(p *int, f func(*int) error) error { return f(p) }
func fresh(f func(*int)) { x := 1; go f(&x) }
func (pl *Pool) each(f func(*Pool, []byte)) { f(pl, pl.buf) }
func many(f func(*int), ps ...*int) { f(ps[0]) }
func named(q *int) error { return nil }
func use() {
	a, b := 1, 2
	with(&a, func(q *int) error { return nil })
	fresh(func(r *int) {})
	pl := &Pool{}
	pl.each(func(me *Pool, bs []byte) {})
	(*Pool).each(pl, func(me2 *Pool, bs2 []byte) {})
	many(func(v *int) {}, &b)
	with(&b, named)
}
`
	pass, _ := fakePass(t, src)
	s := indexSources(pass.TypesInfo, pass.Files)
	srcs := map[string][]string{}
	for o, ss := range s.Of {
		if _, ok := o.(*types.Var); !ok || o.Parent() == nil || o.Parent().Parent() == nil {
			continue
		}
		for _, src := range ss {
			if src.Expr != nil {
				srcs[o.Name()] = append(srcs[o.Name()], types.ExprString(src.Expr))
			}
		}
	}
	assert.Equal(t, []string{"&a"}, srcs["q"])
	assert.Equal(t, []string{"&x"}, srcs["r"])
	assert.Equal(t, []string{"pl"}, srcs["me"])
	assert.Equal(t, []string{"pl.buf"}, srcs["bs"])
	for _, none := range []string{"me2", "bs2", "v"} {
		assert.Empty(t, srcs[none], none)
	}
	d := pass.Files[0].Decls[1].(*ast.FuncDecl)
	calls := callbackCalls(pass.TypesInfo, d.Body, pass.TypesInfo.Defs[d.Name].(*types.Func).Signature())
	if assert.Len(t, calls, 1) {
		assert.Equal(t, 1, calls[0].Param)
	}
}
