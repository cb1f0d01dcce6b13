package flow

import (
	"go/ast"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestFailedSites: a branch on a status variable names the sites of the
// call it holds the status of, a branch on a call's status those of the
// call, and only where the branch says the call failed.
func TestFailedSites(t *testing.T) {
	c := check(t, `package p
func alloc() error { return nil }
func code() int { return 0 }
func f() {
	err := alloc()
	if err != nil {}
	if err == nil {}
	if code() != 0 {}
	if ok := true; ok {}
}
`)
	sitesIn := func(e ast.Expr) []int {
		if call, ok := e.(*ast.CallExpr); ok {
			return map[string][]int{"alloc": {1}, "code": {2}}[call.Fun.(*ast.Ident).Name]
		}
		return nil
	}
	body := funcDecl(c.file, "f").Body
	as := body.List[0].(*ast.AssignStmt)
	s := Statuses{}.Assign(c.info, as.Lhs, as.Rhs, sitesIn)
	cond := func(i int) ast.Expr { return body.List[i].(*ast.IfStmt).Cond }
	assert.Equal(t, []int{1}, s.FailedSites(c.info, cond(1), true, sitesIn), "err != nil taken: alloc failed")
	assert.Nil(t, s.FailedSites(c.info, cond(1), false, sitesIn), "err != nil not taken: it did not")
	assert.Equal(t, []int{1}, s.FailedSites(c.info, cond(2), false, sitesIn), "err == nil not taken: alloc failed")
	assert.Equal(t, []int{2}, s.FailedSites(c.info, cond(3), true, sitesIn), "the call compared itself")
	assert.Nil(t, s.FailedSites(c.info, cond(4), true, sitesIn), "no status compared")
	assert.Nil(t, Statuses{}.FailedSites(c.info, cond(1), true, sitesIn), "err holds no call's status")
}
