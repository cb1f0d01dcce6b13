package modulebalance

import (
	"go/ast"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/flow"
	"github.com/hiplint/hiplint/internal/testenv/assert"
)

func TestMentionedAndSortedByName(t *testing.T) {
	c := check(t, `package p
func f(a, b, z int) (int, int) {
	return a + z, 0
}`)
	fn := c.File.Decls[0].(*ast.FuncDecl)
	objs := map[string]types.Object{}
	for id, o := range c.Info.Defs {
		if o != nil {
			objs[id.Name] = o
		}
	}
	m := map[types.Object]string{objs["a"]: "A", objs["b"]: "B", objs["z"]: "Z"}
	assert.Equal(t, map[string]bool{"A": true, "Z": true}, mentioned(c.Info, fn.Body.List[0], m))

	locs := map[flow.Loc]int{{Root: objs["z"].(*types.Var)}: 1, {Root: objs["a"].(*types.Var), Path: ".y"}: 2, {Root: objs["b"].(*types.Var)}: 3, {Root: objs["a"].(*types.Var)}: 4}
	var names []string
	for _, l := range sortedByName(locs) {
		names = append(names, l.String())
	}
	assert.Equal(t, []string{"a", "a.y", "b", "z"}, names)
}
