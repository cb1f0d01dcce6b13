package flow

import (
	"go/ast"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

func TestIndexSources(t *testing.T) {
	src := `package p
type T struct{ ptr *int }
func two() (*int, error) { return nil, nil }
func one() *int { return nil }
var g = one()
func f(x *int) {
	var v *int
	v = x
	w, err := two()
	t := T{ptr: w}
	t.ptr = one()
	s := []*int{}
	s[0] = v
	m := map[string]*int{}
	u, ok := m["k"]
	_, _, _, _ = err, u, ok, g
}
`
	pass, _ := fakePass(t, src)
	s := indexSources(pass.TypesInfo, pass.Files)
	byName := map[string][]Source{}
	for o, srcs := range s.Of {
		byName[o.Name()] = append(byName[o.Name()], srcs...)
	}
	require.Len(t, byName["v"], 1, "var v without a value gives nothing")
	require.Len(t, byName["w"], 1)
	assert.NotNil(t, byName["w"][0].Call, "a call with several results is a Call source")
	assert.Equal(t, 0, byName["w"][0].Result)
	assert.Equal(t, 1, byName["err"][0].Result)
	assert.Len(t, byName["ptr"], 2, "the field in every value: T{ptr: w} and t.ptr = one()")
	assert.NotNil(t, byName["ptr"][1].Expr, "a one-result call is an expression source")
	assert.Len(t, byName["g"], 1, "package variables")
	assert.Len(t, byName["u"], 1, "the value of a comma-ok form")
	assert.Empty(t, byName["ok"], "the ok of a comma-ok form is no expression's value")
	var elems int
	for o, es := range s.Elems {
		assert.Equal(t, "s", o.Name())
		elems += len(es)
	}
	assert.Equal(t, 1, elems)
	require.Len(t, s.Fields, 1)
	for k, srcs := range s.Fields {
		assert.Equal(t, "t.ptr", k.String())
		assert.Len(t, srcs, 1)
	}
}

func TestStoreDeps(t *testing.T) {
	src := `package p
type T struct{ ptr *int }
func alloc() *int { return nil }
func other() *int { return nil }
var g = other()
func New() *T { return &T{ptr: alloc()} }
func (t *T) Ptr() *int { return t.ptr }
func G() *int { return g }
func Local() *int { p := alloc(); return p }
`
	pass, _ := fakePass(t, src)
	s := indexSources(pass.TypesInfo, pass.Files)
	deps := map[string][]string{}
	for _, d := range pass.Files[0].Decls {
		if fd, ok := d.(*ast.FuncDecl); ok {
			for _, fn := range storeDeps(pass.TypesInfo, pass.Pkg, s, fd.Body) {
				deps[fd.Name.Name] = append(deps[fd.Name.Name], fn.Name())
			}
		}
	}
	assert.Equal(t, map[string][]string{"Ptr": {"alloc"}, "G": {"other"}}, deps,
		"a local's sources are the body's own calls")
}
