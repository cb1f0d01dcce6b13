package graphfree

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/hiplint/hiplint/internal/flow"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"
)

// GoMemory says what made a piece of Go memory that an Evaluator meets.
type goMemory uint8

const (
	goMake      goMemory = iota // make(...)
	goNew                       // new(T)
	goComposite                 // &T{...}
	goSliceLit                  // []T{...}
	goVariable                  // &v of a Go variable v
)

// Evaluator evaluates expressions over the Store of an analyzer's state S,
// field-sensitively: what an expression may hold, as a Tree of values. It
// follows variables, fields, elements, *p, slicing, type assertions,
// conversions, composite literals, &x, append, unsafe.Add, unsafe.Slice and
// unsafe.SliceData, pointer arithmetic, getters (Getters), assignments and
// range clauses; the values themselves come from the analyzer's hooks.
type evaluator[S any, V value[V]] struct {
	Pass *analysis.Pass // for getters: the analyzer requires Getters
	flow.Locator
	Store func(S) *valueStore[V]
	// Call returns what result i of call holds when the analyzer models
	// call (an allocation, a summarized function); ok false: Eval sees
	// through it when it is a getter, and it holds nothing known otherwise.
	Call func(call *ast.CallExpr, result int, s S) (storeTree[V], bool)
	// Go returns the value of the address of Go memory made at e (a call
	// of make or new, a composite literal, the variable v of &v).
	Go func(e ast.Expr, what goMemory) V
	// GoPart returns the part of v that is the address of Go memory.
	GoPart func(v V) V
	// Offset returns what an address computed from v keeps (p + off, p &^
	// mask, unsafe.SliceData(s)): the memory it points into, not what v's
	// location holds.
	Offset func(v V) V
	// Ref returns the value of the address of location l (&x): what
	// kernel argument arrays and dependency arrays are made of.
	Ref func(l flow.Loc) V
	// Sources, optional, is the package's flow-insensitive index: what
	// a range over an iterator receives (its yield arguments), and what
	// is received from a channel the function's own flow sent nothing on.
	Sources *flow.Sources
}

// Eval returns what e may hold.
func (ev evaluator[S, V]) Eval(e ast.Expr, s S) storeTree[V] {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident, *ast.SelectorExpr, *ast.IndexExpr, *ast.StarExpr:
		if l, ok := ev.Of(x); ok {
			return ev.Store(s).Subtree(l)
		}
		switch x := x.(type) {
		case *ast.IndexExpr:
			return ev.Eval(x.X, s).Below("[]")
		case *ast.StarExpr:
			return ev.Eval(x.X, s)
		}
	case *ast.UnaryExpr:
		switch x.Op {
		case token.AND:
			return ev.addressOf(x, s)
		case token.ARROW: // <-ch: an element sent on ch (Send)
			return ev.received(x.X, ev.Eval(x.X, s).Below("[]"), s)
		}
	case *ast.CompositeLit:
		return ev.compositeLit(x, s)
	case *ast.SliceExpr:
		return ev.Eval(x.X, s)
	case *ast.TypeAssertExpr:
		return ev.Eval(x.X, s)
	case *ast.BinaryExpr:
		switch x.Op {
		case token.ADD, token.SUB, token.AND, token.OR, token.AND_NOT:
			t := storeTree[V]{}
			t.Add("", ev.Offset(ev.Eval(x.X, s)[""]))
			t.Add("", ev.Offset(ev.Eval(x.Y, s)[""]))
			return t
		}
	case *ast.CallExpr:
		return ev.Result(x, 0, s)
	}
	return nil
}

// At returns what e holds at path inside it (".ptr" of a wrapper's
// argument).
func (ev evaluator[S, V]) At(e ast.Expr, path string, s S) V {
	if path == "" {
		return ev.Eval(e, s)[""]
	}
	if l, ok := ev.Of(flow.StripConversions(ev.Info, e)); ok {
		return ev.Store(s).Subtree(flow.Loc{Root: l.Root, Path: l.Path + path})[""]
	}
	return ev.Eval(e, s)[path]
}

func (ev evaluator[S, V]) addressOf(u *ast.UnaryExpr, s S) storeTree[V] {
	if lit, ok := ast.Unparen(u.X).(*ast.CompositeLit); ok {
		t := ev.compositeLit(lit, s)
		t.Add("", ev.Go(lit, goComposite))
		return t
	}
	l, ok := ev.Of(u.X)
	if !ok {
		return nil
	}
	t := storeTree[V]{}
	for p, v := range ev.Store(s).Subtree(l) {
		if p != "" {
			t.Add(p, v)
		}
	}
	t.Add("", ev.goStorage(u.X, s).Union(ev.Ref(l)))
	return t
}

