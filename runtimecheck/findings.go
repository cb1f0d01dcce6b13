package runtimecheck

import (
	"context"
	"fmt"
	"go/token"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/hiplint/hiplint/analyzers"
	"github.com/hiplint/hiplint/internal/driver"
	"github.com/hiplint/hiplint/internal/hipapi"

	"golang.org/x/tools/go/packages"
)

// A load is what findingsOf loaded and found.
type load struct {
	// pkgs are the initial packages, those analyzed at tier 3 left out:
	// their cgo step fails, so confirm can neither build nor plan them.
	pkgs     []*packages.Package
	findings []Finding
	notes    []string // one per package analyzed at tier 3
	errs     []string // the packages that did not load, the analyzers that failed
	// blocked gives, for each package directory whose tests cannot be
	// built because the package or one its tests link was analyzed at
	// tier 3 (its cgo step failed), the reason: its findings are judged
	// inconclusive without a run, and it is neither instrumented nor
	// planned.
	blocked map[string]string
}

// findingsOf loads the patterns with their tests and runs the suite on
// them through internal/driver, as hiplint does: the same loading tiers
// (tier 3 included), the same containment of analyzer failures, the same
// suppression directives (what they suppress is not confirmed). Its
// findings are deduplicated (a package and its test variant report the
// same diagnostics) and sorted. With silent, it also returns the sites the
// analyzers checked and found safe, as findings marked Silent: those the
// candidate suite reports where the real suite reports nothing of the same
// family on the same line.
func findingsOf(ctx context.Context, dir string, env []string, patterns []string, silent bool) (*load, error) {
	cfg := driver.Config{
		Analyzers: analyzers.Suite(),
		Checks:    analyzers.Checks(),
		Context:   ctx,
		Dir:       dir,
		Env:       env,
		Tests:     true,
		// The plan's call graph (SSA and VTA over every package) must see
		// the bodies of the dependencies too: t.Run calls its closure only
		// in testing's syntax, so from export data a table-driven test's
		// subtests reached no finding.
		AllSyntax: true,
	}
	if silent {
		cfg.Candidates = analyzers.Candidates()
	}
	r, err := driver.Run(cfg, patterns...)
	if err != nil {
		return nil, err
	}
	l := &load{notes: r.Triage.Notes, errs: r.Triage.Errors}
	for _, e := range r.Errors {
		l.errs = append(l.errs, e.String())
	}
	for _, p := range r.Packages {
		if !slices.Contains(r.Triage.Degraded, p.PkgPath) {
			l.pkgs = append(l.pkgs, p)
		}
	}
	l.blocked = blockedDirs(r.Packages, r.Triage.Degraded, r.Triage.Notes)
	l.findings = findingsFrom(r.Findings)
	if !silent {
		return l, nil
	}
	flagged := map[string]bool{}
	for _, f := range l.findings {
		flagged[siteKey(f)] = true
	}
	titles := map[string]string{}
	for _, c := range analyzers.Checks() {
		titles[c.ID] = c.Title
	}
	for _, c := range findingsFrom(r.Candidates) {
		if flagged[siteKey(c)] {
			continue
		}
		flagged[siteKey(c)] = true
		c.Silent = true
		c.Message = fmt.Sprintf("no finding: hiplint checked this site for %s (%s) and found it safe", c.ID, titles[c.ID])
		l.findings = append(l.findings, c)
	}
	sortFindings(l.findings)
	return l, nil
}

// blockedDirs returns the package directories whose tests cannot be built:
// a variant of the package there (its test variant included) is, or links,
// a package analyzed at tier 3. go test would fail at that package's cgo
// step, as loading did. The reason names the package and the cause from its
// tier-3 note.
func blockedDirs(pkgs []*packages.Package, degraded, notes []string) map[string]string {
	if len(degraded) == 0 {
		return nil
	}
	isDegraded := map[string]bool{}
	for _, path := range degraded {
		isDegraded[path] = true
	}
	cause := func(path string) string {
		for _, n := range notes {
			if rest, ok := strings.CutPrefix(n, path+": note: cgo failed ("); ok {
				if c, _, ok := strings.Cut(rest, "); "+tier3Analyzed); ok {
					return c
				}
			}
		}
		return ""
	}
	// failedDep returns a tier-3 package among p and its imports, "" if none.
	memo := map[*packages.Package]string{}
	var failedDep func(p *packages.Package) string
	failedDep = func(p *packages.Package) string {
		if d, ok := memo[p]; ok {
			return d
		}
		memo[p] = "" // an import cycle (not valid Go) ends here
		d := ""
		if isDegraded[p.PkgPath] {
			d = p.PkgPath
		} else {
			paths := make([]string, 0, len(p.Imports))
			for path := range p.Imports {
				paths = append(paths, path)
			}
			sort.Strings(paths)
			for _, path := range paths {
				if d = failedDep(p.Imports[path]); d != "" {
					break
				}
			}
		}
		memo[p] = d
		return d
	}
	out := map[string]string{}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if len(p.GoFiles) == 0 || strings.HasSuffix(p.PkgPath, ".test") {
			return
		}
		dir := filepath.Dir(p.GoFiles[0])
		if _, done := out[dir]; done {
			return
		}
		d := failedDep(p)
		if d == "" {
			return
		}
		why := "the cgo step of " + d + " failed when confirm loaded it"
		if d == p.PkgPath {
			why = "the package's cgo step failed when confirm loaded it"
		}
		if c := cause(d); c != "" {
			why += " (" + c + ")"
		}
		out[dir] = why + ": hiplint analyzed it from its Go files (tier 3), but its tests cannot be built, so confirm cannot run them"
	})
	return out
}

