package modulebalance

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/hiplint/hiplint/internal/flow"
)

// chanCopies are the values a function hands to itself through a channel
// of its own: a local channel that only carries one variable w (ch <- w)
// to variables that receive it (got := <-ch), all in body, none in a loop
// or a closure, w not assigned (nor its address taken) after its first
// send, each receiver assigned by its receive only. Each receiver then
// holds what w holds: it is a copy of w (Copies[got] == w), and the send
// hands w to nobody else (Sends). A channel used in any other way (ranged
// over, passed on, returned, captured by a goroutine, selected on) is
// none of these: what it carries may go anywhere. Flow-insensitive
// flow.Sources (valueflow.go) already see what <-ch may receive; this is the
// path analyses' view, for an analyzer that tracks a value by the
// variable that holds it (flow.Locator.Copies).
type chanCopies struct {
	Copies map[types.Object]types.Object
	Sends  map[*ast.SendStmt]bool
}

// findChanCopies returns body's chanCopies (nil maps when none).
func findChanCopies(info *types.Info, body *ast.BlockStmt) chanCopies {
	type use struct {
		sent  types.Object // the variable its sends carry
		bad   bool
		sends []*ast.SendStmt
		recv  []types.Object
	}
	chans := map[types.Object]*use{}
	// writes: where each local variable is assigned (or its address taken).
	writes := map[types.Object][]token.Pos{}
	local := func(id *ast.Ident) types.Object {
		if id == nil {
			return nil
		}
		v, ok := info.ObjectOf(id).(*types.Var)
		if !ok || v.IsField() || !flow.Declares(body, v) {
			return nil
		}
		return v
	}
	chanOf := func(id *ast.Ident) *use {
		v := local(id)
		if v == nil {
			return nil
		}
		if _, ok := v.Type().Underlying().(*types.Chan); !ok {
			return nil
		}
		u := chans[v]
		if u == nil {
			u = &use{}
			chans[v] = u
		}
		return u
	}
	ident := func(e ast.Expr) *ast.Ident {
		id, _ := ast.Unparen(e).(*ast.Ident)
		return id
	}
	var stack []ast.Node
	inLoopOrLit := func() bool {
		for _, n := range stack {
			switch n.(type) {
			case *ast.ForStmt, *ast.RangeStmt, *ast.FuncLit:
				return true
			}
		}
		return false
	}
	// handled: identifiers of channels whose use was classified.
	handled := map[*ast.Ident]bool{}
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		switch x := n.(type) {
		case *ast.SendStmt:
			if u := chanOf(ident(x.Chan)); u != nil {
				handled[ident(x.Chan)] = true
				w := local(ident(x.Value))
				if w == nil || inLoopOrLit() || u.sent != nil && u.sent != w {
					u.bad = true
				}
				u.sent = w
				u.sends = append(u.sends, x)
			}
		case *ast.AssignStmt:
			for _, l := range x.Lhs {
				if v := local(ident(l)); v != nil {
					writes[v] = append(writes[v], x.Pos())
				}
			}
			if len(x.Lhs) == 1 && len(x.Rhs) == 1 && x.Tok == token.DEFINE {
				if r, ok := ast.Unparen(x.Rhs[0]).(*ast.UnaryExpr); ok && r.Op == token.ARROW {
					if u := chanOf(ident(r.X)); u != nil {
						handled[ident(r.X)] = true
						got := local(ident(x.Lhs[0]))
						if got == nil || inLoopOrLit() {
							u.bad = true
						}
						u.recv = append(u.recv, got)
					}
				}
			}
		case *ast.ValueSpec:
			for _, id := range x.Names {
				if v := local(id); v != nil && len(x.Values) > 0 {
					writes[v] = append(writes[v], x.Pos())
				}
			}
		case *ast.UnaryExpr:
			if x.Op == token.AND {
				if v := local(ident(x.X)); v != nil {
					writes[v] = append(writes[v], x.Pos()) // an out-argument: written there
				}
			}
		case *ast.IncDecStmt:
			if v := local(ident(x.X)); v != nil {
				writes[v] = append(writes[v], x.Pos())
			}
		case *ast.CallExpr:
			if isBuiltin(info, x, "close", "len", "cap") && len(x.Args) == 1 {
				if id := ident(x.Args[0]); chanOf(id) != nil {
					handled[id] = true
				}
			}
		case *ast.Ident:
			if u := chanOf(x); u != nil && !handled[x] && info.Defs[x] == nil {
				u.bad = true // any other use
			}
		}
		stack = append(stack, n)
		return true
	})
	var out chanCopies
	for _, u := range chans {
		// What is sent keeps its value from the first send on; each
		// receiver is written by its receive only.
		if u.bad || u.sent == nil || slices.ContainsFunc(writes[u.sent], func(p token.Pos) bool { return p > u.sends[0].Pos() }) ||
			slices.ContainsFunc(u.recv, func(got types.Object) bool { return len(writes[got]) > 1 }) {
			continue
		}
		for _, got := range u.recv {
			flow.Put(&out.Copies, got, u.sent)
		}
		for _, s := range u.sends {
			flow.Put(&out.Sends, s, true)
		}
	}
	return out
}

// isBuiltin reports whether call calls one of the named builtins.
func isBuiltin(info *types.Info, call *ast.CallExpr, names ...string) bool {
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return false
	}
	b, ok := info.Uses[id].(*types.Builtin)
	return ok && slices.Contains(names, b.Name())
}
