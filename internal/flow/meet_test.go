package flow

import (
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

func TestMeetLists(t *testing.T) {
	id := func(xs []int) []int { return xs }
	pos := func(x int) bool { return x >= 0 }
	assert.Equal(t, []int{2, 3}, MeetLists([][]int{{-1, 2, 3, 4}, {3, 2, -1}, {2, 3}}, id, pos))
	assert.Nil(t, MeetLists([][]int{{1}, {}}, id, pos), "an implementation without the element")
	assert.Nil(t, MeetLists([][]int{}, id, pos))
}

func TestMeetListsFunc(t *testing.T) {
	type copyOf struct {
		dst int
		api string
	}
	list := func(xs []copyOf) []copyOf { return xs }
	keep := func(c copyOf) bool { return c.dst >= 0 }
	same := func(a, b copyOf) bool { return a.dst == b.dst }
	hipFirst := func(kept, x copyOf) copyOf {
		if x.api == "hip" {
			return x
		}
		return kept
	}
	got := MeetListsFunc([][]copyOf{
		{{0, "cuda"}, {1, "cuda"}, {-1, "hip"}, {2, "cuda"}},
		{{1, "hip"}, {0, "cuda"}, {-1, "hip"}},
	}, list, keep, same, hipFirst)
	assert.Equal(t, []copyOf{{1, "hip"}, {0, "cuda"}}, got, "the elements both have, the hip form picked, in the last list's order")
	assert.Nil(t, MeetListsFunc([][]copyOf{{{0, "hip"}}, {}}, list, keep, same, hipFirst))
}
