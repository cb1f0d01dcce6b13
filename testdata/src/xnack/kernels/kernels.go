// Package kernels launches kernels on memory of every provenance; the facts
// say which functions need XNACK, and the guarded variants must stay silent.
package kernels

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <hip/hip_runtime_api.h>
// #include <stdlib.h>
import "C"

import (
	"errors"
	"os"
	"strings"
	"syscall"
	"unsafe"

	"xnack/xnackguard"
)

var fn C.hipFunction_t

var kernelAddr unsafe.Pointer

// LaunchMalloc passes C.malloc memory to a kernel.
func LaunchMalloc(n int) { // want LaunchMalloc:"needsXNACK\\(system\\) initializesHIP"
	buf := C.malloc(C.size_t(n * 4))
	defer C.free(buf)
	count := C.int(n)
	args := []unsafe.Pointer{unsafe.Pointer(&buf), unsafe.Pointer(&count)}
	C.hipModuleLaunchKernel(fn, 1, 1, 1, 64, 1, 1, 0, nil, &args[0], nil)
}

// LaunchGoSlice passes Go memory (&slice[0]) to a kernel through hipLaunchKernel.
func LaunchGoSlice(n int) { // want LaunchGoSlice:"needsXNACK\\(system\\) initializesHIP"
	data := make([]float32, n)
	p := unsafe.Pointer(&data[0])
	var args [2]unsafe.Pointer
	args[0] = unsafe.Pointer(&p)
	C.hipLaunchKernel(kernelAddr, C.dim3{x: 1, y: 1, z: 1}, C.dim3{x: 64, y: 1, z: 1},
		(*unsafe.Pointer)(unsafe.Pointer(&args)), 0, nil)
}

// LaunchGoPointer passes a Go pointer converted to unsafe.Pointer.
func LaunchGoPointer() { // want LaunchGoPointer:"needsXNACK\\(system\\) initializesHIP"
	x := new([256]float32)
	p := unsafe.Pointer(x)
	args := []unsafe.Pointer{}
	args = append(args, unsafe.Pointer(&p))
	C.hipModuleLaunchKernel(fn, 1, 1, 1, 256, 1, 1, 0, nil, &args[0], nil)
}

// LaunchMmap passes an anonymous mapping to a kernel.
func LaunchMmap(n int) error { // want LaunchMmap:"needsXNACK\\(system\\) initializesHIP"
	m, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return err
	}
	defer syscall.Munmap(m)
	p := unsafe.Pointer(&m[0])
	args := []unsafe.Pointer{unsafe.Pointer(&p)}
	C.hipModuleLaunchKernel(fn, 1, 1, 1, 64, 1, 1, 0, nil, &args[0], nil)
	return nil
}

// NewHostBuffer returns system memory to its caller.
func NewHostBuffer(n int) unsafe.Pointer { // want NewHostBuffer:"returnsSystemMemory\\(result=0\\)"
	return C.malloc(C.size_t(n))
}

// LaunchHostBuffer launches on memory from NewHostBuffer.
func LaunchHostBuffer(n int) { // want LaunchHostBuffer:"needsXNACK\\(system\\) initializesHIP"
	p := NewHostBuffer(n)
	args := []unsafe.Pointer{unsafe.Pointer(&p)}
	C.hipModuleLaunchKernel(fn, 1, 1, 1, 64, 1, 1, 0, nil, &args[0], nil)
}

// DeviceAndHost returns device memory, then system memory: its fact names
// the second result, the one that holds system memory.
func DeviceAndHost(n int) (unsafe.Pointer, unsafe.Pointer) { // want DeviceAndHost:"returnsSystemMemory\\(result=1\\) initializesHIP"
	var d unsafe.Pointer
	C.hipMalloc(&d, C.size_t(n))
	return d, C.malloc(C.size_t(n))
}

// LaunchHostResult launches on DeviceAndHost's second result: system memory.
func LaunchHostResult(n int) { // want LaunchHostResult:"needsXNACK\\(system\\) initializesHIP"
	_, h := DeviceAndHost(n)
	args := []unsafe.Pointer{unsafe.Pointer(&h)}
	C.hipModuleLaunchKernel(fn, 1, 1, 1, 64, 1, 1, 0, nil, &args[0], nil)
}

// LaunchDeviceResult launches on DeviceAndHost's first result, device
// memory: no XNACK needed.
func LaunchDeviceResult(n int) { // want LaunchDeviceResult:"initializesHIP"
	d, _ := DeviceAndHost(n)
	args := []unsafe.Pointer{unsafe.Pointer(&d)}
	C.hipModuleLaunchKernel(fn, 1, 1, 1, 64, 1, 1, 0, nil, &args[0], nil)
}

// PrefetchMalloc prefetches system memory: it needs XNACK like a launch.
func PrefetchMalloc(n int) { // want PrefetchMalloc:"needsXNACK\\(system\\) initializesHIP"
	p := C.malloc(C.size_t(n))
	C.hipMemPrefetchAsync(p, C.size_t(n), 0, nil)
}

