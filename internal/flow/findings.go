package flow

import (
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
