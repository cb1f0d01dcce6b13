package flow

import (
	"go/ast"
	"go/token"
	"go/types"
)

// This file decodes kernel argument arrays: the kernelParams of
// hipModuleLaunchKernel, hipLaunchKernel, cuLaunchKernel and their
// relatives, an array of pointers to the argument values. What a kernel
// receives is the values, and for a pointer argument the memory it points
// to: these functions return the argument value expressions (variables,
// fields, stored values) an array passes, flow-insensitively.

// KernelArgs finds the argument values of kernel argument arrays built in
// Go memory (a slice literal, appends, element stores) or in C memory.
type KernelArgs struct {
	Info    *types.Info
	Sources *Sources
	C       *CMemory
	// Built names the parameters whose values result `result` of fn's
	// carries as kernel arguments (a helper that builds an argument
	// array, by its summary); nil: none.
	Built  func(fn *types.Func, result int) []int
	helped *Trace[[]KernelArg, *KernelArgs]
}

// KernelArg is a kernel argument value an array carries and, for an array
// a helper returned, the helper's name: the value is then the argument its
// caller passed.
type KernelArg struct {
	Value  ast.Expr
	Helper string
}

// Carried returns the argument values of the array e: GoArray's, else
// CSlots', else (with cBuffer) CBuffer's, else the arguments a helper's
// result carries when e is (the first slot of) that result: params of `_,
// params := argBlock(p)`, or argBlock(p) itself, passes p (Built). Local
// variables take the union of what is assigned to them; parameters, fields
// and package variables are not followed, nor the slice of a helper's
// variadic arguments. A VariadicArgs carries what its elements pass.
func (k *KernelArgs) Carried(e ast.Expr, cBuffer bool) []KernelArg {
	if v, ok := e.(*variadicArgs); ok {
		return kernelArgs(addrValues(k.Info, v.Elems)) // no node of the file: nothing else looks at it
	}
	vals := k.GoArray(e)
	if len(vals) == 0 {
		vals = k.CSlots(e)
	}
	if len(vals) == 0 && cBuffer {
		vals = k.CBuffer(e)
	}
	if len(vals) == 0 {
		if k.helped == nil {
			k.helped = &Trace[[]KernelArg, *KernelArgs]{Ctx: k, Info: k.Info, Sources: k.Sources,
				Expr: (*KernelArgs).helperExpr, Call: (*KernelArgs).helperCall,
				Join: func(p, q []KernelArg) []KernelArg { return append(p, q...) }, Follow: followLocals}
		}
		return k.helped.Of(e)
	}
	return kernelArgs(vals)
}

// kernelArgs returns vals as kernel arguments of no helper; nil for none.
func kernelArgs(vals []ast.Expr) []KernelArg {
	if len(vals) == 0 {
		return nil
	}
	out := make([]KernelArg, len(vals))
	for i, v := range vals {
		out[i].Value = v
	}
	return out
}

func (k *KernelArgs) helperExpr(e ast.Expr, s Step[[]KernelArg, *KernelArgs]) []KernelArg {
	switch x := e.(type) {
	case *ast.UnaryExpr: // &args[0] of a returned slice
		if ix, ok := ast.Unparen(x.X).(*ast.IndexExpr); ok && x.Op == token.AND {
			if _, ok := under(k.Info, ix.X).(*types.Slice); ok {
				return s.Of(ix.X)
			}
		}
	case *ast.CallExpr:
		if unsafeBuiltin(k.Info, x) == "SliceData" && len(x.Args) == 1 {
			return s.Of(x.Args[0])
		}
		return k.helperCall(x, 0, s)
	}
	return nil
}

// helperCall returns the arguments of call that its result `result`
// carries as kernel arguments.
func (k *KernelArgs) helperCall(call *ast.CallExpr, result int, _ Step[[]KernelArg, *KernelArgs]) []KernelArg {
	fn := Callee(k.Info, call)
	if fn == nil || k.Built == nil {
		return nil
	}
	var out []KernelArg
	for _, p := range k.Built(fn, result) {
		if arg := argAt(call, p); arg != nil && !isVariadicParam(fn.Signature(), p) {
			out = append(out, KernelArg{arg, fn.Name()})
		}
	}
	return out
}

