package copygo

import "testing"

//matrix:gpu conc-waitgroup copysync hazard
func TestStaleGo(t *testing.T) {
	if got := StaleGo(); got != 1 {
		t.Errorf("read %d from the copy's destination, want 1: the copy had not landed", got)
	}
}

//matrix:gpu conc-waitgroup copysync twin
func TestSyncedGo(t *testing.T) {
	if got := SyncedGo(); got != 1 {
		t.Errorf("read %d, want 1", got)
	}
}
