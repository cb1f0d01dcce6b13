package flow

import (
	"go/ast"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

// TestJoins: a Wait joins the goroutines that call Done on its WaitGroup,
// started since the last Wait on it; a receive those that send on or close
// its channel; a goroutine that signals something else is not joined.
func TestJoins(t *testing.T) {
	src := `package p
import "sync"
type group struct{ wg sync.WaitGroup }
func work(int) {}
func use(g *group) int {
	var wg sync.WaitGroup
	done := make(chan int)
	other := make(chan int)
	wg.Add(2)
	go func() { defer wg.Done(); work(1) }()
	go func() { defer wg.Done(); work(2) }()
	go func() { other <- 1 }()
	wg.Wait()
	go func() { defer wg.Done(); work(3) }()
	wg.Wait()
	go func() { done <- 4 }()
	go func() { defer close(done) }()
	g.wg.Add(1)
	go func() { defer g.wg.Done(); work(5) }()
	g.wg.Wait()
	return <-done
}
`
	pass, _ := fakePass(t, src)
	body := pass.Files[0].Decls[3].(*ast.FuncDecl).Body
	index := map[*ast.FuncLit]int{} // the go statements, numbered from 1
	ast.Inspect(body, func(n ast.Node) bool {
		if g, ok := n.(*ast.GoStmt); ok {
			index[g.Call.Fun.(*ast.FuncLit)] = len(index) + 1
		}
		return true
	})
	var got [][]int
	for _, j := range Joins(pass.TypesInfo, body) {
		var gos []int
		for _, lit := range j.Gos {
			gos = append(gos, index[lit])
		}
		got = append(got, gos)
	}
	// wg.Wait(): 1 and 2; wg.Wait(): 4; g.wg.Wait(): 7; <-done: 5 and 6.
	assert.Equal(t, [][]int{{1, 2}, {4}, {7}, {5, 6}}, got)
}
