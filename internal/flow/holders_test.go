package flow

import (
	"go/ast"
	"go/token"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

const holdersSrc = `package p

type S struct{ mods []int; inner *S }

var global int

func load() int { return 0 }

func do(f func() int) int { return f() }

func f(s *S) {
	r := load()
	load()
	_ = load()
	if load() != 0 {
	}
	x := do(func() int { return load() })
	var v = load()
	_ = r
	_, _, _ = x, v, s.mods
	_ = *s
	_ = s.inner.mods
	go func() {}()
}
`

func TestHolders(t *testing.T) {
	f, info := checkSrc(t, holdersSrc)
	fd := f.Decls[len(f.Decls)-1].(*ast.FuncDecl)
	body := fd.Body
	var loads []*ast.CallExpr
	ast.Inspect(body, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			if id, ok := c.Fun.(*ast.Ident); ok && id.Name == "load" {
				loads = append(loads, c)
			}
		}
		return true
	})
	require.Len(t, loads, 6)
	inPlace := func(*ast.FuncLit) bool { return true }
	name := func(h any) string {
		if obj, ok := h.(types.Object); ok {
			return obj.Name()
		}
		return types.ExprString(h.(ast.Expr))
	}
	h, ok := ResultHolder(info, body, loads[0], inPlace)
	require.True(t, ok)
	assert.Equal(t, "r", name(h))
	_, ok = ResultHolder(info, body, loads[1], inPlace)
	assert.False(t, ok, "a statement of its own")
	_, ok = ResultHolder(info, body, loads[2], inPlace)
	assert.False(t, ok, "assigned to _")
	h, ok = ResultHolder(info, body, loads[3], inPlace)
	require.True(t, ok)
	assert.Equal(t, "load()", name(h), "what the comparison compares")
	h, ok = ResultHolder(info, body, loads[4], inPlace)
	require.True(t, ok)
	assert.Equal(t, "x", name(h), "through the in-place closure's return")
	h, _ = ResultHolder(info, body, loads[4], func(*ast.FuncLit) bool { return false })
	_, isNode := h.(ast.Node)
	assert.True(t, isNode, "a closure that does not run in place returns it")
	h, ok = ResultHolder(info, body, loads[5], inPlace)
	require.True(t, ok)
	assert.Equal(t, "v", name(h))

	blank := body.List[6].(*ast.AssignStmt) // _ = r
	assert.Len(t, BlankAssigned(blank), 1)
	tuple := body.List[7].(*ast.AssignStmt)
	assert.True(t, directPart(tuple.Rhs[2]))
	assert.True(t, directPart(body.List[8].(*ast.AssignStmt).Rhs[0]))
	assert.False(t, directPart(body.List[9].(*ast.AssignStmt).Rhs[0]), "through another pointer")

	rs := ClosureRanges(info, body)
	assert.Len(t, rs, 2)
	assert.True(t, InRanges(loads[4].Pos(), rs))
	assert.False(t, InRanges(loads[0].Pos(), rs))

	sig := info.Defs[fd.Name].(*types.Func).Signature()
	assert.True(t, IsParamOrGlobal(sig, sig.Params().At(0)))
	g := f.Decls[1].(*ast.GenDecl).Specs[0].(*ast.ValueSpec).Names[0]
	assert.True(t, IsParamOrGlobal(nil, info.Defs[g].(*types.Var)))
	r := body.List[0].(*ast.AssignStmt).Lhs[0].(*ast.Ident)
	assert.False(t, IsParamOrGlobal(sig, info.Defs[r].(*types.Var)))
}

