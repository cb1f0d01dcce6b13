// Package analyzers lists hiplint's analyzers: Suite is the one list that every
// driver (the hiplint binary, go vet -vettool, golangci-lint, nogo) uses.
package analyzers

import (
	"fmt"
	"os"
	"runtime/debug"
	"sort"

	"github.com/hiplint/hiplint/analyzers/graphfree"
	"github.com/hiplint/hiplint/analyzers/memcpysync"
	"github.com/hiplint/hiplint/analyzers/modulebalance"
	"github.com/hiplint/hiplint/analyzers/xnack"
	"github.com/hiplint/hiplint/internal/config"
	"github.com/hiplint/hiplint/internal/diag"
	"github.com/hiplint/hiplint/internal/directive"
	"golang.org/x/tools/go/analysis"
)

func init() {
	for _, a := range withRequired(append(Suite(), Candidates()...)) {
		a.Run = contained(a.Name, a.Run)
	}
	// The configuration (internal/config) knows every check and flag, and
	// a malformed hiplint.toml fails the analyzers under every driver.
	byAnalyzer := map[string][]string{}
	for _, c := range Checks() {
		byAnalyzer[c.Analyzer] = append(byAnalyzer[c.Analyzer], c.ID)
	}
	for _, a := range Suite() {
		config.Register(a.Name, byAnalyzer[a.Name], &a.Flags)
		a.Run = configured(a.Run)
	}
	config.Register("directive", byAnalyzer["directive"], nil)
	for _, a := range Candidates() {
		a.Run = configured(a.Run)
	}
}

// configured returns run preceded by loading the configuration in effect
// for the pass: a hiplint.toml that does not parse is the analyzer's error
// (a *config.Error), and nothing is reported.
func configured(run func(*analysis.Pass) (any, error)) func(*analysis.Pass) (any, error) {
	return func(pass *analysis.Pass) (any, error) {
		if _, err := config.ForPass(pass); err != nil {
			return nil, err
		}
		return run(pass)
	}
}

// withRequired returns as and the analyzers they require, directly or not
// (the engine's, such as flow.Getters), each once.
func withRequired(as []*analysis.Analyzer) []*analysis.Analyzer {
	seen := map[*analysis.Analyzer]bool{}
	var out []*analysis.Analyzer
	for len(as) > 0 {
		a := as[0]
		as = as[1:]
		if seen[a] {
			continue
		}
		seen[a] = true
		out = append(out, a)
		as = append(as, a.Requires...)
	}
	return out
}

// Required returns the analyzers the suite requires that are not part of
// it: the engine's, which report nothing themselves.
func Required() []*analysis.Analyzer {
	own := map[*analysis.Analyzer]bool{}
	all := append(Suite(), Candidates()...)
	for _, a := range all {
		own[a] = true
	}
	var out []*analysis.Analyzer
	for _, a := range withRequired(all) {
		if !own[a] {
			out = append(out, a)
		}
	}
	return out
}

// contained returns run with its panics turned into a *PanicError naming
// the analyzer and the package, so that one analyzer's bug on one package
// does not end the whole run under any driver: go vet (unitchecker),
// golangci-lint, nogo and hiplint's own all run analyzers on goroutines
// that do not recover. It is installed once, when this package is
// initialized, in the Run of every analyzer that Suite and Candidates
// return; the analyzer packages' own tests see the bare Run, so that a
// panic fails them loudly.
func contained(name string, run func(*analysis.Pass) (any, error)) func(*analysis.Pass) (any, error) {
	return func(pass *analysis.Pass) (result any, err error) {
		defer func() {
			if r := recover(); r != nil {
				pkg := "?"
				if pass != nil && pass.Pkg != nil {
					pkg = pass.Pkg.Path()
				}
				result, err = nil, &PanicError{
					Analyzer: name, Package: pkg, Value: r,
					Stack:     debug.Stack(),
					withStack: os.Getenv("HIPLINT_DEBUG") != "",
				}
			}
		}()
		return run(pass)
	}
}

// Contain returns a copy of a whose Run turns a panic into a *PanicError,
// for analyzers that are not in the suite (tests, other drivers' own).
func Contain(a *analysis.Analyzer) *analysis.Analyzer {
	c := *a
	c.Run = contained(a.Name, a.Run)
	return &c
}

// A PanicError is an analyzer's panic, recovered.
type PanicError struct {
	Analyzer, Package string
	Value             any
	Stack             []byte // the panicking goroutine's stack
	withStack         bool   // HIPLINT_DEBUG is set: Error includes Stack (go vet prints only Error)
}

func (e *PanicError) Error() string {
	msg := fmt.Sprintf("internal error: analyzer %s panicked on package %s: %v", e.Analyzer, e.Package, e.Value)
	if e.withStack {
		msg += "\n" + string(e.Stack)
	}
	return msg
}

// Suite returns every hiplint analyzer.
func Suite() []*analysis.Analyzer {
	return []*analysis.Analyzer{
		graphfree.Analyzer,
		memcpysync.Analyzer,
		modulebalance.Analyzer,
		xnack.Analyzer,
	}
}

// Candidates returns the suite in candidate mode, for hiplint confirm -silent:
// each analyzer reports every site it checks, including those it finds safe
// (syncs, unloads, graph allocations and XNACK guards do not count), so that
// confirm can judge hiplint's silence too. Never used for linting.
func Candidates() []*analysis.Analyzer {
	return []*analysis.Analyzer{
		graphfree.Candidates,
		memcpysync.Candidates,
		modulebalance.Candidates,
		xnack.Candidates,
	}
}

// Checks returns every check ID reported by the suite, and those the
// standalone driver reports about suppression directives (HL0001...), sorted
// by ID.
func Checks() []diag.Check {
	var all []diag.Check
	all = append(all, directive.Checks...)
	all = append(all, graphfree.Checks...)
	all = append(all, memcpysync.Checks...)
	all = append(all, modulebalance.Checks...)
	all = append(all, xnack.Checks...)
	sort.Slice(all, func(i, j int) bool { return all[i].ID < all[j].ID })
	return all
}
