package driver

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/gob"
	"fmt"
	"go/token"
	"go/types"
	"reflect"
	"slices"
	"sync"

	"github.com/hiplint/hiplint/internal/flow"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/types/objectpath"
)

// Facts kept in the result cache (docs/cache.md, "Facts"). A run gives, for
// each package it analyzed from syntax, the facts its analyzers exported
// about its own objects, encoded as unitchecker encodes them (the object's
// objectpath and the fact's gob encoding), and a hash of what an importer
// can see of it: its exported API, positions included, and those facts. A
// later run that names the package in Config.CachedFacts loads it from
// export data and, instead of running the analyzers on it, exports the
// cached facts again: its importers see what they would see had it been
// analyzed from syntax.

// PackageFacts are one package's facts as the cache keeps them.
type PackageFacts struct {
	Facts []EncodedFact
	// Notes are the budget notes of the package's analysis (budgetNotes),
	// which a run that replays the facts prints as the analysis would.
	Notes []BudgetNote `json:",omitempty"`
	// API hashes what importers see of the package's types (apiHash), and
	// FactsHash the facts (their Go syntax, maps sorted).
	API, FactsHash [32]byte
}

// Iface is what an importer's key hashes of the package: its API and facts.
func (pf *PackageFacts) Iface() [32]byte {
	h := sha256.New()
	fmt.Fprintf(h, "iface %x %x\n", pf.API, pf.FactsHash)
	for _, n := range pf.Notes {
		fmt.Fprintf(h, "note %q\n", n.line(nil))
	}
	var sum [32]byte
	h.Sum(sum[:0])
	return sum
}

// An EncodedFact is one fact: Path is its object's objectpath ("": a
// package fact), Type the fact's Go type, Data its gob encoding.
type EncodedFact struct {
	Analyzer, Type string
	Path           objectpath.Path `json:",omitempty"`
	Data           []byte
}

// A BudgetNote is one function an analyzer left out over its budget.
type BudgetNote struct {
	PkgPath, Analyzer, Func, Why string
	Posn                         token.Position
}

func (n BudgetNote) line(rel func(string) string) string {
	posn := n.Posn
	if rel != nil {
		posn.Filename = rel(posn.Filename)
	}
	return fmt.Sprintf("%s: note: %s left out %s (%s) over its analysis budget: %s; its findings there and what its callers learn of it are missing",
		n.PkgPath, n.Analyzer, n.Func, posn, n.Why)
}

// encodable reports whether facts of type t survive the cache as they
// survive go vet's (gob, which keeps the exported fields, pointers
// followed): no token.Pos, which names a position only in its run's file
// set, and no interface, function or channel in an exported field.
// Unexported fields are dropped, as go vet drops them: hiplint's facts
// carry what importers read in exported fields (xnack.Need: "facts carry
// no positions").
var encodableTypes sync.Map // reflect.Type → bool

func encodable(t reflect.Type) bool {
	if v, ok := encodableTypes.Load(t); ok {
		return v.(bool)
	}
	posType := reflect.TypeFor[token.Pos]()
	seen := map[reflect.Type]bool{}
	var ok func(t reflect.Type) bool
	ok = func(t reflect.Type) bool {
		if seen[t] {
			return true
		}
		seen[t] = true
		if t == posType {
			return false
		}
		switch t.Kind() {
		case reflect.Interface, reflect.Func, reflect.Chan, reflect.UnsafePointer, reflect.Uintptr:
			return false
		case reflect.Struct:
			for i := range t.NumField() {
				if f := t.Field(i); f.IsExported() && !ok(f.Type) {
					return false
				}
			}
		case reflect.Pointer, reflect.Slice, reflect.Array:
			return ok(t.Elem())
		case reflect.Map:
			return ok(t.Key()) && ok(t.Elem())
		}
		return true
	}
	res := t.Kind() == reflect.Pointer && ok(t.Elem())
	encodableTypes.Store(t, res)
	return res
}

