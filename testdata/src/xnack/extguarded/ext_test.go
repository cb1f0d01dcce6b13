package extguarded_test

import (
	"testing"

	"xnack/extguarded"
	"xnack/kernels"
)

func TestMallocExternal(t *testing.T) {
	kernels.LaunchMalloc(extguarded.Size())
}
