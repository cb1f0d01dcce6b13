package testmainenv

import (
	"os"
	"testing"
)

func TestMain(m *testing.M) { // want TestMain:"guardsTests"
	os.Setenv("HSA_XNACK", "1")
	os.Exit(m.Run())
}

func TestRun(t *testing.T) {
	Run(16)
}

func BenchmarkRun(b *testing.B) {
	for range b.N {
		Run(16)
	}
}
