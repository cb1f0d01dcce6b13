package driver_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"go/ast"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/hiplint/hiplint/analyzers"
	"github.com/hiplint/hiplint/internal/diag"
	"github.com/hiplint/hiplint/internal/driver"
	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

var callCheck = diag.Check{ID: "HL2001", Analyzer: "calls", Title: "test: a call", Severity: diag.Error}

// calls reports every call, through diag.Report as hiplint's analyzers do.
var calls = &analysis.Analyzer{
	Name: "calls",
	Doc:  "test analyzer: reports every call",
	Run: func(pass *analysis.Pass) (any, error) {
		for _, f := range pass.Files {
			ast.Inspect(f, func(n ast.Node) bool {
				if c, ok := n.(*ast.CallExpr); ok {
					diag.Reportf(pass, callCheck, c.Pos(), "a call")
				}
				return true
			})
		}
		return nil, nil
	},
}

// The call on line 5 is suppressed; the one on line 6 is not.
const suppressedSrc = `package a

func F() {
	//hiplint:ignore HL2001 a reason
	g()
	g()
}

func g() {}
`

func lines(findings []*driver.Finding) (kept, suppressed []int) {
	for _, f := range findings {
		if f.Suppressed {
			suppressed = append(suppressed, f.Posn.Line)
		} else {
			kept = append(kept, f.Posn.Line)
		}
	}
	return kept, suppressed
}

// TestKeepSuppressedIsPerRun: keeping suppressed findings is an option of
// one run. Runs in one process at the same time, one keeping, one not, and
// a driver that never heard of hiplint's directives (checker.Analyze, as go
// vet, golangci-lint and nogo run the analyzers), each get their own
// setting: the driver's passes are marked for diag.Report, nothing else is.
func TestKeepSuppressedIsPerRun(t *testing.T) {
	t.Parallel()
	dir := module(t, map[string]map[string]string{"a": {"a.go": suppressedSrc}})
	run := func(keep bool) *driver.Result {
		res, err := driver.Run(driver.Config{
			Analyzers:      []*analysis.Analyzer{calls},
			Checks:         []diag.Check{callCheck},
			Directives:     true,
			KeepSuppressed: keep,
			Dir:            dir,
		}, "./...")
		require.NoError(t, err)
		require.Empty(t, res.Errors)
		return res
	}
	var plain []int // what a driver without directives sees
	plainRun := func() {
		pkgs, err := packages.Load(&packages.Config{Mode: packages.LoadAllSyntax, Dir: dir}, "./...")
		require.NoError(t, err)
		graph, err := checker.Analyze([]*analysis.Analyzer{calls}, pkgs, nil)
		require.NoError(t, err)
		for act := range graph.All() {
			for _, d := range act.Diagnostics {
				plain = append(plain, act.Package.Fset.Position(d.Pos).Line)
			}
		}
	}

	for round := range 2 { // sequential, then concurrent
		var kept, dropped *driver.Result
		plain = nil
		if round == 0 {
			kept, dropped = run(true), run(false)
			plainRun()
		} else {
			var wg sync.WaitGroup
			wg.Go(func() { kept = run(true) })
			wg.Go(func() { dropped = run(false) })
			wg.Go(plainRun)
			wg.Wait()
		}
		k, s := lines(kept.Findings)
		assert.Equal(t, []int{6}, k, "round %d: keeping: the other call", round)
		assert.Equal(t, []int{5}, s, "round %d: keeping: the suppressed call, marked", round)
		k, s = lines(dropped.Findings)
		assert.Equal(t, []int{6}, k, "round %d: dropping: the other call", round)
		assert.Empty(t, s, "round %d: dropping: no suppressed call", round)
		assert.Equal(t, []int{6}, plain, "round %d: another driver drops in the analyzer", round)
	}
}

// TestRunDirectiveProblems: with Directives, a directive that suppresses
// nothing is a finding (HL0001); without, it is not.
func TestRunDirectiveProblems(t *testing.T) {
	t.Parallel()
	src := "package a\n\nfunc F() {\n\t//hiplint:ignore HL2001 a reason\n\t_ = 1\n}\n"
	dir := module(t, map[string]map[string]string{"a": {"a.go": src}})
	for _, report := range []bool{true, false} {
		res, err := driver.Run(driver.Config{
			Analyzers:  []*analysis.Analyzer{calls},
			Checks:     []diag.Check{callCheck},
			Directives: report,
			Dir:        dir,
		}, "./...")
		require.NoError(t, err)
		var ids []string
		for _, f := range res.Findings {
			ids = append(ids, f.Diagnostic.Category+"/"+f.Analyzer)
		}
		if report {
			assert.Equal(t, []string{"HL0001/directive"}, ids)
		} else {
			assert.Empty(t, ids)
		}
	}
}

