package driver

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"go/token"
	"go/types"
	"os"
	"slices"
	"strings"

	"github.com/hiplint/hiplint/internal/cgocall"
	"github.com/hiplint/hiplint/internal/config"
	"github.com/hiplint/hiplint/internal/diag/check"
	"github.com/hiplint/hiplint/internal/flow"
	"github.com/hiplint/hiplint/internal/headerless"
	"github.com/hiplint/hiplint/internal/suppress"
	"github.com/hiplint/hiplint/internal/synth"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// Config says what Run loads and how it analyzes it. Every setting is the
// run's own: two runs in one process, concurrent or not, do not see each
// other's (there is no process-wide switch).
type Config struct {
	// Analyzers run on every analyzable package. Run guards them against
	// panics (guard); nil loads and triages only.
	Analyzers []*analysis.Analyzer
	// Candidates, when not empty, run after Analyzers on the same packages
	// (runtimecheck's candidate mode, confirm -silent): their findings are
	// Result.Candidates. The suppression directives apply to them too, but
	// no directive problem is reported about them.
	Candidates []*analysis.Analyzer
	// Checks are the checks the analyzers report. With Directives, the
	// problems with the suppression directives (HL0001–HL0003) are
	// reported as findings of the analyzer "directive"; the checks tell
	// which analyzer must have run for a directive to be unused.
	Checks     []check.Check
	Directives bool
	// KeepSuppressed keeps the findings that a directive suppresses in
	// Result.Findings, marked Suppressed, instead of dropping them.
	KeepSuppressed bool
	// Override is the front end's configuration (-checks, explicit
	// analyzer flags), applied after each package's hiplint.toml files
	// (internal/config); nil: the files alone.
	Override *config.Override

	// Context, when not nil, cancels the run: loading, and the analysis
	// between one analyzer's run on a package and the next (an analyzer
	// that has started on a package runs to its end). A cancelled Run
	// returns the context's error.
	Context context.Context
	// Dir is the directory the patterns are relative to ("": the current).
	Dir string
	// Env is the go command's environment (nil: the process's), with
	// hiplint's GPU headers where the caller installed them.
	Env []string
	// MissingHeaders are the GPU headers the C compiler does not find, for
	// which Env gives cgo hiplint's own (Result.HeadersUsed).
	MissingHeaders []string
	// Tags are build tags, comma-separated.
	Tags string
	// Tests loads the packages' test variants too.
	Tests bool
	// Overlay replaces the contents of files (a language server's unsaved
	// buffers), as packages.Config.Overlay.
	Overlay map[string][]byte
	// NoTier3 makes a package whose cgo step fails an error instead of
	// analyzing it at tier 3 (-headers=system). It also turns synthesis
	// off (internal/synth).
	NoTier3 bool
	// ForceTier3 makes cgo fail in every package with a cgo preamble
	// outside the standard library, so that all are analyzed at tier 3
	// (HIPLINT_TIER3=force: for comparing the tiers' findings). It turns
	// synthesis off.
	ForceTier3 bool
	// Rel, when not nil, rewrites the file names in error lines and notes.
	Rel func(file string) string

	// Stacks gives the error of an analyzer's panic the goroutine's stack.
	Stacks bool
	// ReleaseMemory frees each package's syntax and types as soon as the
	// analysis no longer needs them, and LimitMemory keeps the analysis
	// within the memory loading took (memory.go): the command line's
	// settings. After a run that released, the packages' types.Info (and
	// the dependencies' syntax) are gone. ReleaseMemory is ignored with
	// Candidates, which need them after the first analysis.
	ReleaseMemory, LimitMemory bool
	// Loaded, when not nil, is called after triage, before the analysis,
	// with the initial packages (for HIPLINT_LOADREPORT).
	Loaded func(initial []*packages.Package, t *Triage)
	// AllSyntax loads every dependency from syntax. Otherwise only the
	// packages that may produce or see facts are (exportload.go), the
	// others from export data, where the analyzers allow it.
	AllSyntax bool
	// HashSources records in Result.Sources what the analysis read of each
	// file (sources.go): -fix writes a file only while it still holds
	// those bytes.
	HashSources bool
	// CachedFacts are facts of dependencies from the result cache, by
	// package ID (facts.go): a dependency named here (not an initial
	// package) is loaded from export data, not from syntax, and its
	// analyzers export these facts instead of running. ExportFacts asks
	// for Result.Facts.
	CachedFacts map[string]*PackageFacts
	ExportFacts bool
	// KeepSession keeps the loaded graph in Result.Session, for
	// Session.Rerun (a language server's edits); with ExportFacts, the
	// facts to replay come with it.
	KeepSession bool
}

