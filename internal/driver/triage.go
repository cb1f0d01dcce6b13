// Package driver is what hiplint's front ends (the command line, the
// language server and runtimecheck) share: Run loads packages, decides which
// can be analyzed and at which tier (saying once, per package, why one
// cannot), runs the analyzers with their panics contained, applies the
// suppression directives and collects the findings. Each front end only
// says what to load and presents what Run found.
//
// Loading tiers (docs/architecture.md):
//
//  1. cgo ran with the real GPU headers;
//  2. cgo ran with hiplint's own declarations of the runtime API (internal/headerless);
//  3. cgo failed: the package's own Go files were type-checked with "C" as
//     a pseudo-package whose members are unknown. Runtime calls are then
//     recognized by name (internal/cgocall); C types and constant values are
//     unknown, and the analyzers say less. Its importers type-check against
//     it as against any package.
//
// go/packages already produces tier 3's types when cgo fails: go list hands
// back the raw files, and the type checker, finding no package "C" to
// import, makes it a fake package whose selectors are silently invalid —
// exactly what types.Config.FakeImportC does (see internal/cgocall/tier3.go;
// TestTier3TypesAreFakeImportC checks that the two agree). Triage only has
// to recognize such a package, drop the two errors that stand for the cgo
// failure, and let the analysis run on it.
package driver

import (
	"fmt"
	"go/ast"
	"go/token"
	"slices"
	"sort"
	"strings"

	"github.com/hiplint/hiplint/internal/cgocall"
	"github.com/hiplint/hiplint/internal/loaderr"
	"golang.org/x/tools/go/packages"
)

// Options say how to triage.
type Options struct {
	// Tier3 analyzes packages whose cgo step failed from their Go files
	// (off under -headers=system: there a cgo failure is an error).
	Tier3 bool
	// Rel, when not nil, rewrites the file names in messages (for example
	// relative to the working directory).
	Rel func(file string) string
}

// Triage is the outcome of triaging loaded packages.
type Triage struct {
	// Analyzable are the initial packages that can be analyzed: those that
	// loaded (tier 1, 2 or 3), possibly with type errors of their own.
	Analyzable []*packages.Package
	// Notes are one line per package analyzed at tier 3: the package, why
	// cgo failed (the compiler's first error line) and what the analysis
	// loses; and (added by Run) one per package whose failed cgo step
	// internal/synth repaired, saying how. Sorted.
	Notes []string
	// Errors are one line per package that failed to load or type-check
	// (each package once, not again for its test variant), and one per
	// initial package left out because a dependency failed, naming that
	// dependency and its error. Sorted.
	Errors []string
	// Degraded are the packages (initial or not) analyzed at tier 3, one
	// per package path.
	Degraded []string
	// Partial are the packages analyzed although an import of theirs could
	// not be found (their error is printed): the code that uses it is as
	// unknown as C code at tier 3, and Tier3Filter treats it alike.
	Partial []string
}

// What an analysis at tier 3 loses, said once per degraded package.
const tier3Loss = "analyzed from its Go files without C types: runtime calls are recognized by name; C types and constant values are unknown, so hazards that depend on them may be missed"

