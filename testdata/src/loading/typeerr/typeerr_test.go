package typeerr

import "testing"

// The test variant repeats the package's type error: it is printed once.
func TestNothing(t *testing.T) {}
