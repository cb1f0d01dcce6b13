package flow

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestMeetLists(t *testing.T) {
	id := func(xs []int) []int { return xs }
	pos := func(x int) bool { return x >= 0 }
	assert.Equal(t, []int{2, 3}, MeetLists([][]int{{-1, 2, 3, 4}, {3, 2, -1}, {2, 3}}, id, pos))
	assert.Nil(t, MeetLists([][]int{{1}, {}}, id, pos), "an implementation without the element")
	assert.Nil(t, MeetLists([][]int{}, id, pos))
}