// Classify triages the packages that packages.Load returned for initial: it
// recognizes the tier-3 packages and clears their cgo errors, recomputes
// IllTyped so that a package with type errors of its own (and no worse) is
// analyzed as gopls does with RunDespiteErrors, and formats the notes and
// error lines. It modifies the packages' Errors and IllTyped.
func Classify(initial []*packages.Package, opts Options) *Triage {
	t := &Triage{}
	// Post-order: each package after its dependencies.
	var order []*packages.Package
	packages.Visit(initial, nil, func(p *packages.Package) { order = append(order, p) })

	cause := map[*packages.Package]string{}                // tier 3: the cgo failure's first line
	blocked := map[*packages.Package]bool{}                // cannot be analyzed
	rootCause := map[*packages.Package]*packages.Package{} // a failed package below a blocked one
	for _, p := range order {
		if opts.Tier3 {
			if c, ok := tier3(p); ok {
				if c == "" {
					c = "no output from cgo"
					// go list does not run cgo on a package whose
					// dependency failed to build.
					for _, imp := range sortedImports(p) {
						if _, failed := cause[imp]; failed || blocked[imp] {
							c = "not run: its dependency " + imp.PkgPath + " failed"
							break
						}
					}
					for _, e := range p.Errors {
						if path, ok := strings.CutPrefix(e.Msg, "could not import "); ok && e.Kind == packages.TypeError && path != "C (no metadata for C)" {
							path, _, _ = strings.Cut(path, " ")
							c = "not run: its import " + path + " was not found"
							break
						}
					}
				}
				cause[p] = c
			}
		}
		if missingImport(p) {
			t.Partial = append(t.Partial, p.PkgPath)
		}
		if ownFailure(p) {
			blocked[p] = true
			rootCause[p] = p
		} else {
			for _, imp := range sortedImports(p) {
				if blocked[imp] && !placeholder(imp) {
					blocked[p] = true
					rootCause[p] = rootCause[imp]
					break
				}
			}
		}
		// A placeholder for an import that could not be loaded is empty:
		// the checker may run the analyzers on it (they find nothing),
		// which its importers' actions need.
		p.IllTyped = blocked[p] && !(placeholder(p) && p.Types != nil)
	}

	// One line per package path: a test variant repeats its package's
	// errors (with the variant's name in cgo's output), so the package
	// itself speaks for both; a variant speaks only when the package has
	// nothing to say (an error in a _test.go file).
	byPath := map[string]*packages.Package{}
	notePath := map[string]*packages.Package{}
	for _, p := range order {
		if len(p.Errors) > 0 && preferred(byPath[p.PkgPath], p) {
			byPath[p.PkgPath] = p
		}
		// A package that is not analyzed after all (a syntax error, which
		// also fails cgo) has its error line, not a note saying how it
		// was analyzed.
		if _, ok := cause[p]; ok && !blocked[p] && preferred(notePath[p.PkgPath], p) {
			notePath[p.PkgPath] = p
		}
	}
	for _, p := range byPath {
		// Labelled by the ID: PkgPath is cut at a space ("example.com/my pkg").
		t.Errors = append(t.Errors, errorLine(loaderr.Label(p), p, opts.Rel))
	}
	for path, p := range notePath {
		t.Notes = append(t.Notes, fmt.Sprintf("%s: note: cgo failed (%s); %s", path, rel(cause[p], opts.Rel), tier3Loss))
		t.Degraded = append(t.Degraded, path)
	}
	leftOut := map[string]bool{}
	for _, p := range initial {
		switch {
		case !blocked[p]:
			t.Analyzable = append(t.Analyzable, p)
		case rootCause[p] != p && byPath[p.PkgPath] == nil && !leftOut[p.PkgPath] && !testMain(p):
			leftOut[p.PkgPath] = true
			dep := rootCause[p]
			t.Errors = append(t.Errors, fmt.Sprintf("%s: not analyzed: its dependency %s did not load: %s",
				p.PkgPath, dep.PkgPath, firstLine(loaderr.Message(dep.Errors[0], opts.Rel))))
		}
	}
	sort.Strings(t.Errors)
	sort.Strings(t.Notes)
	sort.Strings(t.Degraded)
	t.Partial = slices.Compact(slices.Sorted(slices.Values(t.Partial)))
	return t
}

// testMain reports whether p is the main package go test generates: its
// failure is its package's.
func testMain(p *packages.Package) bool {
	return p.Name == "main" && strings.HasSuffix(p.PkgPath, ".test") && p.ID == p.PkgPath
}

// preferred reports whether p should speak for its package path rather than
// cur: the package itself over its test variants.
func preferred(cur, p *packages.Package) bool {
	return cur == nil || (cur.ID != cur.PkgPath && p.ID == p.PkgPath)
}

// errorLine formats a package's errors as one line: its path, its first
// error and how many more there are. A compiler's output that runs over
// several lines keeps only its first error line.
func errorLine(path string, p *packages.Package, rel func(string) string) string {
	line := path + ": " + firstLine(loaderr.Message(p.Errors[0], rel))
	more := p.Errors[1:]
	// go/types reports the details of an error (where an instantiation
	// cycle goes round) as further errors whose message starts with a tab:
	// they belong on the first one's line (was: "instantiation cycle: (and
	// 1 more errors)", which says nothing). At most three.
	for k := 0; len(more) > 0 && p.Errors[0].Kind == packages.TypeError &&
		more[0].Kind == packages.TypeError && strings.HasPrefix(more[0].Msg, "\t"); k++ {
		if k < 3 {
			line += " " + strings.Join(strings.Fields(loaderr.Message(more[0], rel)), " ")
		}
		more = more[1:]
	}
	if n := len(more); n > 0 {
		line += fmt.Sprintf(" (and %d more errors)", n)
	}
	return line
}

// ownFailure reports whether p's own errors keep it from being analyzed:
// anything but type errors and imports that could not be found (a package
// that did not list or parse, or has no types). Type errors do not: the
// analyzers run anyway, and the driver drops findings in the declarations
// the errors touch (TouchedByErrors). Nor does a missing import: go/types
// checks the package with the import as an empty package (see Partial).
func ownFailure(p *packages.Package) bool {
	if fromExportData(p) {
		return false
	}
	if p.Types == nil || p.TypesInfo == nil {
		return len(p.Errors) > 0 || len(p.GoFiles) > 0
	}
	for _, e := range p.Errors {
		if e.Kind != packages.TypeError && !isMissingImport(e) {
			return true
		}
	}
	return false
}

// missingImport reports whether some import of p could not be found: it has
// such an error, or it imports a placeholder.
func missingImport(p *packages.Package) bool {
	if p.Types == nil || placeholder(p) {
		return false
	}
	for _, imp := range p.Imports {
		if placeholder(imp) {
			return true
		}
	}
	return slices.ContainsFunc(p.Errors, isMissingImport)
}

