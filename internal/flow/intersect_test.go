package flow

import (
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

func TestIntersect(t *testing.T) {
	assert.Equal(t, []int{3, 1}, Intersect([]int{3, 2, 1}, []int{1, 3, 4}), "a's order")
	assert.Empty(t, Intersect([]int{1, 2}, nil))
	assert.Empty(t, Intersect(nil, []int{1}))
	assert.Equal(t, []string{"x", "x"}, Intersect([]string{"x", "y", "x"}, []string{"x"}), "duplicates in a stay")
}
