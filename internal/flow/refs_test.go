package flow

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCompareRefAndCommon(t *testing.T) {
	rs := []Ref{{1, ""}, {Receiver, ".b"}, {0, ".a"}, {Receiver, ".a"}}
	slices.SortFunc(rs, CompareRef)
	assert.Equal(t, []Ref{{Receiver, ".a"}, {Receiver, ".b"}, {0, ".a"}, {1, ""}}, rs)

	notRecv := func(r Ref) bool { return r.Param != Receiver }
	a := []Ref{{Receiver, ".a"}, {0, ""}, {1, ".p"}}
	b := []Ref{{1, ".p"}, {Receiver, ".a"}, {0, ""}}
	c := []Ref{{0, ""}, {Receiver, ".a"}}
	assert.Equal(t, []Ref{{0, ""}}, Common([][]Ref{a, b, c}, notRecv))
	assert.Equal(t, []Ref{{Receiver, ".a"}, {0, ""}}, Common([][]Ref{a, b, c}, nil))
	assert.Nil(t, Common[Ref](nil, nil))
}
