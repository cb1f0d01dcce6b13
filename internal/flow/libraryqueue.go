package flow

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"github.com/hiplint/hiplint/internal/cgocall"
)

// Library returns where the work of a call of the C library routine name
// (LibraryArgs, with its signature sig and the call's arguments args) runs
// while device is current: the queue of its first stream argument (Of), or,
// when it has none, a stream of its library handle's, which no caller sees
// ("library:name"); and the arguments that may point to memory the routine
// reads on the device. ok is false when LibraryArgs cannot read the call.
func (sq StreamQueues) Library(name string, sig *types.Signature, args []ast.Expr, device Sym, created map[Loc]Queue) (q Queue, memory []int, ok bool) {
	stream, memory, ok := libraryArgs(name, sig, len(args))
	if !ok {
		return Queue{}, nil, false
	}
	if stream >= 0 {
		return sq.Of(args[stream], device, created), memory, true
	}
	// A routine without a stream argument runs on the stream its handle
	// (the first argument) was bound to, where this function bound it
	// (BindLibraryStream), or where the package binds the field that holds
	// it (LibraryStreamFields); on a stream of its own otherwise.
	if len(args) > 0 {
		if l, ok := sq.Ptrs.Locator.Of(StripConversions(sq.Ptrs.Info, args[0])); ok {
			if q, ok := created[libraryHandle(l)]; ok {
				return q, memory, true
			}
			if st, ok := sq.boundStream(l); ok {
				return sq.At(st, nil, created), memory, true
			}
		}
	}
	return Queue{Kind: OnStream, Stream: Loc{Path: "library:" + name}, Device: device}, memory, true
}

// SetsLibraryStream reports whether name is a GPU library's routine that
// binds a handle (its first argument) to a stream (its second), after which
// the handle's routines queue their work there: cublasSetStream,
// hipblasSetStream, cudnnSetStream, cufftSetStream, curandSetStream,
// cusparseSetStream, cusolverDnSetStream, miopenSetStream,
// rocblas_set_stream, rocsparse_set_stream and their kind.
func SetsLibraryStream(name string, sig *types.Signature) bool {
	if !strings.HasSuffix(name, "SetStream") && !strings.HasSuffix(name, "SetStream_v2") && !strings.HasSuffix(name, "_set_stream") {
		return false
	}
	return sig != nil && sig.Params().Len() == 2 && !cgocall.IsStreamType(sig.Params().At(0).Type()) &&
		cgocall.IsStreamType(sig.Params().At(1).Type())
}

// BindLibraryStream returns the key under which the queue of the stream a
// handle was bound to (SetsLibraryStream) is kept among a function's
// streams, for Library: ok false when the handle is no variable or field.
func (sq StreamQueues) BindLibraryStream(handle ast.Expr) (Loc, bool) {
	l, ok := sq.Ptrs.Locator.Of(StripConversions(sq.Ptrs.Info, handle))
	if !ok {
		return Loc{}, false
	}
	return libraryHandle(l), true
}

// libraryHandle is the key of a library handle's stream: the handle's own
// location, marked so that it never names a stream handle.
func libraryHandle(l Loc) Loc {
	return Loc{Root: l.Root, Path: l.Path + "#stream"}
}

// LibraryStreamFields returns, for the struct fields of pkg that hold a GPU
// library handle bound (SetsLibraryStream) to a stream kept in a field of
// the same value — cublasSetStream(b.h, b.stream), in a constructor or in
// any function of the package — that stream's field (FieldPairs): b.h's
// routines run on b.stream in every method (StreamQueues.Library).
func (x *Index) LibraryStreamFields(pkg *types.Package) map[*types.Var]*types.Var {
	return x.FieldPairs(pkg, func(call *ast.CallExpr) (ast.Expr, ast.Expr, bool) {
		name, args, sig, ok := cgocall.AnyCall(x.info, call)
		if !ok || len(args) != 2 || !SetsLibraryStream(name, sig) {
			return nil, nil, false
		}
		return args[0], args[1], true
	})
}

