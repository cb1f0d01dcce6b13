package flow

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
)

// Call resolution, once for every analyzer: the function a call reaches and
// the expression it passes for each parameter, whatever form the call takes:
//
//	f(x)                 a function
//	v.M(x)               a method, promoted ones included (receiver v)
//	(*T).M(v, x)         a method expression (receiver v: the first argument)
//	g := v.M; g(x)       a method value bound to a local variable once
//	g := F; g(x)         a function bound to a local variable once
//	r := S{f: v.M}; r.f(x)              a function value in a local struct literal
//	m := map[K]func(){k: v.M}; m[k](x)  a function value in a local map literal
//	F[int](x)            an instance of a generic function (its origin)
//
// A local variable is bound when the package assigns it exactly once and
// never takes its address; anything else (a parameter, a variable assigned
// twice, a map indexed by a non-constant key) resolves to nothing, as a call
// through an unknown function value always did.

// A target is what a call reaches: the function and where its receiver and
// arguments are.
type target struct {
	fn     *types.Func
	recv   ast.Expr // the receiver expression, nil for none
	offset int      // parameter i is call.Args[i+offset]
}

// resolve resolves call; fn is nil when the call reaches no known function.
func (x *Index) resolve(call *ast.CallExpr) target {
	x.bindOnce.Do(x.bindLocals)
	return x.resolveValue(call.Fun, 0)
}

func (x *Index) resolveValue(fun ast.Expr, depth int) target {
	if depth > 4 {
		return target{}
	}
	info := x.info
	fun = ast.Unparen(fun)
	switch f := fun.(type) {
	case *ast.IndexExpr:
		if _, ok := info.Instances[instIdent(f.X)]; ok {
			return x.resolveValue(f.X, depth+1)
		}
		// m[k] of a local map literal with a constant key.
		if lit := x.boundLit(f.X); lit != nil {
			if v := mapElem(info, lit, f.Index); v != nil {
				return x.resolveValue(v, depth+1)
			}
		}
		return target{}
	case *ast.IndexListExpr:
		return x.resolveValue(f.X, depth+1)
	case *ast.Ident:
		switch obj := info.Uses[f].(type) {
		case *types.Func:
			return target{fn: obj.Origin()}
		case *types.Var:
			if v, ok := x.binds[obj]; ok {
				return x.resolveValue(v, depth+1)
			}
		}
		return target{}
	case *ast.SelectorExpr:
		s, ok := info.Selections[f]
		if !ok {
			if fn, ok := info.Uses[f.Sel].(*types.Func); ok { // pkg.F
				return target{fn: fn.Origin()}
			}
			return target{}
		}
		switch s.Kind() {
		case types.MethodVal:
			fn, _ := s.Obj().(*types.Func)
			if fn == nil {
				return target{}
			}
			if isInterfaceMethod(fn) {
				// var r Runner = DeviceKernel{}; r.Run(): the dynamic type of a
				// local bound once is known, and so is the method.
				// The receiver is the value the local holds where that
				// value is a variable that keeps it (var c io.Closer = md;
				// c.Close() closes md).
				if m := x.concreteMethod(f.X, fn); m != nil {
					return target{fn: m.Origin(), recv: x.heldValue(f.X)}
				}
			}
			return target{fn: fn.Origin(), recv: f.X}
		case types.MethodExpr:
			fn, _ := s.Obj().(*types.Func)
			if fn == nil {
				return target{}
			}
			return target{fn: fn.Origin(), offset: 1}
		case types.FieldVal:
			if lit := x.boundLit(f.X); lit != nil {
				if v := structElem(info, lit, f.Sel.Name); v != nil {
					return x.resolveValue(v, depth+1)
				}
			}
		}
	}
	return target{}
}

func instIdent(e ast.Expr) *ast.Ident {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return e
	case *ast.SelectorExpr:
		return e.Sel
	}
	return nil
}

