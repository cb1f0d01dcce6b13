// Command irspike measures, on the construct matrix (testdata/src/matrix), what
// an SSA engine would give hiplint over its AST engine, for issue 31's
// decision on the IR:
//
//   - resolution: every call in a marked function (hazard, twin or gap) whose
//     callee the type checker does not name (a function value, an interface
//     method, a method value or expression, a closure), resolved by the AST
//     engine (flow.Index.Callee), by go/ssa's static callee, and by a VTA call
//     graph over the package (a unique callee, and the callee the AST engine
//     names among VTA's);
//   - cost: the time of the AST engine (hipindex and the four analyzers, as
//     go/analysis/checker times each action) against the time to build the
//     SSA of the same packages (buildssa) and a VTA call graph over them,
//     before any analysis runs on it.
//
// Run from the repository root:
//
//	go run ./bench/irspike [-rounds N]
//
// The figures are recorded in docs/architecture.md ("Deciding the IR").
package main

import (
	"flag"
	"fmt"
	"go/ast"
	"go/types"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"time"

	"github.com/hiplint/hiplint/analyzers/graphfree"
	"github.com/hiplint/hiplint/analyzers/memcpysync"
	"github.com/hiplint/hiplint/analyzers/modulebalance"
	"github.com/hiplint/hiplint/analyzers/xnack"
	"github.com/hiplint/hiplint/internal/flow"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/callgraph/cha"
	"golang.org/x/tools/go/callgraph/vta"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
	"golang.org/x/tools/go/types/typeutil"
)

// callStat is what each engine makes of one dynamic call.
type callStat struct {
	family, row, role string
	pos               string
	ast, ssaStatic    bool
	vtaUnique, vtaHas bool
	vtaN              int
}

var stats []callStat

// vtaTime is the time spent building the VTA call graphs (buildssa's own
// action is timed by the checker).
var vtaTime time.Duration

var spike = &analysis.Analyzer{
	Name:       "irspike",
	Doc:        "compares the AST engine's call resolution with go/ssa and VTA",
	Requires:   []*analysis.Analyzer{flow.IndexAnalyzer, buildssa.Analyzer},
	ResultType: reflect.TypeFor[int](),
	Run:        run,
}

func run(pass *analysis.Pass) (any, error) {
	idx := pass.ResultOf[flow.IndexAnalyzer].(*flow.Index)
	ir := pass.ResultOf[buildssa.Analyzer].(*buildssa.SSA)
	t0 := time.Now()
	prog := ir.Pkg.Prog
	cg := vta.CallGraph(ssautil.AllFunctions(prog), cha.CallGraph(prog))
	vtaTime += time.Since(t0)

	// The SSA call instructions, by the position of their call's Lparen.
	sites := map[int]ssa.CallInstruction{}
	for fn := range ssautil.AllFunctions(prog) {
		if fn.Pkg != ir.Pkg {
			continue
		}
		for _, b := range fn.Blocks {
			for _, in := range b.Instrs {
				if c, ok := in.(ssa.CallInstruction); ok && c.Pos().IsValid() {
					sites[int(c.Pos())] = c
				}
			}
		}
	}
	family := strings.TrimPrefix(pass.Pkg.Path(), "matrix/")
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			role, row := marker(fd.Doc)
			if row == "" {
				continue
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok || !dynamic(pass.TypesInfo, call) {
					return true
				}
				s := callStat{family: family, row: row, role: role, pos: pass.Fset.Position(call.Pos()).String()}
				astFn := idx.Callee(call)
				if astFn != nil && abstract(astFn) {
					astFn = nil // an interface method: not resolved
				}
				astLit := idx.StoredLit(call)
				s.ast = astFn != nil || astLit != nil
				if c := sites[int(call.Lparen)]; c != nil {
					s.ssaStatic = c.Common().StaticCallee() != nil
					if node := cg.Nodes[c.Parent()]; node != nil {
						seen := map[*ssa.Function]bool{}
						for _, e := range node.Out {
							if e.Site == c && !seen[e.Callee.Func] {
								seen[e.Callee.Func] = true
								if astFn != nil && sameFunc(e.Callee.Func, astFn) ||
									astLit != nil && e.Callee.Func.Syntax() == astLit {
									s.vtaHas = true
								}
							}
						}
						s.vtaN = len(seen)
						s.vtaUnique = len(seen) == 1
					}
				}
				stats = append(stats, s)
				return true
			})
		}
	}
	return 0, nil
}

