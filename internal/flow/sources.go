package flow

import (
	"go/ast"
	"go/types"
	"maps"
	"slices"
)

// Source is one value that a variable or field is given somewhere in a
// package: the expression Expr, or result Result of the call Call (v, w :=
// f()). An analyzer may add sources of its own (an out-argument &v that a
// runtime call writes) with Expr and Call as it documents.
type Source struct {
	Expr   ast.Expr
	Call   *ast.CallExpr
	Result int
}

// Sources is a flow-insensitive index of what a package's code stores: a
// variable's (or a field's, in every value) sources are everything
// assigned to it anywhere, in source order. It is the basis of
// analyses that take "a variable holds the union of what it is given",
// such as the provenance of a pointer.
type Sources struct {
	// Of holds what is assigned to each variable (v = e, var v = e, v, w =
	// f()) and to each field in every value (x.f = e, T{f: e}).
	Of map[types.Object][]Source
	// Elems holds what is stored into each variable's elements (a[i] = e).
	Elems map[types.Object][]ast.Expr
	// Fields holds what is stored into each field of each variable (v.f =
	// e), by the field's location (v ".f").
	Fields map[Loc][]Source
	// funcs holds the package's function declarations, ranges the range
	// statements that assign each variable, declared the value each local
	// variable is declared with (x := e, var x = e) (valueflow.go).
	funcs    map[*types.Func]*ast.FuncDecl
	ranges   map[types.Object][]rangeVar
	declared map[types.Object]ast.Expr
	// litCalls: the calls that pass a function literal, until
	// bindAllCallbacks binds its parameters.
	litCalls []*ast.CallExpr
}

// indexSources indexes what the files store (Assigned's assignments and
// declarations, and the fields struct literals set).
func indexSources(info *types.Info, files []*ast.File) *Sources {
	s, visit := newSources(info)
	for _, f := range files {
		ast.Inspect(f, visit)
	}
	s.bindAllCallbacks(info)
	return s
}

// bindAllCallbacks binds the parameters of the closures passed to the
// package's helpers (callbacks.go), once every declaration is known.
func (s *Sources) bindAllCallbacks(info *types.Info) {
	for _, call := range s.litCalls {
		s.bindCallbacks(info, call)
	}
	s.litCalls = nil
}

// Sources returns a Sources of the package's user files (cgo's support
// files left out) that the caller may add to (AddOut): a copy of
// SharedSources, whose maps of sources (Of, Fields) are its own.
func (x *Index) Sources() *Sources {
	return x.SharedSources().clone()
}

// SharedSources returns the Sources of the package's user files, built once
// for every analyzer (three built it each, a tenth of the analysis'
// allocation on the generated benchmark module: docs/performance.md, "Issue
// 33: the analysis' own cost"). It is shared: read it, never add to it (use
// Sources). Its lists are clipped, so that an append to one makes a copy.
func (x *Index) SharedSources() *Sources {
	x.srcOnce.Do(func() {
		x.build()
		x.srcs = x.buildSources()
	})
	if x.srcs == nil { // released (Release)
		s, _ := newSources(nil)
		return s
	}
	return x.srcs
}

// buildSources is IndexSources over the Index's list of nodes.
func (x *Index) buildSources() *Sources {
	s, visit := newSources(x.info)
	for _, f := range x.user {
		x.Walk(f, visit)
	}
	for _, fn := range x.Funcs() { // declarations are not listed
		if fn.Decl != nil {
			s.indexValueFlow(x.info, fn.Decl)
		}
	}
	s.bindAllCallbacks(x.info)
	s.clip()
	return s
}

// clip gives every list of s its length as capacity: an append to one,
// by AddOut on a copy or by a reader, then copies it instead of writing
// into the shared array.
func (s *Sources) clip() {
	for k, v := range s.Of {
		s.Of[k] = slices.Clip(v)
	}
	for k, v := range s.Elems {
		s.Elems[k] = slices.Clip(v)
	}
	for k, v := range s.Fields {
		s.Fields[k] = slices.Clip(v)
	}
	for k, v := range s.ranges {
		s.ranges[k] = slices.Clip(v)
	}
}

// clone returns a copy of a clipped s whose maps that AddOut adds to are
// its own; the lists and the other maps are shared.
func (s *Sources) clone() *Sources {
	c := *s
	c.Of = maps.Clone(s.Of)
	c.Fields = maps.Clone(s.Fields)
	return &c
}

