package extunguarded_test

import (
	"testing"

	"xnack/extunguarded"
	"xnack/kernels"
)

func TestMallocExternal(t *testing.T) {
	kernels.LaunchMalloc(extunguarded.Size()) // want `TestMallocExternal reaches system memory`
}
