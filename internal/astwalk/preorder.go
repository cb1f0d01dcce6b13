// Package astwalk walks syntax trees for hiplint's analyzers and engine.
package astwalk

import "go/ast"

// Preorder calls f for n and the nodes under it in the order ast.Inspect
// visits them, and skips the children of a node for which f returns false,
// as ast.Inspect does. Unlike ast.Inspect it never calls f(nil) after a
// node's children: the engine's walks do not look at the end of a node, and
// the extra call, with ast.Walk's visitor interface on every node, made
// ast.Inspect about half of their cost (docs/performance.md). A nil n is not
// visited. TestPreorderMatchesInspect checks the order against ast.Inspect
// over the standard library's go/ast, go/types and net/http sources.
//
// The recursion follows the syntax tree, as ast.Inspect's does: its depth
// is the nesting depth of the source, which go/parser bounds.
func Preorder(n ast.Node, f func(ast.Node) bool) {
	if n == nil || !f(n) {
		return
	}
	switch n := n.(type) {
	case *ast.Comment, *ast.BadExpr, *ast.Ident, *ast.BasicLit, *ast.BadStmt, *ast.EmptyStmt, *ast.BadDecl:
		// no children
	case *ast.CommentGroup:
		preorderList(n.List, f)
	case *ast.Field:
		if n.Doc != nil {
			Preorder(n.Doc, f)
		}
		preorderList(n.Names, f)
		preorderExpr(n.Type, f)
		if n.Tag != nil {
			Preorder(n.Tag, f)
		}
		if n.Comment != nil {
			Preorder(n.Comment, f)
		}
	case *ast.FieldList:
		preorderList(n.List, f)

	// Expressions and types.
	case *ast.Ellipsis:
		preorderExpr(n.Elt, f)
	case *ast.FuncLit:
		if n.Type != nil {
			Preorder(n.Type, f)
		}
		if n.Body != nil {
			Preorder(n.Body, f)
		}
	case *ast.CompositeLit:
		preorderExpr(n.Type, f)
		preorderList(n.Elts, f)
	case *ast.ParenExpr:
		preorderExpr(n.X, f)
	case *ast.SelectorExpr:
		preorderExpr(n.X, f)
		if n.Sel != nil {
			Preorder(n.Sel, f)
		}
	case *ast.IndexExpr:
		preorderExpr(n.X, f)
		preorderExpr(n.Index, f)
	case *ast.IndexListExpr:
		preorderExpr(n.X, f)
		preorderList(n.Indices, f)
	case *ast.SliceExpr:
		preorderExpr(n.X, f)
		preorderExpr(n.Low, f)
		preorderExpr(n.High, f)
		preorderExpr(n.Max, f)
	case *ast.TypeAssertExpr:
		preorderExpr(n.X, f)
		preorderExpr(n.Type, f)
	case *ast.CallExpr:
		preorderExpr(n.Fun, f)
		preorderList(n.Args, f)
	case *ast.StarExpr:
		preorderExpr(n.X, f)
	case *ast.UnaryExpr:
		preorderExpr(n.X, f)
	case *ast.BinaryExpr:
		preorderExpr(n.X, f)
		preorderExpr(n.Y, f)
	case *ast.KeyValueExpr:
		preorderExpr(n.Key, f)
		preorderExpr(n.Value, f)
	case *ast.ArrayType:
		preorderExpr(n.Len, f)
		preorderExpr(n.Elt, f)
	case *ast.StructType:
		if n.Fields != nil {
			Preorder(n.Fields, f)
		}
	case *ast.FuncType:
		if n.TypeParams != nil {
			Preorder(n.TypeParams, f)
		}
		if n.Params != nil {
			Preorder(n.Params, f)
		}
		if n.Results != nil {
			Preorder(n.Results, f)
		}
	case *ast.InterfaceType:
		if n.Methods != nil {
			Preorder(n.Methods, f)
		}
	case *ast.MapType:
		preorderExpr(n.Key, f)
		preorderExpr(n.Value, f)
	case *ast.ChanType:
		preorderExpr(n.Value, f)

	// Statements.
	case *ast.DeclStmt:
		Preorder(n.Decl, f)
	case *ast.LabeledStmt:
		if n.Label != nil {
			Preorder(n.Label, f)
		}
		Preorder(n.Stmt, f)
	case *ast.ExprStmt:
		preorderExpr(n.X, f)
	case *ast.SendStmt:
		preorderExpr(n.Chan, f)
		preorderExpr(n.Value, f)
	case *ast.IncDecStmt:
		preorderExpr(n.X, f)
	case *ast.AssignStmt:
		preorderList(n.Lhs, f)
		preorderList(n.Rhs, f)
	case *ast.GoStmt:
		if n.Call != nil {
			Preorder(n.Call, f)
		}
	case *ast.DeferStmt:
		if n.Call != nil {
			Preorder(n.Call, f)
		}
	case *ast.ReturnStmt:
		preorderList(n.Results, f)
	case *ast.BranchStmt:
		if n.Label != nil {
			Preorder(n.Label, f)
		}
	case *ast.BlockStmt:
		preorderList(n.List, f)
	case *ast.IfStmt:
		Preorder(n.Init, f)
		preorderExpr(n.Cond, f)
		if n.Body != nil {
			Preorder(n.Body, f)
		}
		Preorder(n.Else, f)
	case *ast.CaseClause:
		preorderList(n.List, f)
		preorderList(n.Body, f)
	case *ast.SwitchStmt:
		Preorder(n.Init, f)
		preorderExpr(n.Tag, f)
		if n.Body != nil {
			Preorder(n.Body, f)
		}
	case *ast.TypeSwitchStmt:
		Preorder(n.Init, f)
		Preorder(n.Assign, f)
		if n.Body != nil {
			Preorder(n.Body, f)
		}
	case *ast.CommClause:
		Preorder(n.Comm, f)
		preorderList(n.Body, f)
	case *ast.SelectStmt:
		if n.Body != nil {
			Preorder(n.Body, f)
		}
	case *ast.ForStmt:
		Preorder(n.Init, f)
		preorderExpr(n.Cond, f)
		Preorder(n.Post, f)
		if n.Body != nil {
			Preorder(n.Body, f)
		}
	case *ast.RangeStmt:
		preorderExpr(n.Key, f)
		preorderExpr(n.Value, f)
		preorderExpr(n.X, f)
		if n.Body != nil {
			Preorder(n.Body, f)
		}

	// Declarations.
	case *ast.ImportSpec:
		if n.Doc != nil {
			Preorder(n.Doc, f)
		}
		if n.Name != nil {
			Preorder(n.Name, f)
		}
		if n.Path != nil {
			Preorder(n.Path, f)
		}
		if n.Comment != nil {
			Preorder(n.Comment, f)
		}
	case *ast.ValueSpec:
		if n.Doc != nil {
			Preorder(n.Doc, f)
		}
		preorderList(n.Names, f)
		preorderExpr(n.Type, f)
		preorderList(n.Values, f)
		if n.Comment != nil {
			Preorder(n.Comment, f)
		}
	case *ast.TypeSpec:
		if n.Doc != nil {
			Preorder(n.Doc, f)
		}
		if n.Name != nil {
			Preorder(n.Name, f)
		}
		if n.TypeParams != nil {
			Preorder(n.TypeParams, f)
		}
		preorderExpr(n.Type, f)
		if n.Comment != nil {
			Preorder(n.Comment, f)
		}
	case *ast.GenDecl:
		if n.Doc != nil {
			Preorder(n.Doc, f)
		}
		preorderList(n.Specs, f)
	case *ast.FuncDecl:
		if n.Doc != nil {
			Preorder(n.Doc, f)
		}
		if n.Recv != nil {
			Preorder(n.Recv, f)
		}
		if n.Name != nil {
			Preorder(n.Name, f)
		}
		if n.Type != nil {
			Preorder(n.Type, f)
		}
		if n.Body != nil {
			Preorder(n.Body, f)
		}
	case *ast.File:
		// Like ast.Walk, not the file's comment list: its comment groups
		// are visited where they are attached.
		if n.Doc != nil {
			Preorder(n.Doc, f)
		}
		if n.Name != nil {
			Preorder(n.Name, f)
		}
		preorderList(n.Decls, f)
	default:
		// A node this walk does not know (a future go/ast type, or the
		// deprecated *ast.Package): ast.Inspect knows it. Its children
		// are visited, and n itself was visited above.
		first := true
		ast.Inspect(n, func(m ast.Node) bool {
			if first {
				first = false
				return true
			}
			if m == nil {
				return false
			}
			Preorder(m, f)
			return false
		})
	}
}

// preorderExpr visits an optional expression child.
func preorderExpr(e ast.Expr, f func(ast.Node) bool) {
	if e != nil {
		Preorder(e, f)
	}
}

func preorderList[N ast.Node](list []N, f func(ast.Node) bool) {
	for _, n := range list {
		Preorder(n, f)
	}
}
