// Package hipcalls calls the HIP runtime through the fixture header.
//
// Each runtime call that cgocall must find is annotated at the end of the line
// holding its "C." with a "call:" comment: the C name as written, then the
// user's argument expressions as types.ExprString writes them, separated by
// " | ". A "kind:" comment, CONST=VALUE, states ConstName and IntValue of the
// copy-kind argument of the call on that line ("-" for none).
package hipcalls

/*
#cgo CFLAGS: -I${SRCDIR}/../../../../testdata/include
#include <stdlib.h>
#include <hip/hip_runtime_api.h>

static hipStream_t defaultStream(void) { return 0; }
static int notRuntime(int *p) { return *p; }
static int notRuntimePtr(void *p) { return p != 0; }
*/
import "C"

import (
	"errors"
	"unsafe"
)

func check(e C.hipError_t) error {
	if e != C.hipSuccess {
		return errors.New("hip error")
	}
	return nil
}

// Direct calls: no argument needs a pointer check, so cgo calls _Cfunc_x directly.
func Direct(d C.int, n int) error {
	C.hipSetDevice(d)                                       // call: hipSetDevice d
	C.hipDeviceSynchronize()                                // call: hipDeviceSynchronize
	if err := check(C.hipSetDevice(C.int(n))); err != nil { // call: hipSetDevice C.int(n)
		return err
	}
	return check(C.hipInit(0)) // call: hipInit 0
}

// Wrapped calls: pointer arguments make cgo wrap the call in a function literal.
func Wrapped(n C.size_t, host []byte, s C.hipStream_t) (unsafe.Pointer, error) {
	var p unsafe.Pointer
	if err := check(C.hipMalloc(&p, n)); err != nil { // call: hipMalloc &p | n
		return nil, err
	}
	var q unsafe.Pointer
	C.hipMalloc(&q, n)                                                                     // call: hipMalloc &q | n
	C.hipMemcpy(q, p, n, C.hipMemcpyDeviceToDevice)                                        // call: hipMemcpy q | p | n | C.hipMemcpyDeviceToDevice // kind: hipMemcpyDeviceToDevice=3
	C.hipMemcpy(unsafe.Pointer(&host[0]), p, C.size_t(len(host)), C.hipMemcpyDeviceToHost) // call: hipMemcpy unsafe.Pointer(&host[0]) | p | C.size_t(len(host)) | C.hipMemcpyDeviceToHost // kind: hipMemcpyDeviceToHost=2
	C.hipMemcpy(p, unsafe.Pointer(&host[1:][0]), 1, C.hipMemcpyHostToDevice)               // call: hipMemcpy p | unsafe.Pointer(&host[1:][0]) | 1 | C.hipMemcpyHostToDevice // kind: hipMemcpyHostToDevice=1
	C.hipMemcpyAsync(q, p, n, kindD2D, s)                                                  // call: hipMemcpyAsync q | p | n | kindD2D | s // kind: -=3
	C.hipMemcpy(q, p, n, (C.hipMemcpyDefault))                                             // call: hipMemcpy q | p | n | (C.hipMemcpyDefault) // kind: hipMemcpyDefault=4
	C.hipMemcpy(q, p, n, C.hipMemcpyKind(3))                                               // call: hipMemcpy q | p | n | C.hipMemcpyKind(3) // kind: -=3
	k := C.hipMemcpyKind(C.hipMemcpyHostToHost)
	C.hipMemcpy(q, p, n, k) // call: hipMemcpy q | p | n | k // kind: -=-
	C.hipMemset(            // call: hipMemset p | 0 | n
		p,
		0,
		n,
	)
	C.hipFree(q) // call: hipFree q
	return p, nil
}

// Converted pointer arguments: cgo moves the address or slice expression into
// a temporary even when it sits inside conversions.
func Converted(n C.size_t) {
	var buf [4]C.float
	var p unsafe.Pointer
	C.hipMalloc((*unsafe.Pointer)(unsafe.Pointer(&p)), n)                    // call: hipMalloc (*unsafe.Pointer)(unsafe.Pointer(&p)) | n
	C.hipMemcpy(p, unsafe.Pointer(&buf[0]), C.size_t(unsafe.Sizeof(buf)), 1) // call: hipMemcpy p | unsafe.Pointer(&buf[0]) | C.size_t(unsafe.Sizeof(buf)) | 1 // kind: -=1
	C.hipMemcpy(unsafe.Pointer(&buf), p, 16, C.hipMemcpyDeviceToHost)        // call: hipMemcpy unsafe.Pointer(&buf) | p | 16 | C.hipMemcpyDeviceToHost // kind: hipMemcpyDeviceToHost=2
	s := buf[:]
	C.hipMemcpy(unsafe.Pointer(&s[1]), unsafe.Pointer(&s[:2][0]), 4, C.hipMemcpyHostToHost) // call: hipMemcpy unsafe.Pointer(&s[1]) | unsafe.Pointer(&s[:2][0]) | 4 | C.hipMemcpyHostToHost // kind: hipMemcpyHostToHost=0
	var dptr C.hipDeviceptr_t
	C.hipMemcpyHtoD(dptr, unsafe.Pointer(&s[0]), 4) // call: hipMemcpyHtoD dptr | unsafe.Pointer(&s[0]) | 4
	type pair struct{ dev unsafe.Pointer }
	var pr pair
	C.hipMalloc(&pr.dev, n)                       // call: hipMalloc &pr.dev | n
	C.hipMalloc((*unsafe.Pointer)(&pr.dev), n)    // call: hipMalloc (*unsafe.Pointer)(&pr.dev) | n
	C.hipMemset(unsafe.Pointer(&s[:3][1]), 0, 12) // call: hipMemset unsafe.Pointer(&s[:3][1]) | 0 | 12
}

