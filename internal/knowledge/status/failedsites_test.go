package status

import (
	"go/ast"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv"
	"github.com/hiplint/hiplint/internal/testenv/assert"
)

// TestFailedSites: a branch on a status variable names the sites of the
// call it holds the status of, a branch on a call's status those of the
// call, and only where the branch says the call failed.
func TestFailedSites(t *testing.T) {
	c := testenv.TypeCheck(t, `package p
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
	body := funcDecl(c.File, "f").Body
	as := body.List[0].(*ast.AssignStmt)
	s := Statuses{}.Assign(c.Info, as.Lhs, as.Rhs, sitesIn)
	cond := func(i int) ast.Expr { return body.List[i].(*ast.IfStmt).Cond }
	assert.Equal(t, []int{1}, s.FailedSites(c.Info, cond(1), true, sitesIn), "err != nil taken: alloc failed")
	assert.Nil(t, s.FailedSites(c.Info, cond(1), false, sitesIn), "err != nil not taken: it did not")
	assert.Equal(t, []int{1}, s.FailedSites(c.Info, cond(2), false, sitesIn), "err == nil not taken: alloc failed")
	assert.Equal(t, []int{2}, s.FailedSites(c.Info, cond(3), true, sitesIn), "the call compared itself")
	assert.Nil(t, s.FailedSites(c.Info, cond(4), true, sitesIn), "no status compared")
	assert.Nil(t, Statuses{}.FailedSites(c.Info, cond(1), true, sitesIn), "err holds no call's status")
}

// TestFailedStatus: the status a branch proves failed, where the branch is
// taken (err != nil, r != 0) or not (err == nil, nil == err).
func TestFailedStatus(t *testing.T) {
	c := testenv.TypeCheck(t, `package p
func f(err error, r int) {
	if err != nil {}
	if nil == err {}
	if r != 0 {}
	if r > 0 {}
}
`)
	body := funcDecl(c.File, "f").Body
	cond := func(i int) ast.Expr { return body.List[i].(*ast.IfStmt).Cond }
	for _, tc := range []struct {
		cond   ast.Expr
		taken  bool
		status string
	}{
		{cond(0), true, "err"},  // err != nil, taken: failed
		{cond(0), false, ""},    // err != nil, not taken: succeeded
		{cond(1), false, "err"}, // nil == err, not taken: failed
		{cond(1), true, ""},
		{cond(2), true, "r"}, // r != 0 (hipSuccess is 0)
		{cond(2), false, ""},
		{cond(3), true, ""}, // not a comparison with the success value
	} {
		v, ok := failedStatus(c.Info, tc.cond, tc.taken)
		if tc.status == "" {
			assert.False(t, ok, types.ExprString(tc.cond))
			continue
		}
		if assert.True(t, ok, types.ExprString(tc.cond)) {
			assert.Equal(t, tc.status, types.ExprString(v))
		}
	}
}

func funcDecl(f *ast.File, name string) *ast.FuncDecl {
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == name {
			return fd
		}
	}
	return nil
}
