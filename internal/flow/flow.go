// Package flow is hiplint's shared path machinery: control-flow graphs of the
// user's function bodies (go/cfg over the AST, with cgo's wrapper literals
// seen through) and a forward dataflow solver that analyzers instantiate with
// their own state.
//
// Analyzers work on the AST with types.Object identities rather than on SSA:
// in SSA, cgo's pointer-checking wrappers turn every runtime call into a
// closure over the user's variables, while on the AST cgocall recovers the
// user's own argument expressions directly. It also keeps packages without
// runtime calls free of any SSA construction.
package flow

import (
	"go/ast"
	"go/token"
	"go/types"
	"iter"

	"golang.org/x/tools/go/cfg"
)

// Func is one user function body: a declaration or a function literal.
type Func struct {
	Decl *ast.FuncDecl // nil for literals
	Lit  *ast.FuncLit  // nil for declarations
	Body *ast.BlockStmt
}

// Node is the declaration or literal.
func (f Func) Node() ast.Node {
	if f.Decl != nil {
		return f.Decl
	}
	return f.Lit
}

// Object returns the declared function's object, or nil for a literal.
func (f Func) Object(info *types.Info) *types.Func {
	if f.Decl == nil {
		return nil
	}
	fn, _ := info.Defs[f.Decl.Name].(*types.Func)
	return fn
}

// Signature of the function.
func (f Func) Signature(info *types.Info) *types.Signature {
	if f.Decl != nil {
		if fn := f.Object(info); fn != nil {
			return fn.Signature()
		}
		return nil
	}
	sig, _ := info.TypeOf(f.Lit).(*types.Signature)
	return sig
}

// noReturn reports whether call never returns: panic, os.Exit, log.Fatal*,
// log.Panic*, runtime.Goexit, and the testing methods that stop a test.
func noReturn(info *types.Info, call *ast.CallExpr) bool {
	fun := ast.Unparen(call.Fun)
	if id, ok := fun.(*ast.Ident); ok {
		if b, ok := info.Uses[id].(*types.Builtin); ok && b.Name() == "panic" {
			return true
		}
	}
	sel, ok := fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	fn, ok := info.Uses[sel.Sel].(*types.Func)
	if !ok || fn.Pkg() == nil {
		return false
	}
	switch fn.Pkg().Path() + "." + fn.Name() {
	case "os.Exit", "runtime.Goexit", "log.Fatal", "log.Fatalf", "log.Fatalln",
		"log.Panic", "log.Panicf", "log.Panicln":
		return true
	}
	if fn.Pkg().Path() == "testing" {
		switch fn.Name() {
		case "Fatal", "Fatalf", "FailNow", "Skip", "Skipf", "SkipNow":
			return true
		}
	}
	if fn.Pkg().Path() == "log" {
		switch fn.Name() {
		case "Fatal", "Fatalf", "Fatalln", "Panic", "Panicf", "Panicln":
			return true
		}
	}
	return false
}

// CFG builds the control-flow graph of body.
func CFG(info *types.Info, body *ast.BlockStmt) *cfg.CFG {
	return cfg.New(body, func(call *ast.CallExpr) bool { return !noReturn(info, call) })
}

// cond returns the condition that ends b when b branches on it: Succs[0] is
// taken when it is true, Succs[1] when false.
func cond(b *cfg.Block) ast.Expr {
	if len(b.Succs) != 2 || len(b.Nodes) == 0 {
		return nil
	}
	e, _ := b.Nodes[len(b.Nodes)-1].(ast.Expr)
	return e
}

// exitKind says how control leaves a block without successors.
type exitKind uint8

const (
	notExit      exitKind = iota
	returnExit            // an explicit return statement
	fallOff               // the end of the function body
	noReturnExit          // a call that never returns (panic, os.Exit, t.Fatal)
)

// exitOf classifies a block: whether control leaves the function there, and how.
func exitOf(info *types.Info, b *cfg.Block) (exitKind, ast.Node) {
	if len(b.Succs) != 0 || !b.Live {
		return notExit, nil
	}
	if len(b.Nodes) > 0 {
		switch last := b.Nodes[len(b.Nodes)-1].(type) {
		case *ast.ReturnStmt:
			return returnExit, last
		case *ast.ExprStmt:
			if call, ok := ast.Unparen(last.X).(*ast.CallExpr); ok && noReturn(info, call) {
				return noReturnExit, last
			}
		}
	}
	return fallOff, nil
}

