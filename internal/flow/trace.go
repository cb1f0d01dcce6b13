package flow

import (
	"go/ast"
	"go/types"
)

// MaxTrace bounds how many steps a Trace follows back from an expression.
const MaxTrace = 8

// Trace follows what an expression may hold back through a package's
// assignments (Sources), flow-insensitively: a variable holds what any of
// its sources holds. Every step back (a variable's source, or an
// expression Expr follows) is one level deeper, and past MaxTrace levels
// the answer is the zero T, so assignment cycles (v = w; w = v) end
// without a visited set.
type Trace[T any] struct {
	Info    *types.Info
	Sources *Sources
	// Follow says which variables, named by an identifier or a qualified
	// identifier (pkg.V), stand for their sources; nil: every one.
	Follow func(*types.Var) bool
	// Expr is what any other expression holds (conversions stripped);
	// it follows what it depends on through s.
	Expr func(e ast.Expr, s Step[T]) T
	// Call is what result `result` of a call among a variable's sources
	// holds.
	Call func(call *ast.CallExpr, result int, s Step[T]) T
	// Join combines what a variable's sources hold; none: the zero T.
	Join func(a, b T) T
}

// Step is a Trace at one level: its methods follow an expression or a
// source one level deeper.
type Step[T any] struct {
	t     *Trace[T]
	depth int
}

// Of is what e may hold.
func (t *Trace[T]) Of(e ast.Expr) T { return t.of(e, 0) }

func (t *Trace[T]) of(e ast.Expr, depth int) T {
	if depth > MaxTrace || e == nil {
		var zero T
		return zero
	}
	e = StripConversions(t.Info, e)
	s := Step[T]{t, depth}
	if v := t.variable(e); v != nil {
		return s.Sources(t.Sources.Of[v])
	}
	return t.Expr(e, s)
}

// variable is the variable e names, if Follow follows it.
func (t *Trace[T]) variable(e ast.Expr) *types.Var {
	var v *types.Var
	switch x := e.(type) {
	case *ast.Ident:
		v, _ = t.Info.ObjectOf(x).(*types.Var)
	case *ast.SelectorExpr:
		if _, ok := t.Info.Selections[x]; !ok {
			v, _ = t.Info.Uses[x.Sel].(*types.Var)
		}
	}
	if v == nil || t.Follow != nil && !t.Follow(v) {
		return nil
	}
	return v
}

// Of is what e holds, one level deeper.
func (s Step[T]) Of(e ast.Expr) T { return s.t.of(e, s.depth+1) }

// Source is what one source holds, one level deeper.
func (s Step[T]) Source(src Source) T {
	if src.Call != nil {
		return s.t.Call(src.Call, src.Result, Step[T]{s.t, s.depth + 1})
	}
	return s.Of(src.Expr)
}

// Sources joins what srcs hold, each one level deeper.
func (s Step[T]) Sources(srcs []Source) T {
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
func (t *Trace[T]) Start() Step[T] { return Step[T]{t, 0} }
