package xnack

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"github.com/hiplint/hiplint/internal/cgocall"
	"github.com/hiplint/hiplint/internal/flow"
	"github.com/hiplint/hiplint/internal/hipapi"
)

// This file classifies expressions: where a pointer's memory comes from
// (provenance), and whether a condition being true or false, or an error
// being nil, means that XNACK is on (guards). Both are flow-insensitive over a package-wide index of
// assignments: a variable's provenance is the union of everything assigned to
// it anywhere in the package.

// trace is a flow.Trace of the analyzer's, and step one of its levels.
type (
	trace[T any] = flow.Trace[T, *analyzer]
	step[T any]  = flow.Step[T, *analyzer]
)

// guardKind is what a condition proves when it holds.
type guardKind uint8

const (
	noGuard    guardKind = iota
	hmmCheck             // a check of an attribute that reports HMM support, not XNACK
	xnackCheck           // a check that XNACK is on
)

func (a *analyzer) buildIndex() {
	ix := a.idx.Sources() // a.files are the Index's user files
	a.ix, a.attrs = ix, map[types.Object]guard{}
	cmem := flow.NewCMemory(a.info, a.pass.TypesSizes, ix, a.files, func(call *ast.CallExpr) bool {
		name, ok := cgocall.CName(a.info, call)
		return ok && cgocall.IsSystemAlloc(name)
	})
	cmem.Index = a.idx
	// A helper's argument array carries what its caller passes in the
	// parameters its summary names.
	a.kargs = flow.KernelArgs{Info: a.info, Sources: ix, C: cmem, Built: func(fn *types.Func, result int) []int {
		if r := a.sums.Get(fn).Args; r != nil && r.Result == result {
			return r.Params
		}
		return nil
	}}
	// What system memory a pointer may point to ("C.malloc memory", "Go
	// memory", "syscall.Mmap memory"; "" for none), flow-insensitively
	// (flow.Origins), and a summarized constructor's result.
	a.provs = flow.NewOrigins(a.info, ix, a.constructed)
	// What a boolean variable proves when true, or an error variable when
	// nil, by everything assigned to it: XNACK only if every assignment is
	// a guard (or false, which proves anything), as weak as the weakest.
	// Copies of error variables are not followed.
	a.guards = trace[guard]{Ctx: a, Info: a.info, Sources: ix, Call: (*analyzer).guardCall,
		Expr: (*analyzer).guardExpr, Join: guard.weaker,
		Follow: func(v *types.Var) bool { return !flow.IsError(v.Type()) }, Fields: true}
	for _, c := range a.idx.RuntimeCalls() {
		switch c.Func.Role {
		case hipapi.Alloc:
			ix.AddOut(a.info, c.Arg(c.Func.Out), c.Expr)
		case hipapi.DeviceAttribute:
			// What the attribute being 1 proves: CUDA's managed attributes
			// are meaningful on NVIDIA (ConcurrentManagedAccess is the right
			// check before cudaMemPrefetchAsync), and are no guard at all.
			k, ok := cgocall.DeviceAttr(a.info, c)
			o := flow.AddrOf(a.info, c.Arg(c.Func.Out))
			if !ok || o == nil {
				break
			}
			var g guard
			switch {
			case k.Role == hipapi.PageableAttr:
				g = xnackOn
			case k.Role == hipapi.ManagedAttr && hipapi.FamilyOf(k.Name) == hipapi.HIP:
				g = guard{hmmCheck, k.Name}
			case k.Role == hipapi.ManagedAttr:
			default:
				// Another attribute: no guard, but it is what the
				// variable holds after this query.
				a.noteQuery(o, attrQuery{c.Expr.Pos(), g})
				continue
			}
			a.attrs[o] = g
			a.noteQuery(o, attrQuery{c.Expr.Pos(), g})
		}
	}
}

// constructed is the provenance of result `result` of a call of a function
// summarized as returning system memory there.
func (a *analyzer) constructed(call *ast.CallExpr, result int) string {
	if r := a.sums.Get(a.idx.Callee(call)).Memory; r != nil && r.Result == result {
		return r.From
	}
	return ""
}

// guard is what a condition proves when it holds, and for an HMM check the
// name of what was checked (for the message).
type guard struct {
	kind guardKind
	name string
}

// xnackOn is the guard of a check that XNACK is on.
var xnackOn = guard{kind: xnackCheck}

