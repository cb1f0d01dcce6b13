package flow

import (
	"go/ast"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

func TestCleanupReleases(t *testing.T) {
	c := check(t, `package p
import "testing"
type M struct{}
func (m *M) Close() {}
func (m *M) Name() string { return "" }
func free(p *M) {}
func helper(t *testing.T) *M {
	a, b, d := &M{}, &M{}, &M{}
	t.Cleanup(func() { free(a) })
	t.Cleanup(b.Close)
	t.Cleanup(func() { _ = d.Name() })
	free(d)
	return a
}`)
	var body *ast.BlockStmt
	for _, d := range c.file.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == "helper" {
			body = fd.Body
		}
	}
	frees := func(call *ast.CallExpr) []ast.Expr {
		if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "free" {
			return call.Args
		}
		return nil
	}
	closes := func(fn *types.Func) bool { return fn.Name() == "Close" }
	var got []string
	ast.Inspect(body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			CleanupReleases(nil, c.info, call, frees, closes, func(at *ast.CallExpr, e ast.Expr) {
				got = append(got, types.ExprString(at)+": "+types.ExprString(e))
			})
		}
		return true
	})
	assert.Equal(t, []string{"free(a): a", "t.Cleanup(b.Close): b"}, got, "free(d) is no cleanup")

	var objs [3]map[types.Object]bool
	for i, name := range []string{"a", "b", "d"} {
		for id, obj := range c.info.Defs {
			if id.Name == name && obj != nil && body.Pos() <= id.Pos() && id.Pos() < body.End() {
				objs[i] = map[types.Object]bool{obj: true}
			}
		}
	}
	assert.True(t, CleanedUp(nil, c.info, body, objs[0], frees, closes))
	assert.True(t, CleanedUp(nil, c.info, body, objs[1], frees, closes))
	assert.False(t, CleanedUp(nil, c.info, body, objs[2], frees, closes), "d's cleanup only reads it")
}
