package runtimecheck

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/tools/go/packages"
)

// judgeFindings instruments the flagged packages, plans, runs and judges
// each finding (and silent site): everything confirm does after analysis.
// The findings in blocked directories (tier 3: their tests cannot be built)
// are inconclusive, with the reason, and nothing there is instrumented.
func judgeFindings(ctx context.Context, o *options, dir, work string, runEnv []string, pkgs []*packages.Package, findings []Finding, blocked map[string]string, stderr io.Writer) (results []Result, err error) {
	pl := newPlanner(pkgs)
	r := &runner{o: o, env: runEnv, work: work, runs: map[string]*Run{}}

	// Instrument each flagged package once, with probes for every finding
	// of a family that wants one.
	for i, f := range findings {
		if rel, err := filepath.Rel(dir, f.File); err == nil && !strings.HasPrefix(rel, "..") {
			findings[i].Posn = fmt.Sprintf("%s:%d:%d", rel, f.Line, f.Col)
		}
	}
	byDir := map[string][]int{}
	for i, f := range findings {
		d := filepath.Dir(f.File)
		findings[i].Dir = d
		byDir[d] = append(byDir[d], i)
	}
	if o.silent {
		// Packages without findings or candidates are instrumented too:
		// tracing finds their silent sites (traceCandidates).
		for _, p := range pkgs {
			if len(p.GoFiles) > 0 && !strings.HasSuffix(p.PkgPath, ".test") { // not go test's generated main
				d := filepath.Dir(p.GoFiles[0])
				if _, ok := byDir[d]; !ok {
					byDir[d] = nil
				}
			}
		}
	}
	dirs := make([]string, 0, len(byDir))
	for d := range byDir {
		if _, ok := blocked[d]; !ok {
			dirs = append(dirs, d)
		}
	}
	sort.Strings(dirs)
	insts := map[string]*Instrumented{}
	instErr := map[string]error{}
	nextSite := 1
	for n, d := range dirs {
		var probes []probeAt
		for _, i := range byDir[d] {
			// Every finding and silent site asks for its evidence: a marker
			// around the Go call on its line, or a probe at a host read.
			if fam, ok := familyOf(findings[i].ID); ok && !fam.AnySite {
				probes = append(probes, probeAt{findings[i].File, findings[i].Line, findings[i].Col, fam.Probe})
			}
		}
		pdir := filepath.Join(work, "pkg"+strconv.Itoa(n))
		if err := os.MkdirAll(pdir, 0o755); err != nil {
			return nil, err
		}
		inst, err := instrument(d, packageFiles(pkgs, d), pdir, nextSite, probes)
		if err != nil {
			instErr[d] = err
			continue
		}
		nextSite += len(inst.Sites) + 1
		insts[d] = inst
	}
	if o.silent {
		findings = append(findings, traceCandidates(findings, insts, pkgs, dir)...)
		sortFindings(findings)
	}

	untraced := 0
	defer func() {
		if untraced > 0 {
			fmt.Fprintf(stderr, "hiplint confirm: %d silent sites left out: no runtime call on their line, and no Go call in a cgo file to mark\n", untraced)
		}
	}()
	var evs []*Evidence
	var judged []int // index in results of each judged evidence, in evs' order
	for _, f := range findings {
		res := Result{Finding: f}
		inst := insts[f.Dir]
		fn := pl.enclosing(f.File, f.Line)
		if fn != nil {
			res.Finding.Function = fn.String()
		}
		switch {
		case blocked[f.Dir] != "":
			res.Verdict, res.Evidence = Inconclusive, []string{blocked[f.Dir]}
			results = append(results, res)
			continue
		case instErr[f.Dir] != nil:
			res.Verdict, res.Evidence = Inconclusive, []string{"could not instrument the package: " + instErr[f.Dir].Error()}
			results = append(results, res)
			continue
		case fn == nil:
			res.Verdict, res.Evidence = NotExercised, []string{"no function of the loaded packages contains this position"}
			results = append(results, res)
			continue
		}
		var plans []Planned
		for _, p := range pl.plan(fn) {
			if o.run == nil || o.run.MatchString(p.Name) {
				plans = append(plans, p)
			}
		}
		if len(plans) == 0 {
			why := fmt.Sprintf("no test, benchmark or example of %s reaches %s", f.Package, fn.String())
			if o.run != nil {
				why += " (among those -run matches)"
			}
			res.Verdict, res.Evidence = NotExercised, []string{why}
			results = append(results, res)
			continue
		}
		ev := &Evidence{Finding: f, Sites: inst.Sites}
		for id, s := range inst.Sites {
			if s.File == f.File && s.Line == f.Line {
				ev.At = append(ev.At, id)
			}
			for _, rel := range f.Related {
				if strings.HasPrefix(rel, fmt.Sprintf("%s:%d:", s.File, s.Line)) {
					ev.Related = append(ev.Related, id)
				}
			}
		}
		sort.Ints(ev.At)
		sort.Ints(ev.Related)
		fam, _ := familyOf(f.ID)
		if f.Silent && len(ev.At) == 0 && !fam.AnySite {
			// A safe site reached through a wrapper: nothing on its line
			// is traced, so there is nothing to judge it by.
			untraced++
			continue
		}
		for _, p := range plans {
			res.Tests = append(res.Tests, p.Name)
			if inst.Overlay == "" {
				continue
			}
			// A test with subtests is run and judged one subtest at a
			// time, so that each failure is its own subtest's.
			units := []Planned{p}
			if whole := r.run(ctx, f.Dir, inst, p, fam.DelayUS, false); p.Kind == "test" {
				if subs := subtests(whole.structure(), p.Name); len(subs) > 0 {
					units = units[:0]
					for _, sub := range subs {
						units = append(units, Planned{Name: p.Name, Kind: p.Kind, Sub: sub})
					}
				}
			}
			for _, u := range units {
				run := r.run(ctx, f.Dir, inst, u, fam.DelayUS, false)
				res.Runs = append(res.Runs, summarize(run, false))
				if fam.ForceSync {
					run.ForceSync = r.run(ctx, f.Dir, inst, u, fam.DelayUS, true)
					res.Runs = append(res.Runs, summarize(run.ForceSync, true))
				}
				ev.Runs = append(ev.Runs, run)
			}
		}
		res.Verdict, res.Evidence = judge(ev)
		evs = append(evs, ev)
		if f.Silent && res.Verdict == Confirmed {
			res.Verdict = Missed
			res.Evidence = append([]string{falseNegative}, res.Evidence...)
		}
		results = append(results, res)
		judged = append(judged, len(results)-1)
	}
	reconcile(results, judged, evs)
	if msg := r.buildSummary(); msg != "" {
		fmt.Fprintf(stderr, "hiplint confirm: %s\n", msg)
	}
	return results, nil
}