// boundLit returns the composite literal a bound local variable holds (&T{}
// too), or nil.
func (x *Index) boundLit(e ast.Expr) *ast.CompositeLit {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil
	}
	v, _ := x.info.Uses[id].(*types.Var)
	val, ok := x.binds[v]
	if !ok {
		return nil
	}
	val = ast.Unparen(val)
	if u, ok := val.(*ast.UnaryExpr); ok && u.Op == token.AND {
		val = ast.Unparen(u.X)
	}
	lit, _ := val.(*ast.CompositeLit)
	return lit
}

func structElem(info *types.Info, lit *ast.CompositeLit, name string) ast.Expr {
	for _, el := range lit.Elts {
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			if id, ok := kv.Key.(*ast.Ident); ok && id.Name == name {
				return kv.Value
			}
		}
	}
	return nil
}

func mapElem(info *types.Info, lit *ast.CompositeLit, key ast.Expr) ast.Expr {
	if t := info.TypeOf(lit); t == nil {
		return nil
	} else if _, ok := t.Underlying().(*types.Map); !ok {
		return nil
	}
	k := info.Types[key].Value
	if k == nil {
		return nil
	}
	for _, el := range lit.Elts {
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			if v := info.Types[kv.Key].Value; v != nil && constant.Compare(v, token.EQL, k) {
				return kv.Value
			}
		}
	}
	return nil
}

// bindLocals finds the local variables of function, struct or map type
// that the package assigns exactly once and whose address it never takes.
func (x *Index) bindLocals() {
	x.build()
	info := x.info
	binds := map[*types.Var]ast.Expr{}
	poisoned := map[*types.Var]bool{}
	// moved: any local assigned twice or whose address is taken, whatever
	// its type (a declaration without a value counts as no assignment).
	moved, assigned := map[*types.Var]bool{}, map[*types.Var]bool{}
	note := func(lhs ast.Expr, addr bool) {
		id, ok := ast.Unparen(lhs).(*ast.Ident)
		if !ok {
			return
		}
		v, _ := info.ObjectOf(id).(*types.Var)
		if v == nil || v.IsField() || v.Parent() == nil || v.Parent() == v.Pkg().Scope() {
			return
		}
		if addr || assigned[v] {
			moved[v] = true
		}
		assigned[v] = true
	}
	local := func(id *ast.Ident) *types.Var {
		obj := info.ObjectOf(id)
		v, ok := obj.(*types.Var)
		if !ok || v.IsField() || v.Parent() == nil || v.Parent() == v.Pkg().Scope() {
			return nil
		}
		switch v.Type().Underlying().(type) {
		case *types.Signature, *types.Struct, *types.Map, *types.Pointer, *types.Interface:
			return v
		}
		return nil
	}
	assign := func(lhs ast.Expr, rhs ast.Expr) {
		id, ok := ast.Unparen(lhs).(*ast.Ident)
		if !ok {
			return
		}
		v := local(id)
		if v == nil || poisoned[v] {
			return
		}
		if _, seen := binds[v]; seen || rhs == nil {
			poisoned[v] = true
			delete(binds, v)
			return
		}
		binds[v] = rhs
	}
	for _, f := range x.user {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for _, l := range n.Lhs {
					note(l, false)
				}
				if len(n.Lhs) == len(n.Rhs) && (n.Tok == token.DEFINE || n.Tok == token.ASSIGN) {
					for i, l := range n.Lhs {
						assign(l, n.Rhs[i])
					}
				} else {
					for _, l := range n.Lhs {
						assign(l, nil)
					}
				}
			case *ast.ValueSpec:
				if len(n.Values) > 0 {
					for _, name := range n.Names {
						note(name, false)
					}
				}
				for i, name := range n.Names {
					if i < len(n.Values) && len(n.Values) == len(n.Names) {
						assign(name, n.Values[i])
					} else {
						assign(name, nil)
					}
				}
			case *ast.RangeStmt:
				if n.Key != nil {
					assign(n.Key, nil)
					note(n.Key, true)
				}
				if n.Value != nil {
					assign(n.Value, nil)
					note(n.Value, true)
				}
			case *ast.UnaryExpr:
				if n.Op == token.AND {
					note(n.X, true)
					if id, ok := ast.Unparen(n.X).(*ast.Ident); ok {
						if v := local(id); v != nil {
							poisoned[v] = true
							delete(binds, v)
						}
					}
				}
			case *ast.IncDecStmt:
				assign(n.X, nil)
				note(n.X, true)
			case *ast.FuncType:
				// A parameter holds a value on entry, so any assignment
				// moves it; a named result is assigned by every return.
				for _, fl := range []*ast.FieldList{n.Params, n.Results} {
					if fl == nil {
						continue
					}
					for _, field := range fl.List {
						for _, name := range field.Names {
							note(name, fl == n.Results)
						}
					}
				}
			}
			return true
		})
	}
	// A bound struct or map is only bound while nothing stores into it.
	for _, f := range x.user {
		ast.Inspect(f, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok {
				return true
			}
			for _, l := range as.Lhs {
				var root ast.Expr
				switch l := ast.Unparen(l).(type) {
				case *ast.SelectorExpr:
					root = l.X
				case *ast.IndexExpr:
					root = l.X
				}
				if id, ok := ast.Unparen(root).(*ast.Ident); ok {
					if v, _ := info.Uses[id].(*types.Var); v != nil {
						delete(binds, v)
					}
				}
			}
			return true
		})
	}
	x.binds, x.moved = binds, moved
}

