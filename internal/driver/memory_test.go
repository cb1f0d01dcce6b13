package driver

import (
	"fmt"
	"go/ast"
	"go/types"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/hiplint/hiplint/internal/flow"
	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/packages"
)

type hasFuncFact struct{}

func (*hasFuncFact) AFact()         {}
func (*hasFuncFact) String() string { return "func" }

// factCaller runs on every dependency (it has facts): it puts a fact on each
// function it sees declared and reports each call of another package's
// function that has one. It fails where a package's syntax or type
// information is gone when it runs.
//
// Like hiplint's analyzers it requires flow.IndexAnalyzer and uses the index,
// which it records in indexes.
func factCaller(files map[*types.Package]int, indexes *sync.Map) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name:      "factcaller",
		Doc:       "test analyzer: facts on every function",
		FactTypes: []analysis.Fact{new(hasFuncFact)},
		Requires:  []*analysis.Analyzer{flow.IndexAnalyzer},
		Run: func(pass *analysis.Pass) (any, error) {
			if pass.TypesInfo == nil || len(pass.Files) != files[pass.Pkg] {
				return nil, fmt.Errorf("released too early: %d files of %d, types.Info %v",
					len(pass.Files), files[pass.Pkg], pass.TypesInfo != nil)
			}
			idx := flow.IndexOf(pass)
			idx.Funcs() // built
			indexes.Store(pass.Pkg, idx)
			for _, f := range pass.Files {
				ast.Inspect(f, func(n ast.Node) bool {
					switch n := n.(type) {
					case *ast.FuncDecl:
						if fn, ok := pass.TypesInfo.Defs[n.Name].(*types.Func); ok {
							pass.ExportObjectFact(fn, new(hasFuncFact))
						}
					case *ast.SelectorExpr:
						fn, ok := pass.TypesInfo.Uses[n.Sel].(*types.Func)
						if ok && fn.Pkg() != pass.Pkg && pass.ImportObjectFact(fn, new(hasFuncFact)) {
							pass.Reportf(n.Pos(), "calls %s.%s", fn.Pkg().Name(), fn.Name())
						}
					}
					return true
				})
			}
			return nil, nil
		},
	}
}

// callCounter runs on the initial packages only, on inspect's result.
var callCounter = &analysis.Analyzer{
	Name:     "callcounter",
	Doc:      "test analyzer: counts calls",
	Requires: []*analysis.Analyzer{inspect.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		n := 0
		pass.ResultOf[inspect.Analyzer].(*inspector.Inspector).Preorder([]ast.Node{(*ast.CallExpr)(nil)}, func(ast.Node) { n++ })
		pass.Reportf(pass.Files[0].Package, "%d calls", n)
		return nil, nil
	},
}

// loadModule writes files (relative paths: contents) into a new module
// directory and loads its package ./a with everything below it.
func loadModule(t *testing.T, files map[string]string) []*packages.Package {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644))
	}
	roots, err := packages.Load(&packages.Config{Mode: packages.LoadAllSyntax, Dir: dir}, "./a")
	require.NoError(t, err)
	require.Len(t, roots, 1)
	return roots
}

func TestReleaserFreesWhatNoActionNeedsAnyMore(t *testing.T) {
	t.Parallel()
	roots := loadModule(t, map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.26\n",
		"b/b.go": "package b\n\nimport \"strings\"\n\nfunc B(s string) string { return strings.ToUpper(s) }\n",
		"a/a.go": "package a\n\nimport (\n\t\"fmt\"\n\n\t\"example.com/m/b\"\n)\n\nfunc A() { fmt.Println(b.B(\"x\")) }\n",
	})
	files := map[*types.Package]int{}
	var all []*packages.Package
	packages.Visit(roots, nil, func(pkg *packages.Package) {
		require.Empty(t, pkg.Errors)
		files[pkg.Types] = len(pkg.Syntax)
		all = append(all, pkg)
	})

	var indexes sync.Map
	analyzers := []*analysis.Analyzer{factCaller(files, &indexes), callCounter}
	rel := newReleaser(analyzers, roots)
	graph, err := checker.Analyze(guard(analyzers, guardOptions{stacks: true, after: rel.done}), roots, nil)
	require.NoError(t, err)

	var found []string
	for act := range graph.All() {
		require.NoError(t, act.Err, "%s", act)
		if !act.IsRoot {
			continue
		}
		for _, d := range act.Diagnostics {
			found = append(found, d.Message)
		}
	}
	slices.Sort(found)
	assert.Equal(t, []string{"2 calls", "calls b.B", "calls fmt.Println"}, found)

	for _, pkg := range all {
		assert.Nil(t, pkg.TypesInfo, "%s: types.Info released", pkg)
		if pkg == roots[0] {
			assert.NotEmpty(t, pkg.Syntax, "%s: the initial package's syntax is kept", pkg)
		} else {
			assert.Nil(t, pkg.Syntax, "%s: a dependency's syntax is released", pkg)
		}
		idx, ok := indexes.Load(pkg.Types)
		if assert.True(t, ok, "%s: indexed", pkg) {
			assert.Nil(t, idx.(*flow.Index).Funcs(), "%s: the index (a result the checker keeps) is released", pkg)
		}
	}
}

