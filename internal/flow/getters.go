package flow

import (
	"go/ast"
	"go/types"
	"reflect"
	"sync"

	"github.com/hiplint/hiplint/internal/cgocall"
	"golang.org/x/tools/go/analysis"
)

// ReturnsField is the fact that a function is a getter: its one result is
// what a parameter or the receiver holds at a field path, possibly viewed
// through conversions, slicing, unsafe.Slice or unsafe.Add. For example
// func (b *Buffer) Ptr() unsafe.Pointer { return b.ptr } returns r.ptr, so
// that b.Ptr() names b.ptr's memory for every analyzer.
type ReturnsField struct{ Ref Ref }

func (*ReturnsField) AFact()           {}
func (f *ReturnsField) String() string { return "returnsField(" + f.Ref.String() + ")" }

// Getters recognizes getters and exports ReturnsField facts. It is the one
// getter recognition under the analyzers, which require it and read its
// facts through GetterOf.
var Getters = &analysis.Analyzer{
	Name:       "hipgetters",
	Doc:        "recognizes getters (return p.f) for hiplint's analyzers; reports nothing",
	Run:        runGetters,
	FactTypes:  []analysis.Fact{new(ReturnsField), new(Involved)},
	ResultType: reflect.TypeFor[*GetterResult](),
}

// Involved is the package fact that a package calls the GPU runtime or
// imports a package that does.
type Involved struct{}

func (*Involved) AFact()         {}
func (*Involved) String() string { return "involved" }

// GetterResult is what Getters gives the analyzers of the same package.
type GetterResult struct {
	// Involved: the package calls the runtime or imports, directly or not,
	// a package that does. Others need no analysis.
	Involved bool
	Getters  map[*types.Func]Ref
	// PkgVars: the getters of the package that take no argument and
	// return what a package-level variable holds (func Scratch() *Tensor
	// { return scratch }), by the variable's location. Of this package
	// only: no fact carries them.
	PkgVars map[*types.Func]Loc
	// imported reads an imported function's ReturnsField fact through
	// Getters' own pass: an analyzer's pass sees only the facts of its own
	// analyzer on imported packages, not those of the analyzers it requires.
	imported func(fn *types.Func) (Ref, bool)
	// importedMu guards importedRefs, imported's answers so far: the
	// analyzers ask of every call of an imported function, at every
	// walk, and reading a fact allocated each time. The analyzers of a
	// package may run at once.
	importedMu   sync.Mutex
	importedRefs map[*types.Func]importedRef
}

type importedRef struct {
	ref Ref
	ok  bool
}

func runGetters(pass *analysis.Pass) (any, error) {
	out := &GetterResult{Getters: map[*types.Func]Ref{}}
	out.imported = func(fn *types.Func) (Ref, bool) {
		out.importedMu.Lock()
		r, seen := out.importedRefs[fn]
		out.importedMu.Unlock()
		if seen {
			return r.ref, r.ok
		}
		var f ReturnsField
		ok := importedFact(pass, fn, &f) // imported facts are final: the answer stays
		out.importedMu.Lock()
		Put(&out.importedRefs, fn, importedRef{f.Ref, ok})
		out.importedMu.Unlock()
		return f.Ref, ok
	}
	out.Involved = cgocall.CallsRuntime(pass.Pkg)
	for _, imp := range pass.Pkg.Imports() {
		if out.Involved {
			break
		}
		out.Involved = pass.ImportPackageFact(imp, new(Involved))
	}
	if !out.Involved {
		return out, nil
	}
	pass.ExportPackageFact(new(Involved))
	info := pass.TypesInfo
	type decl struct {
		obj  *types.Func
		body *ast.BlockStmt
	}
	var decls []decl
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			if obj, _ := info.Defs[fd.Name].(*types.Func); obj != nil {
				decls = append(decls, decl{obj, fd.Body})
			}
		}
	}
	// Getters of getters (return unsafe.Slice((*T)(t.storage.Ptr()), n)),
	// including an interface's methods whose every implementation the
	// package sees is a getter of the same field: rounds until none is
	// new, at most eight (a chain of getters deeper than that is left
	// unresolved past its eighth link).
	impls := NewImpls(pass)
	for range 8 {
		added := false
		for _, d := range decls {
			if _, done := out.Getters[d.obj]; done {
				continue
			}
			if r, ok := getter(info, d.obj.Signature(), d.body, out.resolve(pass)); ok {
				out.Getters[d.obj] = r
				added = true
			}
		}
		if out.interfaceGetters(pass, impls) {
			added = true
		}
		if !added {
			break
		}
	}
	for _, d := range decls {
		if r, ok := out.Getters[d.obj]; ok {
			pass.ExportObjectFact(d.obj, &ReturnsField{r})
		} else if l, ok := pkgVarGetter(pass.Pkg, info, d.obj.Signature(), d.body); ok {
			Put(&out.PkgVars, d.obj, l)
		}
	}
	for fn, r := range out.Getters {
		if isInterfaceMethod(fn) {
			pass.ExportObjectFact(fn, &ReturnsField{r})
		}
	}
	return out, nil
}

// resolve is getter's hook for calls: the location a call of a getter
// known so far names (this package's, an imported one's fact).
func (out *GetterResult) resolve(pass *analysis.Pass) func(p *Pointers, call *ast.CallExpr) (Loc, bool) {
	return func(p *Pointers, call *ast.CallExpr) (Loc, bool) {
		fn := Callee(pass.TypesInfo, call)
		if fn == nil {
			return Loc{}, false
		}
		r, ok := out.Getters[fn.Origin()]
		if !ok && fn.Pkg() != pass.Pkg {
			r, ok = out.imported(fn)
		}
		if !ok {
			return Loc{}, false
		}
		_, l, ok := p.At(r, call)
		return l, ok
	}
}

