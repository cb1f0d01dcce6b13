package flow

import (
	"go/ast"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

// TestSameElements: the element of a loop that visits every element names
// again the element of a later loop over the same slice or map, and any
// element indexed after it; not where either loop may skip an element, the
// first loop runs on some paths only, the slice changes in between, or the
// loops range over different slices. Fields and method calls of an
// element name that element.
func TestSameElements(t *testing.T) {
	src := `package p
func rel(int, int) {}
func use(int, []int) {}
func g(xs, ys []int, m map[string]int, cond bool) {
	for _, x := range xs {
		rel(1, x)
	}
	for i := range xs {
		rel(2, xs[i])
	}
	for _, y := range ys {
		rel(3, y)
	}
	rel(4, xs[0])
	for _, v := range m {
		rel(5, v)
	}
	if cond {
		rel(6, m["a"])
	}
	func() { rel(7, m["b"]) }()
}
func skip(xs []int, cond bool) {
	for _, x := range xs {
		if cond {
			continue
		}
		rel(1, x)
	}
	for _, x := range xs {
		rel(2, x)
		if cond {
			break
		}
		rel(3, x)
	}
}
func branch(xs []int, cond bool) {
	if cond {
		for _, x := range xs {
			rel(1, x)
		}
	}
	for _, x := range xs {
		if cond {
			rel(2, x)
		}
		rel(3, x)
	}
}
func changed(xs []int, m map[string]int) {
	for i, x := range xs {
		rel(1, x)
		xs[i] = 0
	}
	for _, x := range xs {
		rel(2, x)
	}
	for k, v := range m {
		rel(3, v)
		delete(m, k)
	}
	rel(4, m["a"])
	for _, x := range xs {
		rel(5, x)
	}
	use(0, xs)
	for _, x := range xs {
		rel(6, x)
	}
}
type T struct{ n int }
func (t *T) N() int { return t.n }
func methods(ts []*T) {
	for _, t := range ts {
		rel(1, t.n)
	}
	for _, t := range ts {
		rel(2, t.N())
	}
	rel(3, ts[0].N())
}
func try(int, int) error { return nil }
func returns(xs []int, cond bool) error {
	for _, x := range xs {
		if err := try(1, x); err != nil {
			return err
		}
		if cond {
			panic(x)
		}
	}
	for _, x := range xs {
		switch try(3, x) {
		}
		if err := try(2, x); err != nil {
			return err
		}
	}
	for _, x := range xs {
		rel(4, x)
		if cond {
			goto out
		}
	}
out:
	for _, x := range xs {
		rel(5, x)
	}
	return nil
}
func goroutines(xs []int, cond bool) {
	for _, x := range xs {
		go func() {
			defer rel(0, 0)
			rel(1, x)
		}()
	}
	for _, x := range xs {
		rel(2, x)
	}
	for _, x := range xs {
		go func() {
			if cond {
				return
			}
			rel(3, x)
		}()
	}
	for _, x := range xs[1:] {
		rel(4, x)
	}
	for _, x := range xs[1:] {
		rel(5, x)
	}
	for _, x := range xs[:len(xs)-1] {
		rel(6, x)
	}
	for _, x := range xs[:len(xs)-1] {
		rel(7, x)
	}
}
`
	c := check(t, src)
	for _, tc := range []struct {
		fn            int
		first, second string
		want          bool
	}{
		{2, "1", "2", true},  // value variable, then key index
		{2, "2", "1", false}, // order
		{2, "1", "3", false}, // another slice
		{2, "1", "4", true},  // indexed after the loop
		{2, "5", "6", true},  // a map, in a branch after it
		{2, "5", "7", false}, // in a closure
		{3, "1", "2", false}, // the first loop skips elements
		{3, "2", "3", false}, // the second may break before
		{4, "1", "3", false}, // the first loop runs on some paths only
		{4, "2", "3", false}, // in a branch of its loop
		{5, "1", "2", false}, // cleared in the first loop
		{5, "3", "4", false}, // deleted in the first loop
		{5, "2", "5", true},
		{5, "5", "6", false}, // passed on in between
		{8, "1", "2", true},  // through a field, then a method call
		{8, "1", "3", true},
		{8, "2", "1", false},
		{10, "1", "2", true},  // the first loop returns or panics on some paths, which do not reach the second; read in an if's init
		{10, "1", "3", true},  // in a switch's tag
		{10, "4", "5", false}, // the first loop may goto past its rest
		{11, "1", "2", true},  // a plain statement of the goroutine each iteration starts
		{11, "3", "2", false}, // the goroutine may return before it
		{11, "4", "5", true},  // the same constant slice of the slice
		{11, "6", "7", false}, // bounds that are not constants
		{11, "1", "4", false}, // the whole slice, then a slice of it
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
		assert.Equal(t, tc.want, SameElements(c.info, fn.Body, args[tc.first], args[tc.second]), "%s: %s then %s", fn.Name.Name, tc.first, tc.second)
	}
}
