// Command factcost measures what hiplint's facts cost on a module: it loads
// the packages as the standalone hiplint does, runs the suite once through
// checker.Analyze, and splits the analyzers' time between
//
//   - packages that call the GPU runtime through cgo themselves, and
//   - packages that do not, which the analyzers leave at once unless a
//     dependency exported facts (every fourth package of bench/gen reaches
//     the runtime only through another package's wrappers);
//
// and counts the facts exported and their gob-encoded size (what go vet
// -vettool writes between packages). docs/performance.md records a run.
//
// Packages of other modules and the standard library are analyzed only for
// the facts their importers need; they are counted apart.
//
// Usage: factcost [-test=false] packages...
package main

import (
	"bytes"
	"encoding/gob"
	"flag"
	"fmt"
	"go/types"
	"os"
	"sort"
	"sync"
	"time"

	"github.com/hiplint/hiplint/analyzers"
	"github.com/hiplint/hiplint/internal/cgocall"
	"github.com/hiplint/hiplint/internal/headerless"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

type tally struct {
	pkgs       map[string]bool
	time       time.Duration
	facts      int
	factBytes  int
	withFacts  int // packages (of this kind) whose analysis saw imported facts
	diagnostic int
}

func main() {
	tests := flag.Bool("test", true, "load test files too (as hiplint does by default)")
	flag.Parse()
	patterns := flag.Args()
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	env, cleanup, err := headerless.Auto(os.Environ())
	if err != nil {
		fmt.Fprintln(os.Stderr, "factcost:", err)
		os.Exit(1)
	}
	defer cleanup()
	cfg := &packages.Config{Mode: packages.LoadAllSyntax | packages.NeedModule, Tests: *tests, Env: env}
	start := time.Now()
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		fmt.Fprintln(os.Stderr, "factcost:", err)
		os.Exit(1)
	}
	loaded := time.Since(start)
	var roots []*packages.Package
	for _, p := range pkgs {
		if !p.IllTyped {
			roots = append(roots, p)
		}
	}
	start = time.Now()
	// Each analyzer's Run holds one lock, so the time measured for a run
	// is that run's alone (the checker runs actions in parallel, and wall
	// times of overlapping actions would count each other's work).
	var mu sync.Mutex
	spent := map[*types.Package]map[string]time.Duration{}
	var suite []*analysis.Analyzer
	for _, a := range analyzers.Suite() {
		w := *a
		run := a.Run
		w.Run = func(pass *analysis.Pass) (any, error) {
			mu.Lock()
			defer mu.Unlock()
			t0 := time.Now()
			res, err := run(pass)
			if spent[pass.Pkg] == nil {
				spent[pass.Pkg] = map[string]time.Duration{}
			}
			spent[pass.Pkg][pass.Analyzer.Name] += time.Since(t0)
			return res, err
		}
		suite = append(suite, &w)
	}
	graph, err := checker.Analyze(suite, roots, nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, "factcost:", err)
		os.Exit(1)
	}
	analyzed := time.Since(start)

	const (
		direct  = "calls the runtime"
		through = "no runtime calls"
		outside = "other modules, std"
	)
	kinds := map[string]*tally{direct: {pkgs: map[string]bool{}}, through: {pkgs: map[string]bool{}}, outside: {pkgs: map[string]bool{}}}
	perAnalyzer := map[string]time.Duration{}
	for act := range graph.All() {
		kind := through
		switch {
		case cgocall.CallsRuntime(act.Package.Types):
			kind = direct
		case act.Package.Module == nil || !act.Package.Module.Main:
			kind = outside
		}
		t := kinds[kind]
		t.pkgs[act.Package.ID] = true
		d := spent[act.Package.Types][act.Analyzer.Name]
		t.time += d
		t.diagnostic += len(act.Diagnostics)
		perAnalyzer[act.Analyzer.Name] += d
		imported := false
		for _, f := range act.AllObjectFacts() {
			if f.Object.Pkg() != act.Package.Types {
				imported = true
				continue
			}
			t.facts++
			var b bytes.Buffer
			if err := gob.NewEncoder(&b).Encode(f.Fact); err == nil {
				t.factBytes += b.Len()
			}
		}
		if imported {
			t.withFacts++
		}
	}
	fmt.Printf("%d packages loaded in %v; the suite ran in %v (wall, one analyzer run at a time)\n\n", len(pkgs), loaded.Round(time.Millisecond), analyzed.Round(time.Millisecond))
	fmt.Printf("%-18s %8s %14s %12s %14s %10s %11s\n", "packages", "count", "analyzer time", "facts out", "facts (bytes)", "saw facts", "diagnostics")
	for _, k := range []string{direct, through, outside} {
		t := kinds[k]
		fmt.Printf("%-18s %8d %14v %12d %14d %10d %11d\n", k, len(t.pkgs), t.time.Round(time.Millisecond), t.facts, t.factBytes, t.withFacts, t.diagnostic)
	}
	names := make([]string, 0, len(perAnalyzer))
	for n := range perAnalyzer {
		names = append(names, n)
	}
	sort.Strings(names)
	fmt.Println()
	for _, n := range names {
		fmt.Printf("%-14s %v\n", n, perAnalyzer[n].Round(time.Millisecond))
	}
}