// NewManaged allocates managed memory.
func NewManaged(n int) unsafe.Pointer { // want NewManaged:"needsXNACK\\(managed\\) initializesHIP"
	var p unsafe.Pointer
	if C.hipMallocManaged(&p, C.size_t(n), C.hipMemAttachGlobal) != C.hipSuccess {
		return nil
	}
	return p
}

// AdviseManaged advises on managed memory.
func AdviseManaged(n int) { // want AdviseManaged:"needsXNACK\\(managed\\) initializesHIP"
	p := NewManaged(n)
	C.hipMemAdvise(p, C.size_t(n), C.hipMemAdviseSetReadMostly, 0)
}

// LaunchDevice passes device memory to a kernel: no XNACK needed.
func LaunchDevice(n int) { // want LaunchDevice:"initializesHIP"
	var d unsafe.Pointer
	if C.hipMalloc(&d, C.size_t(n)) != C.hipSuccess {
		return
	}
	defer C.hipFree(d)
	count := C.int(n)
	args := []unsafe.Pointer{unsafe.Pointer(&d), unsafe.Pointer(&count)}
	C.hipModuleLaunchKernel(fn, 1, 1, 1, 64, 1, 1, 0, nil, &args[0], nil)
}

// LaunchPinned passes pinned host memory to a kernel: mapped for the GPU, no
// XNACK needed.
func LaunchPinned(n int) { // want LaunchPinned:"initializesHIP"
	var h unsafe.Pointer
	C.hipHostMalloc(&h, C.size_t(n), C.hipHostMallocDefault)
	defer C.hipHostFree(h)
	args := []unsafe.Pointer{unsafe.Pointer(&h)}
	C.hipModuleLaunchKernel(fn, 1, 1, 1, 64, 1, 1, 0, nil, &args[0], nil)
}

// CopyFromGo copies Go memory to the device: the runtime reads it on the
// host, no XNACK needed.
func CopyFromGo(data []float32) { // want CopyFromGo:"initializesHIP"
	var d unsafe.Pointer
	C.hipMalloc(&d, C.size_t(4*len(data)))
	C.hipMemcpy(d, unsafe.Pointer(&data[0]), C.size_t(4*len(data)), C.hipMemcpyHostToDevice)
	args := []unsafe.Pointer{unsafe.Pointer(&d)}
	C.hipModuleLaunchKernel(fn, 1, 1, 1, 64, 1, 1, 0, nil, &args[0], nil)
}

// Guards, one per form: none of these needs XNACK from its callers.

// GuardedArch checks gcnArchName inline and returns when XNACK is off.
func GuardedArch(n int) error { // want GuardedArch:"errUnlessXNACK\\(result=0\\) initializesHIP"
	var prop C.hipDeviceProp_t
	if C.hipGetDeviceProperties(&prop, 0) != C.hipSuccess {
		return errors.New("no device")
	}
	if !strings.Contains(C.GoString(&prop.gcnArchName[0]), "xnack+") {
		return errors.New("XNACK is off")
	}
	LaunchMalloc(n)
	return nil
}

// GuardedArchVar keeps the check in a variable.
func GuardedArchVar(n int) { // want GuardedArchVar:"initializesHIP"
	var prop C.hipDeviceProp_t
	C.hipGetDeviceProperties(&prop, 0)
	arch := C.GoString(&prop.gcnArchName[0])
	xnack := strings.HasSuffix(arch, ":xnack+")
	if xnack {
		LaunchGoSlice(n)
	}
}

// GuardedPageable checks the pageable-memory attribute.
func GuardedPageable(n int) { // want GuardedPageable:"initializesHIP"
	var on C.int
	C.hipDeviceGetAttribute(&on, C.hipDeviceAttributePageableMemoryAccess, 0)
	if on == 1 {
		PrefetchMalloc(n)
	}
}

// GuardedPageableProp checks the pageable-memory property.
func GuardedPageableProp(n int) { // want GuardedPageableProp:"initializesHIP"
	var prop C.hipDeviceProp_t
	C.hipGetDeviceProperties(&prop, 0)
	if prop.pageableMemoryAccess != 0 {
		LaunchMmap(n)
	}
}

// GuardedWrapper uses the guard of another package.
func GuardedWrapper(n int) { // want GuardedWrapper:"initializesHIP"
	if xnackguard.Enabled(0) {
		NewManaged(n)
	}
}

// GuardedWrapperTuple uses a guard that also returns an error.
func GuardedWrapperTuple(n int) { // want GuardedWrapperTuple:"initializesHIP"
	ok, err := xnackguard.PageableAccess(0)
	if err != nil || !ok {
		return
	}
	AdviseManaged(n)
}

func xnackOn() bool { return xnackguard.Enabled(0) }

