package flow

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/hiplint/hiplint/internal/cgocall"
	"github.com/hiplint/hiplint/internal/hipapi"
)

// Provenance is what a function body says, flow-insensitively, about what
// its variables hold:
//   - which locations are views of the same memory (h := uintptr(p), out :=
//     unsafe.Slice((*T)(dst), n)): Aliases;
//   - which hold host memory: Go memory (&x, &s[0], unsafe.SliceData),
//     C.malloc, a pinned host allocation (IsHost);
//   - which values are stored in the elements of an array or slice variable
//     (args[1] = unsafe.Pointer(&dst), args := []unsafe.Pointer{...}), so
//     that a kernel argument array mentions them (Mentions);
//   - what the one assignment of a tracked variable copied (h := s.handle(),
//     h := s.h): CopyOf.
//
// In-place closures (Index.InPlace) are part of the body; other closures
// are functions of their own.
type Provenance struct {
	ptrs    Pointers
	Aliases Aliases
	host    map[Loc]bool
	elems   map[types.Object][]ast.Expr
	copies  map[Loc]oneCopy
}

type oneCopy struct {
	from Loc
	rhs  ast.Expr
}

// ScanProvenance scans body. track says which variables' one assignment
// CopyOf answers for; nil: none.
func ScanProvenance(x *Index, ptrs Pointers, body *ast.BlockStmt, track func(Loc) bool) *Provenance {
	// The maps are made on their first write (most bodies note nothing
	// in most of them): four maps a scan, two scans a function.
	p := &Provenance{ptrs: ptrs}
	for pass := range 2 { // twice, for p := &buf[0]; q := p
		if pass == 1 && len(p.Aliases) == 0 && len(p.host) == 0 && len(p.elems) == 0 && len(p.copies) == 0 {
			break // nothing noted: the second pass would start where the first did
		}
		x.Walk(body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return x.IsWrapper(n) || x.InPlace(n)
			case *ast.AssignStmt:
				if len(n.Lhs) == len(n.Rhs) {
					for i := range n.Lhs {
						p.note(n.Lhs[i], n.Rhs[i], track)
					}
				}
			case *ast.ValueSpec:
				if len(n.Names) == len(n.Values) {
					for i := range n.Names {
						p.note(n.Names[i], n.Values[i], track)
					}
				}
			case *ast.CallExpr:
				c := x.Match(n)
				if c == nil || c.Func.Role != hipapi.Alloc || c.Func.Alloc != hipapi.HostPinned {
					return true
				}
				if u, ok := ast.Unparen(c.Arg(c.Func.Out)).(*ast.UnaryExpr); ok && u.Op == token.AND {
					if l, ok := ptrs.Locator.Of(u.X); ok {
						Put(&p.host, l, true)
					}
				}
			}
			return true
		})
	}
	return p
}

func (p *Provenance) note(lhs, rhs ast.Expr, track func(Loc) bool) {
	if ix, ok := ast.Unparen(lhs).(*ast.IndexExpr); ok {
		if id, ok := ast.Unparen(ix.X).(*ast.Ident); ok {
			if obj := objOf(p.ptrs.Info, id); obj != nil && !slices.Contains(p.elems[obj], rhs) {
				Put(&p.elems, obj, append(p.elems[obj], rhs))
			}
		}
		return
	}
	l, ok := p.ptrs.Locator.Of(lhs)
	if !ok {
		return
	}
	if p.IsHost(rhs) {
		Put(&p.host, l, true)
	}
	// A view and what it views are the same memory, whichever of them is
	// written. cgo's temporaries are no user alias: keeping one per call
	// made alias lists grow with the number of calls in a function.
	if rl, ok := p.ptrs.Of(rhs); ok && !IsCgoTemp(l) && rl != l {
		if p.Aliases == nil {
			p.Aliases = Aliases{}
		}
		p.Aliases.Add(rl, l)
	}
	if cl, ok := ast.Unparen(rhs).(*ast.CompositeLit); ok && l.Path == "" {
		Put(&p.elems, l.Root, append(p.elems[l.Root], cl.Elts...))
	}
	if l.Path != "" || track == nil || !track(l) {
		return
	}
	if prev, seen := p.copies[l]; seen {
		if prev.rhs != rhs { // a second assignment: no one copy
			p.copies[l] = oneCopy{} // seen: the map is made
		}
		return
	}
	from, ok := p.ptrs.Of(rhs)
	if !ok || from == l {
		from = Loc{}
	}
	Put(&p.copies, l, oneCopy{from: from, rhs: rhs})
}

// CopyOf returns the location the one assignment of the tracked variable l
// copied, when it has one assignment and that names a location.
func (p *Provenance) CopyOf(l Loc) (Loc, bool) {
	c := p.copies[l]
	return c.from, c.from.Root != nil
}

// IsHost reports whether e is provably host memory: Go memory (&x, &s[0],
// unsafe.SliceData), C.malloc, or a variable holding such memory or a
// pinned host allocation.
func (p *Provenance) IsHost(e ast.Expr) bool {
	info := p.ptrs.Info
	for range 16 {
		switch x := ast.Unparen(e).(type) {
		case *ast.UnaryExpr:
			return x.Op == token.AND
		case *ast.CallExpr:
			if IsConversion(info, x) || isBuiltin(info, x, "Add") && len(x.Args) > 0 {
				e = x.Args[0]
				continue
			}
			return isBuiltin(info, x, "SliceData", "StringData") || cgocall.IsHostAlloc(x)
		case *ast.Ident, *ast.SelectorExpr:
			l, ok := p.ptrs.Locator.Of(x)
			return ok && p.host[l]
		default:
			return false
		}
	}
	return false
}

// Mention is a variable or field path named in an expression.
type Mention struct {
	Loc  Loc
	Node ast.Node
}

// Mentions returns the variables and field paths e names, in source order,
// looking through the values stored in array and slice variables (each
// variable's once).
func (p *Provenance) Mentions(e ast.Node) []Mention {
	var out []Mention
	seen := map[types.Object]bool{}
	var walk func(n ast.Node) bool
	walk = func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.SelectorExpr:
			if l, ok := p.ptrs.Locator.Of(x); ok {
				out = append(out, Mention{l, x})
				return false
			}
		case *ast.Ident:
			if v, ok := objOf(p.ptrs.Info, x).(*types.Var); ok {
				out = append(out, Mention{Loc{Root: v}, x})
				if elts, ok := p.elems[v]; ok && !seen[v] {
					seen[v] = true
					for _, el := range elts {
						ast.Inspect(el, walk)
					}
				}
			}
		}
		return true
	}
	ast.Inspect(e, walk)
	return out
}

func objOf(info *types.Info, id *ast.Ident) types.Object {
	if obj := info.Uses[id]; obj != nil {
		return obj
	}
	return info.Defs[id]
}
