package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv"
	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

// -checks selects check IDs with staticcheck's syntax, left to right.
func TestChecksFlag(t *testing.T) {
	t.Parallel()
	dir := sharedFixture(t)
	for _, tc := range []struct {
		checks string
		code   int
	}{
		{"all", exitFindings},
		{"all,-HL2001", exitClean},
		{"-HL2001,HL2*", exitFindings},
		{"HL2*,-HL2001", exitClean},
		{"modulebalance", exitFindings},
		{"all,-modulebalance", exitClean},
		{"HL1*", exitClean},
	} {
		res := hiplint(t, dir, "-checks", tc.checks, "./...")
		assert.Equal(t, tc.code, res.code, tc.checks)
		if tc.code == exitClean {
			assert.Empty(t, res.stdout, tc.checks)
		} else {
			assert.Contains(t, res.stdout, "(HL2001)", tc.checks)
		}
	}
	res := hiplint(t, dir, "-checks", "all,-HL9999", "./...")
	assert.Equal(t, exitUsage, res.code)
	assert.Equal(t, "hiplint: -checks: \"-HL9999\" matches no check; `hiplint checks` lists them (analyzers: directive, graphfree, memcpysync, modulebalance, xnack)\n", res.stderr)
}

// A hiplint.toml above the package selects its checks, under the command
// line and go vet alike; -checks applies after it ("inherit" stands for it).
func TestHiplintToml(t *testing.T) {
	t.Parallel()
	dir := fixtureModule(t)
	// The file is in the module root; the package is in a subdirectory.
	pkg := filepath.Join(dir, "pkg")
	require.NoError(t, os.MkdirAll(pkg, 0o755))
	require.NoError(t, os.Rename(filepath.Join(dir, "leak.go"), filepath.Join(pkg, "leak.go")))
	require.NoError(t, os.Rename(filepath.Join(dir, "include"), filepath.Join(pkg, "include")))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "hiplint.toml"), []byte("# no leaks here\nchecks = [\"all\", \"-HL2001\"]\n"), 0o644))

	res := hiplint(t, dir, "./...")
	assert.Equal(t, exitClean, res.code)
	assert.Empty(t, res.stdout)
	res = hiplint(t, pkg, ".")
	assert.Equal(t, exitClean, res.code, "found from the package's directory up")

	res = hiplint(t, dir, "-checks", "inherit,HL2001", "./...")
	assert.Equal(t, exitFindings, res.code)
	assert.Contains(t, res.stdout, "(HL2001)")
	res = hiplint(t, dir, "-checks", "inherit", "./...")
	assert.Equal(t, exitClean, res.code)

	vet := run(t, dir, "go", "vet", "-vettool="+hiplintBin, "./...")
	assert.Equal(t, 0, vet.code, "go vet reads the hiplint.toml too")
	assert.NotContains(t, vet.stderr, "leak.go")

	// A nearer file wins.
	require.NoError(t, os.WriteFile(filepath.Join(pkg, "hiplint.toml"), []byte("checks = [\"HL2*\"]\n"), 0o644))
	res = hiplint(t, dir, "./...")
	assert.Equal(t, exitFindings, res.code)
	// go vet under each hiplint.toml analyzes the standard library again
	// for facts (4-7 s of CPU: docs/performance.md): the default run checks
	// that go vet reads the file (above) and that the nearer one wins (the
	// command line, just now); HIPLINT_LONGTESTS=1 checks the nearer one
	// under go vet too.
	if !testenv.Long(t) {
		t.Log("the nearer hiplint.toml under go vet: not in the default run")
		return
	}
	vet = run(t, dir, "go", "vet", "-vettool="+hiplintBin, "./...")
	assert.NotEqual(t, 0, vet.code)
	assert.Contains(t, vet.stderr, "leak.go:28:")
}

// A directive for a check that the configuration turns off suppresses
// nothing, but is not reported as unused (HL0001): its check did not run.
func TestDirectiveForDisabledCheck(t *testing.T) {
	t.Parallel()
	dir := sharedFixture(t, loadLine, strings.TrimSuffix(loadLine, "\n")+" //hiplint:ignore HL2001 the caller unloads it\n")
	res := hiplint(t, dir, "-checks", "all,-HL2001", "./...")
	assert.Equal(t, exitClean, res.code)
	assert.Empty(t, res.stdout)
	res = hiplint(t, dir, "-checks", "all", "./...")
	assert.Equal(t, exitClean, res.code)

	dir = sharedFixture(t, loadLine, strings.TrimSuffix(loadLine, "\n")+" //hiplint:ignore HL2003 wrong ID\n")
	res = hiplint(t, dir, "./...")
	assert.Contains(t, res.stdout, "(HL0001)")
	res = hiplint(t, dir, "-checks", "all,-HL0001", "./...")
	assert.NotContains(t, res.stdout, "(HL0001)", "the directive checks are selected alike")
	assert.Contains(t, res.stdout, "(HL2001)")
}

