package flow

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestUnionMaps(t *testing.T) {
	type v struct{ sites []int }
	var p Problem[map[string]*v]
	UnionMaps(&p, func(dst, src *v) { dst.sites = slices.Clone(src.sites) },
		func(a, b *v) *v { a.sites = AppendNew(a.sites, b.sites...); return a },
		func(a, b *v) bool { return slices.Equal(a.sites, b.sites) })

	a := map[string]*v{"x": {sites: []int{1}}}
	b := map[string]*v{"x": {sites: []int{2}}, "y": {sites: []int{3}}}
	c := p.Clone(a)
	assert.True(t, p.Equal(a, c))
	c["x"].sites[0] = 9
	assert.Equal(t, 1, a["x"].sites[0]) // the clone shares nothing

	j := p.Join(p.Clone(a), b)
	assert.Equal(t, []int{1, 2}, j["x"].sites) // merged
	assert.Equal(t, []int{3}, j["y"].sites)    // only from: copied
	j["y"].sites[0] = 7
	assert.Equal(t, 3, b["y"].sites[0])
	assert.False(t, p.Equal(a, j))

	empty := p.Clone(nil)
	empty["z"] = &v{} // a clone is never nil
	assert.Len(t, empty, 1)
}
