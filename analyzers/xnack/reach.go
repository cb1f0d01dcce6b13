package xnack

import (
	"cmp"
	"go/ast"
	"go/token"
	"go/types"

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
	// arguments its caller puts in it reach the GPU.
	Array bool
	// site is the call a walk found it at.
	site token.Pos
}

// String names the parameter as flow.Ref does ("p0", "r.ptr"), and the
// parameter that is the argument array as "args(p0)".
func (f ParamFlow) String() string {
	if f.Array {
		return "args(" + f.Ref.String() + ")"
	}
	return f.Ref.String()
}

// to says where a call of callee (nil: of API itself) hands the memory of
// the parameter to: "callee, which hands it [on to In, which hands it] to
// API".
func (f ParamFlow) to(callee *types.Func) string {
	if callee == nil {
		return f.API
	}
	s := callee.Name() + ", which hands it "
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

// paramOf returns the parameter of fi's declaration (literals: of the
// declaration they are written in, whose variables they capture) whose
// memory e may point to, or a field of it (flow.ParamRefOf).
func (a *analyzer) paramOf(fi *fnInfo, e ast.Expr) (flow.Ref, bool) {
	return flow.ParamRefOf(a.info, a.ix, fi.sig, e)
}

// fieldMayHoldSystem reports whether a caller could pass system memory in
// the field of a parameter: the field is exported (other packages store
// into it), or something stored into it in this package is system memory.
// A field that only ever holds device memory (a DeviceBuffer's ptr) carries
// no flow; a parameter's elements (path "[]") always may.
func (a *analyzer) fieldMayHoldSystem(fi *fnInfo, r flow.Ref) bool {
	if r.Path == "[]" {
		return true // elements: what any caller puts in them
	}
	f := flow.FieldByName(flow.RefType(fi.sig, r), a.pass.Pkg, r.Path[1:])
	if f == nil {
		return false
	}
	if f.Exported() {
		return true
	}
	return a.provs.Any(a.ix.Of[f]) != ""
}

// reach classifies what a call in fi (at pf.site) hands to the GPU through its
// argument e, for the flow pf of the function it calls: the callee's
// parameter, or with callee nil the runtime function pf.API's pointer or
// kernelParams array (pf.Array). System memory in it is a use at the call;
// a parameter of fi's in it is a flow of fi's own (of a callee's array,
// the first whole parameter among its values). A runtime call finds values
// in C buffers too, and names the memory it is passed without the
// argument.
func (a *analyzer) reach(fi *fnInfo, e ast.Expr, pf ParamFlow, callee *types.Func) ([]Need, []ParamFlow) {
	to, direct := pf.to(callee), callee == nil
	system := func(what string) ([]Need, []ParamFlow) {
		return []Need{needAt(fi, pf.site, true, what+" passed to "+to, pf.CUDA)}, nil
	}
	var flows []ParamFlow
	passOn := func(r flow.Ref, ok, array bool) bool {
		ok = ok && (r.Path == "" || (direct || !pf.Array) && a.fieldMayHoldSystem(fi, r))
		if ok {
			f := pf
			f.Ref, f.Array = r, array
			flows = append(flows, f)
		}
		return ok
	}
	if !pf.Array {
		p := ""
		if pf.Path == "" {
			p = a.provs.Of(e)
		} else if pf.Path == "[]" {
			p = a.provs.Elems(e)
		} else if f := flow.FieldByName(a.info.TypeOf(e), callee.Pkg(), pf.Path[1:]); f != nil {
			p = a.provs.Field(e, f)
		} else {
			return nil, nil
		}
		switch {
		case p != "" && direct:
			return system(p)
		case p != "":
			return system(a.described(p, e, pf.Path))
		}
		r, ok := a.paramOf(fi, e)
		if pf.Path != "" { // b.ptr of the caller's own b: only one level of fields
			ok, r.Path = ok && r.Path == "", pf.Path
		}
		passOn(r, ok, false)
		return nil, flows
	}
	vals := a.kargs.Carried(e, direct)
	for _, v := range vals {
		switch p := a.provs.Of(v.Value); {
		case p == "":
		case v.Helper != "":
			what := a.described(p, v.Value, "") + " passed to " + v.Helper
			return system(what + ", whose argument array is")
		case direct:
			return system(p + " (" + types.ExprString(v.Value) + ")")
		default:
			return system(p + " (" + types.ExprString(v.Value) + ") in the argument array")
		}
	}
	for _, v := range vals {
		if r, ok := a.paramOf(fi, v.Value); passOn(r, ok, false) && !direct {
			break
		}
	}
	if len(vals) == 0 {
		// The array itself is a parameter: what the caller puts in it.
		r, ok := a.paramOf(fi, e)
		passOn(r, ok && r.Path == "" && r.Param >= 0 && flow.IsArgArrayType(flow.RefType(fi.sig, r)), true)
	}
	return nil, flows
}

// described is memory p with the argument e it is passed in (and the path
// of the field of e) as the user wrote it, but for a C call (p already
// names it: "C.malloc memory").
func (a *analyzer) described(p string, e ast.Expr, path string) string {
	text := cgocall.UserText(e)
	if call, ok := flow.StripConversions(a.info, e).(*ast.CallExpr); ok {
		if _, ok := cgocall.CName(a.info, call); ok {
			text = ""
		}
	}
	switch path {
	case "":
	case "[]":
		text = "an element of " + cmp.Or(text, "the value")
	default:
		text = cmp.Or(text, "value") + path
	}
	if text == "" {
		return p
	}
	return p + " (" + text + ")"
}