// GuardedLocalWrapper wraps the wrapper, and checks more than XNACK.
func GuardedLocalWrapper(n int) { // want GuardedLocalWrapper:"initializesHIP"
	if n > 0 && xnackOn() {
		LaunchHostBuffer(n)
	}
}

// GuardedPanic stops unless XNACK is on.
func GuardedPanic(n int) { // want GuardedPanic:"initializesHIP guardsXNACK"
	if !xnackOn() {
		panic("this program needs XNACK")
	}
	LaunchGoPointer()
}

// GuardedHelperSkip stops through a helper that skips.
func GuardedHelperSkip(n int) { // want GuardedHelperSkip:"initializesHIP guardsXNACK"
	mustHaveXNACK()
	LaunchMalloc(n)
}

func mustHaveXNACK() {
	if !xnackOn() {
		os.Exit(0)
	}
}

// Not guards.

// UnguardedOtherBranch uses the memory where the guard failed.
func UnguardedOtherBranch(n int) { // want UnguardedOtherBranch:"needsXNACK\\(system\\) initializesHIP"
	if xnackOn() {
		LaunchDevice(n)
	} else {
		LaunchMalloc(n)
	}
}

// UnguardedAfterIf uses the memory after an if that does not stop.
func UnguardedAfterIf(n int) { // want UnguardedAfterIf:"needsXNACK\\(managed\\) initializesHIP"
	if !xnackOn() {
		println("XNACK is off")
	}
	NewManaged(n)
}

// UnguardedStatus trusts a function that is not a guard.
func UnguardedStatus(n int) { // want UnguardedStatus:"needsXNACK\\(system\\) initializesHIP"
	if xnackguard.Status(0) {
		LaunchMalloc(n)
	}
}

// UnguardedXnackMinus checks for "xnack-": that XNACK is off, not that it is on.
func UnguardedXnackMinus(n int, arch string) { // want UnguardedXnackMinus:"needsXNACK\\(system\\) initializesHIP"
	if !strings.Contains(arch, "xnack-") {
		LaunchMalloc(n)
	}
}

// Wrong guards (HL4005): the managed-memory attributes report HMM support.

// WrongManagedAttr checks hipDeviceAttributeManagedMemory.
func WrongManagedAttr(n int) { // want WrongManagedAttr:"initializesHIP"
	var v C.int
	C.hipDeviceGetAttribute(&v, C.hipDeviceAttributeManagedMemory, 0)
	if v == 1 { // want `hipDeviceAttributeManagedMemory reports HMM \(managed memory\) support, not XNACK: it can be 1 while XNACK is off, so the use it guards \(C.malloc memory \(buf\) passed to hipModuleLaunchKernel in LaunchMalloc\) still faults`
		LaunchMalloc(n)
	}
}

// WrongConcurrentProp checks the concurrentManagedAccess property.
func WrongConcurrentProp(n int) { // want WrongConcurrentProp:"initializesHIP"
	var prop C.hipDeviceProp_t
	C.hipGetDeviceProperties(&prop, 0)
	if prop.concurrentManagedAccess == 0 { // want `hipDeviceProp_t.concurrentManagedAccess reports HMM`
		return
	}
	AdviseManaged(n) // the report is at the check, not here
	_ = prop
}

// WrongWrapper checks through a wrapper of ManagedMemory.
func WrongWrapper(n int) { // want WrongWrapper:"initializesHIP"
	if xnackguard.ManagedSupported(0) { // want `ManagedSupported \(it checks hipDeviceAttributeManagedMemory\) reports HMM`
		NewManaged(n)
	}
}

// ManagedAttrOnly reads the attribute without guarding anything with it.
func ManagedAttrOnly() bool { // want ManagedAttrOnly:"reportsHMM\\(result=0\\) initializesHIP"
	var v C.int
	C.hipDeviceGetAttribute(&v, C.hipDeviceAttributeConcurrentManagedAccess, 0)
	return v == 1
}

// BothChecks checks the managed attribute and XNACK: the XNACK check wins.
func BothChecks(n int) { // want BothChecks:"initializesHIP"
	if ManagedAttrOnly() && xnackOn() {
		NewManaged(n)
	}
}

// LateEnable sets HSA_XNACK after a HIP call: too late (HL4003).
func LateEnable(n int) { // want LateEnable:"needsXNACK\\(managed\\) initializesHIP setsHSA_XNACK"
	if xnackguard.DeviceCount() == 0 {
		return
	}
	os.Setenv("HSA_XNACK", "1") // want `HSA_XNACK is set after a HIP runtime call has already run on this path: the runtime reads it once`
	NewManaged(n)
}

// DisableThenManaged sets HSA_XNACK=0: that is no guard.
func DisableThenManaged(n int) { // want DisableThenManaged:"needsXNACK\\(managed\\) initializesHIP setsHSA_XNACK"
	os.Setenv("HSA_XNACK", "0")
	NewManaged(n)
}
