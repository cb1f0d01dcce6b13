package driver

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hiplint/hiplint/internal/cgocall"
	"github.com/hiplint/hiplint/internal/synth"
	"golang.org/x/tools/go/packages"
)

// A Session is a run's loaded package graph, kept for Rerun: a language
// server's edit of a file is analyzed again without the go command (no go
// list, no cgo, no go env), by parsing the edited files, type-checking
// again only the packages that hold them and the packages of the graph that
// import those, against the other packages' types as they were loaded, and
// replaying the facts the first run exported for every other package
// (docs/editors.md, "Edits in memory").
//
// A Session is not safe for concurrent use: one Rerun at a time.
type Session struct {
	pkgs    []*packages.Package
	rescued []synth.Rescue
	// pristine are each package's errors as loaded, before the triage
	// rewrote them (Classify clears a tier-3 package's cgo errors).
	pristine map[*packages.Package]pkgErrors
	// facts are the facts of the graph's packages as the first run
	// exported or replayed them, by package ID.
	facts map[string]*PackageFacts
	// fset is the graph's file set.
	fset *token.FileSet
	// texts are the contents the graph has of its initial packages'
	// cgo files (cgo's input), and compiled the contents of cgo's output
	// that Rerun rewrote (cgopatch.go), by file name.
	texts, compiled map[string][]byte
}

type pkgErrors struct {
	errors   []packages.Error
	illTyped bool
}

// RerunStats say what a Rerun did, for the server's log and its tests.
type RerunStats struct {
	Parsed, Checked    int // files parsed, packages type-checked
	Parse, Check, Rest time.Duration
}

// newSession keeps pkgs, as loaded, for Rerun. Called before the triage.
func newSession(pkgs []*packages.Package, rescued []synth.Rescue, overlay map[string][]byte) *Session {
	s := &Session{pkgs: pkgs, rescued: rescued, pristine: map[*packages.Package]pkgErrors{},
		texts: map[string][]byte{}, compiled: map[string][]byte{}}
	for _, p := range pkgs {
		for _, f := range p.GoFiles {
			if _, ok := s.texts[f]; ok || slices.Contains(p.CompiledGoFiles, f) {
				continue
			}
			if text, ok := overlay[f]; ok {
				s.texts[f] = text
			} else if text, err := os.ReadFile(f); err == nil {
				s.texts[f] = text
			}
		}
	}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		s.pristine[p] = pkgErrors{slices.Clone(p.Errors), p.IllTyped}
		if s.fset == nil && p.Fset != nil {
			s.fset = p.Fset
		}
	})
	return s
}

// Compiled are the files of cgo's output that Rerun rewrote, with their
// contents: what the findings' positions are in (internal/fixes reads them
// to place positions and fixes in the user's files).
func (s *Session) Compiled() map[string][]byte { return s.compiled }

// Packages are the session's initial packages.
func (s *Session) Packages() []*packages.Package { return s.pkgs }

