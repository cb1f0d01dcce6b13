package xnack

import (
	"cmp"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

func TestSortedSet(t *testing.T) {
	type kv struct{ k, v int }
	byKey := func(a, b kv) int { return cmp.Compare(a.k, b.k) }
	got := sortedSet([]kv{{2, 0}, {1, 0}, {2, 1}, {1, 1}, {3, 0}}, byKey)
	assert.Equal(t, []kv{{1, 0}, {2, 0}, {3, 0}}, got)
	assert.Empty(t, sortedSet(nil, byKey))
}