// FieldPairs returns the relation between two fields of one value that the
// calls of pkg establish, each call pair(call) naming the two as written
// (a, b: x.a and x.b, through & and conversions): field a maps to field b
// where every such call that names a names b of the same value (b.h bound
// to b.stream: LibraryStreamFields; k.fn taken from module k.mod). A field
// named with different fields, or with anything but a field of its own
// value, is left out: what holds in one method then holds in every one.
func (x *Index) FieldPairs(pkg *types.Package, pair func(call *ast.CallExpr) (a, b ast.Expr, ok bool)) map[*types.Var]*types.Var {
	out, mixed := map[*types.Var]*types.Var{}, map[*types.Var]bool{}
	for _, fn := range x.Funcs() {
		x.Walk(fn.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			a, b, ok := pair(call)
			if !ok {
				return true
			}
			add := func(av, bv *types.Var, same bool) {
				if av == nil || av.Pkg() != pkg {
					return
				}
				if bv == nil || !same || mixed[av] || out[av] != nil && out[av] != bv {
					mixed[av] = true
					delete(out, av)
					return
				}
				out[av] = bv
			}
			av, ax := fieldAndBase(x.info, StripAddr(a))
			bv, bx := fieldAndBase(x.info, StripAddr(b))
			if av != nil || bv != nil {
				add(av, bv, ax == bx)
				return true
			}
			// Locals paired by the call and then stored into two fields
			// of one value: hipModuleGetFunction(&fn, m, ...) followed by
			// &Plugin{mod: m, entry: fn} (or p.mod = m; p.entry = fn).
			for _, st := range localFieldPairs(x.info, fn.Body, StripConversions(x.info, StripAddr(a)), StripConversions(x.info, b)) {
				add(st[0], st[1], true)
			}
			return true
		})
	}
	return out
}

// localFieldPairs returns the fields that locals a and b (identifiers; nil
// otherwise) are stored into within body, paired where both go into fields
// of the same value: the same composite literal, or assignments to fields
// of the same expression. A value that gets either local in two fields
// pairs its first ones; one that gets only one of them pairs nothing.
func localFieldPairs(info *types.Info, body *ast.BlockStmt, a, b ast.Expr) [][2]*types.Var {
	local := func(e ast.Expr) *types.Var {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return nil
		}
		v, _ := info.ObjectOf(id).(*types.Var)
		if v == nil || v.IsField() || v.Parent() == v.Pkg().Scope() {
			return nil
		}
		return v
	}
	va, vb := local(a), local(b)
	if va == nil || vb == nil || va == vb {
		return nil
	}
	type fields struct{ a, b *types.Var }
	byValue := map[string]*fields{}
	var order []string
	note := func(base string, f *types.Var, value ast.Expr) {
		v := local(StripConversions(info, value))
		if f == nil || v == nil || v != va && v != vb {
			return
		}
		fs := byValue[base]
		if fs == nil {
			fs = &fields{}
			byValue[base] = fs
			order = append(order, base)
		}
		if v == va && fs.a == nil {
			fs.a = f
		} else if v == vb && fs.b == nil {
			fs.b = f
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CompositeLit:
			st, ok := info.TypeOf(n).Underlying().(*types.Struct)
			if !ok {
				return true
			}
			for _, el := range n.Elts {
				kv, ok := el.(*ast.KeyValueExpr)
				if !ok {
					continue
				}
				if k, ok := kv.Key.(*ast.Ident); ok {
					for i := range st.NumFields() {
						if st.Field(i).Name() == k.Name {
							note(fmt.Sprint(n.Pos()), st.Field(i), kv.Value)
						}
					}
				}
			}
		case *ast.AssignStmt:
			if len(n.Lhs) != len(n.Rhs) {
				return true
			}
			for i, l := range n.Lhs {
				if f, base := fieldAndBase(info, l); f != nil {
					note(base, f, n.Rhs[i])
				}
			}
		}
		return true
	})
	var out [][2]*types.Var
	for _, base := range order {
		if fs := byValue[base]; fs.a != nil && fs.b != nil {
			out = append(out, [2]*types.Var{fs.a, fs.b})
		}
	}
	return out
}

// fieldAndBase returns the field e selects (through conversions) and the
// value it selects it from, as written; nil when e is no field selection.
func fieldAndBase(info *types.Info, e ast.Expr) (*types.Var, string) {
	sel, ok := StripConversions(info, e).(*ast.SelectorExpr)
	if !ok {
		return nil, ""
	}
	s, ok := info.Selections[sel]
	if !ok || s.Kind() != types.FieldVal {
		return nil, ""
	}
	return s.Obj().(*types.Var), types.ExprString(sel.X)
}

// boundStream returns the location of the stream field the handle at l is
// bound to package-wide (LibraryStreamFields): l's last field replaced.
func (sq StreamQueues) boundStream(l Loc) (Loc, bool) {
	hv := fieldOf(l)
	if hv == nil || sq.LibStreams == nil {
		return Loc{}, false
	}
	sv, ok := sq.LibStreams[hv]
	if !ok {
		return Loc{}, false
	}
	i := strings.LastIndex(l.Path, ".")
	if i < 0 || l.Path[i+1:] != hv.Name() {
		return Loc{}, false
	}
	return Loc{Root: l.Root, Path: l.Path[:i]}.Field(sv.Name()), true
}
