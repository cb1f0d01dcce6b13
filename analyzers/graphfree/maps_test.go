package graphfree

import (
	"testing"

	"github.com/hiplint/hiplint/internal/flow"
)

func TestCloneMapAndPut(t *testing.T) {
	if got := cloneMap(map[string]int{}); got != nil {
		t.Errorf("CloneMap(empty) = %v, want nil", got)
	}
	src := map[string]int{"a": 1}
	c := cloneMap(src)
	flow.Put(&c, "b", 2)
	if len(src) != 1 || c["a"] != 1 || c["b"] != 2 {
		t.Errorf("after Put on the clone: src %v, clone %v", src, c)
	}
	var m map[int]bool
	flow.Put(&m, 3, true)
	if !m[3] {
		t.Errorf("Put on a nil map: %v", m)
	}
}
