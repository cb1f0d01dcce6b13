package flow

import (
	"go/ast"
	"go/token"

	"golang.org/x/tools/go/analysis"
)

// FixAfterCheck offers a fix, message, that inserts text on the line after
// the error check (ErrorCheck) of the statement of body that holds n
// (EnclosingStmt): a cleanup deferred there runs once, and only for a call
// that succeeded. There is none (nil) when n is in no such statement, the
// statement has no such check or is inside a loop (a defer there runs at
// function exit, once per iteration), or the check ends the file.
func FixAfterCheck(fset *token.FileSet, body *ast.BlockStmt, n ast.Node, message, text string) []analysis.SuggestedFix {
	stmt := enclosingStmt(body, n)
	if stmt == nil {
		return nil
	}
	check := errorCheck(body, stmt)
	if check == nil || inLoop(body, stmt) {
		return nil
	}
	edit, ok := lineAfter(fset, check, text)
	if !ok {
		return nil
	}
	return []analysis.SuggestedFix{{Message: message, TextEdits: []analysis.TextEdit{edit}}}
}
