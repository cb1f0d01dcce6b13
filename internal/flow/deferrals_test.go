package flow

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/cfg"
)

// TestRunDeferred: at each exit, the deferred closures and a test's Cleanup
// closures run (lit) and other deferred calls too (call), in the order
// they run; one registered in a branch runs on a copy of the state. A
// helper's Cleanup closures do not run at its exits (FuncDeferrals).
func TestRunDeferred(t *testing.T) {
	src := `package p
import "testing"
func a() {}
func b() {}
func TestX(t *testing.T) {
	t.Cleanup(func() { a() })
	defer a()
	if t.Failed() {
		defer func() { b() }()
		return
	}
	go func() { b() }()
}
func helper(t *testing.T) {
	t.Cleanup(func() { b() })
	defer func() { a() }()
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p_test.go", src, 0)
	require.NoError(t, err)
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{},
		Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	pkg, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, info)
	require.NoError(t, err)
	pass := &analysis.Pass{Fset: fset, Files: []*ast.File{f}, Pkg: pkg, TypesInfo: info}
	notWrapper := func(*ast.FuncLit) bool { return false }

	type log struct{ n int }
	run := func(decl *ast.FuncDecl) [][]string {
		fn := Func{Decl: decl, Body: decl.Body}
		defers := FuncDeferrals(pass, fn)
		g := cfg.New(decl.Body, func(*ast.CallExpr) bool { return true })
		p := Problem[*log]{Entry: &log{}, Clone: func(s *log) *log { return &log{s.n} },
			Join: func(a, _ *log) *log { return a }, Equal: func(a, b *log) bool { return a.n == b.n },
			Transfer: func(_ ast.Node, s *log) *log { return s }}
		var got [][]string
		ReplayExitsAt(info, g, Solve(g, p), p, func(ast.Node, *log) {}, func(at token.Pos, s *log) {
			var ran []string
			note := func(on *log, what string) {
				if on != s {
					what += " (on a copy)"
				}
				ran = append(ran, what)
			}
			RunDeferred(decl.Body, defers, at, s, p.Clone, notWrapper, func(lit *ast.FuncLit, on *log) {
				note(on, "lit "+types.ExprString(lit.Body.List[0].(*ast.ExprStmt).X))
			}, func(call *ast.CallExpr, on *log) {
				note(on, "call "+types.ExprString(call))
			})
			got = append(got, ran)
		})
		return got
	}
	// DefersAt counts the branch's defer at the end of the body too, as
	// registered on some paths.
	assert.ElementsMatch(t, [][]string{
		{"lit b() (on a copy)", "call a()", "lit a()"},
		{"lit b() (on a copy)", "call a()", "lit a()"},
	}, run(f.Decls[3].(*ast.FuncDecl)))
	assert.Equal(t, [][]string{{"lit a()"}}, run(f.Decls[4].(*ast.FuncDecl)), "a helper's Cleanup runs when its test ends")

	g := f.Decls[3].(*ast.FuncDecl).Body.List[3].(*ast.GoStmt)
	require.NotNil(t, GoLit(g, notWrapper))
	assert.Nil(t, GoLit(g, func(*ast.FuncLit) bool { return true }), "a cgo wrapper is a call")
}
