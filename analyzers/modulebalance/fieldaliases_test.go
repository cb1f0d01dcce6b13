package modulebalance

import (
	"fmt"
	"go/ast"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

func TestFieldAliases(t *testing.T) {
	c := check(t, `package p
type Module struct{ h uintptr }
type Handle[T any] struct {
	mod *Module
	val T
}
type pair struct{ a, b *Module }
func load() (*Module, error) { return new(Module), nil }
func f(other *Module) {
	md, _ := load()
	h := &Handle[int]{mod: md}   // h.mod is md
	g := Handle[string]{val: ""} // g.mod is md by its store
	g.mod = md
	p := &pair{a: md, b: other}  // p.a only: other is a parameter
	re, _ := load()
	re, _ = load()
	q := &pair{a: re}            // re is assigned twice
	r := &pair{a: md}
	r.a = re                     // two values
	s := &pair{a: md}
	s = &pair{}                  // s is assigned twice
	n := 0
	t := &struct{ n *int }{n: &n} // no module
	u := &pair{a: md}
	_ = &u                        // u may change through the pointer
	_, _, _, _, _, _ = h, p, q, r, s, t
}`)
	fn := c.File.Decls[len(c.File.Decls)-1].(*ast.FuncDecl)
	holds := func(t types.Type) bool { return types.TypeString(t, nil) == "*p.Module" }
	var got []string
	for _, a := range fieldAliases(c.Info, fn.Body, holds) {
		got = append(got, fmt.Sprintf("%s=%s %d", a.Field, a.Value, len(a.Stores)))
	}
	assert.Equal(t, []string{"h.mod=md 1", "g.mod=md 1", "p.a=md 1"}, got)
}
