package graphfree

import (
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

func TestReachable(t *testing.T) {
	edges := map[int][]int{0: {1, 2}, 1: {3}, 2: {3}, 3: {}, 4: {0}, 5: {6}, 6: {5}}
	succs := func(n int) ([]int, bool) { e, ok := edges[n]; return e, ok }
	seen, ok := reachable(0, succs)
	assert.True(t, ok)
	assert.Equal(t, map[int]bool{1: true, 2: true, 3: true}, seen)
	seen, ok = reachable(5, succs)
	assert.True(t, ok)
	assert.Equal(t, map[int]bool{5: true, 6: true}, seen, "a cycle leads back to the start")
	edges[3] = nil
	delete(edges, 3)
	_, ok = reachable(4, succs)
	assert.False(t, ok, "node 3's successors are unknown")
}
