package driver

import (
	"errors"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/packages"
)

// typeCheck type-checks p's syntax afresh with importer, as go/packages
// checks an initial package (function bodies included): new Types and
// TypesInfo, each type error appended to p.TypeErrors and p.Errors as
// go/packages records it. It returns the checker's first error. The
// synthesis' rescan (rescue.go) and the language server's edits
// (session.go) both check again this way.
func typeCheck(fset *token.FileSet, p *packages.Package, importer types.Importer) error {
	p.Types = types.NewPackage(p.PkgPath, p.Name)
	p.TypesInfo = &types.Info{
		Types:        map[ast.Expr]types.TypeAndValue{},
		Defs:         map[*ast.Ident]types.Object{},
		Uses:         map[*ast.Ident]types.Object{},
		Implicits:    map[ast.Node]types.Object{},
		Instances:    map[*ast.Ident]types.Instance{},
		Scopes:       map[ast.Node]*types.Scope{},
		Selections:   map[*ast.SelectorExpr]*types.Selection{},
		FileVersions: map[*ast.File]string{},
	}
	p.TypeErrors = nil
	tc := &types.Config{
		Importer: importer,
		Sizes:    p.TypesSizes,
		Error: func(err error) {
			var te types.Error
			if errors.As(err, &te) {
				p.TypeErrors = append(p.TypeErrors, te)
				p.Errors = append(p.Errors, packages.Error{Pos: te.Fset.Position(te.Pos).String(), Msg: te.Msg, Kind: packages.TypeError})
				return
			}
			p.Errors = append(p.Errors, packages.Error{Pos: "-", Msg: err.Error(), Kind: packages.UnknownError})
		},
	}
	if p.Module != nil && p.Module.GoVersion != "" {
		tc.GoVersion = "go" + p.Module.GoVersion
	}
	return types.NewChecker(tc, fset, p.Types, p.TypesInfo).Files(p.Syntax)
}
