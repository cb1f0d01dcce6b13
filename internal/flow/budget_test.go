package flow

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"testing"
	"time"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

const loopSrc = `package p

func f(n int) {
	x := 0
	for i := 0; i < n; i++ {
		x++
	}
	_ = x
}

func g(n int) {
	x := 0
	if n > 0 {
		x = 1
	}
	_ = x
}
`

func loopFuncs(t *testing.T) (*types.Info, []Func) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", loopSrc, 0)
	require.NoError(t, err)
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Defs: map[*ast.Ident]types.Object{}}
	_, err = (&types.Config{}).Check("p", fset, []*ast.File{f}, info)
	require.NoError(t, err)
	var out []Func
	for _, d := range f.Decls {
		fd := d.(*ast.FuncDecl)
		out = append(out, Func{Decl: fd, Body: fd.Body})
	}
	return info, out
}

// counting is a problem whose states never converge around a loop: each
// visit of a node adds one, and the join keeps the larger count.
func counting(b *Budget, size func(int) int) Problem[int] {
	return Problem[int]{
		Clone:    func(s int) int { return s },
		Join:     func(into, from int) int { return max(into, from) },
		Equal:    func(a, b int) bool { return a == b },
		Transfer: func(_ ast.Node, s int) int { return s + 1 },
		Budget:   b,
		Size:     size,
	}
}

// A state that never settles used to be cut off silently at maxVisits: the
// solution was no fixpoint, and the analyzer used it. With a budget the
// function is over it, with a note naming it; a function that converges is
// not.
func TestSolveBudgetNotFixpoint(t *testing.T) {
	info, funcs := loopFuncs(t)
	b := &Budget{Limits: defaultLimits, start: time.Now()}
	for _, fn := range funcs {
		require.True(t, b.Start(fn))
		Solve(CFG(info, fn.Body), counting(b, nil))
		b.Over()
	}
	notes := b.Notes()
	require.Len(t, notes, 1)
	assert.Equal(t, "f", notes[0].Func)
	assert.Equal(t, funcs[0].Decl.Pos(), notes[0].Pos)
	assert.Contains(t, notes[0].Why, "still changed after 64 visits")
	assert.False(t, b.Start(funcs[0]), "refused from then on")
	assert.True(t, b.Start(funcs[1]))
	assert.Len(t, b.Notes(), 1, "one note however often it is asked")

	var nilBudget *Budget
	assert.True(t, nilBudget.Start(funcs[0]))
	assert.False(t, nilBudget.Over())
	assert.Empty(t, nilBudget.Notes())
}

// The work of a solve is bounded by a constant times the size of its graph,
// with a state's size counted (Problem.Size), and by time.
func TestSolveBudgetLimits(t *testing.T) {
	info, funcs := loopFuncs(t)
	g := CFG(info, funcs[1].Body) // converges in one visit per block
	for _, tc := range []struct {
		name   string
		limits Limits
		size   func(int) int
		over   string
	}{
		// One visit per block: its nodes and one, as many as the graph's
		// blocks and nodes.
		{"within", Limits{WorkPerNode: 1}, nil, ""},
		{"size", Limits{WorkPerNode: 1}, func(int) int { return 1 }, "more than 1 steps per node"},
		{"func time", Limits{FuncTime: time.Nanosecond}, nil, "its solving took more than 1ns"},
		{"heap", Limits{HeapLimit: 1}, nil, ""}, // checked every 4096 visits only
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := &Budget{Limits: tc.limits, start: time.Now()}
			require.True(t, b.Start(funcs[1]))
			time.Sleep(time.Millisecond)
			Solve(g, counting(b, tc.size))
			assert.Equal(t, tc.over != "", b.Over())
			if tc.over != "" {
				require.Len(t, b.Notes(), 1)
				assert.Contains(t, b.Notes()[0].Why, tc.over)
			}
		})
	}
	// The package's time spent: every later function is refused, in one
	// note naming them.
	b := &Budget{Limits: Limits{PkgTime: time.Nanosecond}, start: time.Now().Add(-time.Second)}
	assert.False(t, b.Start(funcs[0]))
	assert.False(t, b.Start(funcs[1]))
	require.Len(t, b.Notes(), 1)
	assert.Equal(t, "the package's analysis took more than 1ns; not analyzed: f, g", b.Notes()[0].Why)
}

func TestParseLimits(t *testing.T) {
	l := parseLimits("work=7, func=2s,pkg=1m,heap=1024,bogus=1,work=x,noequals", defaultLimits)
	assert.Equal(t, Limits{WorkPerNode: 7, FuncTime: 2 * time.Second, PkgTime: time.Minute, HeapLimit: 1024}, l)
	assert.Equal(t, defaultLimits, parseLimits("", defaultLimits))
}

func TestFuncName(t *testing.T) {
	src := "package p\n\ntype T[X any] struct{}\n\nfunc (t *T[X]) M() {}\n\ntype U int\n\nfunc (U) N() { _ = func() {} }\n"
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	require.NoError(t, err)
	m := f.Decls[1].(*ast.FuncDecl)
	n := f.Decls[3].(*ast.FuncDecl)
	assert.Equal(t, "T.M", funcName(Func{Decl: m, Body: m.Body}))
	assert.Equal(t, "U.N", funcName(Func{Decl: n, Body: n.Body}))
	lit := n.Body.List[0].(*ast.AssignStmt).Rhs[0].(*ast.FuncLit)
	assert.Equal(t, "a function literal", funcName(Func{Lit: lit, Body: lit.Body}))
}
