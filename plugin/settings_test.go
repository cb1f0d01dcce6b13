package plugin

import (
	"go/token"
	"os"
	"strings"
	"testing"

	"github.com/hiplint/hiplint/analyzers/memcpysync"
	"github.com/hiplint/hiplint/internal/config"
	"github.com/hiplint/hiplint/internal/diag"
	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
	"go.yaml.in/yaml/v3"
	"golang.org/x/tools/go/analysis"
)

// asGolangciLintDecodes returns the settings of the custom linter hiplint
// in a .golangci.yml as golangci-lint hands them to the plugin: it reads
// the file with viper, which lower-cases every key and splits a key that
// holds a dot into nested maps (memcpysync.strict: x becomes memcpysync:
// {strict: x}), and decodes the linter's settings into an `any`.
func asGolangciLintDecodes(t *testing.T, yml []byte) any {
	t.Helper()
	var doc map[string]any
	require.NoError(t, yaml.Unmarshal(yml, &doc))
	doc = viperize(doc)
	var cur any = doc
	for _, key := range []string{"linters", "settings", "custom", "hiplint", "settings"} {
		m, ok := cur.(map[string]any)
		require.True(t, ok, "%s is not a map in:\n%s", key, yml)
		cur = m[key]
	}
	return cur
}

// viperize lower-cases the keys of m and splits dotted keys into nested
// maps, as viper does.
func viperize(m map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		if sub, ok := v.(map[string]any); ok {
			v = viperize(sub)
		}
		parts := strings.Split(strings.ToLower(k), ".")
		dst := out
		for _, p := range parts[:len(parts)-1] {
			next, ok := dst[p].(map[string]any)
			if !ok {
				next = map[string]any{}
				dst[p] = next
			}
			dst = next
		}
		last := parts[len(parts)-1]
		if old, ok := dst[last].(map[string]any); ok {
			if sub, ok := v.(map[string]any); ok {
				for sk, sv := range sub {
					old[sk] = sv
				}
				continue
			}
		}
		dst[last] = v
	}
	return out
}

func strictFlag(t *testing.T) string {
	t.Helper()
	return memcpysync.Analyzer.Flags.Lookup("strict").Value.String()
}

func resetStrict(t *testing.T) {
	t.Cleanup(func() { _ = memcpysync.Analyzer.Flags.Set("strict", "false") })
}

// The shipped docs/golangci-lint/.golangci.yml, exactly as golangci-lint
// decodes it, makes a plugin: every setting in it is accepted.
func TestShippedGolangciConfig(t *testing.T) {
	resetStrict(t)
	yml, err := os.ReadFile("../docs/golangci-lint/.golangci.yml")
	require.NoError(t, err)
	settings := asGolangciLintDecodes(t, yml)
	flags := settings.(map[string]any)["flags"]
	assert.IsType(t, map[string]any{}, flags.(map[string]any)["memcpysync"], "the shipped flags are nested maps, as viper passes them")
	p, err := New(settings)
	require.NoError(t, err)
	as, err := p.BuildAnalyzers()
	require.NoError(t, err)
	assert.Equal(t, []string{"graphfree", "memcpysync", "modulebalance", "xnack"}, analyzerNames(as))
	assert.Equal(t, "false", strictFlag(t))
}

// The form the docs used to ship, a dotted key, reaches the plugin split
// into nested maps; it works too, with any scalar.
func TestDottedFlagsAsViperSplitsThem(t *testing.T) {
	for _, yml := range []string{
		`memcpysync.strict: "true"`,
		`memcpysync.strict: true`,
		`"memcpysync.strict": true`,
		"memcpysync:\n              strict: true",
	} {
		resetStrict(t)
		_ = memcpysync.Analyzer.Flags.Set("strict", "false")
		doc := `version: "2"
linters:
  settings:
    custom:
      hiplint:
        type: module
        settings:
          checks: ["all", "-HL4002"]
          flags:
            ` + yml + "\n"
		_, err := New(asGolangciLintDecodes(t, []byte(doc)))
		require.NoError(t, err, yml)
		assert.Equal(t, "true", strictFlag(t), yml)
	}
}

// The settings reach each pass as a config.Override: checks and flags,
// applied after the package's hiplint.toml.
func TestSettingsReachThePass(t *testing.T) {
	a, checks, _ := fake()
	var got *config.Override
	a.Run = func(pass *analysis.Pass) (any, error) {
		got = config.OverrideOf(pass)
		return nil, nil
	}
	as, err := Select([]*analysis.Analyzer{a}, checks, Settings{Checks: []string{"inherit", "-HL2001"}, Flags: map[string]any{"fake": map[string]any{"loud": true}}})
	require.NoError(t, err)
	runOnce(t, as[0])
	require.NotNil(t, got)
	assert.Equal(t, []string{"inherit", "-HL2001"}, got.Checks)
	assert.Equal(t, map[string]string{"fake.loud": "true"}, got.Flags)
}

// golangci-lint makes an issue of each related position, which //nolint
// on the finding's line does not reach: the plugin folds them into the
// finding's message, one issue per finding.
func TestRelatedFoldedIntoOneIssue(t *testing.T) {
	fset := token.NewFileSet()
	f := fset.AddFile("/src/m/m.go", -1, 100)
	f.SetLines([]int{0, 10, 20, 30, 40})
	other := fset.AddFile("/src/n/n.go", -1, 100)
	other.SetLines([]int{0, 10})
	a := &analysis.Analyzer{Name: "fake", Doc: "fake", Run: func(pass *analysis.Pass) (any, error) {
		pass.Report(analysis.Diagnostic{Pos: f.Pos(32), Category: "FK1", Message: "unloaded twice",
			Related: []analysis.RelatedInformation{{Pos: f.Pos(12), Message: "first unloaded here"}, {Pos: other.Pos(11), Message: "loaded here"}}})
		pass.Report(analysis.Diagnostic{Pos: f.Pos(2), Category: "FK2", Message: "alone"})
		return nil, nil
	}}
	as, err := Select([]*analysis.Analyzer{a}, []diag.Check{{ID: "FK1", Analyzer: "fake"}, {ID: "FK2", Analyzer: "fake"}}, Settings{})
	require.NoError(t, err)
	var got []analysis.Diagnostic
	_, err = as[0].Run(&analysis.Pass{Analyzer: as[0], Fset: fset, Report: func(d analysis.Diagnostic) { got = append(got, d) }})
	require.NoError(t, err)
	require.Len(t, got, 2)
	assert.Equal(t, "unloaded twice (m.go:2:3: first unloaded here; /src/n/n.go:2:2: loaded here)", got[0].Message)
	assert.Empty(t, got[0].Related)
	assert.Equal(t, "alone", got[1].Message)
}
