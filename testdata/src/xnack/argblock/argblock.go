// Package argblock launches kernels whose kernelParams arrays helpers build:
// in one C block with the argument values (the array points back into the
// block), or in a Go slice. The kernel reads the memory the caller handed
// the helper; its provenance decides.
package argblock

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <hip/hip_runtime_api.h>
// #include <stdlib.h>
import "C"

import (
	"unsafe"

	"xnack/argblocklib"
)

var kern C.hipFunction_t

const wsz = unsafe.Sizeof(uintptr(0))

// packArgs writes dst and n into a C block and returns the block and the
// kernelParams array stored in its second half.
func packArgs(dst unsafe.Pointer, n int32) (mem unsafe.Pointer, kp *unsafe.Pointer) {
	mem = C.malloc(C.size_t(4 * wsz))
	*(*unsafe.Pointer)(mem) = dst
	*(*int32)(unsafe.Add(mem, wsz)) = n
	tbl := (*[2]unsafe.Pointer)(unsafe.Add(mem, 2*wsz))
	tbl[0] = mem
	tbl[1] = unsafe.Add(mem, wsz)
	return mem, &tbl[0]
}

// rewrap returns packArgs's array: a helper of the helper.
func rewrap(dst unsafe.Pointer) *unsafe.Pointer {
	_, kp := packArgs(dst, 8)
	return kp
}

// goArgs returns a Go kernelParams array holding &dst.
func goArgs(dst unsafe.Pointer) []unsafe.Pointer {
	return []unsafe.Pointer{unsafe.Pointer(&dst)}
}

// addrOnly stores the address it is given in the slot: the slot points to
// the argument value, which this function never sees.
func addrOnly(valp unsafe.Pointer) *unsafe.Pointer {
	tbl := (*[1]unsafe.Pointer)(C.malloc(C.size_t(wsz)))
	tbl[0] = valp
	return &tbl[0]
}

func devAlloc(n int) unsafe.Pointer {
	var d unsafe.Pointer
	C.hipMalloc(&d, C.size_t(n))
	return d
}

// hostRun hands C.malloc memory to the kernel through packArgs.
func hostRun() {
	buf := C.malloc(256)
	mem, kp := packArgs(buf, 64)
	C.hipModuleLaunchKernel(kern, 1, 1, 1, 64, 1, 1, 0, nil, kp, nil)
	C.hipDeviceSynchronize()
	C.free(mem)
	C.free(buf)
}

// deviceRun is its twin on hipMalloc memory.
func deviceRun() {
	d := devAlloc(256)
	mem, kp := packArgs(d, 64)
	C.hipModuleLaunchKernel(kern, 1, 1, 1, 64, 1, 1, 0, nil, kp, nil)
	C.hipDeviceSynchronize()
	C.free(mem)
	C.hipFree(d)
}

// goRun hands Go memory to the kernel through rewrap.
func goRun() {
	xs := make([]float32, 64)
	C.hipModuleLaunchKernel(kern, 1, 1, 1, 64, 1, 1, 0, nil, rewrap(unsafe.Pointer(&xs[0])), nil)
}

// goRunDevice is its twin.
func goRunDevice() {
	C.hipModuleLaunchKernel(kern, 1, 1, 1, 64, 1, 1, 0, nil, rewrap(devAlloc(256)), nil)
}

// sliceRun hands C.malloc memory through a Go argument slice.
func sliceRun() {
	args := goArgs(C.malloc(64))
	C.hipModuleLaunchKernel(kern, 1, 1, 1, 16, 1, 1, 0, nil, &args[0], nil)
}

// sliceRunDevice is its twin.
func sliceRunDevice() {
	args := goArgs(devAlloc(64))
	C.hipModuleLaunchKernel(kern, 1, 1, 1, 16, 1, 1, 0, nil, unsafe.SliceData(args), nil)
}

// addrRun passes the address of a device pointer variable: the slot points
// to d, the kernel reads what d holds (device memory), not d's Go memory.
func addrRun() {
	d := devAlloc(64)
	C.hipModuleLaunchKernel(kern, 1, 1, 1, 16, 1, 1, 0, nil, addrOnly(unsafe.Pointer(&d)), nil)
}

// launchVia launches on its parameter through packArgs (launchesParams).
func launchVia(p unsafe.Pointer) {
	_, kp := packArgs(p, 4)
	C.hipModuleLaunchKernel(kern, 1, 1, 1, 4, 1, 1, 0, nil, kp, nil)
}

