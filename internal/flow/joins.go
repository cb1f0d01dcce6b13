package flow

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
)

// A Join is where a function waits for goroutines it started: a call of
// (*sync.WaitGroup).Wait, or a receive from a channel. Gos are the
// closures started with go (go func() {...}()) that signal it: they call
// Done on the same WaitGroup, or send on or close the same channel, and
// were started, in the source, after the function's last wait on it.
// Whatever they did happened before the wait returned (the Go memory
// model: Done and a send happen before the Wait and the receive they
// release), so an analyzer may run them there, in place.
type Join struct {
	At  ast.Node // the Wait call or the receive
	Gos []*ast.FuncLit
}

// Joins returns the joins of body, not those of its closures, in source
// order; nil when it starts no closure with go.
func Joins(info *types.Info, body *ast.BlockStmt) []Join {
	type goSite struct {
		lit     *ast.FuncLit
		signals []types.Object
	}
	type wait struct {
		at  ast.Node
		obj types.Object
	}
	var gos []goSite
	var waits []wait
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.GoStmt:
			if lit, ok := ast.Unparen(n.Call.Fun).(*ast.FuncLit); ok {
				gos = append(gos, goSite{lit: lit, signals: signals(info, lit)})
			}
			return false
		case *ast.CallExpr:
			if obj := waitGroupCall(info, n, "Wait"); obj != nil {
				waits = append(waits, wait{n, obj})
			}
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				if obj := exprObj(info, n.X); obj != nil {
					waits = append(waits, wait{n, obj})
				}
			}
		}
		return true
	})
	if len(gos) == 0 {
		return nil
	}
	var out []Join
	for i, w := range waits {
		since := token.NoPos // the last wait on the same thing before this one
		for _, v := range waits[:i] {
			if v.obj == w.obj {
				since = v.at.Pos()
			}
		}
		j := Join{At: w.at}
		for _, g := range gos {
			if g.lit.Pos() > since && g.lit.Pos() < w.at.Pos() && slices.Contains(g.signals, w.obj) {
				j.Gos = append(j.Gos, g.lit)
			}
		}
		if len(j.Gos) > 0 {
			out = append(out, j)
		}
	}
	return out
}

// signals returns the WaitGroups lit calls Done on and the channels it
// sends on or closes.
func signals(info *types.Info, lit *ast.FuncLit) []types.Object {
	var out []types.Object
	add := func(obj types.Object) {
		if obj != nil && !slices.Contains(out, obj) {
			out = append(out, obj)
		}
	}
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SendStmt:
			add(exprObj(info, n.Chan))
		case *ast.CallExpr:
			if BuiltinName(info, n) == "close" && len(n.Args) == 1 {
				add(exprObj(info, n.Args[0]))
			}
			add(waitGroupCall(info, n, "Done"))
		}
		return true
	})
	return out
}

// waitGroupCall returns the variable or field of the WaitGroup that call
// calls method name of, or nil.
func waitGroupCall(info *types.Info, call *ast.CallExpr, name string) types.Object {
	fn := Callee(info, call)
	if fn == nil || fn.Name() != name || fn.Pkg() == nil || fn.Pkg().Path() != "sync" {
		return nil
	}
	recv := fn.Signature().Recv()
	if recv == nil {
		return nil
	}
	if p, ok := recv.Type().(*types.Pointer); !ok || types.TypeString(p.Elem(), nil) != "sync.WaitGroup" {
		return nil
	}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		return exprObj(info, sel.X)
	}
	return nil
}

// exprObj returns the variable or field e names (wg, &wg, g.wg), or nil.
func exprObj(info *types.Info, e ast.Expr) types.Object {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		if obj, ok := info.Uses[e].(*types.Var); ok {
			return obj
		}
		if obj, ok := info.Defs[e].(*types.Var); ok {
			return obj
		}
	case *ast.SelectorExpr:
		if sel, ok := info.Selections[e]; ok && sel.Kind() == types.FieldVal {
			return sel.Obj()
		}
		if obj, ok := info.Uses[e.Sel].(*types.Var); ok {
			return obj
		}
	case *ast.UnaryExpr:
		if e.Op == token.AND {
			return exprObj(info, e.X)
		}
	}
	return nil
}
