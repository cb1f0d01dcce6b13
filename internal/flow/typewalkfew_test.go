package flow

import (
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

// TestTypeWalkSeen: a walk enters each type once, whether it sits among
// the first few types seen (kept in an array) or past them (in the map).
func TestTypeWalkSeen(t *testing.T) {
	var ts []types.Type
	var elem types.Type = types.Typ[types.Int]
	for range 20 {
		elem = types.NewPointer(elem) // each a new *types.Pointer
		ts = append(ts, elem)
	}
	var w typeWalk
	for i, typ := range ts {
		assert.True(t, w.Enter(typ), "type %d entered", i)
		for j, seen := range ts[:i+1] {
			assert.False(t, w.Enter(seen), "type %d entered again after %d", j, i)
		}
	}
	assert.Equal(t, len(ts), w.n)
	assert.False(t, w.Enter(nil))
	assert.False(t, w.Cut)
	// The count of types entered still bounds the walk.
	w = typeWalk{n: maxTypeWalk}
	assert.False(t, w.Enter(types.Typ[types.Int]))
	assert.True(t, w.Cut)
}
