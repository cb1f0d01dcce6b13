package flow

import (
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

// TestCOW: clones share the map until one writes; a write goes to the
// writer's own copy, whichever side writes, and reads and deletes of what
// is not there copy nothing.
func TestCOW(t *testing.T) {
	var a COW[string, int]
	assert.Nil(t, a.Map())
	b := a.Clone()
	b.Set("x", 1)
	assert.Equal(t, 0, a.Len(), "the zero COW's clone writes its own map")
	assert.Equal(t, map[string]int{"x": 1}, b.Map())

	c := b.Clone()
	assert.True(t, sameMap(b.Map(), c.Map()), "a clone shares the map")
	c.Delete("absent")
	assert.True(t, sameMap(b.Map(), c.Map()), "deleting what is not there copies nothing")
	c.Set("y", 2)
	assert.False(t, sameMap(b.Map(), c.Map()), "a write copies")
	assert.Equal(t, map[string]int{"x": 1}, b.Map())
	assert.Equal(t, map[string]int{"x": 1, "y": 2}, c.Map())

	d := c.Clone()
	c.Delete("x") // the original writes after cloning: the clone keeps its contents
	assert.Equal(t, map[string]int{"y": 2}, c.Map())
	assert.Equal(t, map[string]int{"x": 1, "y": 2}, d.Map())
	v, ok := d.Get("x")
	assert.True(t, ok)
	assert.Equal(t, 1, v)

	m := d.Edit()
	m["z"] = 3
	assert.Equal(t, map[string]int{"x": 1, "y": 2, "z": 3}, d.Map())
	assert.Equal(t, map[string]int{"y": 2}, c.Map())
	assert.True(t, sameMap(m, d.Edit()), "an owned map is edited in place")
}

func sameMap(a, b map[string]int) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	a["\x00probe"] = 1
	_, ok := b["\x00probe"]
	delete(a, "\x00probe")
	return ok
}