// TestRunTier3: a package whose cgo preamble includes a header that does
// not exist is analyzed at tier 3 by Run (hiplint's suite finds its leak,
// its candidates the site), and is an error with NoTier3. ForceTier3 keeps
// synthesis from repairing it (which it may, where the machine has HIP's
// headers).
func TestRunTier3(t *testing.T) {
	t.Parallel()
	dir := module(t, map[string]map[string]string{"sdk": {"sdk.go": sdkSrc, "leak.go": leakSrc}})
	env := append(os.Environ(), "GOFLAGS=")
	res, err := driver.Run(driver.Config{
		Analyzers:  analyzers.Suite(),
		Candidates: analyzers.Candidates(),
		Checks:     analyzers.Checks(),
		Directives: true,
		Dir:        dir,
		Env:        env,
		ForceTier3: true,
	}, "./...")
	require.NoError(t, err)
	assert.Equal(t, []string{"example.com/m/sdk"}, res.Triage.Degraded)
	assert.Empty(t, res.Triage.Errors)
	require.Len(t, res.Triage.Notes, 1)
	assert.Contains(t, res.Triage.Notes[0], "tier 3 forced")
	assert.Empty(t, res.Errors)
	var ids []string
	for _, f := range res.Findings {
		if f.Posn.Line == 12 && f.Posn.Filename == dir+"/sdk/leak.go" {
			ids = append(ids, f.Diagnostic.Category)
		}
	}
	assert.Equal(t, []string{"HL2001"}, ids, "the leak, found at tier 3")
	assert.True(t, slices.ContainsFunc(res.Candidates, func(f *driver.Finding) bool {
		return f.Diagnostic.Category == "HL2001" && f.Posn.Line == 12
	}), "the candidates run on the same packages")

	res, err = driver.Run(driver.Config{Analyzers: analyzers.Suite(), Dir: dir, Env: env, NoTier3: true}, "./...")
	require.NoError(t, err)
	assert.Empty(t, res.Triage.Degraded)
	assert.Empty(t, res.Triage.Analyzable)
	require.Len(t, res.Triage.Errors, 1)
	assert.Contains(t, res.Triage.Errors[0], "no_such_sdk_header.h")
	assert.Empty(t, res.Findings)
}

const leakSrc = `package sdk

import "C"

import (
	"errors"
	"unsafe"
)

func Load(image unsafe.Pointer) error {
	var m C.hipModule_t
	if C.hipModuleLoadData(&m, image) != C.hipSuccess {
		return errors.New("load failed")
	}
	return nil
}
`

// TestRunCancelled: a Run whose context is cancelled while an analyzer
// runs starts no other analyzer (the one that requires it never runs) and
// returns the context's error, not a result: a language server that
// cancels an analysis on exit stops it at the next analyzer, and never
// mistakes a cut-short analysis for the findings of the package.
func TestRunCancelled(t *testing.T) {
	t.Parallel()
	dir := module(t, map[string]map[string]string{"a": {"a.go": suppressedSrc}})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	first := &analysis.Analyzer{
		Name: "first",
		Doc:  "test analyzer: cancels the run",
		Run:  func(*analysis.Pass) (any, error) { cancel(); return nil, nil },
	}
	var ran atomic.Bool
	second := &analysis.Analyzer{
		Name:     "second",
		Doc:      "test analyzer: runs after first",
		Requires: []*analysis.Analyzer{first},
		Run:      func(*analysis.Pass) (any, error) { ran.Store(true); return nil, nil },
	}
	res, err := driver.Run(driver.Config{Analyzers: []*analysis.Analyzer{second}, Context: ctx, Dir: dir}, "./...")
	assert.ErrorIs(t, err, context.Canceled)
	assert.Nil(t, res)
	assert.False(t, ran.Load(), "no analyzer starts once the run is cancelled")
}

// TestHashSources: with HashSources, Result.Sources has the SHA-256 of what
// the analysis read: a Go file's bytes as parsed, a cgo file's bytes as
// listed before cgo ran, and cgo's output as parsed. -fix writes a file
// only while it still has that hash (issue 29 item 1).
func TestHashSources(t *testing.T) {
	t.Parallel()
	const goSrc = "package a\n\nfunc G() int { return 2 }\n"
	const cgoSrc = "package a\n\n// static int one(void) { return 1; }\nimport \"C\"\n\nfunc One() int { return int(C.one()) }\n"
	dir := module(t, map[string]map[string]string{"a": {"g.go": goSrc, "c.go": cgoSrc}})
	cfg := driver.Config{Dir: dir, HashSources: true}
	res, err := driver.Run(cfg, "./...")
	require.NoError(t, err)
	require.Len(t, res.Packages, 1)
	pkg := res.Packages[0]
	assert.Equal(t, sha256.Sum256([]byte(goSrc)), res.Sources[filepath.Join(dir, "a", "g.go")])
	assert.Equal(t, sha256.Sum256([]byte(cgoSrc)), res.Sources[filepath.Join(dir, "a", "c.go")])
	generated := 0
	for _, f := range pkg.CompiledGoFiles {
		if slices.Contains(pkg.GoFiles, f) {
			continue
		}
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		if bytes.Contains(data, []byte("func One()")) {
			generated++
			assert.Equal(t, sha256.Sum256(data), res.Sources[f], "cgo's output, as parsed")
		}
	}
	assert.Equal(t, 1, generated, "cgo's output for c.go")

	cfg.HashSources = false
	res, err = driver.Run(cfg, "./...")
	require.NoError(t, err)
	assert.Nil(t, res.Sources)
}

// TestLocalToolchain: the go command hiplint runs never downloads a
// toolchain unless the user asked for it (issue 29 item 6).
func TestLocalToolchain(t *testing.T) {
	assert.Equal(t, []string{"A=1", "GOTOOLCHAIN=local"}, driver.LocalToolchain([]string{"A=1"}))
	assert.Equal(t, []string{"GOTOOLCHAIN=auto"}, driver.LocalToolchain([]string{"GOTOOLCHAIN=auto"}))
	assert.Equal(t, []string{"GOTOOLCHAIN=", "GOTOOLCHAIN=local"}, driver.LocalToolchain([]string{"GOTOOLCHAIN="}))
	env := make([]string, 1, 4)
	env[0] = "A=1"
	_ = driver.LocalToolchain(env)
	assert.Equal(t, []string{"A=1"}, env[:1], "the caller's slice is not written")
	assert.Len(t, env, 1)
}
