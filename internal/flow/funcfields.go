package flow

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// FuncFields returns the struct fields of function type, and the
// package-level maps of functions used only as m[k], that, everywhere in
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
		if _, ok := field.Type().Underlying().(*types.Signature); !ok && !isFuncMap(pass.Pkg, field) {
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
			case *ast.ValueSpec: // var ops = map[string]func(...){"a": f}
				for i, name := range x.Names {
					v, _ := info.Defs[name].(*types.Var)
					if v == nil || !isFuncMap(pass.Pkg, v) || i >= len(x.Values) {
						continue
					}
					lit, ok := ast.Unparen(x.Values[i]).(*ast.CompositeLit)
					if !ok {
						store(v, x.Values[i]) // no function: poisons it
						continue
					}
					for _, el := range lit.Elts {
						if kv, ok := el.(*ast.KeyValueExpr); ok {
							store(v, kv.Value)
						}
					}
				}
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
					if ix, ok := ast.Unparen(l).(*ast.IndexExpr); ok {
						if id, ok := ast.Unparen(ix.X).(*ast.Ident); ok {
							v, _ := info.Uses[id].(*types.Var)
							store(v, x.Rhs[i]) // ops["b"] = g
						}
					}
				}
			}
			return true
		})
	}
	// A function map used other than as m[k] (assigned whole, passed on,
	// ranged over) may hold anything. The Index lists no index
	// expressions: the files are walked for them, where there is a map.
	var maps bool
	for v := range out {
		maps = maps || isFuncMap(pass.Pkg, v)
	}
	if !maps {
		return out
	}
	indexed := map[*ast.Ident]bool{}
	for _, f := range x.user {
		ast.Inspect(f, func(n ast.Node) bool {
			if ix, ok := n.(*ast.IndexExpr); ok {
				if id, ok := ast.Unparen(ix.X).(*ast.Ident); ok {
					indexed[id] = true
				}
			}
			return true
		})
	}
	for id, obj := range info.Uses {
		if v, ok := obj.(*types.Var); ok && out[v] != nil && isFuncMap(pass.Pkg, v) && !indexed[id] {
			poisoned[v] = true
			delete(out, v)
		}
	}
	return out
}

// isFuncMap reports whether v is a package-level variable of pkg holding a
// map of functions.
func isFuncMap(pkg *types.Package, v *types.Var) bool {
	if v.Parent() != pkg.Scope() {
		return false
	}
	m, ok := v.Type().Underlying().(*types.Map)
	if !ok {
		return false
	}
	_, ok = m.Elem().Underlying().(*types.Signature)
	return ok
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
// (o.sync()) or an element of a package-level map of functions
// (ops["d2d"](dst, src)), the function it always holds (FuncFields), or
// nil.
func FieldCallee(info *types.Info, fields map[*types.Var]*types.Func, call *ast.CallExpr) *types.Func {
	if len(fields) == 0 {
		return nil
	}
	if ix, ok := ast.Unparen(call.Fun).(*ast.IndexExpr); ok {
		if id, ok := ast.Unparen(ix.X).(*ast.Ident); ok {
			v, _ := info.Uses[id].(*types.Var)
			return fields[v]
		}
		return nil
	}
	return fields[SelectedField(info, call.Fun)]
}
