// Package plugin is hiplint as a golangci-lint v2 module plugin.
//
// Build a golangci-lint that contains it with `golangci-lint custom` and a
// .custom-gcl.yml that names this package (see docs/golangci-lint.md), then
// enable the linter "hiplint" in .golangci.yml:
//
//	linters:
//	  enable: [hiplint]
//	  settings:
//	    custom:
//	      hiplint:
//	        type: module
//	        description: misuse of the HIP and CUDA runtime APIs through cgo
//	        settings:
//	          disable: [HL4002]          # analyzer names or check IDs
//	          flags: {memcpysync.strict: "true"}
//
// golangci-lint reports every finding under the linter name "hiplint" and
// applies its own //nolint comments (//nolint:hiplint) itself. hiplint's
// //hiplint:ignore and //hiplint:file-ignore directives work too: the
// analyzers apply them as they report (internal/diag).
package plugin

import (
	"fmt"
	"slices"
	"strings"

	"github.com/golangci/plugin-module-register/register"
	"github.com/hiplint/hiplint/analyzers"
	"github.com/hiplint/hiplint/internal/diag"
	"github.com/hiplint/hiplint/internal/directive"
	"golang.org/x/tools/go/analysis"
)

func init() {
	register.Plugin("hiplint", New)
}

// Settings are the plugin's settings in .golangci.yml.
type Settings struct {
	// Enable lists the analyzers (modulebalance) and check IDs (HL2001) to
	// run; empty means all of them.
	Enable []string `json:"enable"`
	// Disable lists analyzers and check IDs not to run or report, after
	// Enable.
	Disable []string `json:"disable"`
	// Flags sets analyzer flags, as -NAME.FLAG does on hiplint's command
	// line: {"memcpysync.strict": "true"}.
	Flags map[string]string `json:"flags"`
}

// Plugin is the hiplint linter for golangci-lint.
type Plugin struct {
	analyzers []*analysis.Analyzer
}

// New decodes the settings and selects the analyzers.
func New(settings any) (register.LinterPlugin, error) {
	s, err := register.DecodeSettings[Settings](settings)
	if err != nil {
		return nil, fmt.Errorf("hiplint: %w", err)
	}
	as, err := Select(analyzers.Suite(), analyzers.Checks(), s)
	if err != nil {
		return nil, fmt.Errorf("hiplint: %w", err)
	}
	return &Plugin{analyzers: as}, nil
}

// BuildAnalyzers returns the selected analyzers.
func (p *Plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) { return p.analyzers, nil }

// GetLoadMode says that the analyzers need type information.
func (p *Plugin) GetLoadMode() string { return register.LoadModeTypesInfo }

// Select returns the analyzers of suite that s enables. An analyzer with
// only some of its checks enabled is wrapped so that it reports only those.
// checks lists every check ID with its analyzer.
func Select(suite []*analysis.Analyzer, checks []diag.Check, s Settings) ([]*analysis.Analyzer, error) {
	byName := make(map[string]*analysis.Analyzer, len(suite))
	for _, a := range suite {
		byName[a.Name] = a
	}
	idsOf := make(map[string][]string) // analyzer -> its check IDs
	analyzerOf := make(map[string]string)
	for _, c := range checks {
		if byName[c.Analyzer] != nil {
			idsOf[c.Analyzer] = append(idsOf[c.Analyzer], c.ID)
			analyzerOf[c.ID] = c.Analyzer
		}
	}
	// resolve turns a name into the check IDs it stands for.
	resolve := func(name string) ([]string, error) {
		if ids, ok := idsOf[name]; ok {
			return ids, nil
		}
		if _, ok := byName[name]; ok {
			return nil, nil // an analyzer without listed checks
		}
		if analyzerOf[name] != "" {
			return []string{name}, nil
		}
		if directive.IsDirectiveCheck(name) {
			return nil, fmt.Errorf("%s is reported only by the standalone hiplint command, not under golangci-lint", name)
		}
		return nil, fmt.Errorf("unknown analyzer or check ID %q; analyzers: %s", name, strings.Join(names(suite), ", "))
	}

	enabled := map[string]bool{} // check IDs
	enabledAnalyzers := map[string]bool{}
	if len(s.Enable) == 0 {
		for _, a := range suite {
			enabledAnalyzers[a.Name] = true
			for _, id := range idsOf[a.Name] {
				enabled[id] = true
			}
		}
	}
	for _, name := range s.Enable {
		ids, err := resolve(name)
		if err != nil {
			return nil, fmt.Errorf("enable: %w", err)
		}
		if byName[name] != nil {
			enabledAnalyzers[name] = true
		}
		for _, id := range ids {
			enabled[id] = true
			enabledAnalyzers[analyzerOf[id]] = true
		}
	}
	for _, name := range s.Disable {
		ids, err := resolve(name)
		if err != nil {
			return nil, fmt.Errorf("disable: %w", err)
		}
		if byName[name] != nil {
			delete(enabledAnalyzers, name)
		}
		for _, id := range ids {
			delete(enabled, id)
		}
	}

	for name, value := range s.Flags {
		an, flagName, ok := strings.Cut(name, ".")
		a := byName[an]
		if !ok || a == nil || a.Flags.Lookup(flagName) == nil {
			return nil, fmt.Errorf("flags: unknown analyzer flag %q", name)
		}
		if err := a.Flags.Set(flagName, value); err != nil {
			return nil, fmt.Errorf("flags: %s: %v", name, err)
		}
	}

	var out []*analysis.Analyzer
	for _, a := range suite {
		ids := idsOf[a.Name]
		var keep []string
		for _, id := range ids {
			if enabled[id] {
				keep = append(keep, id)
			}
		}
		switch {
		case !enabledAnalyzers[a.Name] || len(ids) > 0 && len(keep) == 0:
			// off
		case len(keep) == len(ids):
			out = append(out, a)
		default:
			out = append(out, onlyChecks(a, keep))
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("the settings turn every analyzer off")
	}
	return out, nil
}

// onlyChecks returns a copy of a that reports only diagnostics whose
// Category is one of ids. The copy runs the original's Run on a pass that
// names the original, so that the analyzer finds its own flags; its
// prerequisites and facts are the original's.
func onlyChecks(a *analysis.Analyzer, ids []string) *analysis.Analyzer {
	c := *a
	c.Run = func(pass *analysis.Pass) (any, error) {
		view := *pass
		view.Analyzer = a
		report := pass.Report
		view.Report = func(d analysis.Diagnostic) {
			if slices.Contains(ids, d.Category) {
				report(d)
			}
		}
		return a.Run(&view)
	}
	return &c
}

func names(as []*analysis.Analyzer) []string {
	var out []string
	for _, a := range as {
		out = append(out, a.Name)
	}
	return out
}
