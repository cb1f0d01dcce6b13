package flow

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv"
	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
	"golang.org/x/tools/go/analysis"
)

var fakePass = testenv.FakePass

func funcsOf(pass *analysis.Pass) []Func {
	x := NewIndex(pass.Fset, pass.Files, pass.TypesInfo)
	return x.Funcs()
}

// reaches is a summary: whether a function calls leaf, directly or not.
type reaches struct{ Yes bool }

func (*reaches) AFact() {}

// chainSrc declares callers before callees: a round-based fixpoint needs one
// round per link; callees first needs one analysis per function.
func chainSrc(n int) string {
	var b strings.Builder
	b.WriteString("package p\n\n")
	for i := range n {
		fmt.Fprintf(&b, "func f%d() { f%d() }\n", i, i+1)
	}
	fmt.Fprintf(&b, "func f%d() { leaf() }\nfunc leaf() {}\n", n)
	return b.String()
}

func solveReaches(t *testing.T, src string) (map[string]int, map[string]bool, *Table[reaches, *reaches]) {
	pass, _ := fakePass(t, src)
	funcs := funcsOf(pass)
	tab := NewTable[reaches](pass, nil)
	analyses := map[string]int{}
	s := Summaries[reaches]{
		Pass: pass, Index: NewIndex(pass.Fset, pass.Files, pass.TypesInfo),
		Analyze: func(fn Func) reaches {
			analyses[fn.Decl.Name.Name]++
			var r reaches
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok {
					callee := Callee(pass.TypesInfo, call)
					if callee != nil && callee.Name() == "leaf" {
						r.Yes = true
					}
					if s, ok := tab.Of(callee); ok && s.Yes {
						r.Yes = true
					}
				}
				return true
			})
			return r
		},
		Update: func(obj *types.Func, r reaches) bool { return tab.Set(obj, r) },
	}
	final, ok := s.Solve(funcs)
	done := map[string]bool{}
	for i, fn := range funcs {
		if ok[i] {
			done[fn.Decl.Name.Name] = final[i].Yes
		}
	}
	return analyses, done, tab
}

func TestSummariesCalleesFirst(t *testing.T) {
	analyses, done, _ := solveReaches(t, chainSrc(40))
	for i := range 41 {
		name := fmt.Sprintf("f%d", i)
		assert.Equal(t, 1, analyses[name], name)
		assert.True(t, done[name], name)
	}
	assert.False(t, done["leaf"])
}

func TestSummariesRecursion(t *testing.T) {
	// p and q call each other; q reaches leaf. Both end with the summary,
	// within the bound, and are final.
	src := "package p\nfunc p() { q() }\nfunc q() { p(); leaf() }\nfunc leaf() {}\nfunc r() { r() }\n"
	analyses, done, tab := solveReaches(t, src)
	assert.True(t, done["p"])
	assert.True(t, done["q"])
	assert.False(t, done["r"])
	for name, n := range analyses {
		assert.LessOrEqual(t, n, maxAnalyses, name)
	}
	_, has := tab.Local(lookupFunc(t, tab.pass, "r"))
	assert.False(t, has, "an empty summary is not stored")
}

// TestSummariesBound: a summary that never settles is cut off at
// MaxAnalyses and is not final.
func TestSummariesBound(t *testing.T) {
	pass, _ := fakePass(t, "package p\nfunc a() { a(); b() }\nfunc b() { a() }\nfunc c() {}\n")
	funcs := funcsOf(pass)
	count := map[string]int{}
	s := Summaries[int]{
		Pass: pass, Index: NewIndex(pass.Fset, pass.Files, pass.TypesInfo),
		Analyze: func(fn Func) int {
			count[fn.Decl.Name.Name]++
			return count[fn.Decl.Name.Name]
		},
		Update: func(obj *types.Func, n int) bool { return obj.Name() != "c" }, // a and b always change
	}
	_, ok := s.Solve(funcs)
	assert.Equal(t, maxAnalyses, count["a"])
	assert.LessOrEqual(t, count["b"], maxAnalyses)
	assert.Equal(t, 1, count["c"])
	// a's summary was still changing when it was cut off: not final. b's
	// last analysis read a's last summary: final.
	for i, fn := range funcs {
		assert.Equal(t, fn.Decl.Name.Name != "a", ok[i], fn.Decl.Name.Name)
	}
}

func lookupFunc(t *testing.T, pass *analysis.Pass, name string) *types.Func {
	fn, ok := pass.Pkg.Scope().Lookup(name).(*types.Func)
	require.True(t, ok, name)
	return fn
}

type frees struct{ Refs []Ref }

func (*frees) AFact() {}

