package flow

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/hiplint/hiplint/internal/cgocall"
)

// This file answers flow-insensitive questions about the values variables
// get in one function body: whether a variable only ever holds new values,
// which locals stand for a parameter, and whether a value is kept somewhere
// besides where the function hands it.

// OnlyFresh reports whether every value body gives v is a new one: a zero
// value (var v T), a composite literal, its address, or new(T). Such a local
// refers to nothing made elsewhere. Any other assignment, a multi-value one
// or a range clause makes it not fresh.
func OnlyFresh(info *types.Info, body *ast.BlockStmt, v types.Object) bool {
	fresh := func(e ast.Expr) bool {
		e = ast.Unparen(e)
		if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
			e = ast.Unparen(u.X)
		}
		switch x := e.(type) {
		case *ast.CompositeLit:
			return true
		case *ast.CallExpr:
			return isBuiltin(info, x, "new")
		}
		return false
	}
	is := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && (info.Uses[id] == v || info.Defs[id] == v)
	}
	ok := true
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			if cgocall.IsWrapper(info, n) {
				return false
			}
		case *ast.ValueSpec:
			for i, id := range n.Names {
				if info.Defs[id] == v && len(n.Values) > 0 && (len(n.Values) != len(n.Names) || !fresh(n.Values[i])) {
					ok = false
				}
			}
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				if is(l) && (len(n.Lhs) != len(n.Rhs) || !fresh(n.Rhs[i])) {
					ok = false
				}
			}
		case *ast.RangeStmt:
			if n.Key != nil && is(n.Key) || n.Value != nil && is(n.Value) {
				ok = false
			}
		}
		return ok
	})
	return ok
}

// ParamAliases returns the locals that body defines once (:=) as a
// parameter or the receiver of sig, or a field path inside one, through
// conversions (mod := C.CUmodule(unsafe.Pointer(uintptr(m))), h := m.c),
// mapped to that parameter, and the right-hand sides of those definitions.
// A local assigned again is no alias. Closures are not looked into.
func ParamAliases(x *Index, info *types.Info, body *ast.BlockStmt, sig *types.Signature) (map[types.Object]types.Object, map[types.Object]ast.Expr) {
	aliases := map[types.Object]types.Object{}
	defs := map[types.Object]ast.Expr{}
	assigns := map[types.Object]int{}
	x.Walk(body, func(n ast.Node) bool { // assignments and literals are listed (Index.Walk)
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		as, ok := n.(*ast.AssignStmt)
		if !ok {
			return true
		}
		for i, l := range as.Lhs {
			id, ok := ast.Unparen(l).(*ast.Ident)
			if !ok {
				continue
			}
			obj := info.ObjectOf(id)
			if obj == nil {
				continue
			}
			assigns[obj]++
			if as.Tok != token.DEFINE || info.Defs[id] == nil || len(as.Lhs) != len(as.Rhs) {
				continue
			}
			p, _, ok := fieldPath(info, as.Rhs[i])
			if !ok {
				continue
			}
			if _, isParam := paramIndex(sig, p); isParam {
				aliases[obj] = p
				defs[obj] = as.Rhs[i]
			}
		}
		return true
	})
	for alias := range aliases {
		if assigns[alias] > 1 {
			delete(aliases, alias)
			delete(defs, alias)
		}
	}
	return aliases, defs
}

// valueOf reports whether e is one of objs, its address, or a composite
// literal holding one (conversions aside at the top).
func valueOf(info *types.Info, e ast.Expr, objs map[types.Object]bool) bool {
	for range 32 {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			return objs[info.Uses[x]]
		case *ast.UnaryExpr:
			if x.Op != token.AND {
				return false
			}
			e = x.X
			continue
		case *ast.CompositeLit:
			for _, elt := range x.Elts {
				if kv, ok := elt.(*ast.KeyValueExpr); ok {
					elt = kv.Value
				}
				if valueOf(info, elt, objs) { // bounded by the literal's nesting
					return true
				}
			}
		}
		return false
	}
	return false
}

// StoredElsewhere reports whether body also stores one of objs somewhere
// (ValueOf on the right of an assignment, an append's elements, a send):
// then something besides the function's result keeps it. cgo's wrapper
// literals are not looked into: their temporaries are not stores.
func StoredElsewhere(info *types.Info, body *ast.BlockStmt, objs map[types.Object]bool) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return !cgocall.IsWrapper(info, n)
		case *ast.AssignStmt:
			for _, r := range n.Rhs {
				found = found || valueOf(info, r, objs)
				// c.modules = append(c.modules, m): a context keeps it too.
				if call, ok := ast.Unparen(r).(*ast.CallExpr); ok && isBuiltin(info, call, "append") && len(call.Args) > 1 {
					for _, arg := range call.Args[1:] {
						found = found || valueOf(info, arg, objs)
					}
				}
			}
		case *ast.SendStmt:
			found = found || valueOf(info, n.Value, objs)
		}
		return !found
	})
	return found
}

