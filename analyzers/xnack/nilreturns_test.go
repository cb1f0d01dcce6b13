package xnack

import (
	"go/ast"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/flow"
	"github.com/hiplint/hiplint/internal/testenv/assert"
)

func TestNilReturns(t *testing.T) {
	src := `package p
import "errors"
func maybe() error { return nil }
func ok(n int) (int, error) {
	if n == 0 {
		return 0, errors.New("zero")
	}
	if n == 1 {
		return 1, nil
	}
	return 2, nil
}
func unsure(n int) (int, error) {
	if n == 0 {
		return 0, maybe()
	}
	return 1, nil
}
func named(n int) (m int, err error) {
	if n == 0 {
		return
	}
	return 1, nil
}
`
	pass, _ := fakePass(t, src)
	info := pass.TypesInfo
	check := func(name string) ([]int, bool) {
		for _, d := range pass.Files[0].Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == name {
				var rets []returnAt[int]
				ast.Inspect(fd.Body, func(n ast.Node) bool {
					if r, ok := n.(*ast.ReturnStmt); ok {
						rets = append(rets, returnAt[int]{r, len(rets)})
					}
					return true
				})
				results := info.Defs[fd.Name].(*types.Func).Signature().Results()
				return nilReturns(info, results, rets, 1)
			}
		}
		return nil, false
	}
	nils, ok := check("ok")
	assert.True(t, ok)
	assert.Equal(t, []int{1, 2}, nils, "the states of the two return nil statements")
	_, ok = check("unsure")
	assert.False(t, ok, "a call may return nil")
	_, ok = check("named")
	assert.False(t, ok, "a bare return of named results")
}

// TestNonNilError: new errors and variables other than named results are
// taken to be non-nil; a named result and a call that may return nil are not.
func TestNonNilError(t *testing.T) {
	src := `package p
import (
	"errors"
	"fmt"
)
type E struct{}
func (*E) Error() string { return "" }
func check(int) error { return nil }
func f(n int) (err error) {
	g := func() error { return nil }
	e := g()
	if n == 0 {
		return errors.New("x")
	}
	if n == 1 {
		return fmt.Errorf("y")
	}
	if n == 2 {
		return &E{}
	}
	if n == 3 {
		return e
	}
	if n == 4 {
		return err
	}
	return check(n)
}
`
	pass, _ := fakePass(t, src)
	info := pass.TypesInfo
	var body *ast.BlockStmt
	var results *types.Tuple
	for _, d := range pass.Files[0].Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == "f" {
			body = fd.Body
			results = info.Defs[fd.Name].(*types.Func).Signature().Results()
		}
	}
	var got []bool
	for _, r := range flow.ReturnStmts(body) {
		got = append(got, nonNilError(info, results, r.Results[0]))
	}
	assert.Equal(t, []bool{true, true, true, true, false, false}, got)
}
