package graphfree

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/hiplint/hiplint/internal/cgocall"
	"github.com/hiplint/hiplint/internal/flow"
	"github.com/hiplint/hiplint/internal/hipapi"
)

// fieldAlloc is the one kind of allocation a struct field holds everywhere
// in the package: a type that allocates into p.ptr in one method and adds a
// free node for p.ptr in another (issue 19).
type fieldAlloc struct {
	kind   Kind
	api    string
	pos    token.Pos
	fam    hipapi.Family
	method string // the function that stores it
}

// fieldAllocs finds the fields of this package's struct types that only ever
// hold allocations of one kind: every store into the field (an allocation
// into &x.f, x.f = v for a local v that only allocations write, x.f =
// params.dptr of an alloc node, a composite literal's f: v) is classified,
// and anything else (a parameter, a call, &x.f handed to another function)
// makes the field unknown. Stream-ordered allocations (capture decides) are
// unknown too.
func (a *analyzer) fieldAllocs() map[*types.Var]fieldAlloc {
	if a.fields != nil {
		return a.fields
	}
	info := a.pass.TypesInfo
	out := map[*types.Var]fieldAlloc{}
	poisoned := map[*types.Var]bool{}
	put := func(f *types.Var, fa fieldAlloc, ok bool) {
		if f == nil || f.Pkg() != a.pass.Pkg || f.Exported() || poisoned[f] {
			return // other packages may store into an exported field
		}
		prev, had := out[f]
		if !ok || had && (prev.kind != fa.kind) {
			poisoned[f] = true
			delete(out, f)
			return
		}
		if !had {
			out[f] = fa
		}
	}
	for _, fn := range a.idx.Funcs() {
		name := "a function literal"
		if obj := fn.Object(info); obj != nil {
			name = obj.Name()
		}
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncLit:
				return false // its own entry in Funcs
			case *ast.AssignStmt:
				if len(x.Lhs) != len(x.Rhs) {
					for _, l := range x.Lhs {
						put(fieldSelected(info, l), fieldAlloc{}, false)
					}
					return true
				}
				for i, l := range x.Lhs {
					if f := fieldSelected(info, l); f != nil {
						fa, ok := a.storedAlloc(fn.Body, x.Rhs[i])
						fa.method = name
						put(f, fa, ok)
					}
				}
			case *ast.CompositeLit:
				for _, el := range x.Elts {
					kv, ok := el.(*ast.KeyValueExpr)
					if !ok {
						continue
					}
					if id, ok := kv.Key.(*ast.Ident); ok {
						if f, ok := info.Uses[id].(*types.Var); ok && f.IsField() {
							fa, ok := a.storedAlloc(fn.Body, kv.Value)
							fa.method = name
							put(f, fa, ok)
						}
					}
				}
			case *ast.UnaryExpr:
				// &x.f anywhere: an allocation's out parameter is handled
				// at the call; anything else may store anything.
				if f := fieldSelected(info, x.X); f != nil && x.Op == token.AND && !a.isAllocOut(fn.Body, x) {
					put(f, fieldAlloc{}, false)
				}
			case *ast.CallExpr:
				c := a.idx.Match(x)
				if c == nil || c.Func.Role != hipapi.Alloc {
					return true
				}
				u, ok := flow.StripConversions(info, c.Arg(c.Func.Out)).(*ast.UnaryExpr)
				if !ok || u.Op != token.AND {
					return true
				}
				if f := fieldSelected(info, u.X); f != nil {
					k := kindOfAlloc(c.Func.Alloc)
					put(f, fieldAlloc{kind: k, api: c.Func.Name, pos: c.Pos(), fam: c.Func.Family, method: name},
						k != KindUnknown && k != KindStreamOrdered && k != KindPool)
				}
			}
			return true
		})
	}
	a.fields = out
	return out
}

