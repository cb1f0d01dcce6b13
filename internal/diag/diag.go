// Package diag holds what every hiplint check shares about reporting: check
// identifiers, their documentation links, and the Report helper that stamps
// each diagnostic with its check ID as Category and applies the suppression
// directives (//hiplint:ignore, //hiplint:file-ignore; see internal/directive).
package diag

import (
	"fmt"
	"go/token"

	"github.com/hiplint/hiplint/internal/config"
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

// RelatedEach returns the related position f makes of each of xs, in order.
func RelatedEach[T any](xs []T, f func(T) Related) []Related {
	var out []Related // nil for none, as a literal nil would be
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

// keepMark is the key under which a driver that applies the suppression
// directives itself marks the passes it runs (KeepSuppressed). It is never
// run and never required: only its address matters.
var keepMark = &analysis.Analyzer{
	Name: "hiplintkeepsuppressed",
	Doc:  "marks a pass whose driver applies hiplint's suppression directives itself",
	Run:  func(*analysis.Pass) (any, error) { return nil, nil },
}

// KeepSuppressed marks pass so that Report passes on the diagnostics that a
// directive suppresses instead of dropping them. It is for a driver that
// applies the directives itself, with internal/suppress, so that it also
// learns which directives were used and can report the ones that suppress
// nothing: internal/driver, under the command line, the language server and
// runtimecheck. The driver calls it on the pass it hands each analyzer's Run
// (a copy whose ResultOf is the driver's own map: the mark is added to it).
//
// Why a mark on the pass rather than on each suppressed diagnostic:
// analysis.Diagnostic has no field of its own for a mark, so one would have
// to ride in Category, Message or Related, and every driver that does not
// know about it (go vet, golangci-lint, nogo, gopls) would print it or, worse,
// not drop the diagnostic. A pass without the mark drops, the right thing for
// every driver that never heard of it. And the mark belongs to one pass of
// one run: two runs in one process, one keeping and one not, do not see
// each other's setting (there is no process-wide switch).
func KeepSuppressed(pass *analysis.Pass) {
	if pass.ResultOf == nil {
		pass.ResultOf = map[*analysis.Analyzer]any{}
	}
	pass.ResultOf[keepMark] = true
}

// keeps reports whether the driver of pass asked for suppressed diagnostics.
func keeps(pass *analysis.Pass) bool {
	_, ok := pass.ResultOf[keepMark]
	return ok
}

// Report reports a diagnostic of check c at pos, unless the configuration
// in effect for the package turns c off (internal/config: hiplint.toml,
// -checks, the plugin's settings; every driver's diagnostics pass here) or
// a suppression directive in pos's file covers c at pos (see
// internal/directive). The message gets no ID suffix: drivers print the
// Category.
func Report(pass *analysis.Pass, c Check, pos token.Pos, end token.Pos, msg string, related []Related, fixes ...analysis.SuggestedFix) {
	if !config.Enabled(pass, c.ID) {
		return
	}
	if !keeps(pass) && Suppressed(pass, c.ID, pos) {
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
