package xnack

import (
	"go/ast"
	"go/types"

	"github.com/hiplint/hiplint/internal/flow"
	"golang.org/x/tools/go/cfg"
)

// SolveRecord solves p over g, then walks the solution once more with
// record as the transfer function (p's transfer, noting what it sees), and
// returns the join of the states at the normal exits of g (ReplayExits),
// and whether there is one. An analysis whose transfer notes its findings
// only at the fixpoint runs it once per node after solving, and reads the
// state its function leaves its callers from the same walk.
func solveRecord[S any](info *types.Info, g *cfg.CFG, p flow.Problem[S], record func(ast.Node, S) S) (exit S, ok bool) {
	in := flow.Solve(g, p).Last() // the solution is not returned: walked in place
	rec := p
	rec.Transfer = record
	flow.ReplayExits(info, g, in, rec, func(ast.Node, S) {}, func(s S) {
		if ok {
			exit = p.Join(exit, s)
		} else {
			exit, ok = s, true
		}
	})
	return exit, ok
}