// A hiplint.toml that does not parse is one error line naming the file
// and the line, exit status 2, under the command line and go vet.
func TestBadHiplintToml(t *testing.T) {
	t.Parallel()
	dir := fixtureModule(t)
	toml := filepath.Join(dir, "hiplint.toml")
	require.NoError(t, os.WriteFile(toml, []byte("checks = [\"all\",\n[memcpysync]\nstrict = true\n"), 0o644))
	res := hiplint(t, dir, "./...")
	assert.Equal(t, exitUsage, res.code)
	assert.Empty(t, res.stdout)
	assert.Equal(t, "hiplint: "+toml+":2: a list holds only quoted strings, found \"[memcpysync]\"\n", strings.ReplaceAll(res.stderr, headersNote(t, hipHeader), ""))

	require.NoError(t, os.WriteFile(toml, []byte("[memcpysync]\nstrict = \"yes\"\n"), 0o644))
	vet := run(t, dir, "go", "vet", "-vettool="+hiplintBin, "./...")
	assert.NotEqual(t, 0, vet.code)
	assert.Contains(t, vet.stderr, "hiplint.toml:2: memcpysync.strict is a string; want true or false") // go vet shortens the path
}

// The language server reads the package's hiplint.toml, then the editor's
// initializationOptions and workspace/didChangeConfiguration ({"checks":
// ...}), so that editor and CI agree.
func TestLSPChecksConfiguration(t *testing.T) {
	t.Parallel()
	dir := fixtureModule(t)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "hiplint.toml"), []byte("checks = [\"all\", \"-HL2001\"]\n"), 0o644))
	file := filepath.Join(dir, "leak.go")
	uri := fileURI(file)
	codes := func(raw []json.RawMessage) []string {
		var out []string
		for _, r := range raw {
			var d struct {
				Code string `json:"code"`
			}
			require.NoError(t, json.Unmarshal(r, &d))
			out = append(out, d.Code)
		}
		return out
	}
	open := func(p *lspProcess) {
		p.notify(t, "textDocument/didOpen", map[string]any{
			"textDocument": map[string]any{"uri": uri, "languageId": "go", "version": 1, "text": readFile(t, file)},
		})
	}

	// The hiplint.toml turns HL2001 off; the editor's "inherit,HL2001"
	// turns it back on.
	p := startLSP(t, os.Environ())
	p.call(t, "initialize", map[string]any{"processId": os.Getpid(), "capabilities": map[string]any{}}, nil)
	p.notify(t, "initialized", map[string]any{})
	open(p)
	assert.Empty(t, codes(p.waitDiagnostics(t, uri)), "the hiplint.toml turns HL2001 off")
	p.mu.Lock()
	delete(p.published, uri)
	p.mu.Unlock()
	p.notify(t, "workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"hiplint": map[string]any{"checks": "inherit,HL2001"}}})
	assert.Equal(t, []string{"HL2001"}, codes(p.waitDiagnostics(t, uri)))

	// initializationOptions, and a bad one said in the log.
	p = startLSP(t, os.Environ(), "-checks", "HL2*")
	p.call(t, "initialize", map[string]any{"processId": os.Getpid(), "capabilities": map[string]any{},
		"initializationOptions": map[string]any{"checks": []string{"inherit", "-HL2001"}}}, nil)
	p.notify(t, "initialized", map[string]any{})
	open(p)
	assert.Empty(t, codes(p.waitDiagnostics(t, uri)), "-checks HL2*, then the editor's -HL2001")

	p = startLSP(t, os.Environ(), "-checks", "HL2*")
	p.call(t, "initialize", map[string]any{"processId": os.Getpid(), "capabilities": map[string]any{},
		"initializationOptions": map[string]any{"checks": []string{"HL9999"}}}, nil)
	p.notify(t, "initialized", map[string]any{})
	open(p)
	assert.Equal(t, []string{"HL2001"}, codes(p.waitDiagnostics(t, uri)), "-checks HL2* replaces the hiplint.toml's")
	p.mu.Lock()
	assert.Contains(t, p.logs, "hiplint: initializationOptions ignored: settings: checks: \"HL9999\" matches no check; `hiplint checks` lists them (analyzers: directive, graphfree, memcpysync, modulebalance, xnack)")
	p.mu.Unlock()
}

// staticcheck's //lint:ignore is honoured for hiplint's IDs under the
// command line and go vet; one for staticcheck's own checks is left alone,
// and a stale one is reported in its own words.
func TestLintIgnoreAlias(t *testing.T) {
	t.Parallel()
	dir := sharedFixture(t, loadLine, "\t//lint:ignore SA4006,HL2001 the caller unloads it\n"+loadLine)
	res := hiplint(t, dir, "./...")
	assert.Equal(t, exitClean, res.code)
	assert.Empty(t, res.stdout)
	vet := run(t, dir, "go", "vet", "-vettool="+hiplintBin, "./...")
	assert.Equal(t, 0, vet.code, "go vet honours it too")

	dir = sharedFixture(t, loadLine, "\t//lint:ignore SA4006 staticcheck's own\n"+loadLine)
	res = hiplint(t, dir, "./...")
	assert.Equal(t, exitFindings, res.code)
	assert.Contains(t, res.stdout, "(HL2001)")
	assert.NotContains(t, res.stdout, "HL0003")

	dir = sharedFixture(t, loadLine, "\t//lint:ignore HL2003 wrong check\n"+loadLine)
	res = hiplint(t, dir, "./...")
	assert.Contains(t, res.stdout, "//lint:ignore HL2003 suppresses nothing")
	assert.Contains(t, res.stdout, "(HL0001)")
}