// A Finding is one diagnostic of one analyzer, or one problem with a
// suppression directive (Analyzer "directive").
type Finding struct {
	Pkg        *packages.Package // the first package whose analysis reported it
	Analyzer   string
	Diagnostic analysis.Diagnostic // its fixes and related positions included
	Posn       token.Position      // in the user's file: adjusted through //line directives
	// Suppressed: a directive suppresses it (only with Config.KeepSuppressed).
	Suppressed bool
}

// An ActionError is an analyzer that failed on a package.
type ActionError struct {
	PkgID, Analyzer string
	Err             error
}

// String formats the failure as one message naming the analyzer and the
// package.
func (e ActionError) String() string {
	var pe *panicError
	if errors.As(e.Err, &pe) || strings.HasPrefix(e.Err.Error(), "internal error: analyzer "+e.Analyzer+" panicked on package ") {
		// A panic, recovered here or by the analyzer itself
		// (analyzers.PanicError, worded alike): it names the analyzer
		// and the package already.
		return e.Err.Error()
	}
	return fmt.Sprintf("analyzer %s failed on package %s: %v", e.Analyzer, e.PkgID, e.Err)
}

// Result is what one Run loaded and found.
type Result struct {
	// Packages are the initial packages, as loaded and triaged.
	Packages []*packages.Package
	// Triage says which of them were analyzed, at which tier (Degraded:
	// tier 3; Partial: an import not found), and gives the notes and the
	// error lines of the packages that did not load.
	Triage *Triage
	// Hint is headerless.PlatformHint of the packages as loaded ("": none).
	Hint string
	// Rescued are the packages whose cgo step failed and that synthesis
	// (internal/synth) repaired: they are analyzed with the runtime's C
	// types, and each says how.
	Rescued []synth.Rescue
	// HeadersUsed are the Config.MissingHeaders that some package's cgo
	// preamble includes: cgo used hiplint's declarations for them.
	HeadersUsed []string
	// Findings are the analyzers' findings and the directive problems,
	// deduplicated and sorted by position.
	Findings []*Finding
	// Candidates are Config.Candidates' findings, alike.
	Candidates []*Finding
	// Errors are the analyzers that failed: root causes only, in graph order.
	Errors []ActionError
	// Sources are, with Config.HashSources, the SHA-256 of the bytes the
	// analysis read, by file name (sources.go).
	Sources map[string]Digest
	// Notes name the functions an analyzer left out, over its analysis
	// budget (flow.Budget), one line each, sorted: notes, as the tier-3
	// notes of Triage are, not errors.
	Notes []string
	// Facts are, with Config.ExportFacts, the facts of the packages the
	// analysis read from syntax that importers could load from export
	// data, by package ID (facts.go); Replayed are the IDs of the
	// packages whose Config.CachedFacts it used.
	Facts    map[string]*PackageFacts
	Replayed []string
	// Session is, with Config.KeepSession, the loaded graph for
	// Session.Rerun.
	Session *Session
}

// Run loads the packages named by patterns with everything the analyzers
// need (syntax and types of the dependencies too, for facts), triages them
// (Classify: tiers 1 to 3, packages with type errors analyzed), runs the
// analyzers on the analyzable ones and collects their findings: without the
// ones at tier 3 that may rest on unseen C code (Tier3Filter) or that lie in
// declarations holding a type error (TouchedByErrors); with the suppression
// directives applied. It returns an error only when nothing could be
// loaded (or the patterns matched no package) or the checker refused the
// analyzers; a package that did not load is an error line of the Triage.
func Run(cfg Config, patterns ...string) (*Result, error) {
	var hashes *sourceHashes
	if cfg.HashSources {
		hashes = hashListed(&cfg, patterns) // before cgo reads them
	}
	pkgs, rescued, cleanup, err := load(&cfg, patterns, hashes)
	defer cleanup()
	if err == nil && cfg.Context != nil {
		err = cfg.Context.Err()
	}
	if err != nil {
		return nil, err
	}
	var sess *Session
	if cfg.KeepSession {
		sess = newSession(pkgs, rescued, cfg.Overlay) // before the triage rewrites the packages' errors
	}
	res, err := analyzeLoaded(&cfg, pkgs, rescued)
	if err != nil {
		return nil, err
	}
	if hashes != nil {
		res.Sources = hashes.result()
	}
	if sess != nil {
		sess.keepFacts(cfg.CachedFacts, res.Facts)
		res.Session = sess
	}
	return res, nil
}

