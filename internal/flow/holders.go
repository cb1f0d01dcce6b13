package flow

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/hiplint/hiplint/internal/cgocall"
)

// ResultHolder says where the result of call, an expression in body, ends
// up: the variable it is assigned or declared to (a types.Object), or else
// the expression that carries it to what consumes it (an ast.Node: call
// itself, or the conversion or method call on it, that a comparison, an
// argument of another call or a return uses), which is what a condition
// will compare. It goes up through parentheses, conversions and method
// calls on the result (status(r).error("load")), and through a return from
// a closure that inPlace says runs in place at its call (ctx.Do returns
// what the closure returns). ok is false when the result is dropped: the
// call is a statement of its own, deferred, started as a goroutine, or
// assigned to the blank identifier.
func ResultHolder(info *types.Info, body *ast.BlockStmt, call ast.Expr, inPlace func(*ast.FuncLit) bool) (holder any, ok bool) {
	cur := ast.Node(call)
	for {
		p := Parent(body, cur)
		switch x := p.(type) {
		case *ast.ParenExpr:
		case *ast.CallExpr:
			if x.Fun != cur && !slices.Contains(x.Args, cur.(ast.Expr)) {
				return cur, true
			}
		case *ast.SelectorExpr: // status(r).error("load")
		case *ast.ReturnStmt:
			c := inPlaceCall(body, x, inPlace)
			if c == nil {
				return cur, true
			}
			p = c
		case *ast.AssignStmt:
			for i, r := range x.Rhs {
				if r == cur && i < len(x.Lhs) && len(x.Lhs) == len(x.Rhs) {
					if id, ok := x.Lhs[i].(*ast.Ident); ok && id.Name != "_" {
						return info.ObjectOf(id), true
					}
					return nil, false
				}
			}
			return cur, true
		case *ast.ValueSpec:
			for i, v := range x.Values {
				if v == cur && i < len(x.Names) && x.Names[i].Name != "_" {
					return info.ObjectOf(x.Names[i]), true
				}
			}
			return nil, false
		case *ast.ExprStmt, *ast.DeferStmt, *ast.GoStmt, nil:
			return nil, false
		default:
			return cur, true
		}
		cur = p
	}
}

// inPlaceCall returns the call that runs the closure holding ret, when
// inPlace says it runs in place, or nil.
func inPlaceCall(body *ast.BlockStmt, ret *ast.ReturnStmt, inPlace func(*ast.FuncLit) bool) ast.Node {
	for p := Parent(body, ret); p != nil; p = Parent(body, p) {
		if lit, ok := p.(*ast.FuncLit); ok {
			if call, ok := Parent(body, lit).(*ast.CallExpr); ok && inPlace(lit) {
				return call
			}
			return nil
		}
	}
	return nil
}

// BlankAssigned returns the ranges of the identifiers that as assigns to
// the blank identifier (_ = m): such an assignment keeps nothing.
func BlankAssigned(as *ast.AssignStmt) []PosRange {
	if len(as.Lhs) != len(as.Rhs) {
		return nil
	}
	var out []PosRange
	for i, l := range as.Lhs {
		if id, ok := l.(*ast.Ident); ok && id.Name == "_" {
			if _, ok := ast.Unparen(as.Rhs[i]).(*ast.Ident); ok {
				out = append(out, PosRange{Pos: as.Rhs[i].Pos(), End: as.Rhs[i].End()})
			}
		}
	}
	return out
}

// directPart reports whether e is a field of a variable (p.mods) or what a
// variable points to (*mods): a part of the caller's own value when the
// variable is a pointer parameter. A field reached through another pointer
// (p.ctx.mods) may belong to something shared.
func directPart(e ast.Expr) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.SelectorExpr:
		_, ok := ast.Unparen(x.X).(*ast.Ident)
		return ok
	case *ast.StarExpr:
		_, ok := ast.Unparen(x.X).(*ast.Ident)
		return ok
	}
	return false
}

// InRanges reports whether p lies in one of rs.
func InRanges(p token.Pos, rs []PosRange) bool {
	return slices.ContainsFunc(rs, func(r PosRange) bool { return r.Contains(p) })
}

// ClosureRanges returns the bodies of the user closures in body (cgo's
// wrapper literals are not user closures): variables declared there belong
// to the closures' own analyses.
func ClosureRanges(info *types.Info, body *ast.BlockStmt) []PosRange {
	var out []PosRange
	ast.Inspect(body, func(n ast.Node) bool {
		if lit, ok := n.(*ast.FuncLit); ok && !cgocall.IsWrapper(info, lit) {
			out = append(out, PosRange{Pos: lit.Body.Pos(), End: lit.Body.End()})
		}
		return true
	})
	return out
}

// IsParamOrGlobal reports whether v is a package-level variable or a
// parameter or the receiver of sig (which may be nil).
func IsParamOrGlobal(sig *types.Signature, v *types.Var) bool {
	if v.Pkg() != nil && v.Parent() != nil && v.Parent() == v.Pkg().Scope() {
		return true
	}
	if sig == nil {
		return false
	}
	_, ok := paramIndex(sig, v)
	return ok
}

