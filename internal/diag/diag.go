// Package diag holds what every hiplint check shares about reporting: check
// identifiers, their documentation links, and the Report helper that stamps
// each diagnostic with its check ID as Category and applies the suppression
// directives (//hiplint:ignore, //hiplint:file-ignore; see internal/directive).
package diag

import (
	"fmt"
	"go/token"
	"sync/atomic"

	"github.com/hiplint/hiplint/internal/diag/check"
	"github.com/hiplint/hiplint/internal/directive"
	"golang.org/x/tools/go/analysis"
)

// DocsBase is where the per-check documentation pages live.
const DocsBase = check.DocsBase

// Severity of a check's findings.
type Severity = check.Severity

const (
	Error   = check.Error
	Warning = check.Warning
)

// Check is one stable check ID with its documentation. It is defined in
// internal/diag/check so that internal/directive, which diag imports, can
// declare checks too.
type Check = check.Check

// Related is a secondary position of a diagnostic (the load, the copy, the return).
type Related struct {
	Pos     token.Pos
	Message string
}

// keepSuppressed is the switch behind KeepSuppressed.
var keepSuppressed atomic.Bool

// KeepSuppressed(true) makes Report pass on the diagnostics that a directive
// suppresses instead of dropping them. It is for a driver that applies the
// directives itself, with internal/directive, so that it also learns which
// directives were used and can report the ones that suppress nothing: the
// standalone hiplint driver. Call it before analysis starts.
//
// Why a process-wide switch rather than marking each suppressed diagnostic:
// analysis.Diagnostic has no field of its own for a mark, so one would have
// to ride in Category, Message or Related, and every driver that does not
// know about it (go vet, golangci-lint, nogo, gopls) would print it or, worse,
// not drop the diagnostic. The switch defaults to dropping, the right thing
// for every driver that never heard of it; the driver that sets it already
// holds every syntax tree and re-applies the same directive.Suppressing
// rule, so nothing is lost. It is an atomic value, read by the analyzers'
// goroutines, so setting it is safe at any time; it is meant to be set once,
// before checker.Analyze, and never reset during a run.
func KeepSuppressed(keep bool) { keepSuppressed.Store(keep) }

// Report reports a diagnostic of check c at pos, unless a suppression
// directive in pos's file covers c at pos (see internal/directive). The
// message gets no ID suffix: drivers print the Category.
func Report(pass *analysis.Pass, c Check, pos token.Pos, end token.Pos, msg string, related []Related, fixes ...analysis.SuggestedFix) {
	if !keepSuppressed.Load() && Suppressed(pass, c.ID, pos) {
		return
	}
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

// Suppressed reports whether a directive in the file of pass that holds pos
// suppresses check id at pos. The file's comments are parsed on each call:
// findings are few, and nothing is cached that could outlive the pass.
func Suppressed(pass *analysis.Pass, id string, pos token.Pos) bool {
	f := directive.FileOf(pass.Files, pos)
	if f == nil {
		return false
	}
	posn := pass.Fset.Position(pos)
	return len(directive.Suppressing(directive.Parse(pass.Fset, f), id, posn)) > 0
}
