package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hiplint/hiplint/internal/testenv"
	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

// confirmModule writes a module of one package, p, from files.
func confirmModule(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/m\n\ngo 1.21\n"), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "p"), 0o755))
	for name, src := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, "p", name), []byte(src), 0o644))
	}
	return dir
}

// confirmEnv is a machine without GPU headers or runtime, confirm's
// temporary directories under tmp.
func confirmEnv(t *testing.T, tmp string) []string {
	return append(testenv.NoGPUHeaders(t), "GOFLAGS=", "HIPLINT_PLATFORM=none", "TMPDIR="+tmp)
}

// leftInTmp lists what confirm left in tmp.
func leftInTmp(t *testing.T, tmp string) []string {
	entries, err := os.ReadDir(tmp)
	require.NoError(t, err)
	var left []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "hiplint-confirm-") {
			left = append(left, e.Name())
		}
	}
	return left
}

const confirmLeak = `
func Load(image unsafe.Pointer) error {
	var m C.hipModule_t
	if C.hipModuleLoadData(&m, image) != C.hipSuccess {
		return errors.New("load failed")
	}
	return nil
}
`

const confirmLeakTest = `package p

import "testing"

func TestLoad(t *testing.T) { _ = Load(nil) }
`

// TestConfirmTier3: a package analyzed at tier 3 (its cgo step fails: a
// header that does not exist) with a finding made confirm panic in go/ssa
// ("unsatisfied import: Program.CreatePackage("C") was not called"), exit
// 2 with a stack trace and its temporary directory left behind (issue 29,
// item 4). Now the finding is inconclusive, with the reason, and nothing
// is left.
func TestConfirmTier3(t *testing.T) {
	t.Parallel()
	dir := confirmModule(t, map[string]string{
		"sdk.go":    "package p\n\n// #include <no_such_sdk_header.h>\nimport \"C\"\n\ntype Handle struct{ h C.sdkHandle_t }\n",
		"leak.go":   "package p\n\nimport \"C\"\n\nimport (\n\t\"errors\"\n\t\"unsafe\"\n)\n" + confirmLeak,
		"p_test.go": confirmLeakTest,
	})
	tmp := t.TempDir()
	res := runCmdIn(t, dir, confirmEnv(t, tmp), hiplintBin, "confirm", "./...")
	assert.Equal(t, 4, res.code, "inconclusive: no verdict decides")
	assert.NotContains(t, res.stderr, "panic")
	assert.NotContains(t, res.stderr, "goroutine ")
	assert.Contains(t, res.stdout, "p/leak.go:12:5: module m loaded by hipModuleLoadData is not unloaded on this return")
	assert.Contains(t, res.stdout, "\tINCONCLUSIVE\n")
	assert.Contains(t, res.stdout, "the package's cgo step failed when confirm loaded it (p/sdk.go:3:11: fatal error: no_such_sdk_header.h: No such file or directory)")
	assert.Contains(t, res.stdout, "its tests cannot be built, so confirm cannot run them")
	assert.Contains(t, res.stderr, "hiplint confirm: 1 inconclusive\n")
	assert.Empty(t, leftInTmp(t, tmp))
}

// TestConfirmBuildFailure: with no GPU runtime the instrumented test does
// not build. Confirm exited 0 there, with every verdict inconclusive and,
// as evidence, the linker's 1,200-character command line cut before the
// error (issue 34, item 4). Now: exit status 4, the evidence is the build's
// first error in one line, and stderr says once that no test could be
// built; it no longer announces inconclusive verdicts before knowing.
func TestConfirmBuildFailure(t *testing.T) {
	t.Parallel()
	dir := confirmModule(t, map[string]string{
		"leak.go":   "package p\n\n// #cgo CFLAGS: -D__HIP_PLATFORM_AMD__\n// #cgo LDFLAGS: -lhiplint_no_such_library\n// #include <hip/hip_runtime_api.h>\nimport \"C\"\n\nimport (\n\t\"errors\"\n\t\"unsafe\"\n)\n" + confirmLeak,
		"p_test.go": confirmLeakTest,
	})
	tmp := t.TempDir()
	res := runCmdIn(t, dir, confirmEnv(t, tmp), hiplintBin, "confirm", "./...")
	assert.Equal(t, 4, res.code)
	assert.NotContains(t, res.stderr, "will be inconclusive")
	assert.Contains(t, res.stdout, "\tINCONCLUSIVE by TestLoad\n")
	var evidence string
	for _, l := range strings.Split(res.stdout, "\n") {
		if strings.Contains(l, "build failed: ") {
			evidence = l
			break
		}
	}
	require.NotEmpty(t, evidence, "the build failure is the evidence")
	assert.Less(t, len(evidence), 400, "one short line: %q", evidence)
	assert.NotContains(t, evidence, "-Wl,")
	assert.NotContains(t, evidence, "running gcc failed")
	// Without the headers the C compiler stops first; with them installed,
	// the linker.
	assert.Regexp(t, `build failed: (\./leak\.go:\d+:\d+: fatal error: hip/hip_runtime_api\.h: No such file or directory|.*cannot find -lhiplint_no_such_library.*)$`, evidence)
	assert.Contains(t, res.stderr, "hiplint confirm: no test could be built (build failed: ")
	assert.Contains(t, res.stderr, "no ROCm and no CUDA was found to build them against")
	assert.Empty(t, leftInTmp(t, tmp))
}

