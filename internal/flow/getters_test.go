package flow_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hiplint/hiplint/internal/flow"
	"golang.org/x/tools/go/analysis/analysistest"
)

// TestGettersFacts: flow.Getters' facts on cgo code, for the getter shapes
// memcpysync's testdata had as its own returnsParam facts. Facts that land
// in cgo's generated files (the package's Involved fact, at its first file,
// and cgo's own helpers) have no line to annotate and are left out.
func TestGettersFacts(t *testing.T) {
	analysistest.Run(cgoFiltered{t}, analysistest.TestData(), flow.Getters, "getters")
}

type cgoFiltered struct{ *testing.T }

func (t cgoFiltered) Errorf(format string, args ...any) {
	if msg := fmt.Sprintf(format, args...); !strings.Contains(msg, "go-build") {
		t.T.Error(msg)
	}
}
