package flow

import (
	"go/ast"
	"go/token"
	"go/types"
)

// This file teaches Sources where a value goes through containers and
// results, once for every analysis built on Sources (Trace, Origins,
// FieldValues): the elements of slice, array and map literals, values
// appended (v = append(v, x)), stored (v[i] = x) or sent on a channel
// (ch <- x); what a range loop's variables receive (an element of a slice,
// array or map, a channel's element, an iterator's yield argument); what
// <-ch receives; the variable of a type switch clause (the value switched
// on); and what a call of a function of the package returns (its return
// statements' operands). All of it is flow-insensitive: a container's
// elements are everything ever put into it anywhere in the package.

// rangeVar is the range statement that assigns a loop variable, and which
// of its two variables it is (0: the key, 1: the value).
type rangeVar struct {
	rs  *ast.RangeStmt
	pos int
}

// indexValueFlow adds to s what node n contributes to the value flow of
// this file: a function's declaration, a variable's declared value, a
// send's element, a range statement's variables and a type switch clause's
// variable.
func (s *Sources) indexValueFlow(info *types.Info, n ast.Node) {
	switch n := n.(type) {
	case *ast.AssignStmt:
		if n.Tok == token.DEFINE && len(n.Lhs) == len(n.Rhs) {
			for i, l := range n.Lhs {
				if id, ok := l.(*ast.Ident); ok && info.Defs[id] != nil {
					s.declared[info.Defs[id]] = n.Rhs[i]
				}
			}
		}
	case *ast.ValueSpec:
		if len(n.Names) == len(n.Values) {
			for i, id := range n.Names {
				if o := info.Defs[id]; o != nil {
					s.declared[o] = n.Values[i]
				}
			}
		}
	case *ast.FuncDecl:
		if fn, ok := info.Defs[n.Name].(*types.Func); ok && n.Body != nil {
			s.funcs[fn] = n
		}
	case *ast.SendStmt:
		if o := StoredObject(info, n.Chan); o != nil {
			s.Elems[o] = append(s.Elems[o], n.Value)
		}
	case *ast.RangeStmt:
		for i, e := range [...]ast.Expr{n.Key, n.Value} {
			if e == nil {
				continue
			}
			if o := StoredObject(info, e); o != nil {
				s.ranges[o] = append(s.ranges[o], rangeVar{n, i})
			}
		}
	case *ast.TypeSwitchStmt:
		as, ok := n.Assign.(*ast.AssignStmt)
		if !ok || len(as.Rhs) != 1 {
			return
		}
		ta, ok := ast.Unparen(as.Rhs[0]).(*ast.TypeAssertExpr)
		if !ok {
			return
		}
		for _, c := range n.Body.List {
			if o := info.Implicits[c]; o != nil {
				s.Of[o] = append(s.Of[o], Source{Expr: ta.X})
			}
		}
	}
}

// Received returns the values variable v, a range loop's key or value, may
// receive each iteration: the elements of the slice, array or map ranged
// over (its value), the elements sent on the channel (its key), the
// arguments the iterator passes to yield (key: the first, value: the
// second). A map's key and an index receive nothing known.
func (s *Sources) Received(info *types.Info, v types.Object) []Source {
	var out []Source
	for _, r := range s.ranges[v] {
		if _, iter := under(info, r.rs.X).(*types.Signature); iter {
			out = append(out, s.yielded(info, r.rs.X, r.pos)...)
		} else if r.pos == elemPos(info, r.rs.X) {
			out = append(out, s.ElemValues(info, r.rs.X)...)
		}
	}
	return out
}

// elemPos is which variable of a range over x receives an element of x
// (0: the key of a channel, 1: the value of a slice, array or map), or -1
// (an iterator, an integer, a string).
func elemPos(info *types.Info, x ast.Expr) int {
	switch u := under(info, x).(type) {
	case *types.Slice, *types.Array, *types.Map:
		return 1
	case *types.Pointer:
		if _, ok := u.Elem().Underlying().(*types.Array); ok {
			return 1
		}
	case *types.Chan:
		return 0
	}
	return -1
}

// ElemValues returns the values the elements of the container e (a slice,
// array, map or channel, or a pointer to an array) may hold: the elements
// of the literals it is made of, what is stored into it (v[i] = x),
// appended to it (v = append(v, x), append(w, v...)) or sent on it (ch <-
// x), through the variables and fields that hold it, slicing, and the
// results of the package's functions that return it. Bounded: MaxTrace
// steps, each variable or field once.
func (s *Sources) ElemValues(info *types.Info, e ast.Expr) []Source {
	w := elemWalk{s: s, info: info, seen: map[types.Object]bool{}}
	w.expr(e, 0)
	return w.out
}

type elemWalk struct {
	s    *Sources
	info *types.Info
	seen map[types.Object]bool
	out  []Source
}

