package runtimecheck

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/hiplint/hiplint/internal/headerless"
	"golang.org/x/tools/go/packages"
)

// Exit statuses of hiplint confirm.
const (
	exitNoneConfirmed = 0
	exitError         = 1
	exitUsage         = 2
	exitConfirmed     = 3
)

// options are confirm's command line.
type options struct {
	run      *regexp.Regexp
	timeout  time.Duration
	json     bool
	keep     bool
	silent   bool // also judge the sites the analyzers found safe
	patterns []string
	dir      string   // working directory ("" is the process's)
	env      []string // environment (nil is the process's)
}

// Main implements `hiplint confirm [-run regexp] [-timeout d] [-json] [-keep] [packages]`.
// Exit status: 0 when no hazard was observed, 3 when one was (confirmed or missed), 1 on error.
func Main(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("hiplint confirm", flag.ContinueOnError)
	fs.SetOutput(stderr)
	run := fs.String("run", "", "only run the planned tests, benchmarks and examples whose names match `regexp`")
	timeout := fs.Duration("timeout", 2*time.Minute, "time limit for each test process (its process group is killed after it)")
	asJSON := fs.Bool("json", false, "print the verdicts as a JSON array")
	jsonFile := fs.String("jsonfile", "", "also write the JSON verdicts to `file`")
	keep := fs.Bool("keep", false, "keep the temporary directory (overlays, generated wrappers, traces) and print its path")
	silent := fs.Bool("silent", false, "also judge the sites the analyzers checked and found safe (fixed twins): refuted agrees with hiplint's silence, missed is a hazard hiplint did not report")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: hiplint confirm [-run regexp] [-timeout d] [-json] [-keep] [-silent] [packages]\n\n"+
			"Runs hiplint's analyzers, then the tests that reach each finding with the GPU runtime calls traced,\n"+
			"and prints a verdict per finding: confirmed, refuted, not exercised or inconclusive.\n"+
			"With -silent it also judges each site the analyzers checked and found safe: refuted, or missed\n"+
			"when the hazard happened there anyway.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return exitNoneConfirmed
		}
		return exitUsage
	}
	o := &options{timeout: *timeout, json: *asJSON, keep: *keep, silent: *silent, patterns: fs.Args()}
	if *run != "" {
		re, err := regexp.Compile(*run)
		if err != nil {
			fmt.Fprintf(stderr, "hiplint confirm: bad -run: %v\n", err)
			return exitUsage
		}
		o.run = re
	}
	if len(o.patterns) == 0 {
		o.patterns = []string{"."}
	}
	results, err := confirm(context.Background(), o, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "hiplint confirm: %v\n", err)
		return exitError
	}
	if o.json {
		if err := printJSON(stdout, results); err != nil {
			fmt.Fprintf(stderr, "hiplint confirm: %v\n", err)
			return exitError
		}
	} else {
		printText(stdout, results)
	}
	if *jsonFile != "" {
		f, err := os.Create(*jsonFile)
		if err == nil {
			err = printJSON(f, results)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			fmt.Fprintf(stderr, "hiplint confirm: %v\n", err)
			return exitError
		}
	}
	for _, r := range results {
		if r.Verdict == Confirmed || r.Verdict == Missed {
			return exitConfirmed
		}
	}
	return exitNoneConfirmed
}

// confirm runs the whole pipeline: analyze, plan, instrument, run, judge.
func confirm(ctx context.Context, o *options, stderr io.Writer) (results []Result, err error) {
	env := o.env
	if env == nil {
		env = os.Environ()
	}
	dir := o.dir
	if dir == "" {
		if dir, err = os.Getwd(); err != nil {
			return nil, err
		}
	}
	work, err := os.MkdirTemp("", "hiplint-confirm-")
	if err != nil {
		return nil, err
	}
	if o.keep {
		fmt.Fprintf(stderr, "hiplint confirm: keeping %s\n", work)
	} else {
		defer os.RemoveAll(work)
	}

	plat, err := detectPlatform(env, filepath.Join(work, "hipcuda"))
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(stderr, "hiplint confirm: %s\n", plat.Note)
	runEnv := withEnv(env, plat.Env...)
	loadEnv := runEnv
	if missing := headerless.Missing(loadEnv); len(missing) > 0 {
		hdrs, cleanup, err := headerless.Install()
		if err != nil {
			return nil, err
		}
		defer cleanup()
		loadEnv = headerless.Env(loadEnv, hdrs)
	}

	pkgs, err := loadPackages(dir, loadEnv, o.patterns)
	if err != nil {
		return nil, err
	}
	findings, errs, err := analyze(pkgs, o.silent)
	if err != nil {
		return nil, err
	}
	for _, e := range errs {
		fmt.Fprintf(stderr, "hiplint confirm: %s\n", e)
	}
	if len(findings) == 0 {
		return nil, nil
	}
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
			if fam, ok := familyOf(findings[i].ID); ok && fam.Probe {
				probes = append(probes, probeAt{findings[i].File, findings[i].Line, findings[i].Col})
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

	untraced := 0
	defer func() {
		if untraced > 0 {
			fmt.Fprintf(stderr, "hiplint confirm: %d silent sites left out: no runtime call on their line to trace (they go through wrappers)\n", untraced)
		}
	}()
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
			run := r.run(ctx, f.Dir, inst, p, fam.DelayUS, false)
			res.Runs = append(res.Runs, summarize(run, false))
			if fam.ForceSync {
				run.ForceSync = r.run(ctx, f.Dir, inst, p, fam.DelayUS, true)
				res.Runs = append(res.Runs, summarize(run.ForceSync, true))
			}
			ev.Runs = append(ev.Runs, run)
		}
		res.Verdict, res.Evidence = judge(ev)
		if f.Silent && res.Verdict == Confirmed {
			res.Verdict = Missed
			res.Evidence = append([]string{"hiplint reported nothing here, but the hazard happened: a false negative"}, res.Evidence...)
		}
		results = append(results, res)
	}
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
	key := fmt.Sprintf("%s|%s|%d|%v", dir, p.Name, delayUS, forceSync)
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
		args = append(args, "-run=^"+p.Name+"$")
	}
	args = append(args, ".")
	res := runProcess(ctx, runSpec{Args: args, Dir: dir, Env: env, Timeout: r.o.timeout})
	run := &Run{Test: p.Name, Exit: res.Exit, Signal: res.Signal, TimedOut: res.TimedOut, OOM: res.OOM,
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