// Rerun analyzes the session's packages again as Run would with cfg, the
// Go files of changed (by name) holding their new contents: it parses
// those files, type-checks the packages of the graph whose compiled files
// they are, and every package that imports one of those, again, and
// replays the facts of the others. It changes the session's graph in
// place: the session then describes the new contents.
//
// It refuses (reason not "", the graph untouched) what only the go command
// can say: a file that is cgo's input (its package's compiled file is
// cgo's output), a file that does not parse, whose package clause, imports
// or build constraints changed, a file of no package of the graph, a
// package to type-check again that was not loaded from syntax with its
// function bodies or whose cgo step failed. The caller then runs Run.
func (s *Session) Rerun(cfg Config, changed map[string][]byte) (res *Result, stats RerunStats, reason string, err error) {
	start := time.Now()
	if s.fset == nil {
		return nil, stats, "no file set", nil
	}
	// Which packages hold the changed files, as compiled files or as
	// cgo's input.
	var order []*packages.Package
	packages.Visit(s.pkgs, nil, func(p *packages.Package) { order = append(order, p) })
	parsed := map[string]*ast.File{}           // a changed compiled file's new syntax
	parseErrs := map[string][]packages.Error{} // and its syntax errors, as go/packages records them
	for name, text := range changed {
		f, err := parser.ParseFile(s.fset, name, text, parser.AllErrors|parser.ParseComments)
		var list scanner.ErrorList
		switch {
		case f == nil || err != nil && !errors.As(err, &list):
			return nil, stats, name + " does not parse", nil
		case len(list) > 0:
			// A syntax error in a function, say, as the user types: go
			// list reads only the file's header, which must be whole.
			end := f.Name.End()
			for _, d := range f.Decls {
				if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
					end = g.End()
				}
			}
			for _, e := range list {
				if e.Pos.Offset <= s.fset.Position(end).Offset {
					return nil, stats, name + ": a syntax error in its package clause or imports", nil
				}
				parseErrs[name] = append(parseErrs[name], packages.Error{Pos: e.Pos.String(), Msg: e.Msg, Kind: packages.ParseError})
			}
		}
		parsed[name] = f
		stats.Parsed++
	}
	holds := map[*packages.Package]map[int]*ast.File{} // the syntax to replace, by index
	newCompiled := map[string][]byte{}
	found := map[string]bool{}
	for _, p := range order {
		for _, name := range p.GoFiles {
			text, ok := changed[name]
			if !ok {
				continue
			}
			if holds[p] == nil {
				holds[p] = map[int]*ast.File{}
			}
			found[name] = true
			if i := slices.Index(p.CompiledGoFiles, name); i >= 0 {
				if i >= len(p.Syntax) {
					return nil, stats, "no syntax of " + name, nil
				}
				if why := sameHeader(s.fset, p.Syntax[i], parsed[name], false); why != "" {
					return nil, stats, name + ": " + why, nil
				}
				holds[p][i] = parsed[name]
				continue
			}
			old, ok := s.texts[name]
			if !ok {
				return nil, stats, "cgo's input " + name + " changed", nil
			}
			i, out, f, why := s.cgoPatch(p, name, old, text)
			if why != "" {
				return nil, stats, name + ": " + why, nil
			}
			holds[p][i] = f
			newCompiled[p.CompiledGoFiles[i]] = out
		}
	}
	for f := range changed {
		if !found[f] {
			return nil, stats, f + " is in no package of the graph", nil
		}
	}
	// The packages to type-check again: the holders and their importers
	// in the graph, dependencies first.
	recheck := map[*packages.Package]bool{}
	var todo []*packages.Package
	for _, p := range order {
		r := holds[p] != nil
		for _, imp := range p.Imports {
			r = r || recheck[imp]
		}
		if !r {
			continue
		}
		switch {
		case p.Syntax == nil || p.TypesInfo == nil || len(p.Syntax) != len(p.CompiledGoFiles):
			return nil, stats, p.ID + " was not loaded from syntax", nil
		case p.Types == nil || cgocall.Unprocessed(p.Types):
			return nil, stats, p.ID + " is analyzed at tier 3", nil
		case slices.ContainsFunc(s.rescued, func(r synth.Rescue) bool { return r.Path == p.PkgPath }):
			return nil, stats, p.ID + " was repaired by synthesis", nil
		}
		recheck[p] = true
		todo = append(todo, p)
	}
	stats.Parse = time.Since(start)

	// From here on the graph changes. Packages whose imports are done
	// are type-checked in parallel (a package and its test variant).
	t := time.Now()
	done := make(map[*packages.Package]chan struct{}, len(todo))
	for _, p := range todo {
		done[p] = make(chan struct{})
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	var failed error
	for _, p := range todo {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer close(done[p])
			defer func() {
				// go/types on code it was not meant to see: the
				// caller drops the half-updated graph.
				if r := recover(); r != nil {
					mu.Lock()
					failed = fmt.Errorf("internal error type-checking %s: %v", p.ID, r)
					mu.Unlock()
				}
			}()
			for _, imp := range p.Imports {
				if c, ok := done[imp]; ok {
					<-c
				}
			}
			for i, f := range holds[p] {
				p.Syntax[i] = f
			}
			// The errors as a load gives them: go list's, then each
			// file's syntax errors in file order (the new ones of the
			// files parsed again), then the type checker's.
			old := s.pristine[p].errors
			var errs []packages.Error
			for _, e := range old {
				if e.Kind != packages.TypeError && e.Kind != packages.ParseError {
					errs = append(errs, e)
				}
			}
			for i, name := range p.CompiledGoFiles {
				if _, ok := holds[p][i]; ok {
					errs = append(errs, parseErrs[s.fset.Position(holds[p][i].Package).Filename]...)
					continue
				}
				for _, e := range old {
					if e.Kind == packages.ParseError && strings.HasPrefix(e.Pos, name+":") {
						errs = append(errs, e)
					}
				}
			}
			p.Errors = errs
			checkAgain(s.fset, p)
		}()
	}
	wg.Wait()
	if failed != nil {
		return nil, stats, "", failed
	}
	for _, p := range todo {
		s.pristine[p] = pkgErrors{slices.Clone(p.Errors), p.IllTyped}
	}
	for name, text := range changed {
		if _, ok := s.texts[name]; ok {
			s.texts[name] = text
		}
	}
	maps.Copy(s.compiled, newCompiled)
	stats.Checked = len(todo)
	stats.Check = time.Since(t)

	// The triage and the analysis, as Run does after loading.
	t = time.Now()
	for p, pe := range s.pristine {
		p.Errors, p.IllTyped = slices.Clone(pe.errors), pe.illTyped
	}
	cached := map[string]*PackageFacts{}
	for id, pf := range s.facts {
		cached[id] = pf
	}
	for p := range recheck {
		delete(cached, p.ID)
	}
	cfg.CachedFacts, cfg.ExportFacts = cached, false
	res, err = analyzeLoaded(&cfg, s.pkgs, s.rescued)
	stats.Rest = time.Since(t)
	return res, stats, "", err
}

