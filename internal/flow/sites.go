package flow

import (
	"go/ast"
	"go/types"

	"github.com/hiplint/hiplint/internal/cgocall"
)

// Sites numbers the sites of interest a function makes (a copy, an
// allocation): one or more per call, as a call of a wrapper may make
// several. States name sites by number, and a status variable (Statuses)
// names the sites of the call it holds the status of (In).
type Sites[T any] struct {
	List []T
	of   map[siteKey]int
}

type siteKey struct {
	node ast.Node
	i    int
}

// Add returns the number of the i-th site of node, making it with make on
// first sight.
func (s *Sites[T]) Add(node ast.Node, i int, make func() T) int {
	k := siteKey{node, i}
	if n, ok := s.of[k]; ok {
		return n
	}
	Put(&s.of, k, len(s.List))
	s.List = append(s.List, make())
	return len(s.List) - 1
}

// In returns the sites of the calls in e, cgo's wrappers included, other
// closures left out.
func (s *Sites[T]) In(info *types.Info, e ast.Expr) []int {
	if len(s.of) == 0 {
		return nil // no sites yet: none in e (analyzers ask at every assignment)
	}
	// A visitor, one allocation, not a closure and the list it appends to.
	v := &sitesIn[T]{sites: s, info: info}
	ast.Walk(v, e)
	return v.out
}

type sitesIn[T any] struct {
	sites *Sites[T]
	info  *types.Info
	out   []int
}

func (v *sitesIn[T]) Visit(n ast.Node) ast.Visitor {
	switch n := n.(type) {
	case nil:
		return nil
	case *ast.FuncLit:
		if !cgocall.IsWrapper(v.info, n) {
			return nil
		}
	case *ast.CallExpr:
		for i := 0; ; i++ {
			site, ok := v.sites.of[siteKey{n, i}]
			if !ok {
				break
			}
			v.out = append(v.out, site)
		}
	}
	return v
}

// FirstCall returns the first call under n, in source order, that match
// accepts, or nil. It enters the function literals that enter accepts
// (nil: every one); it does not look inside a call that match accepts.
func FirstCall(n ast.Node, enter func(*ast.FuncLit) bool, match func(*ast.CallExpr) bool) *ast.CallExpr {
	return (*Index)(nil).FirstCall(n, enter, match) // without an Index: ast.Inspect
}

// InPlaceOrWrapper is FirstCall's enter for walks of what a function does
// when it runs: cgo's wrappers and the closures that run in place
// (Index.InPlace), not closures that run later.
func (x *Index) InPlaceOrWrapper(lit *ast.FuncLit) bool {
	return x.IsWrapper(lit) || x.InPlace(lit)
}
