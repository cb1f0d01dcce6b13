package matrix

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
}

// TestGPUCasesAndVerdicts: the //matrix:gpu markers of the GPU module's tests,
// a baseline and confirm's JSON give each case its verdict; the list round-
// trips through verdicts.tsv and the matrix renders it in its GPU section.
func TestGPUCasesAndVerdicts(t *testing.T) {
	dir := t.TempDir()
	gpu := filepath.Join(dir, filepath.FromSlash(GPUDir))
	writeFile(t, filepath.Join(gpu, "mods", "mods_test.go"), `package mods

import "testing"

//matrix:gpu closure-deferred modules hazard
func TestUnloaded(t *testing.T) {}

//matrix:gpu closure-deferred modules twin
func TestLoaded(t *testing.T) {}

//matrix:gpu no-such-row modules hazard
func TestUnknown(t *testing.T) {}

//matrix:gpu closure-deferred modules
func TestNoRole(t *testing.T) {}

//matrix:gpu closure-go copysync twin

func TestDetached(t *testing.T) {}
`)
	writeFile(t, filepath.Join(gpu, "cs", "cs_test.go"), `package cs

import "testing"

//matrix:gpu conc-waitgroup copysync hazard
func TestStale(t *testing.T) {}

//matrix:gpu conc-waitgroup copysync twin
func TestSynced(t *testing.T) {}
`)
	cases, problems, err := ReadGPUCases(dir)
	require.NoError(t, err)
	var tests []string
	for _, c := range cases {
		tests = append(tests, c.Test+" "+c.Row+" "+c.Family+" "+c.Role)
	}
	assert.Equal(t, []string{
		"cs.TestStale conc-waitgroup copysync hazard",
		"cs.TestSynced conc-waitgroup copysync twin",
		"mods.TestLoaded closure-deferred modules twin",
		"mods.TestUnloaded closure-deferred modules hazard",
	}, tests)
	require.Len(t, problems, 3, "%v", problems)
	assert.Contains(t, problems[0], "no-such-row")
	assert.Contains(t, problems[1], "//matrix:gpu closure-deferred modules")
	assert.Contains(t, problems[2], "stands above no test func")

	baseline := BaselineOutcomes(strings.NewReader(`=== RUN   TestStale
    cs_test.go:7: read 0, want 1
--- FAIL: TestStale (0.20s)
=== RUN   TestSynced
--- PASS: TestSynced (0.20s)
FAIL
FAIL	example.com/gpu/cs	0.512s
=== RUN   TestUnloaded
--- FAIL: TestUnloaded (0.01s)
=== RUN   TestLoaded
=== RUN   TestLoaded/sub
--- PASS: TestLoaded (0.01s)
    --- PASS: TestLoaded/sub (0.00s)
ok  	example.com/gpu/mods	0.1s
`), "example.com/gpu")
	assert.Equal(t, map[string]string{"cs.TestStale": "fail", "cs.TestSynced": "pass", "mods.TestUnloaded": "fail", "mods.TestLoaded": "pass"}, baseline)

	confirm := []byte(`[
 {"finding":{"id":"HL1001","posn":"cs/cs.go:10:2"},"verdict":"confirmed","tests":["TestStale"]},
 {"finding":{"id":"HL1001","posn":"cs/cs.go:20:2","silent":true},"verdict":"refuted","tests":["TestSynced"]},
 {"finding":{"id":"HL4001","posn":"cs/cs.go:30:2","silent":true},"verdict":"missed","tests":["TestSynced"]},
 {"finding":{"id":"HL2001","posn":"mods/mods.go:5:2","silent":true},"verdict":"refuted","tests":["TestUnloaded","TestLoaded"]},
 {"finding":{"id":"HL2003","posn":"mods/mods.go:9:2","silent":true},"verdict":"missed","tests":["TestUnloaded"]},
 {"finding":{"id":"HL2003","posn":"mods/mods.go:12:2","silent":true},"verdict":"missed","tests":["TestUnloaded","TestLoaded"]},
 {"finding":{"id":"HL2002","posn":"mods/mods.go:14:2"},"verdict":"confirmed","tests":["TestLoaded"]},
 {"finding":{"id":"HL2003","posn":"other/o.go:9:2","silent":true},"verdict":"missed","tests":["TestLoaded"]}
]`)
	verdicts, err := JudgeGPUCases(cases, baseline, confirm)
	require.NoError(t, err)
	got := map[string]string{}
	for _, v := range verdicts {
		got[v.Test] = v.Verdict + " (" + v.Detail + ") " + v.Baseline
	}
	assert.Equal(t, map[string]string{
		"cs.TestStale":  "CONFIRMED (confirmed 1) fail",
		"cs.TestSynced": "REFUTED (refuted 1) pass", // the XNACK miss is another family's
		// A site both tests ran has one verdict for both: set aside.
		"mods.TestUnloaded": "MISSED (missed 1, shared: missed 1, shared: refuted 1) fail",
		"mods.TestLoaded":   "HAZARD ON TWIN (confirmed 1, shared: missed 1, shared: refuted 1) pass", // other/ is another package
	}, got)

	notRun, err := JudgeGPUCases(cases, nil, nil)
	require.NoError(t, err)
	assert.Equal(t, "NOT YET RUN", notRun[0].Verdict)
	assert.Equal(t, "not run", notRun[0].Baseline)
	_, err = JudgeGPUCases(cases, nil, []byte("{"))
	assert.Error(t, err)

	var buf bytes.Buffer
	require.NoError(t, WriteGPUVerdicts(&buf, "2026-12-07, NVIDIA H100 80GB HBM3, commit abc1234", verdicts))
	run, err := ReadGPUVerdicts(bytes.NewReader(buf.Bytes()))
	require.NoError(t, err)
	assert.Equal(t, "2026-12-07, NVIDIA H100 80GB HBM3, commit abc1234", run.Header)
	require.Len(t, run.Verdicts, len(verdicts))
	for i := range verdicts {
		v := verdicts[i]
		v.File, v.Line = "", 0 // not in the file
		assert.Equal(t, v, run.Verdicts[i])
	}
	_, err = ReadGPUVerdicts(strings.NewReader("ROW\n"))
	assert.Error(t, err, "no header line")
	_, err = ReadGPUVerdicts(strings.NewReader("# h\n" + gpuColumns + "\na\tb\n"))
	assert.Error(t, err, "a short line")

	// The matrix renders the committed copy; a case the copy lacks is not
	// yet run, a cell with no case says why.
	writeFile(t, filepath.Join(dir, filepath.FromSlash(GPUVerdictsFile)), strings.Join(strings.Split(buf.String(), "\n")[:4], "\n")+"\n")
	m, err := Read(dir)
	require.NoError(t, err)
	assert.Len(t, m.Problems, 3)
	doc := m.Doc()
	assert.Contains(t, doc, "\n## On the GPU\n")
	assert.Contains(t, doc, "Run: 2026-12-07, NVIDIA H100 80GB HBM3, commit abc1234")
	assert.Contains(t, doc, "| goroutines joined by `sync.WaitGroup` <br>`conc-waitgroup` | hazard `cs.TestStale`: CONFIRMED (baseline fail) · twin `cs.TestSynced`: REFUTED (baseline pass) | – | – | – |")
	assert.Contains(t, doc, "twin `mods.TestLoaded`: NOT YET RUN (baseline not run)")
	assert.Contains(t, doc, "cannot show on NVIDIA")
	assert.NotContains(t, doc, "### Calls", "a group without GPU cases has no table")
}
