package flow

import (
	"go/types"
	"strings"
)

// A read inside a container's element, or of a range loop's variable, reads
// what the package stores into the container's elements: ElemValuesAt names
// them from the location read, for analyses that track locations (a copy's
// destination appended to a slice in a loop, then read as outs[i]).

// ElemValuesAt returns what the element that location l reads may hold:
// for l inside an element of a container (v[i].f, p.bufs[k]: the first
// element segment of its path), the values the package stores into the
// container's elements (ElemValues) and the rest of l's path after the
// element (".f"); for a range loop's variable, the values it receives
// (Received) and l's path. ok is false for any other location.
func (s *Sources) ElemValuesAt(info *types.Info, l Loc) (vals []Source, rest string, ok bool) {
	if l.Root == nil {
		return nil, "", false
	}
	at := strings.IndexByte(l.Path, '[')
	if at < 0 {
		vals = s.Received(info, l.Root)
		return vals, l.Path, len(vals) > 0
	}
	end := strings.IndexByte(l.Path[at:], ']')
	if end < 0 {
		return nil, "", false
	}
	var container types.Object = l.Root
	if at > 0 {
		f := fieldOf(Loc{Root: l.Root, Path: l.Path[:at]})
		if f == nil {
			return nil, "", false
		}
		container = f
	}
	w := elemWalk{s: s, info: info, seen: map[types.Object]bool{}}
	w.object(container, 0)
	return w.out, l.Path[at+end+1:], len(w.out) > 0
}
