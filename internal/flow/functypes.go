package flow

import (
	"go/ast"
	"go/types"
)

// FuncTypeValues returns the functions a value of t, a named function type
// of the package, may hold as far as the package makes them: the literals
// and functions its functions return as a t (the options pattern: func
// WithBatch(n int) Option { return func(e *Engine) error {...} }), and
// those it converts to t (Option(setBatch)). A call through a t (o(e) in a
// loop over options) calls one of them, the way an interface call reaches
// the package's implementations. known is false when some returned or
// converted value is none of those (a parameter, a variable, a call), or
// when t is no named function type: the set is then not known.
func (x *Index) FuncTypeValues(t *types.Named) (fns []Func, known bool) {
	if _, ok := t.Underlying().(*types.Signature); !ok {
		return nil, false
	}
	x.build()
	byLit := map[*ast.FuncLit]Func{}
	byObj := map[*types.Func]Func{}
	for _, f := range x.funcs {
		if f.Lit != nil {
			byLit[f.Lit] = f
		} else if obj := f.Object(x.info); obj != nil {
			byObj[obj] = f
		}
	}
	known = true
	add := func(e ast.Expr) {
		var f Func
		var ok bool
		switch v := ast.Unparen(e).(type) {
		case *ast.FuncLit:
			f, ok = byLit[v]
		case *ast.Ident, *ast.SelectorExpr:
			if IsNil(x.info, v) {
				return
			}
			var id *ast.Ident
			if sel, isSel := v.(*ast.SelectorExpr); isSel {
				id = sel.Sel
			} else {
				id = v.(*ast.Ident)
			}
			if obj, isFunc := x.info.Uses[id].(*types.Func); isFunc && obj.Signature().Recv() == nil {
				f, ok = byObj[obj.Origin()]
			}
		}
		if !ok {
			known = false
			return
		}
		for _, g := range fns {
			if g.Node() == f.Node() {
				return
			}
		}
		fns = append(fns, f)
	}
	is := func(u types.Type) bool { return u != nil && types.Identical(u, t) }
	for _, f := range x.funcs {
		sig := f.Signature(x.info)
		if sig == nil {
			continue
		}
		for i := range sig.Results().Len() {
			if !is(sig.Results().At(i).Type()) {
				continue
			}
			for _, ret := range ReturnStmts(f.Body) {
				if len(ret.Results) == sig.Results().Len() {
					add(ret.Results[i])
				} else { // return g(), or a bare return of named results
					known = false
				}
			}
		}
		ast.Inspect(f.Body, func(n ast.Node) bool {
			if _, isLit := n.(*ast.FuncLit); isLit {
				return false // walked as its own function
			}
			if call, ok := n.(*ast.CallExpr); ok && IsConversion(x.info, call) && is(x.info.TypeOf(call.Fun)) {
				add(call.Args[0])
			}
			return true
		})
	}
	return fns, known && len(fns) > 0
}
