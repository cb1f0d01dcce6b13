package fuzzcheck

import (
	"bytes"
	"encoding/gob"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"reflect"
	"slices"
	"sort"
	"strings"
	"time"

	"golang.org/x/tools/go/analysis"
)

// Result is everything the analyzers produced for a program, as text in the
// order they produced it: diagnostics (with related positions and fixes) and
// exported facts, package by package, analyzer by analyzer.
type Result struct {
	Lines []string
	// Slowest is the longest a single analyzer took on a single package.
	Slowest time.Duration
	// SlowestWhat names that analyzer and package.
	SlowestWhat string
}

// Analyze type-checks p and runs analyzers (and what they require) on each
// of its packages in order, the way go vet's unitchecker does: facts
// exported for a package are gob-encoded and decoded again before its
// importers see them. It returns an error when p does not type-check or when
// an analyzer misbehaves in a way a driver would reject (a fact for another
// package's object, a fact of an undeclared type, a malformed fix); a panic
// in an analyzer is not recovered.
func Analyze(p Program, analyzers []*analysis.Analyzer) (*Result, error) {
	fset := token.NewFileSet()
	imp := &importer{fset: fset, pkgs: map[string]*types.Package{}}
	res := &Result{}
	// Facts visible to the package being analyzed, per analyzer: those of
	// every package analyzed before it (each package may import all earlier ones).
	facts := map[*analysis.Analyzer]*factStore{}
	for _, a := range order(analyzers) {
		facts[a] = newFactStore()
	}
	for _, pkg := range p.Packages {
		files, tpkg, info, err := imp.check(pkg.Path, pkg.Files, pkg.AllowErrors...)
		if err != nil {
			return nil, fmt.Errorf("generated package %s does not type-check: %v", pkg.Path, err)
		}
		results := map[*analysis.Analyzer]any{}
		for _, a := range order(analyzers) {
			var lines []string
			var passErr error
			store := facts[a]
			exported := newFactStore()
			pass := &analysis.Pass{
				Analyzer:   a,
				Fset:       fset,
				Files:      files,
				Pkg:        tpkg,
				TypesInfo:  info,
				TypesSizes: types.SizesFor("gc", "amd64"),
				ResultOf:   map[*analysis.Analyzer]any{},
				Module:     &analysis.Module{Path: "example.com", GoVersion: "1.26"},
				ReadFile:   func(string) ([]byte, error) { return nil, errors.New("fuzzcheck: no files on disk") },
				Report: func(d analysis.Diagnostic) {
					if err := validDiagnostic(fset, files, d); err != nil && passErr == nil {
						passErr = fmt.Errorf("%s: %v", a.Name, err)
					}
					lines = append(lines, formatDiagnostic(fset, a, d))
				},
				ImportObjectFact: func(obj types.Object, f analysis.Fact) bool {
					if obj == nil {
						panic("fuzzcheck: ImportObjectFact(nil)")
					}
					if obj.Pkg() == tpkg {
						return exported.importObject(obj, f)
					}
					return store.importObject(obj, f)
				},
				ExportObjectFact: func(obj types.Object, f analysis.Fact) {
					if obj.Pkg() != tpkg {
						passErr = errors.Join(passErr, fmt.Errorf("%s: fact %T for %v, an object of another package", a.Name, f, obj))
						return
					}
					if !declared(a, f) {
						passErr = errors.Join(passErr, fmt.Errorf("%s: fact of undeclared type %T", a.Name, f))
					}
					exported.exportObject(obj, f)
				},
				ImportPackageFact: func(pkg *types.Package, f analysis.Fact) bool {
					if pkg == tpkg {
						return exported.importPackage(pkg, f)
					}
					return store.importPackage(pkg, f)
				},
				ExportPackageFact: func(f analysis.Fact) {
					if !declared(a, f) {
						passErr = errors.Join(passErr, fmt.Errorf("%s: fact of undeclared type %T", a.Name, f))
					}
					exported.exportPackage(tpkg, f)
				},
				AllObjectFacts: func() []analysis.ObjectFact {
					return append(store.allObjects(), exported.allObjects()...)
				},
				AllPackageFacts: func() []analysis.PackageFact {
					return append(store.allPackages(), exported.allPackages()...)
				},
			}
			for _, req := range a.Requires {
				pass.ResultOf[req] = results[req]
			}
			start := time.Now()
			result, err := a.Run(pass)
			if d := time.Since(start); d > res.Slowest {
				res.Slowest, res.SlowestWhat = d, a.Name+" on "+pkg.Path
			}
			if err != nil {
				return nil, fmt.Errorf("%s on %s: %v", a.Name, pkg.Path, err)
			}
			if passErr != nil {
				return nil, fmt.Errorf("on %s: %w", pkg.Path, passErr)
			}
			if a.ResultType != nil && result != nil && reflect.TypeOf(result) != a.ResultType {
				return nil, fmt.Errorf("%s returned %T, want %v", a.Name, result, a.ResultType)
			}
			results[a] = result
			for _, l := range lines {
				res.Lines = append(res.Lines, pkg.Path+": "+l)
			}
			// Drivers store facts by object and encode them sorted: the
			// order of export is not observable, their content is.
			for _, l := range slices.Sorted(slices.Values(exported.strings())) {
				res.Lines = append(res.Lines, pkg.Path+": "+a.Name+": fact "+l)
			}
			// What importers see: the facts after a gob round trip.
			if err := store.inherit(exported); err != nil {
				return nil, fmt.Errorf("%s on %s: %v", a.Name, pkg.Path, err)
			}
		}
	}
	return res, nil
}

