package modulebalance

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/hiplint/hiplint/internal/flow"
)

// fieldAlias is a field of a fresh local struct that holds, for the whole
// function, the value of another local variable: h.mod is md after
// h := &Handle[int]{mod: md} (or h.mod = md). Field is h ".mod", Value md
// "", and Stores the expressions that put it there (md in the literal), so
// that the store itself is no escape of md.
type fieldAlias struct {
	Field, Value flow.Loc
	Stores       []ast.Expr
}

// fieldAliases returns the fields of the local structs of body (closures
// included) that alias a local variable of a type holds accepts, so that
// whatever an analyzer tracks at md is reached through h too (h.Release()
// unloads md; returning h hands md on). A struct counts when its variable is
// assigned once, a composite literal or its address, and never has its
// address taken; the field when it gets one value only, by that literal or
// by plain stores of the same variable, itself assigned once and never
// addressed. Positional literals are left out.
func fieldAliases(info *types.Info, body *ast.BlockStmt, holds func(types.Type) bool) []fieldAlias {
	assigns := map[types.Object]int{} // assignments, &v counting as many
	fresh := map[types.Object]bool{}  // v := &T{...}, v := T{...}
	type value struct {
		v     types.Object // nil: not a local variable
		store ast.Expr
	}
	values := map[flow.Loc][]value{}
	local := func(e ast.Expr) types.Object {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return nil
		}
		v, _ := info.ObjectOf(id).(*types.Var)
		if v == nil || v.IsField() || !flow.Declares(body, v) {
			return nil
		}
		return v
	}
	literal := func(v types.Object, e ast.Expr) {
		if u, ok := ast.Unparen(e).(*ast.UnaryExpr); ok && u.Op == token.AND {
			e = u.X
		}
		lit, ok := ast.Unparen(e).(*ast.CompositeLit)
		if !ok {
			return
		}
		if _, isStruct := info.TypeOf(lit).Underlying().(*types.Struct); !isStruct {
			return
		}
		fresh[v] = true
		for _, el := range lit.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				if key, ok := kv.Key.(*ast.Ident); ok {
					l := flow.Loc{Root: v, Path: "." + key.Name}
					values[l] = append(values[l], value{local(kv.Value), kv.Value})
				}
			}
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.AssignStmt:
			for i, lhs := range x.Lhs {
				if v := local(lhs); v != nil {
					assigns[v]++
					if len(x.Lhs) == len(x.Rhs) && x.Tok == token.DEFINE {
						literal(v, x.Rhs[i])
					}
					continue
				}
				// h.mod = md: a store into a field of a local struct.
				sel, ok := ast.Unparen(lhs).(*ast.SelectorExpr)
				if !ok {
					continue
				}
				if s := info.Selections[sel]; s == nil || s.Kind() != types.FieldVal {
					continue
				}
				if h := local(sel.X); h != nil {
					l := flow.Loc{Root: h, Path: "." + sel.Sel.Name}
					var val value // nil: a tuple or an operator assignment
					if len(x.Lhs) == len(x.Rhs) && x.Tok == token.ASSIGN {
						val = value{local(x.Rhs[i]), x.Rhs[i]}
					}
					values[l] = append(values[l], val)
				}
			}
		case *ast.ValueSpec:
			for i, name := range x.Names {
				if v := local(name); v != nil {
					assigns[v]++
					if len(x.Values) == len(x.Names) {
						literal(v, x.Values[i])
					}
				}
			}
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{x.Key, x.Value} {
				if v := local(e); v != nil {
					assigns[v] += 2 // once per iteration
				}
			}
		case *ast.IncDecStmt:
			if v := local(x.X); v != nil {
				assigns[v] += 2
			}
		case *ast.UnaryExpr:
			if x.Op == token.AND {
				if v := local(x.X); v != nil {
					assigns[v] += 2 // written through the pointer, maybe
				}
			}
		}
		return true
	})
	var out []fieldAlias
	for l, vals := range values {
		if !fresh[l.Root] || assigns[l.Root] != 1 {
			continue
		}
		var stores []ast.Expr
		for _, val := range vals {
			if val.v == nil || val.v != vals[0].v {
				stores = nil
				break
			}
			stores = append(stores, val.store)
		}
		if len(stores) == 0 || assigns[vals[0].v] != 1 || !holds(vals[0].v.Type()) {
			continue
		}
		out = append(out, fieldAlias{Field: l, Value: flow.Loc{Root: vals[0].v}, Stores: stores})
	}
	slices.SortFunc(out, func(a, b fieldAlias) int { return int(a.Stores[0].Pos() - b.Stores[0].Pos()) })
	return out
}