// goStorage returns the Go memory that holds x, when x is Go storage: a
// variable, a field of one, an element of a Go array or of a slice made in
// Go. It walks down x iteratively.
func (ev evaluator[S, V]) goStorage(x ast.Expr, s S) V {
	var zero V
	for {
		switch e := ast.Unparen(x).(type) {
		case *ast.Ident:
			if _, ok := ev.Info.Uses[e].(*types.Var); ok {
				return ev.Go(e, goVariable)
			}
			return zero
		case *ast.SelectorExpr:
			t := ev.Info.TypeOf(e.X)
			if t == nil {
				return zero
			}
			if _, isPtr := t.Underlying().(*types.Pointer); isPtr {
				return zero
			}
			x = e.X
		case *ast.IndexExpr:
			t := ev.Info.TypeOf(e.X)
			if t == nil {
				return zero
			}
			switch t.Underlying().(type) {
			case *types.Array:
				x = e.X
			case *types.Slice:
				return ev.GoPart(ev.Eval(e.X, s)[""])
			default:
				return zero
			}
		default:
			return zero
		}
	}
}

func (ev evaluator[S, V]) compositeLit(lit *ast.CompositeLit, s S) storeTree[V] {
	t := storeTree[V]{}
	var st *types.Struct
	if typ := ev.Info.TypeOf(lit); typ != nil {
		switch u := typ.Underlying().(type) {
		case *types.Struct:
			st = u
		case *types.Slice:
			t.Add("", ev.Go(lit, goSliceLit))
		}
	}
	for i, elt := range lit.Elts {
		var key string
		if kv, ok := elt.(*ast.KeyValueExpr); ok {
			elt = kv.Value
			if id, ok := kv.Key.(*ast.Ident); ok && st != nil {
				key = "." + id.Name
			}
		} else if st != nil && i < st.NumFields() {
			key = "." + st.Field(i).Name()
		}
		if st == nil {
			key = "[]"
		}
		if key == "" {
			continue
		}
		for p, v := range ev.Eval(elt, s) {
			t.Add(key+p, v)
		}
	}
	return t
}

// Result returns what result i of call holds.
func (ev evaluator[S, V]) Result(call *ast.CallExpr, i int, s S) storeTree[V] {
	info := ev.Info
	if flow.IsConversion(info, call) {
		if i != 0 {
			return nil
		}
		return ev.Eval(call.Args[0], s)
	}
	if b, ok := typeutil.Callee(info, call).(*types.Builtin); ok {
		switch b.Name() {
		case "make":
			return storeTree[V]{"": ev.Go(call, goMake)}
		case "new":
			return storeTree[V]{"": ev.Go(call, goNew)}
		case "append":
			if len(call.Args) == 0 {
				return nil
			}
			t := ev.Eval(call.Args[0], s)
			for j, a := range call.Args[1:] {
				at := ev.Eval(a, s)
				if call.Ellipsis.IsValid() && j == len(call.Args)-2 {
					at = at.Below("[]")
				}
				for p, v := range at {
					t.Add("[]"+p, v)
				}
			}
			return t
		case "Add", "Slice": // unsafe's
			if len(call.Args) > 0 {
				return storeTree[V]{"": ev.Eval(call.Args[0], s)[""]}
			}
		case "SliceData":
			if len(call.Args) > 0 {
				v := ev.Offset(ev.Eval(call.Args[0], s)[""])
				if l, ok := ev.Of(call.Args[0]); ok {
					v = v.Union(ev.Ref(flow.Loc{Root: l.Root, Path: l.Path + "[]"}))
				}
				return storeTree[V]{"": v}
			}
		}
		return nil
	}
	if t, ok := ev.Call(call, i, s); ok {
		return t
	}
	if l, ok := flow.PkgVarGetterLoc(ev.Pass, call); ok && i == 0 {
		// Scratch() of func Scratch() *T { return scratch }: what the
		// package variable holds here.
		return ev.Store(s).Subtree(l)
	}
	if g, ok := flow.GetterOf(ev.Pass, flow.Callee(info, call)); ok && i == 0 {
		if arg := g.Arg(info, call); arg != nil {
			if g.Path == "" {
				return ev.Eval(arg, s)
			}
			if l, ok := ev.Of(flow.StripConversions(info, arg)); ok {
				return ev.Store(s).Subtree(flow.Loc{Root: l.Root, Path: l.Path + g.Path})
			}
			return ev.Eval(arg, s).Below(g.Path)
		}
	}
	return nil
}

