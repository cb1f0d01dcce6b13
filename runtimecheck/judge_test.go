package runtimecheck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hiplint/hiplint/internal/hipapi"
	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

func loadTrace(t *testing.T, name string) *Trace {
	f, err := os.Open(filepath.Join("testdata/traces", name))
	require.NoError(t, err)
	defer f.Close()
	tr, err := ParseTrace(f)
	require.NoError(t, err)
	return tr
}

func sites(ids ...int) map[int]Site {
	m := map[int]Site{}
	for _, id := range ids {
		m[id] = Site{ID: id, File: "/src/p/p.go", Line: id, Col: 2}
	}
	return m
}

func evidenceFor(t *testing.T, id string, at, related []int, runs ...*Run) *Evidence {
	return &Evidence{Finding: Finding{ID: id, Posn: "p/p.go:1:2"}, Sites: sites(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 20, 21, 22, 23, 30, 31, 32),
		At: at, Related: related, Runs: runs}
}

func TestParseTraceToleratesATruncatedLine(t *testing.T) {
	tr := loadTrace(t, "crash_in_unload.jsonl")
	assert.Equal(t, 1, tr.Bad)
	require.NotNil(t, tr.Init())
	assert.Equal(t, "hip-on-cuda", tr.Init().Platform)
	u := tr.Unfinished()
	require.NotNil(t, u)
	assert.Equal(t, 8, u.Site)
	assert.Equal(t, Word(0x226e23f0), tr.Records[1].Out)
}

func TestJudgeModuleLeak(t *testing.T) {
	run := &Run{Test: "TestLoadAll", Trace: loadTrace(t, "TestLoadAll.jsonl")}
	v, ev := judge(evidenceFor(t, "HL2001", []int{1}, nil, run))
	assert.Equal(t, Confirmed, v)
	joined := strings.Join(ev, "\n")
	assert.Contains(t, joined, "3 loads at p/p.go:1:2 succeeded, 1 were unloaded, 2 never were (handles 0x36b94930, 0x36b95570)")
	assert.Contains(t, joined, "RSS 109.3 MiB → 109.3 MiB (+11.0 KiB per load)")

	balanced := &Run{Test: "TestLoadEach", Trace: loadTrace(t, "TestLoadEach.jsonl")}
	v, ev = judge(evidenceFor(t, "HL2001", []int{3}, nil, balanced))
	assert.Equal(t, Refuted, v, ev)

	v, ev = judge(evidenceFor(t, "HL2001", []int{9}, nil, balanced))
	assert.Equal(t, NotExercised, v, ev)
}

func TestJudgeDoubleUnload(t *testing.T) {
	run := &Run{Test: "TestLoadTwice", Trace: loadTrace(t, "TestLoadTwice.jsonl")}
	v, ev := judge(evidenceFor(t, "HL2002", []int{8}, []int{7}, run))
	assert.Equal(t, Confirmed, v)
	assert.Contains(t, strings.Join(ev, "\n"), "already unloaded at p/p.go:7:2; the runtime returned 400 (hipError invalid handle)")

	// The first unload found its module loaded.
	v, _ = judge(evidenceFor(t, "HL2002", []int{7}, nil, run))
	assert.Equal(t, Refuted, v)

	// A process that died inside the flagged unload is evidence.
	crash := &Run{Test: "TestLoadTwice", Exit: -1, Signal: "SIGSEGV", Trace: loadTrace(t, "crash_in_unload.jsonl")}
	v, ev = judge(evidenceFor(t, "HL2002", []int{8}, nil, crash))
	assert.Equal(t, Confirmed, v)
	assert.Contains(t, strings.Join(ev, "\n"), "killed by SIGSEGV inside hipModuleUnload at p/p.go:8:2")
}

