package capfields

import "testing"

func TestFieldGuard(t *testing.T) {
	if !query().xnack {
		t.Skip("XNACK is off")
	}
	launchHost(64)
}

func TestPageableField(t *testing.T) {
	if !query().pageable {
		t.Skip("no pageable memory access")
	}
	launchHost(64)
}

func TestAccessor(t *testing.T) {
	if !usable() {
		t.Skip("XNACK is off")
	}
	launchHost(64)
}

func TestManagedField(t *testing.T) {
	if !query().managed { // want `hipDeviceAttributeManagedMemory reports HMM`
		t.Skip("no managed memory")
	}
	launchHost(64)
}

func TestFlagField(t *testing.T) {
	if !query().fast {
		t.Skip("slow")
	}
	launchHost(64) // want `TestFlagField reaches system memory`
}