// NamedOf returns the named type of t or of what t points to, or nil.
func NamedOf(t types.Type) *types.Named {
	if t == nil {
		return nil
	}
	t = types.Unalias(t)
	if p, ok := t.(*types.Pointer); ok {
		t = types.Unalias(p.Elem())
	}
	n, _ := t.(*types.Named)
	return n
}

// isFinalizerCall reports whether call sets a finalizer or a cleanup
// (runtime.SetFinalizer, runtime.AddCleanup) on its first argument, which
// then owns what that value holds.
func isFinalizerCall(info *types.Info, call *ast.CallExpr) bool {
	return len(call.Args) > 0 && (isFunc(Callee(info, call), "runtime", "SetFinalizer") || isFunc(Callee(info, call), "runtime", "AddCleanup"))
}

// FinalizedTypes returns the named types (or pointers to them) that funcs
// set finalizers or cleanups on anywhere (IsFinalizerCall).
func FinalizedTypes(info *types.Info, funcs []Func) map[*types.TypeName]bool {
	out := map[*types.TypeName]bool{}
	for _, f := range funcs {
		ast.Inspect(f.Body, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok && isFinalizerCall(info, call) {
				if n := NamedOf(info.TypeOf(call.Args[0])); n != nil {
					out[n.Obj()] = true
				}
			}
			return true
		})
	}
	return out
}

// TypeHolds reports whether a value of type t may hold a value whose type
// satisfies is: t itself, what a pointer points to, or a struct field's
// type, transitively. Each type is looked at once, so recursive types end,
// and the walk is bounded (TypeWalk: instantiation cycles end too, the
// types beyond the bounds taken as holding nothing); a nil t (an
// expression left untyped at tier 3) holds nothing.
func TypeHolds(t types.Type, is func(types.Type) bool) bool { return typeHolds(t, throughPointers, is) }

// fieldsHold is TypeHolds without following pointers: t itself or a struct
// field's type, transitively.
func fieldsHold(t types.Type, is func(types.Type) bool) bool { return typeHolds(t, 0, is) }

// mayHold is TypeHolds for a question that must not be answered "no" in
// error: it also looks into elements, map keys and values, and takes the
// types that can carry anything (interfaces, functions, which may close
// over a value, unsafe.Pointer, an unnamed uintptr, type parameters, and
// types that did not check) as holding, and so does a type whose walk a
// bound cut off (TypeWalk).
func mayHold(t types.Type, is func(types.Type) bool) bool {
	return typeHolds(t, throughPointers|conservative, is)
}

const (
	throughPointers = 1 << iota // look at what pointers point to
	conservative                // MayHold's: containers, and carriers of anything
)

func typeHolds(t types.Type, mode int, is func(types.Type) bool) bool {
	var walk typeWalk // bounded: see TypeWalk
	var buf [16]types.Type
	work := append(buf[:0], t)
	for len(work) > 0 {
		t := work[len(work)-1]
		work = work[:len(work)-1]
		if !walk.Enter(t) {
			// A type cut off by a bound may hold anything: MayHold's
			// "no" must not be wrong.
			if walk.Cut && mode&conservative != 0 {
				return true
			}
			continue
		}
		if is(t) {
			return true
		}
		switch u := t.Underlying().(type) {
		case *types.Pointer:
			if mode&throughPointers != 0 {
				work = append(work, u.Elem())
			}
		case *types.Struct:
			for i := u.NumFields() - 1; i >= 0; i-- {
				work = append(work, u.Field(i).Type())
			}
		}
		if mode&conservative == 0 {
			continue
		}
		// An unnamed uintptr may be any handle; a named one (`type Function
		// uintptr`) is what its name says, and is accepted when it is.
		if b, ok := types.Unalias(t).(*types.Basic); ok &&
			(b.Kind() == types.UnsafePointer || b.Kind() == types.Uintptr || b.Kind() == types.Invalid) {
			return true
		}
		switch u := t.Underlying().(type) {
		case *types.Interface, *types.Signature, *types.Tuple: // and type parameters, whose underlying type is an interface
			return true
		case *types.Slice:
			work = append(work, u.Elem())
		case *types.Array:
			work = append(work, u.Elem())
		case *types.Chan:
			work = append(work, u.Elem())
		case *types.Map:
			work = append(work, u.Key(), u.Elem())
		}
	}
	return false
}
