// Package cgocall recognizes GPU runtime calls in type-checked, cgo-processed Go
// code and maps them back to what the user wrote.
//
// Analyzers see the files cgo generated (*.cgo1.go), where `C.hipMemcpy(d, s, n, k)`
// is a call of `_Cfunc_hipMemcpy`, either directly or, when cgo checks pointer
// arguments, inside a function literal that first copies each argument into a
// temporary:
//
//	func() _Ctype_hipError_t { _cgo0 := d; ...; _cgoCheckPointer(_cgo0, nil); return _Cfunc_hipMemcpy(_cgo0, ...) }()
//
// A deferred call gets one more layer, `func() func() {...}()()`, so that the
// arguments are evaluated at the defer statement. This package undoes those
// layers: a Call carries the user's argument expressions and the position of
// the user's `C.x(...)` expression. Functions are identified by name only, so
// prototypes declared by hand in a preamble work like the real headers.
package cgocall

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/hiplint/hiplint/internal/hipapi"
)

// Call is one runtime call as the user wrote it.
type Call struct {
	Func *hipapi.Func
	// Expr is the expression that stands for the user's C.name(...) call: the
	// direct call, or the call of cgo's wrapper function literal.
	Expr *ast.CallExpr
	// Args are the user's argument expressions, with cgo's temporaries resolved.
	Args []ast.Expr
	// inner is the call of the _Cfunc_ function itself.
	inner *ast.CallExpr
	// name is the C name as called (cuMemAlloc_v2, cudaMemcpy_ptds), which
	// may differ from Func.Name, the table row's name.
	name string
}

// Pos is where to report the call: the start of the user's C.name(...) expression.
func (c *Call) Pos() token.Pos { return c.Expr.Pos() }

// End is the end of the call expression.
func (c *Call) End() token.Pos { return c.Expr.End() }

// Arg returns the user's argument at position a, or nil when absent.
func (c *Call) Arg(a hipapi.Arg) ast.Expr {
	e, _ := hipapi.Of(a, c.Args)
	return e
}

// Name is the C name of the called function as the user wrote it: for
// C.cuMemAlloc_v2 it is "cuMemAlloc_v2" while Func.Name is "cuMemAlloc".
func (c *Call) Name() string {
	if c.name == "" {
		return c.Func.Name
	}
	return c.name
}

// cFuncName returns the C name of a cgo function object (_Cfunc_x, _C2func_x).
func cFuncName(obj types.Object) (string, bool) {
	fn, ok := obj.(*types.Func)
	if !ok {
		return "", false
	}
	name := fn.Name()
	for _, prefix := range []string{"_Cfunc_", "_C2func_"} {
		if strings.HasPrefix(name, prefix) {
			return name[len(prefix):], true
		}
	}
	return "", false
}

// calleeName returns the C name called by a direct cgo call, if it is one.
func calleeName(info *types.Info, call *ast.CallExpr) (string, bool) {
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return "", false
	}
	return cFuncName(info.Uses[id])
}

