// Command noop is the floor for hiplint's benchmarks: it loads packages
// exactly as the standalone hiplint does (go/packages, LoadAllSyntax plus
// NeedModule, test variants included, and the same environment: where the C
// compiler finds no GPU runtime header, CGO_CFLAGS points at hiplint's own
// declarations, as hiplint -headers=auto does) and runs one analyzer that
// does nothing through the same checker.Analyze. What it costs is what any
// go/packages analysis driver pays to load and type-check.
//
// Usage: noop [-test=false] [-tags=...] packages...
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/hiplint/hiplint/internal/headerless"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

var nothing = &analysis.Analyzer{
	Name: "noop",
	Doc:  "does nothing",
	Run:  func(*analysis.Pass) (any, error) { return nil, nil },
}

func main() {
	tests := flag.Bool("test", true, "load test files too (as hiplint does by default)")
	tags := flag.String("tags", "", "comma-separated build tags")
	flag.Parse()
	patterns := flag.Args()
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	env, cleanup, err := headerless.Auto(os.Environ())
	if err != nil {
		fmt.Fprintln(os.Stderr, "noop:", err)
		os.Exit(1)
	}
	defer cleanup()
	cfg := &packages.Config{Mode: packages.LoadAllSyntax | packages.NeedModule, Tests: *tests, Env: env}
	if *tags != "" {
		cfg.BuildFlags = []string{"-tags=" + *tags}
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		fmt.Fprintln(os.Stderr, "noop:", err)
		os.Exit(1)
	}
	var roots []*packages.Package
	for _, p := range pkgs {
		if !p.IllTyped {
			roots = append(roots, p)
		}
	}
	if _, err := checker.Analyze([]*analysis.Analyzer{nothing}, roots, nil); err != nil {
		fmt.Fprintln(os.Stderr, "noop:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "noop: %d packages loaded, %d analyzed\n", len(pkgs), len(roots))
}
