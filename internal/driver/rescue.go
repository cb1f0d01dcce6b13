package driver

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"os"
	"slices"

	"github.com/hiplint/hiplint/internal/cgocall"
	"golang.org/x/tools/go/packages"
)

// A rescan applies synthesis's repairs (internal/synth) to a loaded graph
// in place: it costs only the packages whose cgo step failed, not a load of
// everything per round of repairs.
//
// The candidates are the packages of the first load that go/packages
// type-checked from their raw files (tier 3: their cgo step failed, or go
// list did not run it because a dependency's failed). After each round of
// repairs, the candidates that a repair reaches (in their own files or
// through a candidate they import) and whose repairs changed since the
// last round are listed again with the repairs' overlay, files only (go
// list runs cgo on them, and on nothing else). A candidate whose cgo step
// now succeeds is parsed from cgo's output and type-checked against the
// graph as it stands; one that still fails keeps its tier-3 syntax and
// types and takes the new cgo output as its error, which the next round
// reads; one that no repair reaches any more gets back what the first load
// gave it. At the end, every package whose types import an older version
// of a package than the graph now holds (the dependents of a rescued
// package) is type-checked again from its syntax: the graph is then what
// one load with the final repairs would have given, and at no time is
// more than one version of the graph held.
type rescan struct {
	cfg    *Config
	hashes *sourceHashes
	fset   *token.FileSet
	order  []*packages.Package          // the graph, dependencies first
	byPath map[string]*packages.Package // a package path's non-test variant
	cand   map[*packages.Package]bool
	orig   map[*packages.Package]*pkgState // a candidate's fields as the first load gave them
	last   map[*packages.Package]string    // the repairs a candidate's current fields come from ("": none)
	// listed and checked count the packages listed again and type-checked
	// again (HIPLINT_SYNTH_DEBUG).
	listed, checked int
}

// pkgState is what a rescan changes in a package.
type pkgState struct {
	compiled   []string
	syntax     []*ast.File
	types      *types.Package
	info       *types.Info
	errors     []packages.Error
	typeErrors []types.Error
	illTyped   bool
}

func stateOf(p *packages.Package) *pkgState {
	return &pkgState{p.CompiledGoFiles, p.Syntax, p.Types, p.TypesInfo, p.Errors, p.TypeErrors, p.IllTyped}
}

func (st *pkgState) restore(p *packages.Package) {
	p.CompiledGoFiles, p.Syntax, p.Types, p.TypesInfo = st.compiled, st.syntax, st.types, st.info
	p.Errors, p.TypeErrors, p.IllTyped = st.errors, st.typeErrors, st.illTyped
}

// newRescan prepares a rescan of the graph of pkgs; nil when no package of
// it is at tier 3.
func newRescan(cfg *Config, hashes *sourceHashes, pkgs []*packages.Package) *rescan {
	r := &rescan{cfg: cfg, hashes: hashes, byPath: map[string]*packages.Package{},
		cand: map[*packages.Package]bool{}, orig: map[*packages.Package]*pkgState{}, last: map[*packages.Package]string{}}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		r.order = append(r.order, p)
		if p.ID == p.PkgPath || r.byPath[p.PkgPath] == nil {
			r.byPath[p.PkgPath] = p
		}
		if r.fset == nil && p.Fset != nil {
			r.fset = p.Fset
		}
		if p.Types != nil && cgocall.Unprocessed(p.Types) && importsC(p.Syntax) {
			r.cand[p] = true
			r.orig[p] = stateOf(p)
		}
	})
	if len(r.cand) == 0 || r.fset == nil {
		return nil
	}
	return r
}

