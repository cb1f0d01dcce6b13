package driver

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/hiplint/hiplint/analyzers"
	"github.com/hiplint/hiplint/internal/cgocall"
	"github.com/hiplint/hiplint/internal/hipapi"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"
)

// Syntax only where facts can come from (issue 33, docs/architecture.md
// "Loading").
//
// hiplint's analyzers export facts only in a package that calls the GPU
// runtime through cgo (cgocall.CallsRuntime) or imports, directly or not,
// one that does: every other package they leave at once, by their fast path,
// reading nothing but its types.Package. Such a package needs no syntax and
// no types.Info, only its types, and those the compiler's export data gives,
// as go vet and x/tools' multichecker load every dependency. So Run loads in
// two steps:
//
//  1. packages.Load of the patterns without NeedDeps: go/packages
//     type-checks its initial packages from syntax, function bodies
//     included, and every other one from export data (go list -export);
//     its go list gives the whole package graph too, with every
//     dependency's files. Then a scan of the dependencies' Go files for
//     the packages that may call the runtime: a file that imports "C" and
//     names a function of the runtime API model as C.name (what cgo
//     declares as _Cfunc_name, which CallsRuntime reads), or declares such
//     a _Cfunc_ name itself; then every package that imports one of those,
//     transitively: the packages that may produce or see facts;
//  2. where some of those are not initial packages, packages.Load again,
//     with them named as patterns beside the user's, so that they too are
//     checked from syntax with their bodies. Where all are (std, a module
//     named with ./... whose GPU wrappers are its own packages), the load
//     of step 1 is the result: one go list, as the fact-free floor runs.
//
// The initial packages of step 2 that the user did not ask for are dropped:
// the analyzers see them as dependencies, as before. Under an overlay
// (unsaved editor buffers, synthesis's repairs) go/packages ignores export
// data and checks the other packages from syntax, but without function
// bodies, which is still cheaper and gives the same types.
//
// The result is checked before it is used (initialOf), and the run falls
// back to loading everything from syntax, as before, where it cannot give
// what the analyzers would read of a full load:
//
//   - a dependency that may produce or see facts (by its types, as the
//     analyzers decide: cgocall.CallsRuntime or an import that does) but is
//     not an initial package of step 2, so that go/packages checked it
//     without function bodies: a test variant ("x [q.test]", which cannot
//     be named as a pattern), or a package the scan missed;
//   - a dependency whose compilation or cgo step failed (no export data):
//     go/packages checked it from syntax without bodies, so its errors are
//     not those of a full check, and at tier 3 every cgo package counts as
//     calling the runtime;
//   - a dependency with an error that loading from syntax would not give
//     (unreadable export data);
//   - an analyzer with facts that is not one of hiplint's (a test's, a
//     caller's own), whose facts may start anywhere; and Config.AllSyntax.

// loadFactSyntax loads the patterns as packages.LoadAllSyntax would for the
// analyzers of cfg, with overlay, with syntax only for the packages that may
// produce or see facts and export data for the others. ok is false when it
// cannot (see above): the caller then loads everything from syntax.
//
// It loads the patterns alone first (step 2 without extra patterns): that
// load's go list gives the whole graph too, with every dependency's files,
// so step 1's scan runs on it and needs no go list of its own. Where no
// dependency outside the patterns may produce or see facts (std, a module
// named with ./..., whose GPU wrappers are its own packages), that load is
// the result: one go list, as the fact-free floor runs. Otherwise the
// patterns are loaded again with those dependencies named beside them.
func loadFactSyntax(cfg *Config, overlay map[string][]byte, patterns []string, hashes *sourceHashes) (pkgs []*packages.Package, ok bool) {
	if cfg.AllSyntax || !factsStartAtRuntime(cfg.Analyzers, cfg.Candidates) {
		return nil, false
	}
	lc := loadConfig(cfg, packages.LoadSyntax|packages.NeedModule|packages.NeedExportFile)
	lc.Overlay = overlay
	if hashes != nil {
		lc.ParseFile = hashes.parseFile
	}
	first, err := loadPackages(lc, patterns...)
	if err != nil || len(first) == 0 {
		return nil, false // the full load reports it
	}
	extra, ok := syntaxDeps(first, overlay, cfg.CachedFacts)
	if !ok {
		return nil, false
	}
	ids := make([]string, len(first))
	for i, p := range first {
		ids[i] = p.ID
	}
	all := first
	if len(extra) > 0 {
		// Nothing refers to the first load any more: it is garbage
		// before the second (one load at a time).
		if all, err = loadPackages(lc, append(slices.Clip(patterns), extra...)...); err != nil {
			return nil, false
		}
	}
	for _, p := range all {
		dropCompileError(p)
	}
	full, ok := checkBodies(cfg, overlay, hashes, all)
	if !ok {
		return nil, false
	}
	return initialOf(ids, all, full, cfg.CachedFacts)
}

