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
