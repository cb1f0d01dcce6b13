package main

import (
	"slices"

	"github.com/hiplint/hiplint/internal/suppress"
	"golang.org/x/tools/go/analysis/checker"
)

// The standalone driver applies the suppression directives itself: it asks
// internal/diag to keep suppressed diagnostics (diag.KeepSuppressed), drops
// them here with the same rule diag uses under the other drivers, and so
// learns which directives were used. Then it reports problems with the
// directives: malformed ones, unknown check IDs, and check IDs that
// suppressed nothing although their analyzer ran on the directive's package.
// internal/suppress does the work; the language server uses it too.

// applyDirectives drops the findings of res that a directive suppresses and
// adds a finding for each problem with a directive of the analyzed packages.
func (p *program) applyDirectives(graph *checker.Graph, res *results) {
	t := suppress.NewTracker(p.checks)
	t.Ran(graph)
	kept := res.findings[:0]
	for _, f := range res.findings {
		if !t.Suppresses(f.pkg, f.diag, f.posn) {
			kept = append(kept, f)
		}
	}
	res.findings = kept
	for _, pr := range t.Problems() {
		res.findings = append(res.findings, &finding{
			pkg:      pr.Pkg,
			analyzer: "directive",
			diag:     pr.Diagnostic,
			posn:     pr.Posn,
		})
	}
	slices.SortStableFunc(res.findings, compareFindings)
}
