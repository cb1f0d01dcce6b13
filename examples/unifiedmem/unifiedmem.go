// Package unifiedmem runs SAXPY (y = a·x + y) on memory that the host and
// the GPU share without explicit copies: managed memory from
// hipMallocManaged, and pageable host memory from C.malloc, which the GPU
// reaches by faulting its pages in. Both depend on XNACK: on an APU such as
// the MI300A, or a gfx90a with HSA_XNACK=1, managed memory migrates and host
// pages fault in; with XNACK off, managed memory stays pinned in host memory
// and a kernel touching malloc'd memory aborts the process with "Memory
// access fault by GPU ... Page not present".
//
// It is one of hiplint's example programs. ZeroCopy and Managed need XNACK
// and check nothing, and the package's TestMain warms both up without a
// guard (HL4001, HL4002); TestManaged calls Managed without a skip (HL4004).
// RunAuto guards managed memory with hipDeviceAttributeManagedMemory, which
// reports HMM support, not XNACK (HL4005). Run (gcnArchName contains
// "xnack+"), RunManaged (hipDeviceAttributePageableMemoryAccess is 1) and the
// tests that skip without XNACK are the safe twins.
package unifiedmem

/*
#cgo CFLAGS: -I${SRCDIR}/../../testdata/include
#include <stdlib.h>
#include <hip/hip_runtime_api.h>
*/
import "C"

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"unsafe"
)

// check turns a HIP status into a Go error naming the failed call.
func check(op string, r C.hipError_t) error {
	if r == C.hipSuccess {
		return nil
	}
	return fmt.Errorf("%s: %s", op, C.GoString(C.hipGetErrorName(r)))
}

// blockSize is the number of threads per block of the saxpy kernel.
const blockSize = 256

func blocks(n int) C.uint { return C.uint((n + blockSize - 1) / blockSize) }

// XNACKEnabled reports whether XNACK is on for device dev: its gcnArchName
// carries the "xnack+" feature (for example "gfx90a:sramecc+:xnack+").
func XNACKEnabled(dev int) bool {
	var prop C.hipDeviceProp_t
	if C.hipGetDeviceProperties(&prop, C.int(dev)) != C.hipSuccess {
		return false
	}
	return strings.Contains(C.GoString(&prop.gcnArchName[0]), "xnack+")
}

// PageableAccess reports hipDeviceAttributePageableMemoryAccess for device
// dev, which is 1 only when XNACK is on for every GPU of the process.
func PageableAccess(dev int) (bool, error) {
	var v C.int
	if err := check("hipDeviceGetAttribute", C.hipDeviceGetAttribute(&v, C.hipDeviceAttributePageableMemoryAccess, C.int(dev))); err != nil {
		return false, err
	}
	return v == 1, nil
}

// Saxpy is the saxpy kernel of a code object, loaded on one device, with the
// stream its launches run on.
type Saxpy struct {
	dev    C.int
	module C.hipModule_t
	fn     C.hipFunction_t
	stream C.hipStream_t
}

// Open loads the code object at path on device dev and looks up its saxpy
// kernel; the caller must Close the result.
func Open(path string, dev int) (*Saxpy, error) {
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	cname := C.CString("saxpy")
	defer C.free(unsafe.Pointer(cname))

	s := &Saxpy{dev: C.int(dev)}
	if err := check("hipSetDevice", C.hipSetDevice(s.dev)); err != nil {
		return nil, err
	}
	if err := check("hipModuleLoad", C.hipModuleLoad(&s.module, cpath)); err != nil {
		return nil, fmt.Errorf("load %s: %w", path, err)
	}
	if err := check("hipModuleGetFunction", C.hipModuleGetFunction(&s.fn, s.module, cname)); err != nil {
		C.hipModuleUnload(s.module)
		return nil, fmt.Errorf("saxpy in %s: %w", path, err)
	}
	if err := check("hipStreamCreate", C.hipStreamCreateWithFlags(&s.stream, C.hipStreamNonBlocking)); err != nil {
		C.hipModuleUnload(s.module)
		return nil, err
	}
	return s, nil
}

// Close destroys the stream and unloads the module.
func (s *Saxpy) Close() error {
	return errors.Join(
		check("hipStreamDestroy", C.hipStreamDestroy(s.stream)),
		check("hipModuleUnload", C.hipModuleUnload(s.module)))
}

func sameLength(x, y []float32) error {
	if len(x) != len(y) || len(x) == 0 {
		return fmt.Errorf("unifiedmem: x has %d elements, y %d", len(x), len(y))
	}
	return nil
}

// ZeroCopy computes y = a·x + y with the kernel reading and writing
// pageable host memory in place: the vectors are copied into C.malloc
// buffers (the cgo rules keep Go memory away from C), and the kernel gets
// those addresses. Without XNACK the GPU cannot fault the pages in.
func (s *Saxpy) ZeroCopy(a float32, x, y []float32) error {
	if err := sameLength(x, y); err != nil {
		return err
	}
	n := len(x)
	hx := C.malloc(C.size_t(n) * 4)
	defer C.free(hx)
	hy := C.malloc(C.size_t(n) * 4)
	defer C.free(hy)
	copy(unsafe.Slice((*float32)(hx), n), x)
	copy(unsafe.Slice((*float32)(hy), n), y)

	ca, cn := C.float(a), C.int(n)
	var pin runtime.Pinner
	defer pin.Unpin()
	pin.Pin(&ca)
	pin.Pin(&cn)
	pin.Pin(&hx)
	pin.Pin(&hy)
	args := []unsafe.Pointer{unsafe.Pointer(&ca), unsafe.Pointer(&hx), unsafe.Pointer(&hy), unsafe.Pointer(&cn)}
	if err := check("hipModuleLaunchKernel", C.hipModuleLaunchKernel(s.fn, blocks(n), 1, 1, blockSize, 1, 1, 0, s.stream, &args[0], nil)); err != nil {
		return err
	}
	if err := check("hipStreamSynchronize", C.hipStreamSynchronize(s.stream)); err != nil {
		return err
	}
	copy(y, unsafe.Slice((*float32)(hy), n))
	return nil
}

