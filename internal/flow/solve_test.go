package flow

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
				last, lastIn = as, in[b]
			}
		}
	}
	require.NotNil(t, last)
	assert.Equal(t, []string{"x", "y", "z"}, slices.Sorted(maps.Keys(lastIn)))
	assert.Positive(t, refined, "the branch refinement ran")

	// The panic block is a no-return exit; the end is an implicit return.
	var kinds []ExitKind
	for _, b := range g.Blocks {
		if k, _ := Exit(info, b); k != NotExit {
			kinds = append(kinds, k)
		}
	}
	assert.Contains(t, kinds, NoReturnExit)
	assert.Contains(t, kinds, Return)
}
