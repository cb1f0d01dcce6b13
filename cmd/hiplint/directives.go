package main

import (
	"fmt"
	"go/ast"
	"slices"
	"strings"

	"github.com/hiplint/hiplint/internal/diag"
	"github.com/hiplint/hiplint/internal/directive"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// The standalone driver applies the suppression directives itself: it asks
// internal/diag to keep suppressed diagnostics (diag.KeepSuppressed), drops
// them here with the same rule diag uses under the other drivers, and so
// learns which directives were used. Then it reports problems with the
// directives: malformed ones, unknown check IDs, and check IDs that
// suppressed nothing although their analyzer ran on the directive's package.

// A directiveUse is one directive of the run and what it suppressed. A file
// that belongs to a package and its test variant is parsed twice; its
// directives are kept once, keyed by their position in the user's file.
type directiveUse struct {
	d       *directive.Directive
	pkg     *packages.Package // the first package it was found in
	used    map[string]bool   // IDs that suppressed a finding
	checked map[string]bool   // IDs whose analyzer ran, without error, on a package holding the directive
}

type directiveIndex struct {
	byPosn map[string]*directiveUse
	byFile map[*ast.File][]*directiveUse
	order  []*directiveUse
}

// uses returns the directives of f, a syntax file of pkg.
func (x *directiveIndex) uses(pkg *packages.Package, f *ast.File) []*directiveUse {
	if us, ok := x.byFile[f]; ok {
		return us
	}
	var us []*directiveUse
	for _, d := range directive.Parse(pkg.Fset, f) {
		key := d.Posn.String()
		u := x.byPosn[key]
		if u == nil {
			u = &directiveUse{d: d, pkg: pkg, used: map[string]bool{}, checked: map[string]bool{}}
			x.byPosn[key] = u
			x.order = append(x.order, u)
		}
		us = append(us, u)
	}
	x.byFile[f] = us
	return us
}

// applyDirectives drops the findings of res that a directive suppresses and
// adds a finding for each problem with a directive of the analyzed packages.
func (p *program) applyDirectives(graph *checker.Graph, res *results) {
	analyzerOf := make(map[string]string, len(p.checks)) // check ID -> analyzer
	for _, c := range p.checks {
		analyzerOf[c.ID] = c.Analyzer
	}
	x := &directiveIndex{byPosn: map[string]*directiveUse{}, byFile: map[*ast.File][]*directiveUse{}}

	for act := range graph.All() {
		if !act.IsRoot {
			continue
		}
		for _, f := range act.Package.Syntax {
			for _, u := range x.uses(act.Package, f) {
				if act.Err != nil {
					continue
				}
				for _, id := range u.d.IDs {
					if analyzerOf[id] == act.Analyzer.Name {
						u.checked[id] = true
					}
				}
			}
		}
	}

	kept := res.findings[:0]
	for _, f := range res.findings {
		suppressed := false
		if file := directive.FileOf(f.pkg.Syntax, f.diag.Pos); file != nil {
			for _, u := range x.uses(f.pkg, file) {
				if u.d.Suppresses(f.diag.Category, f.posn) {
					u.used[f.diag.Category] = true
					suppressed = true
				}
			}
		}
		if !suppressed {
			kept = append(kept, f)
		}
	}
	res.findings = kept

	for _, u := range x.order {
		for _, pr := range directiveProblems(u, analyzerOf) {
			res.findings = append(res.findings, &finding{
				pkg:      u.pkg,
				analyzer: "directive",
				diag: analysis.Diagnostic{
					Pos:      u.d.Pos,
					End:      u.d.End,
					Category: pr.check.ID,
					Message:  pr.message,
					URL:      pr.check.URL(),
				},
				posn: u.d.Posn,
			})
		}
	}
	slices.SortStableFunc(res.findings, compareFindings)
}

type directiveProblem struct {
	check   diag.Check
	message string
}

// directiveProblems returns what is wrong with one directive after the run.
func directiveProblems(u *directiveUse, analyzerOf map[string]string) []directiveProblem {
	d := u.d
	if !d.Valid() {
		return []directiveProblem{{d.ProblemCheck, d.Problem}}
	}
	var out []directiveProblem
	var unused []string
	for _, id := range d.IDs {
		switch {
		case directive.IsDirectiveCheck(id):
			out = append(out, directiveProblem{directive.Unknown,
				fmt.Sprintf("%s: %s cannot be suppressed; fix the directive it reports instead", d.Text(), id)})
		case analyzerOf[id] == "":
			out = append(out, directiveProblem{directive.Unknown,
				fmt.Sprintf("%s: unknown check ID %s; `hiplint checks` lists them", d.Text(), id)})
		case u.checked[id] && !u.used[id]:
			unused = append(unused, id)
		}
	}
	if len(unused) > 0 {
		where := "on this line or the next"
		if d.Kind == directive.FileIgnore {
			where = "in this file"
		}
		ids := strings.Join(unused, " or ")
		msg := fmt.Sprintf("%s suppresses nothing: there is no %s finding %s; remove the directive", d.Text(), ids, where)
		if len(unused) < len(d.IDs) {
			msg = fmt.Sprintf("%s suppresses no %s finding %s; remove %s from it", d.Text(), ids, where, strings.Join(unused, ", "))
		}
		out = append(out, directiveProblem{directive.Unused, msg})
	}
	return out
}