// order returns analyzers after everything they require, each once.
func order(analyzers []*analysis.Analyzer) []*analysis.Analyzer {
	var out []*analysis.Analyzer
	seen := map[*analysis.Analyzer]bool{}
	var visit func(a *analysis.Analyzer)
	visit = func(a *analysis.Analyzer) {
		if seen[a] {
			return
		}
		seen[a] = true
		for _, r := range a.Requires {
			visit(r)
		}
		out = append(out, a)
	}
	for _, a := range analyzers {
		visit(a)
	}
	return out
}

func declared(a *analysis.Analyzer, f analysis.Fact) bool {
	for _, ft := range a.FactTypes {
		if reflect.TypeOf(ft) == reflect.TypeOf(f) {
			return true
		}
	}
	return false
}

// importer type-checks the stub standard packages and the program's own
// packages from source, in one file set.
type importer struct {
	fset *token.FileSet
	pkgs map[string]*types.Package
}

func (imp *importer) Import(path string) (*types.Package, error) {
	if path == "unsafe" {
		return types.Unsafe, nil
	}
	if p, ok := imp.pkgs[path]; ok {
		return p, nil
	}
	src, ok := stubs[path]
	if !ok {
		return nil, fmt.Errorf("fuzzcheck: no package %q", path)
	}
	name := path[strings.LastIndex(path, "/")+1:]
	_, p, _, err := imp.check(path, []File{{Name: name + ".go", Src: src}})
	return p, err
}

func (imp *importer) check(path string, srcs []File, allow ...string) ([]*ast.File, *types.Package, *types.Info, error) {
	var files []*ast.File
	for _, f := range srcs {
		af, err := parser.ParseFile(imp.fset, "/src/"+path+"/"+f.Name, f.Src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, nil, nil, err
		}
		files = append(files, af)
	}
	info := &types.Info{
		Types:        map[ast.Expr]types.TypeAndValue{},
		Instances:    map[*ast.Ident]types.Instance{},
		Defs:         map[*ast.Ident]types.Object{},
		Uses:         map[*ast.Ident]types.Object{},
		Implicits:    map[ast.Node]types.Object{},
		Selections:   map[*ast.SelectorExpr]*types.Selection{},
		Scopes:       map[ast.Node]*types.Scope{},
		FileVersions: map[*ast.File]string{},
	}
	var errs []error
	conf := &types.Config{
		Importer:  imp,
		GoVersion: "go1.26",
		Sizes:     types.SizesFor("gc", "amd64"),
		Error: func(err error) {
			for _, a := range allow {
				if strings.Contains(err.Error(), a) {
					return
				}
			}
			if len(errs) < 10 {
				errs = append(errs, err)
			}
		},
	}
	pkg, _ := conf.Check(path, imp.fset, files, info)
	if len(errs) > 0 {
		return nil, nil, nil, errors.Join(errs...)
	}
	imp.pkgs[path] = pkg
	return files, pkg, info, nil
}

// validDiagnostic checks what the drivers rely on: a position in one of the
// package's files, related positions that exist, and fixes whose edits lie
// within one file each and do not overlap.
func validDiagnostic(fset *token.FileSet, files []*ast.File, d analysis.Diagnostic) error {
	inPkg := func(pos token.Pos) bool {
		for _, f := range files {
			if f.FileStart <= pos && pos <= f.FileEnd {
				return true
			}
		}
		return false
	}
	if !d.Pos.IsValid() || !inPkg(d.Pos) {
		return fmt.Errorf("diagnostic %q at %v, outside the package's files", d.Message, d.Pos)
	}
	if d.End.IsValid() && d.End < d.Pos {
		return fmt.Errorf("diagnostic %q ends before it starts", d.Message)
	}
	if d.Category == "" || d.Message == "" {
		return fmt.Errorf("diagnostic without category or message: %+v", d)
	}
	for _, r := range d.Related {
		if !r.Pos.IsValid() || fset.File(r.Pos) == nil {
			return fmt.Errorf("diagnostic %q: related %q at an invalid position", d.Message, r.Message)
		}
	}
	for _, fix := range d.SuggestedFixes {
		type span struct{ pos, end token.Pos }
		byFile := map[*token.File][]span{}
		for _, e := range fix.TextEdits {
			end := e.End
			if !end.IsValid() {
				end = e.Pos
			}
			tf := fset.File(e.Pos)
			if tf == nil || end < e.Pos || fset.File(end) != tf || int(end)-tf.Base() > tf.Size() {
				return fmt.Errorf("fix %q: edit [%v, %v) is not within one file", fix.Message, e.Pos, e.End)
			}
			byFile[tf] = append(byFile[tf], span{e.Pos, end})
		}
		for _, spans := range byFile {
			sort.Slice(spans, func(i, j int) bool { return spans[i].pos < spans[j].pos })
			for i := 1; i < len(spans); i++ {
				if spans[i].pos < spans[i-1].end {
					return fmt.Errorf("fix %q: overlapping edits", fix.Message)
				}
			}
		}
	}
	return nil
}

