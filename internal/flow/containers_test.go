package flow

import (
	"go/ast"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
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
	c := check(t, src)
	f, info := c.file, c.info
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