// checkBodies type-checks again, function bodies included, the
// dependencies of all (the initial packages of a load) that go/packages
// did not check as a load from syntax would have, where that can be done
// in place: a dependency without export data whose own cgo step did not
// fail (its build stopped at a dependency's failure or at its own type
// error; go/packages checked it from its files without bodies), and a
// dependency that may produce or see facts but came from export data (a
// test variant "x [q.test]" that imports a package calling the runtime:
// no pattern can name it). Its files are parsed again, then it is checked
// against the graph, dependencies first; every package
// whose types then import an older version of another (its importers, the
// initial ones included) is checked again from its syntax, as the
// synthesis' rescan does. The graph is then what loading everything from
// syntax gives of those packages, and initialOf need not fall back to that
// load: one test variant above a package at tier 3 (zerfoo's
// `layers/attention [layers/core.test]`) made a module of 86 packages load
// every dependency from syntax, the standard library included.
//
// A dependency whose own cgo step failed (tier 3, which counts every cgo
// package as calling the runtime), one whose export data could not be read
// and one whose files cannot all be parsed are left as they are:
// initialOf falls back for them. It returns the dependencies it checked
// again; ok is false when a package to check again is at tier 3 (its
// import "C" unprocessed, which only a load checks): the caller falls back
// to loading everything from syntax.
func checkBodies(cfg *Config, overlay map[string][]byte, hashes *sourceHashes, all []*packages.Package) (full map[*packages.Package]bool, ok bool) {
	isRoot := make(map[*packages.Package]bool, len(all))
	for _, p := range all {
		isRoot[p] = true
	}
	r := &rescan{cfg: cfg, hashes: hashes, byPath: map[string]*packages.Package{}}
	redo := map[*packages.Package]bool{}
	inert := map[*packages.Package]bool{}
	packages.Visit(all, nil, func(p *packages.Package) { // imports first
		r.order = append(r.order, p)
		if p.ID == p.PkgPath || r.byPath[p.PkgPath] == nil {
			r.byPath[p.PkgPath] = p
		}
		if r.fset == nil && p.Fset != nil {
			r.fset = p.Fset
		}
		in := p.Types != nil && !cgocall.CallsRuntime(p.Types)
		above := false // imports a package checked again
		for _, imp := range p.Imports {
			in = in && inert[imp]
			above = above || redo[imp]
		}
		inert[p] = in
		if isRoot[p] || p.PkgPath == "unsafe" || p.Types == nil || placeholder(p) || cgocall.Unprocessed(p.Types) {
			return
		}
		if slices.ContainsFunc(p.Errors, func(e packages.Error) bool { return e.Kind != packages.ListError }) && p.ExportFile != "" {
			return // its export data could not be read: initialOf falls back
		}
		if p.ExportFile != "" && cfg.CachedFacts[p.ID] != nil && len(p.Errors) == 0 {
			return // its facts are replayed from the result cache (facts.go)
		}
		// Without export data, go/packages checked it from its files
		// without bodies (it has TypesInfo then); with export data, it
		// may produce or see facts, or it imports a package checked
		// again, whose new types its export data cannot refer to.
		if p.ExportFile == "" && p.TypesInfo == nil || p.ExportFile != "" && in && !above || len(p.CompiledGoFiles) == 0 {
			return
		}
		syntax, errs := r.parse(overlay, p.CompiledGoFiles)
		if len(errs) > 0 || len(syntax) != len(p.CompiledGoFiles) {
			return // initialOf falls back, and the full load reports them
		}
		p.Syntax = syntax
		redo[p] = true
	})
	if len(redo) == 0 {
		return nil, true
	}
	if r.fset == nil {
		return nil, false
	}
	for _, p := range r.order { // dependencies first
		if !redo[p] && !r.stale(p) {
			continue
		}
		if cgocall.Unprocessed(p.Types) {
			return nil, false
		}
		p.Errors = slices.DeleteFunc(slices.Clip(p.Errors), func(e packages.Error) bool {
			// The type errors of the check without bodies, and the
			// compiler's output (go list -export compiled it; a load
			// from syntax does not): the check below gives go/types'
			// own errors again.
			return e.Kind == packages.TypeError || redo[p] && e.Kind == packages.ListError && strings.HasPrefix(e.Msg, "# ")
		})
		r.check(p)
	}
	return redo, true
}