// Match returns the runtime call that e denotes, or nil. e may be the direct
// call, the call of a pointer-checking wrapper, or a deferred wrapper's call.
func Match(info *types.Info, e ast.Expr) *Call {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return nil
	}
	if name, ok := calleeName(info, call); ok {
		f, ok := hipapi.Lookup(name)
		if !ok {
			return nil
		}
		return &Call{Func: f, Expr: call, Args: call.Args, inner: call, name: name}
	}
	if name, ok := CSelector(info, call.Fun); ok { // tier 3: C.name(...) as written
		f, ok := hipapi.Lookup(name)
		if !ok {
			return nil
		}
		return &Call{Func: f, Expr: call, Args: tier3Args(info, call.Args), inner: call, name: name}
	}
	// Only the wrapper forms below need the temporaries; most calls are
	// neither, and get here without allocating.
	var temps map[types.Object]ast.Expr
	var body *ast.BlockStmt
	switch fun := ast.Unparen(call.Fun).(type) {
	case *ast.FuncLit: // func() T { ...; return _Cfunc_x(...) }()
		if len(call.Args) != 0 {
			return nil
		}
		if !onlyCgoStmts(fun.Body.List[:max(len(fun.Body.List)-1, 0)]) {
			return nil
		}
		temps = map[types.Object]ast.Expr{}
		collectTemps(info, fun.Body, temps)
		body = fun.Body
	case *ast.CallExpr: // func() func() T { ...; return func() T {...} }()()
		outer, ok := ast.Unparen(fun.Fun).(*ast.FuncLit)
		if !ok || len(fun.Args) != 0 || len(call.Args) != 0 {
			return nil
		}
		inner := deferredInner(outer)
		if inner == nil || !onlyCgoStmts(outer.Body.List[:len(outer.Body.List)-1]) ||
			!onlyCgoStmts(inner.Body.List[:max(len(inner.Body.List)-1, 0)]) {
			return nil
		}
		temps = map[types.Object]ast.Expr{}
		collectTemps(info, outer.Body, temps)
		collectTemps(info, inner.Body, temps)
		body = inner.Body
	default:
		return nil
	}
	inner := wrappedCall(info, body)
	if inner == nil {
		return nil
	}
	name, _ := calleeName(info, inner)
	f, ok := hipapi.Lookup(name)
	if !ok {
		return nil
	}
	args := make([]ast.Expr, len(inner.Args))
	for i, a := range inner.Args {
		args[i] = resolve(info, a, temps, 0)
	}
	return &Call{Func: f, Expr: call, Args: args, inner: inner, name: name}
}

// deferredInner returns the inner wrapper of the deferred form's outer
// literal (func() func() T { _cgo0 := x; return func() T {...} }), or nil.
func deferredInner(outer *ast.FuncLit) *ast.FuncLit {
	list := outer.Body.List
	if len(list) == 0 {
		return nil
	}
	ret, ok := list[len(list)-1].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return nil
	}
	inner, _ := ret.Results[0].(*ast.FuncLit)
	return inner
}

// wrappedCall finds the _Cfunc_ call that ends a cgo wrapper body. cgo only
// wraps calls with at least one argument to check, and always passes the
// temporaries _cgo0, _cgo1, ... in order; requiring that shape keeps user
// closures such as `defer func() { C.hipDeviceSynchronize() }()` out.
func wrappedCall(info *types.Info, body *ast.BlockStmt) *ast.CallExpr {
	if len(body.List) == 0 {
		return nil
	}
	var e ast.Expr
	switch last := body.List[len(body.List)-1].(type) {
	case *ast.ReturnStmt:
		if len(last.Results) == 1 {
			e = last.Results[0]
		}
	case *ast.ExprStmt:
		e = last.X
	}
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) == 0 {
		return nil
	}
	if _, ok := calleeName(info, call); !ok {
		return nil
	}
	for i, a := range call.Args {
		if id, ok := a.(*ast.Ident); !ok || id.Name != "_cgo"+strconv.Itoa(i) {
			return nil
		}
	}
	return call
}

// collectTemps records cgo's argument temporaries (_cgo0 := x, var _cgo1 T = y,
// _cgoBase0 := &x, _cgoIndex0 := &a, _cgoSlice0 := a[i:j]) by object, so that
// a user variable that happens to share a name is never replaced.
func collectTemps(info *types.Info, body *ast.BlockStmt, temps map[types.Object]ast.Expr) {
	add := func(id *ast.Ident, v ast.Expr) {
		if !isCgoTemp(id.Name) {
			return
		}
		if obj := info.Defs[id]; obj != nil {
			temps[obj] = v
		}
	}
	for _, stmt := range body.List {
		switch s := stmt.(type) {
		case *ast.AssignStmt:
			if s.Tok != token.DEFINE || len(s.Lhs) != len(s.Rhs) {
				continue
			}
			for i, lhs := range s.Lhs {
				if id, ok := lhs.(*ast.Ident); ok {
					add(id, s.Rhs[i])
				}
			}
		case *ast.DeclStmt:
			gen, ok := s.Decl.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, spec := range gen.Specs {
				vs, ok := spec.(*ast.ValueSpec)
				if !ok || len(vs.Names) != len(vs.Values) {
					continue
				}
				for i, id := range vs.Names {
					add(id, vs.Values[i])
				}
			}
		}
	}
}

func isCgoTemp(name string) bool { return strings.HasPrefix(name, "_cgo") }

