package lsp

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/hiplint/hiplint/internal/diag"
	"github.com/hiplint/hiplint/internal/driver"
	"github.com/hiplint/hiplint/internal/fixes"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"
)

// A pkgResult is what one analysis of the packages of one directory found:
// the package, its test variant and its external test package, as
// `hiplint -test .` in that directory analyzes them.
type pkgResult struct {
	dir      string
	pkgPaths map[string]bool       // the import paths of the directory's packages
	deps     map[string]bool       // the import paths they depend on, transitively
	modTimes map[string]time.Time  // the user's Go files of the packages, when analyzed
	overlaid map[string][32]byte   // the files analyzed from an unsaved buffer, with its hash
	findings map[string][]*finding // by user's file
	versions map[string]int32      // the version of each open document that the findings describe
	problems []string              // why some or all of it could not be analyzed
	stale    bool                  // a file of the directory, or of a dependency, was saved since
	// headersUsed are the Options.MissingHeaders that the packages' cgo
	// preambles include: cgo used hiplint's declarations for them.
	headersUsed []string
	// withheld counts, by file, the findings whose fixes are not offered
	// because a file is too large (Server.maxFixFileSize).
	withheld map[string]int
	// noCache: the analysis failed or was incomplete (an analyzer
	// failure, a load error, a panic): the result cache keeps nothing.
	noCache bool
	// facts are the facts the analysis exported, for the result cache.
	facts    map[string]*driver.PackageFacts
	replayed []string
	// session is the loaded graph, for the edits that follow (session.go).
	session *dirSession
	// fromCache: published from the result cache, nothing loaded.
	fromCache bool
}

// A finding is one diagnostic, ready to publish, with its quick fixes.
type finding struct {
	diag  diagnostic
	fixes []quickFix
}

// A quickFix is one suggested fix as edits of the user's files, each file's
// edits giving exactly what -fix writes.
type quickFix struct {
	title string
	edits map[string][]textEdit // by file
}

// has reports whether file is one of the analyzed files.
func (r *pkgResult) has(file string) bool {
	_, ok := r.modTimes[file]
	return ok
}

// analyzedText reports whether the analysis saw file with doc's text: the
// unsaved buffer it was given, or the file on disk when the document has
// not been edited since it was opened or saved.
func (r *pkgResult) analyzedText(file string, doc *document) bool {
	if sum, ok := r.overlaid[file]; ok {
		return sum == sha256.Sum256(doc.text)
	}
	return !doc.dirty
}

// changedOnDisk reports whether a file of the result was modified, added
// or removed on disk since it was analyzed, behind the editor's back.
func (r *pkgResult) changedOnDisk() bool {
	for file, mod := range r.modTimes {
		info, err := os.Stat(file)
		if err != nil || !info.ModTime().Equal(mod) {
			return true
		}
	}
	return false
}

// analyzeDir loads the packages in dir, with their test variants when
// s.opts.Tests, and runs the analyzers on them, through internal/driver. The files in overlay are
// read from it, not from disk (go/packages passes it to the go command,
// which gives cgo the buffer and keeps the file's name in its //line
// directives). Errors in loading or type checking are recorded in the
// result's problems, not returned: the server keeps serving whatever the
// code looks like.
func (s *Server) analyzeDir(ctx context.Context, dir string, overlay map[string][]byte) (res *pkgResult) {
	return s.analyzeDirFacts(ctx, dir, overlay, nil)
}

// analyzeDirFacts is analyzeDir with the result cache's facts of the
// dependencies (cached: driver.Config.CachedFacts); it returns the facts
// the analysis exported in res.facts.
func (s *Server) analyzeDirFacts(ctx context.Context, dir string, overlay map[string][]byte, cached map[string]*driver.PackageFacts) (res *pkgResult) {
	res = newResult(dir)
	defer func() {
		// A bug in go/packages, the checker or an analyzer the caller did
		// not guard must not take the editor's server down.
		if r := recover(); r != nil {
			res.problems = append(res.problems, fmt.Sprintf("internal error analyzing %s: %v\n%s", dir, r, debug.Stack()))
			res.findings = map[string][]*finding{}
			res.noCache = true
		}
	}()

	// The same pipeline as the command line's (internal/driver): the same
	// tiers, tier 3 included, the same containment of analyzer failures,
	// the same directives.
	cfg := s.driverConfig(ctx, dir, overlay)
	// The facts are exported, and the graph kept, for the edits that
	// follow (session.go).
	cfg.CachedFacts, cfg.ExportFacts, cfg.KeepSession = cached, true, true
	stamps := stampDir(dir)
	r, err := driver.Run(cfg, ".")
	if err != nil {
		res.problems = append(res.problems, fmt.Sprintf("loading %s: %v", dir, err))
		res.noCache = true
		return res
	}
	if r.Session != nil && ctx.Err() == nil {
		res.session = newDirSession(dir, r.Session, overlay, stamps)
	}
	s.fill(res, r, overlay)
	return res
}