// Problem is a forward dataflow problem over states S.
//
// Solve clones a state before it changes it and never changes a state it has
// handed out or stored: Transfer, Join and Branch get states that Solve owns
// (Join's from only to read), and what they return is Solve's to keep.
type Problem[S any] struct {
	Entry    S
	Clone    func(S) S
	Join     func(into, from S) S // may modify and return into
	Equal    func(a, b S) bool
	Transfer func(n ast.Node, s S) S // may modify and return s
	// Branch refines s for the successor taken when cond is (taken). Optional.
	// It may modify and return s.
	Branch func(cond ast.Expr, taken bool, s S) S
	// Budget, when not nil, is what solving may spend (Budget): Solve
	// stops when it is spent, and the caller asks Budget.Over whether the
	// solution is to be used. Size, optional, is a state's size for it
	// (the entries of its maps, say): a visit costs more with a larger
	// state.
	Budget *Budget
	Size   func(S) int
}

// maxVisits bounds the work per block so that pathological functions
// terminate even if a state lattice were not finite.
const maxVisits = 64

// Solve runs p to a fixpoint on g and returns the state at entry to each
// reachable block.
//
// The states are most of what the analyzers allocate (docs/performance.md),
// so Solve clones only where a state must survive a change: the state at
// entry to a block, before the block's transfer runs; the state out of a
// block, for each successor but the last that a branch refines or that has
// no state yet; and a successor's old state, before joining into it a state
// that differs from it (Join must be idempotent: an equal state is not
// joined at all). The
// last successor gets the block's own out state, and a state that Branch
// refined is stored as it is.
func Solve[S any](g *cfg.CFG, p Problem[S]) Solution[S] {
	// The states by Block.Index, not in a map: a map per solve was a tenth
	// of what the solver cost (docs/performance.md).
	sol := Solution[S]{blocks: g.Blocks, states: make([]S, len(g.Blocks)), reached: make([]bool, len(g.Blocks))}
	if len(g.Blocks) == 0 {
		return sol
	}
	if p.Budget != nil {
		n := len(g.Blocks)
		for _, b := range g.Blocks {
			n += len(b.Nodes)
		}
		if !p.Budget.graph(n) {
			return sol
		}
	}
	entry := g.Blocks[0]
	sol.states[entry.Index], sol.reached[entry.Index] = p.Clone(p.Entry), true
	visits := make([]uint8, len(g.Blocks)) // by Block.Index
	queued := make([]bool, len(g.Blocks))
	// The work list is a queue of block indexes in a ring of one slot per
	// block (a block is queued at most once at a time), on the stack for
	// most graphs: a slice that the queue slid along and grew was a
	// quarter of what Solve allocated itself.
	var ringBuf [64]int32
	ring := ringBuf[:]
	if len(g.Blocks) > len(ringBuf) {
		ring = make([]int32, len(g.Blocks))
	}
	ring = ring[:len(g.Blocks)]
	head, queue := 0, 1 // the ring's first slot, and how many are queued
	ring[0] = entry.Index
	queued[entry.Index] = true
	for queue > 0 {
		b := g.Blocks[ring[head]]
		head, queue = (head+1)%len(ring), queue-1
		queued[b.Index] = false
		if visits[b.Index] == maxVisits {
			// Its state changed since its last visit: the solution is
			// no fixpoint.
			p.Budget.cut()
			continue
		}
		visits[b.Index]++
		if p.Budget != nil {
			work := len(b.Nodes) + 1
			if p.Size != nil {
				work *= 1 + p.Size(sol.states[b.Index])
			}
			if !p.Budget.spend(work) {
				break
			}
		}
		// An empty block (the cfg package's joins and loop heads) passes
		// its entry state on as it is: out is then the block's, which Solve
		// keeps, so it is never stored or changed (fresh is false).
		out, fresh := sol.states[b.Index], false
		if len(b.Nodes) > 0 {
			out, fresh = p.Clone(out), true
			for _, n := range b.Nodes {
				out = p.Transfer(n, out)
			}
		}
		cond := cond(b)
		for i, succ := range b.Succs {
			last := i == len(b.Succs)-1
			// s is out, or a state refined from it; owned says whether
			// nothing else refers to s, so that it may be stored as it is.
			s, owned := out, last && fresh
			if cond != nil && p.Branch != nil {
				if !owned {
					s = p.Clone(out)
				}
				s, owned = p.Branch(cond, i == 0, s), true
			}
			old, seen := sol.states[succ.Index], sol.reached[succ.Index]
			var next S
			if seen {
				// A state equal to the old one joins to it (a join is
				// idempotent): no clone, no join.
				if p.Equal(old, s) {
					continue
				}
				next = p.Join(p.Clone(old), s)
				if p.Equal(old, next) {
					continue
				}
			} else if owned {
				next = s
			} else {
				next = p.Clone(s)
			}
			sol.states[succ.Index], sol.reached[succ.Index] = next, true
			if !queued[succ.Index] {
				queued[succ.Index] = true
				ring[(head+queue)%len(ring)] = succ.Index
				queue++
			}
		}
	}
	return sol
}

