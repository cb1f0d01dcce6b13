package flow

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

// TestGoroutines: each goroutine a body starts, with the wait that joins
// it: a WaitGroup, a channel received or ranged over, the Wait of a group
// whose Go started it, a helper that waits on its parameter, never (a fire
// and forget goroutine, a parallel subtest), or unknown (Opaque: it signals
// a channel nobody here receives from, or shares a lock).
func TestGoroutines(t *testing.T) {
	src := `package p
import (
	"sync"
	"testing"
)
type Group struct{ wg sync.WaitGroup }
func (g *Group) Go(f func() error) {
	g.wg.Add(1)
	go func() { defer g.wg.Done(); f() }()
}
func (g *Group) Wait() error { g.wg.Wait(); return nil }
func wait(wg *sync.WaitGroup) { wg.Wait() }
func work(int) {}
func use(out chan int, mu *sync.Mutex) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); work(1) }()
	done := make(chan int)
	go func() { done <- 2 }()
	var g Group
	g.Go(func() error { work(3); return nil })
	go func() { work(4) }()
	go func() { out <- 5 }()
	go func() { mu.Lock(); work(6); mu.Unlock() }()
	results := make(chan int)
	go func() { defer close(results); results <- 7 }()
	var wg2 sync.WaitGroup; wg2.Add(1)
	go func() { defer wg2.Done(); work(8) }()
	wg.Wait()
	<-done
	g.Wait()
	for range results {
	}
	wait(&wg2)
}
func TestP(t *testing.T) {
	t.Run("a", func(t *testing.T) { t.Parallel(); work(9) })
	t.Run("b", func(t *testing.T) { work(10) })
}
`
	pass, _ := fakePass(t, src)
	x := &Index{fset: pass.Fset, files: pass.Files, info: pass.TypesInfo}
	line := func(n ast.Node) int {
		if n == nil {
			return 0
		}
		return pass.Fset.Position(n.Pos()).Line
	}
	type row struct {
		Start, Join int
		Opaque      bool
	}
	var got []row
	for _, f := range x.Funcs() {
		if f.Decl == nil || (f.Decl.Name.Name != "use" && f.Decl.Name.Name != "TestP") {
			continue
		}
		for _, g := range Goroutines(x, pass.TypesInfo, f.Body) {
			got = append(got, row{line(g.Start), line(g.Join), g.Opaque})
		}
	}
	assert.Equal(t, []row{
		{17, 29, false}, // wg.Wait()
		{19, 30, false}, // <-done
		{21, 31, false}, // g.Wait(): Group.Go signals g, Group.Wait waits on it
		{22, 0, false},  // never joined
		{23, 0, true},   // out is received elsewhere
		{24, 0, true},   // a lock: unknown
		{26, 32, false}, // range results
		{28, 34, false}, // wait(&wg2), a helper
		{37, 0, false},  // a parallel subtest: after TestP returns
	}, got)
}

// TestInitOrder: init functions run file by file in name order, each
// file's in declaration order; the cgo files come after the Go files.
func TestInitOrder(t *testing.T) {
	fset := token.NewFileSet()
	srcs := map[string]string{
		"b.go":  "package p\nfunc init() { b1() }\nfunc init() { b2() }\nfunc b1() {}\nfunc b2() {}\n",
		"a.go":  "package p\nfunc init() { a1() }\nfunc a1() {}\n",
		"0c.go": "package p\nimport \"C\"\nfunc init() { c1() }\nfunc c1() {}\n",
		"zz.go": "package p\nfunc helper() { init2() }\nfunc init2() {}\n",
	}
	var files []*ast.File
	for _, name := range []string{"b.go", "0c.go", "zz.go", "a.go"} { // not in name order
		f, err := parser.ParseFile(fset, name, srcs[name], 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{},
		Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	if _, err := (&types.Config{FakeImportC: true}).Check("p", fset, files, info); err != nil {
		t.Fatal(err)
	}
	x := &Index{fset: fset, files: files, info: info}
	var got []string
	for _, f := range InitOrder(x) {
		got = append(got, types.ExprString(f.Decl.Body.List[0].(*ast.ExprStmt).X))
	}
	assert.Equal(t, []string{"a1()", "b1()", "b2()", "c1()"}, got)
}
