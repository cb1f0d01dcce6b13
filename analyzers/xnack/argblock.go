package xnack

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/hiplint/hiplint/internal/flow"
)

// This file follows kernel argument arrays that a helper builds and returns:
//
//	func argBlock(p unsafe.Pointer) (block unsafe.Pointer, params *unsafe.Pointer) {
//		block = C.malloc(4 * word)
//		*(*unsafe.Pointer)(block) = p                        // the argument value
//		array := (*[2]unsafe.Pointer)(unsafe.Add(block, 2*word))
//		array[0] = block                                     // slot 0 points to it
//		return block, &array[0]
//	}
//
// argBlock is summarized (Summary.Args, returnsKernelArgs) as returning, in result 1,
// a kernelParams array whose kernel arguments include the pointer its caller
// passes in parameter 0. A launch with that result then hands the kernel
// the memory the caller's argument points to, and the argument's provenance
// decides, as for an array built in place. Only arrays whose slots can be
// traced to the argument values are summarized: a slot that holds a plain
// pointer (the address of the value, not the value) says nothing about
// what the kernel reads.

// helperArg is a kernel argument value that a helper's argument array
// carries: the caller's argument expression and the helper's name.
type helperArg struct {
	arg    ast.Expr
	helper string
}

// newHelperArgs is the trace of the arguments a kernelParams expression e
// carries when e is (the first slot of) an array a summarized helper
// returned: params of `_, params := argBlock(p)`, or argBlock(p) itself,
// passes p. Local variables take the union of what is assigned to them;
// parameters, fields and package variables are not followed.
func (a *analyzer) newHelperArgs() flow.Trace[[]helperArg, *analyzer] {
	return flow.Trace[[]helperArg, *analyzer]{Ctx: a, Info: a.pass.TypesInfo, Sources: a.ix,
		Follow: func(v *types.Var) bool {
			_, ok := flow.IsLocalVar(v)
			return ok
		},
		Expr: (*analyzer).helperArgValues,
		Call: (*analyzer).helperCallArgs,
		Join: func(p, q []helperArg) []helperArg { return append(p, q...) }}
}

func (a *analyzer) helperArgValues(e ast.Expr, s flow.Step[[]helperArg, *analyzer]) []helperArg {
	info := a.pass.TypesInfo
	switch x := e.(type) {
	case *ast.UnaryExpr: // &args[0] of a returned slice
		if ix, ok := ast.Unparen(x.X).(*ast.IndexExpr); ok && x.Op == token.AND {
			if _, ok := flow.Under(info, ix.X).(*types.Slice); ok {
				return s.Of(ix.X)
			}
		}
	case *ast.CallExpr:
		if flow.UnsafeBuiltin(info, x) == "SliceData" && len(x.Args) == 1 {
			return s.Of(x.Args[0])
		}
		return a.helperCallArgs(x, 0, s)
	}
	return nil
}

// helperCallArgs returns the arguments of call that its result `result`
// carries as kernel arguments.
func (a *analyzer) helperCallArgs(call *ast.CallExpr, result int, _ flow.Step[[]helperArg, *analyzer]) []helperArg {
	fn := flow.Callee(a.pass.TypesInfo, call)
	r := a.sums.Get(fn).Args
	if r == nil || r.Result != result {
		return nil
	}
	sig := fn.Signature()
	var out []helperArg
	for _, p := range r.Params {
		if sig.Variadic() && p >= sig.Params().Len()-1 {
			continue
		}
		if arg := flow.ArgAt(call, p); arg != nil {
			out = append(out, helperArg{arg, fn.Name()})
		}
	}
	return out
}