// abstract reports whether fn is an interface method.
func abstract(fn *types.Func) bool {
	sig, ok := fn.Type().(*types.Signature)
	return ok && sig.Recv() != nil && types.IsInterface(sig.Recv().Type())
}

// sameFunc reports whether the SSA function is fn, or an instance, wrapper or
// closure-free form of it.
func sameFunc(f *ssa.Function, fn *types.Func) bool {
	if o := f.Object(); o != nil {
		if tf, ok := o.(*types.Func); ok && tf.Origin() == fn.Origin() {
			return true
		}
	}
	if f.Origin() != nil {
		return sameFunc(f.Origin(), fn)
	}
	return false
}

// dynamic reports whether call is a call the type checker cannot name the
// callee of: not a conversion, not a builtin, not a static function or
// concrete method call, not a closure called in place, and not a cgo call
// (the analyzers see cgo's output, where C.f(&x) is _Cfunc_f or a closure).
func dynamic(info *types.Info, call *ast.CallExpr) bool {
	if tv, ok := info.Types[call.Fun]; ok && (tv.IsType() || tv.IsBuiltin()) {
		return false
	}
	switch fun := ast.Unparen(call.Fun).(type) {
	case *ast.FuncLit:
		// A closure called in place: both engines know its body (and
		// cgo wraps each runtime call with a pointer argument in one).
		return false
	case *ast.Ident:
		if strings.HasPrefix(fun.Name, "_C") {
			return false // cgo's rewrite of C.f
		}
	}
	return typeutil.StaticCallee(info, call) == nil
}

func marker(doc *ast.CommentGroup) (role, row string) {
	if doc == nil {
		return "", ""
	}
	for _, c := range doc.List {
		t, ok := strings.CutPrefix(c.Text, "//matrix:")
		if !ok {
			continue
		}
		kind, rest, _ := strings.Cut(t, " ")
		if kind != "hazard" && kind != "twin" && kind != "gap" {
			continue
		}
		row, _, _ = strings.Cut(rest, ":")
		return kind, strings.TrimSpace(row)
	}
	return "", ""
}