// stubHIP is enough of a HIP runtime, on the CPU, for an instrumented test
// to link and run: what the tracer calls, and a module load that succeeds.
const stubHIP = `#include <stdlib.h>
#include <hip/hip_runtime_api.h>
hipError_t hipModuleLoadData(hipModule_t* m, const void* image) { *m = (hipModule_t)0x10; return hipSuccess; }
hipError_t hipEventCreateWithFlags(hipEvent_t* e, unsigned f) { *e = (hipEvent_t)calloc(1, 64); return hipSuccess; }
hipError_t hipEventRecord(hipEvent_t e, hipStream_t s) { return hipSuccess; }
hipError_t hipEventQuery(hipEvent_t e) { return hipSuccess; }
hipError_t hipEventElapsedTime(float* ms, hipEvent_t a, hipEvent_t b) { *ms = 0; return hipSuccess; }
hipError_t hipEventDestroy(hipEvent_t e) { free(e); return hipSuccess; }
hipError_t hipGetDevice(int* d) { *d = 0; return hipSuccess; }
hipError_t hipLaunchHostFunc(hipStream_t s, hipHostFn_t fn, void* u) { return hipSuccess; }
hipError_t hipDeviceSynchronize(void) { return hipSuccess; }
hipError_t hipStreamSynchronize(hipStream_t s) { return hipSuccess; }
hipError_t hipDeviceGetAttribute(int* v, hipDeviceAttribute_t a, int d) { *v = 0; return hipSuccess; }
hipError_t hipGetDeviceProperties(hipDeviceProp_t* p, int d) { return hipErrorInvalidValue; }
`

// TestConfirmSIGKILL: confirm killed by SIGKILL while a real instrumented
// test binary (built by the real go test, linked against a CPU stub of the
// runtime) hangs: go test dies by its parent-death signal, the test binary
// by the watchdog that reads the pipe go test handed down to it; the next
// confirm removes the temporary directory (issue 29, item 4: SIGKILL left
// the test processes and the temporary directory).
//
// It takes a minute of wall time on a loaded machine (the instrumented test
// is built with cgo and must start before confirm is killed), so it runs
// under HIPLINT_LONGTESTS=1.
func TestConfirmSIGKILL(t *testing.T) {
	testenv.SkipUnlessLong(t, "runtimecheck's TestSIGKILLLeavesNothing kills confirm (Main, in a helper process) with SIGKILL and checks that go test, the test binary and its children die and that the next confirm removes the temporary directory, with a stand-in for the go command; TestConfirmTier3 and TestConfirmBuildFailure run confirm through this binary")
	t.Parallel()
	dir := confirmModule(t, map[string]string{
		"leak.go": "package p\n\n// #include <hip/hip_runtime_api.h>\nimport \"C\"\n\nimport (\n\t\"errors\"\n\t\"unsafe\"\n)\n" + confirmLeak,
		"stub.c":  stubHIP,
		"p_test.go": `package p

import (
	"os"
	"strconv"
	"testing"
	"time"
)

func TestLoad(t *testing.T) {
	_ = Load(nil)
	f := os.Getenv("HIPLINT_E2E_PIDFILE")
	os.WriteFile(f+".tmp", []byte(strconv.Itoa(os.Getpid())+"\n"), 0o644)
	os.Rename(f+".tmp", f)
	time.Sleep(5 * time.Minute)
}
`,
	})
	tmp := t.TempDir()
	pidFile := filepath.Join(t.TempDir(), "pid")
	env := append(os.Environ(), "GOFLAGS=", "HIPLINT_PLATFORM=none", "TMPDIR="+tmp, "HIPLINT_E2E_PIDFILE="+pidFile,
		"CGO_CFLAGS=-I"+filepath.Join(repoRoot, "testdata", "include"))
	cmd := exec.Command(hiplintBin, "confirm", "-timeout", "4m", "./...")
	cmd.Dir, cmd.Env = dir, env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	require.NoError(t, cmd.Start())
	var testPid int
	for i := 0; i < 30000 && testPid == 0; i++ { // a bound (five minutes), not a timing
		if data, err := os.ReadFile(pidFile); err == nil {
			testPid, _ = strconv.Atoi(strings.TrimSpace(string(data)))
		} else {
			time.Sleep(10 * time.Millisecond)
		}
	}
	if testPid == 0 {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		t.Fatalf("the test never ran:\n%s", out.String())
	}
	goPid := parentOf(t, testPid)
	require.NoError(t, cmd.Process.Kill())
	_ = cmd.Wait()
	t.Logf("confirm (killed):\n%s", out.String())
	assert.True(t, waitExit(testPid), "the test binary must die with confirm")
	assert.True(t, waitExit(goPid), "go test must die with confirm")
	require.Len(t, leftInTmp(t, tmp), 1, "SIGKILL leaves the temporary directory")

	res := runCmdIn(t, dir, env, hiplintBin, "confirm", "-run", "NoSuchTest", "./...")
	assert.Equal(t, 4, res.code)
	assert.Empty(t, leftInTmp(t, tmp), "the next confirm removes it")
}

// parentOf returns the parent of pid (/proc/pid/stat).
func parentOf(t *testing.T, pid int) int {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	require.NoError(t, err)
	f := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+1:]))
	ppid, err := strconv.Atoi(f[1])
	require.NoError(t, err)
	return ppid
}

// waitExit waits (a bound, not a timing) for pid to be gone: no such
// process, or a zombie (its reaper, init, reaps it).
func waitExit(pid int) bool {
	for i := 0; i < 1000; i++ {
		data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			return true
		}
		if f := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+1:])); len(f) > 0 && f[0] == "Z" {
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return false
}
