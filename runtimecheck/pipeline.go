package runtimecheck

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"golang.org/x/tools/go/packages"
)

// judgeFindings instruments the flagged packages, plans, runs and judges
// each finding (and silent site): everything confirm does after analysis.
func judgeFindings(ctx context.Context, o *options, dir, work string, runEnv []string, pkgs []*packages.Package, findings []Finding, stderr io.Writer) (results []Result, err error) {
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
		dirs = append(dirs, d)
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
				if subs := subtests(whole.Output, p.Name); len(subs) > 0 {
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
	return results, nil
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
	res := runProcess(ctx, runSpec{Args: args, Dir: dir, Env: env, Timeout: r.o.timeout})
	run := &Run{Test: p.Label(), Exit: res.Exit, Signal: res.Signal, TimedOut: res.TimedOut, OOM: res.OOM,
		Output: string(res.Output), Duration: res.Duration, Err: res.Err}
	if f, err := os.Open(tracePath); err == nil {
		run.Trace, _ = ParseTrace(f)
		f.Close()
	}
	if run.Trace == nil {
		run.Trace = &Trace{}
	}
	if run.Err == nil && strings.Contains(run.Output, "[build failed]") || strings.Contains(run.Output, "[setup failed]") {
		run.Err = fmt.Errorf("build failed: %s", firstLines(run.Output, 4))
	}
	r.runs[key] = run
	return run
}

func firstLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, " | ")
}
