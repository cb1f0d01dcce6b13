package runtimecheck

import (
	"strings"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

func TestSubtestsRunAlone(t *testing.T) {
	out := "=== RUN   TestPipe\n=== RUN   TestPipe/no_wait\n    pipe_test.go:17: tail byte 0, want 7\n=== RUN   TestPipe/event_wait\n" +
		"=== RUN   TestPipe/event_wait/deeper\n=== NAME  TestPipe/no_wait\n=== RUN   TestPipeline/x\n=== RUN   TestPipe/a+b#01\n--- FAIL: TestPipe (0.50s)\n"
	assert.Equal(t, []string{"no_wait", "event_wait", "a+b#01"}, subtests(out, "TestPipe"))
	assert.Empty(t, subtests(out, "TestOther"))

	assert.Equal(t, "^TestPipe$", Planned{Name: "TestPipe"}.RunPattern())
	assert.Equal(t, "^TestPipe$/^no_wait$", Planned{Name: "TestPipe", Sub: "no_wait"}.RunPattern())
	assert.Equal(t, `^TestPipe$/^a\+b#01$`, Planned{Name: "TestPipe", Sub: "a+b#01"}.RunPattern())
	assert.Equal(t, "TestPipe/no_wait", Planned{Name: "TestPipe", Sub: "no_wait"}.Label())
}

// TestTraceCandidates: with -silent, every traced load, free node, stream-ordered
// free, launch and module lookup
// is a silent site unless something of its family is reported on its line.
func TestTraceCandidates(t *testing.T) {
	insts := map[string]*Instrumented{"/m/p": {Sites: map[int]Site{
		1: {ID: 1, File: "/m/p/p.go", Line: 10, Col: 2, API: "hipModuleLoadData"},
		2: {ID: 2, File: "/m/p/p.go", Line: 20, Col: 9, API: "hipModuleLaunchKernel"},
		3: {ID: 3, File: "/m/p/p.go", Line: 30, Col: 9, API: "hipGraphAddMemFreeNode"},
		4: {ID: 4, File: "/m/p/p.go", Line: 40, Col: 2, API: "hipMemcpy"},
		5: {ID: 5, File: "/m/p/p.go", Line: 50, Col: 2, API: MarkerAPI, Marker: true},
		6: {ID: 6, File: "/m/p/p.go", Line: 60, Col: 2, API: "hipFreeAsync"},
		7: {ID: 7, File: "/m/p/p.go", Line: 70, Col: 2, API: "hipFree"},
		8: {ID: 8, File: "/m/p/p.go", Line: 80, Col: 9, API: "hipModuleGetFunction"},
		9: {ID: 9, File: "/m/p/p.go", Line: 90, Col: 9, API: "hipModuleGetFunction"},
	}}}
	findings := []Finding{{ID: "HL3001", File: "/m/p/p.go", Line: 30}, {ID: "HL2003", File: "/m/p/p.go", Line: 90}}
	var got []string
	for _, f := range traceCandidates(findings, insts, nil, "/m") {
		assert.True(t, f.Silent)
		assert.Equal(t, "/m/p", f.Dir)
		got = append(got, f.Posn+" "+f.ID)
	}
	// A launch is also a use of its module (HL2003), and so is a lookup of
	// a function in it (not where HL2003 is reported on the line); a
	// stream-ordered free may be recorded by stream capture as a free node,
	// hipFree never is.
	assert.Equal(t, []string{"p/p.go:10:2 HL2001", "p/p.go:20:9 HL2003", "p/p.go:20:9 HL4001", "p/p.go:60:2 HL3001", "p/p.go:80:9 HL2003"}, got)
}

// TestReconcile: the silent runtime call inside a wrapper takes the verdict
// of the finding on the wrapper's call, when it ran inside that call.
func TestReconcile(t *testing.T) {
	tr := loadTrace(t, "graphfree_wrapper.jsonl")
	// Two processes: the hazard's test runs only the first wrapper call,
	// the twin's only the second.
	hazard, twin := &Trace{}, &Trace{}
	for _, r := range tr.Records {
		if r.Seq <= 6 {
			hazard.Records = append(hazard.Records, r)
		}
		if r.Seq < 3 || r.Seq >= 7 {
			twin.Records = append(twin.Records, r)
		}
	}
	runs := []*Run{{Test: "TestFreeManaged", Trace: hazard}, {Test: "TestFreeAllocated", Trace: twin}}
	sites := sites(20, 21, 22)
	sites[40] = Site{ID: 40, File: "/src/p/p.go", Line: 40, Col: 9, API: MarkerAPI, Marker: true}
	sites[41] = Site{ID: 41, File: "/src/p/p.go", Line: 41, Col: 9, API: MarkerAPI, Marker: true}
	silent := &Evidence{Finding: Finding{ID: "HL3001", Posn: "p/p.go:22:9", Silent: true}, Sites: sites, At: []int{22}, Runs: runs}
	finding := &Evidence{Finding: Finding{ID: "HL3001", Posn: "p/p.go:40:9"}, Sites: sites, At: []int{40}, Runs: runs[:1]}
	twinSite := &Evidence{Finding: Finding{ID: "HL3001", Posn: "p/p.go:41:9", Silent: true}, Sites: sites, At: []int{41}, Runs: runs[1:]}
	var results []Result
	for _, ev := range []*Evidence{silent, finding, twinSite} {
		v, evidence := judge(ev)
		if ev.Finding.Silent && v == Confirmed {
			v, evidence = Missed, append([]string{falseNegative}, evidence...)
		}
		results = append(results, Result{Finding: ev.Finding, Verdict: v, Evidence: evidence})
	}
	require.Equal(t, []Verdict{Missed, Confirmed, Refuted}, []Verdict{results[0].Verdict, results[1].Verdict, results[2].Verdict})
	reconcile(results, []int{0, 1, 2}, []*Evidence{silent, finding, twinSite})
	assert.Equal(t, Confirmed, results[0].Verdict, results[0].Evidence)
	assert.Contains(t, results[0].Evidence[0], "TestFreeManaged: every call here ran inside the call at p/p.go:40:9, where hiplint reported HL3001")
	assert.NotContains(t, strings.Join(results[0].Evidence, "\n"), falseNegative)
	assert.Equal(t, Refuted, results[2].Verdict, "the twin keeps its own verdict")
}

// TestJudgeXNACKLaunchSite: a launch found by tracing (a silent site) whose
// kernel completed is refuted; one whose synchronization reported an
// illegal address is a hazard.
func TestJudgeXNACKLaunchSite(t *testing.T) {
	tr := loadTrace(t, "xnack_cargs_h200.jsonl")
	e := evidenceFor(t, "HL4001", []int{30}, nil, &Run{Test: "TestFillDevice", Trace: tr})
	e.Finding.Silent = true
	v, ev := judge(e)
	assert.Equal(t, Refuted, v, ev)
	assert.Contains(t, strings.Join(ev, "\n"), "the kernels launched here completed without a fault")

	e = evidenceFor(t, "HL4001", []int{31}, nil, &Run{Test: "TestFillHost", Trace: tr})
	e.Finding.Silent = true
	v, ev = judge(e)
	assert.Equal(t, Confirmed, v, ev)
	assert.Contains(t, strings.Join(ev, "\n"), "hipDeviceSynchronize at p/p.go:32:2 returned 700 (hipError illegal address)")
}
