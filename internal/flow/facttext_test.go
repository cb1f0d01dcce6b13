package flow

import (
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

func TestFactText(t *testing.T) {
	assert.Equal(t, "reads(p0) device=c:1", FactText(" ", "reads(%s)", "p0", "syncs(%s)", "", "device=%s", "c:1"))
	assert.Equal(t, "p1 on null", FactText("", "%s", "p1", " on %s", "null", "@%s", ""))
	assert.Equal(t, "", FactText(" ", "reads(%s)", ""), "nothing held, nothing printed")
	assert.Equal(t, "", FactText(" ", "dangling format"), "a format without a value is left out")
}

func TestJoinText(t *testing.T) {
	assert.Equal(t, "p0, r.s", JoinText([]Ref{{Param: 0}, {Param: Receiver, Path: ".s"}}, ", "))
	assert.Equal(t, "device, p1", JoinText([]string{"device", "", "p1"}, ", "), "empty ones left out")
	assert.Equal(t, "", JoinText([]string(nil), ", "))
}

func TestSortedByString(t *testing.T) {
	refs := []Ref{{Param: Receiver}, {Param: 1}, {Param: 0, Path: ".s"}, {Param: 1}, {Param: Receiver}}
	assert.Equal(t, []Ref{{Param: 0, Path: ".s"}, {Param: 1}, {Param: Receiver}}, SortedByString(refs),
		"by String (p0.s < p1 < r), each once")
	assert.Empty(t, SortedByString([]Ref(nil)))
}