func TestTable(t *testing.T) {
	src := `package p
type I interface{ Close() }
type A struct{}
func (A) Close() {}
type B struct{}
func (B) Close() {}
func f() {}
`
	pass, facts := fakePass(t, src)
	tab := NewTable[frees](pass, NewImpls(pass))
	tab.Meet = func(fs []frees) frees { // refs every implementation frees
		if len(fs) == 0 {
			return frees{}
		}
		out := fs[0]
		for _, f := range fs[1:] {
			if len(f.Refs) == 0 {
				return frees{}
			}
		}
		return out
	}
	f := lookupFunc(t, pass, "f")
	_, ok := tab.Of(f)
	assert.False(t, ok)
	assert.False(t, tab.Set(f, frees{Refs: []Ref{}}), "an empty summary is no change")
	assert.True(t, tab.Set(f, frees{Refs: []Ref{{Receiver, ".h"}}}))
	assert.False(t, tab.Set(f, frees{Refs: []Ref{{Receiver, ".h"}}}), "equal by value")
	got, ok := tab.Of(f)
	assert.True(t, ok)
	assert.Equal(t, "r.h", got.Refs[0].String())

	method := func(typ string) *types.Func {
		obj, _, _ := types.LookupFieldOrMethod(pass.Pkg.Scope().Lookup(typ).Type(), true, pass.Pkg, "Close")
		return obj.(*types.Func)
	}
	iface := method("I")
	tab.Set(method("A"), frees{Refs: []Ref{{Receiver, ".h"}}})
	_, ok = tab.Of(iface)
	assert.False(t, ok, "B frees nothing: the meet is empty")
	tab.Set(method("B"), frees{Refs: []Ref{{Receiver, ".h"}}})
	got, ok = tab.Of(iface)
	assert.True(t, ok)
	assert.Equal(t, []Ref{{Receiver, ".h"}}, got.Refs)

	tab.Export([]*types.Func{f, iface})
	require.Len(t, facts[f], 1)
	assert.Empty(t, facts[iface], "only this package's own summaries are exported")
}

func TestRef(t *testing.T) {
	for _, s := range []string{"p0", "p12.buf.ptr", "r", "r.ptr", "p1[]"} {
		r, err := parseRef(s)
		require.NoError(t, err, s)
		assert.Equal(t, s, r.String())
	}
	for _, s := range []string{"", "x0", "p", "p.f"} {
		_, err := parseRef(s)
		assert.Error(t, err, s)
	}
	assert.True(t, pathWithin(".a.b", ".a"))
	assert.True(t, pathWithin(".a[]", ".a"))
	assert.False(t, pathWithin(".ab", ".a"))
}

func TestLocatorAndRefAt(t *testing.T) {
	src := `package p
import "unsafe"
type buf struct{ ptr unsafe.Pointer; bufs []unsafe.Pointer; inner *buf }
type I interface{ M() }
type holder struct{ I }
var global buf
func use(b *buf, q unsafe.Pointer) {}
func (b *buf) meth(n int) {}
func f(b *buf, h holder, m map[string]*buf) {
	_ = b.ptr
	_ = (*b).inner.ptr
	_ = b.bufs[3]
	_ = global.ptr
	_ = m["k"].ptr
	use(b.inner, b.ptr)
	b.inner.meth(1)
	use(&global, nil)
}
`
	pass, _ := fakePass(t, src)
	info := pass.TypesInfo
	fd := pass.Files[0].Decls[len(pass.Files[0].Decls)-1].(*ast.FuncDecl)
	lc := Locator{Info: info}
	var got []string
	var calls []*ast.CallExpr
	for _, st := range fd.Body.List {
		switch st := st.(type) {
		case *ast.AssignStmt:
			l, ok := lc.Of(st.Rhs[0])
			require.True(t, ok, types.ExprString(st.Rhs[0]))
			got = append(got, l.String())
		case *ast.ExprStmt:
			calls = append(calls, st.X.(*ast.CallExpr))
		}
	}
	assert.Equal(t, []string{"b.ptr", "b.inner.ptr", "b.bufs[]", "global.ptr", "m[].ptr"}, got)

	named := Locator{Info: info, Index: func(x *ast.IndexExpr) (string, bool) {
		return "[" + types.ExprString(x.Index) + "]", true
	}}
	l, _ := named.Of(fd.Body.List[2].(*ast.AssignStmt).Rhs[0])
	assert.Equal(t, "b.bufs[3]", l.String())
	assert.True(t, l.Weak())
	assert.True(t, l.Under(Loc{l.Root, ".bufs"}))

	// Refs at calls: use(b.inner, b.ptr) gives p0 = b.inner, p1.x = b.ptr.x;
	// b.inner.meth(1): the receiver is b.inner; use(&global, nil): &x is x.
	at := func(call *ast.CallExpr, r Ref) string {
		l, ok := r.At(lc, call)
		if !ok {
			return "-"
		}
		return l.String()
	}
	assert.Equal(t, "b.inner.ptr", at(calls[0], Ref{0, ".ptr"}))
	assert.Equal(t, "b.ptr", at(calls[0], Ref{1, ""}))
	assert.Equal(t, "-", at(calls[0], Ref{Receiver, ""}), "a function call has no receiver")
	assert.Equal(t, "-", at(calls[0], Ref{2, ""}))
	assert.Equal(t, "b.inner", at(calls[1], Ref{Receiver, ""}))
	assert.Equal(t, "global.ptr", at(calls[2], Ref{0, ".ptr"}))
	assert.Equal(t, "-", at(calls[2], Ref{1, ""}), "nil is no location")

	// RefOf: b.ptr in f is p0.ptr; global is no parameter.
	sig := info.Defs[fd.Name].(*types.Func).Signature()
	l, _ = lc.Of(fd.Body.List[0].(*ast.AssignStmt).Rhs[0])
	r, ok := RefOf(sig, l)
	assert.True(t, ok)
	assert.Equal(t, "p0.ptr", r.String())
	l, _ = lc.Of(fd.Body.List[3].(*ast.AssignStmt).Rhs[0])
	_, ok = RefOf(sig, l)
	assert.False(t, ok)

	// Keep restricts roots; methods and interface fields are no locations.
	locals := Locator{Info: info, Keep: func(v *types.Var) bool { return v.Parent() != pass.Pkg.Scope() }}
	_, ok = locals.Of(fd.Body.List[3].(*ast.AssignStmt).Rhs[0])
	assert.False(t, ok, "global is not kept")
}

