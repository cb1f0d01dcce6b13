package flow

import (
	"go/ast"
	"go/types"
	"strings"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

const pointersSrc = `package p
import "unsafe"
type _Ctype_hipError_t uint32
type _Ctype_CUdeviceptr uint64
func _Cfunc_hipFree(p0 unsafe.Pointer) _Ctype_hipError_t { return 0 }
func _Cfunc_malloc(n uint64) unsafe.Pointer { return nil }
type Buffer struct{ ptr unsafe.Pointer; n int; dev _Ctype_CUdeviceptr }
func (b *Buffer) Ptr() unsafe.Pointer { return b.ptr }
var cache map[string]unsafe.Pointer
func use(b *Buffer, q unsafe.Pointer) {}
func f(b *Buffer, s []float32, key string, x float32) {
	_ = unsafe.Pointer(&s[0])
	_ = unsafe.Add(b.ptr, 8)
	_ = b.Ptr()
	_ = s[1:]
	_ = cache[key]
	_ = cache["y"]
	_ = cache[key+"x"]
	_ = uintptr(x)
	use(b, b.ptr)
	use(&Buffer{}, nil)
	_ = b.n
}
func g(b *Buffer, s []float32) {
	h := uintptr(b.ptr)
	v := h
	host := &s[0]
	c := _Cfunc_malloc(8)
	args := []unsafe.Pointer{unsafe.Pointer(&b.ptr)}
	args[0] = unsafe.Pointer(&s)
	_, _, _, _ = v, host, c, args
}
`

func TestPointers(t *testing.T) {
	pass, _ := fakePass(t, pointersSrc, types.NewPackage("C", "C"))
	info := pass.TypesInfo
	res, err := runGetters(pass)
	require.NoError(t, err)
	pass.ResultOf[Getters] = res
	named := func(x *ast.IndexExpr) (string, bool) { return "[" + types.ExprString(x.Index) + "]", true }
	p := &Pointers{Locator: Locator{Info: info, Index: named}}
	p.Call = func(call *ast.CallExpr) (Loc, bool) { return GetterLoc(pass, p, call) }
	f := funcDecl(pass.Files[0], "f")
	var got []string
	var calls []*ast.CallExpr
	for _, st := range f.Body.List {
		switch st := st.(type) {
		case *ast.AssignStmt:
			l, ok := p.Of(st.Rhs[0])
			got = append(got, map[bool]string{true: l.String(), false: "-"}[ok])
		case *ast.ExprStmt:
			calls = append(calls, st.X.(*ast.CallExpr))
		}
	}
	assert.Equal(t, []string{"s", "b.ptr", "b.ptr", "s", "cache[key]", `cache["y"]`, `cache[key + "x"]`, "x", "b.n"}, got)

	// At: the argument and its location; &T{} is no location, but the
	// argument is still returned.
	arg, l, ok := p.At(Ref{1, ""}, calls[0])
	assert.True(t, ok)
	assert.Equal(t, "b.ptr", types.ExprString(arg))
	assert.Equal(t, "b.ptr", l.String())
	_, l, ok = p.At(Ref{0, ".ptr"}, calls[0])
	assert.True(t, ok)
	assert.Equal(t, "b.ptr", l.String())
	arg, _, ok = p.At(Ref{0, ""}, calls[1])
	assert.False(t, ok)
	assert.NotNil(t, arg)
	arg, _, ok = p.At(Ref{Receiver, ""}, calls[0])
	assert.False(t, ok)
	assert.Nil(t, arg, "a function call has no receiver")

	// GlobalRef: cache[key] in f is cache[p2] for f's callers; a constant
	// index stays; an index that is no parameter cannot be named.
	sig := info.Defs[f.Name].(*types.Func).Signature()
	gl, _ := p.Of(f.Body.List[4].(*ast.AssignStmt).Rhs[0])
	g, ok := GlobalRefOf(pass.Pkg, sig, gl)
	require.True(t, ok)
	assert.Equal(t, "g.cache[p2]", g.String())
	gl, _ = p.Of(f.Body.List[5].(*ast.AssignStmt).Rhs[0])
	g2, ok := GlobalRefOf(pass.Pkg, sig, gl)
	require.True(t, ok)
	assert.Equal(t, `g.cache["y"]`, g2.String())
	gl, _ = p.Of(f.Body.List[6].(*ast.AssignStmt).Rhs[0])
	_, ok = GlobalRefOf(pass.Pkg, sig, gl)
	assert.False(t, ok)
	_, ok = GlobalRefOf(pass.Pkg, sig, Loc{Root: sig.Params().At(0), Path: ".ptr"})
	assert.False(t, ok, "a parameter is no global")
	// At a call use(b, b.ptr), p1 is written b.ptr.
	at, ok := GlobalRef{Name: "cache", Path: "[p1]"}.At(pass.Pkg, calls[0])
	require.True(t, ok)
	assert.Equal(t, "cache[b.ptr]", at.String())
	_, ok = GlobalRef{Name: "cache", Path: "[p5]"}.At(pass.Pkg, calls[0])
	assert.False(t, ok)
	assert.True(t, GlobalRef{}.IsZero())

	// Field and type helpers.
	assert.Equal(t, []string{".a", "[k]", ".b", "[]"}, segments(".a[k].b[]"))
	assert.Equal(t, "ptr", fieldOf(Loc{sig.Params().At(0), ".ptr"}).Name())
	assert.Nil(t, fieldOf(Loc{sig.Params().At(0), ""}))
	assert.Nil(t, fieldOf(Loc{sig.Params().At(0), ".nope"}))
	assert.Equal(t, "n", fieldOrGlobal(info, f.Body.List[len(f.Body.List)-1].(*ast.AssignStmt).Rhs[0]).Name())
	cacheUse := f.Body.List[4].(*ast.AssignStmt).Rhs[0].(*ast.IndexExpr).X
	assert.Equal(t, "cache", fieldOrGlobal(info, cacheUse).Name())
	assert.Nil(t, fieldOrGlobal(info, ast.NewIdent("key")))
	buf := pass.Pkg.Scope().Lookup("Buffer").Type()
	assert.True(t, HoldsPointer(buf))
	assert.True(t, HoldsPointer(types.NewPointer(types.Typ[types.Int])))
	assert.False(t, HoldsPointer(types.Typ[types.Uintptr]))
	assert.False(t, HoldsPointer(types.NewSlice(types.Typ[types.Int])))
	assert.True(t, isUintptr(types.Typ[types.Uintptr]))
	assert.True(t, SameElems([]int{1, 2, 2}, []int{2, 1, 2}))
	assert.False(t, SameElems([]int{1, 1, 2}, []int{1, 2, 2}))
	assert.True(t, isBuiltin(info, f.Body.List[1].(*ast.AssignStmt).Rhs[0].(*ast.CallExpr), "Add"))
	assert.True(t, IsConversion(info, f.Body.List[0].(*ast.AssignStmt).Rhs[0].(*ast.CallExpr)))
}

func TestAliases(t *testing.T) {
	a, b, c, d := Loc{Path: "a"}, Loc{Path: "b"}, Loc{Path: "c"}, Loc{Path: "d"}
	al := Aliases{}
	al.Add(a, b)
	al.Add(b, c)
	al.Add(d, d)
	assert.Equal(t, []Loc{a, b, c}, al.Of(a))
	assert.Equal(t, []Loc{c, b, a}, al.Of(c))
	assert.Equal(t, []Loc{d}, al.Of(d))
	v := types.NewVar(0, nil, "_cgo0", types.Typ[types.Int])
	assert.True(t, IsCgoTemp(Loc{Root: v}))
	assert.False(t, IsCgoTemp(Loc{Root: v, Path: ".f"}))
}

func TestProvenance(t *testing.T) {
	pass, _ := fakePass(t, pointersSrc)
	info := pass.TypesInfo
	x := NewIndex(pass.Fset, pass.Files, info)
	p := Pointers{Locator: Locator{Info: info}}
	g := funcDecl(pass.Files[0], "g")
	prov := ScanProvenance(x, p, g.Body, func(l Loc) bool { return l.Root.Name() == "v" })
	loc := func(name string) Loc {
		for id, obj := range info.Defs {
			if id.Name == name && obj != nil && g.Body.Pos() <= id.Pos() && id.Pos() < g.Body.End() {
				return Loc{Root: obj}
			}
		}
		t.Fatalf("no %s", name)
		return Loc{}
	}
	b := Loc{Root: info.Defs[g.Type.Params.List[0].Names[0]]}
	var names []string
	for _, l := range prov.Aliases.Of(b.Field("ptr")) {
		names = append(names, l.String())
	}
	assert.Equal(t, []string{"b.ptr", "h", "v"}, names, "views of b.ptr")
	from, ok := prov.CopyOf(loc("v"))
	assert.True(t, ok)
	assert.Equal(t, "h", from.String())
	_, ok = prov.CopyOf(loc("h"))
	assert.False(t, ok, "h is not tracked")
	host := g.Body.List[2].(*ast.AssignStmt).Lhs[0]
	assert.True(t, prov.IsHost(host), "&s[0] is Go memory")
	assert.True(t, prov.IsHost(g.Body.List[3].(*ast.AssignStmt).Lhs[0]), "C.malloc")
	assert.False(t, prov.IsHost(g.Body.List[0].(*ast.AssignStmt).Lhs[0]))
	var mentioned []string
	for _, m := range prov.Mentions(g.Body.List[5].(*ast.AssignStmt).Lhs[0].(*ast.IndexExpr).X) {
		mentioned = append(mentioned, m.Loc.String())
	}
	// The literal's elements are seen on both scans (as they always were).
	assert.Equal(t, "args b.ptr s b.ptr", strings.Join(mentioned, " "), "the values stored in args")
}

func TestLineBefore(t *testing.T) {
	src := "package p\nfunc f(a, b int) int {\n\tif a > 0 {\n\t\tb = a\n\t}\n\ta++; b++\n\treturn b\n}\n"
	pass, _ := fakePass(t, src)
	f := funcDecl(pass.Files[0], "f")
	ifs := f.Body.List[0].(*ast.IfStmt)
	inner := ifs.Body.List[0].(*ast.AssignStmt).Rhs[0]
	edit, stmt, ok := LineBefore(pass.Fset, f.Body, inner, "sync()")
	require.True(t, ok)
	assert.Equal(t, ifs.Body.List[0], stmt)
	assert.Equal(t, "\t\tsync()\n", string(edit.NewText))
	assert.Equal(t, 4, pass.Fset.Position(edit.Pos).Line)
	assert.Equal(t, edit.Pos, edit.End)
	// b++ shares its line with a++: no line of its own before it.
	_, _, ok = LineBefore(pass.Fset, f.Body, f.Body.List[2], "sync()")
	assert.False(t, ok)
	_, _, ok = LineBefore(pass.Fset, f.Body, ast.NewIdent("x"), "sync()")
	assert.False(t, ok, "a node outside the body")
}

func funcDecl(f *ast.File, name string) *ast.FuncDecl {
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == name {
			return fd
		}
	}
	return nil
}
