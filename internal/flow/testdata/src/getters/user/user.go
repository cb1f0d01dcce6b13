// Package user calls lib's getters from another package: their facts
// reach it through Getters, whichever analyzer asks.
package user

import "getters/lib"

func use(b *lib.Buffer) {
	_ = b.Ptr()   // want `getter r.ptr`
	_ = lib.Of(b) // want `getter p0.ptr`
	_ = b.Dev()   // want `getter r.inner.dev`
	_ = b.Len()
	_ = b.Two()
}
