package flow

import (
	"slices"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

// TestShareValues: states share their values; a change goes to a copy
// (Own), and a join copies a value only when it adds to it.
func TestShareValues(t *testing.T) {
	type v struct{ sites []int }
	clone := func(x *v) *v { return &v{sites: slices.Clone(x.sites)} }
	covers := func(a, b *v) bool {
		return !slices.ContainsFunc(b.sites, func(i int) bool { return !slices.Contains(a.sites, i) })
	}
	merge := func(a, b *v) *v { a.sites = AppendNew(a.sites, b.sites...); return a }
	same := func(a, b *v) bool { return slices.Equal(a.sites, b.sites) }
	var p Problem[map[string]*v]
	ShareValues(&p, clone, covers, merge, same)

	a := map[string]*v{"x": {sites: []int{1}}}
	c := p.Clone(a)
	assert.Same(t, a["x"], c["x"], "a clone shares the value")
	Own(c, "x", clone).sites[0] = 9
	assert.Equal(t, []int{1}, a["x"].sites, "the change went to a copy")
	assert.Equal(t, []int{9}, c["x"].sites)
	assert.NotNil(t, p.Clone(nil), "a clone can be written into")

	into := p.Clone(a)
	p.Join(into, map[string]*v{"x": {sites: []int{1}}})
	assert.Same(t, a["x"], into["x"], "a join that adds nothing leaves the shared value")
	y := &v{sites: []int{3}}
	p.Join(into, map[string]*v{"x": {sites: []int{2}}, "y": y})
	assert.Equal(t, []int{1, 2}, into["x"].sites)
	assert.Equal(t, []int{1}, a["x"].sites, "the shared value is unchanged")
	assert.Same(t, y, into["y"], "a value only from is shared")
	assert.False(t, p.Equal(a, into))
	assert.True(t, p.Equal(into, p.Clone(into)))
}
