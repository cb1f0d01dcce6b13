package runtimecheck

import (
	"strings"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

// The copy-sync judge on recorded traces (testdata/traces) where being
// issued while the copy was in flight is not the answer: the ordering the
// trace shows and the ground truth of the timing events are.
func TestJudgeCopyOrdering(t *testing.T) {
	judgeTrace := func(name string, at ...int) (Verdict, string) {
		run := &Run{Test: "TestPipe", Trace: loadTrace(t, name)}
		v, ev := judge(evidenceFor(t, "HL1001", at, []int{11}, run))
		return v, strings.Join(ev, "\n")
	}

	// The false "missed": the read stream waits for an event recorded
	// after the copy on the copy's stream. In flight at the read, yet ordered,
	// and the ground truth agrees.
	v, ev := judgeTrace("copysync_eventwait.jsonl", 12)
	assert.Equal(t, Refuted, v, ev)
	assert.Contains(t, ev, "on non-blocking stream 0x5a00020, which waits (hipStreamWaitEvent at p/p.go:15:2) for an event recorded after the copy (hipEventRecord at p/p.go:14:2)")
	assert.Contains(t, ev, "ground truth: the read completed 14.5 µs after the copy")

	// Its hazard twin: no wait. The read event completed first.
	v, ev = judgeTrace("copysync_eventnowait.jsonl", 12)
	assert.Equal(t, Confirmed, v, ev)
	assert.Contains(t, ev, "on non-blocking stream 0x5a00020, with no wait for the copy on non-blocking stream 0x5a00010")
	assert.Contains(t, ev, "completed 20311.5 µs before one recorded after the copy on the copy's stream: the read ran before the copy landed")

	// A wait for an event recorded before the copy orders nothing.
	v, ev = judgeTrace("copysync_waitbeforecopy.jsonl", 12)
	assert.Equal(t, Confirmed, v, ev)
	assert.NotContains(t, ev, "which waits")

	// Device synchronization counts on the copy's device only: the host read
	// after synchronizing device 1 raced the copy on device 0; the copy
	// after synchronizing device 0 did not.
	v, ev = judgeTrace("copysync_devices.jsonl", 15)
	assert.Equal(t, Confirmed, v, ev)
	assert.Contains(t, ev, "on the host, which waited for nothing that follows the copy")
	v, ev = judgeTrace("copysync_devices.jsonl", 12)
	assert.Equal(t, Refuted, v, ev)
	assert.Contains(t, ev, "but after hipDeviceSynchronize at p/p.go:23:2 on device 0, which orders it after the copy")

	// The legacy null stream: a blocking stream waits for its earlier work;
	// an event never recorded orders nothing for the host.
	v, ev = judgeTrace("copysync_blocking.jsonl", 12)
	assert.Equal(t, Refuted, v, ev)
	assert.Contains(t, ev, "on blocking stream 0x5a00030, which waits for the null stream's earlier work (the copy)")
	v, _ = judgeTrace("copysync_blocking.jsonl", 15)
	assert.Equal(t, Confirmed, v)

	// The host: synchronizing another stream orders nothing; synchronizing
	// an event recorded after the copy on its stream does.
	v, ev = judgeTrace("copysync_hostsync.jsonl", 15)
	assert.Equal(t, Confirmed, v, ev)
	v, ev = judgeTrace("copysync_hostsync.jsonl", 12)
	assert.Equal(t, Refuted, v, ev)
	assert.Contains(t, ev, "but after hipEventSynchronize at p/p.go:21:2 of an event recorded after the copy (hipEventRecord at p/p.go:14:2)")

	// Ground truth wins over the trace's ordering when they disagree.
	run := &Run{Test: "TestPipe", Trace: loadTrace(t, "copysync_eventwait.jsonl")}
	for i := range run.Trace.Records {
		if r := &run.Trace.Records[i]; r.API == "hiplint:order" {
			neg := -3.0
			r.ElapsedUS = &neg
		}
	}
	v, evs := judge(evidenceFor(t, "HL1001", []int{12}, []int{11}, run))
	assert.Equal(t, Confirmed, v)
	assert.Contains(t, strings.Join(evs, "\n"), "(although the calls traced seemed to order it)")
}

// A finding on a Go call (a wrapper) is judged by the runtime calls made
// between its marker's enter and exit records, and only those.
func TestJudgeThroughCallMarker(t *testing.T) {
	tr := loadTrace(t, "graphfree_wrapper.jsonl")
	e := evidenceFor(t, "HL3001", []int{40}, nil, &Run{Test: "TestWrapperFree", Trace: tr})
	e.Sites[40] = Site{ID: 40, File: "/src/p/p.go", Line: 40, Col: 2, API: MarkerAPI, Marker: true}
	v, ev := judge(e)
	assert.Equal(t, Confirmed, v, ev)
	assert.Contains(t, strings.Join(ev, "\n"), "hipGraphAddMemFreeNode at p/p.go:22:2 (inside the call at p/p.go:1:2) was given 0x7f5000000000, managed memory from hipMallocManaged at p/p.go:20:2; the runtime returned 1 (hipError invalid value)")
	// The same call outside the window (the twin's, on the graph's own
	// allocation) is not this finding's.
	assert.NotContains(t, strings.Join(ev, "\n"), "0x7f6000000000")

	// The marker of the twin: its call freed a graph allocation.
	e = evidenceFor(t, "HL3001", []int{41}, nil, &Run{Test: "TestWrapperFree", Trace: tr})
	e.Sites[41] = Site{ID: 41, File: "/src/p/p.go", Line: 41, Col: 2, API: MarkerAPI, Marker: true}
	v, ev = judge(e)
	assert.Equal(t, Refuted, v, ev)
}

// h200Sites names the sites of the traces recorded on the H200 (the sites
// confirm gave the GPU examples in that run).
func h200Sites() map[int]Site {
	m := map[int]Site{}
	for id, pos := range map[int][2]int{
		96: {51, 2}, 97: {53, 2}, 100: {65, 2}, 101: {66, 2}, 102: {67, 2}, 103: {69, 2},
	} {
		m[id] = Site{ID: id, File: "/gpu/pipe/pipe.go", Line: pos[0], Col: pos[1]}
	}
	for id, pos := range map[int][2]int{50: {43, 43}, 51: {54, 42}, 55: {65, 9}, 56: {76, 9}} {
		m[id] = Site{ID: id, File: "/gpu/gfree/gfree.go", Line: pos[0], Col: pos[1], Marker: id >= 55}
	}
	return m
}

// TestJudgeH200Traces judges traces recorded on the H200 (issue 20's
// shapes): the table-driven TestPipe, each subtest run alone, and the free
// node beneath a wrapper call.
func TestJudgeH200Traces(t *testing.T) {
	noWait := &Run{Test: "TestPipe/no_wait", Exit: 1, Output: "    pipe_test.go:17: tail byte 0, want 7: the copy had not landed\n", Trace: loadTrace(t, "h200_pipe_nowait.jsonl"),
		ForceSync: &Run{Test: "TestPipe/no_wait", Trace: &Trace{}}}
	eventWait := &Run{Test: "TestPipe/event_wait", Trace: loadTrace(t, "h200_pipe_eventwait.jsonl"), ForceSync: &Run{Test: "TestPipe/event_wait", Trace: &Trace{}}}
	for _, r := range []*Run{noWait, eventWait} {
		require.Zero(t, r.Trace.Bad)
	}
	hazard := &Evidence{Finding: Finding{ID: "HL1002", Posn: "pipe/pipe.go:53:2"}, Sites: h200Sites(), At: []int{97}, Related: []int{96}, Runs: []*Run{noWait, eventWait}}
	v, ev := judge(hazard)
	joined := strings.Join(ev, "\n")
	assert.Equal(t, Confirmed, v, joined)
	assert.Contains(t, joined, "ground truth: an event recorded after the read on its stream completed 20529.4 µs before one recorded after the copy")
	assert.NotContains(t, joined, "event_wait", "the other subtest's run is not this site's evidence")

	twin := &Evidence{Finding: Finding{ID: "HL1002", Posn: "pipe/pipe.go:69:2", Silent: true}, Sites: h200Sites(), At: []int{103}, Related: []int{100}, Runs: []*Run{noWait, eventWait}}
	v, ev = judge(twin)
	joined = strings.Join(ev, "\n")
	assert.Equal(t, Refuted, v, joined)
	assert.Contains(t, joined, "which waits (hipStreamWaitEvent at pipe/pipe.go:67:2) for an event recorded after the copy (hipEventRecord at pipe/pipe.go:66:2); ground truth: the read completed 61.8 µs after the copy")
	assert.NotContains(t, joined, "fails as written", "no_wait's failure is not pinned on the ordered site")

	managed := &Run{Test: "TestFreeManaged", Trace: loadTrace(t, "h200_gfree_managed.jsonl")}
	allocated := &Run{Test: "TestFreeAllocated", Trace: loadTrace(t, "h200_gfree_allocated.jsonl")}
	finding := &Evidence{Finding: Finding{ID: "HL3001", Posn: "gfree/gfree.go:65:9"}, Sites: h200Sites(), At: []int{55}, Runs: []*Run{managed}}
	beneathIt := &Evidence{Finding: Finding{ID: "HL3001", Posn: "gfree/gfree.go:54:42", Silent: true}, Sites: h200Sites(), At: []int{51}, Runs: []*Run{allocated, managed}}
	twinCall := &Evidence{Finding: Finding{ID: "HL3001", Posn: "gfree/gfree.go:76:9", Silent: true}, Sites: h200Sites(), At: []int{56}, Runs: []*Run{allocated}}
	var results []Result
	for _, e := range []*Evidence{finding, beneathIt, twinCall} {
		v, evidence := judge(e)
		if e.Finding.Silent && v == Confirmed {
			v, evidence = Missed, append([]string{falseNegative}, evidence...)
		}
		results = append(results, Result{Finding: e.Finding, Verdict: v, Evidence: evidence})
	}
	assert.Equal(t, []Verdict{Confirmed, Missed, Refuted}, []Verdict{results[0].Verdict, results[1].Verdict, results[2].Verdict})
	assert.Contains(t, strings.Join(results[0].Evidence, "\n"), "managed memory from hipMallocManaged")
	reconcile(results, []int{0, 1, 2}, []*Evidence{finding, beneathIt, twinCall})
	assert.Equal(t, []Verdict{Confirmed, Confirmed, Refuted}, []Verdict{results[0].Verdict, results[1].Verdict, results[2].Verdict}, "one verdict for the finding and the call beneath it")
}
