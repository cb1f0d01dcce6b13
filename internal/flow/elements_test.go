package flow

import (
	"go/ast"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

func TestElementsAsWritten(t *testing.T) {
	src := `package p
import "unsafe"
func f(bufs []unsafe.Pointer, m map[string]uintptr, arr [2]*int, n []int, i int) {
	_, _, _, _ = bufs[i], m["y"], arr[i+1], n[i]
}
`
	pass, _ := fakePass(t, src)
	name := ElementsAsWritten(pass.TypesInfo)
	var got []string
	ast.Inspect(pass.Files[0], func(n ast.Node) bool {
		if x, ok := n.(*ast.IndexExpr); ok {
			s, ok := name(x)
			if !ok {
				s = "none: " + types.ExprString(x)
			}
			got = append(got, s)
		}
		return true
	})
	assert.Equal(t, []string{"[i]", `["y"]`, "[i + 1]", "none: n[i]"}, got)
}
