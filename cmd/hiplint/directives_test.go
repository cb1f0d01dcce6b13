package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/hiplint/hiplint/internal/diag"
	"github.com/hiplint/hiplint/internal/directive"
	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
	"golang.org/x/tools/go/analysis"
)

// The suppression tests run the driver in process on the fixture module
// (testdata/fix/leak.go, whose module load is on line 28) with the test
// analyzers of driver_test.go, and the real binary for the real analyzers
// and go vet. Every directive is added to leak.go by the test, so the lines
// below are those of the edited file.

// testChecks are the checks of the test analyzers.
var testChecks = append([]diag.Check{
	{ID: "TEST1", Analyzer: "loadmarker", Title: "module load", Severity: diag.Warning},
	{ID: "TEST2", Analyzer: "rewriter", Title: "rename", Severity: diag.Error},
	{ID: "PANIC1", Analyzer: "panicker", Title: "never reported", Severity: diag.Error},
}, directive.Checks...)

// runWithChecks is runDriver with the checks of the test analyzers known.
func runWithChecks(t *testing.T, dir string, analyzers []*analysis.Analyzer, args ...string) result {
	t.Helper()
	var stdout, stderr bytes.Buffer
	p := &program{analyzers: analyzers, checks: testChecks, stdout: &stdout, stderr: &stderr, dir: dir}
	code := p.main(args)
	res := result{stdout: stdout.String(), stderr: stderr.String(), code: code}
	t.Logf("hiplint %v: exit %d\nstdout:\n%s\nstderr:\n%s", args, code, res.stdout, res.stderr)
	return res
}

const loadLine = "\tif err := check(C.hipModuleLoadData(&m, image)); err != nil {\n"

// editLeak returns a fixture module of the test's own (fixtureSlot) with
// leak.go edited by replacing old with new (each must occur once);
// sharedFixture is the same for a test that does not change it.
func editLeak(t *testing.T, pairs ...string) string {
	t.Helper()
	dir := fixtureSlot(t)
	require.NoError(t, writeFixture(dir, pairs...))
	return dir
}

func TestSuppressedOnTheLineAbove(t *testing.T) {
	t.Parallel()
	dir := sharedFixture(t, loadLine, "\t//hiplint:ignore TEST1 the caller unloads it\n"+loadLine)
	res := runWithChecks(t, dir, []*analysis.Analyzer{loadMarker}, "./...")
	assert.Equal(t, exitClean, res.code)
	assert.Empty(t, res.stdout)
	assert.Equal(t, headersNote(t, hipHeader), res.stderr)
}

func TestSuppressedOnTheSameLine(t *testing.T) {
	t.Parallel()
	dir := sharedFixture(t, loadLine, strings.TrimSuffix(loadLine, "\n")+" //hiplint:ignore TEST1,TEST2 the caller unloads it\n")
	res := runWithChecks(t, dir, []*analysis.Analyzer{loadMarker, rewriter}, "./...")
	assert.Equal(t, exitClean, res.code)
	assert.Empty(t, res.stdout)
}

func TestFileIgnore(t *testing.T) {
	t.Parallel()
	dir := sharedFixture(t, "package leak\n", "package leak\n\n//hiplint:file-ignore TEST1 generated bindings\n")
	res := runWithChecks(t, dir, []*analysis.Analyzer{loadMarker}, "./...")
	assert.Equal(t, exitClean, res.code)
	assert.Empty(t, res.stdout)
}

func TestDirectiveForAnotherCheckSuppressesNothing(t *testing.T) {
	t.Parallel()
	// TEST2's analyzer does not run, so the directive is not reported as
	// unused either.
	dir := sharedFixture(t, loadLine, "\t//hiplint:ignore TEST2 another check\n"+loadLine)
	res := runWithChecks(t, dir, []*analysis.Analyzer{loadMarker}, "./...")
	assert.Equal(t, exitFindings, res.code)
	assert.Regexp(t, `^leak.go:29:\d+: module load \(TEST1\)\n\tleak.go:31:2: statement ends here\n$`, res.stdout)
}

