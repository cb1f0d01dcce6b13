package cgocall

import (
	"go/ast"
	"go/types"
	"regexp"
	"strings"
)

// cgoNames are the names cgo rewrites C.x to.
var cgoNames = regexp.MustCompile(`\(?_C(?:2?func|type|macro|var|fpvar)_(\w+)\)?`)

// UserText returns e as the user wrote it, for messages: cgo's names
// (_Cfunc_x, _Ctype_x, _CMalloc) are C.x again.
func UserText(e ast.Expr) string {
	s := cgoNames.ReplaceAllString(types.ExprString(e), "C.$1")
	return strings.ReplaceAll(s, "C._CMalloc", "C.malloc")
}
