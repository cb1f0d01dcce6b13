package flow

import (
	"go/ast"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

// TestNilComparison: either side may be nil, == and != only.
func TestNilComparison(t *testing.T) {
	c := check(t, `package p
func f(err error, p *int, n int) {
	_ = err == nil
	_ = (nil != p)
	_ = n == 0
	_ = err
}
`)
	var got []string
	ast.Inspect(c.file, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok {
			return true
		}
		if val, eq, ok := NilComparison(c.info, as.Rhs[0]); ok {
			got = append(got, types.ExprString(val)+map[bool]string{true: "==", false: "!="}[eq])
		} else {
			got = append(got, "-")
		}
		return true
	})
	assert.Equal(t, []string{"err==", "p!=", "-", "-"}, got)
}

// TestZeroComparison: nil or the constant 0 on either side, == and != only.
func TestZeroComparison(t *testing.T) {
	c := check(t, `package p
const ok = 0
func f(err error, p *int, n int, s string) {
	_ = err == nil
	_ = (nil != p)
	_ = 0 != n
	_ = n == ok
	_ = n == 1
	_ = n < 0
	_ = s == ""
}
`)
	var got []string
	ast.Inspect(c.file, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok {
			return true
		}
		if val, eq, ok := ZeroComparison(c.info, as.Rhs[0]); ok {
			got = append(got, types.ExprString(val)+map[bool]string{true: "==", false: "!="}[eq])
		} else {
			got = append(got, "-")
		}
		return true
	})
	assert.Equal(t, []string{"err==", "p!=", "n!=", "n==", "-", "-", "-"}, got)
}
