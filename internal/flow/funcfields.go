package flow

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// FuncFields returns the struct fields of function type that, everywhere in
// the package, only ever hold one function or method: a method value
// (Dev{sync: d.Synchronize}, o.sync = s.Sync) or a named function
// (o.copy = copyD2D). A call through such a field (o.sync()) calls that
// function; a method value's receiver is the one bound where it was stored,
// which the call site cannot name. Fields that also hold literals, nil,
// parameters or different functions are left out, and so are exported
// fields: an importing package may store something else in them. The
// stores are those of the user's files, walked over the Index's list (cgo's
// support files store no functions in fields).
func (x *Index) FuncFields(pass *analysis.Pass) map[*types.Var]*types.Func {
	info := pass.TypesInfo
	out := map[*types.Var]*types.Func{}
	poisoned := map[*types.Var]bool{}
	store := func(field *types.Var, value ast.Expr) {
		if field == nil || field.Exported() || poisoned[field] {
			return
		}
		if _, ok := field.Type().Underlying().(*types.Signature); !ok {
			return
		}
		fn := funcValue(info, value)
		if prev, ok := out[field]; fn == nil || ok && prev != fn {
			poisoned[field] = true
			delete(out, field)
			return
		}
		out[field] = fn
	}
	x.build()
	for _, f := range x.user {
		x.Walk(f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.CompositeLit:
				t := info.TypeOf(x)
				if t == nil {
					return true
				}
				st, ok := t.Underlying().(*types.Struct)
				if !ok {
					return true
				}
				for i, el := range x.Elts {
					if kv, ok := el.(*ast.KeyValueExpr); ok {
						if id, ok := kv.Key.(*ast.Ident); ok {
							v, _ := info.Uses[id].(*types.Var)
							store(v, kv.Value)
						}
					} else if i < st.NumFields() {
						store(st.Field(i), el)
					}
				}
			case *ast.AssignStmt:
				if len(x.Lhs) != len(x.Rhs) {
					for _, l := range x.Lhs {
						if v := SelectedField(info, l); v != nil {
							poisoned[v] = true
							delete(out, v)
						}
					}
					return true
				}
				for i, l := range x.Lhs {
					store(SelectedField(info, l), x.Rhs[i])
				}
			}
			return true
		})
	}
	return out
}

// SelectedField returns the field e selects (x.f), or nil.
func SelectedField(info *types.Info, e ast.Expr) *types.Var {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	s, ok := info.Selections[sel]
	if !ok || s.Kind() != types.FieldVal {
		return nil
	}
	v, _ := s.Obj().(*types.Var)
	return v
}

// funcValue returns the function a function-valued expression names: a
// method value x.M or a function F (pkg.F); nil otherwise.
func funcValue(info *types.Info, e ast.Expr) *types.Func {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		fn, _ := info.Uses[x].(*types.Func)
		return fn
	case *ast.SelectorExpr:
		if s, ok := info.Selections[x]; ok {
			if s.Kind() != types.MethodVal {
				return nil
			}
			fn, _ := s.Obj().(*types.Func)
			return fn
		}
		fn, _ := info.Uses[x.Sel].(*types.Func) // pkg.F
		return fn
	}
	return nil
}

// FieldCallee returns, for a call through a struct field of function type
// (o.sync()), the function the field always holds (FuncFields), or nil.
func FieldCallee(info *types.Info, fields map[*types.Var]*types.Func, call *ast.CallExpr) *types.Func {
	if len(fields) == 0 {
		return nil
	}
	return fields[SelectedField(info, call.Fun)]
}
