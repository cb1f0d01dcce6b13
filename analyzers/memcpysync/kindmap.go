package memcpysync

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"github.com/hiplint/hiplint/internal/cgocall"
	"github.com/hiplint/hiplint/internal/flow"
)

// KindMap is how a library's own copy-kind enum becomes the runtime's:
// a helper of the package that translates one into the other,
//
//	func cudaMemcpyKind(kind MemcpyKind) cuda.MemcpyKind {
//		switch kind {
//		case MemcpyHostToDevice:
//			return cuda.MemcpyHostToDevice
//		case MemcpyDeviceToDevice:
//			return cuda.MemcpyDeviceToDevice
//		default:
//			return cuda.MemcpyHostToDevice
//		}
//	}
//
// called with the wrapper's parameter (cuda.Memcpy(dst, src, n,
// cudaMemcpyKind(kind))). Of[v] is the set of runtime kinds the caller's
// value v becomes. Without it a copy through such a wrapper looked
// device-to-device whatever its caller passed: the helper may return
// the runtime's device-to-device kind. The zero KindMap (Mapped false) is
// the identity: the caller's value is the runtime's kind.
type KindMap struct {
	Mapped bool
	Of     [8]flow.SmallSet
}

// apply returns the runtime kinds the caller's values in in become.
func (m KindMap) apply(in flow.SmallSet) flow.SmallSet {
	if !m.Mapped {
		return in
	}
	var out flow.SmallSet
	for v := range m.Of {
		if in.Has(int64(v)) {
			out |= m.Of[v]
		}
	}
	return out
}

// then returns the map of a value translated by m and then by outer.
func (m KindMap) then(outer KindMap) KindMap {
	if !m.Mapped {
		return outer
	}
	if !outer.Mapped {
		return m
	}
	r := KindMap{Mapped: true}
	for v := range m.Of {
		r.Of[v] = outer.apply(m.Of[v])
	}
	return r
}

