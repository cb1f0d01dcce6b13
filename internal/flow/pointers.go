package flow

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/hiplint/hiplint/internal/cgocall"
	"golang.org/x/tools/go/analysis"
)

// isBuiltin reports whether call calls one of the named builtins, those of
// package unsafe included (unsafe.Slice is the builtin "Slice").
func isBuiltin(info *types.Info, call *ast.CallExpr, names ...string) bool {
	var id *ast.Ident
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	default:
		return false
	}
	b, ok := info.Uses[id].(*types.Builtin)
	return ok && slices.Contains(names, b.Name())
}

// IsConversion reports whether call is a type conversion.
func IsConversion(info *types.Info, call *ast.CallExpr) bool {
	tv, ok := info.Types[call.Fun]
	return ok && tv.IsType() && len(call.Args) == 1
}

// Pointers resolves pointer-valued expressions to the memory they point
// into: the location behind conversions, unsafe.Add, unsafe.Slice and its
// kin, slicing, &s[i], and the calls Call resolves (getters: b.Ptr() points
// into b.ptr, see GetterLoc).
type Pointers struct {
	Locator
	// Call resolves what a call returns; nil: calls point nowhere known.
	Call func(call *ast.CallExpr) (Loc, bool)
}

// Of returns the memory e points into. It is bounded: views nested more
// than 16 deep point nowhere known.
func (p Pointers) Of(e ast.Expr) (Loc, bool) {
	info := p.Info
	for range 16 {
		switch x := ast.Unparen(e).(type) {
		case *ast.CallExpr:
			switch {
			case IsConversion(info, x):
				e = x.Args[0]
			case isBuiltin(info, x, "Add", "Slice", "SliceData", "String", "StringData") && len(x.Args) > 0:
				e = x.Args[0]
			case p.Call != nil:
				return p.Call(x)
			default:
				return Loc{}, false
			}
		case *ast.SliceExpr:
			e = x.X
		case *ast.UnaryExpr:
			ix, ok := ast.Unparen(x.X).(*ast.IndexExpr)
			if x.Op != token.AND || !ok {
				return Loc{}, false
			}
			e = ix.X
		case *ast.Ident, *ast.SelectorExpr, *ast.IndexExpr:
			return p.Locator.Of(x)
		default:
			return Loc{}, false
		}
	}
	return Loc{}, false
}

// At returns the argument a call passes for r and the caller's location
// for r: the memory the argument points into (or x for &x), with r's path
// appended. The argument is returned even when it names no location.
func (p Pointers) At(r Ref, call *ast.CallExpr) (ast.Expr, Loc, bool) {
	arg := r.Arg(p.Info, call)
	if arg == nil {
		return nil, Loc{}, false
	}
	l, ok := p.Of(arg)
	if !ok {
		if u, isAddr := ast.Unparen(arg).(*ast.UnaryExpr); isAddr && u.Op == token.AND {
			l, ok = p.Locator.Of(u.X) // &buf passed for a *Buffer receiver
		}
	}
	if !ok {
		return arg, Loc{}, false
	}
	l.Path += r.Path
	return arg, l, true
}

// GetterLoc is the Pointers.Call hook for getters (Getters, which the
// analyzer must require): the caller's location of what the called getter
// returns, b.ptr for b.Ptr(), scratch for Scratch() returning a package
// variable of the same package (GetterResult.PkgVars).
func GetterLoc(pass *analysis.Pass, p *Pointers, call *ast.CallExpr) (Loc, bool) {
	fn := Callee(pass.TypesInfo, call)
	r, ok := GetterOf(pass, fn)
	if !ok {
		return PkgVarGetterLoc(pass, call)
	}
	_, l, ok := p.At(r, call)
	return l, ok
}

// Aliases records, flow-insensitively, which locations are views of the
// same memory (h := uintptr(p); out := unsafe.Slice((*T)(dst), n)).
type Aliases map[Loc][]Loc

// Add records that a and b are the same memory.
func (a Aliases) Add(x, y Loc) {
	if x == y {
		return
	}
	if !slices.Contains(a[x], y) {
		a[x] = append(a[x], y)
	}
	if !slices.Contains(a[y], x) {
		a[y] = append(a[y], x)
	}
}

