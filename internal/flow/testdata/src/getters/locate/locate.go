// Package locate resolves getter calls to the locations they return
// (flow.WithGetters): lib's getters through their facts, this package's
// no-argument getters of package-level variables through Getters' result.
package locate

import "getters/lib"

var (
	def  *lib.Buffer
	pair struct{ b *lib.Buffer }
)

func Default() *lib.Buffer { return def }

func Inner() *lib.Buffer { return pair.b }

func fresh() *lib.Buffer { return lib.New(1) }

func use(b *lib.Buffer) {
	_ = b.Ptr()         // want `loc b.ptr`
	_ = b.Dev()         // want `loc b.inner.dev`
	_ = Default()       // want `loc def`
	_ = Default().Ptr() // want `loc def.ptr`
	_ = Inner()         // want `loc pair.b`
	_ = lib.Of(Inner()) // want `loc pair.b.ptr`
	_ = b.Len()
	_ = b.Two()
	_ = fresh()
	_ = fresh().Ptr()
}