func (w *elemWalk) expr(e ast.Expr, depth int) {
	if depth > maxTrace || e == nil {
		return
	}
	switch x := StripConversions(w.info, e).(type) {
	case *ast.CompositeLit:
		switch under(w.info, x).(type) {
		case *types.Slice, *types.Array, *types.Map:
		default:
			return
		}
		for _, elt := range x.Elts {
			if kv, ok := elt.(*ast.KeyValueExpr); ok {
				elt = kv.Value
			}
			w.out = append(w.out, Source{Expr: elt})
		}
	case *ast.UnaryExpr:
		if x.Op == token.AND {
			w.expr(x.X, depth+1)
		}
	case *ast.SliceExpr:
		w.expr(x.X, depth+1)
	case *ast.CallExpr:
		w.call(x, 0, depth)
	case *ast.Ident, *ast.SelectorExpr:
		w.object(StoredObject(w.info, x), depth)
	}
}

// object adds the elements of the container a variable or field o holds.
func (w *elemWalk) object(o types.Object, depth int) {
	if _, ok := o.(*types.Var); !ok || w.seen[o] {
		return
	}
	w.seen[o] = true
	w.out = append(w.out, exprSources(w.s.Elems[o])...)
	for _, src := range w.s.Of[o] {
		if src.Call != nil {
			w.call(src.Call, src.Result, depth+1)
		} else {
			w.expr(src.Expr, depth+1)
		}
	}
}

// call adds the elements of what result `result` of call holds: an
// append's operands, or what the package's function returns there.
func (w *elemWalk) call(call *ast.CallExpr, result int, depth int) {
	if isBuiltin(w.info, call, "append") {
		if len(call.Args) == 0 {
			return
		}
		w.expr(call.Args[0], depth+1)
		for i, a := range call.Args[1:] {
			if call.Ellipsis.IsValid() && i == len(call.Args)-2 {
				w.expr(a, depth+1)
			} else {
				w.out = append(w.out, Source{Expr: a})
			}
		}
		return
	}
	for _, r := range w.s.Returned(w.info, call, result) {
		w.expr(r, depth+1)
	}
}

// Returned returns the operands the return statements of the package's
// function that call calls give for result `result` (none for a function
// of another package, a function value, or a return of a call with
// several results).
func (s *Sources) Returned(info *types.Info, call *ast.CallExpr, result int) []ast.Expr {
	fn := Callee(info, call)
	if fn == nil {
		return nil
	}
	d := s.funcs[fn.Origin()]
	if d == nil {
		return nil
	}
	vals, _ := ReturnedAt(d.Body, fn.Signature().Results().Len(), result)
	return vals
}

// yielded returns the values an iterator e (a function literal, the
// package's function or method named, a call of the package's function
// that returns a literal, a variable given any of those) passes to its
// yield function at argument pos.
func (s *Sources) yielded(info *types.Info, e ast.Expr, pos int) []Source {
	var out []Source
	seen := map[types.Object]bool{}
	var walk func(e ast.Expr, depth int)
	body := func(params *ast.FieldList, body *ast.BlockStmt) {
		if params == nil || len(params.List) == 0 || len(params.List[0].Names) == 0 || body == nil {
			return
		}
		yield := info.Defs[params.List[0].Names[0]]
		if yield == nil {
			return
		}
		ast.Inspect(body, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok && pos < len(c.Args) {
				if id, ok := ast.Unparen(c.Fun).(*ast.Ident); ok && info.Uses[id] == yield {
					out = append(out, Source{Expr: c.Args[pos]})
				}
			}
			return true
		})
	}
	walk = func(e ast.Expr, depth int) {
		if depth > maxTrace || e == nil {
			return
		}
		switch x := StripConversions(info, e).(type) {
		case *ast.FuncLit:
			body(x.Type.Params, x.Body)
		case *ast.CallExpr:
			for _, r := range s.Returned(info, x, 0) {
				walk(r, depth+1)
			}
		case *ast.Ident, *ast.SelectorExpr:
			obj := info.Uses[identOf(x)]
			if fn, ok := obj.(*types.Func); ok {
				if d := s.funcs[fn.Origin()]; d != nil {
					body(d.Type.Params, d.Body)
				}
				return
			}
			if _, ok := obj.(*types.Var); !ok || seen[obj] {
				return
			}
			seen[obj] = true
			for _, src := range s.Of[obj] {
				if src.Call != nil {
					for _, r := range s.Returned(info, src.Call, src.Result) {
						walk(r, depth+1)
					}
				} else {
					walk(src.Expr, depth+1)
				}
			}
		}
	}
	walk(e, 0)
	return out
}

// identOf is the identifier an identifier or selector expression names.
func identOf(e ast.Expr) *ast.Ident {
	switch x := e.(type) {
	case *ast.Ident:
		return x
	case *ast.SelectorExpr:
		return x.Sel
	}
	return nil
}
