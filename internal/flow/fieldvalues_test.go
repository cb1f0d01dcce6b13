package flow

import (
	"go/ast"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

func TestFieldValues(t *testing.T) {
	src := `package p
type T struct{ ptr, other *int }
var a, b, c, d *int
func f() {
	x := &T{ptr: a, other: d}
	x = &T{b, d}
	x.ptr = c
	y := x
	z := T{other: d}
	_, _ = y, z
}
`
	pass, _ := fakePass(t, src)
	info := pass.TypesInfo
	s := indexSources(info, pass.Files)
	var ptr *types.Var
	idents := map[string]*ast.Ident{}
	ast.Inspect(pass.Files[0], func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && info.Uses[id] != nil {
			idents[id.Name] = id
		}
		if id, ok := n.(*ast.Ident); ok && id.Name == "ptr" && info.Defs[id] != nil {
			ptr = info.Defs[id].(*types.Var)
		}
		return true
	})
	walk := func(e ast.Expr, stopAt string) []string {
		var out []string
		s.FieldValues(info, e, ptr, func(value ast.Expr, stored []Source) bool {
			if value != nil {
				out = append(out, types.ExprString(value))
				return types.ExprString(value) != stopAt
			}
			for _, src := range stored {
				out = append(out, "stored "+types.ExprString(src.Expr))
			}
			return true
		})
		return out
	}
	assert.Equal(t, []string{"a", "b", "stored c"}, walk(idents["x"], ""),
		"x's values in order (keyed and positional), then what is stored into x.ptr")
	assert.Equal(t, []string{"a", "b", "stored c"}, walk(idents["y"], ""), "a copy holds what x holds")
	assert.Equal(t, []string{"a"}, walk(idents["x"], "a"), "yield stops the walk")
	assert.Empty(t, walk(idents["z"], ""), "a literal without the field")
}

func TestFieldValuesOptions(t *testing.T) {
	src := `package p
type T struct{ ptr *int }
type Option func(*T)
var a, b *int
func WithA() Option { return func(t *T) { t.ptr = a } }
func WithB() Option { return func(t *T) { t.ptr = b } }
func New(opts ...Option) *T {
	t := &T{}
	for _, o := range opts {
		o(t)
	}
	return t
}
func use() {
	x := New(WithA())
	y := New(WithB(), func(t *T) {})
	_, _ = x, y
}
`
	pass, _ := fakePass(t, src)
	info := pass.TypesInfo
	s := indexSources(info, pass.Files)
	var ptr *types.Var
	idents := map[string]*ast.Ident{}
	ast.Inspect(pass.Files[0], func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && info.Uses[id] != nil {
			idents[id.Name] = id
		}
		if id, ok := n.(*ast.Ident); ok && id.Name == "ptr" && info.Defs[id] != nil {
			ptr = info.Defs[id].(*types.Var)
		}
		return true
	})
	stored := func(e ast.Expr) []string {
		var out []string
		s.FieldValues(info, e, ptr, func(value ast.Expr, srcs []Source) bool {
			for _, src := range srcs {
				out = append(out, types.ExprString(src.Expr))
			}
			return true
		})
		return out
	}
	assert.Equal(t, []string{"a"}, stored(idents["x"]), "the option New(WithA()) applies")
	assert.Equal(t, []string{"b"}, stored(idents["y"]), "only the options of this call, not of New's other calls")
}
