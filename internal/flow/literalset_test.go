package flow

import (
	"go/ast"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

// TestListedElement: the element of a loop that visits every element of a
// set built from variables names each variable listed after the loop; not
// before it, not one the set leaves out, nor where the loop may skip an
// element, the set changes or is aliased before the loop, the literal or
// the loop runs on some paths only, or the variable gets a new value.
func TestListedElement(t *testing.T) {
	src := `package p
func rel(int, int) {}
func use([]int) {}
type T struct{ n int }
func g(cond bool) {
	a, b, c := 1, 2, 3
	rel(1, a)
	xs := []int{a, b}
	for _, x := range xs {
		rel(2, x)
	}
	rel(3, a)
	rel(4, b)
	rel(5, c)
	arr := [...]int{0: a}
	for i := range arr {
		rel(6, arr[i])
	}
	rel(7, a)
}
func changed(cond bool) {
	a, b := 1, 2
	xs := []int{a}
	xs[0] = b
	for _, x := range xs {
		rel(1, x)
	}
	rel(2, a)
	ys := []int{a}
	zs := ys
	for _, y := range ys {
		rel(3, y)
	}
	rel(4, a)
	use(zs)
	vs := []int{a, b}
	for i, v := range vs {
		rel(5, v)
		vs[i] = 0
	}
	rel(6, a)
	ws := []int{a, b}
	for i, w := range ws {
		rel(7, w)
		ws[i] = ws[i+1]
	}
	rel(8, a)
}
func skips(cond bool) {
	a := 1
	xs := []int{a}
	for _, x := range xs {
		if cond {
			break
		}
		rel(1, x)
	}
	rel(2, a)
	for _, x := range xs {
		if cond {
			rel(3, x)
		}
	}
	rel(4, a)
	if cond {
		for _, x := range xs {
			rel(5, x)
		}
	}
	rel(6, a)
}
func reassigned(cond bool) {
	a, b := 1, 2
	set := func() { b = 3 }
	xs := []int{a, b}
	for _, x := range xs {
		rel(1, x)
	}
	a = 4
	rel(2, a)
	set()
	rel(3, b)
}
func fields(p *T) {
	a := &T{}
	xs := []int{a.n}
	for _, x := range xs {
		rel(1, x)
	}
	rel(2, a.n)
	ys := []*T{p}
	for _, y := range ys {
		rel(3, y.n)
	}
	rel(4, p.n)
}
func param(xs []int, a int) {
	for _, x := range xs {
		rel(1, x)
	}
	rel(2, a)
}
`
	c := check(t, src)
	for _, tc := range []struct {
		fn            int
		first, second string
		want          bool
	}{
		{3, "2", "3", true},  // listed
		{3, "2", "4", true},  // listed second
		{3, "2", "5", false}, // left out
		{3, "2", "1", false}, // before the loop
		{3, "6", "7", true},  // an array, keyed, the key form
		{4, "1", "2", false}, // the element replaced
		{4, "3", "4", false}, // an alias of the set
		{4, "5", "6", true},  // cleared after the unload
		{4, "7", "8", false}, // shifted
		{5, "1", "2", false}, // break
		{5, "3", "4", false}, // in a branch of the body
		{5, "5", "6", false}, // the loop in a branch
		{6, "1", "2", false}, // assigned after the literal
		{6, "1", "3", false}, // assigned by a closure
		{7, "1", "2", true},  // a field path listed
		{7, "3", "4", false}, // a parameter
		{8, "1", "2", false}, // a set from elsewhere
	} {
		fn := c.file.Decls[tc.fn].(*ast.FuncDecl)
		args := map[string]ast.Expr{}
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok && len(call.Args) == 2 {
				if lit, ok := call.Args[0].(*ast.BasicLit); ok {
					args[lit.Value] = call.Args[1]
				}
			}
			return true
		})
		assert.Equal(t, tc.want, ListedElement(c.info, fn.Body, args[tc.first], args[tc.second]), "%s: %s then %s", fn.Name.Name, tc.first, tc.second)
	}
}
