package flow

import (
	"go/ast"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestFixAfterCheck(t *testing.T) {
	c := check(t, `package p
func open() (int, error) { return 0, nil }
func f() error {
	h, err := open()
	if err != nil {
		return err
	}
	for i := 0; i < 2; i++ {
		g, err := open()
		if err != nil {
			return err
		}
		_ = g
	}
	_ = h
	return nil
}`)
	fn := c.file.Decls[1].(*ast.FuncDecl)
	fix, ok := FixAfterCheck(c.fset, fn.Body, fn.Body.List[0], "Close h", "defer close(h)")
	if assert.True(t, ok) && assert.Len(t, fix.TextEdits, 1) {
		assert.Equal(t, "Close h", fix.Message)
		assert.Equal(t, "\tdefer close(h)\n", string(fix.TextEdits[0].NewText))
		assert.Equal(t, 8, c.fset.Position(fix.TextEdits[0].Pos).Line) // the line after the check's closing brace
	}
	loop := fn.Body.List[2].(*ast.ForStmt).Body.List[0]
	_, ok = FixAfterCheck(c.fset, fn.Body, loop, "", "defer close(g)")
	assert.False(t, ok) // in a loop
	_, ok = FixAfterCheck(c.fset, fn.Body, fn.Body.List[3], "", "x")
	assert.False(t, ok) // no check
}
