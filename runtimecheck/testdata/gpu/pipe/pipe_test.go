package pipe

import "testing"

// TestPipe is table-driven: go test names its subtests TestPipe/no_wait and
// TestPipe/event_wait, and confirm runs and judges each alone.
func TestPipe(t *testing.T) {
	for _, tc := range []struct {
		name string
		read func() byte
	}{
		{"no wait", Unordered},
		{"event wait", Ordered},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.read(); got != Fill {
				t.Errorf("tail byte %d, want %d: the copy had not landed", got, Fill)
			}
		})
	}
}
