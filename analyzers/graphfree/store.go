package graphfree

import (
	"cmp"
	"maps"
	"strings"

	"github.com/hiplint/hiplint/internal/flow"
)

// Value is what a Store holds at a location: an element of a join
// semilattice (sets of allocation sites, of nodes, of addresses).
type value[V any] interface {
	Union(V) V
	Equal(V) bool
	Empty() bool
}

// Tree is a value with its parts, by path relative to a location: "" is the
// value itself, ".f" a field, "[]" the elements (as in Loc).
type storeTree[V value[V]] map[string]V

// Add joins v into what t holds at path; an empty v adds nothing.
func (t storeTree[V]) Add(path string, v V) {
	if v.Empty() {
		return
	}
	t[path] = t[path].Union(v)
}

// Below returns the part of t under prefix, with paths relative to it: the
// elements of a slice value are t.Below("[]").
func (t storeTree[V]) Below(prefix string) storeTree[V] {
	out := storeTree[V]{}
	for p, v := range t {
		if strings.HasPrefix(p, prefix) {
			out.Add(p[len(prefix):], v)
		}
	}
	return out
}

// Store maps locations to what they may hold, field-sensitively: a store
// to x.f replaces what x.f and the paths inside it held, a store to an
// element (a weak location) adds to it, and reading x yields the tree of
// everything stored under x. It is the heap-free "points-to" half of an
// analyzer's state.
//
// Stores are copy on write: Clone shares the map until one side writes it.
// Most transfers leave the store as it is, and cloning states at every
// block and edge was most of what the analyzers allocated.
type valueStore[V value[V]] struct {
	m      map[flow.Loc]V
	shared bool
}

// Clone returns a store with s's contents; s and the clone share the map
// until either writes.
func (s *valueStore[V]) Clone() valueStore[V] {
	s.shared = s.m != nil
	return valueStore[V]{m: s.m, shared: s.shared}
}

func (s *valueStore[V]) own() {
	if s.shared {
		s.m = maps.Clone(s.m)
		s.shared = false
	}
	if s.m == nil {
		s.m = map[flow.Loc]V{}
	}
}

// Len is the number of locations that hold something.
func (s *valueStore[V]) Len() int { return len(s.m) }

// Get returns what exactly l holds (not its parts).
func (s *valueStore[V]) Get(l flow.Loc) V { return s.m[l] }

// Subtree returns what l and the paths inside it hold, relative to l.
func (s *valueStore[V]) Subtree(l flow.Loc) storeTree[V] {
	t := storeTree[V]{}
	for k, v := range s.m {
		if k.Under(l) {
			t.Add(k.Path[len(l.Path):], v)
		}
	}
	return t
}

// Set stores t at l: a strong update replaces what l and its parts held, a
// weak one (l.Weak()) adds to it.
func (s *valueStore[V]) Set(l flow.Loc, t storeTree[V]) {
	if !l.Weak() && s.holds(l, t) {
		return // most stores store what is there (two thirds in graphfree): no copy
	}
	s.own()
	if !l.Weak() {
		for k := range s.m {
			if k.Under(l) {
				delete(s.m, k)
			}
		}
	}
	for p, v := range t {
		if v.Empty() {
			continue
		}
		k := flow.Loc{Root: l.Root, Path: l.Path + p}
		s.m[k] = s.m[k].Union(v)
	}
}

// holds reports whether what l and its parts hold is exactly t's non-empty
// values, so that a strong update of l with t changes nothing.
func (s *valueStore[V]) holds(l flow.Loc, t storeTree[V]) bool {
	n := 0
	for p, v := range t {
		if v.Empty() {
			continue
		}
		n++
		if w, ok := s.m[flow.Loc{Root: l.Root, Path: l.Path + p}]; !ok || !w.Equal(v) {
			return false
		}
	}
	for k := range s.m {
		if k.Under(l) {
			if n--; n < 0 {
				return false
			}
		}
	}
	return n == 0
}

// Forget drops what the store knows of l and its parts (an unknown call may
// have written them).
func (s *valueStore[V]) Forget(l flow.Loc) {
	for k := range s.m {
		if k.Under(l) {
			s.own()
			delete(s.m, k)
		}
	}
}

// Update rewrites every value with f; a value f makes empty is dropped.
// f returns false for a value it leaves as it is.
func (s *valueStore[V]) Update(f func(V) (V, bool)) {
	for k, v := range s.m {
		w, changed := f(v)
		if !changed {
			continue
		}
		s.own() // ranging over the old map: the writes go to the copy
		if w.Empty() {
			delete(s.m, k)
		} else {
			s.m[k] = w
		}
	}
}

// Join adds what from holds to s.
func (s *valueStore[V]) Join(from *valueStore[V]) {
	for k, v := range from.m {
		old, ok := s.m[k]
		if u := old.Union(v); !ok || !u.Equal(old) {
			s.own()
			s.m[k] = u
		}
	}
}

// Equal reports whether s and t hold the same.
func (s *valueStore[V]) Equal(t *valueStore[V]) bool {
	if len(s.m) != len(t.m) {
		return false
	}
	for k, v := range s.m {
		if w, ok := t.m[k]; !ok || !v.Equal(w) {
			return false
		}
	}
	return true
}

// CompareLoc orders locations by their root's position and name, then path:
// an order for sorted sets of locations.
func compareLoc(a, b flow.Loc) int {
	if a.Root != nil && b.Root != nil {
		if c := cmp.Compare(a.Root.Pos(), b.Root.Pos()); c != 0 {
			return c
		}
		if c := strings.Compare(a.Root.Name(), b.Root.Name()); c != 0 {
			return c
		}
	}
	return strings.Compare(a.Path, b.Path)
}
