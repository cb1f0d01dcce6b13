package flow

import "go/types"

// Walks over types are bounded by construction, not only by a visited set
// of the types seen. A visited set keyed on types.Type ends a walk over a
// recursive type (type List struct{ next *List }), whose walk meets the
// same *types.Named again, but not one over an instantiation cycle: with
// type A[T any] struct{ a *A[A[T]] } (go build rejects it, the type
// checker still hands it to the analyzers) the field of A[int] is a
// pointer to A[A[int]], whose field points to A[A[A[int]]], each a new
// type, so the walk expanded ever larger instantiations until the process
// ran out of memory (issue 29); type Q[T any] struct{ s []Q[*T] } grows
// its type arguments the same way. A TypeWalk therefore refuses an
// instantiation whose type arguments are larger than MaxTypeArgs types
// (A[A[...]] nested that deep: a cycle grows them without end, real code
// stays far below), counts the instantiations it expands by their origin
// (types.Named.Origin: A for every A[...]) and refuses more than
// MaxInstances of one origin, and refuses any type beyond MaxTypeWalk
// types in all.

const (
	// maxTypeArgs bounds the size of an instantiation's type arguments, in
	// types (Box[Box[int]]: its argument has two), that a walk looks into.
	maxTypeArgs = 32
	// maxInstances bounds the instantiations of one generic type that one
	// walk over types looks into (A[int], A[A[int]], ... count for A).
	maxInstances = 64
	// maxTypeWalk bounds the types one walk over types looks into.
	maxTypeWalk = 4096
)

// A TypeWalk is the visited set of one walk over types, with its bounds.
// The zero value is ready to use.
type typeWalk struct {
	// few holds the first types seen, seen the others: most walks meet a
	// handful of types, and a map for them was most of what typeHolds
	// allocated (docs/performance.md, "Issue 33: the analysis' own cost").
	few       [8]types.Type
	seen      map[types.Type]bool
	instances map[*types.Named]int // by origin
	n         int
	// Cut is set when the walk refused a type for a bound (not for having
	// seen it): what the walker answers is then about part of the type.
	Cut bool
}

// Enter reports whether the walk is to look into t: t is not nil, was not
// seen before, and is within the bounds. A type refused for a bound sets
// Cut.
func (w *typeWalk) Enter(t types.Type) bool {
	if t == nil || w.has(t) {
		return false
	}
	if w.n >= maxTypeWalk {
		w.Cut = true
		return false
	}
	if n, ok := types.Unalias(t).(*types.Named); ok && n.TypeArgs().Len() > 0 {
		o := n.Origin()
		if w.instances[o] >= maxInstances || argsSize(n, maxTypeArgs+1) > maxTypeArgs {
			w.Cut = true
			return false
		}
		if w.instances == nil {
			w.instances = map[*types.Named]int{}
		}
		w.instances[o]++
	}
	if w.n < len(w.few) {
		w.few[w.n] = t
	} else {
		if w.seen == nil {
			w.seen = map[types.Type]bool{}
		}
		w.seen[t] = true
	}
	w.n++
	return true
}

// has reports whether the walk entered t.
func (w *typeWalk) has(t types.Type) bool {
	for _, u := range w.few[:min(w.n, len(w.few))] {
		if u == t {
			return true
		}
	}
	return w.seen[t]
}

// argsSize returns the number of types in n's type arguments, counting
// through the constructors of composite types and the arguments of nested
// instantiations, or limit once it reaches it.
func argsSize(n *types.Named, limit int) int {
	size := 0
	work := make([]types.Type, 0, 8)
	for i := range n.TypeArgs().Len() {
		work = append(work, n.TypeArgs().At(i))
	}
	for len(work) > 0 && size < limit {
		t := types.Unalias(work[len(work)-1])
		work = work[:len(work)-1]
		size++
		switch t := t.(type) {
		case *types.Named:
			for i := range t.TypeArgs().Len() {
				work = append(work, t.TypeArgs().At(i))
			}
		case *types.Pointer:
			work = append(work, t.Elem())
		case *types.Slice:
			work = append(work, t.Elem())
		case *types.Array:
			work = append(work, t.Elem())
		case *types.Chan:
			work = append(work, t.Elem())
		case *types.Map:
			work = append(work, t.Key(), t.Elem())
		case *types.Struct:
			for i := range t.NumFields() {
				work = append(work, t.Field(i).Type())
			}
		case *types.Signature:
			for _, tup := range []*types.Tuple{t.Params(), t.Results()} {
				for i := range tup.Len() {
					work = append(work, tup.At(i).Type())
				}
			}
		}
	}
	return min(size, limit)
}

// LookupSafe reports whether go/types may be asked about the fields and
// methods of t (types.LookupFieldOrMethod, Implements, NewMethodSet): its
// embedded fields, through pointers, are finite within TypeWalk's bounds.
// go/types itself walks embedded fields with visited sets keyed on the
// instantiated types: on type B[T any] struct{ *B[B[T]] } a lookup of a
// name B[int] lacks, or Implements(B[int], I), never returns (issue 29).
// The walk looks at embedded fields only, so it costs next to nothing for
// most types.
func LookupSafe(t types.Type) bool {
	var walk typeWalk
	work := []types.Type{t}
	for len(work) > 0 {
		t := work[len(work)-1]
		work = work[:len(work)-1]
		if p, ok := types.Unalias(t).(*types.Pointer); ok {
			t = p.Elem()
		}
		if !walk.Enter(t) {
			if walk.Cut {
				return false
			}
			continue
		}
		st, ok := t.Underlying().(*types.Struct)
		if !ok {
			continue
		}
		for i := range st.NumFields() {
			if f := st.Field(i); f.Embedded() {
				work = append(work, f.Type())
			}
		}
	}
	return true
}