func TestGetters(t *testing.T) {
	src := `package p
import "unsafe"
type _Ctype_hipError_t uint32
func _Cfunc_hipFree(p0 unsafe.Pointer) _Ctype_hipError_t { return 0 }
type Buffer struct{ ptr unsafe.Pointer; n int; inner struct{ dev uintptr } }
func (b *Buffer) Ptr() unsafe.Pointer { return b.ptr }
func (b *Buffer) Values() []float32 { return unsafe.Slice((*float32)(b.ptr), b.n) }
func (b Buffer) Dev() uintptr { return b.inner.dev }
func Of(b *Buffer) unsafe.Pointer { return b.ptr }
func (b *Buffer) Len() int { return b.n }
func (b *Buffer) Two() unsafe.Pointer { p := b.ptr; return p }
func Free(b *Buffer) { _Cfunc_hipFree(b.ptr) }
`
	pass, facts := fakePass(t, src, types.NewPackage("C", "C"))
	res, err := runGetters(pass)
	require.NoError(t, err)
	gr := res.(*GetterResult)
	assert.True(t, gr.Involved)
	got := map[string]string{}
	for fn, r := range gr.Getters {
		got[fn.Name()] = r.String()
		require.Len(t, facts[fn], 1)
		assert.Equal(t, "returnsField("+r.String()+")", facts[fn][0].(*ReturnsField).String())
	}
	assert.Equal(t, map[string]string{"Ptr": "r.ptr", "Values": "r.ptr", "Dev": "r.inner.dev", "Of": "p0.ptr"}, got)

	pass.ResultOf[Getters] = gr
	r, ok := GetterOf(pass, lookupMethod(t, pass, "Buffer", "Ptr"))
	assert.True(t, ok)
	assert.Equal(t, Ref{Receiver, ".ptr"}, r)
	_, ok = GetterOf(pass, lookupMethod(t, pass, "Buffer", "Len"))
	assert.False(t, ok, "an int holds no address")
	assert.True(t, IsInvolved(pass))

	// A package that neither calls the runtime nor imports one that does:
	// no getters, nothing exported.
	pure, facts := fakePass(t, "package p\ntype B struct{ p *int }\nfunc (b B) P() *int { return b.p }\n")
	res, err = runGetters(pure)
	require.NoError(t, err)
	assert.False(t, res.(*GetterResult).Involved)
	assert.Empty(t, facts)
}

func lookupMethod(t *testing.T, pass *analysis.Pass, typ, name string) *types.Func {
	obj, _, _ := types.LookupFieldOrMethod(pass.Pkg.Scope().Lookup(typ).Type(), true, pass.Pkg, name)
	fn, ok := obj.(*types.Func)
	require.True(t, ok, name)
	return fn
}