func (m KindMap) String() string {
	if !m.Mapped {
		return ""
	}
	var parts []string
	for v, s := range m.Of {
		if s != 0 {
			parts = append(parts, strconv.Itoa(v)+":"+strconv.FormatUint(uint64(s), 2))
		}
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// kindMapCall returns, for a call of a helper of the package whose result
// a switch (or if-chain) on one parameter picks from constants, that
// parameter's argument and the map. Bounded: the helper's body is read
// once per value (eight), one statement list deep per switch or if.
func (c *checker) kindMapCall(e ast.Expr) (arg ast.Expr, m KindMap, ok bool) {
	call, isCall := ast.Unparen(flow.StripConversions(c.info, e)).(*ast.CallExpr)
	if !isCall {
		return nil, KindMap{}, false
	}
	fn := flow.Callee(c.info, call)
	if fn == nil || fn.Pkg() != c.pass.Pkg {
		return nil, KindMap{}, false
	}
	if c.kindMaps == nil {
		c.kindMaps = map[*types.Func]kindMapOf{}
		for _, f := range c.idx.Funcs() {
			if f.Decl != nil {
				if obj, ok := c.info.Defs[f.Decl.Name].(*types.Func); ok {
					c.kindMaps[obj] = kindMapOf{decl: f.Decl}
				}
			}
		}
	}
	km, found := c.kindMaps[fn.Origin()]
	if !found {
		return nil, KindMap{}, false
	}
	if !km.done {
		km.param, km.m, km.ok = c.readKindMap(fn.Origin(), km.decl)
		km.done = true
		c.kindMaps[fn.Origin()] = km
	}
	if !km.ok || call.Ellipsis.IsValid() {
		return nil, KindMap{}, false
	}
	if km.param == receiver {
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return nil, KindMap{}, false
		}
		if s, ok := c.info.Selections[sel]; ok && s.Kind() == types.MethodExpr {
			if len(call.Args) == 0 {
				return nil, KindMap{}, false
			}
			return call.Args[0], km.m, true // Kind.hip(k): the receiver comes first
		}
		return sel.X, km.m, true
	}
	if km.param >= len(call.Args) {
		return nil, KindMap{}, false
	}
	return call.Args[km.param], km.m, true
}

// receiver stands for a method's receiver where kindMapOf names a
// parameter; none for no parameter yet.
const (
	receiver = -1
	none     = -2
)

type kindMapOf struct {
	decl  *ast.FuncDecl
	done  bool
	ok    bool
	param int
	m     KindMap
}

// readKindMap reads the map of fn (kindMapCall): ok when, for every value
// 0 to 7 of one parameter (or the receiver: func (k Kind) hip()
// C.hipMemcpyKind), the body's switches and ifs on it lead to one return
// of a constant or of the value itself converted (or a panic: no kind).
func (c *checker) readKindMap(fn *types.Func, decl *ast.FuncDecl) (int, KindMap, bool) {
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Results().Len() != 1 || decl.Body == nil {
		return 0, KindMap{}, false
	}
	r := kindReader{info: c.info, param: none, params: sig.Params(), recv: sig.Recv()}
	m := KindMap{Mapped: true}
	for v := range m.Of {
		r.v = int64(v)
		set, returned, ok := r.block(decl.Body.List)
		if !ok || !returned {
			return 0, KindMap{}, false
		}
		m.Of[v] = set
	}
	if r.param == none {
		return 0, KindMap{}, false // no switch on a parameter: ResultSmallSet's case
	}
	return r.param, m, true
}

type kindReader struct {
	info   *types.Info
	params *types.Tuple
	recv   *types.Var // nil for a function
	param  int        // the parameter switched on (receiver; none yet)
	v      int64
}

// block runs stmts with the parameter holding r.v: the kinds it returns,
// whether it returns, and ok when every statement is one the map allows.
func (r *kindReader) block(stmts []ast.Stmt) (set flow.SmallSet, returned, ok bool) {
	for _, st := range stmts {
		switch st := st.(type) {
		case *ast.ReturnStmt:
			if len(st.Results) != 1 {
				return 0, false, false
			}
			if r.isParam(st.Results[0]) {
				return flow.SmallSet(1) << r.v, true, true // the value itself, converted
			}
			s, ok := flow.SmallSetAt(r.info, st.Results[0], nil)
			return s, true, ok
		case *ast.ExprStmt:
			if call, ok := st.X.(*ast.CallExpr); ok {
				if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok && id.Name == "panic" {
					if _, builtin := r.info.Uses[id].(*types.Builtin); builtin {
						return 0, true, true
					}
				}
			}
			return 0, false, false
		case *ast.SwitchStmt:
			if st.Init != nil || st.Tag == nil || !r.isParam(st.Tag) {
				return 0, false, false
			}
			var chosen, dflt *ast.CaseClause
			for _, cl := range st.Body.List {
				cc := cl.(*ast.CaseClause)
				if cc.List == nil {
					dflt = cc
				}
				for _, e := range cc.List {
					w, ok := cgocall.IntValue(r.info, e)
					if !ok {
						return 0, false, false
					}
					if w == r.v && chosen == nil {
						chosen = cc
					}
				}
				if n := len(cc.Body); n > 0 {
					if br, ok := cc.Body[n-1].(*ast.BranchStmt); ok && br.Tok == token.FALLTHROUGH {
						return 0, false, false
					}
				}
			}
			if chosen == nil {
				chosen = dflt
			}
			if chosen != nil {
				set, returned, ok := r.block(chosen.Body)
				if !ok || returned {
					return set, returned, ok
				}
			}
		case *ast.IfStmt:
			if st.Init != nil {
				return 0, false, false
			}
			holds, ok := r.cond(st.Cond)
			if !ok {
				return 0, false, false
			}
			var set flow.SmallSet
			var returned bool
			switch {
			case holds:
				set, returned, ok = r.block(st.Body.List)
			case st.Else != nil:
				switch e := st.Else.(type) {
				case *ast.BlockStmt:
					set, returned, ok = r.block(e.List)
				default:
					set, returned, ok = r.block([]ast.Stmt{e})
				}
			}
			if !ok || returned {
				return set, returned, ok
			}
		default:
			return 0, false, false
		}
	}
	return 0, false, true
}

// cond evaluates p == C, C == p, p != C and their || and && with the
// parameter holding r.v.
func (r *kindReader) cond(e ast.Expr) (holds, ok bool) {
	b, isBin := ast.Unparen(e).(*ast.BinaryExpr)
	if !isBin {
		return false, false
	}
	switch b.Op {
	case token.LOR, token.LAND:
		x, ok1 := r.cond(b.X)
		y, ok2 := r.cond(b.Y)
		if b.Op == token.LOR {
			return x || y, ok1 && ok2
		}
		return x && y, ok1 && ok2
	case token.EQL, token.NEQ:
		p, k := b.X, b.Y
		if !r.isParam(p) {
			p, k = k, p
		}
		w, ok := cgocall.IntValue(r.info, k)
		if !ok || !r.isParam(p) {
			return false, false
		}
		return (w == r.v) == (b.Op == token.EQL), true
	}
	return false, false
}

// isParam reports whether e is the parameter the map is on (the first
// one switched on fixes it).
func (r *kindReader) isParam(e ast.Expr) bool {
	id, ok := flow.StripConversions(r.info, e).(*ast.Ident)
	if !ok {
		return false
	}
	obj := r.info.Uses[id]
	if r.recv != nil && obj == r.recv {
		if r.param == none {
			r.param = receiver
		}
		return r.param == receiver
	}
	for i := range r.params.Len() {
		if r.params.At(i) == obj {
			if r.param == none {
				r.param = i
			}
			return r.param == i
		}
	}
	return false
}
