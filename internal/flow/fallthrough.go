package flow

import (
	"go/ast"
	"go/token"
)

// FallsThrough reports whether every path that runs the call at first, in
// a case clause of a switch statement in body, goes on through the
// fallthrough statements that end that clause and the clauses it falls
// into to the call at second. Both calls must be in plain statements of
// their clauses (an expression, assignment or declaration, not in a branch,
// loop or closure of the clause), and no statement between them may leave
// (return, break, continue, goto, panic).
//
// A forward analysis joins, at the head of a case clause, the state the
// clause before falls through with the switch's own: a release in the
// first clause is then a release on some paths only, which analyzers do
// not report as released twice (branches that release on either side are
// correlated too often). A fallthrough is not a branch: the path through
// both clauses releases twice.
func FallsThrough(body *ast.BlockStmt, first, second token.Pos) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if found {
			return false
		}
		sw, ok := n.(*ast.SwitchStmt)
		if !ok || !(sw.Body.Pos() <= first && second < sw.Body.End()) {
			return true
		}
		found = fallsThrough(sw, first, second)
		return !found
	})
	return found
}

func fallsThrough(sw *ast.SwitchStmt, first, second token.Pos) bool {
	var clauses []*ast.CaseClause
	for _, st := range sw.Body.List {
		if cc, ok := st.(*ast.CaseClause); ok {
			clauses = append(clauses, cc)
		}
	}
	i, si := plainStmtAt(clauses, first)
	j, sj := plainStmtAt(clauses, second)
	if i < 0 || j <= i {
		return false
	}
	// From the statement after first's to the one before second's, every
	// clause from i to j-1 ending in fallthrough.
	for k := i; k <= j; k++ {
		list := clauses[k].Body
		from, to := 0, len(list)
		if k == i {
			from = si + 1
		}
		if k == j {
			to = sj
		} else {
			last, ok := lastStmt(list).(*ast.BranchStmt)
			if !ok || last.Tok != token.FALLTHROUGH {
				return false
			}
			to = len(list) - 1
		}
		for _, st := range list[from:max(from, to)] {
			if leaves(st) {
				return false
			}
		}
	}
	return true
}

func lastStmt(list []ast.Stmt) ast.Stmt {
	if len(list) == 0 {
		return nil
	}
	return list[len(list)-1]
}

// plainStmtAt returns the clause and the index in its body of the plain
// statement (an expression, assignment or declaration) that holds pos
// outside any closure; -1 if none does.
func plainStmtAt(clauses []*ast.CaseClause, pos token.Pos) (int, int) {
	for i, cc := range clauses {
		for k, st := range cc.Body {
			if pos < st.Pos() || pos >= st.End() {
				continue
			}
			switch st.(type) {
			case *ast.ExprStmt, *ast.AssignStmt, *ast.DeclStmt:
			default:
				return -1, -1
			}
			inLit := false
			ast.Inspect(st, func(n ast.Node) bool {
				if lit, ok := n.(*ast.FuncLit); ok && lit.Pos() <= pos && pos < lit.End() {
					inLit = true
				}
				return !inLit
			})
			if inLit {
				return -1, -1
			}
			return i, k
		}
	}
	return -1, -1
}

// leaves reports whether st may leave the statement list it is in: a
// return, a branch statement, or a call of panic (closures aside).
func leaves(st ast.Stmt) bool {
	out := false
	ast.Inspect(st, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt, *ast.BranchStmt:
			out = true
		case *ast.CallExpr:
			if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok && id.Name == "panic" {
				out = true
			}
		}
		return !out
	})
	return out
}