// weaker is the weaker of g and h (of two HMM checks, the first named).
func (g guard) weaker(h guard) guard {
	if h.kind < g.kind || h.kind == hmmCheck && g.kind == hmmCheck && g.name == "" {
		return h
	}
	return g
}

func (a *analyzer) guardExpr(e ast.Expr, s step[guard]) guard {
	if flow.IsConstFalse(a.info, e) {
		return xnackOn
	}
	return a.implies(e, true, s)
}

// stronger is the stronger of g and h (of two of a kind, g).
func (g guard) stronger(h guard) guard {
	if h.kind > g.kind {
		return h
	}
	return g
}

// implies returns what e evaluating to taken proves; s follows variables.
// a && b held: both held, so either proves it (the stronger); a && b
// failed: only what both failures prove (the weaker). Dually for ||.
func (a *analyzer) implies(e ast.Expr, taken bool, s step[guard]) guard {
	leaf := func(e ast.Expr, taken bool) guard { return a.impliesOperand(e, taken, s) }
	return impliedFold(e, taken, leaf, guard.stronger, guard.weaker)
}

// impliesOperand is what an operand of neither !, && nor || proves.
func (a *analyzer) impliesOperand(e ast.Expr, taken bool, s step[guard]) guard {
	switch x := e.(type) {
	case *ast.BinaryExpr:
		switch x.Op {
		case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
			return a.impliesComparison(x, taken, s)
		}
	case *ast.Ident:
		if _, ok := a.info.Uses[x].(*types.Var); ok && taken {
			return s.Of(x)
		}
	case *ast.SelectorExpr:
		// pkg.V, or a field: what every store into it proves.
		if _, ok := a.info.Uses[x.Sel].(*types.Var); ok && taken {
			return s.Of(x)
		}
	case *ast.CallExpr:
		if taken {
			return a.guardCall(x, 0, s)
		}
	}
	return guard{}
}

// impliesComparison is what a comparison with a constant proves, or err ==
// nil (or err != nil) when the error is nil: what its guard helper proves
// (the result of one, or a variable that only ever holds such results).
func (a *analyzer) impliesComparison(x *ast.BinaryExpr, taken bool, s step[guard]) guard {
	if val, eq, ok := flow.NilComparison(a.info, x); ok && eq == taken && flow.IsError(a.info.TypeOf(val)) {
		switch x := ast.Unparen(val).(type) {
		case *ast.CallExpr:
			return a.guardCall(x, 0, a.guards.Start())
		case *ast.Ident:
			if v, ok := a.info.Uses[x].(*types.Var); ok {
				return a.guards.Start().Sources(a.ix.Of[v])
			}
		}
		return guard{}
	}
	val, op, c := x.X, x.Op, a.info.Types[x.Y].Value
	if c == nil {
		val, op, c = x.Y, flow.Flip(x.Op), a.info.Types[x.X].Value
	}
	if c == nil {
		return guard{}
	}
	switch c.Kind() {
	case constant.String:
		if namesXNACK(c) && (op == token.EQL) == taken && (op == token.EQL || op == token.NEQ) {
			return xnackOn
		}
	case constant.Bool:
		if op == token.EQL || op == token.NEQ {
			return a.implies(val, taken == ((op == token.EQL) == constant.BoolVal(c)), s)
		}
	case constant.Int:
		// Attributes are 0 or 1: the comparison proves the attribute is 1
		// exactly when only 1 gives the outcome observed.
		if n, ok := constant.Int64Val(c); ok && flow.Holds(op, 1, n) == taken && flow.Holds(op, 0, n) != taken {
			return a.attrValue(val)
		}
	}
	return guard{}
}

// attrValue classifies an attribute value: a variable that received
// hipDeviceGetAttribute(PageableMemoryAccess) or a pageableMemoryAccess
// property proves XNACK; the HIP managed-memory attributes and properties
// are HMM checks. CUDA's managed attributes are meaningful on NVIDIA
// (ConcurrentManagedAccess is the right check before cudaMemPrefetchAsync)
// and are neither.
func (a *analyzer) attrValue(e ast.Expr) guard {
	e = flow.StripConversions(a.info, e)
	// v, or d.pageable of hipDeviceGetAttribute(&d.pageable, ...)
	o := flow.StoredObject(a.info, e)
	if g, ok := a.lastQuery(o, e.Pos()); ok {
		return g
	}
	if g, ok := a.attrs[o]; ok {
		return g
	}
	if x, ok := e.(*ast.SelectorExpr); ok {
		switch fam, role := cgocall.PropFamily(a.info.TypeOf(x.X)), hipapi.PropFields[x.Sel.Name]; {
		case fam == 0:
		case role == hipapi.PageableAttr:
			return xnackOn
		case role == hipapi.ManagedAttr && fam == hipapi.HIP:
			return guard{hmmCheck, "hipDeviceProp_t." + x.Sel.Name}
		}
	}
	return guard{}
}

