package modulebalance

import (
	"go/token"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/flow"
	"github.com/hiplint/hiplint/internal/testenv/assert"
)

// TestSharedHandles: states share their handles; a change goes to a copy
// (own), and a join copies a handle only when it adds to it. Copies share
// their lists of sites and status keys, which add never changes in place.
func TestSharedHandles(t *testing.T) {
	var p flow.Problem[state]
	flow.ShareValues(&p, (*handle).clone, (*handle).covers, (*handle).join, (*handle).same)
	m := flow.Loc{Root: types.NewVar(token.NoPos, nil, "m", types.Typ[types.Int])}
	a := state{m: {b: pending, sites: []int{0}, status: []any{"err"}}}

	c := p.Clone(a)
	assert.Same(t, a[m], c[m], "a clone shares the handle")
	own(c, m).b = loaded
	assert.Equal(t, pending, a[m].b, "the change went to a copy")
	assert.Equal(t, loaded, c[m].b)
	assert.Equal(t, a[m].status, c[m].status, "copies share their lists")
	c[m].add([]int{0}, []any{"ok"})
	assert.Equal(t, []any{"err"}, a[m].status, "a list is never changed in place")
	assert.Equal(t, []any{"err", "ok"}, c[m].status)

	into := p.Clone(a)
	p.Join(into, state{m: {b: pending, sites: []int{0}}})
	assert.Same(t, a[m], into[m], "a join that adds nothing leaves the shared handle")
	p.Join(into, state{m: {b: loaded, sites: []int{1}, unloadAt: 5}})
	assert.NotSame(t, a[m], into[m])
	assert.Equal(t, pending|loaded, into[m].b)
	assert.Equal(t, []int{0, 1}, into[m].sites)
	assert.Equal(t, token.Pos(5), into[m].unloadAt)
	assert.Equal(t, pending, a[m].b, "the shared handle is unchanged")
	assert.Equal(t, []int{0}, a[m].sites)
	assert.False(t, p.Equal(a, into))
}
