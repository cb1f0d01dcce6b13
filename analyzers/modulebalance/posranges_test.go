package modulebalance

import (
	"go/ast"
	"go/parser"
	"testing"

	"github.com/hiplint/hiplint/internal/flow"
	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

func TestRanges(t *testing.T) {
	e, err := parser.ParseExpr("f(a, bb)")
	require.NoError(t, err)
	call := e.(*ast.CallExpr)
	var rs ranges
	rs.Add(call.Args[0], nil, call.Args[1])
	assert.Equal(t, ranges{{Pos: call.Args[0].Pos(), End: call.Args[0].End()}, {Pos: call.Args[1].Pos(), End: call.Args[1].End()}}, rs)
	assert.True(t, flow.InRanges(call.Args[1].Pos(), rs))
	assert.False(t, flow.InRanges(call.Fun.Pos(), rs))
}
