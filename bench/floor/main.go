// Command floor is the fact-free floor of hiplint's benchmarks (issue 33):
// x/tools' multichecker, as any go/analysis suite builds it, with one
// analyzer that has no facts and does nothing. With no facts to carry, the
// checker loads only the packages named on the command line from syntax
// and every dependency from the compiler's export data (go list -export),
// as go vet and staticcheck do: what a user already pays for a linter that
// needs no cross-package facts.
//
// It is built from the x/tools of hiplint's own module (go.mod), so that
// the floor and hiplint load with the same go/packages. bench/noop, which
// loads every dependency from syntax as hiplint once did, is the second
// column of bench/run.sh.
//
// Usage: floor [multichecker flags] packages...
package main

import (
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/multichecker"
)

var nothing = &analysis.Analyzer{
	Name: "nothing",
	Doc:  "does nothing: the floor's one analyzer, without facts",
	Run:  func(*analysis.Pass) (any, error) { return nil, nil },
}

func main() { multichecker.Main(nothing) }
