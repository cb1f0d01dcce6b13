package flow

import (
	"go/ast"
	"go/token"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

// TestFallsThrough: a call in a plain statement of a case clause reaches a
// call of the clause it falls into on every path; not from a branch of the
// clause, past a statement that may leave, into a clause it does not fall
// into, or from a closure.
func TestFallsThrough(t *testing.T) {
	src := `package p
func f(int) {}
func g(mode int, early bool) {
	switch mode {
	case 0:
		f(1)
		fallthrough
	case 1:
		f(2)
		f(3)
		fallthrough
	case 2:
		f(4)
	case 3:
		f(5)
	case 4:
		if early {
			f(6)
		}
		fallthrough
	case 5:
		f(7)
		if early {
			return
		}
		fallthrough
	case 6:
		f(8)
		x := func() { f(9) }
		_ = x
		fallthrough
	case 7:
		f(10)
	}
}
`
	c := check(t, src)
	body := c.file.Decls[1].(*ast.FuncDecl).Body
	calls := map[string]token.Pos{}
	ast.Inspect(body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && len(call.Args) == 1 {
			calls[call.Args[0].(*ast.BasicLit).Value] = call.Pos()
		}
		return true
	})
	for _, tc := range []struct {
		first, second string
		want          bool
	}{
		{"1", "2", true},
		{"1", "4", true}, // through two fallthroughs
		{"2", "4", true},
		{"3", "4", true},
		{"2", "3", false}, // the same clause: not a fallthrough
		{"4", "5", false}, // case 2 does not fall through
		{"1", "5", false},
		{"6", "7", false},  // in a branch of its clause
		{"7", "8", false},  // past a return
		{"9", "10", false}, // in a closure
		{"8", "10", true},
		{"2", "1", false},
	} {
		assert.Equal(t, tc.want, FallsThrough(body, calls[tc.first], calls[tc.second]), "f(%s) to f(%s)", tc.first, tc.second)
	}
}
