package flow

import (
	"go/ast"
	"go/types"
	"reflect"

	"golang.org/x/tools/go/analysis"
)

// Table holds one kind of function summary F: this package's, computed by
// the analyzer, and the imported ones, read from facts of type *F. It is the
// one place where "this package's summary, else the imported fact, else the
// meet over an interface method's implementations" is decided.
type Table[F any, PF interface {
	*F
	analysis.Fact
}] struct {
	pass  *analysis.Pass
	impls *Impls
	local map[*types.Func]F
	// imported caches the facts read (nil: none): an analysis asks for
	// the same callee's summary at every call and in every analysis of the
	// fixpoint, and reading a fact allocates a fresh *F.
	imported map[*types.Func]*F
	// Meet combines the summaries of an interface method's
	// implementations; nil: interface methods have no summary.
	Meet func([]F) F
	// Empty says whether a summary says nothing (it is not exported);
	// nil: the zero value and values whose slices and maps are all empty.
	Empty func(F) bool
	// Equal compares summaries; nil: reflect.DeepEqual.
	Equal func(a, b F) bool
	// Imported, if set, completes a fact read from another package once,
	// before it is kept: with what facts do not carry across packages
	// (positions, which point to fn's declaration).
	Imported func(fn *types.Func, f *F)
}

// NewTable returns an empty table for pass.
func NewTable[F any, PF interface {
	*F
	analysis.Fact
}](pass *analysis.Pass, impls *Impls) *Table[F, PF] {
	return &Table[F, PF]{pass: pass, impls: impls, local: map[*types.Func]F{}}
}

// Of returns fn's summary and whether it has one.
func (t *Table[F, PF]) Of(fn *types.Func) (F, bool) {
	var zero F
	if fn == nil {
		return zero, false
	}
	if t.impls != nil && t.Meet != nil {
		if impls := t.impls.Of(fn); impls != nil {
			var fs []F
			for _, m := range impls {
				f, _ := t.Of(m) // impls never holds an interface method: one level
				fs = append(fs, f)
			}
			f := t.Meet(fs)
			return f, !t.empty(f)
		}
	}
	if fn.Pkg() == t.pass.Pkg {
		f, ok := t.local[fn.Origin()]
		return f, ok && !t.empty(f)
	}
	key := fn.Origin()
	if p, ok := t.imported[key]; ok {
		if p == nil {
			return zero, false
		}
		return *p, true
	}
	if t.imported == nil {
		t.imported = map[*types.Func]*F{}
	}
	p := new(F)
	if !importedFact(t.pass, fn, PF(p)) {
		p = nil
	} else if t.Imported != nil {
		t.Imported(key, p)
	}
	t.imported[key] = p
	if p == nil {
		return zero, false
	}
	return *p, true
}

// Local returns this package's summary of fn, without facts or
// implementations.
func (t *Table[F, PF]) Local(fn *types.Func) (F, bool) {
	f, ok := t.local[fn]
	return f, ok && !t.empty(f)
}

// Set records fn's summary and reports whether it changed.
func (t *Table[F, PF]) Set(fn *types.Func, f F) bool {
	old, had := t.local[fn]
	if had && t.equal(old, f) || !had && t.empty(f) {
		return false
	}
	t.local[fn] = f
	return true
}

// Export exports the non-empty summaries of funcs as facts.
func (t *Table[F, PF]) Export(funcs []*types.Func) {
	for _, fn := range funcs {
		if f, ok := t.local[fn]; ok && !t.empty(f) {
			p := new(F)
			*p = f
			t.pass.ExportObjectFact(fn, PF(p))
		}
	}
}

func (t *Table[F, PF]) equal(a, b F) bool {
	if t.Equal != nil {
		return t.Equal(a, b)
	}
	return reflect.DeepEqual(a, b)
}

func (t *Table[F, PF]) empty(f F) bool {
	if t.Empty != nil {
		return t.Empty(f)
	}
	return isEmpty(reflect.ValueOf(f))
}

func isEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			if !isEmpty(v.Field(i)) {
				return false
			}
		}
		return true
	case reflect.Slice, reflect.Map:
		return v.Len() == 0
	}
	return v.IsZero()
}

// maxAnalyses bounds how often Summaries analyzes one function: the one
// bound on the summary fixpoint. Functions are analyzed callees first, so an
// acyclic chain of wrappers of any depth settles in one analysis each; only
// recursion needs more, and a summary lattice that kept changing longer is
// cut off here. A function whose summary was still changing, or that
// depends on one, is not final: its analysis is redone for reporting.
const maxAnalyses = 8