// newSources returns an empty index and the visit that fills it, node by
// node.
func newSources(info *types.Info) (*Sources, func(ast.Node) bool) {
	s := &Sources{Of: map[types.Object][]Source{}, Elems: map[types.Object][]ast.Expr{}, Fields: map[Loc][]Source{},
		funcs: map[*types.Func]*ast.FuncDecl{}, ranges: map[types.Object][]rangeVar{}, declared: map[types.Object]ast.Expr{}}
	store := func(lhs, rhs ast.Expr, result int) {
		if rhs == nil {
			return
		}
		src := Source{Expr: rhs}
		if call, ok := ast.Unparen(rhs).(*ast.CallExpr); ok && (result > 0 || isMultiValue(info, call)) {
			src = Source{Call: call, Result: result}
		}
		if k, ok := fieldOfVar(info, lhs); ok {
			s.Fields[k] = append(s.Fields[k], src)
		}
		if o := StoredObject(info, lhs); o != nil {
			s.Of[o] = append(s.Of[o], src)
		} else if ie, ok := ast.Unparen(lhs).(*ast.IndexExpr); ok && src.Expr != nil {
			if o := StoredObject(info, ie.X); o != nil {
				s.Elems[o] = append(s.Elems[o], src.Expr)
			}
		}
	}
	return s, func(n ast.Node) bool {
		Assigned(n, store)
		s.indexValueFlow(info, n)
		if call, ok := n.(*ast.CallExpr); ok && passesLit(call) {
			s.litCalls = append(s.litCalls, call)
		}
		if lit, ok := n.(*ast.CompositeLit); ok {
			for _, fv := range LitFields(info, lit) {
				s.Of[fv.Field] = append(s.Of[fv.Field], Source{Expr: fv.Value})
			}
		}
		return true
	}
}

// isMultiValue reports whether call has several results.
func isMultiValue(info *types.Info, call *ast.CallExpr) bool {
	t, ok := info.TypeOf(call).(*types.Tuple)
	return ok && t.Len() > 1
}

// StoredObject returns what a store into e writes in every value: the
// field f for x.f, the variable v for v; nil for anything else.
func StoredObject(info *types.Info, e ast.Expr) types.Object {
	if f := SelectedField(info, e); f != nil {
		return f
	}
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil
	}
	if o := info.Defs[id]; o != nil {
		return o
	}
	return info.Uses[id]
}

// fieldOfVar returns the location of v.f, for a variable v and a field f.
func fieldOfVar(info *types.Info, e ast.Expr) (Loc, bool) {
	f := SelectedField(info, e)
	if f == nil {
		return Loc{}, false
	}
	id, ok := ast.Unparen(ast.Unparen(e).(*ast.SelectorExpr).X).(*ast.Ident)
	if !ok {
		return Loc{}, false
	}
	v, ok := info.Uses[id].(*types.Var)
	if !ok {
		return Loc{}, false
	}
	return Loc{Root: v}.Field(f.Name()), true
}

// storeDeps returns this package's functions whose results reach body
// through the package-wide index rather than through body's own calls:
// those called in what is stored (src) into the fields and package
// variables body reads, as a getter of a field reads what its constructor
// stores there. It is a Summaries.Deps for summaries computed over
// Sources.
func storeDeps(info *types.Info, pkg *types.Package, src *Sources, body *ast.BlockStmt) []*types.Func {
	var out []*types.Func
	seen := map[types.Object]bool{}
	ast.Inspect(body, func(n ast.Node) bool {
		var obj types.Object
		switch x := n.(type) {
		case *ast.SelectorExpr:
			obj = SelectedField(info, x)
		case *ast.Ident:
			if v, ok := info.Uses[x].(*types.Var); ok && v.Parent() == pkg.Scope() {
				obj = v
			}
		}
		if obj != nil && !seen[obj] {
			seen[obj] = true
			out = storedCallees(info, pkg, src, obj, out)
		}
		return true
	})
	return out
}

// StoreDeps is storeDeps over the Index's list of the fields
// and package variables each body names, made in the walk that builds the
// Index: graphfree and xnack each walked every body for them, looking up
// every identifier (4% of the analysis' CPU on the generated benchmark
// module).
func (x *Index) StoreDeps(pkg *types.Package, src *Sources, body *ast.BlockStmt) []*types.Func {
	x.build()
	sp, ok := x.ranges[body]
	if !ok {
		return storeDeps(x.info, pkg, src, body)
	}
	var out []*types.Func
	var seen map[types.Object]bool
	for _, v := range x.objList[sp.objs[0]:sp.objs[1]] {
		if !v.IsField() && v.Parent() != pkg.Scope() {
			continue // another package's variable
		}
		if seen[v] {
			continue
		}
		Put(&seen, types.Object(v), true)
		out = storedCallees(x.info, pkg, src, v, out)
	}
	return out
}

// storedCallees appends to out the functions of pkg called in what src
// stores into obj.
func storedCallees(info *types.Info, pkg *types.Package, src *Sources, obj types.Object, out []*types.Func) []*types.Func {
	for _, s := range src.Of[obj] {
		var stored ast.Node = s.Expr
		if s.Call != nil {
			stored = s.Call
		}
		if stored == nil {
			continue
		}
		ast.Inspect(stored, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if callee := Callee(info, call); callee != nil && callee.Pkg() == pkg {
					out = append(out, callee.Origin())
				}
			}
			return true
		})
	}
	return out
}

// passesLit reports whether call has a function literal argument.
func passesLit(call *ast.CallExpr) bool {
	for _, a := range call.Args {
		if _, ok := ast.Unparen(a).(*ast.FuncLit); ok {
			return true
		}
	}
	return false
}