// Managed computes y = a·x + y on managed memory, prefetched to the device
// before the launch. Without XNACK managed memory does not migrate: it acts
// as pinned host memory, and every access of the kernel crosses the bus.
func (s *Saxpy) Managed(a float32, x, y []float32) error {
	if err := sameLength(x, y); err != nil {
		return err
	}
	n := len(x)
	bytes := C.size_t(n) * 4
	var mx, my unsafe.Pointer
	if err := check("hipMallocManaged", C.hipMallocManaged(&mx, bytes, C.hipMemAttachGlobal)); err != nil {
		return err
	}
	defer C.hipFree(mx)
	if err := check("hipMallocManaged", C.hipMallocManaged(&my, bytes, C.hipMemAttachGlobal)); err != nil {
		return err
	}
	defer C.hipFree(my)
	copy(unsafe.Slice((*float32)(mx), n), x)
	copy(unsafe.Slice((*float32)(my), n), y)
	for _, p := range []unsafe.Pointer{mx, my} {
		if err := check("hipMemPrefetchAsync", C.hipMemPrefetchAsync(p, bytes, s.dev, s.stream)); err != nil {
			return err
		}
	}

	ca, cn := C.float(a), C.int(n)
	var pin runtime.Pinner
	defer pin.Unpin()
	pin.Pin(&ca)
	pin.Pin(&cn)
	pin.Pin(&mx)
	pin.Pin(&my)
	args := []unsafe.Pointer{unsafe.Pointer(&ca), unsafe.Pointer(&mx), unsafe.Pointer(&my), unsafe.Pointer(&cn)}
	if err := check("hipModuleLaunchKernel", C.hipModuleLaunchKernel(s.fn, blocks(n), 1, 1, blockSize, 1, 1, 0, s.stream, &args[0], nil)); err != nil {
		return err
	}
	if err := check("hipStreamSynchronize", C.hipStreamSynchronize(s.stream)); err != nil {
		return err
	}
	copy(y, unsafe.Slice((*float32)(my), n))
	return nil
}

// staged computes y = a·x + y the portable way: device memory from
// hipMalloc, with the vectors copied in and the result copied out.
func (s *Saxpy) staged(a float32, x, y []float32) error {
	if err := sameLength(x, y); err != nil {
		return err
	}
	n := len(x)
	bytes := C.size_t(n) * 4
	var dx, dy unsafe.Pointer
	if err := check("hipMalloc", C.hipMalloc(&dx, bytes)); err != nil {
		return err
	}
	defer C.hipFree(dx)
	if err := check("hipMalloc", C.hipMalloc(&dy, bytes)); err != nil {
		return err
	}
	defer C.hipFree(dy)
	if err := check("hipMemcpy", C.hipMemcpy(dx, unsafe.Pointer(&x[0]), bytes, C.hipMemcpyHostToDevice)); err != nil {
		return err
	}
	if err := check("hipMemcpy", C.hipMemcpy(dy, unsafe.Pointer(&y[0]), bytes, C.hipMemcpyHostToDevice)); err != nil {
		return err
	}

	ca, cn := C.float(a), C.int(n)
	var pin runtime.Pinner
	defer pin.Unpin()
	pin.Pin(&ca)
	pin.Pin(&cn)
	pin.Pin(&dx)
	pin.Pin(&dy)
	args := []unsafe.Pointer{unsafe.Pointer(&ca), unsafe.Pointer(&dx), unsafe.Pointer(&dy), unsafe.Pointer(&cn)}
	if err := check("hipModuleLaunchKernel", C.hipModuleLaunchKernel(s.fn, blocks(n), 1, 1, blockSize, 1, 1, 0, s.stream, &args[0], nil)); err != nil {
		return err
	}
	if err := check("hipStreamSynchronize", C.hipStreamSynchronize(s.stream)); err != nil {
		return err
	}
	return check("hipMemcpy", C.hipMemcpy(unsafe.Pointer(&y[0]), dy, bytes, C.hipMemcpyDeviceToHost))
}

// Run computes y = a·x + y in place on host memory where the GPU can fault
// it in (XNACK on), and through device memory everywhere else.
func (s *Saxpy) Run(a float32, x, y []float32) error {
	if !XNACKEnabled(int(s.dev)) {
		return s.staged(a, x, y)
	}
	return s.ZeroCopy(a, x, y)
}

// RunManaged uses managed memory only where it migrates: pageable memory
// access, which needs XNACK on every GPU of the process.
func (s *Saxpy) RunManaged(a float32, x, y []float32) error {
	on, err := PageableAccess(int(s.dev))
	if err != nil {
		return err
	}
	if on {
		return s.Managed(a, x, y)
	}
	return s.staged(a, x, y)
}

// RunAuto picks managed memory where the device says it supports it. But
// hipDeviceAttributeManagedMemory reports HMM support, not XNACK: it is 1 on
// a gfx90a running with XNACK off, where the managed path gets pinned host
// memory instead of migrating pages.
func (s *Saxpy) RunAuto(a float32, x, y []float32) error {
	var managed C.int
	if err := check("hipDeviceGetAttribute", C.hipDeviceGetAttribute(&managed, C.hipDeviceAttributeManagedMemory, s.dev)); err != nil {
		return err
	}
	if managed == 1 { // hazard: HL4005
		return s.Managed(a, x, y)
	}
	return s.staged(a, x, y)
}
