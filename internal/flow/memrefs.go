package flow

import "go/types"

// MemoryRefs returns the Refs, in a function with signature sig, of l and
// of its aliases (Of, in its order) that can carry memory: a whole variable
// of a type that holds neither a pointer nor a uintptr carries none (n in
// cn := C.int(n), an alias made by a conversion). Summaries name the
// caller's memory that a function reads or writes through them.
func (a Aliases) MemoryRefs(sig *types.Signature, l Loc) []Ref {
	var out []Ref
	for _, m := range a.Of(l) {
		if t := m.Root.Type(); m.Path == "" && !HoldsPointer(t) && !isUintptr(t) {
			continue
		}
		if ref, ok := RefOf(sig, m); ok {
			out = append(out, ref)
		}
	}
	return out
}
