package flow

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"
	"strings"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

// TestIndexFirstCall: the Index's list of calls answers FirstCall as the
// walk does, for every body of the package (literals inside literals
// included), whether literals are entered or not, and for every call it
// could stop at.
func TestIndexFirstCall(t *testing.T) {
	src := `package p
func f(int) int { return 0 }
func g(func()) int { return 0 }
func run(fn func()) { fn() }
func use() {
	_ = f(f(1)) + g(func() { f(2); run(func() { f(3) }) })
	run(func() { g(nil) })
	f(4)
}
`
	pass, _ := fakePass(t, src)
	x := NewIndex(pass.Fset, pass.Files, pass.TypesInfo)
	var all []*ast.CallExpr
	ast.Inspect(pass.Files[0], func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			all = append(all, call)
		}
		return true
	})
	enters := map[string]func(*ast.FuncLit) bool{
		"nil":   nil,
		"none":  func(*ast.FuncLit) bool { return false },
		"outer": func(lit *ast.FuncLit) bool { return len(lit.Body.List) > 1 },
	}
	bodies := 0
	for _, fn := range x.Funcs() {
		bodies++
		for name, enter := range enters {
			for _, target := range append(all, nil) {
				match := func(call *ast.CallExpr) bool { return call == target }
				if target == nil {
					match = func(call *ast.CallExpr) bool { return types.ExprString(call.Fun) == "g" }
				}
				want := FirstCall(fn.Body, enter, match)
				got := x.FirstCall(fn.Body, enter, match)
				assert.Same(t, want, got, "body at %v enter=%s target=%v", pass.Fset.Position(fn.Body.Pos()), name, target)
			}
		}
	}
	assert.Equal(t, 7, bodies) // four declarations, three literals
}

// TestIndexWalk: the Index's list gives, for every file and body, the
// listed nodes ast.Inspect meets, in its order, and skips what a false
// return skips.
func TestIndexWalk(t *testing.T) {
	src := `package p
var table = []T{{fn: f}}
type T struct{ fn func(int) int }
func f(int) int { return 0 }
func use(xs []int) (n int) {
	for i := 0; i < len(xs); i++ {
		defer func() { n += f(i) }()
	}
	for _, v := range xs {
		go func(v int) { _ = T{fn: f}; n = f(v) }(v)
	}
	var a, b = f(1), 2
	a = b
	return a
}
`
	pass, _ := fakePass(t, src)
	x := NewIndex(pass.Fset, pass.Files, pass.TypesInfo)
	inspect := func(n ast.Node, skipLits bool) []ast.Node {
		var out []ast.Node
		ast.Inspect(n, func(n ast.Node) bool {
			if n == nil || !listed(n) {
				return true
			}
			out = append(out, n)
			_, lit := n.(*ast.FuncLit)
			return !(lit && skipLits)
		})
		return out
	}
	nodes := []ast.Node{pass.Files[0]}
	for _, fn := range x.Funcs() {
		nodes = append(nodes, fn.Body)
	}
	for _, n := range nodes {
		_, ok := x.ranges[n]
		assert.True(t, ok, "a range for %T at %v", n, pass.Fset.Position(n.Pos()))
		for _, skip := range []bool{false, true} {
			var got []ast.Node
			x.Walk(n, func(n ast.Node) bool {
				got = append(got, n)
				_, lit := n.(*ast.FuncLit)
				return !(lit && skip)
			})
			assert.Equal(t, inspect(n, skip), got, "%T at %v, literals skipped: %v", n, pass.Fset.Position(n.Pos()), skip)
			assert.NotEmpty(t, got)
		}
	}
	assert.Len(t, nodes, 5) // the file, two declarations, two literals
}

// TestIndexSourcesOverList: the Index's Sources, over its list, are IndexSources'.
func TestIndexSourcesOverList(t *testing.T) {
	src := `package p
type T struct{ fn func(int) int; n int }
var global = T{fn: f}
var table = []T{{f, 1}}
func f(int) int { return 0 }
func two() (int, error) { return 0, nil }
func use(xs []int) {
	t := T{n: 2}
	t.fn = f
	a, err := two()
	xs[0] = a
	go func() { var y = f(a); t.n = y }()
	_, _ = err, global
}
`
	pass, _ := fakePass(t, src)
	x := NewIndex(pass.Fset, pass.Files, pass.TypesInfo)
	want := indexSources(pass.TypesInfo, pass.Files)
	got := x.Sources()
	assert.Equal(t, want, got)
	assert.NotEmpty(t, got.Of)
	assert.NotEmpty(t, got.Elems)
	assert.NotEmpty(t, got.Fields)
}

// TestIndexFuncRefs: the references the build walk lists give each body,
// literals inside it included, what a walk of the body gives: each function
// once, in the order of first mention.
func TestIndexFuncRefs(t *testing.T) {
	var b strings.Builder
	b.WriteString("package p\nfunc g[T any](T) {}\n")
	for i := range 20 {
		fmt.Fprintf(&b, "func f%d() {}\n", i)
	}
	b.WriteString("func use() {\n\tf3(); f1(); f3()\n\tg(1); g(\"s\")\n\tdefer func() { f7(); func() { f9() }() }()\n")
	for i := range 20 {
		fmt.Fprintf(&b, "\tf%d()\n", 19-i)
	}
	b.WriteString("}\n")
	pass, _ := fakePass(t, b.String())
	x := NewIndex(pass.Fset, pass.Files, pass.TypesInfo)
	walked := func(body *ast.BlockStmt) []*types.Func {
		var out []*types.Func
		ast.Inspect(body, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				if fn, ok := pass.TypesInfo.Uses[id].(*types.Func); ok && !slices.Contains(out, fn) {
					out = append(out, fn)
				}
			}
			return true
		})
		return out
	}
	for _, fn := range x.Funcs() {
		_, listed := x.ranges[fn.Body]
		assert.True(t, listed)
		assert.Equal(t, walked(fn.Body), x.funcRefs(fn.Body), "body at %v", pass.Fset.Position(fn.Body.Pos()))
		// The walk for a body the list does not hold answers the same.
		assert.Equal(t, walked(fn.Body), inspectRefs(pass.TypesInfo, fn.Body), "body at %v", pass.Fset.Position(fn.Body.Pos()))
	}
	decls := pass.Files[0].Decls
	assert.Len(t, x.funcRefs(decls[len(decls)-1].(*ast.FuncDecl).Body), 21) // g once and f0..f19
}