func TestOverlappingCallsParamGuarded(t *testing.T) {
	v := types.NewVar(0, nil, "m", types.Typ[types.Int])
	w := types.NewVar(0, nil, "w", types.Typ[types.Int])
	m := map[Loc]bool{{v, ".a.b"}: true, {v, ".a"}: true, {v, ".c"}: true, {w, ".a"}: true, {v, ".ab"}: true}
	assert.Equal(t, []Loc{{v, ".a"}, {v, ".a.b"}}, Overlapping(m, Loc{v, ".a"}))
	assert.Equal(t, []Loc{{v, ".a"}, {v, ".a.b"}}, Overlapping(m, Loc{v, ".a.b.c"}))
	assert.Len(t, Overlapping(m, Loc{v, ""}), 4)

	src := `package p

func use(int) {}

func f(cb func(int), x int) {
	cb(x)
	use(x)
	if x == 0 {
		return
	}
	use(1)
}
`
	file, info := checkSrc(t, src)
	fd := file.Decls[1].(*ast.FuncDecl)
	sig := info.Defs[fd.Name].(*types.Func).Signature()
	body := fd.Body.List
	assert.True(t, CallsParam(info, sig, body[0].(*ast.ExprStmt).X.(*ast.CallExpr)))
	assert.False(t, CallsParam(info, sig, body[1].(*ast.ExprStmt).X.(*ast.CallExpr)))
	ifs := body[2].(*ast.IfStmt)
	assert.True(t, guarded(ifs, []token.Pos{body[3].Pos()}), "after an early return")
	assert.False(t, guarded(ifs, []token.Pos{body[1].Pos()}), "before the if")
}

func TestUsedOutside(t *testing.T) {
	src := `package p

func use(int) {}

func f(a, b int) {
	use(a)
	use(b)
	_ = b
}
`
	file, info := checkSrc(t, src)
	fd := file.Decls[1].(*ast.FuncDecl)
	sig := info.Defs[fd.Name].(*types.Func).Signature()
	a, b := sig.Params().At(0), sig.Params().At(1)
	objs := map[types.Object]int{a: 0, b: 1}
	var safe []PosRange
	for _, st := range fd.Body.List[:2] {
		call := st.(*ast.ExprStmt).X.(*ast.CallExpr)
		safe = append(safe, PosRange{Pos: call.Args[0].Pos(), End: call.Args[0].End()})
	}
	assert.Equal(t, map[types.Object]bool{b: true}, usedOutside(info, fd.Body, objs, safe))

	// UsedScan answers the same, call after call.
	var scan UsedScan[int]
	assert.Equal(t, map[types.Object]bool{b: true}, scan.Of(info, fd.Body, objs, safe))
	assert.Equal(t, map[types.Object]bool{a: true, b: true}, scan.Of(info, fd.Body, objs, nil))
	assert.Equal(t, map[types.Object]bool{b: true}, scan.Of(info, fd.Body.List[2], objs, safe))
	assert.Nil(t, scan.Of(info, fd.Body.List[0], objs, safe), "a's one use is safe")
	assert.Nil(t, scan.Of(info, fd.Body, nil, safe))
}

// TestUsedScanHolds: with Holds, a read of a field that cannot carry what
// Holds accepts is no use of the variable; a field that can, the variable
// itself and a method value are.
func TestUsedScanHolds(t *testing.T) {
	src := `package p

type H uintptr

type owner struct {
	h    H
	fn   uintptr
	name string
	n    [3]int
}

func (o *owner) Close() {}

func use(...any) {}

func f(o *owner) {
	use(o.name, o.n[0])
	use(o.h)
	use(o.fn)
	use(o.Close)
	use(o)
	use((o).name)
}
`
	file, info := checkSrc(t, src)
	var fd *ast.FuncDecl
	for _, d := range file.Decls {
		if f, ok := d.(*ast.FuncDecl); ok && f.Name.Name == "f" {
			fd = f
		}
	}
	o := info.Defs[fd.Name].(*types.Func).Signature().Params().At(0)
	h := info.Defs[file.Decls[0].(*ast.GenDecl).Specs[0].(*ast.TypeSpec).Name].(*types.TypeName).Type()
	scan := UsedScan[bool]{Holds: func(t types.Type) bool { return types.Identical(t, h) }}
	objs := map[types.Object]bool{o: true}
	want := []bool{false, true, true, true, true, false}
	for i, st := range fd.Body.List {
		assert.Equal(t, want[i], scan.Of(info, st, objs, nil)[o], "statement %d", i)
	}
	var plain UsedScan[bool]
	assert.True(t, plain.Of(info, fd.Body.List[0], objs, nil)[o], "without Holds every read counts")
}
