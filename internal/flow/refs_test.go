package flow

import (
	"slices"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

func TestCompareRef(t *testing.T) {
	rs := []Ref{{1, ""}, {Receiver, ".b"}, {0, ".a"}, {Receiver, ".a"}}
	slices.SortFunc(rs, CompareRef)
	assert.Equal(t, []Ref{{Receiver, ".a"}, {Receiver, ".b"}, {0, ".a"}, {1, ""}}, rs)

}