// GoArray returns the variables (and fields) whose values a Go kernel
// argument array passes: for args := []unsafe.Pointer{unsafe.Pointer(&d),
// unsafe.Pointer(&b.ptr)} launched with &args[0], d and b.ptr. Elements
// that are not the address of a pointer-like variable pass scalars.
func (k KernelArgs) GoArray(e ast.Expr) []ast.Expr {
	info := k.Info
	e = StripConversions(info, e)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = ast.Unparen(u.X)
		if ie, ok := e.(*ast.IndexExpr); ok {
			e = ast.Unparen(ie.X)
		}
	}
	if call, ok := e.(*ast.CallExpr); ok {
		if unsafeBuiltin(info, call) == "SliceData" && len(call.Args) == 1 {
			e = ast.Unparen(call.Args[0])
		}
	}
	if lit, ok := e.(*ast.CompositeLit); ok { // return []unsafe.Pointer{unsafe.Pointer(&p)}
		if _, isSlice := under(info, lit).(*types.Slice); !isSlice {
			return nil
		}
		return addrValues(info, elements(lit))
	}
	id, ok := e.(*ast.Ident)
	if !ok {
		return nil
	}
	arr := info.Uses[id]
	var elems []ast.Expr
	for _, src := range k.Sources.Of[arr] {
		switch x := ast.Unparen(src.Expr).(type) {
		case *ast.CompositeLit:
			elems = append(elems, elements(x)...)
		case *ast.CallExpr:
			if BuiltinName(info, x) == "append" && len(x.Args) > 1 {
				elems = append(elems, x.Args[1:]...)
			}
		}
	}
	elems = append(elems, k.Sources.Elems[arr]...)
	return addrValues(info, elems)
}

// addrValues returns the variables (and fields) that argument array
// elements &d pass.
func addrValues(info *types.Info, elems []ast.Expr) []ast.Expr {
	var out []ast.Expr
	for _, el := range elems {
		if v, ok := addrValue(info, el); ok {
			out = append(out, v)
		}
	}
	return out
}

// addrValue returns v for a slot &v of a pointer-like variable or field v.
func addrValue(info *types.Info, slot ast.Expr) (ast.Expr, bool) {
	u, ok := StripConversions(info, slot).(*ast.UnaryExpr)
	if !ok || u.Op != token.AND {
		return nil, false
	}
	v := ast.Unparen(u.X)
	if _, isIdent := v.(*ast.Ident); !isIdent && SelectedField(info, v) == nil || !pointerLike(info.TypeOf(v)) {
		return nil, false
	}
	return v, true
}

// CSlots returns the argument values of an array e in C memory whose slots
// point to values stored at known offsets of C blocks: the slot's &v, or
// the pointer-like values stored where it points. Slots are consecutive
// words from the first, as many as the array's type says when it says
// (&array[0] of a *[n]unsafe.Pointer), else up to the first word nothing is
// stored into (64 at most).
func (k KernelArgs) CSlots(e ast.Expr) []ast.Expr {
	info := k.Info
	first, ok := k.C.Loc(e)
	if !ok {
		return nil
	}
	word := k.C.Sizes.Sizeof(types.Typ[types.UnsafePointer])
	var out []ast.Expr
	for i := int64(0); i < SlotBound(info, e, 64); i++ {
		slots := k.C.StoresAt(CLoc{Base: first.Base, Off: first.Off + i*word})
		if len(slots) == 0 {
			break
		}
		for _, slot := range slots {
			if v, ok := addrValue(info, slot); ok {
				out = append(out, v)
				continue
			}
			at, ok := k.C.Loc(slot)
			if !ok {
				continue
			}
			for _, v := range k.C.StoresAt(at) {
				if pointerLike(info.TypeOf(v)) {
					out = append(out, v)
				}
			}
		}
	}
	return out
}

// CBuffer returns the values an array in a C buffer passes, by what is
// stored anywhere into the buffer: each slot points to an argument value,
// either a Go variable (&d) or a second C buffer the values are written
// into; a slot that holds a plain pointer is taken as the memory the
// kernel touches.
func (k KernelArgs) CBuffer(e ast.Expr) []ast.Expr {
	info := k.Info
	arr := k.C.Buffer(e)
	if arr == nil {
		return nil
	}
	var out []ast.Expr
	for _, slot := range k.C.StoresInto(arr) {
		if v, ok := addrValue(info, slot); ok {
			out = append(out, v)
			continue
		}
		if vals := k.C.Buffer(slot); vals != nil && vals != arr {
			if stored := k.C.StoresInto(vals); len(stored) > 0 {
				for _, w := range stored {
					if pointerLike(info.TypeOf(w)) {
						out = append(out, w)
					}
				}
				continue
			}
		}
		if pointerLike(info.TypeOf(slot)) {
			out = append(out, slot)
		}
	}
	return out
}

// IsArgArrayType reports whether t is typed as a kernel argument array: a
// pointer to pointers (*unsafe.Pointer, **T, *[n]unsafe.Pointer) or a
// slice of them. A plain unsafe.Pointer or uintptr is not taken as one: it
// is as often the block the array lives in, which starts with other data.
func IsArgArrayType(t types.Type) bool {
	if t == nil {
		return false
	}
	switch u := t.Underlying().(type) {
	case *types.Slice:
		return pointerLike(u.Elem())
	case *types.Pointer:
		if arr, ok := u.Elem().Underlying().(*types.Array); ok {
			return pointerLike(arr.Elem())
		}
		return pointerLike(u.Elem())
	}
	return false
}