// Assign stores in the store what an assignment or declaration n writes
// (Assigned), every value evaluated before any is stored; a left-hand side
// that is no location (_ or an interface's field) stores nothing.
func (ev evaluator[S, V]) Assign(n ast.Node, s S) {
	// On the stack for most assignments (one or two sides), where two
	// slices grew on the heap at every assignment of every walk.
	var lhsBuf [4]ast.Expr
	var treesBuf [4]storeTree[V]
	lhs, trees := lhsBuf[:0], treesBuf[:0]
	flow.Assigned(n, func(l, r ast.Expr, result int) {
		var t storeTree[V]
		if call, ok := ast.Unparen(r).(*ast.CallExpr); ok {
			t = ev.Result(call, result, s)
		} else if r != nil {
			t = ev.Eval(r, s)
		}
		lhs, trees = append(lhs, l), append(trees, t)
	})
	for i, l := range lhs {
		ev.Set(l, trees[i], s)
	}
}

// Set stores t at the location lhs names, if it names one.
func (ev evaluator[S, V]) Set(lhs ast.Expr, t storeTree[V], s S) {
	if id, ok := lhs.(*ast.Ident); ok && id.Name == "_" {
		return
	}
	if l, ok := ev.Of(lhs); ok {
		ev.Store(s).Set(l, t)
	}
}

// Range stores what a range clause's key or value e gets each iteration:
// the value an element of rs.X, the key nothing known.
// A channel's element goes to the key; an iterator's yield arguments
// (what its literal passes to yield, Sources.Received) to the key and the
// value.
func (ev evaluator[S, V]) Range(rs *ast.RangeStmt, e ast.Expr, s S) {
	var under types.Type
	if t := ev.Info.TypeOf(rs.X); t != nil {
		under = t.Underlying()
	}
	switch under.(type) {
	case *types.Chan:
		if e == rs.Key {
			ev.Set(e, ev.received(rs.X, ev.Eval(rs.X, s).Below("[]"), s), s)
			return
		}
	case *types.Signature:
		if ev.Sources != nil {
			if o := flow.StoredObject(ev.Info, e); o != nil {
				var t storeTree[V]
				for _, src := range ev.Sources.Received(ev.Info, o) {
					t = t.union(ev.Eval(src.Expr, s))
				}
				ev.Set(e, t, s)
				return
			}
		}
	}
	if e != rs.Value {
		ev.Set(e, nil, s)
		return
	}
	ev.Set(e, ev.Eval(rs.X, s).Below("[]"), s)
}

// Send adds what a send statement sends to the elements of the channel
// ("[]", a weak location: what it held is kept).
func (ev evaluator[S, V]) Send(n *ast.SendStmt, s S) {
	l, ok := ev.Of(n.Chan)
	if !ok {
		return
	}
	ev.Store(s).Set(flow.Loc{Root: l.Root, Path: l.Path + "[]"}, ev.Eval(n.Value, s))
}

// received is what a receive from ch gives: t, what this function's own
// flow sent (Send), or when that is nothing what the package sends on ch
// anywhere (Sources.ElemValues: a goroutine's send), evaluated here.
func (ev evaluator[S, V]) received(ch ast.Expr, t storeTree[V], s S) storeTree[V] {
	if len(t) > 0 || ev.Sources == nil {
		return t
	}
	for _, src := range ev.Sources.ElemValues(ev.Info, ch) {
		t = t.union(ev.Eval(src.Expr, s))
	}
	return t
}

// Returned returns what a return statement of a function with signature
// sig hands back, by result: the named results' values for a bare return,
// each result of a call for return f(), and each expression's value
// otherwise.
func (ev evaluator[S, V]) Returned(sig *types.Signature, ret *ast.ReturnStmt, s S) []storeTree[V] {
	results := sig.Results()
	trees := make([]storeTree[V], 0, results.Len()) // one per result: not grown
	switch {
	case len(ret.Results) == 0 && results.Len() > 0 && results.At(0).Name() != "":
		for i := range results.Len() {
			trees = append(trees, ev.Store(s).Subtree(flow.Loc{Root: results.At(i)}))
		}
	case len(ret.Results) == 1 && results.Len() > 1:
		if call, ok := ast.Unparen(ret.Results[0]).(*ast.CallExpr); ok {
			for i := range results.Len() {
				trees = append(trees, ev.Result(call, i, s))
			}
		}
	default:
		for _, r := range ret.Results {
			trees = append(trees, ev.Eval(r, s))
		}
	}
	return trees
}

// union is t with what u holds added (t may be nil).
func (t storeTree[V]) union(u storeTree[V]) storeTree[V] {
	if t == nil {
		t = storeTree[V]{}
	}
	for p, v := range u {
		t.Add(p, v)
	}
	return t
}
