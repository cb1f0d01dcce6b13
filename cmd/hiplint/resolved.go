package main

import (
	"go/token"

	"github.com/hiplint/hiplint/internal/driver"
	"github.com/hiplint/hiplint/internal/fixes"
)

// An outFinding is a finding as the output formats print it: its positions
// placed in the user's files, its fixes mapped to edits of them, the text of
// its line (SARIF's fingerprint reads it). It refers to no loaded package,
// so the result cache can keep it (docs/cache.md), and a run answered from
// the cache prints exactly what the run that analyzed it printed: both print
// outFindings.
type outFinding struct {
	PkgID    string // the package whose analysis reported it (-json's key)
	Group    string // driver.GroupPath of that package
	Analyzer string
	Category string
	Message  string
	URL      string
	Posn     token.Position
	End      string    // -json's end
	Fixes    []jsonFix // -json's suggested fixes
	Span     sarifSpan // SARIF's location
	Line     string    // the text of Posn's line, "" when unreadable
	Related  []outRelated
}

// An outRelated is a related position of an outFinding.
type outRelated struct {
	Posn    token.Position
	End     string
	Message string
	Span    sarifSpan
}

// resolve turns the driver's findings into outFindings, reading the user's
// files as the output formats do.
func resolve(found []*finding) []*outFinding {
	src := fixes.NewSources()
	out := make([]*outFinding, 0, len(found))
	for _, f := range found {
		d := f.Diagnostic
		fset := f.Pkg.Fset
		o := &outFinding{
			PkgID:    f.Pkg.ID,
			Group:    driver.GroupPath(f.Pkg),
			Analyzer: f.Analyzer,
			Category: d.Category,
			Message:  d.Message,
			URL:      d.URL,
			Posn:     f.Posn,
			End:      jsonEnd(src, f.Pkg, d.Pos, d.End),
			Fixes:    jsonFixes(src, f),
			Span:     sarifSpanOf(src, f.Pkg, d.Pos, d.End),
		}
		o.Line, _ = sourceLine(src, f.Pkg, f.Posn)
		for _, r := range d.Related {
			o.Related = append(o.Related, outRelated{
				Posn:    fset.Position(r.Pos),
				End:     jsonEnd(src, f.Pkg, r.Pos, r.End),
				Message: r.Message,
				Span:    sarifSpanOf(src, f.Pkg, r.Pos, r.End),
			})
		}
		out = append(out, o)
	}
	return out
}

// textOnly is resolve for the text format alone: positions, no file read.
func textOnly(found []*finding) []*outFinding {
	out := make([]*outFinding, 0, len(found))
	for _, f := range found {
		o := &outFinding{Category: f.Diagnostic.Category, Message: f.Diagnostic.Message, Posn: f.Posn}
		for _, r := range f.Diagnostic.Related {
			o.Related = append(o.Related, outRelated{Posn: f.Pkg.Fset.Position(r.Pos), Message: r.Message})
		}
		out = append(out, o)
	}
	return out
}
