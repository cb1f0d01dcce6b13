package runtimecheck

import (
	"go/ast"
	"go/token"
	"regexp"
	"sort"
	"strings"

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
}

// planner answers, for a position, which entry points of its package's tests
// reach the function that contains it.
type planner struct {
	prog  *ssa.Program
	graph *callgraph.Graph
	fset  *token.FileSet
	pkgs  []*packages.Package
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
	prog, _ := ssautil.AllPackages(ok, ssa.InstantiateGenerics)
	prog.Build()
	var fset *token.FileSet
	if len(ok) > 0 {
		fset = ok[0].Fset
	}
	// CHA alone links every dynamic call of a func value to every function
	// of that signature (cgo's deferred wrappers are such calls); VTA, seeded
	// with CHA, keeps only the functions that can flow to the call.
	graph := vta.CallGraph(ssautil.AllFunctions(prog), cha.CallGraph(prog))
	return &planner{prog: prog, graph: graph, fset: fset, pkgs: ok}
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
func (p *planner) plan(target *ssa.Function) []Planned {
	if target == nil {
		return nil
	}
	// The same source function exists once per package variant; start
	// from every copy of it.
	var starts []*callgraph.Node
	pos := target.Pos()
	for fn, node := range p.graph.Nodes {
		if fn != nil && fn.Pos() == pos && fn.Name() == target.Name() {
			starts = append(starts, node)
		}
	}
	seen := map[*callgraph.Node]bool{}
	found := map[string]Planned{}
	queue := starts
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		if seen[n] {
			continue
		}
		seen[n] = true
		if fn := n.Func; fn != nil && fn.Parent() == nil && fn.Signature.Recv() == nil && fn.Pkg != nil && isTestFile(p.fset, fn) {
			if m := entryRE.FindStringSubmatch(fn.Name()); m != nil {
				kind := map[string]string{"Test": "test", "Benchmark": "benchmark", "Example": "example", "Fuzz": "fuzz"}[m[1]]
				found[fn.Name()] = Planned{Name: fn.Name(), Kind: kind}
			}
		}
		for _, e := range n.In {
			queue = append(queue, e.Caller)
		}
	}
	out := make([]Planned, 0, len(found))
	for _, pl := range found {
		out = append(out, pl)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func isTestFile(fset *token.FileSet, fn *ssa.Function) bool {
	return strings.HasSuffix(fset.Position(fn.Pos()).Filename, "_test.go")
}