// Not parallel: the memory limit is the process's.
func TestAnalysisMemoryLimit(t *testing.T) {
	prev := debug.SetMemoryLimit(-1)
	require.Equal(t, int64(math.MaxInt64), prev, "no GOMEMLIMIT in tests")

	held := readMemory().held
	restore := limitAnalysisMemory()
	limit := debug.SetMemoryLimit(-1)
	assert.Less(t, limit, prev)
	assert.InDelta(t, float64(held)*1.1, float64(limit), float64(held)*0.05, "a tenth over what the process held")

	// A live heap that outgrows the limit raises it after a collection.
	ballast := make([]byte, limit)
	for i := range ballast {
		ballast[i] = 1 // touch it, so that it is held
	}
	deadline := time.Now().Add(10 * time.Second)
	for debug.SetMemoryLimit(-1) == limit && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	assert.Greater(t, debug.SetMemoryLimit(-1), int64(len(ballast))*5/4, "raised over the live heap")
	runtime.KeepAlive(ballast)
	ballast = nil

	restore()
	assert.Equal(t, prev, debug.SetMemoryLimit(-1), "restored")

	// A lower limit of the user's is kept.
	low := readMemory().held
	debug.SetMemoryLimit(low)
	defer debug.SetMemoryLimit(prev)
	restore = limitAnalysisMemory()
	assert.Equal(t, low, debug.SetMemoryLimit(-1))
	restore()
	assert.Equal(t, low, debug.SetMemoryLimit(-1))
}

// releaseInert frees, before the analysis, exactly the dependencies that
// cannot reach the runtime: not the initial package, not a package that
// calls the runtime, not one that imports such a package.
func TestReleaseInertDependencies(t *testing.T) {
	t.Parallel()
	roots := loadModule(t, map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.26\n",
		// c "calls the runtime": cgo's declaration of a runtime function.
		"c/c.go": "package c\n\nimport _ \"runtime/cgo\"\n\nfunc _Cfunc_hipDeviceSynchronize() int32 { return 0 }\n\nfunc Sync() int32 { return _Cfunc_hipDeviceSynchronize() }\n",
		"b/b.go": "package b\n\nimport (\n\t\"strings\"\n\n\t\"example.com/m/c\"\n)\n\nfunc B(s string) string { c.Sync(); return strings.ToUpper(s) }\n",
		"d/d.go": "package d\n\nimport \"fmt\"\n\nfunc D() { fmt.Println() }\n",
		"a/a.go": "package a\n\nimport (\n\t\"example.com/m/b\"\n\t\"example.com/m/d\"\n)\n\nfunc A() { d.D(); _ = b.B(\"x\") }\n",
	})
	byPath := map[string]*packages.Package{}
	packages.Visit(roots, nil, func(p *packages.Package) {
		require.Empty(t, p.Errors)
		byPath[p.PkgPath] = p
	})
	n := releaseInert(roots, nil)
	for path, p := range byPath {
		kept := path == "example.com/m/b" || path == "example.com/m/c"
		if path == "example.com/m/a" {
			assert.NotNil(t, p.Syntax, "%s: the initial package's syntax kept", path)
			assert.NotNil(t, p.TypesInfo, "%s: types.Info kept: a imports b, which reaches the runtime", path)
		} else if kept {
			assert.NotNil(t, p.Syntax, "%s: syntax kept", path)
			assert.NotNil(t, p.TypesInfo, "%s: types.Info kept", path)
		} else {
			assert.Nil(t, p.Syntax, "%s: syntax freed", path)
			assert.Nil(t, p.TypesInfo, "%s: types.Info freed", path)
		}
	}
	assert.Equal(t, len(byPath)-3, n)
	assert.NotNil(t, byPath["fmt"], "the standard library is among the dependencies")

	// An initial package below which nothing calls the runtime (d loaded
	// as a root) keeps its syntax, for the directives, and loses its types.
	roots = loadModule(t, map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.26\n",
		"a/a.go": "package a\n\nimport \"fmt\"\n\n//hiplint:ignore HL2001 reason\nfunc A() { fmt.Println() }\n",
	})
	require.Positive(t, releaseInert(roots, nil))
	assert.NotNil(t, roots[0].Syntax)
	assert.Nil(t, roots[0].TypesInfo)
}
