package flow

import "go/types"

// Exporter is a summary table (Table) as far as exporting goes.
type Exporter interface{ Export(funcs []*types.Func) }

// ExportAll exports the non-empty summaries of funcs from each table, in
// the order given: an analyzer's facts of one package at once.
func ExportAll(funcs []*types.Func, tables ...Exporter) {
	for _, t := range tables {
		t.Export(funcs)
	}
}
