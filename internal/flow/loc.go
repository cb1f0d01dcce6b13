package flow

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"
)

// Loc is a location the analyzers track: a variable (local, parameter,
// receiver, or package-level) and a path of fields and elements inside it,
// "" or ".f.g" or ".bufs[]" ("[]" any element, "[k]" an element named by the
// index as written).
type Loc struct {
	Root types.Object
	Path string
}

func (l Loc) String() string {
	if l.Root == nil {
		return l.Path
	}
	return l.Root.Name() + l.Path
}

// Field returns the location of field name inside l.
func (l Loc) Field(name string) Loc { return Loc{l.Root, l.Path + "." + name} }

// Under reports whether l is m or a field or element path inside m.
func (l Loc) Under(m Loc) bool { return l.Root == m.Root && pathWithin(l.Path, m.Path) }

// Weak reports whether l stands for several locations (an element of a
// slice, array or map), so that a store to it does not replace what the
// others hold.
func (l Loc) Weak() bool { return strings.Contains(l.Path, "[") }

// pathWithin reports whether path p is q or a field or element path inside q.
func pathWithin(p, q string) bool {
	return p == q || strings.HasPrefix(p, q+".") || strings.HasPrefix(p, q+"[")
}

// Locator resolves expressions to locations. The zero Locator with Info set
// resolves identifiers of variables, package-qualified variables, field
// selections (not through interfaces), dereferences and elements ("[]").
type Locator struct {
	Info *types.Info
	// Index names an element x of its container; nil names every element
	// "[]". Returning false makes the expression no location.
	Index func(x *ast.IndexExpr) (string, bool)
	// Keep says whether a root variable is tracked; nil keeps every one.
	Keep func(v *types.Var) bool
	// Getter resolves a call to the location whose value it returns (a
	// no-argument getter of a package-level variable: Default() is
	// defaultMod, PkgVarGetterLoc), so that Default().m is defaultMod.m;
	// nil resolves no call. Keep applies to the location's root.
	Getter func(call *ast.CallExpr) (Loc, bool)
	// Copies names, for a variable that only ever holds a copy of
	// another's value (ChanCopies), that other variable: it is located
	// there.
	Copies map[types.Object]types.Object
}

// Of returns the location e denotes. It walks e iteratively, so deep
// expressions cost no stack.
func (lc Locator) Of(e ast.Expr) (Loc, bool) {
	info := lc.Info
	var path []string
	done := func(v *types.Var) (Loc, bool) {
		if w, ok := lc.Copies[v].(*types.Var); ok {
			v = w
		}
		if v == nil || v.IsField() || (lc.Keep != nil && !lc.Keep(v)) {
			return Loc{}, false
		}
		slices.Reverse(path)
		return Loc{Root: v, Path: strings.Join(path, "")}, true
	}
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			obj := info.Uses[x]
			if obj == nil {
				obj = info.Defs[x]
			}
			v, _ := obj.(*types.Var)
			return done(v)
		case *ast.SelectorExpr:
			if sel, ok := info.Selections[x]; ok {
				if sel.Kind() != types.FieldVal {
					return Loc{}, false
				}
				if t := info.TypeOf(x.X); t == nil || types.IsInterface(t) {
					return Loc{}, false
				}
				path = append(path, "."+x.Sel.Name)
				e = x.X
				continue
			}
			// pkg.Var
			if id, ok := ast.Unparen(x.X).(*ast.Ident); ok {
				if _, isPkg := info.Uses[id].(*types.PkgName); isPkg {
					v, _ := info.Uses[x.Sel].(*types.Var)
					return done(v)
				}
			}
			return Loc{}, false
		case *ast.StarExpr: // (*p).f is p.f
			e = x.X
		case *ast.IndexExpr:
			if tv, ok := info.Types[x.X]; !ok || !tv.IsValue() {
				return Loc{}, false // a generic instantiation
			}
			name := "[]"
			if lc.Index != nil {
				n, ok := lc.Index(x)
				if !ok {
					return Loc{}, false
				}
				name = n
			}
			path = append(path, name)
			e = x.X
		case *ast.CallExpr:
			if lc.Getter == nil {
				return Loc{}, false
			}
			l, ok := lc.Getter(x)
			v, _ := l.Root.(*types.Var)
			if !ok || v == nil {
				return Loc{}, false
			}
			path = append(path, l.Path) // reversed by done: the getter's path comes first
			return done(v)
		default:
			return Loc{}, false
		}
	}
}

// Receiver is the parameter index of a method's receiver in a Ref.
const Receiver = -1

// Ref names what a function's callers can see of its inputs: parameter
// Param (Receiver for the receiver) and a path inside it, as in Loc. Refs
// are how summaries and facts name parameters; their String form, "p0.buf"
// or "r.ptr", is for fact output only.
type Ref struct {
	Param int
	Path  string
}

func (r Ref) String() string {
	if r.Param == Receiver {
		return "r" + r.Path
	}
	return "p" + strconv.Itoa(r.Param) + r.Path
}

// parseRef reads a Ref's String form.
func parseRef(s string) (Ref, error) {
	if strings.HasPrefix(s, "r") {
		return Ref{Receiver, s[1:]}, nil
	}
	if !strings.HasPrefix(s, "p") {
		return Ref{}, fmt.Errorf("not a parameter reference: %q", s)
	}
	end := 1
	for end < len(s) && s[end] >= '0' && s[end] <= '9' {
		end++
	}
	i, err := strconv.Atoi(s[1:end])
	if err != nil {
		return Ref{}, fmt.Errorf("not a parameter reference: %q", s)
	}
	return Ref{i, s[end:]}, nil
}

// RefOf returns the Ref of l in a function with signature sig: whether l's
// root is one of its parameters or its receiver.
func RefOf(sig *types.Signature, l Loc) (Ref, bool) {
	if sig == nil || l.Root == nil {
		return Ref{}, false
	}
	i, ok := paramIndex(sig, l.Root)
	if !ok {
		return Ref{}, false
	}
	return Ref{i, l.Path}, true
}

// Arg returns the expression a call passes for r's parameter: the receiver
// expression of a method call (nil for a method expression or a function
// value; the first argument of a method expression's call as Index.Bound
// makes it), or the argument. It returns nil when there is none (variadic
// beyond the arguments given).
func (r Ref) Arg(info *types.Info, call *ast.CallExpr) ast.Expr {
	// A method expression (*T).M(v, x) passes its receiver first.
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if s, ok := info.Selections[sel]; ok && s.Kind() == types.MethodExpr {
			return argAt(call, r.Param+1)
		}
	}
	if r.Param == Receiver {
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return nil
		}
		s, ok := info.Selections[sel]
		if ok && s.Kind() != types.MethodVal {
			return nil
		}
		if !ok { // a call made of a method expression's (Index.Bound): b.Do(x) for (*T).Do(b, x)
			if fn, _ := info.Uses[sel.Sel].(*types.Func); fn == nil || fn.Signature().Recv() == nil {
				return nil
			}
		}
		return sel.X
	}
	return argAt(call, r.Param)
}

// At returns the caller's location for r at call: the argument's location
// with r's path appended. A pointer argument &x is x.
func (r Ref) At(lc Locator, call *ast.CallExpr) (Loc, bool) {
	arg := r.Arg(lc.Info, call)
	if arg == nil {
		return Loc{}, false
	}
	if u, ok := ast.Unparen(arg).(*ast.UnaryExpr); ok && u.Op == token.AND {
		arg = u.X
	}
	l, ok := lc.Of(arg)
	if !ok {
		return Loc{}, false
	}
	l.Path += r.Path
	return l, true
}
