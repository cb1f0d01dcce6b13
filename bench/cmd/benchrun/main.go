// Command benchrun times hiplint against the fact-free floor, its own
// loading and the linters users already run: for each input it runs, side by
// side and interleaved,
//
//	floor        the fact-free floor (bench/floor): x/tools' multichecker
//	             with one no-op analyzer without facts, which loads every
//	             dependency from export data
//	noop-syntax  bench/noop: hiplint's old loading, every dependency from
//	             syntax, and one analyzer that does nothing
//	hiplint cold the standalone driver (go/packages + checker.Analyze + the
//	             suite) with an empty result cache (HIPLINT_CACHE emptied
//	             before each run): the cold run
//	hiplint warm the same with the result cache its previous run left: an
//	             unchanged module answered from the cache
//	go vet       go vet with its default suite
//	staticcheck  staticcheck with its default checks (with -staticcheck);
//	             it caches its results (~/.cache/staticcheck), so that its
//	             warm runs are answered from its cache
//
// and reports the median wall time, CPU time (user+system of the process and
// its children, which is steadier than wall time on a shared machine) and
// peak resident memory (ru_maxrss: the largest single process of the tree),
// each as a ratio to the floor. Run it through bench/run.sh, which builds the
// binaries and generates the HIP-heavy modules.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"
)

type tool struct {
	name string
	argv func(in input) []string
	env  func() []string // extra environment for one run, made just before it
}

type input struct {
	name, dir, pattern string
	pkgs               int    // generated packages, 0 for the others
	tags               string // build tags, comma-separated
}

type sample struct {
	wall, cpu time.Duration
	rssKB     int64
	exit      int
}

func main() {
	hiplint := flag.String("hiplint", "", "hiplint binary")
	floor := flag.String("floor", "", "fact-free floor binary (bench/floor)")
	noop := flag.String("noop", "", "all-syntax no-op binary (bench/noop)")
	staticcheck := flag.String("staticcheck", "", "staticcheck binary (optional)")
	runs := flag.Int("runs", 3, "timed runs per tool and input (after one untimed warm-up run)")
	warm := flag.Bool("warm", true, "do one untimed run of every tool on every input first")
	var inputs []input
	flag.Func("input", "name=dir:pattern[:packages[:tags]], repeatable", func(s string) error {
		name, rest, ok := strings.Cut(s, "=")
		parts := strings.Split(rest, ":")
		if !ok || len(parts) < 2 {
			return errors.New("want name=dir:pattern[:packages[:tags]]")
		}
		in := input{name: name, dir: parts[0], pattern: parts[1]}
		if len(parts) > 2 && parts[2] != "" {
			fmt.Sscan(parts[2], &in.pkgs)
		}
		if len(parts) > 3 {
			in.tags = parts[3]
		}
		inputs = append(inputs, in)
		return nil
	})
	flag.Parse()
	if *hiplint == "" || *floor == "" || *noop == "" || len(inputs) == 0 {
		log.Fatal("benchrun: -hiplint, -floor, -noop and at least one -input are required")
	}
	tagged := func(argv []string, tags string) []string {
		if tags == "" {
			return argv
		}
		return append(argv[:1:1], append([]string{"-tags=" + tags}, argv[1:]...)...)
	}
	tools := []tool{
		{"floor", func(in input) []string { return tagged([]string{*floor, in.pattern}, in.tags) }, nil},
		{"noop-syntax", func(in input) []string { return tagged([]string{*noop, in.pattern}, in.tags) }, nil},
		{"hiplint cold", func(in input) []string { return tagged([]string{*hiplint, in.pattern}, in.tags) }, emptyCache},
		{"hiplint warm", func(in input) []string { return tagged([]string{*hiplint, in.pattern}, in.tags) }, warmCache},
		{"go vet", func(in input) []string {
			return append([]string{"go"}, tagged([]string{"vet", in.pattern}, in.tags)...)
		}, nil},
	}
	if *staticcheck != "" {
		tools = append(tools, tool{"staticcheck", func(in input) []string { return tagged([]string{*staticcheck, in.pattern}, in.tags) }, nil})
	}

	defer os.RemoveAll(cacheRoot)
	fmt.Printf("load at start: %s\n", uptime())
	if *warm {
		for _, in := range inputs {
			for _, t := range tools {
				s := run(in, t)
				log.Printf("warm-up %-10s %-8s %6.1fs (exit %d)", in.name, t.name, s.wall.Seconds(), s.exit)
			}
		}
	}
	results := map[string]map[string][]sample{}
	for r := range *runs {
		for _, in := range inputs {
			if results[in.name] == nil {
				results[in.name] = map[string][]sample{}
			}
			for _, t := range tools {
				s := run(in, t)
				log.Printf("run %d %-10s %-8s wall %6.1fs cpu %6.1fs rss %5d MB (exit %d)",
					r+1, in.name, t.name, s.wall.Seconds(), s.cpu.Seconds(), s.rssKB>>10, s.exit)
				results[in.name][t.name] = append(results[in.name][t.name], s)
			}
		}
	}
	fmt.Printf("load at end: %s\n\n", uptime())

	fmt.Printf("Medians of %d runs; ratios are to the fact-free floor (x/tools multichecker, one no-op analyzer).\n\n", *runs)
	fmt.Println("| input | tool | wall s | × floor | CPU s | × floor | peak RSS MB | × floor |")
	fmt.Println("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
	for _, in := range inputs {
		floor := medians(results[in.name]["floor"])
		for _, t := range tools {
			m := medians(results[in.name][t.name])
			fmt.Printf("| %s | %s | %.1f | %.2f | %.1f | %.2f | %d | %.2f |\n", in.name, t.name,
				m.wall.Seconds(), m.wall.Seconds()/floor.wall.Seconds(),
				m.cpu.Seconds(), m.cpu.Seconds()/floor.cpu.Seconds(),
				m.rssKB>>10, float64(m.rssKB)/float64(floor.rssKB))
		}
	}

	// Paired ratios: each run of a tool against the floor's run just before
	// it (the tools run in turn), so that the machine's drift between runs
	// (on a shared machine the floor's own CPU time on std varies by a
	// quarter) cancels out.
	fmt.Printf("\nPer-run ratios to the floor's run of the same round (median, then min–max):\n\n")
	fmt.Println("| input | tool | wall × floor | CPU × floor | peak RSS × floor |")
	fmt.Println("| --- | --- | --- | --- | --- |")
	for _, in := range inputs {
		floor := results[in.name]["floor"]
		for _, t := range tools {
			if t.name == "floor" {
				continue
			}
			var wall, cpu, rss []float64
			for i, s := range results[in.name][t.name] {
				if i >= len(floor) {
					break
				}
				f := floor[i]
				wall = append(wall, s.wall.Seconds()/f.wall.Seconds())
				cpu = append(cpu, s.cpu.Seconds()/f.cpu.Seconds())
				rss = append(rss, float64(s.rssKB)/float64(f.rssKB))
			}
			fmt.Printf("| %s | %s | %s | %s | %s |\n", in.name, t.name, spread(wall), spread(cpu), spread(rss))
		}
	}

	// Scaling: the generated inputs, per package, relative to the smallest.
	var gen []input
	for _, in := range inputs {
		if in.pkgs > 0 {
			gen = append(gen, in)
		}
	}
	if len(gen) > 1 {
		fmt.Print("\nScaling of the generated module (CPU seconds; per package in brackets):\n\n")
		fmt.Println("| packages | floor | hiplint | go vet | hiplint − floor |")
		fmt.Println("| ---: | ---: | ---: | ---: | ---: |")
		for _, in := range gen {
			n := float64(in.pkgs)
			no := medians(results[in.name]["floor"]).cpu.Seconds()
			hl := medians(results[in.name]["hiplint cold"]).cpu.Seconds()
			vet := medians(results[in.name]["go vet"]).cpu.Seconds()
			fmt.Printf("| %d | %.1f (%.3f) | %.1f (%.3f) | %.1f (%.3f) | %.1f (%.4f) |\n", in.pkgs,
				no, no/n, hl, hl/n, vet, vet/n, hl-no, (hl-no)/n)
		}
	}
}

// run runs t on in once and measures it.
func run(in input, t tool) sample {
	argv := t.argv(in)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = in.dir
	if t.env != nil {
		cmd.Env = append(os.Environ(), t.env()...)
	}
	var stderr bytes.Buffer
	cmd.Stdout = nil // findings are not part of the measurement
	cmd.Stderr = &stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	s := sample{wall: wall}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		s.exit = exit.ExitCode()
	case err != nil:
		log.Fatalf("%s: %v", strings.Join(argv, " "), err)
	}
	// hiplint exits 3 on findings, staticcheck 1; anything else but 0 is
	// a broken input.
	if s.exit != 0 && !(strings.HasPrefix(t.name, "hiplint") && s.exit == 3) && !(t.name == "staticcheck" && s.exit == 1) {
		log.Printf("%s in %s: exit %d\n%s", strings.Join(argv, " "), in.dir, s.exit, tail(stderr.String()))
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		// wait4 reports the process and its waited-for descendants: CPU
		// summed, maxrss the largest single one (kilobytes on Linux).
		s.cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		s.rssKB = ru.Maxrss
	}
	return s
}