// dropCompileError removes from an initial package of step 2 the error of
// its compilation (go list -export compiles it; loading everything from
// syntax does not), which go list gives as the compiler's output, "# PATH"
// and its lines: go/types' own errors are there already, and the
// compiler's others (a function without a body, for one) were never
// reported. A package whose cgo step failed keeps its "# PATH" error: that
// is cgo's output, which go list gives without -export too (tier 3).
func dropCompileError(p *packages.Package) {
	if p.ExportFile != "" || p.Types == nil || cgocall.Unprocessed(p.Types) {
		return
	}
	p.Errors = slices.DeleteFunc(p.Errors, func(e packages.Error) bool {
		return e.Kind == packages.ListError && strings.HasPrefix(e.Msg, "# ")
	})
}

// syntaxDeps returns the dependencies of the initial packages meta (loaded
// with their imports) that may produce or see facts and are not initial
// packages, as patterns: their package paths. ok is false when one of them
// cannot be named so.
//
// A dependency whose facts the result cache holds (cached) is not named: it
// is loaded from export data and its facts replayed (facts.go).
func syntaxDeps(meta []*packages.Package, overlay map[string][]byte, cached map[string]*PackageFacts) (extra []string, ok bool) {
	isRoot := make(map[string]bool, len(meta))
	for _, p := range meta {
		isRoot[p.ID] = true
	}
	var deps []*packages.Package
	packages.Visit(meta, nil, func(p *packages.Package) {
		if !isRoot[p.ID] {
			deps = append(deps, p)
		}
	})
	seed := callersOfRuntime(deps, overlay)
	facts := make(map[*packages.Package]bool)
	ok = true
	packages.Visit(meta, nil, func(p *packages.Package) { // imports first
		f := seed[p]
		for _, imp := range p.Imports {
			f = f || facts[imp]
		}
		facts[p] = f
		if !f || isRoot[p.ID] || cached[p.ID] != nil {
			return
		}
		if p.ID != p.PkgPath || p.PkgPath == "" {
			ok = false // a test variant: not a pattern
			return
		}
		extra = append(extra, p.PkgPath)
	})
	slices.Sort(extra)
	return slices.Compact(extra), ok
}

