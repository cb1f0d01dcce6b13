package modulebalance

import (
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

func TestSubset(t *testing.T) {
	assert.True(t, subset([]int{2, 1}, []int{1, 2, 3}))
	assert.True(t, subset(nil, []int{1}))
	assert.True(t, subset[int](nil, nil))
	assert.False(t, subset([]int{1, 4}, []int{1, 2, 3}))
	assert.False(t, subset([]any{"a"}, nil))
}
