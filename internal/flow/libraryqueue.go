package flow

import (
	"go/ast"
	"go/types"
)

// Library returns where the work of a call of the C library routine name
// (LibraryArgs, with its signature sig and the call's arguments args) runs
// while device is current: the queue of its first stream argument (Of), or,
// when it has none, a stream of its library handle's, which no caller sees
// ("library:name"); and the arguments that may point to memory the routine
// reads on the device. ok is false when LibraryArgs cannot read the call.
func (sq StreamQueues) Library(name string, sig *types.Signature, args []ast.Expr, device Sym, created map[Loc]Queue) (q Queue, memory []int, ok bool) {
	stream, memory, ok := libraryArgs(name, sig, len(args))
	if !ok {
		return Queue{}, nil, false
	}
	if stream >= 0 {
		return sq.Of(args[stream], device, created), memory, true
	}
	return Queue{Kind: OnStream, Stream: Loc{Path: "library:" + name}, Device: device}, memory, true
}
