package flow

import (
	"go/ast"
	"go/types"
	"strconv"
	"strings"

	"github.com/hiplint/hiplint/internal/cgocall"
)

// SymOf says how a Sym is named.
type SymOf uint8

const (
	CallerSym  SymOf = iota // in a summary: the caller's own (its current device, say); the zero Sym
	EntrySym                // in a function: the one current on entry
	ConstSym                // the constant N
	ParamSym                // what the caller passes at Ref
	UnknownSym              // not known
	ExprSym                 // in a function: what an expression holds (Expr, as written)
)

// Sym is a small value a function works with, such as a device number or
// a handle, named symbolically so that it can be compared within the
// function and, in a summary, mapped to its callers: a constant, a
// parameter's (Ref), an expression's, the one current on entry, or
// unknown. Syms are comparable.
type Sym struct {
	Of   SymOf
	N    int64
	Ref  Ref
	Expr string
}

var (
	// Entry is the Sym current on entry to a function.
	Entry = Sym{Of: EntrySym}
	// Unknown is a Sym not known.
	Unknown = Sym{Of: UnknownSym}
)

func (v Sym) String() string {
	switch v.Of {
	case EntrySym:
		return "entry"
	case ConstSym:
		return "c:" + strconv.FormatInt(v.N, 10)
	case ParamSym:
		return v.Ref.String()
	case UnknownSym:
		return "?"
	case ExprSym:
		return "e:" + v.Expr
	}
	return ""
}

// Same reports whether v and w may be the same: equal, or one of them
// unknown.
func (v Sym) Same(w Sym) bool { return v == w || v.Of == UnknownSym || w.Of == UnknownSym }

// ForCaller returns v as a summary names it for the function's callers:
// the one current on entry is the caller's own (the zero Sym); constants
// and parameters stay; what the caller cannot name (an expression, the
// receiver, which a call through a method value does not show) is unknown.
func (v Sym) ForCaller() Sym {
	switch {
	case v.Of == EntrySym:
		return Sym{}
	case v.Of == CallerSym, v.Of == ConstSym, v.Of == ParamSym && v.Ref.Param != Receiver:
		return v
	}
	return Unknown
}

// SymAt returns what e holds in a function with signature sig: a constant
// (through conversions), a parameter or a path inside one, or the
// expression; nil is unknown.
func SymAt(lc Locator, sig *types.Signature, e ast.Expr) Sym {
	if e == nil {
		return Unknown
	}
	if n, ok := intThrough(lc.Info, e); ok {
		return Sym{Of: ConstSym, N: n}
	}
	x := StripConversions(lc.Info, e)
	if l, ok := lc.Of(x); ok {
		if ref, ok := RefOf(sig, l); ok {
			return Sym{Of: ParamSym, Ref: ref}
		}
	}
	return Sym{Of: ExprSym, Expr: types.ExprString(x)}
}

// At maps a summary's v to the caller's at call, in a caller with
// signature sig whose own is current.
func (v Sym) At(p Pointers, sig *types.Signature, call *ast.CallExpr, current Sym) Sym {
	switch v.Of {
	case CallerSym:
		return current
	case ParamSym:
	default:
		return v
	}
	e, l, ok := p.At(v.Ref, call)
	if ok && l.Path != "" && strings.Contains(v.Ref.Path, ".") {
		// r.id of the caller's g: it is g.id, named as the caller names it.
		if ref, ok := RefOf(sig, l); ok {
			return Sym{Of: ParamSym, Ref: ref}
		}
		return Sym{Of: ExprSym, Expr: l.String()}
	}
	if ok || e != nil {
		return SymAt(p.Locator, sig, e)
	}
	return Unknown
}

// intThrough returns the constant integer value of e, or of e without its
// conversions (C.int(1)), Go's or C's (cgocall.IntValue).
func intThrough(info *types.Info, e ast.Expr) (int64, bool) {
	if v, ok := cgocall.IntValue(info, e); ok {
		return v, true
	}
	return cgocall.IntValue(info, StripConversions(info, e))
}

// SmallSet is a set of small constants, 0 to 7 (a copy kind picked at run
// time, bit k for value k).
type SmallSet uint8

// smallSetOf returns the set holding v alone; false when v is out of range.
func smallSetOf(v int64) (SmallSet, bool) {
	if v < 0 || v > 7 {
		return 0, false
	}
	return 1 << v, true
}

// Has reports whether v is in s.
func (s SmallSet) Has(v int64) bool {
	t, ok := smallSetOf(v)
	return ok && s&t != 0
}

// Only reports whether s holds v and nothing else.
func (s SmallSet) Only(v int64) bool {
	t, ok := smallSetOf(v)
	return ok && s == t
}

// SmallSetAt returns the constants e may hold: its value, through
// conversions, or, for a variable, what vars says it holds on this path.
func SmallSetAt(info *types.Info, e ast.Expr, vars map[types.Object]SmallSet) (SmallSet, bool) {
	if e == nil {
		return 0, false
	}
	if v, ok := intThrough(info, e); ok {
		return smallSetOf(v)
	}
	if id, ok := StripConversions(info, e).(*ast.Ident); ok {
		s, ok := vars[objOf(info, id)]
		return s, ok
	}
	return 0, false
}
