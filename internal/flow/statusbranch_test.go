package flow

import (
	"fmt"
	"go/ast"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

func TestStatusBranch(t *testing.T) {
	c := check(t, `package p
type status int
type Status int32
func (s status) error(op string) error { return nil }
func check(s status) error { return nil }
func load() status { return 0 }
func f(res status, n int, name string) {
	err := check(res)
	if res != 0 {}
	if err == nil && Status(res) == 0 {}
	if check(res) != nil || load() != 0 {}
	if res.error("op") == nil {}
	if check(status(n)) != nil {}
	_ = err; _ = name
}`)
	isStatus := func(t types.Type) bool { return isErrorLike(t) || t.String() == "p.status" }
	never := func(*ast.CallExpr) bool { return false }
	sources := func(e ast.Expr) []types.Object { return StatusSources(c.info, e, isStatus, never) }
	fn := c.file.Decls[len(c.file.Decls)-1].(*ast.FuncDecl)
	branch := func(i int, taken bool) []string {
		var out []string
		cond := fn.Body.List[i].(*ast.IfStmt).Cond
		StatusBranch(c.info, cond, taken, sources, func(key any, success bool) {
			name := fmt.Sprint(key)
			if v, ok := key.(types.Object); ok {
				name = v.Name()
			} else if e, ok := key.(ast.Expr); ok {
				name = types.ExprString(e)
			}
			out = append(out, fmt.Sprintf("%s=%v", name, success))
		})
		return out
	}
	assert.Equal(t, []string{"res=false"}, branch(1, true))
	assert.Equal(t, []string{"res=true"}, branch(1, false))
	// Taken: both held; the conversion names res too.
	assert.Equal(t, []string{"err=true", "Status(res)=true", "res=true"}, branch(2, true))
	assert.Empty(t, branch(2, false)) // a failed && decides neither
	// A helper's call is the key and names its sources; a call without
	// sources is a key of its own.
	assert.Equal(t, []string{"check(res)=true", "res=true", "load()=true"}, branch(3, false))
	assert.Equal(t, []string{"res.error(\"op\")=false", "res=false"}, branch(4, false))
	// Integer variables count: n converted to a status.
	assert.Equal(t, []string{"check(status(n))=false", "n=false"}, branch(5, true))
	// A skipped call has no sources; a non-status call neither.
	skip := func(*ast.CallExpr) bool { return true }
	call := fn.Body.List[3].(*ast.IfStmt).Cond.(*ast.BinaryExpr).X.(*ast.BinaryExpr).X
	assert.Empty(t, StatusSources(c.info, call, isStatus, skip))
	assert.Len(t, StatusSources(c.info, call, isStatus, never), 1)
	assert.Empty(t, StatusSources(c.info, fn.Body.List[0].(*ast.AssignStmt).Lhs[0], isStatus, never))
}
