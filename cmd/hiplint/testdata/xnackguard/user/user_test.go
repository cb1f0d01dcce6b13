package user

import (
	"testing"

	"github.com/hiplint/hiplint/xnackguard"
)

func TestSkipHelper(t *testing.T) {
	xnackguard.SkipUnlessXNACK(t)
	Managed(1 << 20)
}

func TestGcnArchName(t *testing.T) {
	if !xnackguard.Enabled(0) {
		t.Skip("XNACK is off")
	}
	Managed(1 << 20)
}

func TestPageableMemoryAccess(t *testing.T) {
	ok, err := xnackguard.PageableMemoryAccess(0)
	if err != nil || !ok {
		t.Skip("no pageable memory access")
	}
	Managed(1 << 20)
}

func TestUnguarded(t *testing.T) {
	Managed(1 << 20) // hazard: HL4004
}
