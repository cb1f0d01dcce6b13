package flow

import (
	"go/ast"
	"testing"

	"github.com/stretchr/testify/assert"
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
	s := IndexSources(info, pass.Files)
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
