package flow

import "go/types"

// Get returns fn's summary (Of), or the zero summary when it has none.
func (t *Table[F, PF]) Get(fn *types.Func) F {
	f, _ := t.Of(fn)
	return f
}