// sameHeader reports why the go command could see the new file nf other
// than the old file f: another package clause, other imports, other build
// constraints (the comments before the package clause), or a cgo preamble;
// "" when it cannot.
func sameHeader(fset *token.FileSet, f, nf *ast.File, cgo bool) string {
	if f.Name.Name != nf.Name.Name {
		return "its package clause changed"
	}
	paths := func(f *ast.File) []string {
		var out []string
		for _, s := range f.Imports {
			p, _ := strconv.Unquote(s.Path.Value)
			out = append(out, p)
		}
		slices.Sort(out)
		return out
	}
	if !slices.Equal(paths(f), paths(nf)) {
		return "its imports changed"
	}
	if slices.Contains(paths(nf), "C") {
		if !cgo {
			return "it imports C"
		}
		if !bytes.Equal(preamble(f), preamble(nf)) {
			return "its cgo preamble changed"
		}
	}
	if !bytes.Equal(constraints(fset, f), constraints(fset, nf)) {
		return "its build constraints changed"
	}
	return ""
}

// preamble is the cgo preamble of f: the comments of its import "C".
func preamble(f *ast.File) []byte {
	var b bytes.Buffer
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.IMPORT {
			continue
		}
		for _, spec := range g.Specs {
			is := spec.(*ast.ImportSpec)
			if is.Path.Value != `"C"` {
				continue
			}
			for _, cg := range []*ast.CommentGroup{g.Doc, is.Doc} {
				if cg != nil {
					b.WriteString(cg.Text())
					b.WriteByte(0)
				}
			}
		}
	}
	return b.Bytes()
}

