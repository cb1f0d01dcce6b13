package flow

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAddedTo(t *testing.T) {
	const src = `package p

type pool struct {
	mods   []int
	byName map[string]int
	arr    [2]int
	m      int
}

func f(p *pool, mods, other []int, m int) {
	p.mods = append(p.mods, m, m)
	p.byName["a"] = m
	mods = append((mods), m)
	p.arr[0] = m
	p.m = m
	p.mods = append(p.mods, other...)
	p.mods = append(other, m)
	p.mods = append(p.mods)
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	require.NoError(t, err)
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{},
		Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	_, err = (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, info)
	require.NoError(t, err)
	var got []string
	ast.Inspect(f, func(n ast.Node) bool {
		if as, ok := n.(*ast.AssignStmt); ok {
			c, vals, ok := AddedTo(info, as.Lhs[0], as.Rhs[0])
			s := "-"
			if ok {
				s = types.ExprString(c)
				for _, v := range vals {
					s += " " + types.ExprString(v)
				}
			}
			got = append(got, s)
		}
		return true
	})
	assert.Equal(t, []string{"p.mods m m", "p.byName m", "mods m", "-", "-", "-", "-", "-"}, got)
}
