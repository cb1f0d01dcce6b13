package flow

import (
	"go/ast"
	"go/token"
	"go/types"
)

// FieldValues yields, in order, what field f of the struct value e (or of
// the struct e points to, &x) may hold: the value a composite literal
// gives it (value), or, for a variable v, what each value assigned to v
// holds in f (in source order, each followed the same way), then what is
// stored into v.f anywhere (stored: Fields, possibly none). It stops when
// yield returns false, and then returns false itself. Each step back (&x,
// a variable's value) is one level deeper, and nothing is yielded past
// MaxTrace levels.
func (s *Sources) FieldValues(info *types.Info, e ast.Expr, f *types.Var, yield func(value ast.Expr, stored []Source) bool) bool {
	return s.fieldValues(info, e, f, 0, nil, yield)
}

// fieldCall is the call of the package's function whose result
// fieldValues follows: its declaration, and what its parameters are bound
// to there (a variadic parameter to its elements).
type fieldCall struct {
	decl *ast.FuncDecl
	args map[types.Object][]ast.Expr
}

// enter returns the fieldCall of call, nil when it calls no function of
// the package.
func (s *Sources) enter(info *types.Info, call *ast.CallExpr) *fieldCall {
	fn := Callee(info, call)
	if fn == nil || s.funcs[fn.Origin()] == nil {
		return nil
	}
	d := s.funcs[fn.Origin()]
	c := &fieldCall{decl: d, args: map[types.Object][]ast.Expr{}}
	sig := fn.Signature()
	i := 0
	for _, fld := range d.Type.Params.List {
		if len(fld.Names) == 0 { // an unnamed parameter
			i++
		}
		for _, name := range fld.Names {
			p := info.Defs[name]
			switch {
			case p == nil:
			case sig.Variadic() && i == sig.Params().Len()-1 && !call.Ellipsis.IsValid():
				if i < len(call.Args) {
					c.args[p] = call.Args[i:]
				}
			case i < len(call.Args):
				c.args[p] = call.Args[i : i+1]
			}
			i++
		}
	}
	return c
}

func (s *Sources) fieldValues(info *types.Info, e ast.Expr, f *types.Var, depth int, in *fieldCall, yield func(ast.Expr, []Source) bool) bool {
	if depth > maxTrace || e == nil {
		return true
	}
	switch x := StripConversions(info, e).(type) {
	case *ast.UnaryExpr:
		if x.Op == token.AND {
			return s.fieldValues(info, x.X, f, depth+1, in, yield)
		}
	case *ast.CompositeLit:
		for _, fv := range LitFields(info, x) {
			if fv.Field == f {
				return yield(fv.Value, nil)
			}
		}
	case *ast.CallExpr:
		// What the package's function returns (a constructor's literal).
		c := s.enter(info, x)
		for _, r := range s.Returned(info, x, 0) {
			if !s.fieldValues(info, r, f, depth+1, c, yield) {
				return false
			}
		}
	case *ast.Ident:
		v, ok := info.Uses[x].(*types.Var)
		if !ok {
			return true
		}
		for _, src := range s.Of[v] {
			if src.Call != nil {
				c := s.enter(info, src.Call)
				for _, r := range s.Returned(info, src.Call, src.Result) {
					if !s.fieldValues(info, r, f, depth+1, c, yield) {
						return false
					}
				}
			} else if src.Expr != nil && !s.fieldValues(info, src.Expr, f, depth+1, in, yield) {
				return false
			}
		}
		stored := s.Fields[Loc{Root: v}.Field(f.Name())]
		if in != nil && in.decl.Body.Pos() <= v.Pos() && v.Pos() < in.decl.Body.End() {
			stored = append(stored[:len(stored):len(stored)], s.applied(info, in, v, f)...)
		}
		return yield(nil, stored)
	}
	return true
}

// applied returns what the functions that in's body applies to its local
// v store into field f of their parameter: the functional options of a
// constructor (for _, o := range opts { o(r) }), each option the function
// literal an argument of in's call is or returns (WithStaging() of
// func WithStaging() Option { return func(r *Runner) { r.buf = ... } }).
// Only in's own arguments count, so a constructor called with other
// options elsewhere does not mix them in.
func (s *Sources) applied(info *types.Info, in *fieldCall, v *types.Var, f *types.Var) []Source {
	var out []Source
	ast.Inspect(in.decl.Body, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		for i, a := range c.Args {
			if id, ok := ast.Unparen(a).(*ast.Ident); !ok || info.Uses[id] != v {
				continue
			}
			for _, fn := range s.optionValues(info, in, c.Fun) {
				if p := paramAt(info, fn, i); p != nil {
					out = append(out, s.Fields[Loc{Root: p}.Field(f.Name())]...)
				}
			}
		}
		return true
	})
	return out
}

// optionValues returns the function literals the function value e of in's
// body may be: a parameter's argument, a range loop's element of a
// variadic or slice parameter, each seen through a call of the package's
// function that returns a literal.
func (s *Sources) optionValues(info *types.Info, in *fieldCall, e ast.Expr) []*ast.FuncLit {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil
	}
	o := info.Uses[id]
	args := in.args[o]
	for _, r := range s.ranges[o] {
		if x, ok := ast.Unparen(r.rs.X).(*ast.Ident); ok && r.pos == elemPos(info, r.rs.X) {
			args = append(args[:len(args):len(args)], in.args[info.Uses[x]]...)
		}
	}
	var out []*ast.FuncLit
	var lit func(e ast.Expr, depth int)
	lit = func(e ast.Expr, depth int) {
		switch x := StripConversions(info, e).(type) {
		case *ast.FuncLit:
			out = append(out, x)
		case *ast.CallExpr:
			if depth < 2 {
				for _, r := range s.Returned(info, x, 0) {
					lit(r, depth+1)
				}
			}
		}
	}
	for _, a := range args {
		lit(a, 0)
	}
	return out
}

// paramAt is the object of parameter i of the function literal fn.
func paramAt(info *types.Info, fn *ast.FuncLit, i int) types.Object {
	for _, fld := range fn.Type.Params.List {
		if len(fld.Names) == 0 { // an unnamed parameter
			if i == 0 {
				return nil
			}
			i--
		}
		for _, name := range fld.Names {
			if i == 0 {
				return info.Defs[name]
			}
			i--
		}
	}
	return nil
}