func formatDiagnostic(fset *token.FileSet, a *analysis.Analyzer, d analysis.Diagnostic) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s: %s (%s)", a.Name, fset.Position(d.Pos), d.Message, d.Category)
	for _, r := range d.Related {
		fmt.Fprintf(&b, "\n\trelated %s: %s", fset.Position(r.Pos), r.Message)
	}
	for _, fix := range d.SuggestedFixes {
		fmt.Fprintf(&b, "\n\tfix %q:", fix.Message)
		for _, e := range fix.TextEdits {
			fmt.Fprintf(&b, " [%s-%s %q]", fset.Position(e.Pos), fset.Position(e.End), e.NewText)
		}
	}
	return b.String()
}

// factStore holds facts by object (or package) and type, in the order they
// were exported, so that listing them is deterministic whenever the
// analyzer is.
type factStore struct {
	objs  map[factKey]analysis.Fact
	order []factKey
}

type factKey struct {
	obj types.Object
	pkg *types.Package
	t   reflect.Type
}

func newFactStore() *factStore { return &factStore{objs: map[factKey]analysis.Fact{}} }

func (s *factStore) put(k factKey, f analysis.Fact) {
	if _, ok := s.objs[k]; !ok {
		s.order = append(s.order, k)
	}
	s.objs[k] = f
}

func (s *factStore) get(k factKey, f analysis.Fact) bool {
	v, ok := s.objs[k]
	if ok {
		reflect.ValueOf(f).Elem().Set(reflect.ValueOf(v).Elem())
	}
	return ok
}

func (s *factStore) exportObject(obj types.Object, f analysis.Fact) {
	s.put(factKey{obj: obj, t: reflect.TypeOf(f)}, f)
}

func (s *factStore) importObject(obj types.Object, f analysis.Fact) bool {
	return s.get(factKey{obj: obj, t: reflect.TypeOf(f)}, f)
}

func (s *factStore) exportPackage(pkg *types.Package, f analysis.Fact) {
	s.put(factKey{pkg: pkg, t: reflect.TypeOf(f)}, f)
}

func (s *factStore) importPackage(pkg *types.Package, f analysis.Fact) bool {
	return s.get(factKey{pkg: pkg, t: reflect.TypeOf(f)}, f)
}

func (s *factStore) allObjects() []analysis.ObjectFact {
	var out []analysis.ObjectFact
	for _, k := range s.order {
		if k.obj != nil {
			out = append(out, analysis.ObjectFact{Object: k.obj, Fact: s.objs[k]})
		}
	}
	return out
}

func (s *factStore) allPackages() []analysis.PackageFact {
	var out []analysis.PackageFact
	for _, k := range s.order {
		if k.pkg != nil {
			out = append(out, analysis.PackageFact{Package: k.pkg, Fact: s.objs[k]})
		}
	}
	return out
}

func (s *factStore) strings() []string {
	var out []string
	for _, k := range s.order {
		what := ""
		if k.obj != nil {
			what = k.obj.String()
		} else {
			what = "package " + k.pkg.Path()
		}
		out = append(out, fmt.Sprintf("%s: %v", what, s.objs[k]))
	}
	return out
}

// inherit adds from's facts after a gob round trip, as the unitchecker
// serializes them between packages; a fact that does not encode, or encodes
// differently twice, is an error.
func (s *factStore) inherit(from *factStore) error {
	for _, k := range from.order {
		f := from.objs[k]
		var b1, b2 bytes.Buffer
		if err := gob.NewEncoder(&b1).Encode(f); err != nil {
			return fmt.Errorf("fact %T does not gob-encode: %v", f, err)
		}
		if err := gob.NewEncoder(&b2).Encode(f); err != nil {
			return err
		}
		if !bytes.Equal(b1.Bytes(), b2.Bytes()) {
			return fmt.Errorf("fact %T (%v) encodes differently twice", f, f)
		}
		dec := reflect.New(reflect.TypeOf(f).Elem()).Interface().(analysis.Fact)
		if err := gob.NewDecoder(&b1).Decode(dec); err != nil {
			return fmt.Errorf("fact %T does not gob-decode: %v", f, err)
		}
		s.put(k, dec)
	}
	return nil
}
