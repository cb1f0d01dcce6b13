package flow

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/hiplint/hiplint/internal/cgocall"
	"github.com/hiplint/hiplint/internal/hipapi"
)

// CreatedInto calls yield for each runtime call of the package with role
// (StreamCreate, EventCreate, ...) whose out argument is &v for a struct
// field or a package-level variable v of pkg (C.hipStreamCreateWithFlags(
// &w.stream, flags)): handles kept beyond the function that made them, so
// that what every creation says about them (their flags) holds wherever
// they are used. The direct calls inside cgo's wrappers take cgo's
// temporaries, not &v, and are passed over.
func (x *Index) CreatedInto(pkg *types.Package, role hipapi.Role, yield func(v *types.Var, c *cgocall.Call)) {
	for _, c := range x.RuntimeCalls() {
		if c.Func.Role != role {
			continue
		}
		u, ok := ast.Unparen(c.Arg(c.Func.Out)).(*ast.UnaryExpr)
		if !ok || u.Op != token.AND {
			continue
		}
		if v := fieldOrGlobal(x.info, u.X); v != nil && v.Pkg() == pkg {
			yield(v, c)
		}
	}
}
