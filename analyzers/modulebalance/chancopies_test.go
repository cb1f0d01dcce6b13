package modulebalance

import (
	"go/ast"
	"go/types"
	"slices"
	"testing"

	"github.com/hiplint/hiplint/internal/flow"
	"github.com/hiplint/hiplint/internal/testenv/assert"
)

// TestFindChanCopies: a receiver of a local channel that only ever
// carries one variable is a copy of it; a channel ranged over, captured by
// a closure, sent in a loop, passed on or carrying two variables is none,
// nor is one whose receiver is assigned again or whose variable is
// assigned after the send (its address taken before it is fine: a load's
// out-argument).
func TestFindChanCopies(t *testing.T) {
	src := `package p
func f(keep func(chan int), set func(*int)) {
	a := 1
	ch := make(chan int, 1)
	ch <- a
	got := <-ch
	close(ch)
	_ = len(ch)

	b := 2
	ranged := make(chan int, 1)
	ranged <- b
	for v := range ranged { _ = v }

	c := 3
	captured := make(chan int, 1)
	captured <- c
	go func() { <-captured }()

	d := 4
	looped := make(chan int, 4)
	for i := 0; i < 2; i++ { looped <- d }
	fromLoop := <-looped

	e, e2 := 5, 6
	two := make(chan int, 2)
	two <- e
	two <- e2
	fromTwo := <-two

	g := 7
	passed := make(chan int, 1)
	passed <- g
	keep(passed)
	fromPassed := <-passed

	h := 8
	again := make(chan int, 1)
	again <- h
	h = 9
	fromAgain := <-again

	k := 10
	reassigned := make(chan int, 1)
	reassigned <- k
	fromReassigned := <-reassigned
	fromReassigned = 11
	var m int
	set(&m)
	mch := make(chan int, 1)
	mch <- m
	fromM := <-mch
	_, _, _, _, _, _ = fromLoop, fromTwo, fromPassed, fromAgain, fromReassigned, fromM
	_ = got
}
`
	pass, _ := fakePass(t, src)
	body := pass.Files[0].Decls[0].(*ast.FuncDecl).Body
	cc := findChanCopies(pass.TypesInfo, body)
	var pairs []string
	for got, w := range cc.Copies {
		pairs = append(pairs, got.Name()+"="+w.Name())
	}
	slices.Sort(pairs)
	assert.Equal(t, []string{"fromM=m", "got=a"}, pairs)
	var sent []string
	for s := range cc.Sends {
		sent = append(sent, s.Value.(*ast.Ident).Name)
	}
	slices.Sort(sent)
	assert.Equal(t, []string{"a", "m"}, sent)
}

// TestReturnAssigns: what each return stores into the named results; a
// bare return stores nothing new, a return of a multi-valued call and a
// function without named results give nothing.
func TestReturnAssigns(t *testing.T) {
	src := `package p
func two() (int, error) { return 0, nil }
func f(c bool) (x int, err error) {
	if c {
		return 1, nil
	}
	if !c {
		return
	}
	return two()
}
`
	pass, _ := fakePass(t, src)
	unnamed := pass.Files[0].Decls[0].(*ast.FuncDecl)
	fd := pass.Files[0].Decls[1].(*ast.FuncDecl)
	sig := pass.TypesInfo.Defs[fd.Name].(*types.Func).Signature()
	rets := flow.ReturnStmts(fd.Body)
	got := returnAssigns(sig, rets[0])
	assert.Len(t, got, 2)
	assert.Equal(t, "x", got[0].Result.Name())
	assert.Equal(t, "1", got[0].Value.(*ast.BasicLit).Value)
	assert.True(t, namedResult(sig, got[1].Result))
	bare := returnAssigns(sig, rets[1])
	assert.Len(t, bare, 2)
	assert.Nil(t, bare[0].Value)
	assert.Empty(t, returnAssigns(sig, rets[2]))
	usig := pass.TypesInfo.Defs[unnamed.Name].(*types.Func).Signature()
	assert.Empty(t, returnAssigns(usig, flow.ReturnStmts(unnamed.Body)[0]))
	assert.False(t, namedResult(usig, usig.Results().At(0)))
}