// Deferred and go statements: a deferred wrapped call gets cgo's two-literal
// form func() func() {...}()(); user closures are not cgo's wrappers.
func Deferred(path *C.char, s C.hipStream_t) error {
	var m C.hipModule_t
	if err := check(C.hipModuleLoad(&m, path)); err != nil { // call: hipModuleLoad &m | path
		return err
	}
	defer C.hipModuleUnload(m)                         // call: hipModuleUnload m
	defer C.hipDeviceSynchronize()                     // call: hipDeviceSynchronize
	go C.hipStreamSynchronize(s)                       // call: hipStreamSynchronize s
	go C.hipSetDevice(1)                               // call: hipSetDevice 1
	defer func() { C.hipStreamDestroy(s) }()           // call: hipStreamDestroy s
	defer func() { C.hipDeviceSynchronize() }()        // call: hipDeviceSynchronize
	go func() { C.hipSetDevice(2) }()                  // call: hipSetDevice 2
	defer C.hipMemcpy(nil, unsafe.Pointer(path), 1, 0) // call: hipMemcpy nil | unsafe.Pointer(path) | 1 | 0 // kind: -=0
	return nil
}

// TwoResults: cgo calls _C2func_x and returns errno as the error.
func TwoResults(d C.int) (C.hipError_t, error) {
	r, err := C.hipSetDevice(d) // call: hipSetDevice d
	if err != nil {
		return r, err
	}
	var p unsafe.Pointer
	_, err = C.hipMalloc(&p, 64) // call: hipMalloc &p | 64
	return r, err
}

// SameLine has several calls on one line, and calls nested in the arguments
// of other calls.
func SameLine(p unsafe.Pointer, n C.size_t) bool {
	if C.hipSetDevice(0) != C.hipSuccess || C.hipMalloc(&p, n) != 0 { // call: hipSetDevice 0 // call: hipMalloc &p | n
		return false
	}
	C.hipMemset(p, C.int(C.hipSetDevice(2)), n)     // call: hipMemset p | C.int(C.hipSetDevice(2)) | n // call: hipSetDevice 2
	C.hipStreamSynchronize(C.defaultStream())       // call: hipStreamSynchronize C.defaultStream()
	_, _ = check(C.hipFree(p)), check(C.hipFree(p)) // call: hipFree p // call: hipFree p
	return (C.hipDeviceSynchronize()) == 0          // call: hipDeviceSynchronize
}

// NoMatch holds calls that must not match: C functions outside the table
// (called directly and through cgo's wrapper), C functions used as values, and
// Go functions named like runtime functions.
func NoMatch() {
	cs := C.CString("kernel")
	defer C.free(unsafe.Pointer(cs))
	var count C.int
	C.notRuntime(&count)
	_ = C.hipGetErrorString(C.hipSuccess)
	var fp unsafe.Pointer = C.hipDeviceSynchronize
	_ = fp
	hipMalloc(nil, 0)
	_ = C.hipMemcpyDeviceToDevice
	var dev C.int
	C.notRuntimePtr(unsafe.Pointer(&dev))
}

func hipMalloc(p *unsafe.Pointer, n int) {}

// UserClosures are function literals written by the user: not cgo wrappers.
func UserClosures(s C.hipStream_t) func() C.hipError_t {
	f := func() C.hipError_t { return C.hipStreamSynchronize(s) } // call: hipStreamSynchronize s
	g := func() C.hipError_t {
		_cgoX := s
		return C.hipStreamQuery(_cgoX) // call: hipStreamQuery _cgoX
	}
	h := func() C.hipError_t { return C.hipDeviceSynchronize() } // call: hipDeviceSynchronize
	_, _ = g, h
	_ = func() C.hipError_t { return C.hipSetDevice(0) }() // call: hipSetDevice 0
	return f
}

const (
	kindD2D = C.hipMemcpyDeviceToDevice
	kindH2D = C.hipMemcpyHostToDevice
)

var kinds = []C.hipMemcpyKind{kindD2D, kindH2D, C.hipMemcpyDefault}

// Variables of C types for the IsCType tests.
var (
	Module     C.hipModule_t
	Stream     C.hipStream_t
	Size       C.size_t
	Status     C.hipError_t
	Kind       C.hipMemcpyKind
	DevPtr     C.hipDeviceptr_t
	AllocParam C.hipMemAllocNodeParams
	Prop       C.hipDeviceProp_t
	ModulePtr  *C.hipModule_t
	Int        C.int
	GoInt      int
	MyModule   myModule
)

type myModule C.hipModule_t