// tier3Analyzed is how the driver's tier-3 note goes on after the cause.
const tier3Analyzed = "analyzed from its Go files"

// siteKey identifies a finding's family and line: a silent site is one the
// real suite reports nothing of that family on.
func siteKey(f Finding) string { return fmt.Sprintf("%s|%s:%d", f.ID[:3], f.File, f.Line) }

// findingsFrom converts the driver's findings, sorted.
func findingsFrom(found []*driver.Finding) []Finding {
	var out []Finding
	for _, df := range found {
		fset := df.Pkg.Fset
		pos := df.Posn
		f := Finding{
			ID:       df.Diagnostic.Category,
			Analyzer: df.Analyzer,
			File:     pos.Filename,
			Line:     pos.Line,
			Col:      pos.Column,
			Posn:     posn(pos),
			Message:  df.Diagnostic.Message,
			Package:  df.Pkg.PkgPath,
		}
		for _, r := range df.Diagnostic.Related {
			f.Related = append(f.Related, posn(fset.Position(r.Pos)))
		}
		out = append(out, f)
	}
	sortFindings(out)
	return out
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

// traceRoles are the runtime calls each family's silent sites include
// whatever the code around them looks like: with -silent every traced call
// of these roles on which hiplint reported nothing of its family (and found
// no candidate there either: a load through a wrapper, a launch whose
// argument array lives in C memory) is judged as a silent site.
//
// A launch is two sites: its function must come from a module that is still
// loaded (HL2003: a deferred closure or a cache's eviction may have unloaded
// it) and the memory it touches must be reachable (HL4001). A lookup
// (hipModuleGetFunction, hipModuleGetGlobal) uses its module too (HL2003: a
// lookup in a module a loop over a set of modules unloaded). A stream-ordered
// free (hipFreeAsync) is a graph free node when it runs under stream capture
// (HL3001; judgeGraphFree says when it never did).
var traceRoles = map[hipapi.Role][]string{
	hipapi.ModuleLoad:        {"HL2001"},
	hipapi.GraphFreeNode:     {"HL3001"},
	hipapi.Launch:            {"HL2003", "HL4001"},
	hipapi.ModuleGetFunction: {"HL2003"},
	hipapi.ModuleGetGlobal:   {"HL2003"},
	hipapi.Free:              {"HL3001"},
}

// traceChecks returns the checks a traced call of fn is a silent site of.
func traceChecks(fn *hipapi.Func) []string {
	if fn.Role == hipapi.Free && !streamOrderedFree(fn) {
		return nil // hipFree: never recorded into a graph
	}
	return traceRoles[fn.Role]
}

// streamOrderedFree reports whether fn frees on a stream (hipFreeAsync and
// its twins): under stream capture it records a graph free node.
func streamOrderedFree(fn *hipapi.Func) bool {
	return fn.Role == hipapi.Free && fn.Stream != 0
}

// traceCandidates returns the silent sites found by instrumenting: the
// traced calls of traceRoles with no finding or candidate of their family on
// their line. base makes their positions relative, as the findings' are.
func traceCandidates(findings []Finding, insts map[string]*Instrumented, pkgs []*packages.Package, base string) []Finding {
	flagged := map[string]bool{}
	for _, f := range findings {
		flagged[siteKey(f)] = true
	}
	titles := map[string]string{}
	for _, c := range analyzers.Checks() {
		titles[c.ID] = c.Title
	}
	dirs := make([]string, 0, len(insts))
	for d := range insts {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	var out []Finding
	for _, d := range dirs {
		inst := insts[d]
		ids := make([]int, 0, len(inst.Sites))
		for id := range inst.Sites {
			ids = append(ids, id)
		}
		sort.Ints(ids)
		for _, id := range ids {
			s := inst.Sites[id]
			fn, ok := hipapi.Lookup(s.API)
			if !ok || s.Probe || s.Marker {
				continue
			}
			for _, check := range traceChecks(fn) {

				f := Finding{ID: check, Analyzer: "confirm", File: s.File, Line: s.Line, Col: s.Col, Dir: d, Silent: true,
					Package: packageAt(pkgs, d),
					Message: fmt.Sprintf("no finding: hiplint reported nothing of %s (%s) at this %s call, a site confirm found by tracing", check, titles[check], s.API)}
				f.Posn = fmt.Sprintf("%s:%d:%d", f.File, f.Line, f.Col)
				if rel, err := filepath.Rel(base, f.File); err == nil && !strings.HasPrefix(rel, "..") {
					f.Posn = fmt.Sprintf("%s:%d:%d", rel, f.Line, f.Col)
				}
				if flagged[siteKey(f)] {
					continue
				}
				flagged[siteKey(f)] = true
				out = append(out, f)
			}
		}
	}
	return out
}

// packageAt returns the import path of the package in dir.
func packageAt(pkgs []*packages.Package, dir string) string {
	path := ""
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, f := range p.GoFiles {
			if path == "" && filepath.Dir(f) == dir && !strings.Contains(p.ID, " ") {
				path = p.PkgPath
			}
		}
	})
	return path
}