// constraints are the comments of f before its package clause: its build
// constraints among them.
func constraints(fset *token.FileSet, f *ast.File) []byte {
	var b bytes.Buffer
	for _, g := range f.Comments {
		if g.Pos() >= f.Package {
			break
		}
		for _, c := range g.List {
			b.WriteString(c.Text)
			b.WriteByte('\n')
		}
	}
	return b.Bytes()
}

// checkAgain type-checks p's syntax against its imports' types as they
// stand, as go/packages checks an initial package (function bodies
// included), appending the type errors to p.Errors.
func checkAgain(fset *token.FileSet, p *packages.Package) {
	importer := importerFunc(func(path string) (*types.Package, error) {
		if path == "unsafe" {
			return types.Unsafe, nil
		}
		imp := p.Imports[path]
		if imp == nil {
			return nil, fmt.Errorf("no metadata for %s", path)
		}
		if imp.Types == nil || !imp.Types.Complete() {
			return nil, fmt.Errorf("no types for %s", path)
		}
		return imp.Types, nil
	})
	typErr := typeCheck(fset, p, importer)
	if typErr != nil && len(p.Errors) == 0 {
		p.Errors = append(p.Errors, packages.Error{Pos: "-", Msg: typErr.Error(), Kind: packages.UnknownError})
	}
	p.IllTyped = len(p.Errors) > 0
	for _, imp := range p.Imports {
		p.IllTyped = p.IllTyped || imp.IllTyped
	}
}

// keepFacts records in the session the facts a run replayed (cached) and
// exported (out).
func (s *Session) keepFacts(cached, out map[string]*PackageFacts) {
	s.facts = maps.Clone(cached)
	if s.facts == nil {
		s.facts = map[string]*PackageFacts{}
	}
	maps.Copy(s.facts, out)
}

// Files are the files the session's graph read that may change (Go,
// compiled, other, embedded and ignored files, go.mod), for the caller to
// notice a change on disk: the session is then out of date. The standard
// library's and the module cache's files are left out: the Go version and
// the module versions fix them.
func (s *Session) Files() []string {
	seen := map[string]bool{}
	var out []string
	packages.Visit(s.pkgs, nil, func(p *packages.Package) {
		if !mayChange(p) {
			return
		}
		// Not CompiledGoFiles: cgo's output, in the build cache, follows
		// from the rest.
		for _, list := range [][]string{p.GoFiles, p.OtherFiles, p.EmbedFiles, p.IgnoredFiles} {
			for _, f := range list {
				if !seen[f] {
					seen[f] = true
					out = append(out, f)
				}
			}
		}
		if p.Module != nil && p.Module.GoMod != "" && !seen[p.Module.GoMod] {
			seen[p.Module.GoMod] = true
			out = append(out, p.Module.GoMod)
		}
	})
	slices.Sort(out)
	return out
}

// Dirs are the directories of the packages whose Files are listed: a file
// added to or removed from one of them changes its modification time.
func (s *Session) Dirs() []string {
	seen := map[string]bool{}
	var out []string
	packages.Visit(s.pkgs, nil, func(p *packages.Package) {
		if !mayChange(p) || len(p.GoFiles) == 0 {
			return
		}
		if d := filepath.Dir(p.GoFiles[0]); !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	})
	slices.Sort(out)
	return out
}

// mayChange reports whether p's files may change under a session: not a
// package of the standard library or the module cache (the Go version and
// the module versions fix them), nor a test main (go test generates it,
// in the build cache, from the rest).
func mayChange(p *packages.Package) bool {
	switch {
	case p.Module == nil && !strings.Contains(strings.Split(p.PkgPath, "/")[0], "."):
		return false
	case p.Module != nil && p.Module.Version != "" && p.Module.Replace == nil:
		return false
	case testMain(p):
		return false
	}
	return true
}
