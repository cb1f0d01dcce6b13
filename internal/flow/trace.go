package flow

import (
	"go/ast"
	"go/token"
	"go/types"
)

// maxTrace bounds how many steps a Trace follows back from an expression.
const maxTrace = 8

// Trace follows what an expression may hold back through a package's
// assignments (Sources), flow-insensitively: a variable holds what any of
// its sources holds. Every step back (a variable's source, or an
// expression Expr follows) is one level deeper, and past MaxTrace levels
// the answer is the zero T, so assignment cycles (v = w; w = v) end
// without a visited set. Ctx is handed to every callback, which can then
// be a method expression ((*analyzer).expr) rather than a closure made for
// each Trace.
type Trace[T, C any] struct {
	Ctx     C
	Info    *types.Info
	Sources *Sources
	// Follow says which variables, named by an identifier or a qualified
	// identifier (pkg.V), stand for their sources; nil: every one.
	Follow func(*types.Var) bool
	// Fields: a field selection x.f (of any value, a call's result too)
	// stands for everything stored into f anywhere in the package (x.f =
	// e, T{f: e}): a capability struct filled once (caps.XNACK =
	// strings.Contains(arch, "xnack+")) and read through an accessor
	// (Capabilities().XNACK).
	Fields bool
	// Expr is what any other expression holds (conversions stripped);
	// it follows what it depends on through s.
	Expr func(c C, e ast.Expr, s Step[T, C]) T
	// Call is what result `result` of a call among a variable's sources
	// holds.
	Call func(c C, call *ast.CallExpr, result int, s Step[T, C]) T
	// Join combines what a variable's sources hold; none: the zero T.
	Join func(a, b T) T
}

// Step is a Trace at one level: its methods follow an expression or a
// source one level deeper.
type Step[T, C any] struct {
	t     *Trace[T, C]
	depth int
}

// Of is what e may hold.
func (t *Trace[T, C]) Of(e ast.Expr) T { return t.of(e, 0) }

func (t *Trace[T, C]) of(e ast.Expr, depth int) T {
	if depth > maxTrace || e == nil {
		var zero T
		return zero
	}
	e = StripConversions(t.Info, e)
	s := Step[T, C]{t, depth}
	if v := t.variable(e); v != nil {
		srcs := t.Sources.Of[v]
		if rcv := t.Sources.Received(t.Info, v); len(rcv) > 0 {
			srcs = append(srcs[:len(srcs):len(srcs)], rcv...)
		}
		return s.Sources(srcs)
	}
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.ARROW {
		// <-ch: any element sent on ch.
		return s.Sources(t.Sources.ElemValues(t.Info, u.X))
	}
	return t.Expr(t.Ctx, e, s)
}

// variable is the variable e names, if Follow follows it.
func (t *Trace[T, C]) variable(e ast.Expr) *types.Var {
	var v *types.Var
	switch x := e.(type) {
	case *ast.Ident:
		v, _ = t.Info.ObjectOf(x).(*types.Var)
	case *ast.SelectorExpr:
		if sel, ok := t.Info.Selections[x]; !ok {
			v, _ = t.Info.Uses[x.Sel].(*types.Var)
		} else if t.Fields && sel.Kind() == types.FieldVal {
			v, _ = sel.Obj().(*types.Var)
		}
	}
	if v == nil || t.Follow != nil && !t.Follow(v) {
		return nil
	}
	return v
}

// Of is what e holds, one level deeper.
func (s Step[T, C]) Of(e ast.Expr) T { return s.t.of(e, s.depth+1) }

// Source is what one source holds, one level deeper.
func (s Step[T, C]) Source(src Source) T {
	if src.Call != nil {
		return s.t.Call(s.t.Ctx, src.Call, src.Result, Step[T, C]{s.t, s.depth + 1})
	}
	return s.Of(src.Expr)
}

// Sources joins what srcs hold, each one level deeper.
func (s Step[T, C]) Sources(srcs []Source) T {
	var out T
	for i, src := range srcs {
		if v := s.Source(src); i == 0 {
			out = v
		} else {
			out = s.t.Join(out, v)
		}
	}
	return out
}

// Start is the trace's first level, for expressions and sources not
// reached through Of.
func (t *Trace[T, C]) Start() Step[T, C] { return Step[T, C]{t, 0} }