func TestJudgeCopySync(t *testing.T) {
	stale := &Run{Test: "TestStaleStream", Exit: 1, Output: "    copysync_test.go:7: read 0, want 1\n", Trace: loadTrace(t, "copysync_nonblocking.jsonl"),
		ForceSync: &Run{Test: "TestStaleStream", Trace: &Trace{}}}
	v, ev := judge(evidenceFor(t, "HL1001", []int{12}, []int{11}, stale))
	assert.Equal(t, Confirmed, v)
	joined := strings.Join(ev, "\n")
	assert.Contains(t, joined, "was issued 28.6 µs after the copy returned, while the copy hipMemcpy at p/p.go:11:2 (1073741824 bytes, returned in 25.6 µs) was still in flight (event query: not ready), on non-blocking stream 0x493d970, with no wait for the copy on the null stream")
	assert.Contains(t, joined, "fails as written and passes with HIPLINT_FORCE_SYNC=1")
	assert.Contains(t, joined, "copysync_test.go:7: read 0, want 1")

	ordered := &Run{Test: "TestNull", Trace: loadTrace(t, "copysync_nullstream.jsonl")}
	v, ev = judge(evidenceFor(t, "HL1001", []int{12}, []int{11}, ordered))
	assert.Equal(t, Refuted, v)
	assert.Contains(t, strings.Join(ev, "\n"), "1 were issued while the copy was in flight, all on a stream the copy orders")

	synced := &Run{Test: "TestSynced", Trace: loadTrace(t, "copysync_synced.jsonl")}
	v, _ = judge(evidenceFor(t, "HL1001", []int{12}, []int{11}, synced))
	assert.Equal(t, Refuted, v)

	host := &Run{Test: "TestHost", Trace: loadTrace(t, "copysync_hostprobe.jsonl")}
	v, ev = judge(evidenceFor(t, "HL1001", []int{15}, []int{11}, host))
	assert.Equal(t, Confirmed, v)
	assert.Contains(t, strings.Join(ev, "\n"), "the host read at p/p.go:15:2 was issued 1.5 µs after the copy returned, while the copy hipMemcpy at p/p.go:11:2 (1073741824 bytes, returned in 12.0 µs) was still in flight (event query: not ready), on the host, which waited for nothing")
}

func TestJudgeGraphFree(t *testing.T) {
	plain := &Run{Test: "TestPlainFree", Trace: loadTrace(t, "graphfree_plain.jsonl")}
	v, ev := judge(evidenceFor(t, "HL3001", []int{22}, nil, plain))
	assert.Equal(t, Confirmed, v)
	assert.Contains(t, strings.Join(ev, "\n"), "was given 0x7f917fe00000, device memory from hipMalloc at p/p.go:20:2; the runtime returned 1 (hipError invalid value)")

	graph := &Run{Test: "TestGraphFree", Trace: loadTrace(t, "graphfree_allocnode.jsonl")}
	v, _ = judge(evidenceFor(t, "HL3001", []int{22}, nil, graph))
	assert.Equal(t, Refuted, v)
}

