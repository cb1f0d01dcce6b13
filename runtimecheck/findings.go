package runtimecheck

import (
	"fmt"
	"github.com/hiplint/hiplint/analyzers"
	"go/token"
	"sort"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// loadPackages loads the patterns with their tests and everything the
// analyzers and SSA need.
func loadPackages(dir string, env []string, patterns []string) ([]*packages.Package, error) {
	cfg := &packages.Config{
		Mode:  packages.LoadAllSyntax | packages.NeedModule,
		Tests: true,
		Dir:   dir,
		Env:   env,
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, err
	}
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("no packages matched")
	}
	return pkgs, nil
}

// analyze runs the suite and returns its findings, deduplicated (a package
// and its test variant report the same diagnostics) and sorted. With silent,
// it also returns the sites the analyzers checked and found safe, as findings
// marked Silent: those the candidate suite reports where the real suite
// reports nothing of the same family on the same line.
func analyze(pkgs []*packages.Package, silent bool) ([]Finding, []string, error) {
	findings, errs, err := diagnostics(analyzers.Suite(), pkgs)
	if err != nil || !silent {
		return findings, errs, err
	}
	cands, _, err := diagnostics(analyzers.Candidates(), pkgs)
	if err != nil {
		return nil, errs, err
	}
	flagged := map[string]bool{}
	for _, f := range findings {
		flagged[siteKey(f)] = true
	}
	titles := map[string]string{}
	for _, c := range analyzers.Checks() {
		titles[c.ID] = c.Title
	}
	for _, c := range cands {
		if flagged[siteKey(c)] {
			continue
		}
		flagged[siteKey(c)] = true
		c.Silent = true
		c.Message = fmt.Sprintf("no finding: hiplint checked this site for %s (%s) and found it safe", c.ID, titles[c.ID])
		findings = append(findings, c)
	}
	sortFindings(findings)
	return findings, errs, nil
}

// siteKey identifies a finding's family and line: a silent site is one the
// real suite reports nothing of that family on.
func siteKey(f Finding) string { return fmt.Sprintf("%s|%s:%d", f.ID[:3], f.File, f.Line) }

// diagnostics runs suite on the packages that type-checked.
func diagnostics(suite []*analysis.Analyzer, pkgs []*packages.Package) ([]Finding, []string, error) {
	var roots []*packages.Package
	var errs []string
	for _, p := range pkgs {
		for _, e := range p.Errors {
			errs = append(errs, fmt.Sprintf("%s: %s", p.PkgPath, e))
		}
		if !p.IllTyped {
			roots = append(roots, p)
		}
	}
	if len(roots) == 0 {
		return nil, errs, nil
	}
	graph, err := checker.Analyze(suite, roots, nil)
	if err != nil {
		return nil, errs, err
	}
	seen := map[string]bool{}
	var out []Finding
	for act := range graph.All() {
		if !act.IsRoot {
			continue
		}
		if act.Err != nil {
			errs = append(errs, act.Err.Error())
			continue
		}
		fset := act.Package.Fset
		for _, d := range act.Diagnostics {
			pos := fset.Position(d.Pos)
			f := Finding{
				ID:       d.Category,
				Analyzer: act.Analyzer.Name,
				File:     pos.Filename,
				Line:     pos.Line,
				Col:      pos.Column,
				Posn:     posn(pos),
				Message:  d.Message,
				Package:  act.Package.PkgPath,
			}
			for _, r := range d.Related {
				f.Related = append(f.Related, posn(fset.Position(r.Pos)))
			}
			key := f.ID + "|" + f.Posn + "|" + f.Message
			if seen[key] {
				continue
			}
			seen[key] = true
			out = append(out, f)
		}
	}
	sortFindings(out)
	return out, errs, nil
}

func sortFindings(out []Finding) {
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Silent != b.Silent {
			return !a.Silent
		}
		return a.ID < b.ID
	})
}

func posn(p token.Position) string { return fmt.Sprintf("%s:%d:%d", p.Filename, p.Line, p.Column) }
