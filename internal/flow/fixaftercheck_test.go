package flow

import (
	"go/ast"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
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
	call := fn.Body.List[0].(*ast.AssignStmt).Rhs[0] // open(), in the statement it ends
	fixes := FixAfterCheck(c.fset, fn.Body, call, "Close h", "defer close(h)")
	if assert.Len(t, fixes, 1) && assert.Len(t, fixes[0].TextEdits, 1) {
		fix := fixes[0]
		assert.Equal(t, "Close h", fix.Message)
		assert.Equal(t, "\tdefer close(h)\n", string(fix.TextEdits[0].NewText))
		assert.Equal(t, 8, c.fset.Position(fix.TextEdits[0].Pos).Line) // the line after the check's closing brace
	}
	loop := fn.Body.List[2].(*ast.ForStmt).Body.List[0].(*ast.AssignStmt).Rhs[0]
	assert.Nil(t, FixAfterCheck(c.fset, fn.Body, loop, "", "defer close(g)"), "in a loop")
	assert.Nil(t, FixAfterCheck(c.fset, fn.Body, fn.Body.List[3], "", "x"), "no check")
	assert.Nil(t, FixAfterCheck(c.fset, fn.Body, fn.Body, "", "x"), "in no statement")
}
