package diag

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
	"golang.org/x/tools/go/analysis"
)

var testCheck = Check{ID: "HL2001", Analyzer: "modulebalance", Title: "test", Severity: Error}

const src = `package p

//hiplint:file-ignore HL2003 whole file

func f() {
	//hiplint:ignore HL2001 the line below
	_ = 1
	_ = 2 //hiplint:ignore HL2001 this line
	_ = 3
	//hiplint:ignore HL2001
	_ = 4
	//hiplint:ignore HL2002 another check
	_ = 5
}
`

// newPass returns a pass over src that collects what is reported, and the
// position of the start of each line.
func newPass(t *testing.T) (*analysis.Pass, *[]analysis.Diagnostic, func(line int) token.Pos) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
	require.NoError(t, err)
	var got []analysis.Diagnostic
	pass := &analysis.Pass{
		Fset:   fset,
		Files:  []*ast.File{f},
		Report: func(d analysis.Diagnostic) { got = append(got, d) },
	}
	tf := fset.File(f.Pos())
	return pass, &got, func(line int) token.Pos { return tf.LineStart(line) + 1 }
}

func reportedLines(pass *analysis.Pass, got []analysis.Diagnostic) []int {
	var lines []int
	for _, d := range got {
		lines = append(lines, pass.Fset.Position(d.Pos).Line)
	}
	return lines
}

func TestReportAppliesDirectives(t *testing.T) {
	pass, got, line := newPass(t)
	for l := 6; l <= 13; l++ {
		Report(pass, testCheck, line(l), token.NoPos, "leak", nil)
	}
	// 6, 7: the directive on 6; 8: its own trailing directive (and 9, the
	// line below it); 10, 11: the directive on 10 has no reason, so it
	// suppresses nothing; 12, 13: the directive is for another check.
	assert.Equal(t, []int{10, 11, 12, 13}, reportedLines(pass, *got))

	*got = nil
	other := Check{ID: "HL2003", Analyzer: "modulebalance"}
	Report(pass, other, line(7), token.NoPos, "use after unload", nil)
	assert.Empty(t, *got, "file-ignore covers every line")
}

func TestReportFillsTheDiagnostic(t *testing.T) {
	pass, got, line := newPass(t)
	Report(pass, testCheck, line(13), line(13)+3, "leak", []Related{{line(11), "here"}, {token.NoPos, "dropped"}})
	require.Len(t, *got, 1)
	d := (*got)[0]
	assert.Equal(t, "HL2001", d.Category)
	assert.Equal(t, "leak", d.Message)
	assert.Equal(t, DocsBase+"HL2001.md", d.URL)
	require.Len(t, d.Related, 1)
	assert.Equal(t, "here", d.Related[0].Message)
}

func TestKeepSuppressed(t *testing.T) {
	t.Parallel()
	pass, got, line := newPass(t)
	KeepSuppressed(pass)
	Report(pass, testCheck, line(7), token.NoPos, "leak", nil)
	assert.Len(t, *got, 1, "kept for the driver to filter")
	assert.True(t, Suppressed(pass, "HL2001", line(7)), "and the driver can still ask")
}

// The mark is the pass's: another pass of the same process, unmarked (go
// vet's, golangci-lint's), still drops, before and after.
func TestKeepSuppressedIsPerPass(t *testing.T) {
	t.Parallel()
	plain, plainGot, line := newPass(t)
	kept, keptGot, _ := newPass(t)
	Report(plain, testCheck, line(7), token.NoPos, "leak", nil)
	KeepSuppressed(kept)
	Report(kept, testCheck, line(7), token.NoPos, "leak", nil)
	Report(plain, testCheck, line(7), token.NoPos, "leak", nil)
	assert.Empty(t, *plainGot, "the unmarked pass drops")
	assert.Len(t, *keptGot, 1, "the marked pass keeps")
}

func TestPositionOutsideTheFilesIsNotSuppressed(t *testing.T) {
	pass, got, _ := newPass(t)
	Report(pass, testCheck, token.NoPos, token.NoPos, "nowhere", nil)
	assert.Len(t, *got, 1)
}

func TestRelatedEach(t *testing.T) {
	got := RelatedEach([]token.Pos{3, 1}, func(p token.Pos) Related { return Related{Pos: p, Message: "here"} })
	assert.Equal(t, []Related{{Pos: 3, Message: "here"}, {Pos: 1, Message: "here"}}, got)
	assert.Nil(t, RelatedEach([]int(nil), func(int) Related { return Related{} }), "none is nil, as no related positions are")
}
