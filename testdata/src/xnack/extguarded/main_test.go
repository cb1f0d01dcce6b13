package extguarded

import (
	"os"
	"testing"
)

func TestMain(m *testing.M) { // want TestMain:"guardsTests"
	os.Setenv("HSA_XNACK", "1")
	os.Exit(m.Run())
}
