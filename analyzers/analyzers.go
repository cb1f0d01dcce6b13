// Package analyzers lists hiplint's analyzers: Suite is the one list that every
// driver (the hiplint binary, go vet -vettool, golangci-lint, nogo) uses.
package analyzers

import (
	"sort"

	"github.com/hiplint/hiplint/analyzers/graphfree"
	"github.com/hiplint/hiplint/analyzers/memcpysync"
	"github.com/hiplint/hiplint/analyzers/modulebalance"
	"github.com/hiplint/hiplint/analyzers/xnack"
	"github.com/hiplint/hiplint/internal/diag"
	"github.com/hiplint/hiplint/internal/directive"
	"golang.org/x/tools/go/analysis"
)

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