// cacheRoot holds the result caches of the hiplint columns: cold empties
// its own before each run, warm keeps its own (one per input: the cache key
// includes the module, so one directory serves them all).
var cacheRoot = func() string {
	d, err := os.MkdirTemp("", "benchrun-cache-")
	if err != nil {
		log.Fatal(err)
	}
	return d
}()

func emptyCache() []string {
	dir := filepath.Join(cacheRoot, "cold")
	if err := os.RemoveAll(dir); err != nil {
		log.Fatal(err)
	}
	return []string{"HIPLINT_CACHE=" + dir}
}

func warmCache() []string { return []string{"HIPLINT_CACHE=" + filepath.Join(cacheRoot, "warm")} }

func medians(ss []sample) sample {
	med := func(f func(sample) int64) int64 {
		v := make([]int64, len(ss))
		for i, s := range ss {
			v[i] = f(s)
		}
		slices.Sort(v)
		return v[len(v)/2]
	}
	return sample{
		wall:  time.Duration(med(func(s sample) int64 { return int64(s.wall) })),
		cpu:   time.Duration(med(func(s sample) int64 { return int64(s.cpu) })),
		rssKB: med(func(s sample) int64 { return s.rssKB }),
	}
}

// spread formats the median of v, then its range.
func spread(v []float64) string {
	if len(v) == 0 {
		return "–"
	}
	v = slices.Clone(v)
	slices.Sort(v)
	return fmt.Sprintf("%.2f (%.2f–%.2f)", v[len(v)/2], v[0], v[len(v)-1])
}

func tail(s string) string {
	if len(s) > 2000 {
		return "..." + s[len(s)-2000:]
	}
	return s
}

func uptime() string {
	out, err := exec.Command("uptime").Output()
	if err != nil {
		return "unknown"
	}
	return strings.TrimSpace(string(out))
}
