package main

import (
	"bytes"
	"encoding/json"
	"go/ast"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
)

// These tests run the driver in process with analyzers of their own, so that
// the driver's output, fix mapping and failure handling are tested apart
// from what the real analyzers find.

// loadMarker reports every module load (C.hipModuleLoad*, which analyzers
// see as a call of _Cfunc_hipModuleLoad*) and suggests inserting a comment
// line after the function-level statement that contains it, the way
// modulebalance inserts its deferred unload. It requires inspect.Analyzer to
// check that guarded analyzers still find their prerequisites' results.
var loadMarker = &analysis.Analyzer{
	Name:     "loadmarker",
	Doc:      "test analyzer: marks module loads",
	Requires: []*analysis.Analyzer{inspect.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
		ins.WithStack([]ast.Node{(*ast.CallExpr)(nil)}, func(n ast.Node, push bool, stack []ast.Node) bool {
			stmt := topLevelStmt(stack)
			if !push || !isModuleLoad(n) || stmt == nil {
				return true
			}
			tf := pass.Fset.File(stmt.End())
			insertAt := tf.LineStart(tf.PositionFor(stmt.End(), false).Line + 1)
			pass.Report(analysis.Diagnostic{
				Pos:      n.Pos(),
				Category: "TEST1",
				Message:  "module load",
				Related:  []analysis.RelatedInformation{{Pos: stmt.End() - 1, Message: "statement ends here"}},
				SuggestedFixes: []analysis.SuggestedFix{{
					Message:   "mark the load",
					TextEdits: []analysis.TextEdit{{Pos: insertAt, End: insertAt, NewText: []byte("\t// loaded above\n")}},
				}},
			})
			return true
		})
		return nil, nil
	},
}

// rewriter suggests renaming the loaded function where cgo rewrote the
// user's C.name: no edit can be placed there exactly.
var rewriter = &analysis.Analyzer{
	Name: "rewriter",
	Doc:  "test analyzer: suggests edits inside cgo-rewritten code",
	Run: func(pass *analysis.Pass) (any, error) {
		for _, f := range pass.Files {
			ast.Inspect(f, func(n ast.Node) bool {
				if isModuleLoad(n) {
					fun := n.(*ast.CallExpr).Fun
					pass.Report(analysis.Diagnostic{
						Pos: n.Pos(), Category: "TEST2", Message: "rename",
						SuggestedFixes: []analysis.SuggestedFix{{
							Message:   "rename",
							TextEdits: []analysis.TextEdit{{Pos: fun.Pos(), End: fun.End(), NewText: []byte("other")}},
						}},
					})
				}
				return true
			})
		}
		return nil, nil
	},
}

var panicker = &analysis.Analyzer{
	Name: "panicker",
	Doc:  "test analyzer: panics",
	Run:  func(*analysis.Pass) (any, error) { panic("boom") },
}

func isModuleLoad(n ast.Node) bool {
	call, ok := n.(*ast.CallExpr)
	if !ok {
		return false
	}
	id, ok := call.Fun.(*ast.Ident)
	return ok && strings.HasPrefix(id.Name, "_Cfunc_hipModuleLoad")
}

// topLevelStmt returns the statement of the enclosing function's body that
// holds the innermost node of stack: cgo wraps calls in function literals,
// so the nearest statement is often inside the wrapper.
func topLevelStmt(stack []ast.Node) ast.Stmt {
	for i, n := range stack {
		if _, ok := n.(*ast.FuncDecl); ok && i+2 < len(stack) {
			stmt, _ := stack[i+2].(ast.Stmt)
			return stmt
		}
	}
	return nil
}

// runDriver runs the driver in dir with analyzers and returns its output.
func runDriver(t *testing.T, dir string, analyzers []*analysis.Analyzer, args ...string) result {
	t.Helper()
	var stdout, stderr bytes.Buffer
	p := &program{analyzers: analyzers, stdout: &stdout, stderr: &stderr, dir: dir}
	code := p.main(args)
	res := result{stdout: stdout.String(), stderr: stderr.String(), code: code}
	t.Logf("hiplint %v: exit %d\nstdout:\n%s\nstderr:\n%s", args, code, res.stdout, res.stderr)
	return res
}

func TestDriverPrintsFindingsWithIDsAndRelatedPositions(t *testing.T) {
	t.Parallel()
	dir := sharedFixture(t)
	res := runDriver(t, dir, []*analysis.Analyzer{loadMarker}, "./...")
	assert.Equal(t, exitFindings, res.code)
	assert.Regexp(t, `^leak.go:28:\d+: module load \(TEST1\)\n\tleak.go:30:2: statement ends here\n$`, res.stdout)
	assert.Equal(t, headersNote(t, hipHeader), res.stderr)
}

