package flow

import (
	"go/ast"
	"testing"

	"github.com/hiplint/hiplint/internal/diag"
	"github.com/hiplint/hiplint/internal/testenv/assert"
	"golang.org/x/tools/go/analysis"
)

func TestFindings(t *testing.T) {
	c := check(t, "package p\n\nfunc f() {}\n\nfunc g() {}\n")
	var got []analysis.Diagnostic
	pass := &analysis.Pass{Fset: c.fset, Files: []*ast.File{c.file}, Report: func(d analysis.Diagnostic) { got = append(got, d) }}
	a := diag.Check{ID: "HL9001", Analyzer: "test", Severity: diag.Error, Title: "a"}
	b := diag.Check{ID: "HL9002", Analyzer: "test", Severity: diag.Error, Title: "b"}
	f, g := c.file.Decls[0].Pos(), c.file.Decls[1].Pos()

	var none *Findings
	none.Report(a, f, f, "solving", nil) // nil: nothing
	assert.Empty(t, got)

	r := NewFindings(pass)
	r.Report(a, f, f, "first", nil)
	r.Report(a, f, f, "again", nil) // the same check and position: once
	r.Report(b, f, f, "other check", nil)
	r.Report(a, g, g, "other position", nil)
	r.Reportf(a, c.file.Decls[1], nil, "again at %s", "g") // reported at g before: once
	r.Reportf(b, c.file.Decls[1], nil, "formatted %d", 2)
	none.Reportf(b, c.file.Decls[1], nil, "solving")
	var msgs []string
	for _, d := range got {
		msgs = append(msgs, d.Message)
	}
	assert.Len(t, msgs, 4)
	assert.Contains(t, msgs[0], "first")
	assert.Contains(t, msgs[1], "other check")
	assert.Contains(t, msgs[2], "other position")
	assert.Contains(t, msgs[3], "formatted 2")
	assert.Equal(t, c.file.Decls[1].End(), got[3].End)
}
