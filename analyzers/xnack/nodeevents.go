package xnack

import (
	"go/ast"
	"slices"

	"github.com/hiplint/hiplint/internal/flow"
	"golang.org/x/tools/go/cfg"
)

// nodeEvents collects what the nodes of a function's live blocks do, in
// evaluation order: each call and function literal a node makes (a
// callOrder of Index's package) goes to Emit, which adds what it does to
// Out; a node's list is kept, a copy, where it is not empty. One
// nodeEvents serves every function of a package, so that the walks
// allocate only the lists kept.
type nodeEvents[E any] struct {
	Index *flow.Index
	Emit  func(ast.Node)
	// Node is the node being walked, Out what Emit found in it so far.
	Node  ast.Node
	Out   []E
	order *callOrder
}

// Add appends e to Out.
func (c *nodeEvents[E]) Add(e E) { c.Out = append(c.Out, e) }

// Collect returns the events of g's live nodes, by node (nil for none).
func (c *nodeEvents[E]) Collect(g *cfg.CFG) map[ast.Node][]E {
	if c.order == nil {
		c.order = newCallOrder(c.Index.Info(), c.Index)
	}
	var out map[ast.Node][]E
	for _, b := range g.Blocks {
		if !b.Live {
			continue
		}
		for _, n := range b.Nodes {
			c.Node, c.Out = n, c.Out[:0]
			c.order.Walk(n, c.Emit)
			if len(c.Out) > 0 {
				flow.Put(&out, n, slices.Clone(c.Out))
			}
		}
	}
	return out
}
