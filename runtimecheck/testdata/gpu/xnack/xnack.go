// Package xnack launches a kernel that writes into the memory it is given.
// System memory (C.malloc) reaches the GPU only where the device can page it
// in (XNACK on AMD; the pageable-memory attribute on NVIDIA): TestSystemNoSkip
// launches on it without asking (HL4004) and TestSystemSkip skips unless the
// device says it can. TestManaged uses managed memory without asking, which
// every NVIDIA GPU migrates (HL4004 is an AMD hazard there).
package xnack

/*
#include <stdlib.h>
#include <string.h>
#include <hip/hip_runtime_api.h>
*/
import "C"

import (
	"fmt"
	"runtime"
	"unsafe"
)

// ptx is one kernel, fill(p, n): p[i] = i for i < n, one block of threads.
const ptx = `.version 7.0
.target sm_50
.address_size 64
.visible .entry fill(.param .u64 p, .param .u32 n)
{
	.reg .pred %q;
	.reg .b32 %r<4>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [p];
	ld.param.u32 %r1, [n];
	mov.u32 %r2, %tid.x;
	setp.ge.u32 %q, %r2, %r1;
	@%q bra DONE;
	cvta.to.global.u64 %rd2, %rd1;
	mul.wide.u32 %rd3, %r2, 4;
	add.s64 %rd2, %rd2, %rd3;
	st.global.u32 [%rd2], %r2;
DONE:
	ret;
}
`

// N is the number of elements each kernel writes.
const N = 256

func status(op string, r C.hipError_t) error {
	if r != C.hipSuccess {
		return fmt.Errorf("%s: error %d", op, int(r))
	}
	return nil
}

// kernel loads the module and looks fill up; unload the module when done.
func kernel() (C.hipModule_t, C.hipFunction_t, error) {
	img := C.CString(ptx)
	defer C.free(unsafe.Pointer(img))
	name := C.CString("fill")
	defer C.free(unsafe.Pointer(name))
	var m C.hipModule_t
	if err := status("hipModuleLoadData", C.hipModuleLoadData(&m, unsafe.Pointer(img))); err != nil {
		return m, nil, err
	}
	var f C.hipFunction_t
	if err := status("hipModuleGetFunction", C.hipModuleGetFunction(&f, m, name)); err != nil {
		C.hipModuleUnload(m)
		return m, nil, err
	}
	return m, f, nil
}

// check reads back what the kernel wrote.
func check(p unsafe.Pointer) error {
	got := unsafe.Slice((*uint32)(p), N)
	for i, v := range got {
		if v != uint32(i) {
			return fmt.Errorf("element %d is %d after the kernel, want %d", i, v, i)
		}
	}
	return nil
}

// FillSystem runs the kernel on C.malloc memory and waits for it.
func FillSystem() error {
	m, f, err := kernel()
	if err != nil {
		return err
	}
	defer C.hipModuleUnload(m)
	p := C.malloc(N * 4)
	defer C.free(p)
	C.memset(p, 0, N*4)
	n := C.uint(N)
	// The argument array is Go memory holding Go pointers: pin what they
	// point to so cgo lets it through.
	var pin runtime.Pinner
	defer pin.Unpin()
	pin.Pin(&p)
	pin.Pin(&n)
	args := []unsafe.Pointer{unsafe.Pointer(&p), unsafe.Pointer(&n)}
	if err := status("hipModuleLaunchKernel", C.hipModuleLaunchKernel(f, 1, 1, 1, N, 1, 1, 0, nil, &args[0], nil)); err != nil {
		return err
	}
	if err := status("hipDeviceSynchronize", C.hipDeviceSynchronize()); err != nil {
		return err
	}
	return check(p)
}

// FillManaged runs the kernel on managed memory and waits for it.
func FillManaged() error {
	m, f, err := kernel()
	if err != nil {
		return err
	}
	defer C.hipModuleUnload(m)
	var p unsafe.Pointer
	if err := status("hipMallocManaged", C.hipMallocManaged(&p, N*4, C.hipMemAttachGlobal)); err != nil {
		return err
	}
	defer C.hipFree(p)
	n := C.uint(N)
	// The argument array is Go memory holding Go pointers: pin what they
	// point to so cgo lets it through.
	var pin runtime.Pinner
	defer pin.Unpin()
	pin.Pin(&p)
	pin.Pin(&n)
	args := []unsafe.Pointer{unsafe.Pointer(&p), unsafe.Pointer(&n)}
	if err := status("hipModuleLaunchKernel", C.hipModuleLaunchKernel(f, 1, 1, 1, N, 1, 1, 0, nil, &args[0], nil)); err != nil {
		return err
	}
	if err := status("hipDeviceSynchronize", C.hipDeviceSynchronize()); err != nil {
		return err
	}
	return check(p)
}

// Pageable reports whether device 0 can reach pageable system memory: XNACK
// on AMD GPUs, its analogue on NVIDIA ones.
func Pageable() bool {
	var v C.int
	if C.hipDeviceGetAttribute(&v, C.hipDeviceAttributePageableMemoryAccess, 0) != C.hipSuccess {
		return false
	}
	return v == 1
}
