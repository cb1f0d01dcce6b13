package graphfree

import (
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

func TestMeetGroups(t *testing.T) {
	type el struct {
		pos  int
		kind string
	}
	list := func(f []el) []el { return f }
	key := func(e el) int { return e.pos }
	same := func(es []el) bool {
		for _, e := range es {
			if e.kind != es[0].kind {
				return false
			}
		}
		return true
	}
	a := []el{{0, "x"}, {1, "y"}, {2, "z"}, {0, "x"}}
	b := []el{{1, "y"}, {0, "x"}, {2, "w"}}
	c := []el{{0, "x"}, {2, "z"}}
	// Position 0 agrees everywhere (all its elements kept), 1 is missing
	// from c, 2 disagrees.
	assert.Equal(t, []el{{0, "x"}, {0, "x"}, {0, "x"}, {0, "x"}}, meetGroups([][]el{a, b, c}, list, key, same))
	assert.Equal(t, []el{{0, "x"}, {0, "x"}, {0, "x"}, {1, "y"}, {1, "y"}}, meetGroups([][]el{a, b}, list, key, same))
	assert.Nil(t, meetGroups([][]el{}, list, key, same))
}