// placeholder reports whether p stands for an import that could not be
// loaded (a module that is not found, a GOPATH-era dependency): no files,
// and only errors of go list.
func placeholder(p *packages.Package) bool {
	return len(p.GoFiles) == 0 && len(p.CompiledGoFiles) == 0 && len(p.Errors) > 0 &&
		!slices.ContainsFunc(p.Errors, func(e packages.Error) bool { return e.Kind != packages.ListError })
}

// isMissingImport reports whether e says that an imported package could not
// be found (a GOPATH-era dependency, a module not downloaded).
func isMissingImport(e packages.Error) bool {
	if e.Kind != packages.ListError || e.Pos == "" {
		return false
	}
	for _, s := range []string{"no required module provides package", "cannot find package", "is not in std", "module lookup disabled"} {
		if strings.Contains(e.Msg, s) {
			return true
		}
	}
	return false
}

// tier3 recognizes a package whose cgo step failed and that go/packages
// type-checked from its raw files (some file imports "C", and the types
// import the pseudo-package "C"). It removes the errors that stand for the
// cgo failure (the build output, "could not import C") and returns the
// compiler's first error line, "" when there was no build output (go list
// does not run cgo on a package whose dependency failed). Other errors stay.
func tier3(p *packages.Package) (string, bool) {
	if p.Types == nil || !cgocall.Unprocessed(p.Types) || !importsC(p.Syntax) {
		return "", false
	}
	cause := ""
	kept := p.Errors[:0:0]
	for _, e := range p.Errors {
		switch {
		case e.Kind == packages.ListError && strings.HasPrefix(e.Msg, "# "):
			if cause == "" {
				cause = compilerError(e.Msg)
			}
		case e.Kind == packages.TypeError && strings.HasPrefix(e.Msg, "could not import C ("):
		case e.Kind == packages.TypeError && unknownConstantError(e.Msg):
		default:
			kept = append(kept, e)
		}
	}
	p.Errors = kept
	return cause, true
}

// unknownConstantError reports whether msg is an error go/types makes up
// about C constants whose values it does not know: map keys C.A and C.B in
// one literal are both "unknown", hence duplicates.
func unknownConstantError(msg string) bool {
	return strings.HasPrefix(msg, "duplicate key unknown ") || strings.HasPrefix(msg, "duplicate case unknown ")
}

func importsC(files []*ast.File) bool {
	for _, f := range files {
		for _, imp := range f.Imports {
			if imp.Path.Value == `"C"` {
				return true
			}
		}
	}
	return false
}

// compilerError returns the first error line of a build's output ("# pkg"
// then the compiler's messages, with "In file included from" and source
// excerpts around them), or its first line of text.
func compilerError(out string) string {
	first := ""
	for _, line := range strings.Split(out, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "", strings.HasPrefix(line, "# "), strings.HasPrefix(line, "In file included from"),
			strings.Contains(line, " | "), strings.HasPrefix(line, "|"):
			continue
		case strings.Contains(line, "error:"):
			return line
		case first == "":
			first = line
		}
	}
	return first
}

// firstLine returns s up to its first newline, or its first compiler error
// line when s is a build's output.
func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		if e := compilerError(s); e != "" {
			return e
		}
		return s[:i]
	}
	return s
}

// rel passes the file name at the start of a compiler message
// (file.go:line:col: ...) through f.
func rel(msg string, f func(string) string) string {
	if f == nil {
		return msg
	}
	if i := strings.Index(msg, ".go:"); i > 0 && !strings.Contains(msg[:i], " ") {
		return f(msg[:i+3]) + msg[i+3:]
	}
	return msg
}

func sortedImports(p *packages.Package) []*packages.Package {
	paths := make([]string, 0, len(p.Imports))
	for path := range p.Imports {
		paths = append(paths, path)
	}
	sort.Strings(paths)
	out := make([]*packages.Package, len(paths))
	for i, path := range paths {
		out[i] = p.Imports[path]
	}
	return out
}

// TouchedByErrors returns a function that reports whether a position of p
// lies in a declaration that holds one of p's type errors, where the
// analyzers saw invalid types and missing objects: findings there are
// dropped (the error is printed instead). Declarations without errors are
// analyzed as usual. For a package without type errors it reports false.
func TouchedByErrors(p *packages.Package) func(pos token.Pos) bool {
	if len(p.TypeErrors) == 0 {
		return func(token.Pos) bool { return false }
	}
	type span struct{ from, to token.Pos }
	var spans []span
	for _, f := range p.Syntax {
		for _, d := range f.Decls {
			for _, e := range p.TypeErrors {
				if e.Fset == p.Fset && d.Pos() <= e.Pos && e.Pos < d.End() {
					spans = append(spans, span{d.Pos(), d.End()})
					break
				}
			}
		}
	}
	return func(pos token.Pos) bool {
		for _, s := range spans {
			if s.from <= pos && pos < s.to {
				return true
			}
		}
		return false
	}
}
