package modulebalance

import (
	"fmt"
	"go/ast"
	"go/types"
	"maps"
	"slices"

	"github.com/hiplint/hiplint/internal/flow"
)

// LoadsInto is the fact that a function loads a module into what the listed
// parameters point to (-1 is the receiver: `C.hipModuleLoad(&m.h, path)` in
// `func (m *Module) Load(path string) error`). The obligation to unload moves
// to the caller, whose variable now holds a module; Status is the result that
// says whether the load succeeded (-1 when none). Adds lists those of Params
// that the function adds a module to without replacing what they hold: it
// appends the module to a slice field or stores it in a map field
// (`p.mods = append(p.mods, m)` in `func (p *pool) add(img string) error`).
// The caller's variable then owns every module added so far, and a failed
// call leaves those loaded.
type LoadsInto struct {
	Params []int
	Status int
	Adds   []int
}

func (*LoadsInto) AFact() {}
func (f *LoadsInto) String() string {
	params := fmt.Sprintf("%v(status=%d)", f.Params, f.Status)
	return flow.FactText(" ", "loadsInto%s", params, "adds%s", flow.ListText(f.Adds))
}

// loadedParams returns the pointer parameters (and receiver) that fn loads
// a module into, through a field (`&m.h`), a store of a module it loaded
// into a local (loaded: localLoads; flow.StoresOf) or a callee that does,
// each with whether it replaces the module the parameter holds (false: it
// only adds to what it holds, by appends and map stores; LoadsInto.Adds).
func (a *analysis_) loadedParams(fn flow.Func, sig *types.Signature, loaded map[types.Object]bool) map[int]bool {
	replaces := map[int]bool{}
	mark := func(e ast.Expr, add bool) {
		if i, ok := flow.PointerParam(a.info, sig, e); ok {
			replaces[i] = replaces[i] || !add
		}
	}
	a.loadsIn(fn.Body, false, func(e ast.Expr, k loadKind) {
		switch k {
		case runtimeLoad:
			if x, isField := ast.Unparen(flow.Addressed(e)).(*ast.SelectorExpr); isField {
				mark(x, false)
			}
		case fills, addsTo:
			mark(e, k == addsTo)
		}
	})
	for _, st := range flow.StoresOf(a.info, fn.Body, loaded, a.holdsModule) {
		mark(st.To, st.Add) // p.mods = append(p.mods, m), p.m = m
	}
	return replaces
}

// loadsIntoOf is the LoadsInto summary of the parameters fn loads into
// (loadedParams). A parameter fn also unloads is left out (a Reload: the
// caller's obligation does not change), and so is one that fn hands to a
// finalizer (flow.FinalizedVars), which then owns the module.
func (a *analysis_) loadsIntoOf(fn flow.Func, sig *types.Signature, replaces map[int]bool, unloaded []int) LoadsInto {
	finalized := flow.FinalizedVars(a.info, fn.Body)
	li := LoadsInto{Status: flow.LastResult(sig, flow.IsStatus)}
	for _, i := range slices.Sorted(maps.Keys(replaces)) {
		// The package sets a finalizer (or a cleanup) on values of p's
		// named type: the finalizer then owns what is loaded into them.
		if a.finalized == nil {
			a.finalized = flow.FinalizedTypes(a.info, a.idx.Funcs())
		}
		p := flow.ParamVar(sig, i)
		n := flow.NamedOf(p.Type())
		if slices.Contains(unloaded, i) || slices.Contains(finalized, p) || n != nil && a.finalized[n.Obj()] {
			continue
		}
		li.Params = append(li.Params, i)
		if !replaces[i] {
			li.Adds = append(li.Adds, i)
		}
	}
	return li
}
