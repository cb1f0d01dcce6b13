package flow

import (
	"go/ast"
	"go/token"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
	"golang.org/x/tools/go/cfg"
)

// TestDefersAt: at each exit (ReplayExitsAt), the calls deferred before it
// in the source, last first, then the Cleanup closures, last first; those of
// closures are their own.
func TestDefersAt(t *testing.T) {
	src := `package p
import "testing"
func a() {}
func b() {}
func c() {}
func use(t *testing.T, early bool) {
	t.Cleanup(func() { a() })
	defer a()
	if early {
		defer c()
		return
	}
	defer func() {
		defer c()
	}()
	defer b()
	if early {
		t.Cleanup(func() { b() })
	}
}
`
	pass, _ := fakePass(t, src)
	body := pass.Files[0].Decls[4].(*ast.FuncDecl).Body
	assert.Len(t, defersOf(pass.TypesInfo, body, false), 4, "a helper's cleanups run when its test ends")
	defers := defersOf(pass.TypesInfo, body, true)
	require.Len(t, defers, 6)
	g := cfg.New(body, func(*ast.CallExpr) bool { return true })
	p := Problem[int]{Clone: func(s int) int { return s }, Join: func(a, _ int) int { return a },
		Equal: func(a, b int) bool { return a == b }, Transfer: func(_ ast.Node, s int) int { return s }}
	var got [][]string
	ReplayExitsAt(pass.TypesInfo, g, Solve(g, p), p, func(ast.Node, int) {}, func(at token.Pos, _ int) {
		var names []string
		for _, d := range defersAt(body, defers, at) {
			var name string
			if d.Call != nil {
				name = types.ExprString(d.Call.Fun)
			} else {
				name = "cleanup " + types.ExprString(d.Lit.Body.List[0].(*ast.ExprStmt).X)
			}
			if !d.Sure {
				name += "?"
			}
			names = append(names, name)
		}
		got = append(got, names)
	})
	assert.ElementsMatch(t, [][]string{{"c?", "a", "cleanup a()"}, {"b", "(func() literal)", "c?", "a", "cleanup b()?", "cleanup a()"}}, got)
}
