package flow

import (
	"cmp"
	"go/ast"
	"go/token"
	"go/types"

	"github.com/hiplint/hiplint/internal/cgocall"
)

// goOrigin is the origin of memory the Go runtime allocated.
const goOrigin = "Go memory"

// Origins says where the memory a pointer, slice or unsafe.Pointer
// expression points to was allocated, flow-insensitively over a package's
// assignments (Sources): "Go memory" (the address of a variable or
// composite literal, make, new, append, a slice literal), "C.malloc
// memory" (C's heap allocators, cgocall.IsSystemAlloc), "syscall.Mmap
// memory" (mmap), what Alloc names for the result of another call, or ""
// for unknown. Unknown sources (parameters, results of unknown calls)
// contribute nothing: a variable may point to what any of its sources
// does, a field or an element only to what every value stored there does
// (so that a Buffer type whose constructors differ, C.malloc in one and a
// device allocation in another, is not taken as C memory); nil stores
// nothing. It follows slicing, unsafe.Slice and its relatives, &s[i] and
// &p.f through the pointer (AddrTarget).
type Origins struct {
	Info    *types.Info
	Sources *Sources
	// Alloc names the memory result `result` of a call of a function
	// points to (a summarized constructor), or "".
	Alloc func(call *ast.CallExpr, result int) string
	t     Trace[string, *Origins]
}

// NewOrigins is an Origins over src, Alloc naming what functions'
// results point to.
func NewOrigins(info *types.Info, src *Sources, alloc func(*ast.CallExpr, int) string) *Origins {
	p := &Origins{Info: info, Sources: src, Alloc: alloc}
	p.t = Trace[string, *Origins]{Ctx: p, Info: info, Sources: src, Expr: (*Origins).expr,
		Call: (*Origins).call, Join: func(a, b string) string { return cmp.Or(a, b) }}
	return p
}

// Of is the provenance of what e points to.
func (p *Origins) Of(e ast.Expr) string { return p.t.Of(e) }

// Any is the first provenance among srcs' (what a variable with these
// sources may point to).
func (p *Origins) Any(srcs []Source) string { return p.t.Start().Sources(srcs) }

// Elems is the first provenance among what the elements of the container
// e may hold (Sources.ElemValues): what a range over it hands its loop.
func (p *Origins) Elems(e ast.Expr) string {
	return p.Any(p.Sources.ElemValues(p.Info, e))
}

// Field is the first provenance among what field f of the struct e is (or
// points to) may hold (Sources.FieldValues).
func (p *Origins) Field(e ast.Expr, f *types.Var) (out string) {
	p.Sources.FieldValues(p.Info, e, f, func(value ast.Expr, stored []Source) bool {
		if value != nil {
			out = p.Of(value)
		} else {
			out = p.Any(stored)
		}
		return out == ""
	})
	return out
}

func (p *Origins) expr(e ast.Expr, s Step[string, *Origins]) string {
	switch x := e.(type) {
	case *ast.CallExpr:
		return p.call(x, 0, s)
	case *ast.UnaryExpr:
		if x.Op == token.AND {
			own, via := addrTarget(p.Info, x.X)
			if own {
				return goOrigin
			}
			return s.Of(via)
		}
	case *ast.SelectorExpr:
		if f := SelectedField(p.Info, x); f != nil {
			if out, ok := p.litField(x, f, s); ok {
				return out
			}
			if call, ok := StripConversions(p.Info, x.X).(*ast.CallExpr); ok && len(p.Sources.Returned(p.Info, call, 0)) > 0 {
				// f().f of the package's function: what it returns there.
				out := ""
				p.Sources.FieldValues(p.Info, call, f, func(value ast.Expr, stored []Source) bool {
					if value != nil {
						out = s.Of(value)
					} else {
						out = s.Sources(stored)
					}
					return out == ""
				})
				return out
			}
			return p.all(p.Sources.Of[f], s)
		}
	case *ast.IndexExpr:
		// An element of a map or slice: what is stored into it (m[k] = p).
		// Every element: what is stored, appended or sent into it, and the
		// elements of the literals it is made of (ElemValues).
		if _, ok := ast.Unparen(x.X).(*ast.Ident); ok {
			switch under(p.Info, x.X).(type) {
			case *types.Map, *types.Slice:
				return p.all(p.Sources.ElemValues(p.Info, x.X), s)
			}
		}
	case *ast.SliceExpr:
		return s.Of(x.X)
	case *ast.CompositeLit:
		if _, ok := under(p.Info, x).(*types.Slice); ok {
			return goOrigin
		}
	}
	return ""
}

// all is the provenance of storage that every value of a type (a field)
// or every element of a map or slice shares: one only when everything
// stored there has one.
func (p *Origins) all(srcs []Source, s Step[string, *Origins]) string {
	out := ""
	for _, src := range srcs {
		if src.Call == nil && IsNil(p.Info, src.Expr) {
			continue
		}
		q := s.Source(src)
		if q == "" {
			return ""
		}
		out = cmp.Or(out, q)
	}
	return out
}

func (p *Origins) call(call *ast.CallExpr, result int, s Step[string, *Origins]) string {
	if name, ok := cgocall.CName(p.Info, call); ok {
		if cgocall.IsSystemAlloc(name) && result == 0 {
			return "C." + name + " memory"
		}
		return ""
	}
	if isBuiltin(p.Info, call, "make", "new", "append") {
		return goOrigin
	}
	switch unsafeBuiltin(p.Info, call) {
	case "Slice", "SliceData", "String", "StringData", "Add":
		if len(call.Args) > 0 {
			return s.Of(call.Args[0])
		}
	}
	fn := Callee(p.Info, call)
	if fn == nil || fn.Pkg() == nil {
		return ""
	}
	if path := fn.Pkg().Path(); fn.Name() == "Mmap" && result == 0 && (path == "syscall" || path == "golang.org/x/sys/unix") {
		return fn.Pkg().Name() + ".Mmap memory"
	}
	return p.Alloc(call, result)
}

// litField is the provenance of v.f for a variable v that is only ever
// given struct literals (b := bufs{in: p}, var pool = bufs{...}) and whose
// field f is stored nowhere else (v.f = e adds its value): what any of
// those values points to, as for a variable, rather than what every value
// of the type's field does. ok is false when v is given anything else.
func (p *Origins) litField(x *ast.SelectorExpr, f *types.Var, s Step[string, *Origins]) (out string, ok bool) {
	id, isID := ast.Unparen(x.X).(*ast.Ident)
	if !isID {
		return "", false
	}
	v, _ := p.Info.Uses[id].(*types.Var)
	srcs := p.Sources.Of[v]
	if v == nil || len(srcs) == 0 {
		return "", false
	}
	for _, src := range srcs {
		e := ast.Unparen(src.Expr)
		if u, isAddr := e.(*ast.UnaryExpr); isAddr && u.Op == token.AND {
			e = ast.Unparen(u.X)
		}
		lit, isLit := e.(*ast.CompositeLit)
		if src.Call != nil || !isLit {
			return "", false
		}
		for _, fv := range LitFields(p.Info, lit) {
			if fv.Field == f && out == "" {
				out = s.Of(fv.Value)
			}
		}
	}
	if out == "" {
		out = p.Any(p.Sources.Fields[Loc{Root: v}.Field(f.Name())])
	}
	return out, true
}
