package plugin

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// pluginFindings runs the analyzers that New makes from the shipped
// .golangci.yml's settings, decoded as golangci-lint decodes them, over the
// packages of patterns in dir, loaded as golangci-lint loads them for a
// plugin of LoadModeTypesInfo (syntax and types, tests included, its
// default), and returns the lines of their findings: one per finding, a
// finding in a package and in its test variant once.
func pluginFindings(t *testing.T, dir string, patterns ...string) []mark {
	t.Helper()
	p, err := New(asGolangciLintDecodes(t, mustRead(t, filepath.Join("..", "docs", "golangci-lint", ".golangci.yml"))))
	require.NoError(t, err)
	as, err := p.BuildAnalyzers()
	require.NoError(t, err)
	pkgs, err := packages.Load(&packages.Config{Mode: packages.LoadAllSyntax, Dir: dir, Tests: true}, patterns...)
	require.NoError(t, err)
	for _, pkg := range pkgs {
		require.Empty(t, pkg.Errors, pkg.ID)
	}
	g, err := checker.Analyze(as, pkgs, nil)
	require.NoError(t, err)
	seen := map[string]bool{}
	var found []mark
	for act := range g.All() {
		if !act.IsRoot {
			continue
		}
		require.NoError(t, act.Err, "%s on %s", act.Analyzer.Name, act.Package.ID)
		for _, d := range act.Diagnostics {
			assert.Empty(t, d.Related, "the plugin folds related positions into the message: %s", d.Message)
			posn := act.Package.Fset.Position(d.Pos)
			rel, err := filepath.Rel(dir, posn.Filename)
			require.NoError(t, err)
			key := posn.String() + " " + d.Category + " " + d.Message
			if !seen[key] {
				seen[key] = true
				found = append(found, mark{filepath.ToSlash(rel), posn.Line})
			}
		}
	}
	return sortMarks(found)
}

// TestPluginOnTheExamples is what TestGolangciLintCustom checks of the
// plugin's findings, in the default test run, without building
// golangci-lint (minutes; that test runs in CI and under
// HIPLINT_GOLANGCI=1): on the examples, the analyzers the plugin builds
// from the shipped settings report exactly the marked hazards, and
// hiplint's own //hiplint:ignore suppresses the finding of its line.
func TestPluginOnTheExamples(t *testing.T) {
	repoRoot, err := filepath.Abs("..")
	require.NoError(t, err)
	want := hazards(t, repoRoot)
	require.NotEmpty(t, want)
	assert.Equal(t, want, pluginFindings(t, repoRoot, "./examples/..."), "the plugin reports exactly the marked hazards")

	// //hiplint:ignore on the line above a hazard, in a copy of its
	// example's package: that finding goes, the package's others stay
	// (those below the directive one line down).
	ignored := want[0]
	mod := t.TempDir()
	for _, name := range []string{"go.mod", "go.sum"} {
		require.NoError(t, os.WriteFile(filepath.Join(mod, name), mustRead(t, filepath.Join(repoRoot, name)), 0o644))
	}
	for _, name := range []string{"examples", "testdata/include"} {
		require.NoError(t, os.CopyFS(filepath.Join(mod, name), os.DirFS(filepath.Join(repoRoot, name))), name)
	}
	file := filepath.Join(mod, ignored.file)
	id := hazardComment.FindStringSubmatch(lineOf(t, file, ignored.line))[1]
	lines := strings.Split(string(mustRead(t, file)), "\n")
	lines[ignored.line-1] = "//hiplint:ignore " + strings.Join(strings.Fields(strings.ReplaceAll(id, ",", " ")), ",") + " checked by hand\n" + lines[ignored.line-1]
	require.NoError(t, os.WriteFile(file, []byte(strings.Join(lines, "\n")), 0o644))

	pkgDir := filepath.Dir(ignored.file)
	var rest []mark
	for _, m := range want {
		switch {
		case filepath.Dir(m.file) != pkgDir:
		case m.file == ignored.file && m.line == ignored.line:
		case m.file == ignored.file && m.line > ignored.line:
			rest = append(rest, mark{m.file, m.line + 1})
		default:
			rest = append(rest, m)
		}
	}
	assert.Equal(t, sortMarks(rest), pluginFindings(t, mod, "./"+pkgDir), "//hiplint:ignore suppresses the findings of its line, related positions included")
}
