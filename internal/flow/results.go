package flow

import (
	"go/ast"
	"go/types"
	"strings"
)

// ReturnStmts returns a body's own return statements, not those of the
// function literals (cgo's wrappers included) inside it.
func ReturnStmts(body *ast.BlockStmt) []*ast.ReturnStmt {
	var out []*ast.ReturnStmt
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			out = append(out, n)
		}
		return true
	})
	return out
}

// IsRawPointer reports whether t is a raw address: unsafe.Pointer,
// uintptr, a pointer to a C type, a C type that is pointer-like, or a
// handle type of the program's own over unsafe.Pointer or uintptr (type
// HostPtr uintptr).
func IsRawPointer(t types.Type) bool {
	switch u := types.Unalias(t).(type) {
	case *types.Basic:
		return u.Kind() == types.UnsafePointer || u.Kind() == types.Uintptr
	case *types.Pointer:
		n, ok := types.Unalias(u.Elem()).(*types.Named)
		return ok && strings.HasPrefix(n.Obj().Name(), "_Ctype_")
	case *types.Named:
		if strings.HasPrefix(u.Obj().Name(), "_Ctype_") {
			return pointerLike(u)
		}
		b, ok := u.Underlying().(*types.Basic)
		return ok && (b.Kind() == types.UnsafePointer || b.Kind() == types.Uintptr)
	}
	return false
}

// nonNilError reports whether an error expression returned by a function
// with results is taken to be non-nil: a new error (errors.New,
// fmt.Errorf, &E{}, E{}), or a variable other than a named result
// (returned after its != nil test). Other calls may return nil (return
// check(C.hipX(...))).
func nonNilError(info *types.Info, results *types.Tuple, e ast.Expr) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		v, ok := info.Uses[x].(*types.Var)
		for i := range results.Len() {
			if results.At(i) == v {
				return false // a named result: often still nil
			}
		}
		return ok
	case *ast.UnaryExpr, *ast.CompositeLit:
		return true
	case *ast.CallExpr:
		fn := Callee(info, x)
		if fn == nil || fn.Pkg() == nil {
			return false
		}
		switch fn.Pkg().Path() + "." + fn.Name() {
		case "errors.New", "fmt.Errorf":
			return true
		}
	}
	return false
}
