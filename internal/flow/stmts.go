package flow

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// This file answers questions about where a node sits in a function body
// and about the calls that end or outlive a test, for analyzers that report
// at statements and suggest edits next to them.

// enclosingStmt returns the statement of a block in body that holds n (the
// innermost statement whose parent is a block), or nil.
func enclosingStmt(body *ast.BlockStmt, n ast.Node) ast.Stmt {
	for p := Parent(body, n); p != nil; p = Parent(body, p) {
		if st, ok := p.(ast.Stmt); ok {
			if _, isBlock := Parent(body, p).(*ast.BlockStmt); isBlock {
				return st
			}
		}
	}
	return nil
}

// inLoop reports whether n lies in the body of a for or range loop of body.
func inLoop(body *ast.BlockStmt, n ast.Node) bool {
	for p := Parent(body, n); p != nil; p = Parent(body, p) {
		switch p.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			return true
		}
	}
	return false
}

// errorCheck returns the if statement that checks the status of what stmt,
// a statement of a block in body, does and returns early: stmt itself
// (if err := f(); err != nil { return err }) or the if statement right
// after it, without an init statement, whose body ends in a return and that
// has no else. It returns nil otherwise.
func errorCheck(body *ast.BlockStmt, stmt ast.Stmt) *ast.IfStmt {
	block, ok := Parent(body, stmt).(*ast.BlockStmt)
	if !ok {
		return nil
	}
	returns := func(ifs *ast.IfStmt) bool {
		if ifs.Else != nil || len(ifs.Body.List) == 0 {
			return false
		}
		_, ok := ifs.Body.List[len(ifs.Body.List)-1].(*ast.ReturnStmt)
		return ok
	}
	if ifs, ok := stmt.(*ast.IfStmt); ok {
		if returns(ifs) {
			return ifs
		}
		return nil
	}
	for i, st := range block.List {
		if st == stmt && i+1 < len(block.List) {
			if ifs, ok := block.List[i+1].(*ast.IfStmt); ok && ifs.Init == nil && returns(ifs) {
				return ifs
			}
		}
	}
	return nil
}

// lineAfter returns an edit that inserts text on a line of its own right
// after the line where stmt ends, indented as stmt is. It gives up at the
// file's last line. Like LineBefore, it uses raw positions: the edit
// applies to the analyzed file.
func lineAfter(fset *token.FileSet, stmt ast.Node, text string) (analysis.TextEdit, bool) {
	tf := fset.File(stmt.End())
	line := tf.PositionFor(stmt.End(), false).Line
	if line >= tf.LineCount() {
		return analysis.TextEdit{}, false
	}
	at := tf.LineStart(line + 1)
	indent := strings.Repeat("\t", max(fset.PositionFor(stmt.Pos(), false).Column-1, 0))
	return analysis.TextEdit{Pos: at, End: at, NewText: fmt.Appendf(nil, "%s%s\n", indent, text)}, true
}

// ReceiverKinds says whether call calls a method with a pointer receiver
// and whether the receiver expression is itself a pointer. Deferred, a
// pointer method called on an addressable value (var k Kernel;
// defer k.Close()) binds &k and sees what k holds when it runs; called on
// a pointer variable it binds the pointer's value at the defer.
func ReceiverKinds(info *types.Info, call *ast.CallExpr) (ptrRecv, onPtr bool) {
	fn := Callee(info, call)
	if fn == nil || fn.Signature().Recv() == nil {
		return false, false
	}
	if _, ok := fn.Signature().Recv().Type().Underlying().(*types.Pointer); !ok {
		return false, false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false, false
	}
	t := info.TypeOf(sel.X)
	if t == nil {
		return false, false
	}
	_, isPtr := t.Underlying().(*types.Pointer)
	return true, isPtr
}

// IsTestCleanup reports whether fn is testing's Cleanup (T, B, F or TB):
// its function runs when the test ends, after the test's own defers.
func IsTestCleanup(fn *types.Func) bool {
	return isFunc(fn, "testing", "Cleanup")
}

// isOnceDo reports whether fn is (*sync.Once).Do.
func isOnceDo(fn *types.Func) bool {
	return isFunc(fn, "sync", "Do")
}

func isFunc(fn *types.Func, pkg, name string) bool {
	return fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == pkg && fn.Name() == name
}

// TestStop returns the call that n, a statement, makes to end the test
// (t.Fatal, t.FailNow, t.Skip...) as written ("t.Fatalf"), or "". Those run
// runtime.Goexit: the test's deferred calls run and the test binary goes
// on with the next test. log.Fatal and os.Exit, which end the process, are
// not test stops.
func TestStop(info *types.Info, n ast.Node) string {
	es, ok := n.(*ast.ExprStmt)
	if !ok {
		return ""
	}
	call, ok := ast.Unparen(es.X).(*ast.CallExpr)
	if !ok {
		return ""
	}
	fn := Callee(info, call)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "testing" {
		return ""
	}
	switch fn.Name() {
	case "Fatal", "Fatalf", "FailNow", "Skip", "Skipf", "SkipNow":
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
			return types.ExprString(sel)
		}
		return fn.Name()
	}
	return ""
}
