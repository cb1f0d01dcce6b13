package flow

import (
	"go/ast"
	"go/types"
	"slices"
	"strconv"
	"strings"
)

// GlobalRef names, for a function's callers, memory held in a
// package-level variable of the function's package (a map of cached
// buffers that generated wrappers write): the variable's name and a path in
// which each element index is either written as a constant ("[\"y\"]",
// "[0]") or names a parameter ("[p0]": the caller's argument for parameter
// 0, as the caller writes it). Ref is its counterpart for parameters.
type GlobalRef struct {
	Name string
	Path string
}

func (g GlobalRef) String() string { return "g." + g.Name + g.Path }

// IsZero reports whether g names nothing.
func (g GlobalRef) IsZero() bool { return g.Name == "" }

// GlobalRefOf returns the GlobalRef of l in a function of package pkg with
// signature sig: l must be rooted at a package-level variable of pkg, and
// each of its element indexes a constant or a parameter's name (as the
// Locator's Index hook wrote them, types.ExprString of the index).
func GlobalRefOf(pkg *types.Package, sig *types.Signature, l Loc) (GlobalRef, bool) {
	v, ok := l.Root.(*types.Var)
	if !ok || v.Pkg() != pkg || v.Parent() != pkg.Scope() || sig == nil {
		return GlobalRef{}, false
	}
	var b strings.Builder
	for _, seg := range segments(l.Path) {
		index, isIndex := strings.CutPrefix(seg, "[")
		if !isIndex {
			b.WriteString(seg)
			continue
		}
		index = strings.TrimSuffix(index, "]")
		switch {
		case index == "":
			return GlobalRef{}, false
		case index[0] == '"' || index[0] == '`' || index[0] >= '0' && index[0] <= '9':
			b.WriteString(seg)
		default:
			i := -1
			for j := range sig.Params().Len() {
				if sig.Params().At(j).Name() == index {
					i = j
					break
				}
			}
			if i < 0 {
				return GlobalRef{}, false
			}
			b.WriteString("[p" + strconv.Itoa(i) + "]")
		}
	}
	return GlobalRef{Name: v.Name(), Path: b.String()}, true
}

// At returns the caller's location for g at call of a function of package
// pkg: the variable, with each parameter index replaced by the caller's
// argument as written.
func (g GlobalRef) At(pkg *types.Package, call *ast.CallExpr) (Loc, bool) {
	v, ok := pkg.Scope().Lookup(g.Name).(*types.Var)
	if !ok {
		return Loc{}, false
	}
	segs := segments(g.Path)
	out := slices.Clone(segs)
	for k, seg := range segs {
		digits, ok := strings.CutPrefix(seg, "[p")
		if !ok {
			continue
		}
		i, err := strconv.Atoi(strings.TrimSuffix(digits, "]"))
		if err != nil {
			continue
		}
		arg := argAt(call, i)
		if arg == nil {
			return Loc{}, false
		}
		out[k] = "[" + types.ExprString(arg) + "]"
	}
	return Loc{Root: v, Path: strings.Join(out, "")}, true
}
