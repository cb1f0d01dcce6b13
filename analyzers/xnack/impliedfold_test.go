package xnack

import (
	"go/ast"
	"go/parser"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

func TestImpliedFold(t *testing.T) {
	fold := func(src string, taken bool) string {
		e, err := parser.ParseExpr(src)
		require.NoError(t, err)
		return impliedFold(e, taken, func(e ast.Expr, holds bool) string {
			if holds {
				return types.ExprString(e)
			}
			return "!" + types.ExprString(e)
		}, func(a, b string) string { return "both(" + a + ", " + b + ")" },
			func(a, b string) string { return "either(" + a + ", " + b + ")" })
	}
	assert.Equal(t, "a == nil", fold("(a == nil)", true))
	assert.Equal(t, "!a == nil", fold("!(a == nil)", true))
	assert.Equal(t, "both(a, b != 0)", fold("a && (b != 0)", true))
	assert.Equal(t, "either(!a, !b)", fold("a && b", false), "an && that failed: one of them failed")
	assert.Equal(t, "either(a, b)", fold("a || b", true), "an || that held: one of them held")
	assert.Equal(t, "both(!a, !b)", fold("a || b", false))
	assert.Equal(t, "both(both(a, !b), c)", fold("!(!a || b) && c", true))
	assert.Equal(t, "either(either(!a, b), !c)", fold("!(!a || b) && c", false))
}
