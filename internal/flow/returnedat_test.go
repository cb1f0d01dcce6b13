package flow

import (
	"go/ast"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

// TestReturnedAt: each return's operand for the result, a naked return
// and a literal's returns left out.
func TestReturnedAt(t *testing.T) {
	src := `package p
func f(c bool) (x int, err error) {
	g := func() (int, error) { return 9, nil }
	_ = g
	if c {
		return 1, nil
	}
	if !c {
		return
	}
	return 2, err
}
`
	pass, _ := fakePass(t, src)
	body := pass.Files[0].Decls[0].(*ast.FuncDecl).Body
	vals, all := ReturnedAt(body, 2, 0)
	assert.False(t, all, "the naked return gives no operands")
	var texts []string
	for _, v := range vals {
		texts = append(texts, v.(*ast.BasicLit).Value)
	}
	assert.Equal(t, []string{"1", "2"}, texts)
	vals, _ = ReturnedAt(body, 2, 1)
	assert.Len(t, vals, 2)
	assert.Equal(t, "err", vals[1].(*ast.Ident).Name)
}