func TestDirectiveWithoutReason(t *testing.T) {
	t.Parallel()
	dir := sharedFixture(t, loadLine, "\t//hiplint:ignore TEST1\n"+loadLine)
	res := runWithChecks(t, dir, []*analysis.Analyzer{loadMarker}, "./...")
	assert.Equal(t, exitFindings, res.code)
	assert.Contains(t, res.stdout, "leak.go:28:2: //hiplint:ignore TEST1 gives no reason: say why the finding is wrong or acceptable after the check ID (HL0002)\n")
	assert.Regexp(t, `(?m)^leak.go:29:\d+: module load \(TEST1\)$`, res.stdout, "a directive without a reason suppresses nothing")
}

func TestUnusedDirective(t *testing.T) {
	t.Parallel()
	dir := sharedFixture(t,
		"\tvar f C.hipFunction_t\n", "\t//hiplint:ignore TEST1 stale: the load moved\n\tvar f C.hipFunction_t\n",
		"package leak\n", "package leak\n\n//hiplint:file-ignore TEST2 nothing to rename\n")
	res := runWithChecks(t, dir, []*analysis.Analyzer{loadMarker, rewriter}, "-rewriter=false", "./...")
	assert.Equal(t, exitFindings, res.code)
	assert.Equal(t, strings.Join([]string{
		"leak.go:30:\\d+: module load \\(TEST1\\)",
		"\tleak.go:32:2: statement ends here",
		"leak.go:33:2: //hiplint:ignore TEST1 suppresses nothing: there is no TEST1 finding on this line or the next; remove the directive \\(HL0001\\)",
	}, "\n")+"\n", regexpLines(res.stdout), "the file-ignore of TEST2 is not reported: its analyzer did not run")

	// With the rewriter on, the file-ignore suppresses its finding.
	res = runWithChecks(t, dir, []*analysis.Analyzer{loadMarker, rewriter}, "./...")
	assert.NotContains(t, res.stdout, "TEST2")
	assert.NotContains(t, res.stdout, "leak.go:7:")
}

// regexpLines replaces the columns that vary with cgo's version by \d+,
// so that whole outputs compare with Equal.
func regexpLines(out string) string {
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		if strings.Contains(l, "module load") {
			if j := strings.Index(l, ": module load"); j > 0 {
				k := strings.LastIndex(l[:j], ":")
				l = l[:k+1] + `\d+` + l[j:]
			}
		}
		lines[i] = strings.NewReplacer("(", `\(`, ")", `\)`).Replace(l)
		lines[i] = strings.ReplaceAll(lines[i], `\\d+`, `\d+`)
	}
	return strings.Join(lines, "\n")
}

func TestPartlyUsedDirective(t *testing.T) {
	t.Parallel()
	dir := sharedFixture(t, loadLine, "\t//hiplint:ignore TEST1,TEST2 the caller unloads it\n"+loadLine)
	res := runWithChecks(t, dir, []*analysis.Analyzer{loadMarker}, "./...")
	assert.Equal(t, exitClean, res.code, "TEST2's analyzer did not run")
	assert.Empty(t, res.stdout)

	dir = sharedFixture(t, "\tvar f C.hipFunction_t\n", "\tvar f C.hipFunction_t //hiplint:ignore TEST1,TEST2 stale\n")
	res = runWithChecks(t, dir, []*analysis.Analyzer{loadMarker}, "./...")
	// Only TEST1 is known to be unused: TEST2's analyzer did not run. (The
	// column of a comment in cgo's output is not the user's; its line is.)
	assert.Regexp(t, `(?m)^leak.go:31:\d+: //hiplint:ignore TEST1,TEST2 suppresses no TEST1 finding on this line or the next; remove TEST1 from it \(HL0001\)$`, res.stdout)

	res = runWithChecks(t, dir, []*analysis.Analyzer{loadMarker, rewriter}, "./...")
	assert.Regexp(t, `(?m)^leak.go:31:\d+: //hiplint:ignore TEST1,TEST2 suppresses nothing: there is no TEST1 or TEST2 finding on this line or the next; remove the directive \(HL0001\)$`, res.stdout)
}

