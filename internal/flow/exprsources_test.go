package flow

import (
	"go/ast"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

func TestExprSources(t *testing.T) {
	x, y := ast.NewIdent("x"), ast.NewIdent("y")
	assert.Equal(t, []Source{{Expr: x}, {Expr: y}}, exprSources([]ast.Expr{x, y}))
	assert.Nil(t, exprSources(nil))
}