// analyzeLoaded is Run after loading: the triage, the analysis and the
// collection of findings of pkgs (Session.Rerun runs it again).
func analyzeLoaded(cfg *Config, pkgs []*packages.Package, rescued []synth.Rescue) (*Result, error) {
	var err error
	res := &Result{
		Packages:    pkgs,
		Rescued:     rescued,
		Hint:        headerless.PlatformHint(pkgs), // before the triage rewrites the packages' errors
		HeadersUsed: includedHeaders(pkgs, cfg.MissingHeaders),
	}
	res.Triage = Classify(pkgs, Options{Tier3: !cfg.NoTier3, Rel: cfg.Rel})
	// The rescued packages' notes join the tier-3 ones: every front end
	// shows them.
	for _, r := range rescued {
		res.Triage.Notes = append(res.Triage.Notes, r.Note())
	}
	slices.Sort(res.Triage.Notes)
	if cfg.Loaded != nil {
		cfg.Loaded(pkgs, res.Triage)
	}
	roots := res.Triage.Analyzable
	if len(roots) == 0 {
		return res, nil
	}
	// Before the releaser frees the syntax it reads.
	tier3 := NewTier3Filter(roots, res.Triage.Degraded, res.Triage.Partial)
	release := cfg.ReleaseMemory && len(cfg.Candidates) == 0
	if len(cfg.Analyzers) > 0 {
		var fx *factsIO
		if cfg.ExportFacts || len(cfg.CachedFacts) > 0 {
			fx = &factsIO{rescued: map[string]bool{}}
			for _, r := range rescued {
				fx.rescued[r.Path] = true
			}
		}
		res.Findings, res.Errors, res.Notes, err = analyze(cfg, cfg.Analyzers, roots, tier3, release, cfg.Directives, fx)
		if fx != nil {
			res.Facts, res.Replayed = fx.out, fx.replayed
		}
		if err != nil {
			return nil, err
		}
	}
	if len(cfg.Candidates) > 0 {
		var errs []ActionError
		res.Candidates, errs, _, err = analyze(cfg, cfg.Candidates, roots, tier3, false, false, nil)
		if err != nil {
			return nil, err
		}
		res.Errors = append(res.Errors, errs...)
	}
	return res, nil
}

// load loads the patterns; with hashes, it records the hash of each file
// it parses. Unless cfg.NoTier3, packages whose cgo step failed are
// repaired where synth can, at most synth.MaxRounds rounds: each round
// lists and type-checks again only the packages the repairs reach, in
// place in the loaded graph (rescan), and the packages that import a
// rescued one are type-checked again once at the end. With cfg.ForceTier3,
// every cgo package is made to fail and the patterns are loaded again,
// the first load dropped before. Call cleanup when the packages are no
// longer needed.
func load(cfg *Config, patterns []string, hashes *sourceHashes) (pkgs []*packages.Package, rescued []synth.Rescue, cleanup func(), err error) {
	var cleanups []func()
	cleanup = func() {
		for _, c := range cleanups {
			c()
		}
	}
	// cgo leaves its compiler input (cgo-gcc-input-N and .c) in TMPDIR
	// when the C compiler fails, as it does at every tier-3 package and
	// every round of synthesis: every go command of the load (go list,
	// the export-data and rescan loads) gets a temporary directory of its
	// own, removed with the rest.
	if tmp, err := os.MkdirTemp(tempDir(cfg.Env), "hiplint-load-"); err == nil {
		cleanups = append(cleanups, func() { os.RemoveAll(tmp) })
		c := *cfg
		env := cfg.Env
		if env == nil {
			env = os.Environ()
		}
		c.Env = append(slices.Clip(env), "TMPDIR="+tmp)
		cfg = &c
	}
	pkgs, err = loadOnce(cfg, cfg.Overlay, patterns, hashes)
	if err != nil || cfg.NoTier3 {
		return pkgs, nil, cleanup, err
	}
	s := synth.New(cfg.Overlay, headerless.Ships, func(name string, data []byte) (string, error) {
		path, c, err := headerless.InstallGenerated(name, data)
		if err == nil {
			cleanups = append(cleanups, c)
		}
		return path, err
	})
	s.SetHeaders(synth.Headers{
		// MissingHeaders are those hiplint's fallback serves: any other
		// the compiler finds is the machine's.
		Machine:  func(h string) bool { return !slices.Contains(cfg.MissingHeaders, h) },
		Declares: headerless.Declares,
		Pinned: func() (string, error) {
			dir, c, err := headerless.Pinned()
			if err == nil {
				cleanups = append(cleanups, c)
			}
			return dir, err
		},
	})
	if cfg.ForceTier3 {
		if !s.ForceTier3(pkgs) {
			return pkgs, nil, cleanup, nil
		}
		pkgs = nil // one load at a time
		overlay, err := s.Overlay()
		if err != nil {
			return nil, nil, cleanup, err
		}
		pkgs, err = loadOnce(cfg, overlay, patterns, hashes)
		return pkgs, nil, cleanup, err
	}
	r := newRescan(cfg, hashes, pkgs)
	if r == nil {
		return pkgs, nil, cleanup, nil
	}
	for round := 0; round <= synth.MaxRounds; round++ {
		if !s.Step(pkgs, round == synth.MaxRounds) {
			break
		}
		overlay, err := s.Overlay()
		if err != nil {
			r.restoreAll() // the packages stay as loaded: at tier 3
			break
		}
		if err := r.apply(overlay); err != nil {
			if cfg.Context != nil && cfg.Context.Err() != nil {
				return nil, nil, cleanup, err // cancelled: nothing to analyze
			}
			break // the packages stay as loaded, at tier 3
		}
	}
	r.finish()
	return pkgs, s.Rescued(pkgs), cleanup, nil
}

