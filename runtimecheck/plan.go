package runtimecheck

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"

	"golang.org/x/tools/go/callgraph"
	"golang.org/x/tools/go/callgraph/cha"
	"golang.org/x/tools/go/callgraph/vta"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

// Planned is a test, benchmark, example or fuzz target that reaches a finding.
type Planned struct {
	Name string // TestX, BenchmarkX, ExampleX, FuzzX
	Kind string // "test", "benchmark", "example", "fuzz"
	// Sub is one subtest of the test, as go test -v names it (spaces
	// already rewritten to underscores): that subtest is run alone.
	Sub string
}

// RunPattern is the go test -run pattern that selects the test (or the one
// subtest) and nothing else: ^TestX$ or ^TestX$/^name$, names quoted.
func (p Planned) RunPattern() string {
	pat := "^" + regexp.QuoteMeta(p.Name) + "$"
	if p.Sub != "" {
		pat += "/^" + regexp.QuoteMeta(p.Sub) + "$"
	}
	return pat
}

// Label names the test, or the subtest as TestX/name.
func (p Planned) Label() string {
	if p.Sub != "" {
		return p.Name + "/" + p.Sub
	}
	return p.Name
}

// subtests returns the direct subtests of test that go test -v reported
// running, in order, each once.
func subtests(output, test string) []string {
	var out []string
	seen := map[string]bool{}
	for _, line := range strings.Split(output, "\n") {
		rest, ok := strings.CutPrefix(strings.TrimSpace(line), "=== RUN")
		if !ok {
			continue
		}
		name, ok := strings.CutPrefix(strings.TrimSpace(rest), test+"/")
		if !ok || name == "" || strings.Contains(name, "/") || seen[name] {
			continue
		}
		seen[name] = true
		out = append(out, name)
	}
	return out
}

// planner answers, for a position, which entry points of its package's tests
// reach the function that contains it.
type planner struct {
	prog  *ssa.Program
	graph *callgraph.Graph
	fset  *token.FileSet
	pkgs  []*packages.Package

	closures map[*types.Package]map[*types.Package]bool
}

// newPlanner builds SSA for the loaded packages (their test variants
// included) and a CHA call graph over all of it.
func newPlanner(pkgs []*packages.Package) *planner {
	var ok []*packages.Package
	for _, p := range pkgs {
		if !p.IllTyped && p.Types != nil {
			ok = append(ok, p)
		}
	}
	var fset *token.FileSet
	if len(ok) > 0 {
		fset = ok[0].Fset
	}
	prog := buildProgram(fset, ok)
	// CHA alone links every dynamic call of a func value to every function
	// of that signature (cgo's deferred wrappers are such calls); VTA, seeded
	// with CHA, keeps only the functions that can flow to the call.
	graph := vta.CallGraph(ssautil.AllFunctions(prog), cha.CallGraph(prog))
	return &planner{prog: prog, graph: graph, fset: fset, pkgs: ok}
}

// buildProgram creates and builds the SSA program of pkgs and everything
// they import. A package is built from its syntax only when it has syntax
// and types, is well typed and is not a tier-3 package; the others (tier 3:
// their "C" import is go/types' fake one and C names have no types, which
// SSA cannot build; an ill-typed dependency; a package whose imports could
// not all be created) get their members from their types alone, without
// bodies: calls into them are calls of external functions, which plan
// nothing. A panic while building a package (in its own goroutine, as
// Program.Build does) is raised again in the caller's, where confirm's
// top-level recover turns it into one error line.
func buildProgram(fset *token.FileSet, pkgs []*packages.Package) *ssa.Program {
	prog := ssa.NewProgram(fset, ssa.InstantiateGenerics)
	created := map[*types.Package]bool{}
	// Post-order: each package after its imports.
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if p.Types == nil || created[p.Types] {
			return
		}
		withBodies := !p.IllTyped && p.TypesInfo != nil && len(p.Syntax) > 0
		for _, imp := range p.Types.Imports() {
			if fakeC(imp) || !created[imp] {
				withBodies = false
			}
		}
		if withBodies {
			prog.CreatePackage(p.Types, p.Syntax, p.TypesInfo, true)
		} else {
			prog.CreatePackage(p.Types, nil, nil, true)
		}
		created[p.Types] = true
	})
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first *buildPanic
	)
	for _, p := range prog.AllPackages() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if r := recover(); r != nil {
					mu.Lock()
					if first == nil {
						first = &buildPanic{val: r, at: panicSite()}
					}
					mu.Unlock()
				}
			}()
			if buildHook != nil {
				buildHook(p)
			}
			p.Build()
		}()
	}
	wg.Wait()
	if first != nil {
		panic(first)
	}
	return prog
}

// buildHook, when set (by tests), is called before each package is built,
// in the goroutine that builds it.
var buildHook func(*ssa.Package)

// fakeC reports whether pkg is the "C" package go/types makes up for a
// package whose cgo step did not run (FakeImportC, tier 3).
func fakeC(pkg *types.Package) bool { return pkg.Path() == "C" }

// buildPanic is a panic raised while building SSA in another goroutine,
// with where it happened there.
type buildPanic struct {
	val any
	at  string
}

func (p *buildPanic) Error() string {
	if p.at == "" {
		return fmt.Sprintf("building SSA: %v", p.val)
	}
	return fmt.Sprintf("building SSA: %v (at %s)", p.val, p.at)
}