// Of returns l and every location transitively recorded as the same
// memory, l first.
func (a Aliases) Of(l Loc) []Loc {
	out := []Loc{l}
	for i := 0; i < len(out); i++ {
		for _, b := range a[out[i]] {
			if !slices.Contains(out, b) {
				out = append(out, b)
			}
		}
	}
	return out
}

// IsCgoTemp reports whether l is a temporary of cgo's pointer-checking
// wrappers (_cgo0 := q), which copy each argument into one of their own:
// no variable of the user's.
func IsCgoTemp(l Loc) bool {
	return l.Path == "" && l.Root != nil && strings.HasPrefix(l.Root.Name(), "_cgo")
}

// segments splits a location path into its ".f" and "[i]" parts.
func segments(path string) []string {
	var out []string
	for path != "" {
		end := len(path)
		if path[0] == '[' {
			if j := strings.IndexByte(path, ']'); j >= 0 {
				end = j + 1
			}
		} else if j := strings.IndexAny(path[1:], ".["); j >= 0 {
			end = j + 1
		}
		out = append(out, path[:end])
		path = path[end:]
	}
	return out
}

// fieldOf returns the struct field the last segment of l's path names,
// walking the root's type (bounded by the path); nil when the path is empty
// or ends in an element.
func fieldOf(l Loc) *types.Var {
	if l.Root == nil || l.Path == "" {
		return nil
	}
	t := l.Root.Type()
	var v *types.Var
	for _, seg := range segments(l.Path) {
		name, ok := strings.CutPrefix(seg, ".")
		if !ok {
			return nil
		}
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		st, ok := t.Underlying().(*types.Struct)
		if !ok {
			return nil
		}
		v = nil
		for i := range st.NumFields() {
			if st.Field(i).Name() == name {
				v = st.Field(i)
				break
			}
		}
		if v == nil {
			return nil
		}
		t = v.Type()
	}
	return v
}

// fieldOrGlobal returns the struct field e selects, or the package-level
// variable it names.
func fieldOrGlobal(info *types.Info, e ast.Expr) *types.Var {
	if v := SelectedField(info, e); v != nil {
		return v
	}
	var id *ast.Ident
	switch x := ast.Unparen(e).(type) {
	case *ast.SelectorExpr: // pkg.Var
		if _, ok := info.Selections[x]; ok {
			return nil
		}
		id = x.Sel
	case *ast.Ident:
		id = x
	default:
		return nil
	}
	if v, ok := info.Uses[id].(*types.Var); ok && v.Pkg() != nil && v.Parent() == v.Pkg().Scope() {
		return v
	}
	return nil
}

// HoldsPointer reports whether a value of type t can carry device or host
// memory as a pointer: unsafe.Pointer, any pointer, a C device pointer type
// (CUdeviceptr, hipDeviceptr_t, cgocall.IsDevicePtrType), or a struct
// holding one. Plain integers and slices do not (MayHoldAddress is the wider
// predicate). Nested structs are walked once each (FieldsHold).
func HoldsPointer(t types.Type) bool {
	return fieldsHold(t, func(t types.Type) bool {
		if cgocall.IsDevicePtrType(t) {
			return true
		}
		switch u := t.Underlying().(type) {
		case *types.Basic:
			return u.Kind() == types.UnsafePointer
		case *types.Pointer:
			return true
		}
		return false
	})
}

// isUintptr reports whether t's underlying type is uintptr.
func isUintptr(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.Uintptr
}

// SameElems reports whether a and b hold the same elements, in any order,
// counting duplicates. It allocates nothing (solvers compare states with it
// at every edge).
func SameElems[T comparable](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	count := func(xs []T, x T) int {
		n := 0
		for _, y := range xs {
			if y == x {
				n++
			}
		}
		return n
	}
	for _, x := range a {
		if count(a, x) != count(b, x) {
			return false
		}
	}
	return true
}

// PkgVarGetterLoc is the location of the package variable that call, of a
// getter of this package that takes no argument, returns
// (GetterResult.PkgVars).
func PkgVarGetterLoc(pass *analysis.Pass, call *ast.CallExpr) (Loc, bool) {
	if pass == nil || len(call.Args) != 0 {
		return Loc{}, false
	}
	fn := Callee(pass.TypesInfo, call)
	res, _ := pass.ResultOf[Getters].(*GetterResult)
	if res == nil || fn == nil {
		return Loc{}, false
	}
	l, ok := res.PkgVars[fn.Origin()]
	return l, ok
}