// canonical writes v as gob sees it (exported fields, pointers followed),
// maps in the order of their keys' encodings: the facts' hash, which gob's
// bytes cannot be (a map's order varies). ok is false for a value too deep
// (a cycle, which gob refuses too).
func canonical(w *bytes.Buffer, v reflect.Value, depth int) bool {
	if depth > 64 {
		return false
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			w.WriteString("nil")
			return true
		}
		w.WriteByte('&')
		return canonical(w, v.Elem(), depth+1)
	case reflect.Struct:
		w.WriteByte('{')
		for i := range v.NumField() {
			if !v.Type().Field(i).IsExported() {
				continue
			}
			w.WriteString(v.Type().Field(i).Name)
			w.WriteByte(':')
			if !canonical(w, v.Field(i), depth+1) {
				return false
			}
			w.WriteByte(',')
		}
		w.WriteByte('}')
	case reflect.Slice, reflect.Array:
		fmt.Fprintf(w, "[%d:", v.Len())
		for i := range v.Len() {
			if !canonical(w, v.Index(i), depth+1) {
				return false
			}
			w.WriteByte(',')
		}
		w.WriteByte(']')
	case reflect.Map:
		type kv struct{ k, v string }
		var kvs []kv
		for it := v.MapRange(); it.Next(); {
			var kb, vb bytes.Buffer
			if !canonical(&kb, it.Key(), depth+1) || !canonical(&vb, it.Value(), depth+1) {
				return false
			}
			kvs = append(kvs, kv{kb.String(), vb.String()})
		}
		slices.SortFunc(kvs, func(a, b kv) int { return cmp.Compare(a.k, b.k) })
		fmt.Fprintf(w, "map[%d:", len(kvs))
		for _, e := range kvs {
			fmt.Fprintf(w, "%q=%q,", e.k, e.v)
		}
		w.WriteByte(']')
	default:
		fmt.Fprintf(w, "%#v", v.Interface())
	}
	return true
}

// encodeFacts returns the facts act's analysis exported about its own
// package's objects, sorted; ok is false when one cannot be kept.
func encodeFacts(act *checker.Action, name string) (out []EncodedFact, ok bool) {
	pkg := act.Package.Types
	enc := objectpath.Encoder{}
	for _, f := range act.AllObjectFacts() {
		if f.Object.Pkg() != pkg {
			continue
		}
		path, err := enc.For(f.Object)
		if err != nil {
			// A local object (not in export data): no importer can
			// name it, as unitchecker drops it.
			continue
		}
		e, ok := encodeFact(name, path, f.Fact)
		if !ok {
			return nil, false
		}
		out = append(out, e)
	}
	for _, f := range act.AllPackageFacts() {
		if f.Package != pkg {
			continue
		}
		e, ok := encodeFact(name, "", f.Fact)
		if !ok {
			return nil, false
		}
		out = append(out, e)
	}
	return out, true
}

func encodeFact(analyzer string, path objectpath.Path, fact analysis.Fact) (EncodedFact, bool) {
	t := reflect.TypeOf(fact)
	if !encodable(t) {
		return EncodedFact{}, false
	}
	factTypes.Store(t.String(), t)
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(fact); err != nil {
		return EncodedFact{}, false
	}
	return EncodedFact{Analyzer: analyzer, Type: t.String(), Path: path, Data: buf.Bytes()}, true
}

func compareFacts(a, b EncodedFact) int {
	return cmp.Or(cmp.Compare(a.Analyzer, b.Analyzer), cmp.Compare(a.Path, b.Path), cmp.Compare(a.Type, b.Type))
}

// replayFacts exports on pass the cached facts of its analyzer, decoded
// against pass's package (loaded from export data). A fact whose object
// the export data does not hold is left out: no importer can name it.
func replayFacts(pass *analysis.Pass, orig *analysis.Analyzer, pf *PackageFacts) error {
	byName := map[string]reflect.Type{}
	for _, f := range orig.FactTypes {
		t := reflect.TypeOf(f)
		byName[t.String()] = t
	}
	for _, e := range pf.Facts {
		if e.Analyzer != orig.Name {
			continue
		}
		t, ok := byName[e.Type]
		if !ok {
			return fmt.Errorf("cached fact of unknown type %s", e.Type)
		}
		fact := reflect.New(t.Elem()).Interface().(analysis.Fact)
		if err := gob.NewDecoder(bytes.NewReader(e.Data)).Decode(fact); err != nil {
			return fmt.Errorf("cached %s fact: %v", e.Type, err)
		}
		if e.Path == "" {
			pass.ExportPackageFact(fact)
			continue
		}
		obj, err := objectpath.Object(pass.Pkg, e.Path)
		if err != nil {
			continue
		}
		pass.ExportObjectFact(obj, fact)
	}
	return nil
}

// replayResult is what an analyzer replayed on a package returns: the zero
// value of its result type (nothing reads it: the package is no root, and
// every analyzer of it is replayed). ok is false for an interface type,
// whose zero value the checker would refuse.
func replayResult(a *analysis.Analyzer) (any, bool) {
	if a.ResultType == nil {
		return nil, true
	}
	if a.ResultType.Kind() == reflect.Interface {
		return nil, false
	}
	return reflect.Zero(a.ResultType).Interface(), true
}