func TestJudgeXNACK(t *testing.T) {
	amd := &Run{Test: "TestKernel", Trace: loadTrace(t, "xnack_amd_fault.jsonl")}
	v, ev := judge(evidenceFor(t, "HL4001", []int{31}, nil, amd))
	assert.Equal(t, Confirmed, v)
	joined := strings.Join(ev, "\n")
	assert.Contains(t, joined, `HSA_XNACK=0 at start, gcnArchName "gfx90a:sramecc+:xnack-"`)
	assert.Contains(t, joined, "hipDeviceSynchronize at p/p.go:32:2 returned 700 (hipError illegal address)")

	nvidia := &Run{Test: "TestLoadAll", Trace: loadTrace(t, "TestLoadAll.jsonl")}
	v, ev = judge(evidenceFor(t, "HL4004", nil, nil, nvidia))
	assert.Equal(t, Inconclusive, v)
	assert.Contains(t, strings.Join(ev, "\n"), "XNACK does not exist there; its analogue cudaDevAttrPageableMemoryAccess")

	// A silent site (confirm -silent) whose test skipped itself on a device
	// that cannot page system memory: the guard held.
	// The trace is the H200's: hipDeviceGetAttribute's record, whose "attr"
	// is a number, once failed to parse and left the run looking unexercised.
	skipTrace := loadTrace(t, "xnack_skip_h200.jsonl")
	require.Zero(t, skipTrace.Bad, "every line parses")
	require.Len(t, skipTrace.Records, 3)
	assert.Equal(t, Text("53"), skipTrace.Records[1].Attr)
	assert.Equal(t, Text("hipDeviceAttributePageableMemoryAccess"), skipTrace.Device().Attr)
	skipped := &Run{Test: "TestSystemSkip", Trace: skipTrace, Output: "=== RUN   TestSystemSkip\n    x_test.go:15: no pageable memory\n--- SKIP: TestSystemSkip (0.20s)\nPASS\n"}
	e := evidenceFor(t, "HL4004", nil, nil, skipped)
	e.Finding.Silent = true
	v, ev = judge(e)
	assert.Equal(t, Refuted, v, ev)
	assert.Contains(t, strings.Join(ev, "\n"), "its guard kept the kernel away")
	// The same run for a real finding proves nothing either way.
	v, _ = judge(evidenceFor(t, "HL4004", nil, nil, skipped))
	assert.Equal(t, Inconclusive, v)
}

func TestJudgeWithoutRuns(t *testing.T) {
	v, _ := judge(evidenceFor(t, "HL2001", []int{1}, nil))
	assert.Equal(t, NotExercised, v)
	v, ev := judge(evidenceFor(t, "HL2001", []int{1}, nil, &Run{Test: "TestX", Err: os.ErrNotExist, Trace: &Trace{}}))
	assert.Equal(t, Inconclusive, v)
	assert.Contains(t, ev[0], "could not run")
}

// TestJudgeAttributesLaunchAfterUnload: a kernel launched from a module a
// cache had evicted fails on the GPU. That failure is HL2003's evidence (use
// after unload), and says nothing about XNACK: a silent XNACK site at the
// same launch was judged missed from it (issue 32).
func TestJudgeAttributesLaunchAfterUnload(t *testing.T) {
	run := func() *Run {
		return &Run{Test: "TestEvicted", Trace: loadTrace(t, "launch_after_unload.jsonl")}
	}
	silent := evidenceFor(t, "HL4001", []int{31}, nil, run())
	silent.Finding.Silent = true
	v, ev := judge(silent)
	assert.NotEqual(t, Missed, v, ev)
	assert.NotEqual(t, Confirmed, v, ev)
	assert.Contains(t, strings.Join(ev, "\n"), "a use after unload (HL2003), not an XNACK fault")

	v, ev = judge(evidenceFor(t, "HL2003", []int{31}, nil, run()))
	assert.Equal(t, Confirmed, v, ev)
	assert.Contains(t, strings.Join(ev, "\n"), "already unloaded at p/p.go:3:")
}