// callersOfRuntime returns which of pkgs may call a function of the runtime
// API model through cgo: those CallsRuntime could find so once type-checked.
// It reads the Go files (not cgo's output) of the packages that may use cgo
// (mayUseCgo: CallsRuntime is false for every other), each once: most hold
// neither `"C"` nor `_Cfunc_` and are not parsed. A file that cannot be read
// or parsed counts as a caller (loading it from syntax is always sound). A
// file of overlay is read from there.
func callersOfRuntime(pkgs []*packages.Package, overlay map[string][]byte) map[*packages.Package]bool {
	type job struct {
		pkg  *packages.Package
		file string
	}
	var jobs []job
	seen := map[string]bool{}
	for _, p := range pkgs {
		if !mayUseCgo(p, overlay) {
			continue
		}
		for _, f := range p.GoFiles {
			if !seen[f] {
				seen[f] = true
				jobs = append(jobs, job{p, f})
			}
		}
	}
	calls := map[string]bool{} // by file
	var mu sync.Mutex
	var wg sync.WaitGroup
	next := make(chan string)
	for range min(runtime.GOMAXPROCS(0), 8) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fset := token.NewFileSet()
			for name := range next {
				data, ok := overlay[name]
				var err error
				if !ok {
					data, err = os.ReadFile(name)
				}
				if err != nil || fileCallsRuntime(fset, name, data) {
					mu.Lock()
					calls[name] = true
					mu.Unlock()
				}
			}
		}()
	}
	for _, j := range jobs {
		next <- j.file
	}
	close(next)
	wg.Wait()
	out := map[*packages.Package]bool{}
	for _, p := range pkgs {
		out[p] = slices.ContainsFunc(p.GoFiles, func(f string) bool { return calls[f] })
	}
	return out
}

// mayUseCgo reports whether p, as go list gave it, may be a package that
// cgocall.UsesCgo holds for once type-checked (it imports "C" or
// runtime/cgo), so that CallsRuntime may hold too: it imports runtime/cgo
// (cgo's output does; a hand-written import does too); or a file of its
// GoFiles is not among its CompiledGoFiles (cgo replaced it with its
// output); or there is no export data or no CompiledGoFiles to tell (a step
// of its build failed); or overlay holds one of its files. A package with
// none of these, compiled as it is on disk, has no file that imports "C",
// and reading its files cannot make the scan find a caller that
// CallsRuntime would confirm.
func mayUseCgo(p *packages.Package, overlay map[string][]byte) bool {
	if p.ExportFile == "" || len(p.CompiledGoFiles) == 0 && len(p.GoFiles) > 0 {
		return true
	}
	if _, ok := p.Imports["runtime/cgo"]; ok {
		return true
	}
	compiled := make(map[string]bool, len(p.CompiledGoFiles))
	for _, f := range p.CompiledGoFiles {
		compiled[f] = true
	}
	return slices.ContainsFunc(p.GoFiles, func(f string) bool {
		_, over := overlay[f]
		return over || !compiled[f]
	})
}

