package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/hiplint/hiplint/analyzers"
	"github.com/hiplint/hiplint/internal/cgocall"
	"github.com/hiplint/hiplint/internal/config"
	"github.com/hiplint/hiplint/internal/driver"
	"github.com/hiplint/hiplint/internal/headerless"
	"github.com/hiplint/hiplint/internal/resultcache"
	"golang.org/x/tools/go/packages"
)

// lint is the standalone driver: load the packages, analyze the ones that
// type-check, print the findings or apply their fixes.
//
// Exit status: 3 when there are findings, otherwise 1 when anything failed
// (a package that did not load or type-check, an analyzer error, and with
// -strict-ctypes a package analyzed without its C types), otherwise 0.
// Findings win over errors on purpose: a package that does not compile must
// not turn the others' findings into a mere "error" for tools that tell the
// two apart; both statuses are non-zero, so CI fails either way, and the
// errors are printed either way.
func (p *program) lint(args []string) int {
	o, err := p.parseFlags(args)
	if errors.Is(err, flag.ErrHelp) {
		return exitClean
	}
	if err != nil {
		return exitUsage // already printed, with the usage
	}
	if o.version {
		return p.versionCommand(nil)
	}
	defer p.startProfiles(o.profiles)()
	if p.dir == "" {
		if p.dir, err = os.Getwd(); err != nil {
			p.errorf("%v", err)
			return exitError
		}
	}

	res, failed, err := p.analyze(o)
	if err != nil {
		p.errorf("%v", err)
		return exitError
	}
	// A hiplint.toml that does not parse fails every package under it:
	// one line per distinct error, and nothing else, as for a bad flag.
	var cfgErrs []*config.Error
	for _, e := range res.errors {
		var ce *config.Error
		if errors.As(e.Err, &ce) {
			cfgErrs = append(cfgErrs, ce)
		}
	}
	if len(cfgErrs) > 0 {
		for _, ce := range config.Distinct(cfgErrs) {
			p.errorf("%v", ce)
		}
		return exitUsage
	}

	var remaining int // findings still in the tree when we are done
	switch {
	case o.fix || o.diff:
		var fixErr bool
		remaining, fixErr = p.applyFixes(res.findings, res.sources, o.diff)
		failed = failed || fixErr
	case o.format == "json":
		if code := p.writeJSON(res.jsonTree(o.strictC)); code != exitClean {
			return code
		}
		remaining = len(res.out)
	case o.format == "sarif":
		if code := p.writeJSON(p.sarif(res, res.moduleDir, failed, o.strictC)); code != exitClean {
			return code
		}
		remaining = len(res.out)
	default:
		p.printText(res.out)
		remaining = len(res.out)
	}
	if o.format != "json" {
		for _, e := range res.errors {
			p.errorf("%s", e)
			var pe *analyzers.PanicError
			if o.debug && errors.As(e.Err, &pe) && !strings.Contains(e.String(), "goroutine ") {
				fmt.Fprintf(p.stderr, "%s\n", pe.Stack)
			}
		}
	}
	failed = failed || len(res.errors) > 0
	// -strict-ctypes: a package analyzed without its C types fails the run.
	failed = failed || (o.strictC && len(res.degraded) > 0)

	switch {
	case remaining > 0:
		return exitFindings
	case failed:
		return exitError
	}
	return exitClean
}