// exportFacts collects, for every package of graph that the analysis read
// from syntax (syntax) and that importers could load from export data, its
// PackageFacts, by package ID. A package with an error (its own or a
// dependency's), a test variant, or a fact that cannot be encoded has none.
func exportFacts(graph *checker.Graph, syntax map[*packages.Package]bool, rescued map[string]bool) map[string]*PackageFacts {
	clean := map[*packages.Package]bool{}
	var roots []*packages.Package
	for _, act := range graph.Roots {
		roots = append(roots, act.Package)
	}
	packages.Visit(roots, nil, func(p *packages.Package) {
		ok := len(p.Errors) == 0 && !p.IllTyped && p.Types != nil && !rescued[p.PkgPath]
		for _, imp := range p.Imports {
			ok = ok && clean[imp]
		}
		clean[p] = ok
	})
	type acc struct {
		facts  []EncodedFact
		values map[string][]analysis.Fact
		notes  []BudgetNote
		bad    bool
	}
	byPkg := map[*packages.Package]*acc{}
	for act := range graph.All() {
		p := act.Package
		if !syntax[p] || !clean[p] || p.ID != p.PkgPath {
			continue
		}
		a := byPkg[p]
		if a == nil {
			a = &acc{values: map[string][]analysis.Fact{}}
			byPkg[p] = a
		}
		if act.Err != nil {
			a.bad = true
			continue
		}
		if noted, ok := act.Result.(flow.Noted); ok {
			for _, n := range noted.BudgetNotes() {
				a.notes = append(a.notes, BudgetNote{PkgPath: p.PkgPath, Analyzer: act.Analyzer.Name, Func: n.Func, Why: n.Why, Posn: p.Fset.Position(n.Pos)})
			}
		}
		if len(act.Analyzer.FactTypes) == 0 {
			continue
		}
		enc, ok := encodeFacts(act, act.Analyzer.Name)
		if !ok {
			a.bad = true
			continue
		}
		a.facts = append(a.facts, enc...)
	}
	out := map[string]*PackageFacts{}
	var fh factHasher
	for p, a := range byPkg {
		if a.bad {
			continue
		}
		slices.SortFunc(a.facts, compareFacts)
		slices.SortFunc(a.notes, func(x, y BudgetNote) int { return cmp.Compare(x.line(nil), y.line(nil)) })
		a.notes = slices.CompactFunc(a.notes, func(x, y BudgetNote) bool { return x.line(nil) == y.line(nil) })
		sum, ok := fh.hash(a.facts)
		if !ok {
			continue
		}
		pf := &PackageFacts{Facts: a.facts, Notes: a.notes, API: apiHash(p.Types, p.Fset, p.GoFiles)}
		pf.FactsHash = sum
		out[p.ID] = pf
	}
	return out
}

// A factHasher hashes a package's encoded facts (PackageFacts.FactsHash).
// Facts' bytes repeat (the generated benchmark module: 1888 facts, 12
// distinct), and decoding each, a new gob decoder compiling its types at
// every fact, was most of exportFacts's time: a hasher decodes each
// distinct encoding once.
type factHasher struct {
	seen map[string]canonicalFact
}

type canonicalFact struct {
	text []byte
	ok   bool
}

// hash returns the hash of facts, sorted (compareFacts); false when one of
// them does not decode, or has no canonical form.
func (fh *factHasher) hash(facts []EncodedFact) (sum [32]byte, ok bool) {
	h := sha256.New()
	ok = true
	for _, f := range facts {
		// The decoded value as gob sees it, maps sorted: gob's bytes
		// of a map vary from run to run. Decoding first hashes what
		// a run that replays the fact sees.
		fmt.Fprintf(h, "%s %s %q ", f.Analyzer, f.Type, f.Path)
		c := fh.canonical(f)
		ok = ok && c.ok
		h.Write(c.text)
		h.Write([]byte{'\n'})
	}
	h.Sum(sum[:0])
	return sum, ok
}

func (fh *factHasher) canonical(f EncodedFact) canonicalFact {
	key := f.Type + "\x00" + string(f.Data)
	if c, ok := fh.seen[key]; ok {
		return c
	}
	v, err := decodeForHash(f)
	var buf bytes.Buffer
	c := canonicalFact{ok: err == nil && canonical(&buf, reflect.ValueOf(v), 0)}
	c.text = buf.Bytes()
	if fh.seen == nil {
		fh.seen = map[string]canonicalFact{}
	}
	fh.seen[key] = c
	return c
}

// factTypes holds every fact type encoded this process, by name, for
// decodeForHash.
var factTypes sync.Map // string → reflect.Type

func decodeForHash(f EncodedFact) (any, error) {
	t, ok := factTypes.Load(f.Type)
	if !ok {
		return nil, fmt.Errorf("unknown")
	}
	v := reflect.New(t.(reflect.Type).Elem()).Interface()
	err := gob.NewDecoder(bytes.NewReader(f.Data)).Decode(v)
	return v, err
}