// fileCallsRuntime reports whether the Go file name, holding data, may make its package
// call a function of the runtime API model through cgo: it imports "C" and
// names C.f for such an f, or declares a function _Cfunc_f or _C2func_f
// (cgo's names, which CallsRuntime reads) for one.
func fileCallsRuntime(fset *token.FileSet, name string, data []byte) bool {
	if !bytes.Contains(data, []byte(`"C"`)) && !bytes.Contains(data, []byte("_Cfunc_")) && !bytes.Contains(data, []byte("_C2func_")) {
		return false
	}
	f, err := parser.ParseFile(fset, name, data, parser.SkipObjectResolution)
	if err != nil {
		return true
	}
	importsC := slices.ContainsFunc(f.Imports, func(s *ast.ImportSpec) bool { return s.Path.Value == `"C"` })
	found := false
	ast.Inspect(f, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if id, ok := n.X.(*ast.Ident); ok && importsC && id.Name == "C" && isRuntimeFunc(n.Sel.Name) {
				found = true
			}
		case *ast.FuncDecl:
			for _, prefix := range []string{"_Cfunc_", "_C2func_"} {
				if c, ok := strings.CutPrefix(n.Name.Name, prefix); ok && isRuntimeFunc(c) {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

func isRuntimeFunc(name string) bool {
	_, ok := hipapi.Lookup(name)
	return ok
}

// initialOf returns the packages of all (a load of the patterns, and of the
// dependencies named beside them if any) whose IDs are ids (the initial
// packages of a load of the patterns alone), in that order. ok is false
// when one is missing or when a dependency is not as loading everything
// from syntax would give what the analyzers read of it (see the top of
// this file).
//
// A dependency of cached (facts from the result cache) is as it must be
// when it has export data: its facts are replayed (facts.go); one of full
// was checked again with its bodies (checkBodies).
func initialOf(ids []string, all []*packages.Package, full map[*packages.Package]bool, cached map[string]*PackageFacts) ([]*packages.Package, bool) {
	byID := make(map[string]*packages.Package, len(all))
	isRoot := make(map[*packages.Package]bool, len(all))
	for _, p := range all {
		byID[p.ID] = p
		isRoot[p] = true
	}
	out := make([]*packages.Package, 0, len(ids))
	for _, id := range ids {
		p := byID[id]
		if p == nil {
			return nil, false
		}
		out = append(out, p)
	}
	ok := true
	inert := map[*packages.Package]bool{}
	packages.Visit(out, nil, func(p *packages.Package) { // imports first
		in := p.Types != nil && !cgocall.CallsRuntime(p.Types)
		for _, imp := range p.Imports {
			in = in && inert[imp]
		}
		inert[p] = in
		if isRoot[p] || full[p] || p.PkgPath == "unsafe" || !ok {
			return // checked with its bodies, as a load from syntax checks it
		}
		switch {
		case placeholder(p):
			// An import that could not be found: go list's errors, as
			// loading from syntax gives them.
		case p.ExportFile == "":
			// Its compilation failed (or its cgo step: tier 3, where
			// every cgo package counts as calling the runtime), and
			// go/packages checked it from syntax without function
			// bodies: its errors would not be those of a full check.
			ok = false
		case cached[p.ID] != nil && len(p.Errors) == 0:
			// Loaded from export data, its cached facts replayed.
		case !in:
			// It may produce or see facts, and is not an initial
			// package, which alone go/packages checks with bodies (a
			// test variant that imports such a package, for example).
			ok = false
		case slices.ContainsFunc(p.Errors, func(e packages.Error) bool { return e.Kind != packages.ListError }):
			ok = false // its export data could not be read
		}
	})
	return out, ok
}

// fromExportData reports whether p is a dependency whose types came from
// export data (or that no source package needed): it has types, no syntax
// and no error. It is no failure (Classify).
func fromExportData(p *packages.Package) bool {
	return p.Types != nil && p.TypesInfo == nil && p.Syntax == nil && len(p.Errors) == 0
}

// factsStartAtRuntime reports whether every analyzer of the lists, and every
// analyzer they require, that has facts is one of hiplint's (the suite or
// its candidate mode, and what they require): those export facts only in
// packages that call the GPU runtime or import one that does.
func factsStartAtRuntime(lists ...[]*analysis.Analyzer) bool {
	known := map[*analysis.Analyzer]bool{}
	var mark func(a *analysis.Analyzer)
	mark = func(a *analysis.Analyzer) {
		if known[a] {
			return
		}
		known[a] = true
		for _, r := range a.Requires {
			mark(r)
		}
	}
	for _, a := range analyzers.Suite() {
		mark(a)
	}
	for _, a := range analyzers.Candidates() {
		mark(a)
	}
	seen := map[*analysis.Analyzer]bool{}
	var ok func(a *analysis.Analyzer) bool
	ok = func(a *analysis.Analyzer) bool {
		if seen[a] {
			return true
		}
		seen[a] = true
		if len(a.FactTypes) > 0 && !known[a] {
			return false
		}
		return !slices.ContainsFunc(a.Requires, func(r *analysis.Analyzer) bool { return !ok(r) })
	}
	for _, as := range lists {
		for _, a := range as {
			if !ok(a) {
				return false
			}
		}
	}
	return true
}
