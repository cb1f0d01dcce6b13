package flow

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/cfg"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

// A may-assigned analysis: which variables may have been assigned on some
// path reaching a point; a branch on `x == 0` refines x away when taken.
const solveSrc = `package p

func f(c bool, n int) {
	var x, y, z int
	if c {
		x = 1
	} else {
		y = 2
	}
	for i := 0; i < n; i++ {
		z = i
	}
	if x == 0 {
		panic("x")
	}
	_, _, _ = x, y, z
}
`

type set map[string]bool

func TestSolveReachesFixpointWithBranches(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", solveSrc, 0)
	require.NoError(t, err)
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Defs: map[*ast.Ident]types.Object{}}
	_, err = (&types.Config{}).Check("p", fset, []*ast.File{f}, info)
	require.NoError(t, err)
	body := f.Decls[0].(*ast.FuncDecl).Body
	g := CFG(info, body)

	var refined int
	p := Problem[set]{
		Entry: set{},
		Clone: func(s set) set { return maps.Clone(s) },
		Join: func(into, from set) set {
			maps.Copy(into, from)
			return into
		},
		Equal: func(a, b set) bool { return maps.Equal(a, b) },
		Transfer: func(n ast.Node, s set) set {
			if as, ok := n.(*ast.AssignStmt); ok && as.Tok == token.ASSIGN {
				for _, l := range as.Lhs {
					if id, ok := l.(*ast.Ident); ok && id.Name != "_" {
						s[id.Name] = true
					}
				}
			}
			return s
		},
		Branch: func(cond ast.Expr, taken bool, s set) set {
			if b, ok := cond.(*ast.BinaryExpr); ok && b.Op == token.EQL && taken {
				refined++
				delete(s, b.X.(*ast.Ident).Name)
			}
			return s
		},
	}
	in := Solve(g, p)

	// At the final statement x, y and z may all have been assigned, and x
	// only through the not-taken branch of x == 0.
	var last *ast.AssignStmt
	var lastIn set
	for _, b := range g.Blocks {
		for _, n := range b.Nodes {
			if as, ok := n.(*ast.AssignStmt); ok && len(as.Lhs) == 3 {
				last = as
				lastIn, _ = in.At(b)
			}
		}
	}
	require.NotNil(t, last)
	assert.Equal(t, []string{"x", "y", "z"}, slices.Sorted(maps.Keys(lastIn)))
	assert.Positive(t, refined, "the branch refinement ran")

	// The panic block is a no-return exit; the end is an implicit return.
	var kinds []exitKind
	for _, b := range g.Blocks {
		if k, _ := exitOf(info, b); k != notExit {
			kinds = append(kinds, k)
		}
	}
	assert.Contains(t, kinds, noReturnExit)
	assert.Contains(t, kinds, returnExit)
}

// A function with every kind of edge: branches that refine, blocks with two
// successors and no condition (range loops, switch and select cases),
// back edges, goto and labeled continue.
const cloneSrc = `package p

func g(c bool, n int, xs []int, ch chan int) {
	var x, y, z, w int
	if c && n > 0 {
		x = 1
	} else if n == 0 {
		y = 2
	}
outer:
	for i := 0; i < n; i++ {
		for _, v := range xs {
			if v == 0 {
				continue outer
			}
			z = v
		}
		switch {
		case x == 0:
			w = 1
		case y != 0:
			x = 2
		default:
			goto done
		}
	}
	select {
	case v := <-ch:
		y = v
	default:
	}
done:
	if x == 0 {
		_, _, _, _ = x, y, z, w
	}
}
`

// refState is a may-assigned set that remembers whether it was stored, to
// catch a solver that changes a state after it stored it.
type refState struct {
	vars   map[string]bool
	stored bool
}

func refProblem(clones *int) Problem[*refState] {
	mutable := func(s *refState) *refState {
		if s.stored {
			panic("a stored state was handed out to be changed")
		}
		return s
	}
	return Problem[*refState]{
		Entry: &refState{vars: map[string]bool{}},
		Clone: func(s *refState) *refState {
			*clones++
			return &refState{vars: maps.Clone(s.vars)}
		},
		Join: func(into, from *refState) *refState {
			maps.Copy(mutable(into).vars, from.vars)
			return into
		},
		Equal: func(a, b *refState) bool { return maps.Equal(a.vars, b.vars) },
		Transfer: func(n ast.Node, s *refState) *refState {
			s = mutable(s)
			if as, ok := n.(*ast.AssignStmt); ok {
				for _, l := range as.Lhs {
					if id, ok := l.(*ast.Ident); ok && id.Name != "_" {
						s.vars[id.Name] = true
					}
				}
			}
			return s
		},
		Branch: func(cond ast.Expr, taken bool, s *refState) *refState {
			s = mutable(s)
			if b, ok := cond.(*ast.BinaryExpr); ok {
				if id, ok := b.X.(*ast.Ident); ok && (b.Op == token.EQL) == taken {
					delete(s.vars, id.Name)
				}
			}
			return s
		},
	}
}

// cloningSolve is Solve as it was before it saved clones: a fresh clone for
// every successor. Solve must reach the same states.
func cloningSolve[S any](g *cfg.CFG, p Problem[S]) map[*cfg.Block]S {
	in := map[*cfg.Block]S{}
	entry := g.Blocks[0]
	in[entry] = p.Clone(p.Entry)
	visits := map[*cfg.Block]int{}
	work := []*cfg.Block{entry}
	queued := map[*cfg.Block]bool{entry: true}
	for len(work) > 0 {
		b := work[0]
		work = work[1:]
		queued[b] = false
		visits[b]++
		if visits[b] > maxVisits {
			continue
		}
		out := p.Clone(in[b])
		for _, n := range b.Nodes {
			out = p.Transfer(n, out)
		}
		cond := cond(b)
		for i, succ := range b.Succs {
			s := out
			if cond != nil && p.Branch != nil {
				s = p.Branch(cond, i == 0, p.Clone(out))
			}
			old, seen := in[succ]
			var next S
			if seen {
				next = p.Join(p.Clone(old), s)
				if p.Equal(old, next) {
					continue
				}
			} else {
				next = p.Clone(s)
			}
			in[succ] = next
			if !queued[succ] {
				queued[succ] = true
				work = append(work, succ)
			}
		}
	}
	return in
}

