package graphfree

import (
	"cmp"
	"go/ast"
	"go/types"
	"slices"
	"testing"

	"github.com/hiplint/hiplint/internal/flow"
	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

// ints is a test Value: a sorted set of ints.
type ints []int

func (a ints) Union(b ints) ints { return flow.UnionSorted(a, b, cmp.Compare[int]) }
func (a ints) Equal(b ints) bool { return slices.Equal(a, b) }
func (a ints) Empty() bool       { return len(a) == 0 }

func TestUnionSorted(t *testing.T) {
	a := []int{1, 3}
	assert.Equal(t, []int{1, 2, 3, 4}, flow.UnionSorted(a, []int{4, 2, 3}, cmp.Compare[int]))
	assert.Equal(t, []int{1, 3}, a, "a is not modified")
	assert.Equal(t, []int{1, 3}, flow.UnionSorted(a, nil, cmp.Compare[int]))
	assert.Equal(t, []int{5}, flow.UnionSorted(nil, []int{5}, cmp.Compare[int]))
}

func TestStore(t *testing.T) {
	x := types.NewVar(0, nil, "x", types.Typ[types.Int])
	y := types.NewVar(1, nil, "y", types.Typ[types.Int])
	var s valueStore[ints]
	s.Set(flow.Loc{Root: x, Path: ""}, storeTree[ints]{"": {1}, ".f": {2}, ".f.g": {3}})
	assert.Equal(t, storeTree[ints]{"": {1}, ".f": {2}, ".f.g": {3}}, s.Subtree(flow.Loc{Root: x, Path: ""}))
	assert.Equal(t, storeTree[ints]{"": {2}, ".g": {3}}, s.Subtree(flow.Loc{Root: x, Path: ".f"}))
	assert.Equal(t, ints{2}, s.Get(flow.Loc{Root: x, Path: ".f"}))

	// Clones share until written; a write to one leaves the other.
	c := s.Clone()
	c.Set(flow.Loc{Root: x, Path: ".f"}, storeTree[ints]{"": {9}}) // strong: .f.g goes too
	assert.Equal(t, storeTree[ints]{"": {1}, ".f": {9}}, c.Subtree(flow.Loc{Root: x, Path: ""}))
	assert.Equal(t, storeTree[ints]{"": {1}, ".f": {2}, ".f.g": {3}}, s.Subtree(flow.Loc{Root: x, Path: ""}), "the original is unchanged")

	// Elements are weak: a store adds.
	s.Set(flow.Loc{Root: y, Path: "[]"}, storeTree[ints]{"": {4}})
	s.Set(flow.Loc{Root: y, Path: "[]"}, storeTree[ints]{"": {5}})
	assert.Equal(t, ints{4, 5}, s.Get(flow.Loc{Root: y, Path: "[]"}))

	// Join, Equal, Forget, Update.
	var u valueStore[ints]
	u.Join(&s)
	assert.True(t, u.Equal(&s))
	u.Forget(flow.Loc{Root: x, Path: ".f"})
	assert.Equal(t, storeTree[ints]{"": {1}}, u.Subtree(flow.Loc{Root: x, Path: ""}))
	assert.False(t, u.Equal(&s))
	u.Update(func(v ints) (ints, bool) {
		if slices.Contains(v, 1) {
			return nil, true // emptied: dropped
		}
		return v, false
	})
	assert.Equal(t, 1, u.Len())
	assert.Equal(t, 4, s.Len(), "the joined store is unchanged")

	assert.Equal(t, storeTree[ints]{"": {7}, ".f": {8}}, storeTree[ints]{"[]": {7}, "[].f": {8}, ".n": {1}}.Below("[]"))
}

// TestStoreSetSame: a strong store of what a location holds already changes
// nothing and copies nothing; one that adds, drops or changes a part does.
func TestStoreSetSame(t *testing.T) {
	x := types.NewVar(0, nil, "x", types.Typ[types.Int])
	var s valueStore[ints]
	s.Set(flow.Loc{Root: x, Path: ""}, storeTree[ints]{"": {1}, ".f": {2}})
	c := s.Clone()
	c.Set(flow.Loc{Root: x, Path: ""}, storeTree[ints]{"": {1}, ".f": {2}, ".g": nil}) // an empty part is nothing
	c.Set(flow.Loc{Root: x, Path: ".f"}, storeTree[ints]{"": {2}})
	assert.True(t, c.shared, "still sharing the map")
	for _, tr := range []storeTree[ints]{
		{"": {1}},                       // drops .f
		{"": {1}, ".f": {2}, ".h": {3}}, // adds .h
		{"": {1}, ".f": {4}},            // changes .f
		{},                              // drops both
	} {
		d := s.Clone()
		d.Set(flow.Loc{Root: x, Path: ""}, tr)
		assert.False(t, d.shared, "%v copies", tr)
		want := storeTree[ints]{}
		for p, v := range tr {
			want.Add(p, v)
		}
		assert.Equal(t, want, d.Subtree(flow.Loc{Root: x, Path: ""}))
	}
	assert.Equal(t, storeTree[ints]{"": {1}, ".f": {2}}, s.Subtree(flow.Loc{Root: x, Path: ""}), "the original is unchanged")
}

func TestAssignedAndEvaluator(t *testing.T) {
	src := `package p
import "unsafe"
type T struct{ a, b *int; s []*int }
func two() (*int, *int) { return nil, nil }
func f(m map[int]*int, k int) {
	var x int
	var y int
	p := &x
	q := &y
	t := T{a: p}
	t.b, t.a = t.a, q
	u, v := two()
	w, ok := m[k]
	t.s = append(t.s, p)
	z := unsafe.Add(unsafe.Pointer(p), 8)
	pp := (*int)(unsafe.Pointer(uintptr(unsafe.Pointer(q)) + 8))
	arr := []*int{p, q}
	for _, e := range arr {
		_ = e
	}
	_, _, _, _, _, _ = u, v, w, ok, z, pp
}
`
	pass, _ := fakePass(t, src)
	pass.ResultOf[flow.Getters] = &flow.GetterResult{}
	fd := pass.Files[0].Decls[3].(*ast.FuncDecl)
	info := pass.TypesInfo
	// Values: the positions of Go memory (&x) and of addresses (refs).
	var store valueStore[ints]
	ev := evaluator[*valueStore[ints], ints]{Pass: pass, Locator: flow.Locator{Info: info},
		Store: func(s *valueStore[ints]) *valueStore[ints] { return s },
		Call:  func(*ast.CallExpr, int, *valueStore[ints]) (storeTree[ints], bool) { return nil, false },
		Go: func(e ast.Expr, what goMemory) ints {
			return ints{int(what)*1000 + pass.Fset.Position(e.Pos()).Line}
		},
		GoPart: func(v ints) ints { return v },
		Offset: func(v ints) ints { return v },
		Ref:    func(l flow.Loc) ints { return ints{-pass.Fset.Position(l.Root.Pos()).Line} },
	}
	var got [][3]string
	for _, st := range fd.Body.List {
		n := ast.Node(st)
		if d, ok := st.(*ast.DeclStmt); ok {
			n = d.Decl.(*ast.GenDecl).Specs[0]
		}
		flow.Assigned(n, func(l, r ast.Expr, i int) {
			rs := "<nil>"
			if r != nil {
				rs = types.ExprString(r)
			}
			got = append(got, [3]string{types.ExprString(l), rs, string(rune('0' + i))})
		})
		ev.Assign(n, &store)
		if rs, ok := st.(*ast.RangeStmt); ok {
			ev.Range(rs, rs.Value, &store)
		}
	}
	assert.Contains(t, got, [3]string{"x", "<nil>", "0"}, "a var without a value")
	assert.Contains(t, got, [3]string{"v", "two()", "1"}, "the second result of a call")
	assert.Contains(t, got, [3]string{"w", "m[k]", "0"})
	assert.Contains(t, got, [3]string{"ok", "<nil>", "0"}, "the ok of a comma-ok")
	lookup := func(name string) *types.Var {
		for id, obj := range info.Defs {
			if id.Name == name && obj != nil && obj.Parent() != nil && obj.Parent() != pass.Pkg.Scope() {
				return obj.(*types.Var)
			}
		}
		require.Fail(t, name)
		return nil
	}
	addrX, addrY := ints{-6}, ints{-7} // x and y are declared on lines 6 and 7
	goX, goY := ints{int(goVariable)*1000 + 8}, ints{int(goVariable)*1000 + 9}
	assert.Equal(t, addrX.Union(goX), store.Get(flow.Loc{Root: lookup("p"), Path: ""}))
	assert.Empty(t, store.Subtree(flow.Loc{Root: lookup("u"), Path: ""}), "u: nothing known")
	// t.b, t.a = t.a, q: both read before either is written.
	tt := store.Subtree(flow.Loc{Root: lookup("t"), Path: ""})
	assert.Equal(t, addrX.Union(goX), tt[".b"])
	assert.Equal(t, addrY.Union(goY), tt[".a"])
	assert.Equal(t, addrX.Union(goX), tt[".s[]"], "append adds an element")
	assert.Equal(t, addrX.Union(goX), store.Get(flow.Loc{Root: lookup("z"), Path: ""}), "unsafe.Add points into its argument")
	assert.Equal(t, addrY.Union(goY), store.Get(flow.Loc{Root: lookup("pp"), Path: ""}), "pointer arithmetic keeps the memory")
	assert.Equal(t, ints{int(goSliceLit)*1000 + 17}, store.Get(flow.Loc{Root: lookup("arr"), Path: ""}))
	assert.Equal(t, addrX.Union(goX).Union(addrY).Union(goY), store.Get(flow.Loc{Root: lookup("e"), Path: ""}), "the range value is an element")
	tIdent := fd.Body.List[4].(*ast.AssignStmt).Lhs[0] // t := T{a: p}
	assert.Equal(t, addrX.Union(goX), ev.At(tIdent, ".b", &store), "what t holds at .b")
}
