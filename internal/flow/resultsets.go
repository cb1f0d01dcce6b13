package flow

import (
	"go/ast"
	"go/types"
)

// ResultSmallSet returns the small constants (SmallSet) that fn, a function
// of the package with one result, may return: ok when every return
// statement of its body (not of its closures) returns a constant, or a call
// of another such function, as in
//
//	func kindFrom(onDevice bool) C.hipMemcpyKind {
//		if onDevice {
//			return C.hipMemcpyDeviceToDevice
//		}
//		return C.hipMemcpyHostToDevice
//	}
//
// so that a value picked at run time by a helper is the set of what it can
// be, as a variable assigned in a switch is.
func (x *Index) ResultSmallSet(fn *types.Func) (SmallSet, bool) {
	x.build()
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.resultSets == nil {
		x.resultSets = map[*types.Func]resultSet{}
		for _, f := range x.funcs {
			if f.Decl != nil {
				if obj, ok := x.info.Defs[f.Decl.Name].(*types.Func); ok {
					x.resultSets[obj] = resultSet{decl: f.Decl}
				}
			}
		}
	}
	return x.resultSetLocked(fn, 0)
}

type resultSet struct {
	decl     *ast.FuncDecl
	done, ok bool
	set      SmallSet
}

func (x *Index) resultSetLocked(fn *types.Func, depth int) (SmallSet, bool) {
	r, found := x.resultSets[fn]
	if !found || depth > 4 {
		return 0, false
	}
	if r.done {
		return r.set, r.ok
	}
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Results().Len() != 1 {
		x.resultSets[fn] = resultSet{decl: r.decl, done: true}
		return 0, false
	}
	set, ok := SmallSet(0), true
	ast.Inspect(r.decl.Body, func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if len(n.Results) != 1 {
				ok = false
				return false
			}
			s, sok := SmallSetAt(x.info, n.Results[0], nil)
			if !sok {
				if call, isCall := ast.Unparen(n.Results[0]).(*ast.CallExpr); isCall {
					if callee := Callee(x.info, call); callee != nil && callee != fn {
						s, sok = x.resultSetLocked(callee, depth+1)
					}
				}
			}
			set, ok = set|s, sok
		}
		return true
	})
	x.resultSets[fn] = resultSet{decl: r.decl, done: true, ok: ok, set: set}
	return set, ok
}
