package flow

import (
	"go/ast"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
	"golang.org/x/tools/go/cfg"
)

func TestNonEmpty(t *testing.T) {
	src := `package p
var a *int
func use(param []*int) {
	lit := []*int{a}
	grown := []*int{a}
	grown = append(grown, a)
	var empty []*int
	empty = append(empty, a)
	resliced := []*int{a}
	resliced = resliced[1:]
	_, _, _, _, _ = lit, grown, empty, resliced, param
	_ = [2]int{}
	_ = 3
}
`
	pass, _ := fakePass(t, src)
	info := pass.TypesInfo
	s := indexSources(info, pass.Files)
	uses := map[string]ast.Expr{}
	ast.Inspect(pass.Files[0], func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.Ident:
			if info.Uses[x] != nil {
				uses[x.Name] = x
			}
		case *ast.BasicLit:
			uses[x.Value] = x
		}
		return true
	})
	assert.True(t, s.NonEmpty(info, uses["lit"]), "a literal with an element")
	assert.True(t, s.NonEmpty(info, uses["grown"]), "a literal with an element, then appended to")
	assert.False(t, s.NonEmpty(info, uses["empty"]), "declared empty: its appends may never run")
	assert.False(t, s.NonEmpty(info, uses["resliced"]), "a reslice may be empty")
	assert.False(t, s.NonEmpty(info, uses["param"]), "a parameter may be empty")
	assert.True(t, s.NonEmpty(info, uses["3"]), "range 3")
	assert.False(t, s.NonEmpty(info, ast.NewIdent("_")), "an unknown name may be empty")
}

func TestRangesRun(t *testing.T) {
	src := `package p
func g() {}
func f() {
	xs := []int{1}
	for range xs {
		g()
	}
}
`
	pass, _ := fakePass(t, src)
	body := pass.Files[0].Decls[1].(*ast.FuncDecl).Body
	g := cfg.New(body, func(*ast.CallExpr) bool { return true })
	head := func(c *cfg.CFG) (pre, loop *cfg.Block) {
		for _, b := range c.Blocks {
			if b.Kind == cfg.KindRangeLoop {
				loop = b
			}
		}
		for _, b := range c.Blocks {
			if len(b.Nodes) > 0 && b.Nodes[len(b.Nodes)-1] == loop.Stmt.(*ast.RangeStmt).X {
				pre = b
			}
		}
		return pre, loop
	}
	assert.Same(t, g, RangesRun(g, func(*ast.RangeStmt) bool { return false }), "no loop certainly runs: g as it is")
	run := RangesRun(g, func(*ast.RangeStmt) bool { return true })
	pre, loop := head(g)
	require.NotNil(t, pre)
	assert.Contains(t, pre.Succs, loop, "g itself is not changed")
	npre, nloop := head(run)
	assert.NotContains(t, npre.Succs, nloop, "the loop is entered at its body")
	assert.Contains(t, npre.Succs, run.Blocks[loop.Succs[0].Index], "the body")
}
