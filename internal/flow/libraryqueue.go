package flow

import (
	"go/ast"
	"go/types"
	"strings"

	"github.com/hiplint/hiplint/internal/cgocall"
)

// Library returns where the work of a call of the C library routine name
// (LibraryArgs, with its signature sig and the call's arguments args) runs
// while device is current: the queue of its first stream argument (Of), or,
// when it has none, a stream of its library handle's, which no caller sees
// ("library:name"); and the arguments that may point to memory the routine
// reads on the device. ok is false when LibraryArgs cannot read the call.
func (sq StreamQueues) Library(name string, sig *types.Signature, args []ast.Expr, device Sym, created map[Loc]Queue) (q Queue, memory []int, ok bool) {
	stream, memory, ok := LibraryArgs(name, sig, len(args))
	if !ok {
		return Queue{}, nil, false
	}
	if stream >= 0 {
		return sq.Of(args[stream], device, created), memory, true
	}
	// A routine without a stream argument runs on the stream its handle
	// (the first argument) was bound to, where this function bound it
	// (BindLibraryStream); on a stream of its own otherwise.
	if len(args) > 0 {
		if l, ok := sq.Ptrs.Locator.Of(StripConversions(sq.Ptrs.Info, args[0])); ok {
			if q, ok := created[libraryHandle(l)]; ok {
				return q, memory, true
			}
		}
	}
	return Queue{Kind: OnStream, Stream: Loc{Path: "library:" + name}, Device: device}, memory, true
}

// SetsLibraryStream reports whether name is a GPU library's routine that
// binds a handle (its first argument) to a stream (its second), after which
// the handle's routines queue their work there: cublasSetStream,
// hipblasSetStream, cudnnSetStream, cufftSetStream, curandSetStream,
// cusparseSetStream, cusolverDnSetStream, miopenSetStream,
// rocblas_set_stream, rocsparse_set_stream and their kind.
func SetsLibraryStream(name string, sig *types.Signature) bool {
	if !strings.HasSuffix(name, "SetStream") && !strings.HasSuffix(name, "SetStream_v2") && !strings.HasSuffix(name, "_set_stream") {
		return false
	}
	return sig != nil && sig.Params().Len() == 2 && !cgocall.IsStreamType(sig.Params().At(0).Type()) &&
		cgocall.IsStreamType(sig.Params().At(1).Type())
}

// BindLibraryStream returns the key under which the queue of the stream a
// handle was bound to (SetsLibraryStream) is kept among a function's
// streams, for Library: ok false when the handle is no variable or field.
func (sq StreamQueues) BindLibraryStream(handle ast.Expr) (Loc, bool) {
	l, ok := sq.Ptrs.Locator.Of(StripConversions(sq.Ptrs.Info, handle))
	if !ok {
		return Loc{}, false
	}
	return libraryHandle(l), true
}

// libraryHandle is the key of a library handle's stream: the handle's own
// location, marked so that it never names a stream handle.
func libraryHandle(l Loc) Loc {
	return Loc{Root: l.Root, Path: l.Path + "#stream"}
}
