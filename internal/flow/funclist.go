package flow

import (
	"go/types"
	"slices"
)

// funcList lists functions, each once, in the order of their first Add. A
// short list is scanned; past a few entries a set answers, so that adding n
// functions is not quadratic.
type funcList struct {
	list []*types.Func
	seen map[*types.Func]bool
}

// Add appends fn unless the list holds it.
func (l *funcList) Add(fn *types.Func) {
	if l.seen == nil && len(l.list) >= 16 {
		l.seen = make(map[*types.Func]bool, 2*len(l.list))
		for _, f := range l.list {
			l.seen[f] = true
		}
	}
	if l.seen != nil {
		if l.seen[fn] {
			return
		}
		l.seen[fn] = true
	} else if slices.Contains(l.list, fn) {
		return
	}
	l.list = append(l.list, fn)
}