var entryRE = regexp.MustCompile(`^(Test|Benchmark|Example|Fuzz)([A-Z_0-9].*)?$`)

// enclosing returns the innermost source function (not a cgo wrapper literal)
// whose body spans file:line, preferring the test variant of the package.
func (p *planner) enclosing(file string, line int) *ssa.Function {
	var best *ssa.Function
	bestSpan := 1 << 30
	for fn := range allFunctions(p.prog) {
		syn := fn.Syntax()
		if syn == nil || fn.Pkg == nil {
			continue
		}
		start, end := p.fset.Position(syn.Pos()), p.fset.Position(syn.End())
		if start.Filename != file || line < start.Line || line > end.Line {
			continue
		}
		span := end.Line - start.Line
		if _, lit := syn.(*ast.FuncLit); lit && span == 0 {
			continue // cgo's one-line argument-checking wrappers
		}
		testVariant := strings.Contains(fn.Pkg.Pkg.Path(), "[") || isTestVariant(p.pkgs, fn.Pkg)
		if span < bestSpan || span == bestSpan && testVariant {
			best, bestSpan = fn, span
		}
	}
	return best
}

func isTestVariant(pkgs []*packages.Package, sp *ssa.Package) bool {
	for _, p := range pkgs {
		if p.Types == sp.Pkg && strings.Contains(p.ID, "[") {
			return true
		}
	}
	return false
}

// allFunctions returns every function of the program with syntax, anonymous
// functions included.
func allFunctions(prog *ssa.Program) map[*ssa.Function]bool {
	all := ssautil.AllFunctions(prog)
	return all
}

// plan returns the entry points of the tests that reach fn, sorted by name.
// Only the tests of fn's own package directory are candidates (confirm runs
// go test there), and each is walked forward through the call graph within
// the packages its test binary links (its import closure): a test of another
// package, or a path through a package the test cannot import, plans nothing.
func (p *planner) plan(target *ssa.Function) []Planned {
	if target == nil || target.Pkg == nil {
		return nil
	}
	// The same source function exists once per package variant; any copy
	// of it counts.
	goal := map[*callgraph.Node]bool{}
	pos := target.Pos()
	for fn, node := range p.graph.Nodes {
		if fn != nil && fn.Pos() == pos && fn.Name() == target.Name() {
			goal[node] = true
		}
	}
	dir := filepath.Dir(p.fset.Position(pos).Filename)
	found := map[string]Planned{}
	for fn, node := range p.graph.Nodes {
		if fn == nil || fn.Parent() != nil || fn.Signature.Recv() != nil || fn.Pkg == nil || !isTestFile(p.fset, fn) {
			continue
		}
		m := entryRE.FindStringSubmatch(fn.Name())
		if m == nil || filepath.Dir(p.fset.Position(fn.Pos()).Filename) != dir {
			continue
		}
		if _, dup := found[fn.Name()]; dup {
			continue
		}
		if p.reaches(node, goal, p.closure(fn.Pkg.Pkg)) {
			kind := map[string]string{"Test": "test", "Benchmark": "benchmark", "Example": "example", "Fuzz": "fuzz"}[m[1]]
			found[fn.Name()] = Planned{Name: fn.Name(), Kind: kind}
		}
	}
	out := make([]Planned, 0, len(found))
	for _, pl := range found {
		out = append(out, pl)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// reaches walks the call graph forward from an entry point, through the
// functions of the packages in linked (and synthetic ones), to a goal node.
func (p *planner) reaches(from *callgraph.Node, goal map[*callgraph.Node]bool, linked map[*types.Package]bool) bool {
	seen := map[*callgraph.Node]bool{from: true}
	queue := []*callgraph.Node{from}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		if goal[n] {
			return true
		}
		for _, e := range n.Out {
			c := e.Callee
			if seen[c] {
				continue
			}
			seen[c] = true
			if fn := c.Func; fn != nil && fn.Pkg != nil && !linked[fn.Pkg.Pkg] {
				continue
			}
			queue = append(queue, c)
		}
	}
	return false
}

// closure returns the packages a test binary built for pkg links: pkg and
// everything it imports, transitively (the exact package variants).
func (p *planner) closure(pkg *types.Package) map[*types.Package]bool {
	if c, ok := p.closures[pkg]; ok {
		return c
	}
	c := map[*types.Package]bool{}
	var walk func(lp *packages.Package)
	walk = func(lp *packages.Package) {
		if lp == nil || lp.Types == nil || c[lp.Types] {
			return
		}
		c[lp.Types] = true
		for _, imp := range lp.Imports {
			walk(imp)
		}
	}
	packages.Visit(p.pkgs, nil, func(lp *packages.Package) {
		if lp.Types == pkg {
			walk(lp)
		}
	})
	if len(c) == 0 {
		// Not a loaded package: without its imports, follow the package itself.
		c[pkg] = true
		for _, imp := range pkg.Imports() {
			c[imp] = true
		}
	}
	if p.closures == nil {
		p.closures = map[*types.Package]map[*types.Package]bool{}
	}
	p.closures[pkg] = c
	return c
}

func isTestFile(fset *token.FileSet, fn *ssa.Function) bool {
	return strings.HasSuffix(fset.Position(fn.Pos()).Filename, "_test.go")
}