// loadPackages is packages.Load (a test counts the loads).
var loadPackages = packages.Load

// loadOnce runs packages.Load once, with overlay.
func loadOnce(cfg *Config, overlay map[string][]byte, patterns []string, hashes *sourceHashes) ([]*packages.Package, error) {
	if pkgs, ok := loadFactSyntax(cfg, overlay, patterns, hashes); ok {
		return pkgs, nil
	}
	lc := loadConfig(cfg, packages.LoadAllSyntax|packages.NeedModule)
	lc.Overlay = overlay
	if hashes != nil {
		lc.ParseFile = hashes.parseFile
	}
	pkgs, err := loadPackages(lc, patterns...)
	if err == nil && len(pkgs) == 0 {
		err = fmt.Errorf("%s matched no packages", strings.Join(patterns, " "))
	}
	return pkgs, err
}

// LocalToolchain returns env (nil: the process's) with GOTOOLCHAIN=local
// unless the user set GOTOOLCHAIN: a linter must not download a Go
// toolchain because the module's go.mod names a newer one. A module that
// needs a newer Go then fails to load with the go command's own message
// ("requires go >= ...; GOTOOLCHAIN=local"), and GOTOOLCHAIN=auto in the
// environment restores the download (docs/reliability.md).
func LocalToolchain(env []string) []string {
	if env == nil {
		env = os.Environ()
	}
	for _, kv := range env {
		if strings.HasPrefix(kv, "GOTOOLCHAIN=") && kv != "GOTOOLCHAIN=" {
			return env
		}
	}
	return append(slices.Clip(env), "GOTOOLCHAIN=local")
}

// tempDir returns the TMPDIR env sets, else the process's.
func tempDir(env []string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], "TMPDIR="); ok && v != "" {
			return v
		}
	}
	return os.TempDir()
}

// loadConfig is the packages.Config of cfg, for mode.
func loadConfig(cfg *Config, mode packages.LoadMode) *packages.Config {
	lc := &packages.Config{
		Context: cfg.Context,
		Mode:    mode,
		Tests:   cfg.Tests,
		Dir:     cfg.Dir,
		Env:     LocalToolchain(cfg.Env),
		Overlay: cfg.Overlay,
	}
	if cfg.Tags != "" {
		lc.BuildFlags = []string{"-tags=" + cfg.Tags}
	}
	return lc
}

