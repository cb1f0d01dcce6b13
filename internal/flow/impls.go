package flow

import (
	"go/ast"
	"go/types"
	"sort"

	"golang.org/x/tools/go/analysis"
)

// Impls finds the concrete methods a call through an interface may reach,
// for code written against an interface over several runtimes (a Runtime
// with HIP and CUDA implementations). The candidates are the named types of
// the package being analyzed and of the packages that exported facts of the
// analyzer: the only implementations whose behavior the analyzer knows.
// Analyzers combine the implementations' summaries so that a call through
// the interface does what every implementation does.
type Impls struct {
	pass  *analysis.Pass
	types []*types.TypeName // candidate types, built on first use
	cache map[*types.Func][]*types.Func
}

// NewImpls returns an empty finder for pass.
func NewImpls(pass *analysis.Pass) *Impls {
	return &Impls{pass: pass, cache: map[*types.Func][]*types.Func{}}
}

// isInterfaceMethod reports whether fn is a method of an interface type.
func isInterfaceMethod(fn *types.Func) bool {
	if fn == nil {
		return false
	}
	recv := fn.Signature().Recv()
	return recv != nil && types.IsInterface(recv.Type())
}

// Of returns the concrete methods implementing the interface method m
// (origins, in a stable order), or nil when m is not an interface method or
// no candidate type implements its interface. It never returns an interface
// method, so a summary of m built from the summaries of Of(m) recurses at
// most one level: callers need no visited set of their own for it.
func (x *Impls) Of(m *types.Func) []*types.Func {
	if !isInterfaceMethod(m) {
		return nil
	}
	if out, ok := x.cache[m]; ok {
		return out
	}
	iface, _ := m.Signature().Recv().Type().Underlying().(*types.Interface)
	var out []*types.Func
	if iface != nil {
		for _, tn := range x.candidates() {
			t := tn.Type()
			if types.IsInterface(t) {
				continue
			}
			if named, ok := t.(*types.Named); ok && named.TypeParams().Len() > 0 {
				continue
			}
			if !LookupSafe(t) { // go/types would never return (TypeWalk)
				continue
			}
			var impl types.Type
			switch {
			case types.Implements(t, iface):
				impl = t
			case types.Implements(types.NewPointer(t), iface):
				impl = types.NewPointer(t)
			default:
				continue
			}
			obj, _, _ := types.LookupFieldOrMethod(impl, true, m.Pkg(), m.Name())
			// A struct that embeds an interface implements it through the
			// interface's own method: that is no concrete implementation, and
			// returning it would make every caller that combines the
			// implementations' summaries recurse into this method again
			// (issue 16: a fatal stack overflow).
			if fn, ok := obj.(*types.Func); ok && !isInterfaceMethod(fn) {
				out = append(out, fn.Origin())
			}
		}
	}
	x.cache[m] = out
	return out
}

func (x *Impls) candidates() []*types.TypeName {
	if x.types != nil {
		return x.types
	}
	pkgs := map[*types.Package]bool{x.pass.Pkg: true}
	for _, f := range x.pass.AllObjectFacts() {
		if p := f.Object.Pkg(); p != nil {
			pkgs[p] = true
		}
	}
	sorted := make([]*types.Package, 0, len(pkgs))
	for p := range pkgs {
		sorted = append(sorted, p)
	}
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Path() < sorted[j].Path() })
	x.types = []*types.TypeName{}
	for _, p := range sorted {
		scope := p.Scope()
		for _, name := range scope.Names() {
			if tn, ok := scope.Lookup(name).(*types.TypeName); ok && !tn.IsAlias() {
				x.types = append(x.types, tn)
			}
		}
	}
	return x.types
}

// localRefs returns the functions and methods of the package being analyzed
// that body refers to, called or not, and, when impls is not nil, those that
// implement the interface methods it refers to: the functions of this
// package whose summaries the summary of body's function may depend on.
// Analyzers compute summaries to a fixpoint and analyze a function again
// only when one of these changed. The walk of body is the index's, made once
// for all analyzers (Index.funcRefs).
func localRefs(pass *analysis.Pass, x *Index, impls *Impls, body *ast.BlockStmt) []*types.Func {
	// A slice in the order of first mention, not a set: Solve reads it once
	// per function and analyzer, and a map made each time was a tenth of
	// what the solver allocated.
	// The list is sized for the body's references (one each, most of
	// them of the package): grown by doubling, it was most of what this
	// cost.
	mentioned := x.funcRefs(body)
	refs := funcList{list: make([]*types.Func, 0, len(mentioned))}
	add := func(fn *types.Func) {
		if fn.Pkg() == pass.Pkg {
			refs.Add(fn)
		}
	}
	for _, fn := range mentioned {
		add(fn.Origin())
		if impls != nil {
			for _, impl := range impls.Of(fn) {
				add(impl)
			}
		}
	}
	return refs.list
}
