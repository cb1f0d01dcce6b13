package graphfree

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/hiplint/hiplint/internal/cgocall"
	"github.com/hiplint/hiplint/internal/flow"
	"github.com/hiplint/hiplint/internal/hipapi"
)

// fieldAlloc is the one kind of allocation a struct field holds everywhere
// in the package: a type that allocates into p.ptr in one method and adds a
// free node for p.ptr in another (issue 19).
type fieldAlloc struct {
	allocSite        // the allocation (its position, API, kind and family)
	method    string // the function that stores it
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
	// The out arguments of allocations (&x.f, &v) and each local variable's
	// allocations, from the index's runtime calls: one pass, not a walk of
	// the function per store.
	allocOuts := map[*ast.UnaryExpr]fieldAlloc{}
	localAllocs := map[*types.Var][]fieldAlloc{}
	for _, c := range a.idx.RuntimeCalls() {
		if c.Func.Role != hipapi.Alloc {
			continue
		}
		u, ok := flow.StripConversions(info, c.Arg(c.Func.Out)).(*ast.UnaryExpr)
		if !ok || u.Op != token.AND {
			continue
		}
		al := fieldAlloc{allocSite: allocSite{pos: c.Pos(), api: c.Func.Name, kind: allocKinds[c.Func.Alloc], fam: c.Func.Family}}
		allocOuts[u] = al
		if id, ok := ast.Unparen(u.X).(*ast.Ident); ok {
			if v, ok := info.Uses[id].(*types.Var); ok {
				localAllocs[v] = append(localAllocs[v], al)
			}
		}
	}
	var writes []write
	assigned := map[*types.Var]bool{} // local variables assigned anything
	writesOf(info, a.idx.Funcs(), func(w write) {
		if w.Target.IsField() {
			writes = append(writes, w)
		} else if w.Addr == nil {
			assigned[w.Target] = true
		}
	})
	a.fields = uniformFields(a.pass.Pkg, writes, func(w write) (fieldAlloc, Kind, bool) {
		var fa fieldAlloc
		var ok bool
		if w.Addr != nil {
			// &x.f: an allocation's out argument, or anything.
			fa, ok = allocOuts[w.Addr]
			ok = ok && fa.kind.known()
		} else {
			fa, ok = a.storedAlloc(w.Value, localAllocs, assigned)
		}
		fa.method = "a function literal"
		if obj := w.Func.Object(info); obj != nil {
			fa.method = obj.Name()
		}
		return fa, fa.kind, ok
	})
	return a.fields
}

// storedAlloc classifies a value stored into a field: params.dptr (a graph
// allocation), or a local variable that only allocations of one kind write.
func (a *analyzer) storedAlloc(e ast.Expr, localAllocs map[*types.Var][]fieldAlloc, assigned map[*types.Var]bool) (fieldAlloc, bool) {
	info := a.pass.TypesInfo
	e = flow.StripConversions(info, e) // nil stays nil
	if sel, ok := e.(*ast.SelectorExpr); ok && sel.Sel.Name == "dptr" {
		if t := info.TypeOf(sel.X); t != nil && cgocall.IsAllocNodeParams(t) {
			return fieldAlloc{allocSite: allocSite{pos: sel.Pos(), api: "hipGraphAddMemAllocNode", kind: KindGraph}}, true
		}
		return fieldAlloc{}, false
	}
	id, _ := e.(*ast.Ident) // nil: not a variable, and no use
	v, ok := flow.IsLocalVar(info.Uses[id])
	if !ok || assigned[v] {
		return fieldAlloc{}, false
	}
	allocs := localAllocs[v]
	if len(allocs) == 0 || slices.ContainsFunc(allocs, func(al fieldAlloc) bool { return !al.kind.known() || al.kind != allocs[0].kind }) {
		return fieldAlloc{}, false
	}
	return allocs[0], true
}

// known reports whether k is the kind of memory a field holds wherever it is
// used: not unknown, nor stream-ordered (the capture where it is allocated
// decides).
func (k Kind) known() bool { return k.class() == notGraphClass || k.class() == graphClass }

// fieldValue returns what a free node frees at path inside e (its pointer,
// or a wrapper's argument): v, or when the function's own flow knows
// nothing of it (v is empty) the allocation its field always holds.
func (fa *funcAnalysis) fieldValue(v val, e ast.Expr, path string) val {
	f := fieldAt(fa.info, fa.pass.Pkg, e, path)
	if !v.Empty() || f == nil {
		return v
	}
	alloc, ok := fa.fieldAllocs()[f]
	if !ok || alloc.kind.class() != notGraphClass {
		return v
	}
	api := alloc.api + " (stored in field " + f.Name() + " by " + alloc.method + ")"
	return val{sites: []int{fa.site(alloc.pos, alloc.kind, api, "field", alloc.fam)}}
}

// globalValue returns what a free node frees at e (a package variable, a
// field of one, or a getter's package variable: pool.buf, Shared()) when the
// function's own flow knows nothing of it (v is empty): the allocations
// stored there anywhere in the package (an init, another function), when
// every value stored there is the result of an allocation (C.malloc, a
// function that returns memory); else v.
func (fa *funcAnalysis) globalValue(v val, e ast.Expr, path string, s *state) val {
	if !v.Empty() || path != "" {
		return v
	}
	e = flow.StripConversions(fa.info, e)
	l, ok := fa.lc.Of(e)
	if call, isCall := e.(*ast.CallExpr); isCall {
		if _, byRef := flow.GetterOf(fa.pass, fa.idx.Callee(call)); byRef || len(call.Args) > 0 {
			return v
		}
		l, ok = flow.GetterLoc(fa.pass, nil, call) // a getter of a package variable: p is not needed
	}
	if !ok || l.Root.Parent() != fa.pass.Pkg.Scope() || strings.Contains(l.Path, "[") || strings.Count(l.Path, ".") > 1 {
		return v
	}
	src := fa.sources()
	stored := src.Of[l.Root]
	if l.Path != "" {
		stored = src.Fields[l]
		for _, root := range src.Of[l.Root] { // var pool = T{buf: ...}
			if root.Expr == nil {
				return v
			}
			lit, isLit := flow.StripAddr(root.Expr).(*ast.CompositeLit)
			if !isLit {
				return v
			}
			for _, fv := range flow.LitFields(fa.info, lit) {
				if "."+fv.Field.Name() == l.Path {
					stored = append(stored, flow.Source{Expr: fv.Value})
				}
			}
		}
	}
	var out val
	for _, st := range stored {
		call, result := st.Call, st.Result
		if call == nil {
			call, _ = flow.StripConversions(fa.info, st.Expr).(*ast.CallExpr)
		}
		if call == nil {
			return v // nil, a local's value, ...: not known everywhere
		}
		t, ok := fa.callValue(call, result, s)
		if !ok || t[""].Empty() {
			return v
		}
		out = out.Union(t[""])
	}
	return out
}
