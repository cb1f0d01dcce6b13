package runtimecheck

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// Verdict is what runtimecheck concludes about one finding.
type Verdict string

const (
	Confirmed    Verdict = "confirmed"
	Refuted      Verdict = "refuted"
	NotExercised Verdict = "not exercised"
	Inconclusive Verdict = "inconclusive"
	// Missed is the verdict on a silent site (confirm -silent) where the
	// hazard happened: a false negative of hiplint's.
	Missed Verdict = "missed"
)

// Finding is one analyzer diagnostic, with its position in the user's file.
type Finding struct {
	ID       string   `json:"id"`
	Analyzer string   `json:"analyzer"`
	Posn     string   `json:"posn"` // file:line:col
	File     string   `json:"-"`
	Line     int      `json:"-"`
	Col      int      `json:"-"`
	Message  string   `json:"message"`
	Related  []string `json:"related,omitempty"` // file:line:col of related positions
	Package  string   `json:"package"`
	Dir      string   `json:"-"`
	Function string   `json:"function,omitempty"` // the SSA function containing the finding
	// Silent marks a site the analyzers checked and found safe (confirm
	// -silent): there is no finding, and the verdict judges hiplint's silence.
	Silent bool `json:"silent,omitempty"`
}

// Result is the verdict on one finding with its evidence.
type Result struct {
	Finding  Finding      `json:"finding"`
	Verdict  Verdict      `json:"verdict"`
	Evidence []string     `json:"evidence"`
	Tests    []string     `json:"tests,omitempty"`
	Runs     []RunSummary `json:"runs,omitempty"`
}

// RunSummary is one test process behind a verdict.
type RunSummary struct {
	Test      string  `json:"test"`
	ForceSync bool    `json:"force_sync,omitempty"`
	Outcome   string  `json:"outcome"`
	Seconds   float64 `json:"seconds"`      // the whole go test process, build included
	TestSecs  float64 `json:"test_seconds"` // as the test itself reported (-v)
	Records   int     `json:"trace_records"`
}

func summarize(r *Run, forceSync bool) RunSummary {
	s := RunSummary{Test: r.Test, ForceSync: forceSync, Outcome: r.Outcome(), Seconds: r.Duration.Seconds(), TestSecs: testSeconds(r.structure(), r.Test)}
	if r.Trace != nil {
		s.Records = len(r.Trace.Records)
	}
	return s
}

// testSeconds parses "--- PASS: TestX (0.52s)" from go test -v output.
func testSeconds(out, name string) float64 {
	for _, l := range strings.Split(out, "\n") {
		l = strings.TrimSpace(l)
		for _, p := range []string{"--- PASS: ", "--- FAIL: ", "--- SKIP: "} {
			if rest, ok := strings.CutPrefix(l, p+name+" ("); ok {
				var secs float64
				if _, err := fmt.Sscanf(rest, "%gs)", &secs); err == nil {
					return secs
				}
			}
		}
	}
	return 0
}

func printText(w io.Writer, results []Result) {
	for _, r := range results {
		if r.Finding.Silent {
			fmt.Fprintf(w, "%s: %s\n", r.Finding.Posn, r.Finding.Message)
		} else {
			fmt.Fprintf(w, "%s: %s (%s)\n", r.Finding.Posn, r.Finding.Message, r.Finding.ID)
		}
		fmt.Fprintf(w, "\t%s", strings.ToUpper(string(r.Verdict)))
		if len(r.Tests) > 0 {
			fmt.Fprintf(w, " by %s", strings.Join(r.Tests, ", "))
		}
		fmt.Fprintln(w)
		for _, e := range r.Evidence {
			fmt.Fprintf(w, "\t- %s\n", e)
		}
		for _, s := range r.Runs {
			mode := ""
			if s.ForceSync {
				mode = " (HIPLINT_FORCE_SYNC=1)"
			}
			fmt.Fprintf(w, "\t  run %s%s: %s in %.2fs (test %.3fs), %d trace records\n", s.Test, mode, s.Outcome, s.Seconds, s.TestSecs, s.Records)
		}
	}
}

func printJSON(w io.Writer, results []Result) error {
	if results == nil {
		results = []Result{}
	}
	data, err := json.MarshalIndent(results, "", "\t")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", data)
	return err
}
