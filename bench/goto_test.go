package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/hiplint/hiplint/analyzers"
	"github.com/hiplint/hiplint/internal/gotogen"
	"github.com/hiplint/hiplint/internal/headerless"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// BenchmarkGoto times the suite on one goto-heavy function (internal/gotogen:
// a generated dispatcher) of 100 to 5,000 labels, loaded once per size, to
// show that the cost of a function grows near-linearly with its control-flow
// graph (issue 29: 400 labels took 11.5 s, 2,000 ran out of memory):
//
//	go test ./bench -run '^$' -bench Goto -benchtime 1x
//
// It reports, besides ns/op and the allocation, ns/label and the process
// CPU time of the loop (cpu-ms/op). Figures in docs/performance.md.
func BenchmarkGoto(b *testing.B) {
	root, err := filepath.Abs("..")
	if err != nil {
		b.Fatal(err)
	}
	env, cleanup, err := headerless.Auto(os.Environ())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(cleanup)
	for _, n := range []int{100, 500, 1000, 2000, 5000} {
		b.Run(fmt.Sprintf("labels=%d", n), func(b *testing.B) {
			dir := b.TempDir()
			src := gotogen.Package("dispatch", filepath.Join(root, "testdata", "include"), gotogen.Options{Labels: n})
			if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module gotobench\n\ngo 1.26\n"), 0o644); err != nil {
				b.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "dispatch.go"), []byte(src), 0o644); err != nil {
				b.Fatal(err)
			}
			cfg := &packages.Config{Mode: packages.LoadAllSyntax | packages.NeedModule, Dir: dir, Env: env}
			pkgs, err := packages.Load(cfg, ".")
			if err != nil {
				b.Fatal(err)
			}
			if len(pkgs) != 1 || pkgs[0].IllTyped {
				b.Fatalf("loading the dispatcher: %v", pkgs[0].Errors)
			}
			b.ReportAllocs()
			b.ResetTimer()
			cpu0 := processCPU(b)
			for b.Loop() {
				if _, err := checker.Analyze(analyzers.Suite(), pkgs, nil); err != nil {
					b.Fatal(err)
				}
			}
			cpu := processCPU(b) - cpu0
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/label")
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N)/1e6, "cpu-ms/op")
		})
	}
}