// resolve returns the user's expression for e, an argument of the wrapped
// _Cfunc_ call, by replacing cgo's temporaries with what they hold. cgo moves
// parts of pointer arguments into temporaries even inside conversions:
//
//	unsafe.Pointer(&a[0])  becomes  _cgoIndex0 := &a; _cgo0 := unsafe.Pointer(&(*_cgoIndex0)[0])
//	(*T)(unsafe.Pointer(&p))  becomes  _cgoBase0 := &p; _cgo0 := (*T)(unsafe.Pointer(_cgoBase0))
//	unsafe.Pointer(&s[:n][0])  becomes  _cgoIndex0 := s[:n]; _cgo0 := unsafe.Pointer(&_cgoIndex0[0])
//
// Subtrees without temporaries are returned as they are; the nodes above a
// replaced temporary are fresh copies, with the original positions but no
// entries in types.Info.
func resolve(info *types.Info, e ast.Expr, temps map[types.Object]ast.Expr, depth int) ast.Expr {
	if depth > 8 || e == nil {
		return e
	}
	r := func(x ast.Expr) ast.Expr { return resolve(info, x, temps, depth+1) }
	switch x := e.(type) {
	case *ast.Ident:
		if v, ok := temps[info.Uses[x]]; ok && isCgoTemp(x.Name) {
			return r(v)
		}
	case *ast.ParenExpr:
		in := r(x.X)
		if in == x.X {
			return x
		}
		// (*_cgoIndexN) with _cgoIndexN := &a: the parentheses only
		// served the dereference that resolving removed.
		if _, wasStar := x.X.(*ast.StarExpr); wasStar {
			if _, isStar := in.(*ast.StarExpr); !isStar {
				return in
			}
		}
		c := *x
		c.X = in
		return &c
	case *ast.StarExpr:
		in := r(x.X)
		if in == x.X {
			return x
		}
		if u, ok := ast.Unparen(in).(*ast.UnaryExpr); ok && u.Op == token.AND {
			return u.X // *&a is a
		}
		c := *x
		c.X = in
		return &c
	case *ast.UnaryExpr:
		if in := r(x.X); in != x.X {
			c := *x
			c.X = in
			return &c
		}
	case *ast.SelectorExpr:
		if in := r(x.X); in != x.X {
			c := *x
			c.X = in
			return &c
		}
	case *ast.IndexExpr:
		if in, idx := r(x.X), r(x.Index); in != x.X || idx != x.Index {
			c := *x
			c.X, c.Index = in, idx
			return &c
		}
	case *ast.SliceExpr:
		in, lo, hi, mx := r(x.X), r(x.Low), r(x.High), r(x.Max)
		if in != x.X || lo != x.Low || hi != x.High || mx != x.Max {
			c := *x
			c.X, c.Low, c.High, c.Max = in, lo, hi, mx
			return &c
		}
	case *ast.CallExpr:
		fun := r(x.Fun)
		changed := fun != x.Fun
		args := make([]ast.Expr, len(x.Args))
		for i, a := range x.Args {
			args[i] = r(a)
			changed = changed || args[i] != a
		}
		if changed {
			c := *x
			c.Fun, c.Args = fun, args
			return &c
		}
	}
	return e
}

// IsWrapper reports whether lit is a function literal cgo generated around a
// call (so that analyzers do not treat it as user code): the pointer-checking
// wrapper, or either literal of the deferred form. A user closure that merely
// calls C functions is not a wrapper.
func IsWrapper(info *types.Info, lit *ast.FuncLit) bool {
	list := lit.Body.List
	if len(list) == 0 || lit.Type.Params.NumFields() != 0 {
		return false
	}
	// The deferred form's outer literal defines the temporaries and returns
	// the inner wrapper.
	if inner := deferredInner(lit); inner != nil {
		return IsWrapper(info, inner) && onlyCgoStmts(list[:len(list)-1])
	}
	return wrappedCall(info, lit.Body) != nil && onlyCgoStmts(list[:len(list)-1])
}

