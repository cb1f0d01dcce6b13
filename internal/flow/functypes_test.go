package flow

import (
	"go/ast"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

func TestFuncTypeValues(t *testing.T) {
	c := check(t, `package p
type Engine struct{ batch int }
type Option func(*Engine) error
func WithBatch(n int) Option {
	if n < 0 {
		return nil
	}
	return func(e *Engine) error { e.batch = n; return nil }
}
func setDefault(e *Engine) error { e.batch = 1; return nil }
func WithDefault() Option { return setDefault }
func converted() { _ = Option(setDefault) }

type Hook func(*Engine)
func Wrap(h Hook) Hook { return h } // a parameter: not known

type Unused func()
type Plain struct{}
`)
	x := NewIndex(c.fset, []*ast.File{c.file}, c.info)
	named := func(name string) *types.Named { return c.pkg.Scope().Lookup(name).Type().(*types.Named) }
	fns, known := x.FuncTypeValues(named("Option"))
	assert.True(t, known)
	var got []string
	for _, f := range fns {
		if f.Lit != nil {
			got = append(got, "lit")
		} else {
			got = append(got, f.Decl.Name.Name)
		}
	}
	assert.Equal(t, []string{"lit", "setDefault"}, got)
	for _, name := range []string{"Hook", "Unused", "Plain"} {
		_, known := x.FuncTypeValues(named(name))
		assert.False(t, known, name)
	}
}
