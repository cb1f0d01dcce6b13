package flow

import (
	"go/ast"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

// TestGoHelpersShared: the package's goroutine helpers are summarized once
// per Index, for every body that calls them; each body's goroutines are
// those found with helpers of their own.
func TestGoHelpersShared(t *testing.T) {
	src := `package p
import "sync"
func wait(wg *sync.WaitGroup) { wg.Wait() }
func start(f func(), wg *sync.WaitGroup) { go func() { defer wg.Done(); f() }() }
func work() {}
func a() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); work() }()
	wait(&wg)
}
func b() {
	var wg sync.WaitGroup
	wg.Add(1)
	start(func() { work() }, &wg)
	wait(&wg)
	go work()
}
`
	pass, _ := fakePass(t, src)
	info := pass.TypesInfo
	x := NewIndex(pass.Fset, pass.Files, info)
	counts := map[string]int{}
	for _, f := range x.Funcs() {
		if f.Decl == nil || (f.Decl.Name.Name != "a" && f.Decl.Name.Name != "b") {
			continue
		}
		with := Goroutines(x, info, f.Body)
		again := Goroutines(x, info, f.Body)
		without := Goroutines(NewIndex(pass.Fset, pass.Files, info), info, f.Body) // helpers of its own
		assert.Equal(t, without, with, f.Decl.Name.Name)
		assert.Equal(t, with, again, f.Decl.Name.Name)
		counts[f.Decl.Name.Name] = len(with)
		for _, g := range with {
			_, isGo := g.Start.(*ast.GoStmt)
			assert.Equal(t, f.Decl.Name.Name == "b" && isGo, g.Join == nil, "only b's go work() is never joined")
		}
	}
	assert.Equal(t, map[string]int{"a": 1, "b": 2}, counts)
	require.NotNil(t, x.goh, "the helpers are the Index's")
	names := map[string]bool{}
	for fn, s := range x.goh.done {
		if s != nil {
			names[fn.Name()] = true
		}
	}
	assert.Equal(t, map[string]bool{"wait": true, "start": true}, names, "each summarized once, for both bodies")

}
