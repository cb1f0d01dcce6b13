package extunguarded_test

import (
	"testing"

	"xnack/extunguarded"
)

func TestMallocExternal(t *testing.T) {
	extunguarded.Run(16) // want `TestMallocExternal reaches system memory`
}