// inlineHost builds the same block in place, around C.malloc memory.
func inlineHost() {
	buf := C.malloc(64)
	blk := C.malloc(C.size_t(4 * wsz))
	*(*unsafe.Pointer)(blk) = buf
	*(*int32)(unsafe.Add(blk, wsz)) = 16
	tbl := (*[2]unsafe.Pointer)(unsafe.Add(blk, 2*wsz))
	tbl[0] = blk
	tbl[1] = unsafe.Add(blk, wsz)
	C.hipModuleLaunchKernel(kern, 1, 1, 1, 16, 1, 1, 0, nil, &tbl[0], nil)
}

// inlineDevice is its twin: the block itself is C memory, but only the
// runtime reads it; the kernel gets the device pointer.
func inlineDevice() {
	d := devAlloc(64)
	blk := C.malloc(C.size_t(4 * wsz))
	*(*unsafe.Pointer)(blk) = d
	*(*int32)(unsafe.Add(blk, wsz)) = 16
	tbl := (*[2]unsafe.Pointer)(unsafe.Add(blk, 2*wsz))
	tbl[0] = blk
	tbl[1] = unsafe.Add(blk, wsz)
	C.hipModuleLaunchKernel(kern, 1, 1, 1, 16, 1, 1, 0, nil, &tbl[0], nil)
}

// libHost builds the block with the other package's Pack.
func libHost() {
	buf := C.malloc(128)
	_, kp := argblocklib.Pack(buf, 32)
	argblocklib.Launch(kp)
}

// libHostDirect launches Pack's array here.
func libHostDirect() {
	buf := C.malloc(128)
	_, kp := argblocklib.Pack(buf, 32)
	C.hipModuleLaunchKernel(kern, 1, 1, 1, 32, 1, 1, 0, nil, kp, nil)
}

// libDevice is its twin.
func libDevice() {
	_, kp := argblocklib.Pack(devAlloc(128), 32)
	C.hipModuleLaunchKernel(kern, 1, 1, 1, 32, 1, 1, 0, nil, kp, nil)
}

// goSliceLib launches a Go argument array through the other package.
func goSliceLib() {
	buf := C.malloc(64)
	args := []unsafe.Pointer{unsafe.Pointer(&buf)}
	argblocklib.Launch(&args[0])
}

// goSliceLibDevice is its twin.
func goSliceLibDevice() {
	d := devAlloc(64)
	args := []unsafe.Pointer{unsafe.Pointer(&d)}
	argblocklib.Launch(&args[0])
}

// relaunch hands the array it is given on to Launch.
func relaunch(kp *unsafe.Pointer) {
	argblocklib.Launch(kp)
}

// launchWith packs its parameter and launches: its parameter reaches the
// kernel (launchesParams).
func launchWith(p unsafe.Pointer) {
	_, kp := argblocklib.Pack(p, 1)
	argblocklib.Launch(kp)
}

// opaque returns an array this package cannot see into.
func opaque(p unsafe.Pointer) *unsafe.Pointer {
	return (*unsafe.Pointer)(p)
}

// hostAlloc returns C.malloc memory (returnsSystemMemory).
func hostAlloc(n int) unsafe.Pointer {
	return C.malloc(C.size_t(n))
}

// variadicHost lists C.malloc memory among a launch wrapper's variadic
// arguments: they are its kernelParams array.
func variadicHost() {
	buf := C.malloc(256)
	n := int32(64)
	argblocklib.LaunchArgs(unsafe.Pointer(&buf), unsafe.Pointer(&n))
	C.free(buf)
}

// variadicSpread passes the same arguments as a slice spread with `...`.
func variadicSpread() {
	buf := C.malloc(256)
	n := int32(64)
	args := []unsafe.Pointer{unsafe.Pointer(&buf), unsafe.Pointer(&n)}
	argblocklib.LaunchArgs(args...)
	C.free(buf)
}

// launchList hands its own variadic arguments on.
func launchList(ps ...unsafe.Pointer) {
	argblocklib.LaunchArgs(ps...)
}

// variadicDevice is the twin of both on hipMalloc memory, directly and
// through launchList.
func variadicDevice() {
	d := devAlloc(256)
	n := int32(64)
	argblocklib.LaunchArgs(unsafe.Pointer(&d), unsafe.Pointer(&n))
	launchList(unsafe.Pointer(&d), unsafe.Pointer(&n))
	C.hipFree(d)
}
