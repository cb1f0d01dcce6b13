package cgocall

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/hiplint/hiplint/internal/hipapi"
)

// IsStreamType reports whether t is a stream handle type of one of the
// APIs (hipapi.StreamTypes), or a pointer to the struct such a handle
// points to, as cgo spells a C function's stream parameter.
func IsStreamType(t types.Type) bool {
	for _, n := range hipapi.StreamTypes {
		if IsCType(t, n) {
			return true
		}
	}
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		for _, n := range hipapi.StreamStructs {
			if IsCType(p.Elem(), n) {
				return true
			}
		}
	}
	return false
}

// IsDevicePtrType reports whether t is a device pointer type of one of the
// APIs (hipapi.DevicePtrTypes).
func IsDevicePtrType(t types.Type) bool {
	for _, n := range hipapi.DevicePtrTypes {
		if IsCType(t, n) {
			return true
		}
	}
	return false
}

// HostReads returns the arguments that the C library function name reads on
// the host (memcpy reads its source, memcmp both sides, C.GoBytes and
// C.GoString their pointer), or nil for other functions.
func HostReads(name string) []int {
	switch name {
	case "memcpy", "memmove":
		return []int{1}
	case "memcmp":
		return []int{0, 1}
	case "GoBytes", "GoString", "GoStringN":
		return []int{0}
	}
	return nil
}

// libc lists C functions of the C library and of cgo itself: no GPU
// library routine queues work on a device through them.
var libc = []string{"malloc", "calloc", "realloc", "free", "memset", "CString", "CBytes", "strlen", "puts", "printf"}

// IsLibc reports whether name is a C library or cgo function (libc): no
// GPU library routine.
func IsLibc(name string) bool { return slices.Contains(libc, name) }

// FileUsesC reports whether the file of files holding pos refers to cgo
// names, so that an inserted C.x() call compiles.
func FileUsesC(files []*ast.File, pos token.Pos) bool {
	for _, f := range files {
		if f.FileStart <= pos && pos <= f.FileEnd {
			uses := false
			ast.Inspect(f, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok && strings.HasPrefix(id.Name, "_C") {
					uses = true
				}
				return !uses
			})
			return uses
		}
	}
	return false
}

// IsHostAlloc reports whether call allocates C heap memory with C.malloc or
// C.calloc, as cgo spells them (_CMalloc, _Cfunc_malloc, _Cfunc_calloc).
func IsHostAlloc(call *ast.CallExpr) bool {
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return false
	}
	switch id.Name {
	case "_CMalloc", "_Cfunc_malloc", "_Cfunc_calloc":
		return true
	}
	return false
}

// DefaultStream says which default stream a stream argument e names: the
// null (legacy default) stream for nil, 0 (through conversions) and the
// legacy handle constants (hipapi.NullStream), the per-thread default
// stream for its constants (hipapi.PerThreadStream), or neither (NoConst).
// An absent argument (nil e) is the null stream.
func DefaultStream(info *types.Info, e ast.Expr) hipapi.ConstRole {
	if e == nil {
		return hipapi.NullStream
	}
	x := e
	for range 16 { // conversions: C.hipStream_t(nil), (C.CUstream)(unsafe.Pointer(nil))
		if v, ok := IntValue(info, x); ok && v == 0 {
			return hipapi.NullStream
		}
		if id, ok := ast.Unparen(x).(*ast.Ident); ok {
			if _, isNil := info.Uses[id].(*types.Nil); isNil {
				return hipapi.NullStream
			}
		}
		call, ok := ast.Unparen(x).(*ast.CallExpr)
		if !ok || len(call.Args) != 1 || !info.Types[call.Fun].IsType() {
			break
		}
		x = call.Args[0]
	}
	if name, ok := ConstName(info, x); ok {
		if k, ok := hipapi.LookupConst(name); ok && (k.Role == hipapi.NullStream || k.Role == hipapi.PerThreadStream) {
			return k.Role
		}
	}
	return hipapi.NoConst
}