// analyze runs the analyzers on roots and returns their findings, with the
// directives applied, their failures and their notes.
func analyze(cfg *Config, as []*analysis.Analyzer, roots []*packages.Package, tier3 *Tier3Filter, release, directives bool, fx *factsIO) ([]*Finding, []ActionError, []string, error) {
	// The driver applies the suppression directives itself, to learn
	// which ones were used: the analyzers pass on what they suppress.
	o := guardOptions{stacks: cfg.Stacks, keep: true, ctx: cfg.Context, override: cfg.Override}
	var syntax, involved map[*packages.Package]bool
	var replayedNotes []string
	if fx != nil {
		// Before the releaser frees the syntax.
		syntax, involved = map[*packages.Package]bool{}, map[*packages.Package]bool{}
		o.replay = map[*types.Package]*PackageFacts{}
		isRoot := map[*packages.Package]bool{}
		for _, p := range roots {
			isRoot[p] = true
		}
		packages.Visit(roots, nil, func(p *packages.Package) {
			// A dependency with cached facts has them replayed, whether
			// it came from export data or, under an overlay, from
			// syntax without function bodies (exportload.go).
			if pf := cfg.CachedFacts[p.ID]; pf != nil && p.Types != nil && !isRoot[p] {
				o.replay[p.Types] = pf
				involved[p] = len(pf.Facts) > 0
				fx.replayed = append(fx.replayed, p.ID)
				for _, n := range pf.Notes {
					replayedNotes = append(replayedNotes, n.line(cfg.Rel))
				}
			} else if p.Syntax != nil {
				syntax[p] = true
			}
		})
		slices.Sort(fx.replayed)
	}
	if release {
		// Keep the analysis within the memory loading took (memory.go).
		releaseInert(roots, involved)
		o.after = newReleaser(as, roots).done
	}
	restore := func() {}
	if cfg.LimitMemory {
		restore = limitAnalysisMemory()
	}
	graph, err := checker.Analyze(guard(as, o), roots, nil)
	restore()
	if err == nil && cfg.Context != nil {
		err = cfg.Context.Err() // the actions' errors say only that they did not run
	}
	if err != nil {
		return nil, nil, nil, err
	}
	findings, errs := collect(graph, tier3)
	findings = applyDirectives(graph, findings, cfg.Checks, cfg.Override, cfg.KeepSuppressed, directives)
	notes := budgetNotes(graph, cfg.Rel)
	if len(replayedNotes) > 0 {
		notes = slices.Compact(slices.Sorted(slices.Values(append(notes, replayedNotes...))))
	}
	if fx != nil && cfg.ExportFacts && len(errs) == 0 {
		fx.out = exportFacts(graph, syntax, fx.rescued)
	}
	return findings, errs, notes, nil
}

// factsIO carries the result cache's facts through analyze.
type factsIO struct {
	rescued  map[string]bool // package paths that synthesis repaired
	replayed []string
	out      map[string]*PackageFacts
}

// budgetNotes returns a line for each function an analyzer left out over
// its analysis budget (flow.Budget; the analyzer's result is flow.Noted),
// in any package it analyzed, dependencies included, sorted and once each
// (a package and its test variant share files):
//
//	PKG: note: ANALYZER left out F (FILE:LINE:COL): WHY; its findings and summary are missing
func budgetNotes(graph *checker.Graph, rel func(string) string) []string {
	seen := map[string]bool{}
	var out []string
	for act := range graph.All() {
		noted, ok := act.Result.(flow.Noted)
		if act.Err != nil || !ok {
			continue
		}
		for _, n := range noted.BudgetNotes() {
			posn := act.Package.Fset.Position(n.Pos)
			if rel != nil {
				posn.Filename = rel(posn.Filename)
			}
			line := fmt.Sprintf("%s: note: %s left out %s (%s) over its analysis budget: %s; its findings there and what its callers learn of it are missing",
				act.Package.PkgPath, act.Analyzer.Name, n.Func, posn, n.Why)
			if !seen[line] {
				seen[line] = true
				out = append(out, line)
			}
		}
	}
	slices.Sort(out)
	return out
}

