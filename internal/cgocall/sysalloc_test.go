package cgocall

import "testing"

func TestIsSystemAlloc(t *testing.T) {
	for name, want := range map[string]bool{"malloc": true, "mmap": true, "CString": true, "realloc": true,
		"free": false, "hipMalloc": false, "": false} {
		if got := IsSystemAlloc(name); got != want {
			t.Errorf("IsSystemAlloc(%q) = %v, want %v", name, got, want)
		}
	}
}
