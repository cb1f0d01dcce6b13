package flow

import (
	"go/ast"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

// TestStored: a closure a local variable holds for good (only called, not
// in a go or defer statement) is Stored; one deferred through its
// variable, used as a value, or run in place is not.
func TestStored(t *testing.T) {
	src := `package p
func use(func()) {}
func f() {
	called := func() {}
	called()
	deferred := func() {}
	defer deferred()
	kept := func() {}
	use(kept)
	func() {}()
}
`
	c := check(t, src)
	x := &Index{fset: c.fset, files: []*ast.File{c.file}, info: c.info}
	var got []bool
	ast.Inspect(c.file, func(n ast.Node) bool {
		if lit, ok := n.(*ast.FuncLit); ok {
			got = append(got, x.Stored(lit))
		}
		return true
	})
	assert.Equal(t, []bool{true, false, false, false}, got)
}
