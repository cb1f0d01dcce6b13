package runtimecheck

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
	"golang.org/x/tools/go/ssa"
)

// splitGoFlags splits a CGO_*FLAGS value as the go command does
// (cmd/internal/quoted.Split: a word that starts with a quote runs to the
// matching quote, no escapes).
func splitGoFlags(s string) []string {
	var out []string
	for {
		s = strings.TrimLeft(s, " \t\n\r")
		if s == "" {
			return out
		}
		if q := s[0]; q == '"' || q == '\'' {
			end := strings.IndexByte(s[1:], q)
			if end < 0 {
				return append(out, "UNTERMINATED")
			}
			out = append(out, s[1:1+end])
			s = s[2+end:]
			continue
		}
		end := strings.IndexAny(s, " \t\n\r")
		if end < 0 {
			end = len(s)
		}
		out = append(out, s[:end])
		s = s[end:]
	}
}

func TestGoFlag(t *testing.T) {
	for path, want := range map[string]string{
		"/opt/rocm/include":  "-I/opt/rocm/include",
		"/opt/my rocm/inc":   `"-I/opt/my rocm/inc"`,
		"/opt/it's rocm":     `"-I/opt/it's rocm"`,
		`/opt/"quoted" rocm`: `'-I/opt/"quoted" rocm'`,
		"/opt/tab\there":     "\"-I/opt/tab\there\"",
		"/opt/line\nbreak":   "\"-I/opt/line\nbreak\"",
		`/opt/both'"quotes`:  "",
	} {
		got, err := goFlag("-I", path)
		if want == "" {
			assert.Error(t, err, path)
			continue
		}
		require.NoError(t, err, path)
		assert.Equal(t, want, got, path)
		assert.Equal(t, []string{"-I" + path}, splitGoFlags("-O2 " + got)[1:], "one word for the go command: %q", path)
	}
}

// TestPlatformPathsWithSpaces: ROCM_PATH, CUDA_INC, CUDA_LIB and the
// temporary directory holding a space reach the C compiler and linker as
// one argument each: a real cgo build finds the header and links the
// library under those paths (issue 29, item 4).
func TestPlatformPathsWithSpaces(t *testing.T) {
	cc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("no C compiler")
	}
	root := filepath.Join(t.TempDir(), "with space")
	stub := func(dir, header, lib, fn string) {
		require.NoError(t, os.MkdirAll(filepath.Join(dir, "include"), 0o755))
		require.NoError(t, os.MkdirAll(filepath.Join(dir, "lib"), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, "include", header), []byte("int "+fn+"(void);\n"), 0o644))
		src := filepath.Join(dir, fn+".c")
		require.NoError(t, os.WriteFile(src, []byte("int "+fn+"(void) { return 42; }\n"), 0o644))
		obj := filepath.Join(dir, fn+".o")
		out, err := exec.Command(cc, "-c", "-o", obj, src).CombinedOutput()
		require.NoError(t, err, "%s", out)
		out, err = exec.Command("ar", "rcs", filepath.Join(dir, "lib", "lib"+lib+".a"), obj).CombinedOutput()
		require.NoError(t, err, "%s", out)
	}
	rocm := filepath.Join(root, "my rocm")
	stub(rocm, "probe_rocm.h", "amdhip64", "probe_rocm")
	cuda := filepath.Join(root, "my cuda")
	stub(cuda, "probe_cuda.h", "cudart", "probe_cuda")
	stub(filepath.Join(root, "drv"), "unused.h", "cuda", "probe_driver")
	// -lcuda is found in CUDA_LIB too.
	require.NoError(t, os.Rename(filepath.Join(root, "drv", "lib", "libcuda.a"), filepath.Join(cuda, "lib", "libcuda.a")))

	build := func(name, header, fn string, platEnv []string) {
		t.Helper()
		mod := filepath.Join(root, "mod "+name)
		require.NoError(t, os.MkdirAll(mod, 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(mod, "go.mod"), []byte("module example.com/m\n\ngo 1.21\n"), 0o644))
		require.NoError(t, os.WriteFile(filepath.Join(mod, "main.go"), []byte(fmt.Sprintf(
			"package main\n\n// #include <%s>\nimport \"C\"\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(C.%s()) }\n", header, fn)), 0o644))
		cmd := exec.Command("go", "build", "-o", filepath.Join(mod, "m"), ".")
		cmd.Dir = mod
		cmd.Env = withEnv(os.Environ(), append([]string{"GOFLAGS=", "CGO_ENABLED=1"}, platEnv...)...)
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s: %v\n%s", name, platEnv, out)
		out, err = exec.Command(filepath.Join(mod, "m")).CombinedOutput()
		require.NoError(t, err, "%s", out)
		assert.Equal(t, "42\n", string(out))
	}

	plat, err := detectPlatform([]string{"ROCM_PATH=" + rocm, "CGO_CFLAGS=-O2 -g"}, filepath.Join(root, "tmp dir", "hipcuda"))
	require.NoError(t, err)
	require.Equal(t, "rocm", plat.Name)
	build("rocm", "probe_rocm.h", "probe_rocm", plat.Env)

	mapDir := filepath.Join(root, "tmp dir", "hipcuda")
	plat, err = detectPlatform([]string{"CUDA_INC=" + filepath.Join(cuda, "include"), "CUDA_LIB=" + filepath.Join(cuda, "lib"), "HIPLINT_PLATFORM=cuda"}, mapDir)
	require.NoError(t, err)
	require.Equal(t, "cuda", plat.Name)
	cflags := splitGoFlags(lookupEnv(plat.Env, "CGO_CFLAGS"))
	assert.Equal(t, []string{"-I" + mapDir, "-I" + filepath.Join(cuda, "include")}, cflags)
	build("cuda", "probe_cuda.h", "probe_cuda", plat.Env)

	_, err = detectPlatform([]string{"ROCM_PATH=/opt/it's \"odd\""}, mapDir)
	assert.ErrorContains(t, err, "ROCM_PATH")
}

