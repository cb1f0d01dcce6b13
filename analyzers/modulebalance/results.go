package modulebalance

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
)

// setResults applies what ret stores into the function's named results
// before its deferred calls run (returnAssigns). A bare return hands
// on what they hold, as `return md, err` does. A return that gives a named
// result another value (`return nil, err`) leaves the module it held to
// nobody when the deferred unload reads the variable at exit (defer
// func() { if err != nil { md.Close() } }()): it unloads what the result
// holds then.
func (fa *funcAnalysis) setResults(ret *ast.ReturnStmt, s state) {
	for _, ra := range returnAssigns(fa.fn.Signature(fa.info), ret) {
		for k, h := range s {
			if k.Root != ra.Result {
				continue
			}
			switch {
			case ra.Value == nil:
				if h.b&live != 0 {
					own(s, k).b = h.b&^live | escaped
				}
			case fa.info.ObjectOf(identOf(ra.Value)) == ra.Result:
				// return md, nil: it keeps its value.
			case h.b&byRef != 0 && h.deferAt != token.NoPos && len(h.sites) > 0 && h.b&^flags == deferred:
				fa.resultSet = true
				fa.reportLeak(k, h, ret.Pos(), fmt.Sprintf("not unloaded on this return, which sets %s to %s before the deferred unload reads it",
					ra.Result.Name(), types.ExprString(ra.Value)))
				fa.resultSet = false
			}
		}
	}
}

// identOf is e as an identifier (through parentheses), or nil.
func identOf(e ast.Expr) *ast.Ident {
	id, _ := ast.Unparen(e).(*ast.Ident)
	return id
}

// A resultAssign is what a return statement of a function with named
// results stores into one of them before the deferred calls run: Result
// gets Value (nil for a bare return, which leaves the result as it is).
type resultAssign struct {
	Result *types.Var
	Value  ast.Expr
}

// returnAssigns returns what ret, a return statement of a function with
// signature sig (not of a closure inside it), assigns to sig's named
// results, in order: a deferred closure that reads a named result after
// `return nil, err` sees nil. It returns nothing for a function without
// named results, and for `return f()` of a call with several results
// (what each result gets is unknown).
func returnAssigns(sig *types.Signature, ret *ast.ReturnStmt) []resultAssign {
	res := sig.Results()
	if res.Len() == 0 || res.At(0).Name() == "" {
		return nil
	}
	if len(ret.Results) != 0 && len(ret.Results) != res.Len() {
		return nil
	}
	out := make([]resultAssign, res.Len())
	for i := range res.Len() {
		out[i].Result = res.At(i)
		if len(ret.Results) > 0 {
			out[i].Value = ret.Results[i]
		}
	}
	return out
}

// namedResult reports whether v is one of sig's named results (not a blank one).
func namedResult(sig *types.Signature, v types.Object) bool {
	if sig == nil || v == nil {
		return false
	}
	for i := range sig.Results().Len() {
		if r := sig.Results().At(i); r == v && r.Name() != "" && r.Name() != "_" {
			return true
		}
	}
	return false
}