func TestUnknownCheckID(t *testing.T) {
	t.Parallel()
	dir := sharedFixture(t, loadLine, "\t//hiplint:ignore TEST1,NOPE1 typo in the second\n"+loadLine,
		"package leak\n", "package leak\n\n//hiplint:file-ignore HL0001 directive checks cannot be suppressed\n//hiplint:disable TEST1 not a directive hiplint knows\n")
	res := runWithChecks(t, dir, []*analysis.Analyzer{loadMarker}, "./...")
	assert.Equal(t, exitFindings, res.code)
	assert.Contains(t, res.stdout, "leak.go:7:1: //hiplint:file-ignore HL0001: HL0001 cannot be suppressed; fix the directive it reports instead (HL0003)\n")
	assert.Contains(t, res.stdout, "leak.go:8:1: unknown directive //hiplint:disable; hiplint knows //hiplint:ignore and //hiplint:file-ignore (HL0003)\n")
	assert.Contains(t, res.stdout, "leak.go:31:2: //hiplint:ignore TEST1,NOPE1: unknown check ID NOPE1; `hiplint checks` lists them (HL0003)\n")
	assert.NotContains(t, res.stdout, "(TEST1)", "the known ID still suppresses")
}

// A directive for an analyzer that failed on the package is not reported:
// nobody knows whether it would have suppressed something.
func TestNoUnusedReportWhenTheAnalyzerFailed(t *testing.T) {
	t.Parallel()
	dir := sharedFixture(t, loadLine, "\t//hiplint:ignore PANIC1 it would have reported here\n"+loadLine)
	res := runWithChecks(t, dir, []*analysis.Analyzer{panicker, loadMarker}, "./...")
	assert.NotContains(t, res.stdout, "HL0001")
	assert.Contains(t, res.stderr, "panicked")
}

func TestDirectiveFindingsInJSON(t *testing.T) {
	t.Parallel()
	dir := sharedFixture(t, loadLine, "\t//hiplint:ignore TEST1\n"+loadLine)
	res := runWithChecks(t, dir, []*analysis.Analyzer{loadMarker}, "-json", "./...")
	assert.Equal(t, exitFindings, res.code)
	assert.Contains(t, res.stdout, `"directive": [`)
	assert.Contains(t, res.stdout, `"category": "HL0002"`)
}

// The real analyzers under both drivers: the standalone one applies the
// directives itself, go vet gets them applied by internal/diag.
func TestRealAnalyzersHonourDirectives(t *testing.T) {
	t.Parallel()
	dir := sharedFixture(t)
	res := hiplint(t, dir, "./...")
	require.Equal(t, exitFindings, res.code)
	require.Contains(t, res.stdout, "(HL2001)")

	dir = sharedFixture(t, loadLine, strings.TrimSuffix(loadLine, "\n")+" //hiplint:ignore HL2001 the caller unloads it\n")
	res = hiplint(t, dir, "./...")
	assert.Equal(t, exitClean, res.code)
	assert.Empty(t, res.stdout)

	vet := run(t, dir, "go", "vet", "-vettool="+hiplintBin, "./...")
	assert.Equal(t, 0, vet.code, "go vet finds nothing either")
	assert.NotContains(t, vet.stderr, "leak.go")

	dir = sharedFixture(t, loadLine, strings.TrimSuffix(loadLine, "\n")+" //hiplint:ignore HL2001\n")
	vet = run(t, dir, "go", "vet", "-vettool="+hiplintBin, "./...")
	assert.NotEqual(t, 0, vet.code, "without a reason the directive suppresses nothing under go vet too")
	assert.Contains(t, vet.stderr, "leak.go:28:")
}
