package xnack

import (
	"github.com/hiplint/hiplint/internal/flow"
	"testing"
)

func TestValueStates(t *testing.T) {
	type state struct {
		n  int
		ok bool
	}
	p := valueStates(flow.Problem[state]{Entry: state{n: 1}})
	s := state{n: 2, ok: true}
	if p.Clone(s) != s || !p.Equal(s, state{2, true}) || p.Equal(s, p.Entry) {
		t.Fatalf("ValueStates: Clone(%v) = %v, Equal(%v, %v) = %v", s, p.Clone(s), s, p.Entry, p.Equal(s, p.Entry))
	}
}
