package flow

import (
	"go/ast"
	"go/types"
	"sort"
)

// BorrowedParams returns the parameters of sig (-1 is the receiver) of a
// type holds accepts that body uses only inside the ranges safe returns: it
// neither keeps nor releases them. An alias of a parameter (ParamAliases:
// aliases and the definitions defs) whose type holds accepts stands for it,
// and its definition is safe: `mod := C.CUmodule(unsafe.Pointer(uintptr(m)))`
// is m; one that holds no more (u := uintptr(...)) is the value escaping.
// safe is called only when some parameter qualifies.
func BorrowedParams(info *types.Info, body *ast.BlockStmt, sig *types.Signature, holds func(types.Type) bool,
	aliases map[types.Object]types.Object, defs map[types.Object]ast.Expr, safe func() []PosRange) []int {
	candidates := map[types.Object]int{}
	for i, p := range Params(sig) {
		if holds(p.Type()) {
			candidates[p] = i
		}
	}
	if len(candidates) == 0 {
		return nil
	}
	var ranges []PosRange
	for alias, p := range aliases {
		if i, ok := candidates[p]; ok && holds(alias.Type()) {
			candidates[alias] = i
			ranges = append(ranges, PosRange{Pos: defs[alias].Pos(), End: defs[alias].End()})
		}
	}
	escaped := map[int]bool{}
	for obj := range usedOutside(info, body, candidates, append(ranges, safe()...)) {
		escaped[candidates[obj]] = true
	}
	var out []int
	for obj, i := range candidates {
		if _, isAlias := aliases[obj]; !isAlias && !escaped[i] {
			out = append(out, i)
		}
	}
	sort.Ints(out)
	return out
}