// TestReplay: the reporting pass sees each node of each reachable block
// once, with the fixpoint state before it, and leaves the solution as it
// was.
func TestReplay(t *testing.T) {
	src := "package p\nfunc f(c bool) int {\n\tx := 0\n\tif c {\n\t\tx = 1\n\t}\n\treturn x\n}\n"
	pass, _ := fakePass(t, src)
	body := pass.Files[0].Decls[0].(*ast.FuncDecl).Body
	g := CFG(pass.TypesInfo, body)
	// The state: the set of assignment lines that may have run.
	p := Problem[map[int]bool]{
		Entry: map[int]bool{},
		Clone: func(m map[int]bool) map[int]bool {
			out := map[int]bool{}
			for k := range m {
				out[k] = true
			}
			return out
		},
		Join: func(into, from map[int]bool) map[int]bool {
			for k := range from {
				into[k] = true
			}
			return into
		},
		Equal: func(a, b map[int]bool) bool { return len(a) == len(b) },
		Transfer: func(n ast.Node, s map[int]bool) map[int]bool {
			if _, ok := n.(*ast.AssignStmt); ok {
				s[pass.Fset.Position(n.Pos()).Line] = true
			}
			return s
		},
	}
	in := Solve(g, p)
	seen := map[string]int{}
	Replay(g, in, p, func(n ast.Node, s map[int]bool) {
		if ret, ok := n.(*ast.ReturnStmt); ok {
			seen[types.ExprString(ret.Results[0])] = len(s)
		}
		seen["nodes"]++
	})
	assert.Equal(t, 2, seen["x"], "the return is reached by both assignments")
	assert.Equal(t, 4, seen["nodes"]) // x := 0, c, x = 1, return x
	for _, s := range in.All() {
		assert.LessOrEqual(t, len(s), 2, "the solution is unchanged")
	}
}

// TestTableCachesImported: an imported summary is read from the facts
// once, however often it is asked for (each read allocates a fresh fact).
func TestTableCachesImported(t *testing.T) {
	pass, _ := fakePass(t, "package p\nimport \"strings\"\nvar _ = strings.ToUpper\n")
	reads := 0
	pass.ImportObjectFact = func(obj types.Object, fact analysis.Fact) bool {
		reads++
		if obj.Name() != "ToUpper" {
			return false
		}
		fact.(*frees).Refs = []Ref{{0, ""}}
		return true
	}
	tab := NewTable[frees](pass, nil)
	strs := pass.Pkg.Imports()[0]
	up := strs.Scope().Lookup("ToUpper").(*types.Func)
	low := strs.Scope().Lookup("ToLower").(*types.Func)
	for range 3 {
		f, ok := tab.Of(up)
		assert.True(t, ok)
		assert.Equal(t, []Ref{{0, ""}}, f.Refs)
		_, ok = tab.Of(low)
		assert.False(t, ok)
	}
	assert.Equal(t, 2, reads)
}

// TestGettersTier3: at tier 3 (cgo failed, "C" a fake package) a getter's
// C-typed result has no type; it may hold an address all the same, so
// `func (s Stream) handle() C.CUstream { return s.h }` is a getter there
// as it is with cgo's types. It was not (found by the forced tier-3 run of
// the testdata, on memcpysync/streamtype).
func TestGettersTier3(t *testing.T) {
	src := `package p

// #include <cuda.h>
import "C"

type Stream struct{ h C.CUstream }

func (s Stream) handle() C.CUstream { return s.h }

func (s Stream) count() C.int { return C.int(0) }

func Sync(s Stream) { C.cuStreamSynchronize(s.handle()) }
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
	require.NoError(t, err)
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{},
		Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	pkg, err := (&types.Config{Importer: importer.Default(), FakeImportC: true}).Check("p", fset, []*ast.File{f}, info)
	require.NoError(t, err)
	pass := &analysis.Pass{
		Fset: fset, Files: []*ast.File{f}, Pkg: pkg, TypesInfo: info,
		ResultOf:          map[*analysis.Analyzer]any{},
		ExportObjectFact:  func(types.Object, analysis.Fact) {},
		ImportObjectFact:  func(types.Object, analysis.Fact) bool { return false },
		ExportPackageFact: func(analysis.Fact) {},
		ImportPackageFact: func(*types.Package, analysis.Fact) bool { return false },
		AllObjectFacts:    func() []analysis.ObjectFact { return nil },
	}
	res, err := runGetters(pass)
	require.NoError(t, err)
	got := map[string]string{}
	for fn, r := range res.(*GetterResult).Getters {
		got[fn.Name()] = r.String()
	}
	assert.Equal(t, map[string]string{"handle": "r.h"}, got, "count returns no field")
}
