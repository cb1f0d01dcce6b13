package runtimecheck

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/hiplint/hiplint/internal/hipapi"
)

// Site is one instrumented call (or probe) in the user's source.
type Site struct {
	ID    int    `json:"id"`
	File  string `json:"file"`
	Line  int    `json:"line"`
	Col   int    `json:"col"`
	API   string `json:"api"` // the runtime function, "hiplint:probe" or MarkerAPI
	Probe bool   `json:"probe,omitempty"`
	// Marker: enter and exit records around the Go call at this position
	// (a finding or silent site on a call of a wrapper): the runtime calls
	// between them are the site's.
	Marker bool `json:"marker,omitempty"`
}

// MarkerAPI is the api of the records a call-site marker writes, with phase
// "enter" before the Go call and "exit" after it.
const MarkerAPI = "hiplint:call"

func (s Site) String() string { return fmt.Sprintf("%s:%d:%d", shortPath(s.File), s.Line, s.Col) }

// Run is the outcome of one test process.
type Run struct {
	Test     string
	Trace    *Trace
	Exit     int    // exit status; -1 when killed by a signal
	Signal   string // the signal that ended the process, if any
	TimedOut bool
	OOM      bool
	Output   string // the test's output, or its head and tail (capture.text)
	// Events are go test -v's structure lines (=== RUN, --- PASS, ...) of
	// the whole output, however long it was.
	Events   []string
	Duration time.Duration
	Err      error // the run could not be started at all
	// ForceSync is the same test run with HIPLINT_FORCE_SYNC=1, when the
	// family asks for it.
	ForceSync *Run
	seq       int // the runner's count when it ran: runs in order
}

// structure returns go test -v's structure lines of the run, one a line:
// Events, or where there are none (a run made by hand in a test) Output.
func (r *Run) structure() string {
	if len(r.Events) == 0 {
		return r.Output
	}
	return strings.Join(r.Events, "\n") + "\n"
}

// Outcome says how the process ended, in words.
func (r *Run) Outcome() string {
	switch {
	case r.Err != nil:
		return "could not run: " + r.Err.Error()
	case r.TimedOut:
		return fmt.Sprintf("timed out after %s (process group killed)", r.Duration.Round(time.Millisecond))
	case r.OOM:
		return "killed for lack of memory"
	case r.Signal != "":
		return "killed by " + r.Signal
	case r.Exit == 0:
		return "passed"
	}
	return fmt.Sprintf("failed (exit status %d)", r.Exit)
}

// Evidence is everything a judge sees for one finding.
type Evidence struct {
	Finding Finding
	Sites   map[int]Site
	// At holds the sites on the finding's line; Related the sites on each
	// related position's line.
	At      []int
	Related []int
	Runs    []*Run

	windows map[*Trace]map[int]bool // trace → seqs inside a marker window of At
}

// at reports whether r is one of the finding's own calls: a runtime call or
// probe at a site on its line, or a runtime call made between the enter and
// exit records of a call-site marker on its line (beneath the Go call there).
func (ev *Evidence) at(t *Trace, r *Record) bool {
	if r.API == MarkerAPI {
		return false
	}
	if contains(ev.At, r.Site) {
		return true
	}
	return ev.inWindow(t)[r.Seq]
}

// where names the position of one of the finding's calls: the finding's,
// or the runtime call's beneath the Go call a marker encloses.
func (ev *Evidence) where(r *Record) string {
	if contains(ev.At, r.Site) {
		return ev.Finding.Posn
	}
	return fmt.Sprintf("%s (inside the call at %s)", ev.Sites[r.Site], ev.Finding.Posn)
}

// inWindow returns the sequence numbers of t's records made while a call
// marker of the finding was open (entered and not yet exited).
func (ev *Evidence) inWindow(t *Trace) map[int]bool {
	if w, ok := ev.windows[t]; ok {
		return w
	}
	if ev.windows == nil {
		ev.windows = map[*Trace]map[int]bool{}
	}
	w := windowSeqs(t, func(site int) bool { return contains(ev.At, site) })
	ev.windows[t] = w
	return w
}

// windowSeqs returns the records of t inside an open window of a marker
// whose site satisfies want. A marker without exit (the Go call was a return
// statement's, or the process died in it) stays open to the end of the trace.
func windowSeqs(t *Trace, want func(site int) bool) map[int]bool {
	w := map[int]bool{}
	open := map[int]int{}
	for _, r := range sorted(t) {
		if r.API == MarkerAPI {
			if !want(r.Site) {
				continue
			}
			if r.Phase == "enter" {
				open[r.Site]++
			} else if open[r.Site] > 0 {
				open[r.Site]--
				if open[r.Site] == 0 {
					delete(open, r.Site)
				}
			}
			continue
		}
		if len(open) > 0 {
			w[r.Seq] = true
		}
	}
	return w
}

func contains(list []int, x int) bool {
	for _, v := range list {
		if v == x {
			return true
		}
	}
	return false
}

// Judge decides a finding from the evidence and says why.
type Judge func(ev *Evidence) (Verdict, []string)

