package copysync

import "testing"

func TestStaleStream(t *testing.T) {
	if got := StaleStream(); got != 1 {
		t.Errorf("read %d from the copy's destination, want 1: the copy had not landed", got)
	}
}

func TestSyncedStream(t *testing.T) {
	if got := SyncedStream(); got != 1 {
		t.Errorf("read %d, want 1", got)
	}
}

func TestStaleHost(t *testing.T) {
	if got := StaleHost(); got != 1 {
		t.Errorf("read %d from the copy's destination, want 1: the copy had not landed", got)
	}
}

func TestSyncedHost(t *testing.T) {
	if got := SyncedHost(); got != 1 {
		t.Errorf("read %d, want 1", got)
	}
}
