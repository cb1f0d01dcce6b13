package cgocall

import (
	"go/ast"
	"go/types"

	"github.com/hiplint/hiplint/internal/hipapi"
)

// Tier 3: when cgo fails on a package (an SDK header no linter can ship, a
// clash between the user's own declarations and hiplint's, a missing
// platform macro), the drivers type-check the package's own Go files, with
// "C" as a pseudo-package whose members are unknown: go/types'
// Config.FakeImportC, or equally an import of "C" that failed (what
// go/packages does when cgo fails). go/types then records the identifier C
// as a use of a *types.PkgName for the package "C", and gives every C.x
// selector an invalid type, with no object for x and no error. The
// functions of this package read those selectors by name: C.hipMemcpy(...)
// is a runtime call, C.hipMemcpyDeviceToDevice a C constant, C.malloc(...)
// a C allocation. What stays unknown is every C type and every constant's
// value: analyzers that need them say nothing.

// CSelector returns x when e is C.x in code type-checked without cgo
// processing (tier 3). In cgo-processed code C.x no longer exists: cgo
// replaced it with _Cfunc_x, _Ctype_x, _Ciconst_x and so on.
func CSelector(info *types.Info, e ast.Expr) (string, bool) {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return "", false
	}
	id, ok := sel.X.(*ast.Ident)
	if !ok {
		return "", false
	}
	pn, ok := info.Uses[id].(*types.PkgName)
	if !ok || pn.Imported().Path() != "C" {
		return "", false
	}
	return sel.Sel.Name, true
}

// Unprocessed reports whether pkg was type-checked from its raw files with
// "C" as a pseudo-package (tier 3) rather than from cgo's output.
func Unprocessed(pkg *types.Package) bool {
	for _, imp := range pkg.Imports() {
		if imp.Path() == "C" {
			return true
		}
	}
	return false
}

// tier3Value returns the value of C.name at tier 3, where the type checker
// knows no C constant, when name is an enum constant of the runtime API
// model (hipSuccess, hipMemcpyDeviceToDevice, hipStreamNonBlocking, the
// device attributes): the model holds their values. Stream handles
// (hipStreamPerThread) are pointers, not integer constants, as in cgo's
// output.
func tier3Value(info *types.Info, e ast.Expr) (int64, bool) {
	name, ok := CSelector(info, e)
	if !ok {
		return 0, false
	}
	c, ok := hipapi.LookupConst(name)
	if !ok {
		return 0, false
	}
	switch c.Role {
	case hipapi.CopyKind, hipapi.StreamFlag, hipapi.PageableAttr, hipapi.ManagedAttr, hipapi.SuccessStatus:
		return c.Value, true
	}
	return 0, false
}

// tier3Args returns a runtime call's arguments at tier 3 with C conversions
// removed: C.CUmodule(m), C.size_t(n) are conversions the analyzers see
// through in cgo's output, but at tier 3 they are calls of unknown C names.
// A call of a C name with one argument that is neither a runtime function
// nor one of cgo's own helpers stands for a conversion here.
func tier3Args(info *types.Info, args []ast.Expr) []ast.Expr {
	var out []ast.Expr
	for i, a := range args {
		if x, ok := CConversion(info, a); ok {
			if out == nil {
				out = append([]ast.Expr(nil), args...)
			}
			out[i] = x
		}
	}
	if out == nil {
		return args
	}
	return out
}

// CConversion returns x when e is C.name(x) at tier 3 and name is taken
// for a C type (see tier3Args).
func CConversion(info *types.Info, e ast.Expr) (ast.Expr, bool) {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) != 1 || call.Ellipsis.IsValid() {
		return nil, false
	}
	name, ok := CSelector(info, call.Fun)
	if !ok {
		return nil, false
	}
	if _, fn := hipapi.Lookup(name); fn {
		return nil, false
	}
	switch name {
	case "malloc", "calloc", "free", "CString", "CBytes", "GoString", "GoStringN", "GoBytes":
		return nil, false
	}
	return call.Args[0], true
}
