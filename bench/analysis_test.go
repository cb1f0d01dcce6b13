// Package bench holds hiplint's benchmarks. bench/run.sh times whole
// processes against the no-op floor; the benchmark here times the analysis
// phase alone (the part hiplint adds to loading), with its allocation, which
// is steadier than time on a shared machine:
//
//	go test ./bench -run '^$' -bench Analysis -benchtime 5x
//
// It reports wall time (ns/op, ms/pkg), allocation, and the process CPU time
// of the loop (cpu-ms/op: analysis and garbage collection on every thread).
//
// It generates the HIP-heavy module (bench/gen, HIPLINT_BENCH_PACKAGES
// packages, 50 by default) in a temporary directory, loads it once as
// hiplint does, and runs the suite, and each analyzer alone, through
// checker.Analyze on the loaded packages.
package bench

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/hiplint/hiplint/analyzers"
	"github.com/hiplint/hiplint/internal/headerless"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

func loadGenerated(b *testing.B) []*packages.Package {
	b.Helper()
	n := 50
	if s := os.Getenv("HIPLINT_BENCH_PACKAGES"); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v < 1 {
			b.Fatalf("HIPLINT_BENCH_PACKAGES=%q: want a positive number", s)
		}
		n = v
	}
	root, err := filepath.Abs("..")
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	gen := exec.Command("go", "run", "./bench/gen", "-n", strconv.Itoa(n), "-funcs", "24",
		"-include", filepath.Join(root, "testdata", "include"), "-o", dir)
	gen.Dir = root
	if out, err := gen.CombinedOutput(); err != nil {
		b.Fatalf("bench/gen: %v\n%s", err, out)
	}
	env, cleanup, err := headerless.Auto(os.Environ())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(cleanup)
	cfg := &packages.Config{Mode: packages.LoadAllSyntax | packages.NeedModule, Tests: true, Dir: dir, Env: env}
	pkgs, err := packages.Load(cfg, "./...")
	if err != nil {
		b.Fatal(err)
	}
	var roots []*packages.Package
	for _, p := range pkgs {
		if p.IllTyped {
			b.Fatalf("%s: %v", p.PkgPath, p.Errors)
		}
		roots = append(roots, p)
	}
	return roots
}

func BenchmarkAnalysis(b *testing.B) {
	roots := loadGenerated(b)
	run := func(b *testing.B, suite []*analysis.Analyzer) {
		b.ReportAllocs()
		cpu0 := processCPU(b)
		for b.Loop() {
			if _, err := checker.Analyze(suite, roots, nil); err != nil {
				b.Fatal(err)
			}
		}
		cpu := processCPU(b) - cpu0
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(roots))/1e6, "ms/pkg")
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N)/1e6, "cpu-ms/op")
	}
	b.Run("suite", func(b *testing.B) { run(b, analyzers.Suite()) })
	for _, a := range analyzers.Suite() {
		b.Run(a.Name, func(b *testing.B) { run(b, []*analysis.Analyzer{a}) })
	}
}

// processCPU is the user and system CPU time the process has used so far, on
// every thread: the analysis goroutines and the garbage collector's workers,
// which a 16-core machine runs in parallel with them, so that ns/op (wall
// time) hides part of the cost. The benchmark reports the difference over its
// loop as cpu-ms/op. The figure includes whatever else the process does
// meanwhile (nothing, in a benchmark run alone).
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