// TestFirstBuildError: a failed build is reported as the compiler's or
// linker's first error, one line, never the echo of the link command
// (issue 34, item 4). The outputs are go test's, recorded here.
func TestFirstBuildError(t *testing.T) {
	link := "/usr/bin/gcc -m64 -s -Wl,--build-id=0xd7259f0edccc0e93bd1ec9e1e8e820d07f60a675 -o $WORK/b001/be1.test -Wl,--export-dynamic-symbol=_cgo_panic " +
		strings.Repeat("-Wl,--export-dynamic-symbol=crosscall2 /tmp/go-link-1880564837/000001.o ", 20) + "-lamdhip64 -no-pie"
	for _, c := range []struct{ out, want string }{
		{"# example.com/be1.test\n/usr/local/go/pkg/tool/linux_amd64/link: running gcc failed: exit status 1\n" + link +
			"\n/usr/bin/ld: cannot find -lamdhip64: No such file or directory\ncollect2: error: ld returned 1 exit status\n\nFAIL\texample.com/be1 [build failed]\nFAIL\n",
			"/usr/bin/ld: cannot find -lamdhip64: No such file or directory"},
		{"# example.com/be2\n# [example.com/be2]\n./a.go:3:11: fatal error: hip/hip_runtime_api.h: No such file or directory\n" +
			"    3 | // #include <hip/hip_runtime_api.h>\n      |           ^~~~~~~~~~~~~~~~~~~~~~~\ncompilation terminated.\nFAIL\texample.com/be2 [build failed]\nFAIL\n",
			"./a.go:3:11: fatal error: hip/hip_runtime_api.h: No such file or directory"},
		{"# example.com/be3 [example.com/be3.test]\n./a.go:7:2: undefined: frobnicate\nFAIL\texample.com/be3 [build failed]\n",
			"./a.go:7:2: undefined: frobnicate"},
		{"# example.com/be4.test\n/usr/local/go/pkg/tool/linux_amd64/link: running gcc failed: exit status 1\n" + link +
			"\n/usr/bin/ld: /tmp/go-link-1/000002.o: in function `_cgo_0b_Cfunc_hipInit':\n/tmp/go-build/cgo-gcc-prolog:58: undefined reference to `hipInit'\n" +
			"collect2: error: ld returned 1 exit status\n\nFAIL\texample.com/be4 [build failed]\n",
			"/tmp/go-build/cgo-gcc-prolog:58: undefined reference to `hipInit'"},
		{"FAIL\texample.com/be5 [setup failed]\n# example.com/be5\nno required module provides package example.com/nope; to add it:\n",
			"no required module provides package example.com/nope; to add it:"},
	} {
		got := firstBuildError(c.out)
		assert.Equal(t, c.want, got)
		assert.NotContains(t, got, "\n")
	}
	long := firstBuildError("# p\n./a.go:1:1: error: " + strings.Repeat("é", 400) + "\n")
	assert.LessOrEqual(t, len(long), buildLineMax+3)
	assert.True(t, strings.HasSuffix(long, "..."), long)
}