// analyze loads and analyzes the packages named by the patterns through
// internal/driver, or answers them from the result cache (cache.go),
// printing the notes and the error lines of the packages that did not load
// (a note for each package analyzed at tier 3: its cgo step failed, it was
// analyzed from its Go files). It returns the findings and whether any
// error was printed: notes are not errors.
func (p *program) analyze(o *options) (*results, bool, error) {
	newExe := false // the cache has never seen this hiplint: it holds nothing for it
	if cacheBypass(o) == "" {
		if dir, err := resultcache.Dir(); err == nil {
			if c, err := resultcache.Open(dir, resultcache.Limit()); err == nil {
				newExe = !driver.ExecutableKnown(c)
				// The cache's identity hashes hiplint's executable,
				// unless the cache already holds that hash: read it
				// while the C compiler looks for the GPU headers
				// (ExecutableHash runs once).
				go driver.ExecutableHash(c)
			}
		}
	}
	env, missing, cleanup, err := p.headerEnv(o.headers, cacheBypass(o) == "")
	if err != nil {
		return nil, false, err
	}
	defer cleanup()
	cfg := driver.Config{
		Analyzers:      o.analyzers,
		Checks:         p.checks,
		Override:       o.override,
		Directives:     true,
		Dir:            p.dir,
		Env:            env,
		MissingHeaders: missing,
		Tags:           o.tags,
		Tests:          o.tests,
		NoTier3:        o.headers == "system",
		ForceTier3:     os.Getenv("HIPLINT_TIER3") == "force",
		Rel:            p.relative,
		Stacks:         o.debug,
		ReleaseMemory:  true,
		LimitMemory:    p.limitMemory,
		HashSources:    o.fix || o.diff,
	}
	if name := os.Getenv("HIPLINT_LOADREPORT"); name != "" {
		cfg.Loaded = func(initial []*packages.Package, t *driver.Triage) {
			if err := writeLoadReport(name, initial, t); err != nil {
				p.errorf("%v", err)
			}
		}
	}
	var ro *runOutput
	if why := cacheBypass(o); why == "" {
		ro, err = p.analyzeCached(o, cfg, newExe)
	} else {
		p.cacheStats(cacheStats{Off: why})
		ro, err = p.analyzeAll(cfg, o.patterns)
	}
	if err != nil {
		return nil, false, err
	}
	if len(ro.headersUsed) > 0 {
		fmt.Fprintf(p.stderr, "hiplint: note: the C compiler finds no <%s>; cgo used hiplint's declarations of the runtime API instead (-headers=system turns this off)\n",
			strings.Join(ro.headersUsed, ">, <"))
	}
	for _, line := range ro.notes {
		p.errorf("%s", line)
	}
	for _, line := range ro.errLines {
		p.errorf("%s", line)
	}
	if ro.hint != "" {
		fmt.Fprintf(p.stderr, "hiplint: hint: %s\n", ro.hint)
	}
	for _, line := range ro.budget { // functions left out over their analysis budget
		p.errorf("%s", line)
	}
	res := &results{findings: ro.findings, out: ro.out, errors: ro.errors, sources: ro.sources, degraded: ro.degraded, moduleDir: ro.moduleDir}
	if o.strictC && len(res.degraded) > 0 {
		p.errorf("-strict-ctypes: %d package(s) analyzed without their C types (tier 3); hazards that depend on them may be missed", len(res.degraded))
	}
	return res, len(ro.errLines) > 0, nil
}

// A runOutput is what analyze prints, from the driver or the cache.
type runOutput struct {
	headersUsed []string      // the fallback headers cgo used
	notes       []string      // the triage's notes (tier 3, synthesis), sorted
	errLines    []string      // the triage's error lines, sorted
	hint        string        // headerless.PlatformHint
	budget      []string      // functions left out over their budget, sorted
	findings    []*finding    // the driver's (nil from the cache)
	out         []*outFinding // as printed
	errors      []actionError // analyzer failures
	sources     map[string]driver.Digest
	degraded    map[string]string               // tier-3 packages by path, with their notes
	moduleDir   string                          // SARIF's fallback source root
	facts       map[string]*driver.PackageFacts // driver.Result.Facts
	replayed    []string                        // driver.Result.Replayed
}

// analyzeAll runs the driver on patterns.
func (p *program) analyzeAll(cfg driver.Config, patterns []string) (*runOutput, error) {
	r, err := driver.Run(cfg, patterns...)
	if err != nil {
		return nil, err
	}
	ro := &runOutput{
		headersUsed: r.HeadersUsed,
		notes:       r.Triage.Notes,
		errLines:    r.Triage.Errors,
		hint:        r.Hint,
		budget:      r.Notes,
		findings:    r.Findings,
		errors:      r.Errors,
		sources:     r.Sources,
		degraded:    map[string]string{},
		facts:       r.Facts,
		replayed:    r.Replayed,
	}
	if cfg.HashSources {
		ro.out = textOnly(r.Findings) // -fix and -diff print text only
	} else {
		ro.out = resolve(r.Findings)
	}
	for _, path := range r.Triage.Degraded {
		for _, note := range r.Triage.Notes {
			if strings.HasPrefix(note, path+": note: ") {
				ro.degraded[path] = note
			}
		}
	}
	for _, pkg := range r.Triage.Analyzable {
		if pkg.Module != nil && pkg.Module.Main && pkg.Module.Dir != "" {
			ro.moduleDir = pkg.Module.Dir
			break
		}
	}
	return ro, nil
}

