package memcpysync

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/hiplint/hiplint/internal/flow"
)

// Memory a function hands back: its summary names results the way it names
// parameters (returnedAt, resultRefsOf: a Ref whose Param is the result's
// index, ParamCopy.Result); the caller names each call's results as
// locations of their own (callResults) and moves what it knows of one to
// where it stores it (reroot).

// resultLoc is a location (loc) a return statement hands its caller:
// inside result result, at path in it.
type resultLoc struct {
	result int
	path   string
	loc    flow.Loc
}

// maxLitDepth bounds how deep returnedAt follows nested composite
// literals.
const maxLitDepth = 4

// returnedAt returns the locations a return statement of a function with
// signature sig hands its caller: each operand's location as of names it
// (path ""), and for a struct composite literal operand (T{f: x}, &T{f: x},
// nested literals too) the location of each field's value at the field's
// path (".f"). A naked return hands the named results; return f() of a call
// with several results hands tuple(call, i) as result i (tuple may be nil:
// none).
func returnedAt(info *types.Info, sig *types.Signature, ret *ast.ReturnStmt,
	of func(ast.Expr) (flow.Loc, bool), tuple func(*ast.CallExpr, int) (flow.Loc, bool)) []resultLoc {
	if sig == nil || ret == nil {
		return nil
	}
	n := sig.Results().Len()
	var out []resultLoc
	switch {
	case n == 0:
	case len(ret.Results) == 0: // a naked return of named results
		for i := range n {
			if v := sig.Results().At(i); v.Name() != "" && v.Name() != "_" {
				out = append(out, resultLoc{result: i, loc: flow.Loc{Root: v}})
			}
		}
	case len(ret.Results) == 1 && n > 1: // return f()
		call, ok := ast.Unparen(ret.Results[0]).(*ast.CallExpr)
		if !ok || tuple == nil {
			break
		}
		for i := range n {
			if l, ok := tuple(call, i); ok {
				out = append(out, resultLoc{result: i, loc: l})
			}
		}
	case len(ret.Results) == n:
		var walk func(i int, e ast.Expr, path string, depth int)
		walk = func(i int, e ast.Expr, path string, depth int) {
			e = flow.StripConversions(info, e)
			x := e
			if u, ok := x.(*ast.UnaryExpr); ok && u.Op == token.AND {
				x = ast.Unparen(u.X)
			}
			if lit, ok := x.(*ast.CompositeLit); ok {
				if depth < maxLitDepth {
					for _, fv := range flow.LitFields(info, lit) {
						walk(i, fv.Value, path+"."+fv.Field.Name(), depth+1)
					}
				}
				return
			}
			if l, ok := of(e); ok {
				out = append(out, resultLoc{result: i, path: path, loc: l})
			}
		}
		for i, e := range ret.Results {
			walk(i, e, "", 0)
		}
	}
	return out
}

// resultRefsOf returns where the caller finds location l among what a
// return statement hands it (returnedAt): for each of them that l is or
// is inside, the result (Ref.Param: the result's index) and the path in it.
func resultRefsOf(rls []resultLoc, l flow.Loc) []flow.Ref {
	var out []flow.Ref
	for _, rl := range rls {
		if rl.loc.Root != nil && l.Under(rl.loc) {
			out = flow.AppendNew(out, flow.Ref{Param: rl.result, Path: rl.path + l.Path[len(rl.loc.Path):]})
		}
	}
	return out
}

// reroot returns d moved from inside from to inside to: from.x.y becomes
// to.x.y. ok is false when d is not from or inside it.
func reroot(d, from, to flow.Loc) (flow.Loc, bool) {
	if from.Root == nil || !d.Under(from) {
		return flow.Loc{}, false
	}
	return flow.Loc{Root: to.Root, Path: to.Path + d.Path[len(from.Path):]}, true
}

// callResults names what calls return as locations: result i of a call is
// a variable of its own, declared nowhere, the same variable at every
// lookup. A caller applying a summary that names results puts what it says
// there, and moves it (reroot) to where the call's result is stored.
type callResults struct {
	vars map[callResult]*types.Var
}

type callResult struct {
	call *ast.CallExpr
	i    int
}

// at returns the location of result i of call, made on first use.
func (c *callResults) at(call *ast.CallExpr, i int) flow.Loc {
	k := callResult{call, i}
	v := c.vars[k]
	if v == nil {
		if c.vars == nil {
			c.vars = map[callResult]*types.Var{}
		}
		v = types.NewVar(call.Pos(), nil, types.ExprString(call.Fun)+"()", nil)
		c.vars[k] = v
	}
	return flow.Loc{Root: v}
}

// lookup returns the location of result i of call when at made it.
func (c *callResults) lookup(call *ast.CallExpr, i int) (flow.Loc, bool) {
	v := c.vars[callResult{call, i}]
	return flow.Loc{Root: v}, v != nil
}
