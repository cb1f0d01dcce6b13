package flow

import (
	"go/ast"
	"go/parser"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

func TestImplied(t *testing.T) {
	implied := func(src string, taken bool) []string {
		e, err := parser.ParseExpr(src)
		require.NoError(t, err)
		var out []string
		implied(e, taken, func(e ast.Expr, holds bool) {
			s := "!"
			if holds {
				s = ""
			}
			out = append(out, s+types.ExprString(e))
		})
		return out
	}
	assert.Equal(t, []string{"a == nil"}, implied("(a == nil)", true))
	assert.Equal(t, []string{"!a == nil"}, implied("!(a == nil)", true))
	assert.Equal(t, []string{"a", "b != 0"}, implied("a && (b != 0)", true))
	assert.Empty(t, implied("a && b", false))
	assert.Equal(t, []string{"!a", "!b"}, implied("a || b", false))
	assert.Empty(t, implied("a || b", true))
	assert.Equal(t, []string{"a", "!b", "c"}, implied("!(!a || b) && c", true))
}