// collect gathers the root actions' diagnostics and the analyzer failures of
// graph. A file that belongs to both a package and its test variant is
// analyzed twice, so identical diagnostics are kept once. A failure that
// only says a prerequisite failed is dropped: the prerequisite's own error
// says why. In a package with type errors, the findings inside a declaration
// that holds one are dropped: the analyzers saw invalid types there, and the
// error is printed instead. At tier 3, the findings that may rest on code
// the analysis could not see are dropped (Tier3Filter; nil: none).
func collect(graph *checker.Graph, tier3 *Tier3Filter) ([]*Finding, []ActionError) {
	type key struct {
		posn              token.Position
		analyzer, message string
		category          string
	}
	seen := make(map[key]bool)
	touched := make(map[*packages.Package]func(token.Pos) bool)
	var findings []*Finding
	var errs []ActionError
	for act := range graph.All() {
		if act.Err != nil {
			if !slices.ContainsFunc(act.Deps, func(dep *checker.Action) bool { return dep.Err != nil }) {
				errs = append(errs, ActionError{act.Package.ID, act.Analyzer.Name, act.Err})
			}
			continue
		}
		if !act.IsRoot {
			continue
		}
		if len(act.Diagnostics) > 0 && touched[act.Package] == nil {
			touched[act.Package] = TouchedByErrors(act.Package)
		}
		for _, d := range act.Diagnostics {
			if touched[act.Package](d.Pos) || tier3.Drop(act.Package, d.Category, positions(d)) {
				continue
			}
			f := &Finding{
				Pkg:        act.Package,
				Analyzer:   act.Analyzer.Name,
				Diagnostic: d,
				Posn:       act.Package.Fset.Position(d.Pos),
			}
			k := key{f.Posn, f.Analyzer, d.Message, d.Category}
			if !seen[k] {
				seen[k] = true
				findings = append(findings, f)
			}
		}
	}
	slices.SortStableFunc(findings, CompareFindings)
	return findings, errs
}

// applyDirectives drops (or, with keep, marks) the findings that a
// directive suppresses, with the rule diag.Report applies under the other
// drivers, and with report adds a finding for each problem with a directive
// of the analyzed packages: malformed ones, unknown check IDs, and check IDs
// that suppressed nothing although their analyzer ran on the directive's
// package (internal/suppress).
func applyDirectives(graph *checker.Graph, findings []*Finding, checks []check.Check, override *config.Override, keep, report bool) []*Finding {
	t := suppress.NewTracker(checks)
	t.Override = override
	t.Ran(graph)
	kept := findings[:0]
	for _, f := range findings {
		if t.Suppresses(f.Pkg, f.Diagnostic, f.Posn) {
			if !keep {
				continue
			}
			f.Suppressed = true
		}
		kept = append(kept, f)
	}
	findings = kept
	if report {
		for _, pr := range t.Problems() {
			findings = append(findings, &Finding{
				Pkg:        pr.Pkg,
				Analyzer:   "directive",
				Diagnostic: pr.Diagnostic,
				Posn:       pr.Posn,
			})
		}
	}
	slices.SortStableFunc(findings, CompareFindings)
	return findings
}

// positions returns where d is reported and its related positions.
func positions(d analysis.Diagnostic) []token.Pos {
	out := []token.Pos{d.Pos}
	for _, r := range d.Related {
		out = append(out, r.Pos)
	}
	return out
}

// CompareFindings orders findings by position, then check ID and message.
func CompareFindings(a, b *Finding) int {
	return cmp.Or(
		cmp.Compare(a.Posn.Filename, b.Posn.Filename),
		cmp.Compare(a.Posn.Line, b.Posn.Line),
		cmp.Compare(a.Posn.Column, b.Posn.Column),
		cmp.Compare(a.Diagnostic.Category, b.Diagnostic.Category),
		cmp.Compare(a.Diagnostic.Message, b.Diagnostic.Message),
	)
}

// includedHeaders returns the headers of names that some loaded package's
// cgo preamble includes, so that hiplint mentions the fallback only when it
// was used.
func includedHeaders(pkgs []*packages.Package, names []string) []string {
	if len(names) == 0 {
		return nil
	}
	used := map[string]bool{}
	seen := map[string]bool{}
	var buf bytes.Buffer // one buffer for every file: this runs before the analysis, on every package
	packages.Visit(pkgs, nil, func(pkg *packages.Package) {
		switch {
		case pkg.Types != nil && !fromExportData(pkg) && !cgocall.UsesCgo(pkg.Types):
			// No preamble to read (most of std, most dependencies).
			return
		case fromExportData(pkg) && !mayUseCgo(pkg, nil):
			// Types from export data do not say whether the package
			// used cgo, but go list's files do (mayUseCgo).
			return
		}
		for _, f := range pkg.GoFiles {
			if seen[f] {
				continue
			}
			seen[f] = true
			buf.Reset()
			if err := readInto(&buf, f); err != nil {
				continue
			}
			data := buf.Bytes()
			if !bytes.Contains(data, []byte(`import "C"`)) {
				continue
			}
			for _, n := range names {
				if bytes.Contains(data, []byte("<"+n+">")) {
					used[n] = true
				}
			}
		}
	})
	var out []string
	for _, n := range names {
		if used[n] {
			out = append(out, n)
		}
	}
	return out
}

func readInto(buf *bytes.Buffer, name string) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = buf.ReadFrom(f)
	return err
}