// TestJudgeCapturedFree: hipFreeAsync between hipStreamBeginCapture and
// hipStreamEndCapture on that stream records a graph free node (issue 32),
// judged by the graph's own allocations: memory hipMalloc returned before the
// capture is HL3001's hazard (the runtime rejects it and invalidates the
// capture), memory hipMallocAsync allocated in the same capture is not, and a
// stream-ordered free outside any capture is no free node at all. The traces
// are written by hand in the tracer's format (capture.FreeCaptured and
// capture.FreeGraphAlloc of the GPU module).
func TestJudgeCapturedFree(t *testing.T) {
	hazard := &Run{Test: "TestFreeCaptured", Trace: loadTrace(t, "capture_free.jsonl")}
	v, ev := judge(evidenceFor(t, "HL3001", []int{4}, nil, hazard))
	assert.Equal(t, Confirmed, v, ev)
	joined := strings.Join(ev, "\n")
	assert.Contains(t, joined, "hipFreeAsync (under stream capture: a graph free node) at p/p.go:1:2 was given 0x7f917fe00000, device memory from hipMalloc at p/p.go:2:2")

	twin := &Run{Test: "TestFreeGraphAlloc", Trace: loadTrace(t, "capture_graphalloc.jsonl")}
	v, ev = judge(evidenceFor(t, "HL3001", []int{4}, nil, twin))
	assert.Equal(t, Refuted, v, ev)
	assert.Contains(t, strings.Join(ev, "\n"), "stream-ordered memory from hipMallocAsync at p/p.go:6:2 (under stream capture)")

	// The same free with the capture's records removed: an ordinary free.
	plain := &Trace{}
	for _, r := range loadTrace(t, "capture_free.jsonl").Records {
		if r.API != "hipStreamBeginCapture" && r.API != "hipStreamEndCapture" {
			plain.Records = append(plain.Records, r)
		}
	}
	v, ev = judge(evidenceFor(t, "HL3001", []int{4}, nil, &Run{Test: "TestFreeLater", Trace: plain}))
	assert.Equal(t, NotExercised, v, ev)
	assert.Contains(t, strings.Join(ev, "\n"), "outside any stream capture: an ordinary free, no graph free node")

	// A capture of another stream does not make this stream's free a node.
	other := &Trace{}
	for _, r := range loadTrace(t, "capture_free.jsonl").Records {
		if roleOf(&r) == hipapi.CaptureBegin || roleOf(&r) == hipapi.CaptureEnd {
			r.Stream = 0x77
		}
		other.Records = append(other.Records, r)
	}
	v, ev = judge(evidenceFor(t, "HL3001", []int{4}, nil, &Run{Test: "TestOtherStream", Trace: other}))
	assert.Equal(t, NotExercised, v, ev)
}

// TestJudgeUseOfForeignFunction: HL2003 at a launch whose function no traced
// module load lent (hipLaunchKernel's host stub) has no module to have been
// unloaded: not exercised, never "found its module loaded".
func TestJudgeUseOfForeignFunction(t *testing.T) {
	tr := &Trace{Records: []Record{
		{Seq: 1, Site: 31, API: "hipLaunchKernel", Ret: new(Word), Function: 0x401000},
	}}
	v, ev := judge(evidenceFor(t, "HL2003", []int{31}, nil, &Run{Test: "TestStub", Trace: tr}))
	assert.Equal(t, NotExercised, v, ev)
	assert.Contains(t, strings.Join(ev, "\n"), "no traced module load lent")
}

// TestJudgeLookupAfterRangeUnload: the trace of modforms.TestRangeAfter on an
// H100 (2026-12-07): two modules loaded, a loop over the set unloads both,
// then hipModuleGetFunction looks up in the first and the runtime returns
// 400. The lookup is a silent HL2003 site (traceRoles); its evidence names
// the unload, so under -silent, with nothing reported there, it is a miss of
// the static side, not a site nobody exercised.
func TestJudgeLookupAfterRangeUnload(t *testing.T) {
	run := &Run{Test: "TestRangeAfter", Trace: loadTrace(t, "h100_lookup_after_range_unload.jsonl")}
	ev := &Evidence{Finding: Finding{ID: "HL2003", Posn: "p/p.go:146:2", Silent: true}, Sites: sites(143, 144, 145, 146, 156), At: []int{146}, Runs: []*Run{run}}
	v, evidence := judge(ev)
	assert.Equal(t, Confirmed, v, evidence)
	joined := strings.Join(evidence, "\n")
	assert.Contains(t, joined, "hipModuleGetFunction at p/p.go:146:2 of module 0x245b7c10, already unloaded at p/p.go:145:2")
	assert.Contains(t, joined, "the runtime returned 400")
}
