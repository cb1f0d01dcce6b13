package flow

import (
	"go/ast"
	"go/constant"
	"go/types"
	"slices"

	"golang.org/x/tools/go/cfg"
)

// NonEmpty reports whether the container e ranged over certainly has an
// element: a slice, array or map literal with elements, an array type of
// non-zero length, a positive integer constant (range 3), or a local
// variable declared with such a literal (bufs := []T{b}) every other
// assignment of which (Sources) is such a literal or an append of listed
// values to the variable itself (bufs = append(bufs, b)). A variable
// declared empty (var bufs []T: its appends may never run) or given
// anything else (a reslice, a parameter, a call) may be empty.
func (s *Sources) NonEmpty(info *types.Info, e ast.Expr) bool {
	if tv, ok := info.Types[e]; ok && tv.Value != nil {
		n, exact := constant.Int64Val(constant.ToInt(tv.Value))
		return exact && n > 0
	}
	if a, ok := under(info, e).(*types.Array); ok {
		return a.Len() > 0
	}
	switch x := StripConversions(info, e).(type) {
	case *ast.CompositeLit:
		return len(x.Elts) > 0
	case *ast.Ident:
		v, ok := IsLocalVar(info.Uses[x])
		if !ok || len(s.Of[v]) == 0 {
			return false
		}
		if lit, ok := StripConversions(info, s.declared[v]).(*ast.CompositeLit); !ok || len(lit.Elts) == 0 {
			return false
		}
		for _, src := range s.Of[v] {
			if src.Call != nil {
				return false
			}
			switch y := StripConversions(info, src.Expr).(type) {
			case *ast.CompositeLit:
				if len(y.Elts) == 0 {
					return false
				}
			case *ast.CallExpr:
				if !isBuiltin(info, y, "append") || len(y.Args) < 2 || y.Ellipsis.IsValid() {
					return false
				}
				if id, ok := ast.Unparen(y.Args[0]).(*ast.Ident); !ok || info.Uses[id] != v {
					return false
				}
			default:
				return false
			}
		}
		return true
	}
	return false
}

// RangesRun returns g with the loops over a container that certainly has
// an element (nonEmpty) entered at their body: the edge from before such a
// loop to its head, where a path could skip the loop, goes to the body
// instead, so that what the body does holds after the loop (a skip guard
// in a first loop over bufs covers a second loop over bufs). g itself is
// not changed (its blocks are copied when a loop is rewired), and g is
// returned as it is when no loop is.
func RangesRun(g *cfg.CFG, nonEmpty func(*ast.RangeStmt) bool) *cfg.CFG {
	var out *cfg.CFG
	copyOf := func() {
		out = &cfg.CFG{Blocks: make([]*cfg.Block, len(g.Blocks))}
		for i, b := range g.Blocks {
			nb := *b
			out.Blocks[i] = &nb
		}
		for _, b := range out.Blocks {
			succs := make([]*cfg.Block, len(b.Succs))
			for i, s := range b.Succs {
				succs[i] = out.Blocks[s.Index]
			}
			b.Succs = succs
		}
	}
	for _, head := range g.Blocks {
		rs, ok := head.Stmt.(*ast.RangeStmt)
		if head.Kind != cfg.KindRangeLoop || !ok || len(head.Succs) != 2 || !nonEmpty(rs) {
			continue
		}
		for _, pre := range g.Blocks {
			if !slices.Contains(pre.Nodes, ast.Node(rs.X)) || !slices.Contains(pre.Succs, head) {
				continue
			}
			if out == nil {
				copyOf()
			}
			p := out.Blocks[pre.Index]
			for i, s := range p.Succs {
				if s.Index == head.Index {
					p.Succs[i] = out.Blocks[head.Succs[0].Index] // the body
				}
			}
		}
	}
	if out == nil {
		return g
	}
	return out
}
