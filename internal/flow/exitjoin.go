package flow

import (
	"go/types"

	"golang.org/x/tools/go/cfg"
)

// JoinedExit is the join (p.Join) of the fixpoint states at g's normal
// exits (AtExits), and whether g has one (a function that always panics
// or loops has none).
func JoinedExit[S any](info *types.Info, g *cfg.CFG, in map[*cfg.Block]S, p Problem[S]) (out S, ok bool) {
	AtExits(info, g, in, p, func(s S) {
		if ok {
			out = p.Join(out, s)
		} else {
			out, ok = p.Clone(s), true
		}
	})
	return out, ok
}