// Summaries computes the summaries of a package's declared functions to a
// fixpoint, over a dirty worklist.
type Summaries[A any] struct {
	Pass  *analysis.Pass
	Index *Index
	Impls *Impls
	// Deps returns functions of this package that fn's analysis depends on
	// beyond those its body refers to (function-valued fields); optional.
	Deps func(fn Func) []*types.Func
	// Relevant says whether fn needs analyzing at all; nil: every function.
	Relevant func(fn Func) bool
	// Analyze analyzes fn once, with the summaries known so far.
	Analyze func(fn Func) A
	// Update records a's summary of obj and reports whether it changed.
	Update func(obj *types.Func, a A) bool
}

// Solve analyzes funcs to a fixpoint of their summaries. It returns, by
// index in funcs, each declared function's last analysis when it is final:
// nothing it depends on changed after it. Others (literals, irrelevant
// functions, functions cut off by MaxAnalyses) have ok false.
func (s Summaries[A]) Solve(funcs []Func) (final []A, ok []bool) {
	info := s.Pass.TypesInfo
	final = make([]A, len(funcs))
	ok = make([]bool, len(funcs))
	objs := make([]*types.Func, len(funcs))
	decls := 0
	for i, fn := range funcs {
		if obj := fn.Object(info); obj != nil && fn.Decl != nil {
			objs[i] = obj
			decls++
		}
	}
	// Sized, not grown: this map was half of what Solve allocated itself.
	byObj := make(map[*types.Func]int, decls)
	for i, obj := range objs {
		if obj != nil {
			byObj[obj] = i
		}
	}
	// deps[i]: the functions i depends on; callers[j]: those depending on j.
	deps := make([][]int, len(funcs))
	callers := make([][]int, len(funcs))
	for i, fn := range funcs {
		if objs[i] == nil {
			continue
		}
		add := func(callee *types.Func) {
			if j, ok := byObj[callee]; ok {
				deps[i] = append(deps[i], j)
				callers[j] = append(callers[j], i)
			}
		}
		for _, callee := range localRefs(s.Pass, s.Index, s.Impls, fn.Body) {
			add(callee)
		}
		if s.Deps != nil {
			for _, callee := range s.Deps(fn) {
				add(callee)
			}
		}
	}
	order := calleesFirst(objs, deps)
	dirty := make([]bool, len(funcs))
	queued := make([]bool, len(funcs))
	count := make([]int, len(funcs))
	work := make([]int, 0, len(order))
	for _, i := range order {
		dirty[i], queued[i] = true, true
		work = append(work, i)
	}
	for len(work) > 0 {
		i := work[0]
		work = work[1:]
		queued[i] = false
		if count[i] == maxAnalyses {
			continue // stays dirty: not final
		}
		count[i]++
		dirty[i] = false
		ok[i] = false
		var zero A
		final[i] = zero
		if s.Relevant != nil && !s.Relevant(funcs[i]) {
			// Irrelevant functions have no summary; one that had one
			// (a relevance that changed) keeps its last.
			continue
		}
		a := s.Analyze(funcs[i])
		final[i], ok[i] = a, true
		if !s.Update(objs[i], a) {
			continue
		}
		for _, j := range callers[i] {
			dirty[j] = true
			if !queued[j] && count[j] < maxAnalyses {
				queued[j] = true
				work = append(work, j)
			}
		}
	}
	for i := range ok {
		if dirty[i] {
			ok[i] = false
			var zero A
			final[i] = zero
		}
	}
	return final, ok
}

// calleesFirst orders the declared functions (objs[i] != nil) so that each
// comes after the functions it depends on, but for cycles: a post-order of
// an iterative depth-first search, which needs no stack however deep the
// call graph.
func calleesFirst(objs []*types.Func, deps [][]int) []int {
	seen := make([]bool, len(objs))
	var order []int
	type frame struct{ i, next int }
	for root := range objs {
		if objs[root] == nil || seen[root] {
			continue
		}
		seen[root] = true
		stack := []frame{{root, 0}}
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.next < len(deps[top.i]) {
				j := deps[top.i][top.next]
				top.next++
				if !seen[j] {
					seen[j] = true
					stack = append(stack, frame{j, 0})
				}
				continue
			}
			order = append(order, top.i)
			stack = stack[:len(stack)-1]
		}
	}
	return order
}

// CallsIn returns the calls in n that resolve, through fields, to functions
// in fields (FuncFields), as Summaries.Deps wants them.
func CallsIn(info *types.Info, fields map[*types.Var]*types.Func, n ast.Node) []*types.Func {
	if len(fields) == 0 {
		return nil
	}
	var out []*types.Func
	ast.Inspect(n, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if callee := FieldCallee(info, fields, call); callee != nil {
				out = append(out, callee)
			}
		}
		return true
	})
	return out
}
