package flow

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSubset(t *testing.T) {
	assert.True(t, Subset([]int{2, 1}, []int{1, 2, 3}))
	assert.True(t, Subset(nil, []int{1}))
	assert.True(t, Subset[int](nil, nil))
	assert.False(t, Subset([]int{1, 4}, []int{1, 2, 3}))
	assert.False(t, Subset([]any{"a"}, nil))
}
