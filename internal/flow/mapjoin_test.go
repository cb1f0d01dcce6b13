package flow

import (
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

func TestMapJoins(t *testing.T) {
	var into map[string]int
	sum := func(a, b int) int { return a + b }
	joinUnion(&into, map[string]int{"a": 1}, sum, nil)
	joinUnion(&into, map[string]int{"a": 2, "b": 3}, sum, func(v int) int { return v * 10 })
	assert.Equal(t, map[string]int{"a": 3, "b": 30}, into)

	both := map[string]int{"a": 1, "b": 2}
	JoinIntersect(both, map[string]int{"b": 5, "c": 7}, sum)
	assert.Equal(t, map[string]int{"b": 7}, both)
}
