package flow

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestJoinEach(t *testing.T) {
	assert.Equal(t, "0,1,12", JoinEach([]int{0, 1, 12}, ",", strconv.Itoa))
	assert.Equal(t, "recv, 1.buf", JoinEach([]Ref{{Param: Receiver}, {Param: 1, Path: ".buf"}}, ", ", func(r Ref) string {
		if r.Param == Receiver {
			return "recv" + r.Path
		}
		return strconv.Itoa(r.Param) + r.Path
	}))
	assert.Equal(t, "", JoinEach([]int(nil), ",", strconv.Itoa))
}