// interfaceGetters adds the methods of the package's interfaces whose
// every implementation (Impls) is a getter of the same field of its
// receiver: t.storage.Ptr() names the storage's ptr whatever its dynamic
// type. It reports whether it added one.
func (out *GetterResult) interfaceGetters(pass *analysis.Pass, impls *Impls) bool {
	added := false
	scope := pass.Pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		iface, ok := tn.Type().Underlying().(*types.Interface)
		if !ok {
			continue
		}
		for i := range iface.NumExplicitMethods() {
			m := iface.ExplicitMethod(i)
			if _, done := out.Getters[m]; done {
				continue
			}
			var agreed Ref
			n := 0
			for _, impl := range impls.Of(m) {
				r, ok := out.Getters[impl]
				if !ok && impl.Pkg() != pass.Pkg {
					r, ok = out.imported(impl)
				}
				if !ok || r.Param != Receiver || n > 0 && r != agreed {
					n = -1
					break
				}
				agreed, n = r, n+1
			}
			if n > 0 {
				out.Getters[m] = agreed
				added = true
			}
		}
	}
	return added
}

// getter recognizes `return view(p.f.g)` for a parameter or receiver p and a
// result that can hold an address, and `return view(x.M())` for a getter M
// that call resolves.
func getter(info *types.Info, sig *types.Signature, body *ast.BlockStmt, call func(p *Pointers, c *ast.CallExpr) (Loc, bool)) (Ref, bool) {
	if len(body.List) != 1 || sig.Results().Len() != 1 || !mayHoldAddress(sig.Results().At(0).Type()) {
		return Ref{}, false
	}
	ret, ok := body.List[0].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return Ref{}, false
	}
	lc := Locator{Info: info, Index: func(*ast.IndexExpr) (string, bool) { return "", false }}
	p := &Pointers{Locator: lc}
	p.Call = func(c *ast.CallExpr) (Loc, bool) { return call(p, c) }
	l, ok := p.Of(viewed(info, ret.Results[0]))
	if !ok {
		return Ref{}, false
	}
	return RefOf(sig, l)
}

// pkgVarGetter recognizes `return view(v.f.g)` for a package-level
// variable v in a function of no parameters.
func pkgVarGetter(pkg *types.Package, info *types.Info, sig *types.Signature, body *ast.BlockStmt) (Loc, bool) {
	if sig.Params().Len() != 0 || sig.Recv() != nil || len(body.List) != 1 || sig.Results().Len() != 1 ||
		!mayHoldAddress(sig.Results().At(0).Type()) {
		return Loc{}, false
	}
	ret, ok := body.List[0].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return Loc{}, false
	}
	lc := Locator{Info: info, Index: func(*ast.IndexExpr) (string, bool) { return "", false }}
	l, ok := lc.Of(viewed(info, ret.Results[0]))
	if !ok || l.Root == nil || l.Root.Parent() != pkg.Scope() {
		return Loc{}, false
	}
	return l, true
}

// GetterOf returns what fn returns when it is a getter: from this package's
// Getters result (pass.ResultOf[Getters]), else from its fact, imported
// through Getters' own pass.
func GetterOf(pass *analysis.Pass, fn *types.Func) (Ref, bool) {
	if fn == nil {
		return Ref{}, false
	}
	res, _ := pass.ResultOf[Getters].(*GetterResult)
	if fn.Pkg() == pass.Pkg {
		if res == nil {
			return Ref{}, false
		}
		r, ok := res.Getters[fn.Origin()]
		return r, ok
	}
	if res != nil && res.imported != nil {
		return res.imported(fn)
	}
	var f ReturnsField
	if importedFact(pass, fn, &f) {
		return f.Ref, true
	}
	return Ref{}, false
}

// viewed returns the memory a view is made of: e without conversions,
// slicing, unsafe.Slice and unsafe.Add (a Values() accessor returning
// unsafe.Slice((*float32)(b.ptr), b.n) views b.ptr).
func viewed(info *types.Info, e ast.Expr) ast.Expr {
	for range 8 {
		e = StripConversions(info, e)
		switch x := e.(type) {
		case *ast.SliceExpr:
			e = x.X
			continue
		case *ast.CallExpr:
			sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr)
			if !ok || len(x.Args) == 0 {
				return e
			}
			if b, ok := info.Uses[sel.Sel].(*types.Builtin); ok && (b.Name() == "Slice" || b.Name() == "Add") {
				e = x.Args[0]
				continue
			}
		}
		return e
	}
	return e
}

// mayHoldAddress reports whether a value of type t can hold a device or host
// address: pointers, unsafe.Pointer, uintptr and the unsigned integers device
// pointers are declared as, slices, structs holding one of those, and C types
// at tier 3, which have no type there.
func mayHoldAddress(t types.Type) bool {
	return fieldsHold(t, func(t types.Type) bool {
		switch u := t.Underlying().(type) {
		case *types.Pointer, *types.Slice:
			return true
		case *types.Basic:
			switch u.Kind() {
			case types.UnsafePointer, types.Uintptr, types.Uint64, types.Uint:
				return true
			case types.Invalid:
				// A C type at tier 3 (cgo failed, "C" a fake package):
				// a handle or a pointer as likely as not.
				return true
			}
		}
		return false
	})
}

// IsInvolved reports whether pass's package calls the GPU runtime or imports
// a package that does (from Getters, which the analyzer must require).
func IsInvolved(pass *analysis.Pass) bool {
	res, _ := pass.ResultOf[Getters].(*GetterResult)
	return res == nil || res.Involved
}
