package memcpysync_test

import (
	"os"
	"testing"

	"github.com/hiplint/hiplint/analyzers/memcpysync"
	"golang.org/x/tools/go/analysis/analysistest"
)

func TestProbe(t *testing.T) {
	if os.Getenv("PROBE") == "" {
		t.Skip()
	}
	analysistest.Run(t, "/tmp/realcopy/td", memcpysync.Analyzer, os.Getenv("PROBE"))
}
