package flow

import (
	"go/ast"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

func TestFinalizedAndPanicking(t *testing.T) {
	c := check(t, `package p
import "runtime"
type T struct{ h *int }
func f(a, b *T) {
	runtime.SetFinalizer(a, func(*T) {})
	func() { runtime.SetFinalizer(b, nil) }()
}
func must(err error) { if err != nil { panic(err) } }
func wraps() { func() { panic(1) }() }
`)
	var funcs []Func
	for _, d := range c.file.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok {
			funcs = append(funcs, Func{Decl: fd, Body: fd.Body})
		}
	}
	vars := FinalizedVars(c.info, funcs[0].Body)
	if assert.Len(t, vars, 1) {
		assert.Equal(t, "a", vars[0].Name()) // not b: in a closure
	}
	var names []string
	for fn := range panicking(c.info, funcs) {
		names = append(names, fn.Name())
	}
	assert.Equal(t, []string{"must"}, names) // wraps panics only in a closure
}
