package flow

import (
	"go/ast"
	"go/token"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// LineBefore returns an edit that inserts text, indented as the statement
// is, on a line of its own before the statement of body that holds anchor
// (the innermost statement whose parent is a block), and that statement.
// It gives up where the statement shares its line with the one before it.
//
// The edit uses raw positions: it applies to the analyzed file, whose
// //line directives map it back to the user's file (token.File.Line is the
// adjusted line and must not be used here).
func LineBefore(fset *token.FileSet, body *ast.BlockStmt, anchor ast.Node, text string) (analysis.TextEdit, ast.Stmt, bool) {
	var stmt ast.Stmt
	var block *ast.BlockStmt
	for n := anchor; n != nil; n = Parent(body, n) {
		if st, ok := n.(ast.Stmt); ok {
			if b, ok := Parent(body, n).(*ast.BlockStmt); ok {
				stmt, block = st, b
				break
			}
		}
	}
	if stmt == nil {
		return analysis.TextEdit{}, nil, false
	}
	prevEnd := block.Lbrace
	// By position, not a scan: a function of thousands of statements and
	// findings cost their product (issue 29).
	if i := sort.Search(len(block.List), func(i int) bool { return block.List[i].Pos() >= stmt.Pos() }); i > 0 && i < len(block.List) && block.List[i] == stmt {
		prevEnd = block.List[i-1].End()
	}
	start := fset.PositionFor(stmt.Pos(), false)
	if fset.PositionFor(prevEnd, false).Line >= start.Line {
		return analysis.TextEdit{}, nil, false
	}
	at := fset.File(stmt.Pos()).LineStart(start.Line)
	line := strings.Repeat("\t", max(start.Column-1, 0)) + text + "\n"
	return analysis.TextEdit{Pos: at, End: at, NewText: []byte(line)}, stmt, true
}