func TestDriverMapsFixesFromCgoOutputToUserFiles(t *testing.T) {
	t.Parallel()
	dir := fixtureModule(t)
	file := filepath.Join(dir, "leak.go")
	before := readFile(t, file)

	res := runDriver(t, dir, []*analysis.Analyzer{loadMarker}, "-diff", "./...")
	assert.Equal(t, exitFindings, res.code)
	assert.Equal(t, `--- leak.go
+++ leak.go
@@ -28,6 +28,7 @@
 	if err := check(C.hipModuleLoadData(&m, image)); err != nil {
 		return err
 	}
+	// loaded above
 	var f C.hipFunction_t
 	if err := check(C.hipModuleGetFunction(&f, m, name)); err != nil {
 		return err
`, res.stdout)
	assert.Equal(t, before, readFile(t, file), "-diff changes nothing")

	res = runDriver(t, dir, []*analysis.Analyzer{loadMarker}, "-fix", "./...")
	assert.Equal(t, exitClean, res.code)
	assert.Equal(t, strings.Replace(before, "\t\treturn err\n\t}\n", "\t\treturn err\n\t}\n\t// loaded above\n", 1), readFile(t, file))
	assert.Contains(t, res.stderr, "applied 1 of 1 suggested fixes to 1 file")
}

func TestDriverRefusesEditsWhereCgoRewroteTheLine(t *testing.T) {
	t.Parallel()
	dir := fixtureModule(t)
	file := filepath.Join(dir, "leak.go")
	before := readFile(t, file)

	res := runDriver(t, dir, []*analysis.Analyzer{rewriter}, "-fix", "./...")
	assert.Equal(t, exitFindings, res.code, "the finding remains")
	assert.Contains(t, res.stderr, "cgo rewrote that part of the line")
	assert.Regexp(t, `^leak.go:28:\d+: rename \(TEST2\)\n$`, res.stdout)
	assert.Equal(t, before, readFile(t, file))
}

func TestDriverJSONEditsAreOffsetsInUserFiles(t *testing.T) {
	t.Parallel()
	dir := sharedFixture(t)
	res := runDriver(t, dir, []*analysis.Analyzer{loadMarker}, "-json", "./...")
	assert.Equal(t, exitFindings, res.code)

	var tree map[string]map[string][]jsonDiagnostic
	require.NoError(t, json.Unmarshal([]byte(res.stdout), &tree))
	diags := tree["example.com/leak"]["loadmarker"]
	require.Len(t, diags, 1)
	assert.Equal(t, "TEST1", diags[0].Category)
	assert.Regexp(t, `/leak.go:28:\d+$`, diags[0].Posn)
	require.Len(t, diags[0].SuggestedFixes, 1)
	edits := diags[0].SuggestedFixes[0].Edits
	require.Len(t, edits, 1)
	assert.Equal(t, filepath.Join(dir, "leak.go"), edits[0].Filename)
	src := readFile(t, edits[0].Filename)
	assert.True(t, strings.HasSuffix(src[:edits[0].Start], "\t\treturn err\n\t}\n"), "edit at %d", edits[0].Start)
	assert.Equal(t, edits[0].Start, edits[0].End)
}

func TestDriverSurvivesAnalyzerPanic(t *testing.T) {
	t.Parallel()
	dir := sharedFixture(t)
	const msg = "hiplint: internal error: analyzer panicker panicked on package example.com/leak: boom"

	res := runDriver(t, dir, []*analysis.Analyzer{panicker, loadMarker}, "./...")
	assert.Equal(t, exitFindings, res.code, "the other analyzer's findings are reported")
	assert.Contains(t, res.stdout, "(TEST1)")
	assert.Contains(t, res.stderr, msg)
	assert.NotContains(t, res.stderr, "goroutine ")

	res = runDriver(t, dir, []*analysis.Analyzer{panicker, loadMarker}, "-panicker", "-debug", "./...")
	assert.Equal(t, exitError, res.code)
	assert.Empty(t, res.stdout)
	assert.Contains(t, res.stderr, msg)
	assert.Contains(t, res.stderr, "goroutine ", "-debug prints the stack")
}

func TestDriverAnalyzerFlags(t *testing.T) {
	t.Parallel()
	dir := sharedFixture(t)
	both := []*analysis.Analyzer{loadMarker, rewriter}

	res := runDriver(t, dir, both, "-rewriter", "./...")
	assert.Contains(t, res.stdout, "(TEST2)")
	assert.NotContains(t, res.stdout, "(TEST1)")

	res = runDriver(t, dir, both, "-rewriter=false", "./...")
	assert.Contains(t, res.stdout, "(TEST1)")
	assert.NotContains(t, res.stdout, "(TEST2)")

	res = runDriver(t, dir, both, "-rewriter=false", "-loadmarker=false", "./...")
	assert.Equal(t, exitClean, res.code)
	assert.Empty(t, res.stdout)
}