// isAllocOut reports whether u (&x.f) is the out argument of an allocation.
func (a *analyzer) isAllocOut(body *ast.BlockStmt, u *ast.UnaryExpr) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if found {
			return false
		}
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if c := a.idx.Match(call); c != nil && c.Func.Role == hipapi.Alloc {
			if out, ok := flow.StripConversions(a.pass.TypesInfo, c.Arg(c.Func.Out)).(*ast.UnaryExpr); ok && out == u {
				found = true
			}
		}
		return !found
	})
	return found
}

// storedAlloc classifies a value stored into a field: params.dptr (a graph
// allocation), or a local variable written only by allocations of one kind
// in body.
func (a *analyzer) storedAlloc(body *ast.BlockStmt, e ast.Expr) (fieldAlloc, bool) {
	info := a.pass.TypesInfo
	e = flow.StripConversions(info, e)
	if sel, ok := e.(*ast.SelectorExpr); ok && sel.Sel.Name == "dptr" {
		if t := info.TypeOf(sel.X); t != nil && (isAllocParams(t)) {
			return fieldAlloc{kind: KindGraph, api: "hipGraphAddMemAllocNode", pos: sel.Pos()}, true
		}
		return fieldAlloc{}, false
	}
	id, ok := e.(*ast.Ident)
	if !ok {
		return fieldAlloc{}, false
	}
	v, ok := info.Uses[id].(*types.Var)
	if !ok || v.IsField() || v.Parent() == nil || v.Parent() == a.pass.Pkg.Scope() {
		return fieldAlloc{}, false
	}
	var out fieldAlloc
	found, ok := false, true
	ast.Inspect(body, func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch x := n.(type) {
		case *ast.AssignStmt:
			for _, l := range x.Lhs {
				if lid, isID := l.(*ast.Ident); isID && (info.Defs[lid] == v || info.Uses[lid] == v) {
					ok = false // v = something: not only allocations
				}
			}
		case *ast.CallExpr:
			c := a.idx.Match(x)
			if c == nil || c.Func.Role != hipapi.Alloc {
				return true
			}
			u, isAddr := flow.StripConversions(info, c.Arg(c.Func.Out)).(*ast.UnaryExpr)
			if !isAddr || u.Op != token.AND {
				return true
			}
			if uid, isID := ast.Unparen(u.X).(*ast.Ident); isID && info.Uses[uid] == v {
				k := kindOfAlloc(c.Func.Alloc)
				if k == KindUnknown || k == KindStreamOrdered || k == KindPool || found && k != out.kind {
					ok = false
					return false
				}
				out, found = fieldAlloc{kind: k, api: c.Func.Name, pos: c.Pos(), fam: c.Func.Family}, true
			}
			return true
		}
		return true
	})
	return out, ok && found
}

// isAllocParams reports whether t is an alloc node's parameter struct.
func isAllocParams(t types.Type) bool {
	for _, n := range []string{"hipMemAllocNodeParams", "struct_hipMemAllocNodeParams", "cudaMemAllocNodeParams",
		"struct_cudaMemAllocNodeParams", "CUDA_MEM_ALLOC_NODE_PARAMS", "struct_CUDA_MEM_ALLOC_NODE_PARAMS_st"} {
		if cgocall.IsCType(t, n) {
			return true
		}
	}
	return false
}

// fieldSelected returns the field e selects (x.f), or nil.
func fieldSelected(info *types.Info, e ast.Expr) *types.Var {
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

// fieldValue returns, for a free node's pointer that the function's own flow
// knows nothing of, the allocation its field always holds.
func (fa *funcAnalysis) fieldValue(ptr ast.Expr) (val, bool) {
	f := fieldSelected(fa.info, flow.StripConversions(fa.info, ptr))
	if f == nil {
		return val{}, false
	}
	alloc, ok := fa.fieldAllocs()[f]
	if !ok || !alloc.kind.notGraph() {
		return val{}, false
	}
	api := alloc.api + " (stored in field " + f.Name() + " by " + alloc.method + ")"
	return val{sites: []int{fa.site(alloc.pos, alloc.kind, api, "field", alloc.fam)}}, true
}
