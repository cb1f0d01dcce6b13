// Package suppress applies hiplint's suppression directives (internal/
// directive) to the findings of a run, and reports the problems with the
// directives themselves: HL0001 (suppresses nothing), HL0002 (malformed),
// HL0003 (unknown check). It is for internal/driver, which sees every
// diagnostic and every directive of the initial packages, having marked
// the passes it runs with diag.KeepSuppressed (under the command line, the
// language server and runtimecheck). Other drivers (go vet, golangci-lint,
// nogo) drop suppressed diagnostics in the analyzers, and report no
// directive problems.
package suppress

import (
	"fmt"
	"go/ast"
	"go/token"
	"strings"

	"github.com/hiplint/hiplint/internal/config"
	"github.com/hiplint/hiplint/internal/diag/check"
	"github.com/hiplint/hiplint/internal/directive"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// A Tracker follows the directives of one run. A file that belongs to a
// package and its test variant is parsed twice; its directives are kept
// once, keyed by their position in the user's file.
type Tracker struct {
	// Override is the front end's configuration: with each package's
	// hiplint.toml it says which checks are on (internal/config). A
	// directive's check that is off is not reported as suppressing
	// nothing, and the directive checks that are off report nothing.
	Override *config.Override

	analyzerOf map[string]string // check ID → analyzer
	byPosn     map[string]*use
	byFile     map[*ast.File][]*use
	order      []*use
}

// A use is one directive of the run and what it suppressed.
type use struct {
	d       *directive.Directive
	pkg     *packages.Package // the first package it was found in
	used    map[string]bool   // IDs that suppressed a finding
	checked map[string]bool   // IDs whose analyzer ran, without error, on a package holding the directive
}

// NewTracker returns a tracker for a run whose analyzers report checks.
func NewTracker(checks []check.Check) *Tracker {
	t := &Tracker{analyzerOf: map[string]string{}, byPosn: map[string]*use{}, byFile: map[*ast.File][]*use{}}
	for _, c := range checks {
		t.analyzerOf[c.ID] = c.Analyzer
	}
	return t
}

// uses returns the directives of f, a syntax file of pkg.
func (t *Tracker) uses(pkg *packages.Package, f *ast.File) []*use {
	if us, ok := t.byFile[f]; ok {
		return us
	}
	var us []*use
	for _, d := range directive.Parse(pkg.Fset, f) {
		key := d.Posn.String()
		u := t.byPosn[key]
		if u == nil {
			u = &use{d: d, pkg: pkg, used: map[string]bool{}, checked: map[string]bool{}}
			t.byPosn[key] = u
			t.order = append(t.order, u)
		}
		us = append(us, u)
	}
	t.byFile[f] = us
	return us
}

// Ran records the directives of the graph's initial packages, and which of
// their check IDs an analyzer ran on without error: only those can be
// reported as suppressing nothing.
func (t *Tracker) Ran(graph *checker.Graph) {
	for act := range graph.All() {
		if !act.IsRoot {
			continue
		}
		for _, f := range act.Package.Syntax {
			for _, u := range t.uses(act.Package, f) {
				if act.Err != nil {
					continue
				}
				for _, id := range u.d.IDs {
					if t.analyzerOf[id] == act.Analyzer.Name && config.EnabledAt(u.d.Posn.Filename, t.Override, id) {
						u.checked[id] = true
					}
				}
			}
		}
	}
}

// Suppresses reports whether a directive suppresses d, a diagnostic of pkg
// at posn (adjusted through //line), and records that it was used.
func (t *Tracker) Suppresses(pkg *packages.Package, d analysis.Diagnostic, posn token.Position) bool {
	file := directive.FileOf(pkg.Syntax, d.Pos)
	if file == nil {
		return false
	}
	suppressed := false
	for _, u := range t.uses(pkg, file) {
		if u.d.Suppresses(d.Category, posn) {
			u.used[d.Category] = true
			suppressed = true
		}
	}
	return suppressed
}

// A Problem is a finding about a directive.
type Problem struct {
	Pkg        *packages.Package // the package the directive was found in
	Diagnostic analysis.Diagnostic
	Posn       token.Position // the directive's, in the user's file
}

// Problems returns the findings about the run's directives, in the order
// the directives were found. Call it after Ran and every Suppresses.
func (t *Tracker) Problems() []Problem {
	var out []Problem
	for _, u := range t.order {
		for _, pr := range t.problems(u) {
			if !config.EnabledAt(u.d.Posn.Filename, t.Override, pr.check.ID) {
				continue
			}
			out = append(out, Problem{
				Pkg: u.pkg,
				Diagnostic: analysis.Diagnostic{
					Pos:      u.d.Pos,
					End:      u.d.End,
					Category: pr.check.ID,
					Message:  pr.message,
					URL:      pr.check.URL(),
				},
				Posn: u.d.Posn,
			})
		}
	}
	return out
}

type problem struct {
	check   check.Check
	message string
}

// maxUnknown is how many unknown check IDs of one directive get a finding
// each; the rest are counted in one more.
const maxUnknown = 3

// problems returns what is wrong with one directive after the run. Each ID
// counts once however often it is repeated, and the unknown ones of a
// directive get at most maxUnknown findings and a count of the others: one
// comment naming ten thousand IDs must not print ten thousand lines.
func (t *Tracker) problems(u *use) []problem {
	d := u.d
	if !d.Valid() {
		return []problem{{d.ProblemCheck, d.Problem}}
	}
	var out []problem
	var unused []string
	unknown := 0
	seen := make(map[string]bool, len(d.IDs))
	for _, id := range d.IDs {
		if seen[id] {
			continue
		}
		seen[id] = true
		switch {
		case directive.IsDirectiveCheck(id):
			out = append(out, problem{directive.Unknown,
				fmt.Sprintf("%s: %s cannot be suppressed; fix the directive it reports instead", d.Text(), id)})
		case t.analyzerOf[id] == "":
			unknown++
			if unknown <= maxUnknown {
				out = append(out, problem{directive.Unknown,
					fmt.Sprintf("%s: unknown check ID %s; `hiplint checks` lists them", d.Text(), directive.Shorten(id, 40))})
			}
		case u.checked[id] && !u.used[id]:
			unused = append(unused, id)
		}
	}
	if more := unknown - maxUnknown; more > 0 {
		out = append(out, problem{directive.Unknown,
			fmt.Sprintf("%s: and %d more unknown check IDs; `hiplint checks` lists them", d.Text(), more)})
	}
	if len(unused) > 0 {
		where := "on this line or the next"
		if d.Kind == directive.FileIgnore {
			where = "in this file"
		}
		ids := strings.Join(unused, " or ")
		msg := fmt.Sprintf("%s suppresses nothing: there is no %s finding %s; remove the directive", d.Text(), ids, where)
		if len(unused) < len(seen) {
			msg = fmt.Sprintf("%s suppresses no %s finding %s; remove %s from it", d.Text(), ids, where, strings.Join(unused, ", "))
		}
		out = append(out, problem{directive.Unused, msg})
	}
	return out
}
