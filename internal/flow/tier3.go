package flow

import (
	"go/ast"
	"go/types"
	"slices"

	"github.com/hiplint/hiplint/internal/cgocall"
)

// At tier 3 (cgo failed: "C" is a fake package, internal/cgocall/tier3.go)
// a value or field of a C type has no type. These helpers let an analyzer
// treat such values by what the syntax says they are.

// Untyped reports whether t is no type: a C type at tier 3.
func Untyped(t types.Type) bool {
	b, ok := t.(*types.Basic)
	return ok && b.Kind() == types.Invalid
}

// CTypedFields returns the struct fields that files declare with one of the
// C type names (`m C.hipModule_t`), when pkg was type-checked at tier 3;
// an empty map otherwise (with cgo's types, the fields' types say it).
func CTypedFields(pkg *types.Package, info *types.Info, files []*ast.File, names []string) map[*types.Var]bool {
	out := map[*types.Var]bool{}
	if !cgocall.Unprocessed(pkg) {
		return out
	}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			if st, ok := n.(*ast.StructType); ok {
				for _, fld := range st.Fields.List {
					if name, isC := cgocall.CSelector(info, fld.Type); isC && slices.Contains(names, name) {
						for _, id := range fld.Names {
							if v, ok := info.Defs[id].(*types.Var); ok {
								out[v] = true
							}
						}
					}
				}
			}
			return true
		})
	}
	return out
}

// HoldsField reports whether t is, or points to, a struct with one of the
// fields.
func HoldsField(t types.Type, fields map[*types.Var]bool) bool {
	if len(fields) == 0 {
		return false
	}
	for range 8 {
		switch u := t.Underlying().(type) {
		case *types.Pointer:
			t = u.Elem()
			continue
		case *types.Struct:
			for i := range u.NumFields() {
				if fields[u.Field(i)] {
					return true
				}
			}
		}
		return false
	}
	return false
}
