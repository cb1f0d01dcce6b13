package runtimecheck

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/hiplint/hiplint/internal/headerless"
)

// Exit statuses of hiplint confirm (docs/runtimecheck.md, "Exit status").
// When several apply, the first of exitConfirmed, exitError, exitUndecided
// and exitRefuted wins.
const (
	// exitRefuted: every finding (and, with -silent, every silent site)
	// was refuted, or there was nothing to judge.
	exitRefuted = 0
	// exitError: a package did not load or analyze, or confirm itself
	// failed (an internal error), and no hazard was observed.
	exitError = 1
	exitUsage = 2
	// exitConfirmed: a hazard was observed: a finding confirmed or, with
	// -silent, a site missed.
	exitConfirmed = 3
	// exitUndecided: no hazard was observed, but not every verdict decides:
	// some are inconclusive (no GPU runtime, the build failed, ...) or not
	// exercised (no test reaches them).
	exitUndecided = 4
)

// options are confirm's command line.
type options struct {
	run      *regexp.Regexp
	timeout  time.Duration
	json     bool
	keep     bool
	silent   bool   // also judge the sites the analyzers found safe
	platform string // Platform.Name, once detected
	patterns []string
	dir      string   // working directory ("" is the process's)
	env      []string // environment (nil is the process's)
}

// Main implements `hiplint confirm [-run regexp] [-timeout d] [-json] [-keep] [packages]`.
// Exit status: 3 when a hazard was observed (confirmed or missed), else 1 on
// error (a package that failed to load or analyze included), else 4 when a
// verdict is inconclusive or not exercised, else 0 (every finding refuted,
// or none); 2 for a bad command line; 128+n when stopped by signal n
// (interrupt.go).
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
			"when the hazard happened there anyway.\n\n"+
			"Exit status: 3 a hazard observed, 1 an error, 4 a verdict inconclusive or not exercised,\n"+
			"0 every finding refuted (or none), 2 a bad command line.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return exitRefuted
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
	intr := catchInterrupts(stderr)
	results, failed, err := confirmRecovered(intr.ctx, o, stderr)
	if code, ok := intr.stop(); ok {
		return code
	}
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
	if len(results) > 0 {
		fmt.Fprintf(stderr, "hiplint confirm: %s\n", tally(results))
	}
	return exitStatus(results, failed)
}

// tally counts the verdicts: "2 confirmed, 1 refuted, 3 inconclusive".
func tally(results []Result) string {
	n := map[Verdict]int{}
	for _, r := range results {
		n[r.Verdict]++
	}
	var parts []string
	for _, v := range []Verdict{Confirmed, Missed, Refuted, Inconclusive, NotExercised} {
		if n[v] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n[v], v))
		}
	}
	return strings.Join(parts, ", ")
}

// exitStatus is confirm's exit status for its verdicts; failed reports
// that a package could not be loaded or analyzed.
func exitStatus(results []Result, failed bool) int {
	undecided := false
	for _, r := range results {
		switch r.Verdict {
		case Confirmed, Missed:
			return exitConfirmed
		case Refuted:
		default:
			undecided = true
		}
	}
	switch {
	case failed:
		return exitError
	case undecided:
		return exitUndecided
	}
	return exitRefuted
}

// confirmRecovered is confirm with a panic in it (planning, judging, ...)
// turned into an error of one line: confirm's own deferred cleanups (its
// temporary directory) run on the way.
func confirmRecovered(ctx context.Context, o *options, stderr io.Writer) (results []Result, failed bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = internalError(r, panicSite())
			err = errors.New(strings.Join(strings.Fields(err.Error()), " "))
			results, failed = nil, true
		}
	}()
	return confirm(ctx, o, stderr)
}

// confirm runs the whole pipeline: analyze, plan, instrument, run, judge.
// failed reports that a package could not be loaded or analyzed (the
// errors are printed).
func confirm(ctx context.Context, o *options, stderr io.Writer) (results []Result, failed bool, err error) {
	env := o.env
	if env == nil {
		env = os.Environ()
	}
	dir := o.dir
	if dir == "" {
		if dir, err = os.Getwd(); err != nil {
			return nil, false, err
		}
	}
	work, err := makeWorkDir()
	if err != nil {
		return nil, false, err
	}
	if o.keep {
		fmt.Fprintf(stderr, "hiplint confirm: keeping %s\n", work)
	} else {
		defer os.RemoveAll(work)
		tempDirs.add(work) // removed on a forced exit too (interrupt.go)
		defer tempDirs.remove(work)
	}

	plat, err := detectPlatform(env, filepath.Join(work, "hipcuda"))
	if err != nil {
		return nil, false, err
	}
	fmt.Fprintf(stderr, "hiplint confirm: %s\n", plat.Note)
	o.platform = plat.Name
	runEnv := withEnv(env, plat.Env...)
	loadEnv, cleanup, err := headerless.Auto(runEnv)
	if err != nil {
		return nil, false, err
	}
	defer cleanup()

	l, err := findingsOf(ctx, dir, loadEnv, o.patterns, o.silent)
	if err != nil {
		return nil, false, err
	}
	if err := ctx.Err(); err != nil {
		return nil, false, err
	}
	for _, n := range l.notes {
		fmt.Fprintf(stderr, "hiplint confirm: %s\n", n)
	}
	for _, e := range l.errs {
		fmt.Fprintf(stderr, "hiplint confirm: %s\n", e)
	}
	pkgs, findings, errs := l.pkgs, l.findings, l.errs
	if len(findings) == 0 && !o.silent { // with -silent, tracing may still find silent sites
		return nil, len(errs) > 0, nil
	}
	results, err = judgeFindings(ctx, o, dir, work, runEnv, pkgs, findings, l.blocked, stderr)
	return results, len(errs) > 0, err
}
