package cgocall

import (
	"go/ast"
	"go/types"
	"regexp"
	"strings"
)

// cgoNames are the names cgo rewrites C.x to; cgoParenNames are those
// that cgo parenthesizes ((_Cfunc_x)(n)): the parentheses go with them, and
// only then ((*_Ctype_float)(p) keeps its own).
var (
	cgoNames      = regexp.MustCompile(`_C(?:2?func|type|macro|var|fpvar)_(\w+)`)
	cgoParenNames = regexp.MustCompile(`\(_C(?:2?func|type|macro|var|fpvar)_(\w+)\)`)
)

// UserText returns e as the user wrote it, for messages: cgo's names
// (_Cfunc_x, _Ctype_x, _CMalloc) are C.x again.
func UserText(e ast.Expr) string {
	s := cgoParenNames.ReplaceAllString(types.ExprString(e), "C.$1")
	s = cgoNames.ReplaceAllString(s, "C.$1")
	return strings.ReplaceAll(s, "C._CMalloc", "C.malloc")
}
