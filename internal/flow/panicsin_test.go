package flow

import (
	"go/ast"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

func TestPanicCalls(t *testing.T) {
	c := check(t, `package p
func must(err error) { if err != nil { panic(err) } }
func ok() error { return nil }
func f() {
	_ = ok()
	func() { must(ok()) }()
	must(ok())
}`)
	var funcs []Func
	for _, d := range c.file.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok {
			funcs = append(funcs, Func{Decl: fd, Body: fd.Body})
		}
	}
	var p PanicCalls
	f := funcs[2].Body
	call := p.In(c.info, funcs, f)
	if assert.NotNil(t, call) {
		assert.Equal(t, f.List[2].Pos(), call.Pos(), "not the call inside the closure")
		assert.Equal(t, "must(ok())", types.ExprString(call))
	}
	assert.Nil(t, p.In(c.info, funcs, f.List[0]), "ok does not panic")
	assert.Nil(t, p.In(c.info, funcs, f.List[1]), "a closure is another function")
}
