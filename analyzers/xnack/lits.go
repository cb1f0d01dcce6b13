package xnack

import (
	"github.com/hiplint/hiplint/internal/flow"
	"go/ast"
)

// LitsByDecl groups the function literals of funcs (Index.Funcs: each
// declaration followed by the literals inside it, in source order) by the
// declaration they are written in; literals outside any declaration (var f
// = func() {...}) are orphans. An analyzer that summarizes a declaration
// together with its literals (which run where they are written, or are its
// goroutines and deferred calls) analyzes them innermost first: in reverse.
func litsByDecl(funcs []flow.Func) (byDecl map[*ast.FuncDecl][]*ast.FuncLit, orphans []*ast.FuncLit) {
	byDecl = map[*ast.FuncDecl][]*ast.FuncLit{}
	var decl *ast.FuncDecl
	for _, fn := range funcs {
		switch {
		case fn.Decl != nil:
			decl = fn.Decl
		case decl != nil && decl.Pos() <= fn.Lit.Pos() && fn.Lit.End() <= decl.End():
			byDecl[decl] = append(byDecl[decl], fn.Lit)
		default:
			orphans = append(orphans, fn.Lit)
		}
	}
	return byDecl, orphans
}
