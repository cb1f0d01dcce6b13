package extguarded_test

import (
	"testing"

	"xnack/extguarded"
)

func TestMallocExternal(t *testing.T) {
	extguarded.Run(16)
}