// TestExitStatuses: confirmed beats an error, an error beats undecided
// verdicts, and only when every verdict refutes (or there is none) is the
// status 0 (issue 34, item 4: no GPU used to exit 0).
func TestExitStatuses(t *testing.T) {
	rs := func(vs ...Verdict) []Result {
		var out []Result
		for _, v := range vs {
			out = append(out, Result{Verdict: v})
		}
		return out
	}
	for _, c := range []struct {
		results []Result
		failed  bool
		want    int
	}{
		{nil, false, exitRefuted},
		{rs(Refuted, Refuted), false, exitRefuted},
		{rs(Inconclusive, Inconclusive), false, exitUndecided},
		{rs(Refuted, NotExercised), false, exitUndecided},
		{rs(Refuted, Confirmed, Inconclusive), false, exitConfirmed},
		{rs(Missed), true, exitConfirmed},
		{rs(Inconclusive), true, exitError},
		{nil, true, exitError},
	} {
		assert.Equal(t, c.want, exitStatus(c.results, c.failed), "%v failed=%v", c.results, c.failed)
	}
	assert.Equal(t, []int{0, 1, 2, 3, 4}, []int{exitRefuted, exitError, exitUsage, exitConfirmed, exitUndecided}, "the documented numbers")
}

// TestOutputIsBounded: a test process that prints 128 MiB costs confirm
// its bounded capture, not the output: the allocations during the run stay
// far below the output's size, the kept text is head and tail with a note,
// the structure lines around the flood are kept, and the file on disk stops
// at fileLimit (issue 29, item 4: 1 GiB of output took confirm to 4.5 GB).
func TestOutputIsBounded(t *testing.T) {
	const size = 128 << 20
	file := filepath.Join(t.TempDir(), "out.txt")
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	res := runProcess(context.Background(), runSpec{
		Args: []string{"sh", "-c", fmt.Sprintf("echo '=== RUN   TestBig'; echo '=== RUN   TestBig/sub'; head -c %d /dev/zero | tr '\\0' x; echo; "+
			"echo '    big_test.go:9: the end'; echo '--- PASS: TestBig (0.52s)'", size)},
		Env: os.Environ(), Timeout: 5 * time.Minute, OutputFile: file,
	})
	runtime.ReadMemStats(&after)
	require.NoError(t, res.Err)
	require.Equal(t, 0, res.Exit)
	assert.Greater(t, res.Bytes, int64(size))
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(24<<20), "allocated while capturing %d bytes", res.Bytes)
	assert.LessOrEqual(t, res.Held, 2*tailBytes+lineLimit+1024)
	assert.Less(t, len(res.Output), 2*tailBytes+512)
	text := string(res.Output)
	assert.True(t, strings.HasPrefix(text, "=== RUN   TestBig\n"), "the head is kept")
	assert.True(t, strings.HasSuffix(text, "--- PASS: TestBig (0.52s)\n"), "the tail is kept")
	assert.Contains(t, text, "bytes of output left out here; the first 64 MiB are in "+file)
	assert.Equal(t, []string{"=== RUN   TestBig", "=== RUN   TestBig/sub", "--- PASS: TestBig (0.52s)"}, res.Events)
	info, err := os.Stat(file)
	require.NoError(t, err)
	assert.Equal(t, int64(fileLimit), info.Size())
	run := &Run{Test: "TestBig", Output: text, Events: res.Events}
	assert.Equal(t, []string{"sub"}, subtests(run.structure(), "TestBig"))
	assert.InDelta(t, 0.52, testSeconds(run.structure(), "TestBig"), 1e-9)
}