// headerEnv returns the environment for loading: where the C compiler cannot
// find a GPU runtime header, cgo gets hiplint's own declarations of that API
// (after every real include directory, so installed headers still win). It
// also returns the headers that were missing.
// useCache: the compiler's default include directories may come from the
// result cache (missingHeaders).
func (p *program) headerEnv(mode string, useCache bool) (env, missing []string, cleanup func(), err error) {
	env = os.Environ()
	switch mode {
	case "system":
		return env, nil, func() {}, nil
	case "hiplint":
	case "auto", "":
		if missing = missingHeaders(env, useCache); len(missing) == 0 {
			return env, nil, func() {}, nil
		}
	default:
		return nil, nil, nil, fmt.Errorf("-headers=%s: want auto, system or hiplint", mode)
	}
	dir, cleanup, err := headerless.Install()
	if err != nil {
		return nil, nil, nil, fmt.Errorf("installing hiplint's GPU headers: %v", err)
	}
	if mode == "hiplint" {
		// -I, searched before every installed header: always hiplint's.
		return headerless.Override(env, dir), nil, cleanup, nil
	}
	return headerless.Env(env, dir), missing, cleanup, nil
}

// missingHeaders is headerless.Missing without running the C compiler where
// the result cache holds the compiler's default include directories
// (driver.SearchDirs): the headers are then looked up in them and in the
// directories CGO_CPPFLAGS and CGO_CFLAGS add.
func missingHeaders(env []string, useCache bool) []string {
	cc, args := headerless.CompilerArgs(env)
	if dir, err := resultcache.Dir(); err == nil && useCache {
		if c, err := resultcache.Open(dir, resultcache.Limit()); err == nil {
			if dirs, ok := driver.SearchDirs(env, c, cc, args); ok {
				return headerless.MissingFrom(dirs)
			}
		}
	}
	return headerless.Missing(env)
}

// writeLoadReport writes, for bench/corpus/run.sh, one line per initial
// package path: the path, how it was loaded (analyzed: tier 1 or 2; tier3;
// partial: an import not found; failed) and whether it calls a GPU runtime
// function (gpu or nogpu).
func writeLoadReport(name string, initial []*packages.Package, t *driver.Triage) error {
	status := map[string]string{}
	gpu := map[string]bool{}
	for _, pkg := range initial {
		if pkg.Name == "main" && strings.HasSuffix(pkg.PkgPath, ".test") {
			continue // the generated test main
		}
		gpu[pkg.PkgPath] = gpu[pkg.PkgPath] || callsRuntime(pkg)
		if _, ok := status[pkg.PkgPath]; !ok {
			status[pkg.PkgPath] = "failed"
		}
	}
	for _, pkg := range t.Analyzable {
		if _, ok := status[pkg.PkgPath]; ok {
			status[pkg.PkgPath] = "analyzed"
		}
	}
	for _, path := range t.Partial {
		if status[path] == "analyzed" {
			status[path] = "partial"
		}
	}
	for _, path := range t.Degraded {
		if status[path] == "analyzed" || status[path] == "partial" {
			status[path] = "tier3"
		}
	}
	var buf bytes.Buffer
	for _, path := range slices.Sorted(maps.Keys(status)) {
		g := "nogpu"
		if gpu[path] {
			g = "gpu"
		}
		fmt.Fprintf(&buf, "%s %s %s\n", path, status[path], g)
	}
	return os.WriteFile(name, buf.Bytes(), 0o644)
}

// callsRuntime reports whether a user file of pkg calls a runtime function
// of the API model (as cgo's output or, at tier 3, by name).
func callsRuntime(pkg *packages.Package) bool {
	if pkg.TypesInfo == nil {
		return false
	}
	found := false
	for _, f := range pkg.Syntax {
		ast.Inspect(f, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok && !found && cgocall.Match(pkg.TypesInfo, c) != nil {
				found = true
			}
			return !found
		})
	}
	return found
}
