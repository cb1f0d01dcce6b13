package graphfree

import (
	"go/ast"
	"go/types"

	"github.com/hiplint/hiplint/internal/cgocall"
	"github.com/hiplint/hiplint/internal/flow"
)

// EmptyArray reports whether a C array argument passes no elements: its
// count n is the constant 0, or the pointer arr is absent or nil (under
// conversions), as a graph node's dependency array often is.
func emptyArray(info *types.Info, arr, n ast.Expr) bool {
	if v, ok := cgocall.IntValue(info, n); ok && v == 0 {
		return true
	}
	return arr == nil || flow.IsNil(info, flow.StripConversions(info, arr))
}