// apiHash hashes what an importer can see of pkg through its types: every
// exported package-level object, the declarations its types reach in pkg
// (an unexported type's methods, struct fields, parameters), each with its
// position, as a finding's related position may name it. A declaration of
// another package that they reach is named by its package, not by its
// position (see pos).
//
// A position is hashed as findings print it, through //line directives
// (cgo's output names the user's files), except that a file of no Go
// file's name in goFiles (cgo's _cgo_gotypes.go, written to a temporary
// directory) is named by its base name.
func apiHash(pkg *types.Package, fset *token.FileSet, goFiles []string) [32]byte {
	h := new(bytes.Buffer)
	q := types.RelativeTo(nil)
	// pos is where obj is declared. A declaration of another package
	// (the field of runtime/cgo.Incomplete that cgo's incomplete C
	// structs have as their underlying type) is named by its package:
	// its position is what that package's load gives (the compiler's
	// export data and the syntax disagree on it), so hashing it would
	// make the hash depend on how the dependency was loaded in this
	// run, and that package's own key and interface hash cover it.
	pos := func(obj types.Object) string {
		if obj.Pkg() != pkg {
			if obj.Pkg() == nil {
				return "universe"
			}
			return "in " + obj.Pkg().Path()
		}
		posn := fset.Position(obj.Pos())
		if !slices.Contains(goFiles, posn.Filename) {
			posn.Filename = "-" // named by the build's hash of the package
		}
		return posn.String()
	}
	seenNamed := map[*types.TypeName]bool{}
	var queue []*types.TypeName
	seenType := map[types.Type]bool{}
	var walk func(t types.Type)
	walk = func(t types.Type) {
		if t == nil || seenType[t] {
			return
		}
		seenType[t] = true
		switch t := t.(type) {
		case *types.Named:
			if obj := t.Obj(); obj.Pkg() == pkg && !seenNamed[obj] {
				seenNamed[obj] = true
				queue = append(queue, obj)
			}
			for i := range t.TypeArgs().Len() {
				walk(t.TypeArgs().At(i))
			}
		case *types.Alias:
			walk(types.Unalias(t))
		case *types.Pointer:
			walk(t.Elem())
		case *types.Slice:
			walk(t.Elem())
		case *types.Array:
			walk(t.Elem())
		case *types.Map:
			walk(t.Key())
			walk(t.Elem())
		case *types.Chan:
			walk(t.Elem())
		case *types.Tuple:
			for i := range t.Len() {
				v := t.At(i)
				fmt.Fprintf(h, "  var %s %s\n", v.Name(), pos(v))
				walk(v.Type())
			}
		case *types.Signature:
			if r := t.Recv(); r != nil {
				fmt.Fprintf(h, "  recv %s %s\n", r.Name(), pos(r))
			}
			walk(t.Params())
			walk(t.Results())
		case *types.Struct:
			for i := range t.NumFields() {
				f := t.Field(i)
				fmt.Fprintf(h, "  field %s %s %q\n", f.Name(), pos(f), t.Tag(i))
				walk(f.Type())
			}
		case *types.Interface:
			for i := range t.NumMethods() {
				m := t.Method(i)
				fmt.Fprintf(h, "  imethod %s %s\n", m.Name(), pos(m))
				walk(m.Type())
			}
			for i := range t.NumEmbeddeds() {
				walk(t.EmbeddedType(i))
			}
		case *types.TypeParam:
			walk(t.Constraint())
		case *types.Union:
			for i := range t.Len() {
				walk(t.Term(i).Type())
			}
		}
	}
	fmt.Fprintf(h, "package %s %s\n", pkg.Path(), pkg.Name())
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		obj := scope.Lookup(name)
		if !obj.Exported() {
			continue
		}
		fmt.Fprintf(h, "%s %s\n", types.ObjectString(obj, q), pos(obj))
		if c, ok := obj.(*types.Const); ok {
			fmt.Fprintf(h, "  value %s\n", c.Val().ExactString())
		}
		walk(obj.Type())
	}
	for len(queue) > 0 {
		obj := queue[0]
		queue = queue[1:]
		named, _ := obj.Type().(*types.Named)
		fmt.Fprintf(h, "type %s %s = %s\n", types.ObjectString(obj, q), pos(obj), types.TypeString(obj.Type().Underlying(), q))
		walk(obj.Type().Underlying())
		if named == nil {
			continue
		}
		for i := range named.NumMethods() {
			m := named.Method(i)
			fmt.Fprintf(h, "  method %s %s\n", types.ObjectString(m, q), pos(m))
			walk(m.Type())
		}
	}
	return sha256.Sum256(h.Bytes())
}