// attrQuery is a query of a device attribute into a variable, and what the
// variable being 1 then proves.
type attrQuery struct {
	at token.Pos
	g  guard
}

func (a *analyzer) noteQuery(v types.Object, q attrQuery) {
	if a.attrQueries == nil {
		a.attrQueries = map[types.Object][]attrQuery{}
	}
	a.attrQueries[v] = append(a.attrQueries[v], q)
}

// lastQuery is what v being 1 proves at pos when v is written by several
// attribute queries (one variable reused for PageableMemoryAccess and then
// ManagedMemory): the last query before pos in the same file, which is the
// one that reaches a comparison in straight-line code. ok is false when v
// has a single query (attrs answers) or none precedes pos.
func (a *analyzer) lastQuery(v types.Object, pos token.Pos) (guard, bool) {
	qs := a.attrQueries[v]
	if len(qs) < 2 {
		return guard{}, false
	}
	file := a.pass.Fset.File(pos)
	var best *attrQuery
	for i, q := range qs {
		if q.at < pos && a.pass.Fset.File(q.at) == file && (best == nil || q.at > best.at) {
			best = &qs[i]
		}
	}
	if best == nil {
		return guard{}, false
	}
	return best.g, true
}

// guardCall classifies result `result` of a call: strings.Contains(arch,
// "xnack+") and its relatives, or a function summarized as reporting XNACK
// (or, wrongly, HMM support).
func (a *analyzer) guardCall(call *ast.CallExpr, result int, _ step[guard]) guard {
	fn := a.idx.Callee(call)
	if fn == nil || fn.Pkg() == nil {
		return guard{}
	}
	switch fn.Pkg().Path() {
	case "strings", "bytes":
		switch fn.Name() {
		case "Contains", "HasSuffix", "HasPrefix", "EqualFold":
			for _, arg := range call.Args {
				if namesXNACK(a.info.Types[arg].Value) {
					return xnackOn
				}
			}
		}
		return guard{}
	}
	return guardResult(fn, a.sums.Get(fn), result)
}

// namesXNACK reports whether c is a string that names XNACK on ("xnack+").
func namesXNACK(c constant.Value) bool {
	return c != nil && c.Kind() == constant.String && strings.Contains(constant.StringVal(c), "xnack+")
}

// guardResult is what result `result` of a call of fn proves by its
// summary s: a boolean result being true (Reports) or an error result
// being nil (ErrGuard).
func guardResult(fn *types.Func, s Summary, result int) guard {
	for _, g := range [...]*Guard{s.Reports, s.ErrGuard} {
		switch {
		case g == nil || g.Result != result:
		case g.HMM:
			return guard{hmmCheck, fmt.Sprintf("%s (it checks %s)", fn.Name(), g.Checks)}
		default:
			return xnackOn
		}
	}
	return guard{}
}

// findErrGuard summarizes a function whose error result is nil only on
// paths where XNACK was checked: at least one `return nil` there, each of
// them guarded, and every other return an error that is never nil
// (errors.New, fmt.Errorf, or an error variable returned as it is, as in
// `if err != nil { return err }`).
func (a *analyzer) findErrGuard(fi *fnInfo, r *walker) *Guard {
	if fi.obj == nil {
		return nil
	}
	results := fi.obj.Signature().Results()
	return firstResult(results, flow.IsError, func(i int) *Guard {
		nils, ok := nilReturns(a.info, results, r.returns, i)
		if !ok || len(nils) == 0 {
			return nil
		}
		out := &Guard{Result: i}
		for _, s := range nils {
			switch {
			case s.wrongAt.IsValid() && !s.guarded:
				out.HMM, out.Checks = true, a.hmmNames[s.wrongAt]
			case !s.guarded:
				return nil
			}
		}
		return out
	})
}