// onlyCgoStmts reports whether stmts are what cgo puts before the call in a
// wrapper: temporaries (_cgo0 := x, var _cgo1 T = y) and pointer checks.
func onlyCgoStmts(stmts []ast.Stmt) bool {
	for _, stmt := range stmts {
		switch s := stmt.(type) {
		case *ast.AssignStmt:
			if s.Tok != token.DEFINE {
				return false
			}
			for _, lhs := range s.Lhs {
				if id, ok := lhs.(*ast.Ident); !ok || !isCgoTemp(id.Name) {
					return false
				}
			}
		case *ast.DeclStmt:
			gen, ok := s.Decl.(*ast.GenDecl)
			if !ok || gen.Tok != token.VAR {
				return false
			}
			for _, spec := range gen.Specs {
				vs, ok := spec.(*ast.ValueSpec)
				if !ok {
					return false
				}
				for _, id := range vs.Names {
					if !isCgoTemp(id.Name) {
						return false
					}
				}
			}
		case *ast.ExprStmt: // _cgoCheckPointer(_cgo0, nil)
			call, ok := s.X.(*ast.CallExpr)
			if !ok {
				return false
			}
			if id, ok := call.Fun.(*ast.Ident); !ok || id.Name != "_cgoCheckPointer" {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// Inspect calls yield for every runtime call in the subtree of n, in source
// order, without descending into cgo's wrapper literals (the user's arguments
// inside them are visited). yield returns false to stop.
func Inspect(info *types.Info, n ast.Node, yield func(*Call) bool) {
	InspectWith(func(e ast.Expr) *Call { return Match(info, e) }, n, yield)
}

// InspectWith is Inspect with match in place of Match (a memoized Match).
func InspectWith(match func(ast.Expr) *Call, n ast.Node, yield func(*Call) bool) {
	stop := false
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		if stop || n == nil {
			return false
		}
		if e, ok := n.(ast.Expr); ok {
			if c := match(e); c != nil {
				if !yield(c) {
					stop = true
					return false
				}
				for _, a := range c.Args {
					ast.Inspect(a, visit)
				}
				return false
			}
		}
		return true
	}
	ast.Inspect(n, visit)
}

// ConstName returns the C name of a cgo constant reference (_Ciconst_x,
// _Cfconst_x, _Cconst_x), if e is one.
func ConstName(info *types.Info, e ast.Expr) (string, bool) {
	e = ast.Unparen(e)
	// cgo turns pointer-valued macros (cudaStreamLegacy, hipStreamPerThread)
	// into calls of generated functions: _Cmacro_x().
	if call, ok := e.(*ast.CallExpr); ok && len(call.Args) == 0 {
		if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
			if fn, ok := info.Uses[id].(*types.Func); ok {
				return strings.CutPrefix(fn.Name(), "_Cmacro_")
			}
		}
		return "", false
	}
	if name, ok := CSelector(info, e); ok {
		return name, true // tier 3: C.name as written
	}
	id, ok := e.(*ast.Ident)
	if !ok {
		return "", false
	}
	obj := info.Uses[id]
	if obj == nil {
		return "", false
	}
	for _, prefix := range []string{"_Ciconst_", "_Cfconst_", "_Cconst_", "_Cvar_"} {
		if strings.HasPrefix(obj.Name(), prefix) {
			return obj.Name()[len(prefix):], true
		}
	}
	return "", false
}

// CName returns the C function a call reaches, directly (_Cfunc_x(...)) or
// through cgo's pointer-checking wrapper, for any C function, not only those
// in the API table. C.malloc is reported as "malloc" (cgo calls it _CMalloc).
func CName(info *types.Info, call *ast.CallExpr) (string, bool) {
	switch fun := ast.Unparen(call.Fun).(type) {
	case *ast.SelectorExpr:
		return CSelector(info, fun) // tier 3: C.name(...) as written
	case *ast.Ident:
		fn, ok := info.Uses[fun].(*types.Func)
		if !ok {
			return "", false
		}
		for _, prefix := range []string{"_Cfunc_", "_C2func_"} {
			if name, ok := strings.CutPrefix(fn.Name(), prefix); ok {
				if name == "_CMalloc" {
					name = "malloc"
				}
				return name, true
			}
		}
	case *ast.FuncLit:
		if !IsWrapper(info, fun) || len(fun.Body.List) == 0 {
			return "", false
		}
		if inner := wrappedCall(info, fun.Body); inner != nil {
			return CName(info, inner)
		}
	}
	return "", false
}

// IsCHeapAlloc reports whether call allocates C heap memory (C.malloc,
// C.calloc, C.aligned_alloc, C.CString, C.CBytes).
func IsCHeapAlloc(info *types.Info, call *ast.CallExpr) bool {
	name, ok := CName(info, call)
	if !ok {
		return false
	}
	switch name {
	case "malloc", "calloc", "aligned_alloc", "CString", "CBytes":
		return true
	}
	return false
}

// IntValue returns the constant integer value of e, if it has one.
func IntValue(info *types.Info, e ast.Expr) (int64, bool) {
	tv, ok := info.Types[e]
	if !ok || tv.Value == nil {
		return tier3Value(info, e)
	}
	v := constant.ToInt(tv.Value)
	if v.Kind() != constant.Int {
		return 0, false
	}
	return constant.Int64Val(v)
}

// IsSupportFile reports whether f is one of cgo's support files
// (_cgo_gotypes.go, _cgo_import.go), which hold no user code.
//
// go vet hands analyzers these files under their own names, but go list
// -compiled (and so go/packages) names every cgo output after its content hash
// in the build cache. There the support file is recognized as the file cgo
// generated whose package clause no //line directive maps back to a user file
// (each *.cgo1.go file starts with such a directive).
func IsSupportFile(fset *token.FileSet, f *ast.File) bool {
	tf := fset.File(f.FileStart)
	if tf == nil {
		return false
	}
	switch filepath.Base(tf.Name()) {
	case "_cgo_gotypes.go", "_cgo_import.go":
		return true
	}
	if !generatedByCgo(f) {
		return false
	}
	return fset.PositionFor(f.Package, true).Filename == fset.PositionFor(f.Package, false).Filename
}

// generatedByCgo reports whether f carries cmd/cgo's generated-code comment
// before its package clause, or (when parsed without comments) declares
// _Cgo_ptr, which cgo puts in every _cgo_gotypes.go.
func generatedByCgo(f *ast.File) bool {
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "_Cgo_ptr" {
			return true
		}
	}
	for _, g := range f.Comments {
		if g.Pos() >= f.Package {
			break
		}
		for _, c := range g.List {
			if c.Text == "// Code generated by cmd/cgo; DO NOT EDIT." {
				return true
			}
		}
	}
	return false
}

// UsesCgo reports whether pkg imports "C" (seen as runtime/cgo or unsafe plus
// _cgo files after processing).
func UsesCgo(pkg *types.Package) bool {
	for _, imp := range pkg.Imports() {
		if imp.Path() == "runtime/cgo" || imp.Path() == "C" {
			return true
		}
	}
	return false
}

// CallsRuntime reports whether pkg calls a function of the runtime API model
// through cgo. It reads names only: cgo declares a _Cfunc_ (or _C2func_)
// function at package level for each C function the package calls. This is
// the analyzers' fast path: cgo packages that call no GPU runtime (in the
// standard library: net, os/user, runtime/cgo) are skipped like pure Go
// ones, and so export no facts that would pull their importers in.
func CallsRuntime(pkg *types.Package) bool {
	if !UsesCgo(pkg) {
		return false
	}
	if Unprocessed(pkg) {
		return true // no _Cfunc_ declarations to read: the calls are C.name(...) (tier 3)
	}
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		if c, ok := cFuncName(scope.Lookup(name)); ok {
			if _, ok := hipapi.Lookup(c); ok {
				return true
			}
		}
	}
	return false
}

// IsCType reports whether t is a cgo C type named name (for example
// _Ctype_hipModule_t for "hipModule_t"). cgo declares some C types as
// aliases (size_t is _Ctype_size_t = _Ctype_ulong, a typedef of a struct is
// an alias of _Ctype_struct_x, a typedef of void* is an alias of
// unsafe.Pointer), so every name along the alias chain counts.
func IsCType(t types.Type, name string) bool {
	want := "_Ctype_" + name
	// ROCm 6's header renames hipDeviceProp_t (a macro naming
	// hipDeviceProp_tR0600, with hipGetDevicePropertiesR0600): the same type.
	is := func(n string) bool { return n == want || n == want+"R0600" }
	for range 16 {
		switch x := t.(type) {
		case *types.Alias:
			if is(x.Obj().Name()) {
				return true
			}
			t = x.Rhs()
		case *types.Named:
			return is(x.Obj().Name())
		default:
			return false
		}
	}
	return false
}
