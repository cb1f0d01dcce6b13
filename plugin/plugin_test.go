package plugin

import (
	"testing"

	"github.com/golangci/plugin-module-register/register"
	"github.com/hiplint/hiplint/analyzers"
	"github.com/hiplint/hiplint/internal/diag"
	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
	"golang.org/x/tools/go/analysis"
)

func analyzerNames(as []*analysis.Analyzer) []string { return names(as) }

func TestRegistered(t *testing.T) {
	newPlugin, err := register.GetPlugin("hiplint")
	require.NoError(t, err)
	p, err := newPlugin(nil)
	require.NoError(t, err)
	assert.Equal(t, register.LoadModeTypesInfo, p.GetLoadMode())
	as, err := p.BuildAnalyzers()
	require.NoError(t, err)
	assert.Equal(t, names(analyzers.Suite()), names(as), "no settings: the whole suite")
}

// Settings arrive as golangci-lint decoded them from YAML.
func TestNewDecodesSettings(t *testing.T) {
	p, err := New(map[string]any{"disable": []any{"xnack", "graphfree"}})
	require.NoError(t, err)
	as, _ := p.BuildAnalyzers()
	assert.Equal(t, []string{"memcpysync", "modulebalance"}, analyzerNames(as))

	p, err = New(map[string]any{"enable": []any{"HL2001", "HL2002"}})
	require.NoError(t, err)
	as, _ = p.BuildAnalyzers()
	require.Len(t, as, 1)
	assert.Equal(t, "modulebalance", as[0].Name)

	p, err = New(map[string]any{"enable": []any{"modulebalance"}, "disable": []any{"HL2004"}})
	require.NoError(t, err)
	as, _ = p.BuildAnalyzers()
	assert.Equal(t, []string{"modulebalance"}, analyzerNames(as))

	p, err = New(map[string]any{"enable": []any{"modulebalance"}})
	require.NoError(t, err)
	as, _ = p.BuildAnalyzers()
	assert.Equal(t, []string{"modulebalance"}, analyzerNames(as))
}

func TestNewRejectsBadSettings(t *testing.T) {
	for _, tc := range []struct {
		settings any
		err      string
	}{
		{map[string]any{"enabel": []any{"HL2001"}}, `unknown field "enabel"`},
		{map[string]any{"enable": []any{"HL9999"}}, `unknown analyzer or check ID "HL9999"`},
		{map[string]any{"disable": []any{"nosuch"}}, `unknown analyzer or check ID "nosuch"`},
		{map[string]any{"enable": []any{"HL0001"}}, "only by the standalone hiplint"},
		{map[string]any{"disable": []any{"memcpysync", "modulebalance", "graphfree", "xnack"}}, "every analyzer off"},
		{map[string]any{"flags": map[string]any{"memcpysync.nosuch": "true"}}, `unknown analyzer flag "memcpysync.nosuch"`},
		{map[string]any{"enable": "HL2001"}, "decoding settings"},
		{map[string]any{"flags": map[string]any{"memcpysync": map[string]any{"strict": "maybe"}}}, "flags: memcpysync.strict"},
		{map[string]any{"flags": map[string]any{"memcpysync": []any{"strict"}}}, "want a string, a boolean or a number"},
		{map[string]any{"checks": []any{"HL9*"}}, `"HL9*" matches no check`},
	} {
		_, err := New(tc.settings)
		if assert.Error(t, err, "%v", tc.settings) {
			assert.Contains(t, err.Error(), tc.err)
		}
	}
}

// A fake analyzer with two checks and a flag, to see what the wrapper
// reports and that flags reach the analyzer.
func fake() (*analysis.Analyzer, []diag.Check, *[]string) {
	var sawFlag []string
	a := &analysis.Analyzer{Name: "fake", Doc: "fake"}
	a.Flags.Bool("loud", false, "")
	a.Run = func(pass *analysis.Pass) (any, error) {
		sawFlag = append(sawFlag, pass.Analyzer.Flags.Lookup("loud").Value.String())
		pass.Report(analysis.Diagnostic{Category: "FK1", Message: "one"})
		pass.Report(analysis.Diagnostic{Category: "FK2", Message: "two"})
		return nil, nil
	}
	checks := []diag.Check{{ID: "FK1", Analyzer: "fake"}, {ID: "FK2", Analyzer: "fake"}}
	return a, checks, &sawFlag
}

func runOnce(t *testing.T, a *analysis.Analyzer) []string {
	t.Helper()
	var got []string
	_, err := a.Run(&analysis.Pass{Analyzer: a, Report: func(d analysis.Diagnostic) { got = append(got, d.Category) }})
	require.NoError(t, err)
	return got
}

func TestSelectFiltersChecks(t *testing.T) {
	a, checks, sawFlag := fake()
	as, err := Select([]*analysis.Analyzer{a}, checks, Settings{Disable: []string{"FK1"}, Flags: map[string]any{"fake": map[string]any{"loud": true}}})
	require.NoError(t, err)
	require.Len(t, as, 1)
	assert.Equal(t, []string{"FK2"}, runOnce(t, as[0]))
	assert.Equal(t, []string{"true"}, *sawFlag, "the analyzer sees its own flags, set from the settings")

	as, err = Select([]*analysis.Analyzer{a}, checks, Settings{Enable: []string{"FK1"}})
	require.NoError(t, err)
	assert.Equal(t, []string{"FK1"}, runOnce(t, as[0]))

	as, err = Select([]*analysis.Analyzer{a}, checks, Settings{})
	require.NoError(t, err)
	assert.Equal(t, []string{"FK1", "FK2"}, runOnce(t, as[0]))

	_, err = Select([]*analysis.Analyzer{a}, checks, Settings{Disable: []string{"FK1", "FK2"}})
	assert.ErrorContains(t, err, "every analyzer off")
}
