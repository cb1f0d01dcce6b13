// Package diag holds what every hiplint check shares about reporting: check
// identifiers, their documentation links, and the Report helper that stamps
// each diagnostic with its check ID as Category.
package diag

import (
	"fmt"
	"go/token"

	"golang.org/x/tools/go/analysis"
)

// DocsBase is where the per-check documentation pages live.
const DocsBase = "https://github.com/hiplint/hiplint/blob/main/docs/checks/"

// Severity of a check's findings.
type Severity string

const (
	Error   Severity = "error"
	Warning Severity = "warning"
)

// Check is one stable check ID with its documentation.
type Check struct {
	ID       string   // stable identifier, e.g. HL2001
	Analyzer string   // name of the analyzer that reports it
	Title    string   // one line: what is wrong
	Severity Severity // error or warning
}

// URL is the documentation page of the check.
func (c Check) URL() string { return DocsBase + c.ID + ".md" }

// Related is a secondary position of a diagnostic (the load, the copy, the return).
type Related struct {
	Pos     token.Pos
	Message string
}

// Report reports a diagnostic of check c at pos. The message gets no ID
// suffix: drivers print the Category.
func Report(pass *analysis.Pass, c Check, pos token.Pos, end token.Pos, msg string, related []Related, fixes ...analysis.SuggestedFix) {
	d := analysis.Diagnostic{
		Pos:            pos,
		End:            end,
		Category:       c.ID,
		Message:        msg,
		URL:            c.URL(),
		SuggestedFixes: fixes,
	}
	for _, r := range related {
		if r.Pos.IsValid() {
			d.Related = append(d.Related, analysis.RelatedInformation{Pos: r.Pos, Message: r.Message})
		}
	}
	pass.Report(d)
}

// Reportf is Report with a formatted message and no related positions.
func Reportf(pass *analysis.Pass, c Check, pos token.Pos, format string, args ...any) {
	Report(pass, c, pos, token.NoPos, fmt.Sprintf(format, args...), nil)
}
