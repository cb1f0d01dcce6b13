package runtimecheck

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

// fakeHIP is just enough of a HIP runtime, on the CPU, to drive the tracer's
// ground truth: events complete when the test says so, at the time it says.
const fakeHIP = `
#include <stdlib.h>
#include <hip/hip_runtime_api.h>
struct ihipEvent_t { int recorded, done; float t; };
struct ihipEvent_t* evs[64];
int nev, live;
hipError_t hipEventCreateWithFlags(hipEvent_t* e, unsigned f) { *e = calloc(1, sizeof **e); evs[nev++] = *e; live++; return hipSuccess; }
hipError_t hipEventRecord(hipEvent_t e, hipStream_t s) { e->recorded = 1; e->done = 0; return hipSuccess; }
hipError_t hipEventQuery(hipEvent_t e) { return e->done ? hipSuccess : hipErrorNotReady; }
hipError_t hipEventElapsedTime(float* ms, hipEvent_t a, hipEvent_t b) { *ms = b->t - a->t; return hipSuccess; }
hipError_t hipEventDestroy(hipEvent_t e) { live--; return hipSuccess; }
hipError_t hipGetDevice(int* d) { *d = 0; return hipSuccess; }
hipError_t hipLaunchHostFunc(hipStream_t s, hipHostFn_t fn, void* u) { return hipSuccess; }
hipError_t hipDeviceSynchronize(void) { return hipSuccess; }
hipError_t hipStreamSynchronize(hipStream_t s) { return hipSuccess; }
hipError_t hipMemcpyAsync(void* d, const void* s, size_t n, hipMemcpyKind k, hipStream_t st) { return hipSuccess; }
hipError_t hipMemcpyDtoHAsync(void* d, hipDeviceptr_t s, size_t n, hipStream_t st) { return hipSuccess; }
hipError_t hipDeviceGetAttribute(int* v, hipDeviceAttribute_t a, int d) { *v = 0; return hipSuccess; }
hipError_t hipGetDeviceProperties(hipDeviceProp_t* p, int d) { return hipErrorInvalidValue; }
`

// driveHIP: a copy on stream 1, a read on stream 2 while it is in flight,
// a second read after the copy completed; the read's event completes at
// 100 ms, the copy's at 300 ms, then a synchronization resolves the pair.
const driveHIP = `
#include <stdio.h>
#include "hiplint_trace.h"
extern struct ihipEvent_t { int recorded, done; float t; }* evs[64];
extern int nev, live;
int main(void) {
  char buf[16];
  hiplint_hipMemcpyAsync(11, (void*)0x1000, (void*)0x2000, 1 << 30, hipMemcpyDeviceToDevice, (hipStream_t)1);
  hiplint_hipMemcpyDtoHAsync(12, buf, (hipDeviceptr_t)0x1000, 1, (hipStream_t)2);
  hiplint_hipStreamSynchronize(13, (hipStream_t)2);  /* nothing complete yet: no order record */
  evs[0]->done = 1, evs[0]->t = 300; /* the copy */
  evs[1]->done = 1, evs[1]->t = 100; /* the read */
  hiplint_hipStreamSynchronize(13, (hipStream_t)2);
  hiplint_hipMemcpyDtoHAsync(12, buf, (hipDeviceptr_t)0x1000, 1, (hipStream_t)2); /* copy done: no pair */
  printf("events created %d, alive %d\n", nev, live);
  return live != 0;
}
`

// TestGroundTruthRecords runs the generated tracer against a fake runtime:
// the read issued while the copy was in flight gets a timing event, and once
// both completed one hiplint:order record says the read came first; every
// event the tracer made is destroyed.
func TestGroundTruthRecords(t *testing.T) {
	cc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("no C compiler")
	}
	dir := t.TempDir()
	apis := []string{"hipMemcpyAsync", "hipMemcpyDtoHAsync", "hipStreamSynchronize"}
	files := map[string]string{TraceHeader: generateHeader(apis), TraceSource: generateSource(apis), "fake.c": fakeHIP, "main.c": driveHIP}
	for name, text := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
	}
	bin := filepath.Join(dir, "drive")
	out, err := exec.Command(cc, "-std=gnu11", "-Wall", "-Wno-unused-function", "-I", dir, "-I", fixtureInclude(t), "-o", bin,
		filepath.Join(dir, TraceSource), filepath.Join(dir, "fake.c"), filepath.Join(dir, "main.c"), "-lpthread").CombinedOutput()
	require.NoError(t, err, "%s", out)
	trace := filepath.Join(dir, "trace.jsonl")
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), "HIPLINT_TRACE="+trace, "HIPLINT_DELAY_US=20000")
	out, err = cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Contains(t, string(out), "events created 2, alive 0")

	f, err := os.Open(trace)
	require.NoError(t, err)
	defer f.Close()
	tr, err := ParseTrace(f)
	require.NoError(t, err)
	require.Zero(t, tr.Bad)
	var orders []Record
	var copySeq, readSeq int
	for _, r := range tr.Records {
		switch {
		case r.API == "hiplint:order":
			orders = append(orders, r)
		case r.API == "hipMemcpyAsync":
			copySeq = r.Seq
		case r.API == "hipMemcpyDtoHAsync" && readSeq == 0:
			readSeq = r.Seq
			require.Len(t, r.Pending, 1)
			assert.Equal(t, 1, r.Pending[0].InFlight)
		}
	}
	require.Len(t, orders, 1, "one pair, resolved once")
	o := orders[0]
	assert.Equal(t, 11, o.Copy)
	assert.Equal(t, 12, o.Site)
	assert.Equal(t, copySeq, o.CopySeq)
	assert.Equal(t, readSeq, o.ReadSeq)
	require.NotNil(t, o.ElapsedUS)
	assert.InDelta(t, -200000.0, *o.ElapsedUS, 0.5)

	// And the judge reads it as the ground truth.
	ev := evidenceFor(t, "HL1002", []int{12}, []int{11}, &Run{Test: "TestFake", Trace: tr})
	v, evidence := judge(ev)
	assert.Equal(t, Confirmed, v, evidence)
}
