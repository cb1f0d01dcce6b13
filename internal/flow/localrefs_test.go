package flow

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

// TestLocalRefs: the package's functions a body mentions, each once, in
// the order of first mention, with the implementations of the interface
// methods it calls; also past the few refs that a scan dedupes.
func TestLocalRefs(t *testing.T) {
	var b strings.Builder
	b.WriteString("package p\nimport \"strings\"\ntype I interface{ M() }\ntype A struct{}\nfunc (A) M() {}\n")
	b.WriteString("func g[T any](T) {}\n")
	for i := range 20 {
		fmt.Fprintf(&b, "func f%d() {}\n", i)
	}
	b.WriteString("func use(i I) {\n\tf3(); f1(); f3()\n\ti.M()\n\tg(1); g(\"s\")\n\t_ = strings.ToUpper\n")
	for i := range 20 {
		fmt.Fprintf(&b, "\tf%d()\n", i)
	}
	b.WriteString("}\n")
	pass, _ := fakePass(t, b.String())
	x := NewIndex(pass.Fset, pass.Files, pass.TypesInfo)
	decls := pass.Files[0].Decls
	body := decls[len(decls)-1].(*ast.FuncDecl).Body
	var got []string
	for _, fn := range localRefs(pass, x, NewImpls(pass), body) {
		got = append(got, fn.FullName())
	}
	want := []string{"p.f3", "p.f1", "(p.I).M", "(p.A).M", "p.g", "p.f0"}
	for i := 2; i < 20; i++ {
		if i != 3 {
			want = append(want, fmt.Sprintf("p.f%d", i))
		}
	}
	assert.Equal(t, want, got)

	got = got[:0]
	for _, fn := range localRefs(pass, x, nil, body) {
		got = append(got, fn.FullName())
	}
	assert.NotContains(t, got, "(p.A).M", "no implementations without Impls")
	assert.Len(t, got, len(want)-1)
}

// TestFuncList: each function once, in the order of first Add, below and
// past the length where a set takes over from the scan.
func TestFuncList(t *testing.T) {
	var fns []*types.Func
	for i := range 40 {
		fns = append(fns, types.NewFunc(0, nil, fmt.Sprintf("f%d", i), types.NewSignatureType(nil, nil, nil, nil, nil, false)))
	}
	var l funcList
	for _, i := range []int{3, 1, 3, 0, 1} {
		l.Add(fns[i])
	}
	assert.Equal(t, []*types.Func{fns[3], fns[1], fns[0]}, l.list)
	for _, fn := range append(fns, fns...) {
		l.Add(fn)
	}
	assert.Len(t, l.list, 40)
	assert.Equal(t, []*types.Func{fns[3], fns[1], fns[0], fns[2], fns[4]}, l.list[:5])
	assert.NotNil(t, l.seen, "a set past 16")
}