// heldValue returns the variable that the interface local recv was bound to,
// where that variable is a local or parameter that keeps its one value
// (assigned at most once, its address never taken); recv itself otherwise.
func (x *Index) heldValue(recv ast.Expr) ast.Expr {
	id, ok := ast.Unparen(recv).(*ast.Ident)
	if !ok {
		return recv
	}
	v, _ := x.info.Uses[id].(*types.Var)
	val, ok := x.binds[v]
	if !ok {
		return recv
	}
	held, ok := ast.Unparen(val).(*ast.Ident)
	if !ok {
		return recv
	}
	w, _ := x.info.Uses[held].(*types.Var)
	if w == nil || w.IsField() || w.Parent() == nil || w.Parent() == w.Pkg().Scope() || x.moved[w] {
		return recv
	}
	return held
}

// Callee returns the function call reaches (its origin, for an instance of
// a generic function or a method of a generic type), through the forms the
// package comment of resolve.go lists; nil for builtins, conversions and
// calls through unknown function values.
func (x *Index) Callee(call *ast.CallExpr) *types.Func {
	return x.resolve(call).fn
}

// ArgAt returns the expression call passes for parameter i of the function
// it reaches, Receiver (-1) for the receiver: the bound receiver of a method
// value, the first argument of a method expression. Nil when there is none.
func (x *Index) ArgAt(call *ast.CallExpr, i int) ast.Expr {
	t := x.resolve(call)
	if t.fn == nil {
		return argAt(call, i)
	}
	if i == Receiver {
		if t.offset == 1 && len(call.Args) > 0 {
			return call.Args[0]
		}
		return t.recv
	}
	if j := i + t.offset; j >= 0 && j < len(call.Args) {
		return call.Args[j]
	}
	return nil
}

// ArgsAt returns the arguments call passes for params (ArgAt), skipping
// those it passes none for.
func (x *Index) ArgsAt(call *ast.CallExpr, params []int) []ast.Expr {
	var out []ast.Expr
	for _, p := range params {
		if e := x.ArgAt(call, p); e != nil {
			out = append(out, e)
		}
	}
	return out
}

// concreteMethod returns the method m of the dynamic type of recv, a local
// variable of interface type bound once to a value of a concrete type; nil
// otherwise.
func (x *Index) concreteMethod(recv ast.Expr, m *types.Func) *types.Func {
	id, ok := ast.Unparen(recv).(*ast.Ident)
	if !ok {
		return nil
	}
	v, _ := x.info.Uses[id].(*types.Var)
	val, ok := x.binds[v]
	if !ok || v == nil || !types.IsInterface(v.Type()) {
		return nil
	}
	t := x.info.TypeOf(val)
	if t == nil || types.IsInterface(t) {
		return nil
	}
	obj, _, _ := types.LookupFieldOrMethod(t, true, m.Pkg(), m.Name())
	fn, _ := obj.(*types.Func)
	if fn == nil || isInterfaceMethod(fn) {
		return nil
	}
	return fn
}