// newResult is an empty result for dir.
func newResult(dir string) *pkgResult {
	return &pkgResult{
		dir:      dir,
		pkgPaths: map[string]bool{},
		deps:     map[string]bool{},
		modTimes: map[string]time.Time{},
		overlaid: map[string][32]byte{},
		findings: map[string][]*finding{},
		versions: map[string]int32{},
		withheld: map[string]int{},
	}
}

// fill records in res what the driver's run r found.
func (s *Server) fill(res *pkgResult, r *driver.Result, overlay map[string][]byte) {
	res.noCache = len(r.Errors) > 0
	res.facts, res.replayed = r.Facts, r.Replayed
	for _, pkg := range r.Packages {
		res.pkgPaths[pkg.PkgPath] = true
		for _, f := range pkg.GoFiles {
			if info, err := os.Stat(f); err == nil {
				res.modTimes[f] = info.ModTime()
			}
			if text, ok := overlay[f]; ok {
				res.overlaid[f] = sha256.Sum256(text)
			}
		}
	}
	packages.Visit(r.Packages, nil, func(pkg *packages.Package) {
		if !res.pkgPaths[pkg.PkgPath] {
			res.deps[pkg.PkgPath] = true
		}
	})
	res.headersUsed = r.HeadersUsed
	res.problems = append(res.problems, r.Triage.Notes...)
	for _, line := range r.Triage.Errors {
		res.problems = append(res.problems, firstErrors(line))
	}
	res.problems = append(res.problems, r.Notes...)
	for _, e := range r.Errors {
		res.problems = append(res.problems, e.String())
	}
	s.collect(r.Findings, res, overlay)
}

// driverConfig is the driver's configuration for analyzing dir.
func (s *Server) driverConfig(ctx context.Context, dir string, overlay map[string][]byte) driver.Config {
	return driver.Config{
		Analyzers:      s.opts.Analyzers,
		Checks:         s.opts.Checks,
		Directives:     true, // HL0001–HL0003, as the command line reports them
		Context:        ctx,
		Dir:            dir,
		Env:            s.opts.Env,
		MissingHeaders: s.opts.MissingHeaders,
		Tags:           s.opts.Tags,
		Tests:          s.opts.Tests,
		Overlay:        overlay,
		NoTier3:        s.opts.NoTier3,
		Stacks:         s.opts.Debug,
		Override:       s.currentOverride(),
	}
}

// collect turns the driver's findings into findings of res, ready to
// publish: positions and fixes placed in the text that was analyzed.
func (s *Server) collect(found []*driver.Finding, res *pkgResult, overlay map[string][]byte) {
	src := fixes.NewSources()
	for file, text := range overlay {
		src.Use(file, bytes.Clone(text))
	}
	sizes := fileSizes{overlay: overlay, known: map[string]int64{}}
	limit := s.maxFixFileSize()
	for _, df := range found {
		posn := df.Posn
		if !posn.IsValid() {
			continue
		}
		f := &finding{diag: s.diagnostic(src, df.Pkg.Fset, df.Diagnostic)}
		if len(df.Diagnostic.SuggestedFixes) > 0 && sizes.over(df.Pkg.Fset, fixPositions(df.Diagnostic), limit) {
			// Mapping a fix reads the whole file, and the one edit that
			// says what -fix writes is computed over all of it: not for
			// files this large (docs/editors.md, "Limits").
			res.withheld[posn.Filename]++
			f.diag.RelatedInformation = append(f.diag.RelatedInformation, diagnosticRelatedInformation{
				Location: location{URI: pathToURI(posn.Filename), Range: f.diag.Range},
				Message:  "no quick fix: the file is larger than " + sizeString(limit) + ", the largest for which hiplint offers fixes",
			})
			res.findings[posn.Filename] = append(res.findings[posn.Filename], f)
			continue
		}
		for _, fix := range df.Diagnostic.SuggestedFixes {
			qf, err := quickFixOf(src, df.Pkg, fix)
			if err != nil {
				res.problems = append(res.problems, fmt.Sprintf("%s: fix %q not offered: %v", posn, fix.Message, err))
				continue
			}
			f.fixes = append(f.fixes, qf)
		}
		res.findings[posn.Filename] = append(res.findings[posn.Filename], f)
	}
	for _, list := range res.findings {
		slices.SortStableFunc(list, func(a, b *finding) int {
			switch {
			case a.diag.Range.Start.before(b.diag.Range.Start):
				return -1
			case b.diag.Range.Start.before(a.diag.Range.Start):
				return 1
			}
			return strings.Compare(a.diag.Code+a.diag.Message, b.diag.Code+b.diag.Message)
		})
	}
}