// Overlapping returns the keys of m that are l or lie under it, or that l
// lies under (Loc.Under either way), sorted by path.
func Overlapping[V any](m map[Loc]V, l Loc) []Loc {
	var out []Loc
	for k := range m {
		if k.Under(l) || l.Under(k) {
			out = append(out, k)
		}
	}
	slices.SortFunc(out, func(a, b Loc) int { return strings.Compare(a.Path, b.Path) })
	return out
}

// CallsParam reports whether call calls a function value held by a
// parameter of sig (fn(m) in func With(img string, fn func(C.hipModule_t))).
func CallsParam(info *types.Info, sig *types.Signature, call *ast.CallExpr) bool {
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok || sig == nil {
		return false
	}
	v, ok := info.Uses[id].(*types.Var)
	if !ok {
		return false
	}
	if _, ok := v.Type().Underlying().(*types.Signature); !ok {
		return false
	}
	_, ok = paramIndex(sig, v)
	return ok
}

// guarded reports whether every position in ps lies under the if
// statement's guard: inside the statement, or after it when its body ends
// in a return (an early exit).
func guarded(ifs *ast.IfStmt, ps []token.Pos) bool {
	earlyExit := false
	if n := len(ifs.Body.List); n > 0 {
		_, earlyExit = ifs.Body.List[n-1].(*ast.ReturnStmt)
	}
	for _, p := range ps {
		inside := ifs.Pos() <= p && p < ifs.End()
		if !inside && !(earlyExit && p >= ifs.End()) {
			return false
		}
	}
	return true
}

// usedOutside returns those of objs that n uses (info.Uses) somewhere
// outside the ranges safe: the variables whose every use is in a safe
// position are left out. The map is nil when there are none.
func usedOutside[V any](info *types.Info, n ast.Node, objs map[types.Object]V, safe []PosRange) map[types.Object]bool {
	if len(objs) == 0 {
		return nil
	}
	v := &usedVisitor[V]{info: info, objs: objs, safe: safe} // one allocation, not a closure and its variables
	ast.Walk(v, n)
	return v.out
}

// UsedScan is UsedOutside with its walk kept from call to call: an
// analyzer that asks at every node (modulebalance, of the handles a
// statement may hand on) makes its visitor once, not at each call. The zero
// UsedScan is ready; it is not safe for concurrent use.
//
// With Holds set, reading a field x.f of one of objs is no use of x when
// the field's type cannot carry what Holds accepts (MayHold): `e.fn` of an
// owner e hands on e's kernel, not the module e owns.
type UsedScan[V any] struct {
	Holds func(types.Type) bool
	v     usedVisitor[V]
	inert map[types.Type]bool // MayHold's answers, negated
}

// Of is UsedOutside(info, n, objs, safe).
func (u *UsedScan[V]) Of(info *types.Info, n ast.Node, objs map[types.Object]V, safe []PosRange) map[types.Object]bool {
	if len(objs) == 0 {
		return nil
	}
	u.v = usedVisitor[V]{info: info, objs: objs, safe: safe, scan: u}
	ast.Walk(&u.v, n)
	out := u.v.out
	u.v = usedVisitor[V]{} // holds nothing between calls
	return out
}

// inertField reports whether sel reads a field, of a variable among objs,
// that cannot carry what u.Holds accepts.
func (u *UsedScan[V]) inertField(info *types.Info, sel *ast.SelectorExpr) bool {
	if u == nil || u.Holds == nil {
		return false
	}
	if s := info.Selections[sel]; s == nil || s.Kind() != types.FieldVal {
		return false
	}
	t := info.TypeOf(sel)
	inert, ok := u.inert[t]
	if !ok {
		inert = !mayHold(t, u.Holds)
		Put(&u.inert, t, inert)
	}
	return inert
}

type usedVisitor[V any] struct {
	info *types.Info
	objs map[types.Object]V
	safe []PosRange
	out  map[types.Object]bool
	scan *UsedScan[V] // its Holds, when the walk is a UsedScan's
}

func (v *usedVisitor[V]) Visit(n ast.Node) ast.Visitor {
	if sel, ok := n.(*ast.SelectorExpr); ok {
		if id, ok := ast.Unparen(sel.X).(*ast.Ident); ok {
			if _, tracked := v.objs[v.info.Uses[id]]; tracked && v.scan.inertField(v.info, sel) {
				return nil // x.f that cannot carry x's value
			}
		}
	}
	if id, ok := n.(*ast.Ident); ok {
		if _, ok := v.objs[v.info.Uses[id]]; ok && !InRanges(id.Pos(), v.safe) {
			Put(&v.out, v.info.Uses[id], true)
		}
	}
	if n == nil {
		return nil
	}
	return v
}
