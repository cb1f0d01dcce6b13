package graphfree

import (
	"go/ast"
	"go/types"
	"sort"
	"testing"

	"github.com/hiplint/hiplint/internal/flow"
	"github.com/hiplint/hiplint/internal/testenv/assert"
)

func TestWritesTargetAddressed(t *testing.T) {
	src := `package p
import "runtime"
type T struct{ f, g *int; h int }
func set(**int) {}
func f(t *T, v *int) {
	t.f = v
	t.h += 1
	a, b := two()
	_ = T{g: v}
	set(&t.g)
	func() { t.h = 2 }()
	var pin runtime.Pinner
	pin.Pin(v)
	_, _ = a, b
}
func two() (int, int) { return 1, 2 }
`
	pass, _ := fakePass(t, src)
	info := pass.TypesInfo
	var got []string
	writesOf(info, funcsOf(pass), func(w write) {
		s := w.Target.Name() + "="
		switch {
		case w.Addr != nil:
			s += "&"
		case w.Value == nil:
			s += "?"
		default:
			s += types.ExprString(w.Value)
		}
		got = append(got, s)
	})
	sort.Strings(got)
	// t.h = 2 is the literal's own write (funcs has it), not f's as well.
	assert.Equal(t, []string{"a=?", "b=?", "f=v", "g=&", "g=v", "h=2", "h=?"}, got)

	fd := pass.Files[0].Decls[3].(*ast.FuncDecl)
	lc := flow.Locator{Info: info}
	call := fd.Body.List[4].(*ast.ExprStmt).X.(*ast.CallExpr) // set(&t.g)
	l, ok := lc.Target(call.Args[0])
	assert.True(t, ok)
	assert.Equal(t, "t.g", l.String())
	l, ok = lc.Target(ast.NewIdent("unknown"))
	assert.False(t, ok, l.String())
	addressed := lc.Addressed(call.Args)
	if assert.Len(t, addressed, 1) {
		assert.Equal(t, "t.g", addressed[0].String())
	}
	pin := fd.Body.List[7].(*ast.ExprStmt).X.(*ast.CallExpr)
	assert.True(t, readsOnly(flow.Callee(info, pin)), "runtime.Pinner.Pin")
	assert.False(t, readsOnly(flow.Callee(info, call)))
}

// TestAtExits: each normal exit once, from its fixpoint state; panics are
// not exits.
func TestAtExits(t *testing.T) {
	src := "package p\nfunc f(c, d bool) int {\n\tif c {\n\t\treturn 1\n\t}\n\tif d {\n\t\tpanic(0)\n\t}\n\tx := 2\n\t_ = x\n\treturn 3\n}\n"
	pass, _ := fakePass(t, src)
	body := pass.Files[0].Decls[0].(*ast.FuncDecl).Body
	g := flow.CFG(pass.TypesInfo, body)
	p := flow.Problem[int]{
		Clone: func(n int) int { return n },
		Join:  func(a, b int) int { return max(a, b) },
		Equal: func(a, b int) bool { return a == b },
		Transfer: func(n ast.Node, s int) int {
			if _, ok := n.(*ast.AssignStmt); ok {
				return s + 1
			}
			return s
		},
	}
	in := flow.Solve(g, p)
	var exits []int
	flow.AtExits(pass.TypesInfo, g, in, p, func(s int) { exits = append(exits, s) })
	sort.Ints(exits)
	assert.Equal(t, []int{0, 2}, exits, "return 1 before any assignment, return 3 after both")

	// ReplayExits: the same exit states, from the reporting walk itself;
	// every node reported once, each exit after its block's reports.
	var replayed []int
	nodes, transfers := 0, 0
	counting := p
	counting.Transfer = func(n ast.Node, s int) int { transfers++; return p.Transfer(n, s) }
	flow.ReplayExits(pass.TypesInfo, g, in, counting, func(ast.Node, int) { nodes++ }, func(s int) {
		replayed = append(replayed, s)
	})
	sort.Ints(replayed)
	assert.Equal(t, exits, replayed)
	assert.Equal(t, nodes, transfers, "no block walked twice")
	nodes = 0
	flow.Replay(g, in, p, func(ast.Node, int) { nodes++ })
	assert.Equal(t, transfers, nodes, "Replay reports what ReplayExits does")
}

// TestCalls: Effects without C and Read walks the calls alone: inner calls
// and arguments before the call, literals not walked.
func TestCalls(t *testing.T) {
	src := `package p
func f(int) int { return 0 }
func g(func()) int { return 0 }
func h() func(int) int { return f }
func use() {
	_ = h()(f(f(1)) + g(func() { f(2) }))
}
`
	pass, _ := fakePass(t, src)
	x := flow.NewIndex(pass.Fset, pass.Files, pass.TypesInfo)
	body := pass.Files[0].Decls[3].(*ast.FuncDecl).Body
	var got []string
	w := flow.Effects[int]{Index: x, Lit: func(*ast.FuncLit, int) { got = append(got, "lit") }, Other: func(call *ast.CallExpr, depth int) {
		got = append(got, types.ExprString(call))
	}}
	w.Walk(body, 0)
	assert.Equal(t, []string{"h()", "f(1)", "f(f(1))", "lit", "g((func() literal))", "h()(f(f(1)) + g((func() literal)))"}, got)
}

