package flow

import (
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

func TestAppendNew(t *testing.T) {
	assert.Equal(t, []int{1, 2, 3}, AppendNew([]int{1, 2}, 2, 3, 3, 1))
	assert.Nil(t, AppendNew[int](nil))
	assert.Equal(t, []any{"a", 1}, AppendNew(nil, any("a"), any(1), any("a")))
}