// A Solution is Solve's result: the state at entry to each reachable block
// of a graph.
type Solution[S any] struct {
	blocks  []*cfg.Block
	states  []S // by Block.Index
	reached []bool
	// last: the walk over the solution (Replay, ReplayExits, AtExits) is
	// its last use, and moves its states on in place (Last).
	last bool
}

// Last returns sol for its last use: Replay, ReplayExits and AtExits then
// move each block's state on in place, without cloning it first, and
// sol's states are spent (no one may read them again). Solve stores a state
// of its own for each block (no two blocks share one), so walking a block
// changes no other block's state. The reporting walk after solving cloned
// a state at every reached block, as many clones again as the blocks
// (docs/performance.md).
func (sol Solution[S]) Last() Solution[S] {
	sol.last = true
	return sol
}

// own returns s, a state of sol, for changing: s itself when sol is spent
// (Last), or a clone.
func (sol Solution[S]) own(p Problem[S], s S) S {
	if sol.last {
		return s
	}
	return p.Clone(s)
}

// At returns the state at entry to b, and whether b is reached.
func (sol Solution[S]) At(b *cfg.Block) (S, bool) {
	if int(b.Index) >= len(sol.states) || !sol.reached[b.Index] {
		var zero S
		return zero, false
	}
	return sol.states[b.Index], true
}

// Len is the number of blocks reached.
func (sol Solution[S]) Len() int {
	n := 0
	for _, r := range sol.reached {
		if r {
			n++
		}
	}
	return n
}

// All yields each reached block with its entry state, in block order.
func (sol Solution[S]) All() iter.Seq2[*cfg.Block, S] {
	return func(yield func(*cfg.Block, S) bool) {
		for i, b := range sol.blocks {
			if sol.reached[i] && !yield(b, sol.states[i]) {
				return
			}
		}
	}
}

// PosRange is a half-open source range.
type PosRange struct{ Pos, End token.Pos }

// Contains reports whether p lies within r.
func (r PosRange) Contains(p token.Pos) bool { return r.Pos <= p && p < r.End }

// Replay is the reporting pass over a solution: it walks each reachable
// block of g once, from its fixpoint entry state in (Solve's result), and
// calls report with each node and the state before it, then moves the state
// on with p.Transfer. Analyzers keep their transfer functions free of
// reporting: what a node is judged by is the state that reaches it at the
// fixpoint, and report is where the judging happens. The states in are not
// changed, unless in is spent (Solution.Last).
func Replay[S any](g *cfg.CFG, in Solution[S], p Problem[S], report func(n ast.Node, s S)) {
	ReplayExits(nil, g, in, p, report, nil)
}

// ReplayExits is Replay that also calls exit with the state at each normal
// exit of g (AtExits' states), from the same walk: an analyzer that reads
// both the findings and the states its function leaves its caller walks the
// exit blocks once, not twice. exit gets states of its own, and is called
// after the reports of its block.
func ReplayExits[S any](info *types.Info, g *cfg.CFG, in Solution[S], p Problem[S], report func(n ast.Node, s S), exit func(S)) {
	var at func(token.Pos, S)
	if exit != nil {
		at = func(_ token.Pos, s S) { exit(s) }
	}
	ReplayExitsAt(info, g, in, p, report, at)
}

// ReplayExitsAt is ReplayExits that also tells exit where the function
// returns: the position of the return statement, or token.NoPos where it
// falls off the end of its body (for DefersAt).
func ReplayExitsAt[S any](info *types.Info, g *cfg.CFG, in Solution[S], p Problem[S], report func(n ast.Node, s S), exit func(token.Pos, S)) {
	for _, b := range g.Blocks {
		s, ok := in.At(b)
		if !ok {
			continue
		}
		atExit, pos := false, token.NoPos
		if exit != nil {
			kind, n := exitOf(info, b)
			atExit = kind == returnExit || kind == fallOff
			if kind == returnExit {
				pos = n.Pos()
			}
		}
		if len(b.Nodes) == 0 { // an empty block has nothing to report
			if atExit {
				exit(pos, in.own(p, s))
			}
			continue
		}
		s = in.own(p, s)
		for _, n := range b.Nodes {
			report(n, s)
			s = p.Transfer(n, s)
		}
		if atExit {
			exit(pos, s)
		}
	}
}
