package flow

import (
	"go/ast"
	"go/token"
	"go/types"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/cfg"
)

// TestDefersAt: at each exit (ReplayExitsAt), the calls deferred before it
// in the source, last first; those of closures are their own.
func TestDefersAt(t *testing.T) {
	src := `package p
func a() {}
func b() {}
func c() {}
func use(early bool) {
	defer a()
	if early {
		defer c()
		return
	}
	defer func() {
		defer c()
	}()
	defer b()
}
`
	pass, _ := fakePass(t, src)
	body := pass.Files[0].Decls[3].(*ast.FuncDecl).Body
	defers := Defers(body)
	require.Len(t, defers, 4)
	g := cfg.New(body, func(*ast.CallExpr) bool { return true })
	p := Problem[int]{Clone: func(s int) int { return s }, Join: func(a, _ int) int { return a },
		Equal: func(a, b int) bool { return a == b }, Transfer: func(_ ast.Node, s int) int { return s }}
	var got [][]string
	ReplayExitsAt(pass.TypesInfo, g, Solve(g, p), p, func(ast.Node, int) {}, func(at token.Pos, _ int) {
		var names []string
		for _, d := range DefersAt(body, defers, at) {
			name := types.ExprString(d.Call.Fun)
			if !d.Sure {
				name += "?"
			}
			names = append(names, name)
		}
		got = append(got, names)
	})
	assert.ElementsMatch(t, [][]string{{"c?", "a"}, {"b", "(func() literal)", "c?", "a"}}, got)
}