func main() {
	rounds := flag.Int("rounds", 3, "timed rounds (the median is printed)")
	flag.Parse()
	root, _ := os.Getwd()
	cfg := &packages.Config{
		Mode:  packages.LoadAllSyntax,
		Tests: true,
		Dir:   filepath.Join(root, "testdata", "src"),
		Env:   append(os.Environ(), "GOPATH="+filepath.Join(root, "testdata"), "GO111MODULE=off", "GOFLAGS=", "GOTOOLCHAIN=local"),
	}
	patterns := []string{"matrix/copysync", "matrix/copysynclib", "matrix/modules", "matrix/moduleslib",
		"matrix/graphfree", "matrix/xnack", "matrix/xnacklib"}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if packages.PrintErrors(pkgs) > 0 {
		os.Exit(1)
	}
	engine := []*analysis.Analyzer{memcpysync.Analyzer, modulebalance.Analyzer, graphfree.Analyzer, xnack.Analyzer}
	astNames := map[string]bool{}
	for _, a := range withRequired(engine) {
		astNames[a.Name] = true
	}

	var astT, ssaT, vtaT []time.Duration
	for r := 0; r < *rounds; r++ {
		stats, vtaTime = nil, 0
		g, err := checker.Analyze(append(engine, spike), pkgs, nil)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		var a, s time.Duration
		for act := range g.All() {
			switch {
			case act.Analyzer == buildssa.Analyzer:
				s += act.Duration
			case astNames[act.Analyzer.Name]:
				a += act.Duration
			}
		}
		astT, ssaT, vtaT = append(astT, a), append(ssaT, s), append(vtaT, vtaTime)
	}

	// One stat per call site (test variants load a package twice).
	uniq := map[string]callStat{}
	for _, s := range stats {
		uniq[s.pos] = s
	}
	type tally struct{ n, ast, ssa, vtaU, vtaHas int }
	byFam := map[string]*tally{}
	var all tally
	var astOnly, ssaOnly []string
	for _, s := range uniq {
		t := byFam[s.family]
		if t == nil {
			t = &tally{}
			byFam[s.family] = t
		}
		for _, t := range []*tally{t, &all} {
			t.n++
			if s.ast {
				t.ast++
			}
			if s.ssaStatic {
				t.ssa++
			}
			if s.vtaUnique {
				t.vtaU++
			}
			if s.vtaHas {
				t.vtaHas++
			}
		}
		resolvedBySSA := s.ssaStatic || s.vtaUnique
		switch {
		case s.ast && !resolvedBySSA:
			astOnly = append(astOnly, fmt.Sprintf("%s %s (%s, VTA callees %d)", s.row, s.role, rel(root, s.pos), s.vtaN))
		case !s.ast && resolvedBySSA:
			ssaOnly = append(ssaOnly, fmt.Sprintf("%s %s (%s)", s.row, s.role, rel(root, s.pos)))
		}
	}
	fmt.Printf("dynamic calls in marked functions of testdata/src/matrix (callee not named by go/types)\n\n")
	fmt.Printf("| package | calls | AST engine resolves | ssa static callee | VTA: one callee | VTA includes the AST's callee |\n| --- | --- | --- | --- | --- | --- |\n")
	fams := make([]string, 0, len(byFam))
	for f := range byFam {
		fams = append(fams, f)
	}
	sort.Strings(fams)
	for _, f := range fams {
		t := byFam[f]
		fmt.Printf("| %s | %d | %d | %d | %d | %d |\n", f, t.n, t.ast, t.ssa, t.vtaU, t.vtaHas)
	}
	fmt.Printf("| all | %d | %d | %d | %d | %d |\n\n", all.n, all.ast, all.ssa, all.vtaU, all.vtaHas)
	sort.Strings(astOnly)
	sort.Strings(ssaOnly)
	fmt.Printf("resolved by the AST engine, not by SSA (static or a unique VTA callee): %d\n", len(astOnly))
	for _, s := range astOnly {
		fmt.Println("  ", s)
	}
	fmt.Printf("resolved by SSA, not by the AST engine: %d\n", len(ssaOnly))
	for _, s := range ssaOnly {
		fmt.Println("  ", s)
	}
	fmt.Printf("\ntime over %d rounds, median (go/analysis/checker action durations, %d packages with test variants):\n", *rounds, len(pkgs))
	fmt.Printf("  AST engine (hipindex and the four analyzers, all their requirements): %v\n", median(astT))
	fmt.Printf("  SSA build (buildssa) alone: %v; VTA call graph over it: %v\n", median(ssaT), median(vtaT))
}

func withRequired(as []*analysis.Analyzer) []*analysis.Analyzer {
	seen := map[*analysis.Analyzer]bool{}
	var out []*analysis.Analyzer
	var visit func(a *analysis.Analyzer)
	visit = func(a *analysis.Analyzer) {
		if seen[a] {
			return
		}
		seen[a] = true
		out = append(out, a)
		for _, r := range a.Requires {
			visit(r)
		}
	}
	for _, a := range as {
		visit(a)
	}
	return out
}

func median(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2].Round(time.Millisecond)
}

func rel(root, pos string) string {
	if r, err := filepath.Rel(root, pos); err == nil {
		return r
	}
	return pos
}