// Family is one check family's confirmation recipe.
type Family struct {
	Prefix string // check ID prefix, e.g. "HL2"
	Name   string
	Judge  Judge
	// DelayUS is the perturbation queued before each device-to-device copy.
	DelayUS int
	// ForceSync asks for a second run with HIPLINT_FORCE_SYNC=1.
	ForceSync bool
	// Probe asks for a probe at the finding when no runtime call is there
	// (the finding is a host read).
	Probe bool
	// AnySite: the judge reads the whole trace, so the finding needs no
	// instrumented call on its own line (XNACK findings sit on tests).
	AnySite bool
}

// Families are the check families runtimecheck can judge. A new family
// plugs in with one entry.
var Families = []Family{
	{Prefix: "HL1", Name: "copy sync", Judge: judgeCopySync, DelayUS: 20000, ForceSync: true, Probe: true},
	{Prefix: "HL2", Name: "module balance", Judge: judgeModules},
	{Prefix: "HL3", Name: "graph free", Judge: judgeGraphFree},
	{Prefix: "HL4", Name: "XNACK", Judge: judgeXNACK, AnySite: true},
}

// familyOf returns the family of a check ID.
func familyOf(id string) (Family, bool) {
	for _, f := range Families {
		if strings.HasPrefix(id, f.Prefix) {
			return f, true
		}
	}
	return Family{}, false
}

// judge applies the finding's family judge, after the verdicts that do not
// depend on the family: nothing ran, nothing reached the flagged line.
func judge(ev *Evidence) (Verdict, []string) {
	fam, ok := familyOf(ev.Finding.ID)
	if !ok {
		return Inconclusive, []string{"no runtime judge for " + ev.Finding.ID}
	}
	if len(ev.Runs) == 0 {
		return NotExercised, []string{"no test, benchmark or example reaches this function"}
	}
	if len(ev.At) == 0 && !fam.AnySite {
		return Inconclusive, []string{"nothing at this position could be instrumented (no runtime call in a cgo file of the package)"}
	}
	var started []string
	for _, r := range ev.Runs {
		if r.Err != nil {
			started = append(started, r.Test+": "+r.Outcome())
		}
	}
	if len(started) == len(ev.Runs) {
		return Inconclusive, started
	}
	for _, r := range ev.Runs {
		if r.Trace != nil && r.Trace.Dropped > 0 {
			return Inconclusive, []string{fmt.Sprintf("%s: the trace holds %d records; confirm keeps the first %d, and a verdict on part of a trace could be wrong (run the test alone with fewer iterations)",
				r.Test, len(r.Trace.Records)+r.Trace.Dropped+r.Trace.Bad, len(r.Trace.Records))}
		}
	}
	v, evidence := fam.Judge(ev)
	for _, r := range ev.Runs {
		if msg, crashed := crashEvidence(ev, r); crashed && !containsString(evidence, msg) {
			evidence = append(evidence, msg)
		}
	}
	if v == NotExercised {
		for _, r := range ev.Runs {
			evidence = append(evidence, fmt.Sprintf("%s %s without reaching %s", r.Test, r.Outcome(), ev.Finding.Posn))
		}
	}
	return v, evidence
}

// roleOf returns the role of a record's API.
func roleOf(r *Record) hipapi.Role {
	if f, ok := hipapi.Lookup(r.API); ok {
		return f.Role
	}
	return hipapi.Other
}

// sorted returns the run's records in sequence order.
func sorted(t *Trace) []Record {
	if t == nil {
		return nil
	}
	out := append([]Record(nil), t.Records...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Seq < out[j].Seq })
	return out
}

// errName names a runtime status code.
func errName(api string, code Word) string {
	names := map[Word]string{
		0: "success", 1: "invalid value", 2: "out of memory", 3: "not initialized", 4: "deinitialized",
		98: "invalid device function", 101: "invalid device", 200: "invalid image", 201: "invalid context",
		209: "no binary for GPU", 218: "invalid PTX", 301: "file not found", 400: "invalid handle",
		500: "not found", 600: "not ready", 700: "illegal address", 719: "launch failure", 900: "stream capture unsupported",
	}
	prefix := "hipError"
	switch hipapi.FamilyOf(api) {
	case hipapi.CUDARuntime:
		prefix = "cudaError"
	case hipapi.CUDADriver:
		prefix = "CUDA_ERROR"
	}
	if n, ok := names[code]; ok {
		return fmt.Sprintf("%d (%s %s)", code, prefix, n)
	}
	return fmt.Sprintf("%d", code)
}

// crashEvidence says where a process died, when it did.
func crashEvidence(ev *Evidence, r *Run) (string, bool) {
	if r.Signal == "" && !r.TimedOut && !r.OOM {
		return "", false
	}
	msg := fmt.Sprintf("%s %s", r.Test, r.Outcome())
	if u := r.Trace.Unfinished(); u != nil {
		msg += fmt.Sprintf(" inside %s at %s", u.API, ev.Sites[u.Site])
	}
	return msg, true
}

func mib(b int64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }

func shortPath(p string) string {
	parts := strings.Split(p, "/")
	if len(parts) > 2 {
		return strings.Join(parts[len(parts)-2:], "/")
	}
	return p
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