// diagnostic converts d to the protocol's form: positions in the user's
// file (adjusted through cgo's //line directives, as the command line
// prints them), the check ID as code with its documentation page, the
// check's severity.
func (s *Server) diagnostic(src *fixes.Sources, fset *token.FileSet, d analysis.Diagnostic) diagnostic {
	out := diagnostic{
		Range:    rangeOf(src, fset, d.Pos, d.End),
		Severity: severityWarning,
		Code:     d.Category,
		Source:   "hiplint",
		Message:  d.Message,
	}
	href := d.URL
	if c, ok := s.checks[d.Category]; ok {
		href = c.URL()
		if c.Severity == diag.Error {
			out.Severity = severityError
		}
	}
	if href != "" {
		out.CodeDescription = &codeDescription{Href: href}
	}
	for _, r := range d.Related {
		posn := fset.Position(r.Pos)
		if !posn.IsValid() {
			continue
		}
		out.RelatedInformation = append(out.RelatedInformation, diagnosticRelatedInformation{
			Location: location{URI: pathToURI(posn.Filename), Range: rangeOf(src, fset, r.Pos, r.End)},
			Message:  r.Message,
		})
	}
	return out
}

// rangeOf returns the range from pos to end in the user's file. Both are
// placed exactly where internal/fixes can place them (everywhere in files
// without //line directives; in cgo files, wherever cgo did not rewrite the
// text before or after them on the line). Otherwise the start falls back to
// the line and column of the //line directives, which is what hiplint
// prints, and the range is empty: columns past cgo's rewrites would
// otherwise stretch it over text it is not about.
func rangeOf(src *fixes.Sources, fset *token.FileSet, pos, end token.Pos) lspRange {
	file, startOffset, err := src.Locate(fset, pos)
	if err != nil {
		posn := fset.Position(pos)
		content, _ := src.Read(posn.Filename) // unreadable: the columns count bytes
		start := linePosition(content, posn.Line, posn.Column)
		return lspRange{Start: start, End: start}
	}
	content, _ := src.Read(file) // read already by Locate
	out := lspRange{Start: offsetPosition(content, startOffset)}
	out.End = out.Start
	if end.IsValid() && end != pos {
		if endFile, endOffset, err := src.Locate(fset, end); err == nil && endFile == file && endOffset >= startOffset {
			out.End = offsetPosition(content, endOffset)
		}
	}
	return out
}

// quickFixOf maps fix the way -fix does (internal/fixes) and describes,
// for each file it touches, the one edit that turns the file into what -fix
// would write, gofmt included.
func quickFixOf(src *fixes.Sources, pkg *packages.Package, fix analysis.SuggestedFix) (quickFix, error) {
	edits, err := src.Map(pkg, fix)
	if err == nil {
		err = src.RefuseGenerated(edits)
	}
	taken := map[string][]fixes.Edit{}
	if err == nil {
		err = fixes.Merge(taken, edits) // refuses a fix whose own edits overlap, as -fix does
	}
	if err != nil {
		return quickFix{}, err
	}
	qf := quickFix{title: fix.Message, edits: map[string][]textEdit{}}
	for file, list := range taken {
		old, err := src.Read(file)
		if err != nil {
			return quickFix{}, err
		}
		e := fixes.Between(old, fixes.Result(old, list))
		qf.edits[file] = []textEdit{{
			Range:   lspRange{Start: offsetPosition(old, e.Start), End: offsetPosition(old, e.End)},
			NewText: e.Text,
		}}
	}
	if qf.title == "" {
		qf.title = "Apply hiplint's fix"
	}
	return qf, nil
}

// fixPositions returns the positions of d and of its fixes' edits.
func fixPositions(d analysis.Diagnostic) []token.Pos {
	out := []token.Pos{d.Pos}
	for _, fix := range d.SuggestedFixes {
		for _, te := range fix.TextEdits {
			out = append(out, te.Pos)
		}
	}
	return out
}

// fileSizes measures the files that fixes would read: the user's file as
// the analysis saw it (the buffer, or the file on disk) and the file the
// compiler saw (cgo's rewrite of it, or the file itself).
type fileSizes struct {
	overlay map[string][]byte
	known   map[string]int64
}

// over reports whether a file holding one of positions is larger than
// limit.
func (z fileSizes) over(fset *token.FileSet, positions []token.Pos, limit int64) bool {
	for _, pos := range positions {
		tf := fset.File(pos)
		if tf == nil {
			continue
		}
		if int64(tf.Size()) > limit || z.size(tf.PositionFor(pos, true).Filename) > limit {
			return true
		}
	}
	return false
}

func (z fileSizes) size(file string) int64 {
	if text, ok := z.overlay[file]; ok {
		return int64(len(text))
	}
	n, ok := z.known[file]
	if !ok {
		if info, err := os.Stat(file); err == nil {
			n = info.Size()
		}
		z.known[file] = n
	}
	return n
}

// moreErrors is the count that a load error line ends with (driver's
// errorLine): the errors after the first, which after a syntax error are
// mostly its consequences.
var moreErrors = regexp.MustCompile(` \(and \d+ more errors?\)$`)

// firstErrors returns a package's error line with its first error only:
// the editor shows the compiler's errors itself, and "(and 114 more
// errors)" after a one-character syntax error says nothing useful.
func firstErrors(line string) string {
	return moreErrors.ReplaceAllString(line, "")
}

// dirOf is the cache key of a file: its directory.
func dirOf(path string) string { return filepath.Dir(path) }
