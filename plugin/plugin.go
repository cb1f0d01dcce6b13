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
//	          checks: ["all", "-HL4002"] # staticcheck's syntax (docs/config.md)
//	          flags:
//	            memcpysync:
//	              strict: true
//
// golangci-lint reads .golangci.yml with viper, which splits a dotted key
// (memcpysync.strict) into nested maps and lower-cases keys: flags are
// accepted nested and dotted alike. The package's hiplint.toml files apply
// too (internal/config), before these settings.
//
// golangci-lint reports every finding under the linter name "hiplint" and
// applies its own //nolint comments (//nolint:hiplint) itself. It would turn
// each related position of a finding into an issue of its own, which
// //nolint on the finding's line does not reach; so the plugin folds the
// related positions into the finding's message, one issue per finding.
// hiplint's //hiplint:ignore and //hiplint:file-ignore directives work too:
// the analyzers apply them as they report (internal/diag).
package plugin

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/golangci/plugin-module-register/register"
	"github.com/hiplint/hiplint/analyzers"
	"github.com/hiplint/hiplint/internal/config"
	"github.com/hiplint/hiplint/internal/diag"
	"github.com/hiplint/hiplint/internal/directive"
	"golang.org/x/tools/go/analysis"
)

func init() {
	register.Plugin("hiplint", New)
}

// Settings are the plugin's settings in .golangci.yml.
type Settings struct {
	// Checks selects check IDs with staticcheck's syntax, left to right:
	// ["all", "-HL4002"], ["HL2*"]; "inherit" stands for the package's
	// hiplint.toml selection. Absent: the hiplint.toml's, else all.
	Checks []string `json:"checks"`
	// Enable lists the analyzers (modulebalance) and check IDs (HL2001) to
	// run; empty means all of them.
	Enable []string `json:"enable"`
	// Disable lists analyzers and check IDs not to run or report, after
	// Enable.
	Disable []string `json:"disable"`
	// Flags sets analyzer flags, as -NAME.FLAG does on hiplint's command
	// line: {"memcpysync": {"strict": true}}, or with dotted keys
	// {"memcpysync.strict": "true"} (which viper turns into the former).
	Flags map[string]any `json:"flags"`
}

// Plugin is the hiplint linter for golangci-lint.
type Plugin struct {
	analyzers []*analysis.Analyzer
}

// flatFlags returns the flags as "analyzer.flag" -> value, nested maps
// joined with dots, scalar values in their flag syntax.
func flatFlags(m map[string]any) (map[string]string, error) {
	out := map[string]string{}
	var walk func(prefix string, m map[string]any) error
	walk = func(prefix string, m map[string]any) error {
		for k, v := range m {
			name := k
			if prefix != "" {
				name = prefix + "." + k
			}
			switch v := v.(type) {
			case map[string]any:
				if err := walk(name, v); err != nil {
					return err
				}
			case string:
				out[name] = v
			case bool, int, int64, uint64, float64:
				out[name] = fmt.Sprint(v)
			default:
				return fmt.Errorf("flags: %s: want a string, a boolean or a number, not %T", name, v)
			}
		}
		return nil
	}
	return out, walk("", m)
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

// reportFolded folds d's related positions into its message, in the order
// they were given, so that golangci-lint makes one issue of it.
func reportFolded(pass *analysis.Pass, report func(analysis.Diagnostic), d analysis.Diagnostic) {
	if len(d.Related) > 0 {
		dir := filepath.Dir(pass.Fset.Position(d.Pos).Filename)
		var parts []string
		for _, r := range d.Related {
			posn := pass.Fset.Position(r.Pos)
			if filepath.Dir(posn.Filename) == dir {
				posn.Filename = filepath.Base(posn.Filename)
			}
			parts = append(parts, posn.String()+": "+r.Message)
		}
		d.Message += " (" + strings.Join(parts, "; ") + ")"
		d.Related = nil
	}
	report(d)
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

	flags, err := flatFlags(s.Flags)
	if err != nil {
		return nil, err
	}
	for _, name := range slices.Sorted(maps.Keys(flags)) {
		value := flags[name]
		an, flagName, ok := strings.Cut(name, ".")
		a := byName[an]
		if !ok || a == nil || a.Flags.Lookup(flagName) == nil {
			return nil, fmt.Errorf("flags: unknown analyzer flag %q", name)
		}
		if err := a.Flags.Set(flagName, value); err != nil {
			return nil, fmt.Errorf("flags: %s: %v", name, err)
		}
	}
	if s.Checks != nil {
		if err := config.ValidateChecks(s.Checks, true); err != nil {
			return nil, err
		}
	}
	override := &config.Override{Checks: s.Checks, Flags: flags}

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
			out = append(out, wrap(a, nil, override))
		default:
			out = append(out, wrap(a, keep, override))
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("the settings turn every analyzer off")
	}
	return out, nil
}

// wrap returns a copy of a for golangci-lint: it reports only diagnostics
// whose Category is one of ids (nil: all), each with its related positions
// folded into its message (reportFolded), and its passes carry the
// settings' checks and flags (config.Attach), applied after the package's
// hiplint.toml. The copy runs the original's Run on a pass that names the
// original, so that the analyzer finds its own flags; its prerequisites
// and facts are the original's.
func wrap(a *analysis.Analyzer, ids []string, override *config.Override) *analysis.Analyzer {
	c := *a
	c.Run = func(pass *analysis.Pass) (any, error) {
		view := *pass
		view.Analyzer = a
		view.ResultOf = maps.Clone(pass.ResultOf) // Attach writes into it
		config.Attach(&view, override)
		report := pass.Report
		view.Report = func(d analysis.Diagnostic) {
			if ids == nil || slices.Contains(ids, d.Category) {
				reportFolded(pass, report, d)
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