// apply brings the candidates up to date with overlay, the repairs of the
// current round. An error (go list failed, the run was cancelled) leaves
// every candidate as the first load gave it.
func (r *rescan) apply(overlay map[string][]byte) error {
	fp := r.fingerprints(overlay)
	var list []*packages.Package
	for _, p := range r.order {
		if !r.cand[p] || fp[p] == r.last[p] {
			continue
		}
		if fp[p] == "" {
			r.orig[p].restore(p)
			r.last[p] = ""
			continue
		}
		list = append(list, p)
	}
	if len(list) == 0 {
		return nil
	}
	paths := map[string]bool{}
	for _, p := range list {
		paths[p.PkgPath] = true
	}
	lc := loadConfig(r.cfg, packages.NeedName|packages.NeedFiles|packages.NeedCompiledGoFiles)
	lc.Overlay = overlay
	listed, err := loadPackages(lc, slices.Sorted(mapKeys(paths))...)
	if err == nil && r.cfg.Context != nil {
		err = r.cfg.Context.Err()
	}
	if err != nil {
		r.restoreAll()
		return err
	}
	byID := map[string]*packages.Package{}
	for _, l := range listed {
		byID[l.ID] = l
	}
	r.listed += len(list)
	if os.Getenv("HIPLINT_SYNTH_DEBUG") != "" {
		for _, p := range list {
			fmt.Fprintf(os.Stderr, "synth: listing %s again\n", p.ID)
		}
	}
	for _, p := range list { // dependencies first
		r.last[p] = fp[p]
		l := byID[p.ID]
		if l == nil {
			r.orig[p].restore(p)
			continue
		}
		if !r.cgoRan(p, l) {
			// Still failing (or not run): the tier-3 syntax and types,
			// the new cgo output.
			o := r.orig[p]
			p.CompiledGoFiles, p.Syntax, p.Types, p.TypesInfo, p.TypeErrors = o.compiled, o.syntax, o.types, o.info, o.typeErrors
			p.Errors = append(slices.Clip(l.Errors), typeKinds(o.errors)...)
			p.IllTyped = len(p.Errors) > 0 || o.illTyped
			continue
		}
		p.CompiledGoFiles = l.CompiledGoFiles
		syntax, errs := r.parse(overlay, l.CompiledGoFiles)
		restoreImports(r.fset, syntax, r.orig[p].syntax)
		p.Syntax = syntax
		p.Errors = append(slices.Clip(l.Errors), errs...)
		r.check(p)
	}
	return nil
}

// finish type-checks again, dependencies first, every package whose types
// import an older version of a package than the graph holds.
func (r *rescan) finish() {
	for _, p := range r.order {
		if r.stale(p) {
			kept := p.Errors[:0:0]
			for _, e := range p.Errors {
				if e.Kind != packages.TypeError {
					kept = append(kept, e)
				}
			}
			p.Errors = kept
			r.check(p)
		}
	}
	if os.Getenv("HIPLINT_SYNTH_DEBUG") != "" {
		fmt.Fprintf(os.Stderr, "synth: listed %d packages again, type-checked %d again, of %d\n", r.listed, r.checked, len(r.order))
	}
}

// restoreAll gives every candidate back what the first load gave it.
func (r *rescan) restoreAll() {
	for p, o := range r.orig {
		o.restore(p)
		r.last[p] = ""
	}
}

// fingerprints returns, for each candidate, a digest of the repairs that
// reach it: the overlay of its own files and the fingerprints of the
// candidates it imports ("" when none reaches it).
func (r *rescan) fingerprints(overlay map[string][]byte) map[*packages.Package]string {
	fp := map[*packages.Package]string{}
	for _, p := range r.order {
		if !r.cand[p] {
			continue
		}
		h := sha256.New()
		any := false
		// The Go files and the C sources (synthesis empties those that
		// include a missing header).
		for _, f := range append(slices.Clip(p.GoFiles), p.OtherFiles...) {
			data, ok := overlay[f]
			if !ok {
				continue
			}
			if own, ok := r.cfg.Overlay[f]; ok && string(own) == string(data) {
				continue // the caller's own buffer, not a repair
			}
			any = true
			fmt.Fprintf(h, "%s %d\n", f, len(data))
			h.Write(data)
		}
		for _, imp := range sortedImports(p) {
			if s := fp[imp]; s != "" {
				any = true
				fmt.Fprintf(h, "import %s %s\n", imp.ID, s)
			}
		}
		if any {
			fp[p] = fmt.Sprintf("%x", h.Sum(nil))
		}
	}
	return fp
}

// cgoRan reports whether go list ran cgo on p this time: none of the files
// it compiles is one of p's own files that import "C".
func (r *rescan) cgoRan(p, listed *packages.Package) bool {
	if len(listed.CompiledGoFiles) == 0 {
		return false
	}
	withC := map[string]bool{}
	for _, f := range r.orig[p].syntax {
		for _, imp := range f.Imports {
			if imp.Path.Value == `"C"` {
				withC[r.fset.File(f.FileStart).Name()] = true
			}
		}
	}
	for _, f := range listed.CompiledGoFiles {
		if withC[f] {
			return false
		}
	}
	return true
}