// buildSummary says so when no test process built (every one a
// buildError): then every verdict that needed a run is inconclusive, for the
// reason given once here. "" when some test built, or none ran.
func (r *runner) buildSummary() string {
	if len(r.runs) == 0 {
		return ""
	}
	first := ""
	for _, key := range slices.Sorted(maps.Keys(r.runs)) {
		var be *buildError
		if !errors.As(r.runs[key].Err, &be) {
			return ""
		}
		if first == "" || r.runs[key].seq < r.runs[first].seq {
			first = key
		}
	}
	msg := fmt.Sprintf("no test could be built (%s): the verdicts that needed a run are inconclusive", r.runs[first].Err)
	if r.o.platform == "none" {
		msg += "; no ROCm and no CUDA was found to build them against"
	}
	return msg
}

// packageFiles returns the Go files of the package in dir (any variant).
func packageFiles(pkgs []*packages.Package, dir string) []string {
	seen := map[string]bool{}
	var out []string
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, f := range p.GoFiles {
			if filepath.Dir(f) == dir && !seen[f] && !strings.HasSuffix(f, "_test.go") {
				seen[f] = true
				out = append(out, f)
			}
		}
	})
	sort.Strings(out)
	return out
}

// runner runs planned tests, each (package, test, mode) once.
type runner struct {
	o    *options
	env  []string
	work string
	runs map[string]*Run
	n    int
}

