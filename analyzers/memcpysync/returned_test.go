package memcpysync

import (
	"go/ast"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/flow"
	"github.com/hiplint/hiplint/internal/testenv"
	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

func TestReturnedAt(t *testing.T) {
	src := `package p
type T struct{ ptr *int }
type pair struct{ t *T; n int }
func two() (*T, error) { return nil, nil }
func plain(t *T) (*T, error) { return t, nil }
func conv(t *T) any { return any(t) }
func lit(t *T) pair { return pair{t: t, n: 1} }
func addr(t *T) *pair { return &pair{t, 1} }
func nested(t *T) struct{ p pair } { return struct{ p pair }{p: pair{t: t}} }
func naked() (t *T, err error) { return }
func tuple() (*T, error) { return two() }
func none(t *T) { return }
`
	c := testenv.TypeCheck(t, src)
	lc := flow.Locator{Info: c.Info}
	rets := map[string]*ast.ReturnStmt{}
	sigs := map[string]*types.Signature{}
	for _, d := range c.File.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok {
			rets[fd.Name.Name] = flow.ReturnStmts(fd.Body)[0]
			sigs[fd.Name.Name] = c.Info.Defs[fd.Name].Type().(*types.Signature)
		}
	}
	var tupleCalls []*ast.CallExpr
	tuple := func(call *ast.CallExpr, i int) (flow.Loc, bool) {
		tupleCalls = append(tupleCalls, call)
		return flow.Loc{Root: types.NewVar(0, nil, "two()", nil), Path: []string{"#0", "#1"}[i]}, true
	}
	text := func(name string) []string {
		var out []string
		for _, rl := range returnedAt(c.Info, sigs[name], rets[name], lc.Of, tuple) {
			out = append(out, flow.Ref{Param: rl.result, Path: rl.path}.String()+"="+rl.loc.String())
		}
		return out
	}
	assert.Equal(t, []string{"p0=t"}, text("plain"), "the operand's location; nil names none")
	assert.Equal(t, []string{"p0=t"}, text("conv"), "through a conversion")
	assert.Equal(t, []string{"p0.t=t"}, text("lit"), "a keyed struct literal's field; a constant names none")
	assert.Equal(t, []string{"p0.t=t"}, text("addr"), "&T{...}, positional")
	assert.Equal(t, []string{"p0.p.t=t"}, text("nested"), "nested literals")
	assert.Equal(t, []string{"p0=t", "p1=err"}, text("naked"), "a naked return hands the named results")
	assert.Equal(t, []string{"p0=two()#0", "p1=two()#1"}, text("tuple"), "return f() of several results")
	assert.Len(t, tupleCalls, 2)
	assert.Empty(t, text("none"), "no results")
	assert.Empty(t, returnedAt(c.Info, sigs["plain"], nil, lc.Of, tuple), "the end of the body hands nothing")

	// ResultRefsOf: where the caller finds a location the return hands it.
	tv := c.Pkg.Scope().Lookup("lit").(*types.Func).Scope().Lookup("t")
	require.NotNil(t, tv)
	rls := []resultLoc{{result: 0, path: ".t", loc: flow.Loc{Root: tv}}, {result: 1, loc: flow.Loc{Root: tv, Path: ".ptr"}}}
	assert.Equal(t, []flow.Ref{{Param: 0, Path: ".t.ptr"}, {Param: 1, Path: ""}}, resultRefsOf(rls, flow.Loc{Root: tv, Path: ".ptr"}))
	assert.Equal(t, []flow.Ref{{Param: 0, Path: ".t"}}, resultRefsOf(rls, flow.Loc{Root: tv}), "a location holding a result's path, not inside it")
	assert.Equal(t, []flow.Ref{{Param: 0, Path: ".t.ptrs"}}, resultRefsOf(rls, flow.Loc{Root: tv, Path: ".ptrs"}), "not inside .ptr, whose path it only shares a prefix with")
}

func TestRerootAndCallResults(t *testing.T) {
	a, b := types.NewVar(0, nil, "a", nil), types.NewVar(0, nil, "b", nil)
	got, ok := reroot(flow.Loc{Root: a, Path: ".t.ptr"}, flow.Loc{Root: a, Path: ".t"}, flow.Loc{Root: b, Path: ".u"})
	assert.True(t, ok)
	assert.Equal(t, flow.Loc{Root: b, Path: ".u.ptr"}, got)
	_, ok = reroot(flow.Loc{Root: a, Path: ".tt"}, flow.Loc{Root: a, Path: ".t"}, flow.Loc{Root: b, Path: ""})
	assert.False(t, ok, "not inside")
	_, ok = reroot(flow.Loc{Root: a, Path: ""}, flow.Loc{}, flow.Loc{Root: b, Path: ""})
	assert.False(t, ok, "from nothing")

	var cr callResults
	call := &ast.CallExpr{Fun: ast.NewIdent("clone")}
	_, ok = cr.lookup(call, 0)
	assert.False(t, ok, "Lookup makes nothing")
	l := cr.at(call, 0)
	assert.Equal(t, "clone()", l.String())
	again, ok := cr.lookup(call, 0)
	assert.True(t, ok)
	assert.Equal(t, l, again, "the same variable at every lookup")
	assert.True(t, l != cr.at(call, 1), "each result its own")
}