// reconcile gives a silent site and the finding above it one verdict. A
// silent site whose runtime calls all ran inside the Go call of a finding of
// its family (between that call's marker records) is the call beneath the
// finding: the same hazard, reported there. A silent site whose hazard showed
// in a test that a whole-trace finding of its family (XNACK, on the test)
// was confirmed by is that finding's hazard too. results[judged[k]] is the
// result evs[k] was judged into.
func reconcile(results []Result, judged []int, evs []*Evidence) {
	for k, ev := range evs {
		s := &results[judged[k]]
		if !s.Finding.Silent {
			continue
		}
		for j, fev := range evs {
			f := &results[judged[j]]
			if f.Finding.Silent || f.Finding.ID[:3] != s.Finding.ID[:3] || f.Verdict == s.Verdict {
				continue
			}
			fam, _ := familyOf(f.Finding.ID)
			if t, ok := beneath(ev, fev); ok {
				dropFalseNegative(s)
				s.Verdict = f.Verdict
				s.Evidence = append([]string{fmt.Sprintf("%s: every call here ran inside the call at %s, where hiplint reported %s: the same hazard, judged there (%s)",
					t, f.Finding.Posn, f.Finding.ID, f.Verdict)}, s.Evidence...)
				break
			}
			if fam.AnySite && s.Verdict == Missed && f.Verdict == Confirmed {
				if t := sharedTest(s.Tests, f.Tests); t != "" {
					dropFalseNegative(s)
					s.Verdict = Confirmed
					s.Evidence = append([]string{fmt.Sprintf("the same hazard: hiplint reported this hazard for %s at %s (%s), confirmed there", t, f.Finding.Posn, f.Finding.ID)}, s.Evidence...)
					break
				}
			}
		}
	}
}

// falseNegative heads the evidence of a missed verdict.
const falseNegative = "hiplint reported nothing here, but the hazard happened: a false negative"

// beneath reports whether, in some run, the silent site's own calls all ran
// inside a marker window of the finding's, and names that run's test.
func beneath(silent, finding *Evidence) (string, bool) {
	var markers []int
	for _, id := range finding.At {
		if finding.Sites[id].Marker {
			markers = append(markers, id)
		}
	}
	if len(markers) == 0 {
		return "", false
	}
	for _, run := range silent.Runs {
		inside := windowSeqs(run.Trace, func(site int) bool { return contains(markers, site) })
		own, all := 0, true
		for _, r := range run.Trace.Records {
			if r.Returned() && silent.at(run.Trace, &r) {
				own++
				all = all && inside[r.Seq]
			}
		}
		if own > 0 && all {
			return run.Test, true
		}
	}
	return "", false
}

func dropFalseNegative(r *Result) {
	if len(r.Evidence) > 0 && r.Evidence[0] == falseNegative {
		r.Evidence = r.Evidence[1:]
	}
}

func sharedTest(a, b []string) string {
	for _, x := range a {
		if containsString(b, x) {
			return x
		}
	}
	return ""
}
