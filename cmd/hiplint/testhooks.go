//go:build hiplint_testhooks

package main

import (
	"os"
	"time"

	"golang.org/x/tools/go/analysis"
)

// Test hooks, compiled only into the binary that cmd/hiplint's tests build
// with -tags hiplint_testhooks (hookedBin); the hiplint users get has none.

func init() {
	testAnalyzers = func() []*analysis.Analyzer {
		marker := os.Getenv("HIPLINT_TEST_STALL")
		if marker == "" {
			return nil
		}
		return []*analysis.Analyzer{{
			Name: "teststall",
			Doc:  "test hook: creates the file $HIPLINT_TEST_STALL, then never returns: an analysis that cannot be interrupted",
			Run: func(*analysis.Pass) (any, error) {
				if f, err := os.Create(marker); err == nil {
					f.Close()
				}
				for {
					time.Sleep(time.Minute)
				}
			},
		}}
	}
}
