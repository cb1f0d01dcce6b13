package flow

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestClonePointers(t *testing.T) {
	type v struct{ list []int }
	m := map[string]*v{"a": {list: []int{1}}, "b": {list: []int{2, 3}}}
	c := ClonePointers(m, func(dst, src *v) { dst.list = slices.Clone(src.list) })
	assert.Equal(t, m, c)
	c["a"].list[0] = 9
	assert.Equal(t, 1, m["a"].list[0]) // deep-copied
	assert.NotSame(t, m["b"], c["b"])
	assert.NotNil(t, ClonePointers(map[string]*v{}, nil))
	c["new"] = &v{} // never nil: writable
}