func (r *runner) run(ctx context.Context, dir string, inst *Instrumented, p Planned, delayUS int, forceSync bool) *Run {
	key := fmt.Sprintf("%s|%s|%s|%d|%v", dir, p.Name, p.Sub, delayUS, forceSync)
	if run, ok := r.runs[key]; ok {
		return run
	}
	r.n++
	tracePath := filepath.Join(r.work, fmt.Sprintf("trace%d.jsonl", r.n))
	env := withEnv(r.env, "HIPLINT_TRACE="+tracePath)
	if delayUS > 0 {
		env = withEnv(env, "HIPLINT_DELAY_US="+strconv.Itoa(delayUS))
	}
	if forceSync {
		env = withEnv(env, "HIPLINT_FORCE_SYNC=1")
	}
	// A build whose cgo step fails leaves cgo's compiler input in
	// TMPDIR, and a test killed at its timeout its temporary files: both
	// go into confirm's work directory, removed at exit.
	if tmp := filepath.Join(r.work, "tmp"); os.MkdirAll(tmp, 0o700) == nil {
		env = withEnv(env, "TMPDIR="+tmp)
	}
	goCmd := lookupEnv(env, "HIPLINT_GO")
	if goCmd == "" {
		goCmd = "go"
	}
	args := []string{goCmd, "test", "-v", "-count=1", "-overlay=" + inst.Overlay, "-timeout=" + (r.o.timeout + time.Minute).String()}
	if p.Kind == "benchmark" {
		args = append(args, "-run=^$", "-bench=^"+p.Name+"$", "-benchtime=1x")
	} else {
		args = append(args, "-run="+p.RunPattern())
	}
	args = append(args, ".")
	outPath := filepath.Join(r.work, fmt.Sprintf("output%d.txt", r.n))
	res := runProcess(ctx, runSpec{Args: args, Dir: dir, Env: env, Timeout: r.o.timeout, OutputFile: outPath})
	run := &Run{Test: p.Label(), Exit: res.Exit, Signal: res.Signal, TimedOut: res.TimedOut, OOM: res.OOM,
		Output: string(res.Output), Events: res.Events, Duration: res.Duration, Err: res.Err}
	if f, err := os.Open(tracePath); err == nil {
		run.Trace, _ = ParseTrace(f)
		f.Close()
	}
	if run.Trace == nil {
		run.Trace = &Trace{}
	}
	if run.Err == nil && (strings.Contains(run.Output, "[build failed]") || strings.Contains(run.Output, "[setup failed]")) {
		run.Err = &buildError{line: firstBuildError(run.Output)}
	}
	run.seq = r.n
	r.runs[key] = run
	return run
}

// buildError is a go test that did not build: line is the compiler's (or
// linker's) first error.
type buildError struct{ line string }

func (e *buildError) Error() string { return "build failed: " + e.line }

// buildLineMax bounds the error line confirm quotes from a failed build.
const buildLineMax = 300

// firstBuildError returns the first error line of a failed go test build,
// cut at buildLineMax bytes: a C compiler's or the linker's error ("fatal
// error: hip/hip_runtime_api.h: No such file or directory", "cannot find
// -lamdhip64", "undefined reference to `hipFoo'"), or the Go compiler's.
// Left out: go's "# pkg" headers and FAIL lines, the linker's echo of the
// whole C link command (a thousand characters naming temporary files),
// "running gcc failed", "in function" context lines, gcc's source excerpts
// and its closing remarks.
func firstBuildError(out string) string {
	var candidates []string
	for _, l := range strings.Split(out, "\n") {
		t := strings.TrimSpace(l)
		switch {
		case t == "", strings.HasPrefix(t, "# "), strings.HasPrefix(t, "FAIL"), strings.HasPrefix(t, "ok "),
			strings.HasPrefix(t, "collect2:"), t == "compilation terminated.",
			strings.Contains(t, ": running ") && strings.Contains(t, " failed: exit status"),
			strings.HasSuffix(t, "':") && strings.Contains(t, "in function"),
			gccExcerpt(l), commandEcho(t):
			continue
		}
		candidates = append(candidates, t)
	}
	if len(candidates) == 0 {
		return "no error message from go test"
	}
	pick := candidates[0]
	for _, c := range candidates {
		lc := strings.ToLower(c)
		if strings.Contains(lc, "error") || strings.Contains(lc, "undefined") || strings.Contains(lc, "cannot find") || strings.Contains(lc, "no such file") {
			pick = c
			break
		}
	}
	if len(pick) > buildLineMax {
		cut := buildLineMax
		for cut > 0 && !utf8.RuneStart(pick[cut]) {
			cut--
		}
		pick = pick[:cut] + "..."
	}
	return pick
}

// gccExcerpt reports whether l is a line of the source excerpt gcc prints
// under an error ("    3 | #include <x.h>", "      |     ^~~~").
func gccExcerpt(l string) bool {
	t := strings.TrimLeft(l, " ")
	if len(t) == len(l) {
		return false // excerpts are indented
	}
	num := strings.TrimLeft(t, "0123456789")
	return strings.HasPrefix(strings.TrimLeft(num, " "), "|")
}

// commandEcho reports whether t is the echo of a C compiler or linker
// command line (what cmd/link prints before the linker's own messages).
func commandEcho(t string) bool {
	f := strings.Fields(t)
	if len(f) < 4 {
		return false
	}
	base := filepath.Base(f[0])
	for _, cc := range []string{"gcc", "cc", "clang", "g++", "c++", "ld", "ld.lld", "ld.gold"} {
		if base == cc || strings.HasSuffix(base, "-"+cc) || strings.HasPrefix(base, cc+"-") {
			return true
		}
	}
	return false
}