// parse parses files as go/packages does (the overlay's contents where it
// has them), recording their hashes where the run records them.
func (r *rescan) parse(overlay map[string][]byte, files []string) ([]*ast.File, []packages.Error) {
	var out []*ast.File
	var errs []packages.Error
	for _, name := range files {
		src, ok := overlay[name]
		if !ok {
			var err error
			if src, err = os.ReadFile(name); err != nil {
				errs = append(errs, packages.Error{Pos: name + ":1", Msg: err.Error(), Kind: packages.ParseError})
				continue
			}
		}
		var f *ast.File
		var err error
		if r.hashes != nil {
			f, err = r.hashes.parseFile(r.fset, name, src)
		} else {
			f, err = parser.ParseFile(r.fset, name, src, parser.AllErrors|parser.ParseComments)
		}
		var list scanner.ErrorList
		if errors.As(err, &list) {
			for _, e := range list {
				errs = append(errs, packages.Error{Pos: e.Pos.String(), Msg: e.Msg, Kind: packages.ParseError})
			}
		} else if err != nil {
			errs = append(errs, packages.Error{Pos: name + ":1", Msg: err.Error(), Kind: packages.ParseError})
		}
		if f != nil {
			out = append(out, f)
		}
	}
	return out, errs
}

// check type-checks p's syntax against the graph as it stands, as
// go/packages does, appending the type errors to p.Errors.
func (r *rescan) check(p *packages.Package) {
	r.checked++
	if os.Getenv("HIPLINT_SYNTH_DEBUG") != "" {
		fmt.Fprintf(os.Stderr, "synth: type-checking %s again\n", p.ID)
	}
	imports := map[string]*packages.Package{}
	for path, imp := range p.Imports {
		imports[path] = imp
	}
	importer := importerFunc(func(path string) (*types.Package, error) {
		if path == "unsafe" {
			return types.Unsafe, nil
		}
		imp := imports[path]
		if imp == nil {
			imp = r.byPath[path] // an import of cgo's output (runtime/cgo, syscall)
		}
		if imp == nil || imp.Types == nil {
			return nil, fmt.Errorf("no metadata for %s", path)
		}
		return imp.Types, nil
	})
	typeCheck(r.fset, p, importer)
	p.IllTyped = len(p.Errors) > 0
	for _, imp := range p.Imports {
		p.IllTyped = p.IllTyped || imp.IllTyped
	}
}

// stale reports whether p's types import a version of a package other than
// the one the graph holds now.
func (r *rescan) stale(p *packages.Package) bool {
	if p.Types == nil || p.TypesInfo == nil {
		return false
	}
	byPkgPath := map[string]*packages.Package{}
	for _, imp := range p.Imports {
		byPkgPath[imp.PkgPath] = imp
	}
	for _, t := range p.Types.Imports() {
		imp := byPkgPath[t.Path()]
		if imp == nil {
			imp = r.byPath[t.Path()]
		}
		if imp != nil && imp.Types != nil && imp.Types != t && t != types.Unsafe {
			return true
		}
	}
	return false
}

// typeKinds returns the type and parse errors of errs.
func typeKinds(errs []packages.Error) []packages.Error {
	var out []packages.Error
	for _, e := range errs {
		if e.Kind == packages.TypeError || e.Kind == packages.ParseError {
			out = append(out, e)
		}
	}
	return out
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

func mapKeys[K comparable, V any](m map[K]V) func(func(K) bool) {
	return func(yield func(K) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// restoreImports gives the import specs of syntax (cgo's output, or a Go
// file of the overlay) the paths the user's files have at the same
// positions: synthesis sets an import that was not found aside (replaced
// by another path in the overlay, so that go list runs cgo), and the
// package must be type-checked with the import as written, missing.
func restoreImports(fset *token.FileSet, syntax, orig []*ast.File) {
	type at struct {
		file      string
		line, col int
	}
	key := func(pos token.Pos) at {
		p := fset.Position(pos) // through cgo's //line directives
		return at{p.Filename, p.Line, p.Column}
	}
	paths := map[at]string{}
	for _, f := range orig {
		for _, spec := range f.Imports {
			paths[key(spec.Path.Pos())] = spec.Path.Value
		}
	}
	for _, f := range syntax {
		for _, spec := range f.Imports {
			if path, ok := paths[key(spec.Path.Pos())]; ok && path != spec.Path.Value && path != `"C"` {
				spec.Path.Value = path
			}
		}
	}
}
