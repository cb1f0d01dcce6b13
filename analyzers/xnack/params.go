package xnack

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strconv"

	"github.com/hiplint/hiplint/internal/cgocall"
	"github.com/hiplint/hiplint/internal/flow"
)

// This file is parameter flow: a function whose parameter (or receiver, or
// a field of either) reaches a kernel argument, hipMemPrefetchAsync or
// hipMemAdvise without an XNACK guard of its own hands whatever its caller
// passes there to the GPU. A call that passes system memory in such a
// parameter is then a use of system memory at the call, and a caller that
// passes one of its own parameters on is summarized the same way.

// ParamFlow is one parameter that reaches the GPU: Ref is the parameter (or
// the receiver) and its path (one field at most), API the runtime function
// it reaches and In the function that calls API.
type ParamFlow struct {
	flow.Ref
	API  string
	In   string
	CUDA bool // API is a CUDA function: the guard is cudaDevAttrPageableMemoryAccess
	// Array: the parameter is the kernelParams array itself; the kernel
	// arguments its caller puts in it reach the GPU (argblock.go).
	Array bool
}

// String names the parameter, as the fact shows it: "0", "recv",
// "recv.ptr", "1.buf", "args(0)".
func (f ParamFlow) String() string {
	s := strconv.Itoa(f.Param)
	if f.Param == flow.Receiver {
		s = "recv"
	}
	s += f.Path
	if f.Array {
		s = "args(" + s + ")"
	}
	return s
}

// handedOn says where callee hands the memory of the parameter on to: ",
// which hands it [on to In, which hands it] to API".
func (f ParamFlow) handedOn(callee *types.Func) string {
	s := ", which hands it "
	if f.In != callee.Name() {
		s += "on to " + f.In + ", which hands it "
	}
	return s + "to " + f.API
}

// compareParams orders flows by parameter and field, a parameter before
// the argument array it is; flows that compare equal name the same one.
func compareParams(p, q ParamFlow) int {
	if c := flow.CompareRef(p.Ref, q.Ref); c != 0 || p.Array == q.Array {
		return c
	}
	if p.Array {
		return 1
	}
	return -1
}

// paramSite is a parameter flow found at a site of the walked function.
type paramSite struct {
	site token.Pos
	flow ParamFlow
}

// firstParams keeps the first site's flow of each parameter, sorted
// (compareParams).
func firstParams(sites []paramSite) []ParamFlow {
	var out []ParamFlow
	for _, s := range sites {
		if i, found := slices.BinarySearchFunc(out, s.flow, compareParams); !found {
			out = slices.Insert(out, i, s.flow)
		}
	}
	return out
}

// paramOf returns the parameter of fi's declaration (literals: of the
// declaration they are written in, whose variables they capture) whose
// memory e may point to, or a field of it (flow.ParamRefOf).
func (a *analyzer) paramOf(fi *fnInfo, e ast.Expr) (flow.Ref, bool) {
	if fi.encl == nil {
		return flow.Ref{}, false
	}
	return flow.ParamRefOf(a.pass.TypesInfo, a.ix, fi.encl.Signature(), e)
}

// via is pf handed on through the caller's own parameter r (an argument
// array with array).
func (pf ParamFlow) via(r flow.Ref, array bool) *ParamFlow {
	pf.Ref, pf.Array = r, array
	return &pf
}

// fieldMayHoldSystem reports whether a caller could pass system memory in
// the field of a parameter: the field is exported (other packages store
// into it), or something stored into it in this package is system memory.
// A field that only ever holds device memory (a DeviceBuffer's ptr) carries
// no flow.
func (a *analyzer) fieldMayHoldSystem(fi *fnInfo, r flow.Ref) bool {
	f := flow.FieldByName(flow.RefType(fi.encl.Signature(), r), a.pass.Pkg, r.Path[1:])
	if f == nil {
		return false
	}
	if f.Exported() {
		return true
	}
	return a.provs.Start().Sources(a.ix.Of[f]) != ""
}

// provField is the provenance of the field f of the struct e is (or points
// to): the first system memory among what it may hold (flow.FieldValues).
func (a *analyzer) provField(e ast.Expr, f *types.Var) (p string) {
	a.ix.FieldValues(a.pass.TypesInfo, e, f, func(value ast.Expr, stored []flow.Source) bool {
		if value != nil {
			p = a.prov(value)
		} else {
			p = a.provs.Start().Sources(stored)
		}
		return p == ""
	})
	return p
}

// argFlow classifies the argument call passes for the callee's flow pf:
// system memory is a use at the call; a parameter of the caller passed on
// is the caller's own flow.
func (a *analyzer) argFlow(fi *fnInfo, call *ast.CallExpr, callee *types.Func, pf ParamFlow) (*Need, *ParamFlow) {
	info := a.pass.TypesInfo
	sig := callee.Signature()
	if pf.Param >= 0 && sig.Variadic() && pf.Param >= sig.Params().Len()-1 {
		return nil, nil // the slice of the variadic arguments: not followed
	}
	arg := pf.Ref.Arg(info, call) // a method expression ((*T).M) or a method value has no receiver
	if arg == nil {
		return nil, nil
	}
	if pf.Array {
		return a.classifyArrayArg(fi, call, callee, pf, arg)
	}
	var p string
	expr := a.argText(arg)
	if pf.Path != "" {
		f := flow.FieldByName(info.TypeOf(arg), callee.Pkg(), pf.Path[1:])
		if f == nil {
			return nil, nil
		}
		p = a.provField(arg, f)
		if expr == "" {
			expr = "value"
		}
		expr += pf.Path
	} else {
		p = a.prov(arg)
	}
	if p != "" {
		what := p
		if expr != "" {
			what += " (" + expr + ")"
		}
		what += " passed to " + callee.Name() + pf.handedOn(callee)
		u := needAt(fi, call.Pos(), true, what, pf.CUDA)
		return &u, nil
	}
	r, ok := a.paramOf(fi, arg)
	if pf.Path != "" { // b.ptr of the caller's own b: only one level of fields
		ok, r.Path = ok && r.Path == "", pf.Path
	}
	if !ok || r.Path != "" && !a.fieldMayHoldSystem(fi, r) {
		return nil, nil
	}
	return nil, pf.via(r, false)
}

// argText is an argument as the user wrote it, for messages: "" for a C
// call (the provenance already names it: "C.malloc memory").
func (a *analyzer) argText(e ast.Expr) string {
	info := a.pass.TypesInfo
	if call, ok := flow.StripConversions(info, e).(*ast.CallExpr); ok {
		if _, ok := cgocall.CName(info, call); ok {
			return ""
		}
	}
	return cgocall.UserText(e)
}