// findKernelArgs summarizes a function that returns a kernel argument array
// carrying its parameters (Summary.Args): the first result, on every
// return statement of fi, whose argument values include a parameter.
func (a *analyzer) findKernelArgs(fi *fnInfo) *KernelArgs {
	results := fi.obj.Signature().Results()
	for i := range results.Len() {
		if !flow.IsArgArrayType(results.At(i).Type()) {
			continue
		}
		var params []int
		for _, ret := range flow.ReturnStmts(fi.fn.Body) {
			if len(ret.Results) != results.Len() {
				continue
			}
			for _, v := range allValues(a.arrayValues(ret.Results[i], false)) {
				if r, ok := a.paramOf(fi, v); ok && r.Path == "" && r.Param >= 0 && !slices.Contains(params, r.Param) {
					params = append(params, r.Param)
				}
			}
		}
		if len(params) > 0 {
			slices.Sort(params)
			return &KernelArgs{Result: i, Params: params}
		}
	}
	return nil
}

// allValues is the values of an argument array and the arguments of the
// helper that built it, as one list (arrayValues gives one or the other).
func allValues(vals []ast.Expr, helped []helperArg) []ast.Expr {
	for _, h := range helped {
		vals = append(vals, h.arg)
	}
	return vals
}

// arrayValues returns the values a kernel argument array e carries
// (flow.KernelArgs: a Go array, C slots, and with cBuffer a C buffer), or
// else the arguments of a summarized helper that built it.
func (a *analyzer) arrayValues(e ast.Expr, cBuffer bool) ([]ast.Expr, []helperArg) {
	vals := a.kargs.GoArray(e)
	if len(vals) == 0 {
		vals = a.kargs.CSlots(e)
	}
	if len(vals) == 0 && cBuffer {
		vals = a.kargs.CBuffer(e)
	}
	if len(vals) > 0 {
		return vals, nil
	}
	return nil, a.helped.Of(e)
}

// systemInArray describes the first system memory among an argument
// array's values (passed to `to` after sep) or its helper's arguments.
func (a *analyzer) systemInArray(vals []ast.Expr, helped []helperArg, sep, to string) (string, bool) {
	for _, v := range vals {
		if p := a.prov(v); p != "" {
			return fmt.Sprintf("%s (%s)%s%s", p, types.ExprString(v), sep, to), true
		}
	}
	for _, h := range helped {
		if what := a.prov(h.arg); what != "" {
			if s := a.argText(h.arg); s != "" {
				what += " (" + s + ")"
			}
			return fmt.Sprintf("%s passed to %s, whose argument array is passed to %s", what, h.helper, to), true
		}
	}
	return "", false
}

// arrayParam returns the parameter of fi (typed as an array of pointers)
// that the kernelParams array e of a launch is: the caller's array decides
// what reaches the GPU.
func (a *analyzer) arrayParam(fi *fnInfo, e ast.Expr) (flow.Ref, bool) {
	r, ok := a.paramOf(fi, e)
	return r, ok && r.Path == "" && r.Param >= 0 && flow.IsArgArrayType(fi.encl.Signature().Params().At(r.Param).Type())
}

// classifyArrayArg classifies the kernelParams array arg that call passes
// for the callee's array flow pf: system memory among its argument values
// is a use here; one of the caller's parameters among them, or the array
// being the caller's own parameter, is the caller's flow.
func (a *analyzer) classifyArrayArg(fi *fnInfo, call *ast.CallExpr, callee *types.Func, pf ParamFlow, arg ast.Expr) (*Need, *ParamFlow) {
	vals, helped := a.arrayValues(arg, false)
	if what, ok := a.systemInArray(vals, helped, " in the argument array passed to ", callee.Name()+pf.handedOn(callee)); ok {
		u := needAt(fi, call.Pos(), true, what, pf.CUDA)
		return &u, nil
	}
	values := allValues(vals, helped)
	for _, v := range values {
		if r, ok := a.paramOf(fi, v); ok && r.Path == "" {
			return nil, pf.via(r, false)
		}
	}
	if r, ok := a.arrayParam(fi, arg); ok && len(values) == 0 {
		return nil, pf.via(r, true)
	}
	return nil, nil
}
