package usercode

import (
	"os"
	"testing"
)

func TestMain(m *testing.M) {
	Mark("TestMain")
	os.Exit(m.Run())
}

func TestLeak(t *testing.T) {
	Mark("TestLeak")
	Leak()
}
