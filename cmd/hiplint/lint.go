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
	"github.com/hiplint/hiplint/internal/diag"
	"github.com/hiplint/hiplint/internal/driver"
	"github.com/hiplint/hiplint/internal/headerless"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// lint is the standalone driver: load the packages, analyze the ones that
// type-check, print the findings or apply their fixes.
//
// Exit status: 3 when there are findings, otherwise 1 when anything failed
// (a package that did not load or type-check, an analyzer error), otherwise 0.
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
	defer p.startProfiles(o.profiles)()
	if p.dir == "" {
		if p.dir, err = os.Getwd(); err != nil {
			p.errorf("%v", err)
			return exitError
		}
	}

	pkgs, err := p.load(o)
	if err != nil {
		p.errorf("%v", err)
		return exitError
	}
	hint := headerless.PlatformHint(pkgs) // before the triage rewrites the packages' errors
	roots, degraded, failed := p.reportPackageErrors(pkgs, o.headers)
	if hint != "" {
		fmt.Fprintf(p.stderr, "hiplint: hint: %s\n", hint)
	}

	var res *results
	if len(roots) > 0 && len(o.analyzers) > 0 {
		// This driver applies the suppression directives itself, to learn
		// which ones were used: see directives.go.
		diag.KeepSuppressed(true)
		// Before the releaser frees the syntax it reads.
		tier3 := driver.NewTier3Filter(roots, degraded)
		// Keep the analysis within the memory loading took (memory.go).
		releaseInert(roots)
		rel := newReleaser(o.analyzers, roots)
		restore := func() {}
		if p.limitMemory {
			restore = limitAnalysisMemory()
		}
		graph, err := checker.Analyze(guardThen(o.analyzers, o.debug, rel.done), roots, nil)
		restore()
		if err != nil {
			p.errorf("%v", err)
			return exitError
		}
		res = collect(graph, tier3)
		p.applyDirectives(graph, res)
	} else {
		res = &results{}
	}

	var remaining int // findings still in the tree when we are done
	switch {
	case o.fix || o.diff:
		var fixErr bool
		remaining, fixErr = p.applyFixes(res.findings, o.diff)
		failed = failed || fixErr
	case o.format == "json":
		if code := p.writeJSON(res.jsonTree()); code != exitClean {
			return code
		}
		remaining = len(res.findings)
	case o.format == "sarif":
		if code := p.writeJSON(p.sarif(res, roots, failed)); code != exitClean {
			return code
		}
		remaining = len(res.findings)
	default:
		p.printText(res.findings)
		remaining = len(res.findings)
	}
	if o.format != "json" {
		for _, e := range res.errors {
			p.errorf("%s", e)
			var pe *analyzers.PanicError
			if o.debug && errors.As(e.err, &pe) && !strings.Contains(e.String(), "goroutine ") {
				fmt.Fprintf(p.stderr, "%s\n", pe.Stack)
			}
		}
	}
	failed = failed || len(res.errors) > 0

	switch {
	case remaining > 0:
		return exitFindings
	case failed:
		return exitError
	}
	return exitClean
}

// load loads the packages named by the patterns with everything the
// analyzers need: syntax and types of dependencies too, for facts.
func (p *program) load(o *options) ([]*packages.Package, error) {
	cfg := &packages.Config{
		Mode:  packages.LoadAllSyntax | packages.NeedModule,
		Tests: o.tests,
		Dir:   p.dir,
	}
	if o.tags != "" {
		cfg.BuildFlags = []string{"-tags=" + o.tags}
	}
	env, missing, cleanup, err := p.headerEnv(o.headers)
	if err != nil {
		return nil, err
	}
	defer cleanup()
	cfg.Env = env
	pkgs, err := packages.Load(cfg, o.patterns...)
	if used := includedHeaders(pkgs, missing); len(used) > 0 {
		fmt.Fprintf(p.stderr, "hiplint: note: the C compiler finds no <%s>; cgo used hiplint's declarations of the runtime API instead (-headers=system turns this off)\n",
			strings.Join(used, ">, <"))
	}
	if err == nil && len(pkgs) == 0 {
		err = fmt.Errorf("%s matched no packages", strings.Join(o.patterns, " "))
	}
	return pkgs, err
}

// reportPackageErrors prints a note for each package analyzed at tier 3
// (its cgo step failed: analyzed from its Go files, see internal/driver)
// and one line for each package that failed to load, parse or type-check,
// or was left out because a dependency failed (naming that dependency's
// error). It returns the initial packages that can be analyzed, those with
// type errors of their own included, the paths of the tier-3 packages, and
// whether any error was printed: notes are not errors.
func (p *program) reportPackageErrors(initial []*packages.Package, headers string) (ok []*packages.Package, degraded []string, failed bool) {
	t := driver.Run(initial, driver.Options{Tier3: headers != "system", Rel: p.relative})
	for _, line := range t.Notes {
		p.errorf("%s", line)
	}
	for _, line := range t.Errors {
		p.errorf("%s", line)
	}
	if name := os.Getenv("HIPLINT_LOADREPORT"); name != "" {
		if err := writeLoadReport(name, initial, t); err != nil {
			p.errorf("%v", err)
		}
	}
	return t.Analyzable, append(t.Degraded, t.Partial...), len(t.Errors) > 0
}

// headerEnv returns the environment for loading: where the C compiler cannot
// find a GPU runtime header, cgo gets hiplint's own declarations of that API
// (after every real include directory, so installed headers still win). It
// also returns the headers that were missing.
func (p *program) headerEnv(mode string) (env, missing []string, cleanup func(), err error) {
	env = os.Environ()
	switch mode {
	case "system":
		return env, nil, func() {}, nil
	case "hiplint":
	case "auto", "":
		if missing = headerless.Missing(env); len(missing) == 0 {
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
		if pkg.Types != nil && !cgocall.UsesCgo(pkg.Types) {
			return // no preamble to read (most of std, most dependencies)
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