// TestCaptureSmallAndOverlapping: outputs that fit are kept whole, whatever
// the sizes of the writes.
func TestCaptureSmallAndOverlapping(t *testing.T) {
	for _, n := range []int{0, 10, tailBytes, tailBytes + 1, 2*tailBytes - 1, 2 * tailBytes, 2*tailBytes + 1, 5 * tailBytes} {
		for _, chunk := range []int{1, 7, 4096, 1 << 20} {
			c, err := newCapture("")
			require.NoError(t, err)
			data := make([]byte, n)
			for i := range data {
				data[i] = byte('a' + i%26)
				if i%100 == 99 {
					data[i] = '\n'
				}
			}
			for i := 0; i < n; i += chunk {
				_, _ = c.Write(data[i:min(i+chunk, n)])
			}
			require.NoError(t, c.close())
			got := c.text()
			if n <= 2*tailBytes {
				require.Equal(t, string(data), got, "n=%d chunk=%d", n, chunk)
			} else {
				require.True(t, strings.HasPrefix(got, string(data[:tailBytes])), "n=%d chunk=%d", n, chunk)
				require.True(t, strings.HasSuffix(got, string(data[n-tailBytes:])), "n=%d chunk=%d", n, chunk)
				require.Contains(t, got, fmt.Sprintf("[hiplint confirm: %d bytes of output left out here]", n-2*tailBytes))
			}
		}
	}
}

// TestPanicIsOneErrorLine: a panic while building SSA, in one of the
// goroutines that build the packages (where the tier-3 panic of issue 29,
// item 4 happened, out of reach of any recover), ends confirm with one
// error line and status 1, and the temporary directory is removed.
func TestPanicIsOneErrorLine(t *testing.T) {
	buildHook = func(p *ssa.Package) {
		if strings.HasSuffix(p.Pkg.Path(), "/modules") {
			panic("boom\nsecond line")
		}
	}
	defer func() { buildHook = nil }()
	tmp := t.TempDir()
	for _, kv := range fixtureEnv(t) {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	t.Setenv("HIPLINT_GO", "/bin/false")
	t.Setenv("TMPDIR", tmp)
	t.Chdir(gpuModule(t))
	var stdout, stderr bytes.Buffer
	code := Main([]string{"./modules"}, &stdout, &stderr)
	t.Logf("stderr:\n%s", stderr.String())
	assert.Equal(t, exitError, code)
	assert.Empty(t, stdout.String())
	var last string
	for _, l := range strings.Split(strings.TrimSpace(stderr.String()), "\n") {
		assert.NotContains(t, l, "goroutine ")
		last = l
	}
	assert.Regexp(t, `^hiplint confirm: internal error: building SSA: boom second line \(at .*TestPanicIsOneErrorLine.*\)$`, last)
	entries, err := os.ReadDir(tmp)
	require.NoError(t, err)
	assert.Empty(t, entries, "the temporary directory must be removed")
}

// TestTraceIsBounded: a trace longer than maxRecords keeps its first
// maxRecords records and counts the rest; the verdict on it is
// inconclusive, since the rest could change it (an unload after the cut).
func TestTraceIsBounded(t *testing.T) {
	old := maxRecords
	maxRecords = 3
	defer func() { maxRecords = old }()
	var b strings.Builder
	for i := 1; i <= 5; i++ {
		fmt.Fprintf(&b, `{"seq":%d,"site":1,"api":"hipModuleLoadData","ret":0,"module":"0x%x"}`+"\n", i, i)
	}
	tr, err := ParseTrace(strings.NewReader(b.String()))
	require.NoError(t, err)
	assert.Len(t, tr.Records, 3)
	assert.Equal(t, 2, tr.Dropped)
	e := evidenceFor(t, "HL2001", []int{1}, nil, &Run{Test: "TestLoads", Trace: tr})
	v, ev := judge(e)
	assert.Equal(t, Inconclusive, v, ev)
	assert.Contains(t, strings.Join(ev, "\n"), "TestLoads: the trace holds 5 records; confirm keeps the first 3")
}
