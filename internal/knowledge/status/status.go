package status

import (
	"go/ast"
	"go/types"
	"slices"
)

// Statuses records, on the paths reaching a point, which variables hold the
// status of calls that made sites of interest (err := check(C.hipMalloc(&p, n)),
// r := C.hipMemcpy(...), p, err := NewBuffer(n)): a branch on the status
// (FailedSites) then says on which paths those calls failed.
//
// A Statuses value is immutable: states share it when they are cloned, and
// Assign and Join make new ones. A function holds a few statuses at a time,
// and cloning a map of them at every block and edge was a large part of the
// analyzers' allocation (docs/performance.md).
type Statuses struct {
	entries []statusEntry
}

type statusEntry struct {
	obj   types.Object
	sites []int // never modified in place
}

// Sites returns the sites whose status obj holds.
func (s Statuses) Sites(obj types.Object) []int {
	for _, e := range s.entries {
		if e.obj == obj {
			return e.sites
		}
	}
	return nil
}

// Len is the number of variables holding a status.
func (s Statuses) Len() int { return len(s.entries) }

// Assign returns s after the assignment lhs = rhs (or lhs := rhs, or a var
// declaration): each variable assigned loses what it held, and holds the
// status of sitesIn(r) for its value r, where r is the matching right-hand
// side, or the single call's for the last variable of v, err := f(...).
func (s Statuses) Assign(info *types.Info, lhs, rhs []ast.Expr, sitesIn func(ast.Expr) []int) Statuses {
	out := s
	copied := false
	own := func() {
		if !copied {
			out.entries = slices.Clone(out.entries)
			copied = true
		}
	}
	for i, l := range lhs {
		id, ok := ast.Unparen(l).(*ast.Ident)
		if !ok {
			continue
		}
		obj := info.ObjectOf(id)
		if obj == nil {
			continue
		}
		if j := out.index(obj); j >= 0 {
			own()
			out.entries = slices.Delete(out.entries, j, j+1)
		}
		var r ast.Expr
		switch {
		case len(lhs) == len(rhs):
			r = rhs[i]
		case len(rhs) == 1 && i == len(lhs)-1: // v, err := f(...)
			r = rhs[0]
		default:
			continue
		}
		if sites := sitesIn(r); len(sites) > 0 {
			own()
			out.entries = append(out.entries, statusEntry{obj, sites})
		}
	}
	return out
}

func (s Statuses) index(obj types.Object) int {
	return slices.IndexFunc(s.entries, func(e statusEntry) bool { return e.obj == obj })
}

// Join returns what holds on both of two paths: the statuses s and t agree on.
func (s Statuses) Join(t Statuses) Statuses {
	if s.Equal(t) {
		return s
	}
	var out Statuses
	for _, e := range s.entries {
		if j := t.index(e.obj); j >= 0 && slices.Equal(e.sites, t.entries[j].sites) {
			out.entries = append(out.entries, e)
		}
	}
	return out
}

// Equal reports whether s and t record the same statuses.
func (s Statuses) Equal(t Statuses) bool {
	if len(s.entries) != len(t.entries) {
		return false
	}
	for _, e := range s.entries {
		j := t.index(e.obj)
		if j < 0 || !slices.Equal(e.sites, t.entries[j].sites) {
			return false
		}
	}
	return true
}
