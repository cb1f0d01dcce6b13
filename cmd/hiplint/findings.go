package main

import (
	"cmp"
	"errors"
	"fmt"
	"go/token"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hiplint/hiplint/analyzers"
	"github.com/hiplint/hiplint/internal/driver"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// A finding is one diagnostic of one analyzer.
type finding struct {
	pkg      *packages.Package // the first package whose analysis reported it
	analyzer string
	diag     analysis.Diagnostic
	posn     token.Position // in the user's file: adjusted through //line directives
}

// An actionError is an analyzer that failed on a package.
type actionError struct {
	pkgID, analyzer string
	err             error
}

func (e actionError) String() string {
	var pe *panicError
	var ape *analyzers.PanicError
	if errors.As(e.err, &pe) || errors.As(e.err, &ape) {
		return e.err.Error() // it names the analyzer and package already
	}
	return fmt.Sprintf("analyzer %s failed on package %s: %v", e.analyzer, e.pkgID, e.err)
}

// results are what one analysis run produced.
type results struct {
	findings []*finding    // deduplicated, sorted by position
	errors   []actionError // root causes only, in graph order
}

// collect gathers the root actions' diagnostics and the analyzer failures of
// graph. A file that belongs to both a package and its test variant is
// analyzed twice, so identical diagnostics are kept once. A failure that
// only says a prerequisite failed is dropped: the prerequisite's own error
// says why. In a package with type errors, the findings inside a declaration
// that holds one are dropped: the analyzers saw invalid types there, and the
// error is printed instead. At tier 3, the findings that may rest on code
// the analysis could not see are dropped (driver.Tier3Filter; nil: none).
func collect(graph *checker.Graph, tier3 *driver.Tier3Filter) *results {
	type key struct {
		posn              token.Position
		analyzer, message string
		category          string
	}
	seen := make(map[key]bool)
	touched := make(map[*packages.Package]func(token.Pos) bool)
	res := &results{}
	for act := range graph.All() {
		if act.Err != nil {
			if !slices.ContainsFunc(act.Deps, func(dep *checker.Action) bool { return dep.Err != nil }) {
				res.errors = append(res.errors, actionError{act.Package.ID, act.Analyzer.Name, act.Err})
			}
			continue
		}
		if !act.IsRoot {
			continue
		}
		if len(act.Diagnostics) > 0 && touched[act.Package] == nil {
			touched[act.Package] = driver.TouchedByErrors(act.Package)
		}
		for _, d := range act.Diagnostics {
			if touched[act.Package](d.Pos) || tier3.Drop(act.Package, d.Category, positions(d)) {
				continue
			}
			f := &finding{
				pkg:      act.Package,
				analyzer: act.Analyzer.Name,
				diag:     d,
				posn:     act.Package.Fset.Position(d.Pos),
			}
			k := key{f.posn, f.analyzer, d.Message, d.Category}
			if !seen[k] {
				seen[k] = true
				res.findings = append(res.findings, f)
			}
		}
	}
	slices.SortStableFunc(res.findings, compareFindings)
	return res
}

// positions returns where d is reported and its related positions.
func positions(d analysis.Diagnostic) []token.Pos {
	out := []token.Pos{d.Pos}
	for _, r := range d.Related {
		out = append(out, r.Pos)
	}
	return out
}

func compareFindings(a, b *finding) int {
	return cmp.Or(
		cmp.Compare(a.posn.Filename, b.posn.Filename),
		cmp.Compare(a.posn.Line, b.posn.Line),
		cmp.Compare(a.posn.Column, b.posn.Column),
		cmp.Compare(a.diag.Category, b.diag.Category),
		cmp.Compare(a.diag.Message, b.diag.Message),
	)
}

// printText prints findings as `file:line:col: message (ID)`, each related
// position below it, indented by a tab.
func (p *program) printText(findings []*finding) {
	p.writeText(p.stdout, findings)
}

func (p *program) writeText(w io.Writer, findings []*finding) {
	for _, f := range findings {
		msg := f.diag.Message
		if f.diag.Category != "" {
			msg += " (" + f.diag.Category + ")"
		}
		fmt.Fprintf(w, "%s: %s\n", p.position(f.posn), msg)
		for _, r := range f.diag.Related {
			fmt.Fprintf(w, "\t%s: %s\n", p.position(f.pkg.Fset.Position(r.Pos)), r.Message)
		}
	}
}

// position formats posn as file:line:col with the file relative to the
// working directory when it is inside it.
func (p *program) position(posn token.Position) string {
	if !posn.IsValid() {
		return "-"
	}
	return fmt.Sprintf("%s:%d:%d", p.relative(posn.Filename), posn.Line, posn.Column)
}

// relative returns file relative to the working directory when file is
// inside it, otherwise file unchanged.
func (p *program) relative(file string) string {
	if !filepath.IsAbs(file) {
		return file
	}
	rel, err := filepath.Rel(p.dir, file)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return file
	}
	return rel
}