// cloneCFG is the CFG of cloneSrc's first function.
func cloneCFG(t *testing.T) (*types.Info, *cfg.CFG) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", cloneSrc, 0)
	require.NoError(t, err)
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Defs: map[*ast.Ident]types.Object{}}
	_, err = (&types.Config{}).Check("p", fset, []*ast.File{f}, info)
	require.NoError(t, err)
	return info, CFG(info, f.Decls[0].(*ast.FuncDecl).Body)
}

func TestSolveClonesLessAndReachesTheSameStates(t *testing.T) {
	_, g := cloneCFG(t)

	var clones, refClones int
	p := refProblem(&clones)
	// Mark what Solve stores as it stores it: Equal sees every stored state
	// as its first argument before Solve replaces it, and the result holds
	// the rest.
	equal := p.Equal
	p.Equal = func(a, b *refState) bool { a.stored = true; return equal(a, b) }
	// A state equal to the one already there is not joined into it.
	join, joins := p.Join, 0
	p.Join = func(into, from *refState) *refState {
		joins++
		assert.False(t, equal(into, from), "Join of equal states")
		return join(into, from)
	}
	got := Solve(g, p)
	want := cloningSolve(g, refProblem(&refClones))

	require.Equal(t, len(want), got.Len())
	for b, ws := range want {
		gs, ok := got.At(b)
		require.True(t, ok, "block %d reached", b.Index)
		assert.Equal(t, slices.Sorted(maps.Keys(ws.vars)), slices.Sorted(maps.Keys(gs.vars)), "block %d", b.Index)
	}
	seen := map[*refState]bool{}
	for _, s := range got.All() {
		assert.False(t, seen[s], "two blocks share one state")
		seen[s] = true
	}
	assert.Less(t, clones, refClones)
	assert.Positive(t, joins)
	t.Logf("clones: %d, before: %d; joins: %d", clones, refClones, joins)
}

// TestReplayLast: a spent solution (Solution.Last) is walked in place, with
// no clone, and the walk sees the same states at the same nodes, and the
// same states at the exits, as the walk that clones.
func TestReplayLast(t *testing.T) {
	info, g := cloneCFG(t)

	walk := func(last bool) (seen, exits [][]string, clones int) {
		var solveClones int
		in := Solve(g, refProblem(&solveClones))
		if last {
			in = in.Last()
		}
		p := refProblem(&clones)
		ReplayExits(info, g, in, p, func(_ ast.Node, s *refState) {
			seen = append(seen, slices.Sorted(maps.Keys(s.vars)))
		}, func(s *refState) {
			exits = append(exits, slices.Sorted(maps.Keys(s.vars)))
		})
		return seen, exits, clones
	}
	wantSeen, wantExits, cloned := walk(false)
	gotSeen, gotExits, clones := walk(true)
	assert.Equal(t, wantSeen, gotSeen)
	assert.Equal(t, wantExits, gotExits)
	assert.NotEmpty(t, wantExits)
	assert.Positive(t, cloned, "the walk clones each reached block's state")
	assert.Zero(t, clones, "a spent solution is walked in place")

	// AtExits too.
	var solveClones, atClones int
	p := refProblem(&atClones)
	var atExits [][]string
	AtExits(info, g, Solve(g, refProblem(&solveClones)).Last(), p, func(s *refState) {
		atExits = append(atExits, slices.Sorted(maps.Keys(s.vars)))
	})
	assert.Equal(t, wantExits, atExits)
	assert.Zero(t, atClones)
}

// TestSolveLargeGraph: a graph of more blocks than Solve's ring holds on
// the stack, with loops that queue blocks again as the ring wraps, reaches
// the states of the solver that clones at every edge.
func TestSolveLargeGraph(t *testing.T) {
	var b strings.Builder
	b.WriteString("package p\n\nfunc f(n int) {\n\tvar x int\n\tfor i := 0; i < n; i++ {\n")
	for i := range 40 {
		fmt.Fprintf(&b, "\t\tif i == %d {\n\t\t\tv%d := 1\n\t\t\t_ = v%d\n\t\t} else if x == 0 {\n\t\t\tx = %d\n\t\t}\n", i, i, i, i)
	}
	b.WriteString("\t}\n\t_ = x\n}\n")
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", b.String(), 0)
	require.NoError(t, err)
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Defs: map[*ast.Ident]types.Object{}}
	_, err = (&types.Config{}).Check("p", fset, []*ast.File{f}, info)
	require.NoError(t, err)
	g := CFG(info, f.Decls[0].(*ast.FuncDecl).Body)
	require.Greater(t, len(g.Blocks), 64)

	var clones, refClones int
	got := Solve(g, refProblem(&clones))
	want := cloningSolve(g, refProblem(&refClones))
	require.Equal(t, len(want), got.Len())
	for b, ws := range want {
		gs, ok := got.At(b)
		require.True(t, ok, "block %d reached", b.Index)
		assert.Equal(t, slices.Sorted(maps.Keys(ws.vars)), slices.Sorted(maps.Keys(gs.vars)), "block %d", b.Index)
	}
}
