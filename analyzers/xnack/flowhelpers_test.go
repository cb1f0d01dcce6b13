// Test helpers of the engine pieces that moved here from internal/flow
// (issue 31), shared with the other analyzers through internal/testenv.
package xnack

import "github.com/hiplint/hiplint/internal/testenv"

var fakePass = testenv.FakePass

// indexSrc is shaped like cgo's output (see cgocall's synthetic test; a
// copy of internal/flow's, for the walks that moved here): a
// direct call, a pointer-checking wrapper, a user closure run in place and
// one deferred.
const indexSrc = `package p

import "unsafe"

type _Ctype_hipError_t uint32

func _Cfunc_hipFree(p0 unsafe.Pointer) _Ctype_hipError_t  { return 0 }
func _Cfunc_hipDeviceSynchronize() _Ctype_hipError_t     { return 0 }
func _cgoCheckPointer(interface{}, interface{})          {}
func do(f func())                                        { f() }

func f(p unsafe.Pointer) {
	_Cfunc_hipDeviceSynchronize()
	func() _Ctype_hipError_t { _cgo0 := p; _cgoCheckPointer(_cgo0, nil); return _Cfunc_hipFree(_cgo0) }()
	do(func() { _Cfunc_hipDeviceSynchronize() })
	defer do(func() {})
}
`
