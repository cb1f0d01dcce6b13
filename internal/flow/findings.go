package flow

import (
	"fmt"
	"go/token"

	"github.com/hiplint/hiplint/internal/diag"
	"golang.org/x/tools/go/analysis"
)

// Findings reports each finding once per check and position: the replay of
// a solution (Replay) may check one node again. A nil *Findings reports
// nothing: a transfer function that reports through it can run while
// solving, when only the states count.
type Findings struct {
	pass *analysis.Pass
	seen map[findingKey]bool
}

type findingKey struct {
	id  string
	pos token.Pos
}

// NewFindings returns a Findings that reports to pass.
func NewFindings(pass *analysis.Pass) *Findings {
	return &Findings{pass: pass, seen: map[findingKey]bool{}}
}

// Report reports the finding (diag.Report) unless f is nil or a finding of
// check c was reported at pos before.
func (f *Findings) Report(c diag.Check, pos, end token.Pos, msg string, related []diag.Related, fixes ...analysis.SuggestedFix) {
	if f == nil || f.seen[findingKey{c.ID, pos}] {
		return
	}
	f.seen[findingKey{c.ID, pos}] = true
	diag.Report(f.pass, c, pos, end, msg, related, fixes...)
}

// Reportf is Report at n's extent with the message format and args, which
// are formatted only when the finding is reported.
func (f *Findings) Reportf(c diag.Check, n analysis.Range, related []diag.Related, format string, args ...any) {
	if f == nil || f.seen[findingKey{c.ID, n.Pos()}] {
		return
	}
	f.Report(c, n.Pos(), n.End(), fmt.Sprintf(format, args...), related)
}
