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
	var out []int
	ast.Inspect(e, func(n ast.Node) bool {
		if lit, ok := n.(*ast.FuncLit); ok && !cgocall.IsWrapper(info, lit) {
			return false
		}
		if call, ok := n.(*ast.CallExpr); ok {
			for i := 0; ; i++ {
				site, ok := s.of[siteKey{call, i}]
				if !ok {
					break
				}
				out = append(out, site)
			}
		}
		return true
	})
	return out
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
