package graphfree

import (
	"go/ast"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/flow"
	"github.com/hiplint/hiplint/internal/testenv/assert"
)

// TestReportAndObjects: the final analysis where Solve has one, a fresh one
// for a relevant function cut off, nothing for in-place closures.
func TestReportAndObjects(t *testing.T) {
	src := "package p\nfunc do(f func()) { f() }\nfunc a() { do(func() {}) }\nfunc b() {}\nfunc c() {}\n"
	pass, _ := fakePass(t, src)
	x := flow.NewIndex(pass.Fset, pass.Files, pass.TypesInfo)
	funcs := x.Funcs()
	assert.Len(t, flow.Objects(pass.TypesInfo, funcs), 4, "declared functions only")
	name := func(fn flow.Func) string {
		if fn.Decl == nil {
			return "lit"
		}
		return fn.Decl.Name.Name
	}
	s := flow.Summaries[string]{Pass: pass, Index: x,
		Relevant: func(fn flow.Func) bool { return name(fn) != "c" },
		Analyze:  func(fn flow.Func) string { return "fresh " + name(fn) },
	}
	final := make([]string, len(funcs))
	ok := make([]bool, len(funcs))
	for i, fn := range funcs {
		if name(fn) == "a" {
			final[i], ok[i] = "final a", true
		}
	}
	var got []string
	s.Report(funcs, final, ok, func(_ flow.Func, a string) { got = append(got, a) })
	assert.ElementsMatch(t, []string{"final a", "fresh b", "fresh do"}, got)
}

func TestUniformFields(t *testing.T) {
	src := `package p
type T struct{ a, b, c *int; D *int }
func f(t *T, x, y *int) {
	t.a = x
	t.a = x
	t.b = x
	t.b = y
	t.c = x
	t.c, t.D = nil, x
}
`
	pass, _ := fakePass(t, src)
	var writes []write
	writesOf(pass.TypesInfo, funcsOf(pass), func(w write) {
		if w.Target.IsField() {
			writes = append(writes, w)
		}
	})
	got := uniformFields(pass.Pkg, writes, func(w write) (string, string, bool) {
		if w.Value == nil {
			return "", "", false
		}
		id, ok := ast.Unparen(w.Value).(*ast.Ident)
		if !ok || id.Name == "nil" {
			return "", "", false
		}
		return types.ExprString(w.Value) + "@" + pass.Fset.Position(w.Value.Pos()).String(), id.Name, true
	})
	names := map[string]string{}
	for f, d := range got {
		names[f.Name()] = d
	}
	assert.Equal(t, map[string]string{"a": "x@p.go:4:8"}, names, "b holds x or y, c nil once, D is exported")
}