// TestReturned: a bare return reads the named results, return f() each of
// f's results.
func TestReturned(t *testing.T) {
	src := `package p
func two() (*int, *int) { return nil, nil }
func named(p *int) (r *int, q *int) { r = p; return }
func call() (*int, *int) { return two() }
`
	pass, _ := fakePass(t, src)
	pass.ResultOf[flow.Getters] = &flow.GetterResult{}
	info := pass.TypesInfo
	var store valueStore[ints]
	ev := evaluator[*valueStore[ints], ints]{Pass: pass, Locator: flow.Locator{Info: info},
		Store: func(s *valueStore[ints]) *valueStore[ints] { return s },
		Call: func(call *ast.CallExpr, i int, _ *valueStore[ints]) (storeTree[ints], bool) {
			return storeTree[ints]{"": {10 + i}}, true
		},
	}
	named := pass.Files[0].Decls[1].(*ast.FuncDecl)
	sig := info.Defs[named.Name].(*types.Func).Signature()
	store.Set(flow.Loc{Root: sig.Results().At(0)}, storeTree[ints]{"": {1}})
	got := ev.Returned(sig, named.Body.List[1].(*ast.ReturnStmt), &store)
	assert.Equal(t, []storeTree[ints]{{"": {1}}, {}}, got)
	call := pass.Files[0].Decls[2].(*ast.FuncDecl)
	got = ev.Returned(info.Defs[call.Name].(*types.Func).Signature(), call.Body.List[0].(*ast.ReturnStmt), &store)
	assert.Equal(t, []storeTree[ints]{{"": {10}}, {"": {11}}}, got)
}

// TestFirstCallArgLoc: FirstCall with InPlaceOrWrapper sees in-place
// closures but not others; ArgLoc sees through conversions, & and getters.
func TestFirstCallArgLoc(t *testing.T) {
	src := `package p
import "unsafe"
type B struct{ ptr unsafe.Pointer; xs []unsafe.Pointer }
func (b *B) Ptr() unsafe.Pointer { return b.ptr }
func do(f func()) { f() }
func mark() {}
func inPlace() { do(func() { mark() }) }
func later() { go func() { mark() }() }
func args(b *B, p unsafe.Pointer) {
	use(uintptr(p), &b.ptr, b.Ptr(), b.xs[0])
}
func use(...any) {}
`
	pass, _ := fakePass(t, src)
	info := pass.TypesInfo
	x := flow.NewIndex(pass.Fset, pass.Files, info)
	x.Funcs() // builds the index
	ptr := lookupMethod(t, pass, "B", "Ptr")
	pass.ResultOf[flow.Getters] = &flow.GetterResult{Getters: map[*types.Func]flow.Ref{ptr: {Param: flow.Receiver, Path: ".ptr"}}}
	body := func(i int) *ast.BlockStmt { return pass.Files[0].Decls[i].(*ast.FuncDecl).Body }
	callsMark := func(call *ast.CallExpr) bool {
		fn := flow.Callee(info, call)
		return fn != nil && fn.Name() == "mark"
	}
	assert.NotNil(t, flow.FirstCall(body(5), x.InPlaceOrWrapper, callsMark), "do's closure runs in place")
	assert.Nil(t, flow.FirstCall(body(6), x.InPlaceOrWrapper, callsMark), "a goroutine's closure is another function")

	call := body(7).List[0].(*ast.ExprStmt).X.(*ast.CallExpr)
	lc := flow.Locator{Info: info}
	var got []string
	for _, a := range call.Args {
		if l, ok := argLoc(pass, lc, a, ".f"); ok {
			got = append(got, l.String())
		} else {
			got = append(got, "-")
		}
	}
	assert.Equal(t, []string{"p.f", "b.ptr.f", "b.ptr.f", "-"}, got)
}

func TestLoopsAndSides(t *testing.T) {
	src := "package p\nfunc f(xs []int) {\n\tfor i := 0; i < 2; i++ {\n\t}\n\tfor k, v := range xs {\n\t\t_, _ = k, v\n\t}\n\tvar a, b = 1, 2\n\ta += b\n}\n"
	pass, _ := fakePass(t, src)
	body := pass.Files[0].Decls[0].(*ast.FuncDecl).Body
	x := flow.NewIndex(pass.Fset, pass.Files, pass.TypesInfo)
	loops, rangeOf := x.Loops(body)
	assert.Len(t, loops, 2)
	rs := body.List[1].(*ast.RangeStmt)
	assert.Equal(t, map[ast.Expr]*ast.RangeStmt{rs.Key: rs, rs.Value: rs}, rangeOf)
	assert.True(t, loops[1].Contains(rs.Body.Pos()))
	lhs, rhs, ok := flow.Sides(body.List[2].(*ast.DeclStmt).Decl.(*ast.GenDecl).Specs[0])
	assert.True(t, ok)
	assert.Len(t, lhs, 2)
	assert.Len(t, rhs, 2)
	_, _, ok = flow.Sides(body.List[3])
	assert.True(t, ok, "an operator assignment has sides")
	n := 0
	flow.Assigned(body.List[3], func(ast.Expr, ast.Expr, int) { n++ })
	assert.Zero(t, n, "but assigns nothing new")
}

func TestFieldAt(t *testing.T) {
	src := "package p\nimport \"unsafe\"\ntype B struct{ ptr unsafe.Pointer; in struct{ p *int } }\nfunc f(b *B) {\n\t_ = uintptr(b.ptr)\n\t_ = b\n}\n"
	pass, _ := fakePass(t, src)
	body := pass.Files[0].Decls[2].(*ast.FuncDecl).Body
	conv := body.List[0].(*ast.AssignStmt).Rhs[0]
	b := body.List[1].(*ast.AssignStmt).Rhs[0]
	info := pass.TypesInfo
	assert.Equal(t, "ptr", fieldAt(info, pass.Pkg, conv, "").Name(), "under a conversion")
	assert.Equal(t, "ptr", fieldAt(info, pass.Pkg, b, ".ptr").Name())
	assert.Nil(t, fieldAt(info, pass.Pkg, b, ".in.p"), "one field deep only")
	assert.Nil(t, fieldAt(info, pass.Pkg, b, ""), "b selects no field")
}
