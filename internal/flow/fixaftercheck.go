package flow

import (
	"go/ast"
	"go/token"

	"golang.org/x/tools/go/analysis"
)

// FixAfterCheck offers a fix, message, that inserts text on the line after
// the error check of stmt (ErrorCheck), a statement in body: a cleanup
// deferred there runs once, and only for a call that succeeded. There is
// none when stmt has no such check, is inside a loop (a defer there runs
// at function exit, once per iteration), or the check ends the file.
func FixAfterCheck(fset *token.FileSet, body *ast.BlockStmt, stmt ast.Stmt, message, text string) (analysis.SuggestedFix, bool) {
	check := ErrorCheck(body, stmt)
	if check == nil || InLoop(body, stmt) {
		return analysis.SuggestedFix{}, false
	}
	edit, ok := LineAfter(fset, check, text)
	if !ok {
		return analysis.SuggestedFix{}, false
	}
	return analysis.SuggestedFix{Message: message, TextEdits: []analysis.TextEdit{edit}}, true
}
