package flow

import (
	"go/ast"
	"go/parser"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRanges(t *testing.T) {
	e, err := parser.ParseExpr("f(a, bb)")
	require.NoError(t, err)
	call := e.(*ast.CallExpr)
	var rs Ranges
	rs.Add(call.Args[0], nil, call.Args[1])
	assert.Equal(t, Ranges{{call.Args[0].Pos(), call.Args[0].End()}, {call.Args[1].Pos(), call.Args[1].End()}}, rs)
	assert.True(t, InRanges(call.Args[1].Pos(), rs))
	assert.False(t, InRanges(call.Fun.Pos(), rs))
}
