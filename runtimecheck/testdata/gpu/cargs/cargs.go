// Package cargs launches a kernel whose argument array lives in C memory:
// the pointer and the count are copied into one C.malloc'd block, and the
// kernelParams array points into it, so no Go code hands the buffer to the
// launch directly. FillHost runs the kernel on C.malloc memory, which a GPU
// without pageable-memory access (XNACK off; most NVIDIA systems) cannot
// reach; FillDevice runs it on hipMalloc memory.
package cargs

/*
#include <stdlib.h>
#include <string.h>
#include <hip/hip_runtime_api.h>
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// kernelPTX is fill(p, n): p[i] = i for every thread i < n.
const kernelPTX = `.version 7.0
.target sm_50
.address_size 64
.visible .entry fill(.param .u64 p, .param .u32 n)
{
	.reg .pred %q;
	.reg .b32 %r<3>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [p];
	ld.param.u32 %r1, [n];
	mov.u32 %r2, %tid.x;
	setp.ge.u32 %q, %r2, %r1;
	@%q bra END;
	cvta.to.global.u64 %rd2, %rd1;
	mul.wide.u32 %rd3, %r2, 4;
	add.s64 %rd2, %rd2, %rd3;
	st.global.u32 [%rd2], %r2;
END:
	ret;
}
`

// N is the number of words the kernel writes.
const N = 128

func status(op string, r C.hipError_t) error {
	if r != C.hipSuccess {
		return fmt.Errorf("%s: error %d", op, int(r))
	}
	return nil
}

// fill loads the module and returns the kernel; unload m when done.
func fill() (m C.hipModule_t, f C.hipFunction_t, err error) {
	img := C.CString(kernelPTX)
	defer C.free(unsafe.Pointer(img))
	name := C.CString("fill")
	defer C.free(unsafe.Pointer(name))
	if err = status("hipModuleLoadData", C.hipModuleLoadData(&m, unsafe.Pointer(img))); err != nil {
		return
	}
	if err = status("hipModuleGetFunction", C.hipModuleGetFunction(&f, m, name)); err != nil {
		C.hipModuleUnload(m)
	}
	return
}

// argBlock copies the kernel's arguments (p, n) into C memory and returns
// the kernelParams array, also in that block; free it with C.free.
func argBlock(p unsafe.Pointer) (block unsafe.Pointer, params *unsafe.Pointer) {
	const word = unsafe.Sizeof(uintptr(0))
	block = C.malloc(C.size_t(4 * word))
	*(*unsafe.Pointer)(block) = p
	*(*C.uint)(unsafe.Add(block, word)) = N
	array := (*[2]unsafe.Pointer)(unsafe.Add(block, 2*word))
	array[0] = block
	array[1] = unsafe.Add(block, word)
	return block, &array[0]
}

// FillHost runs the kernel on C.malloc memory.
func FillHost() error {
	m, f, err := fill()
	if err != nil {
		return err
	}
	defer C.hipModuleUnload(m)
	p := C.malloc(N * 4)
	defer C.free(p)
	C.memset(p, 0, N*4)
	block, params := argBlock(p)
	defer C.free(block)
	if err := status("hipModuleLaunchKernel", C.hipModuleLaunchKernel(f, 1, 1, 1, N, 1, 1, 0, nil, params, nil)); err != nil {
		return err
	}
	if err := status("hipDeviceSynchronize", C.hipDeviceSynchronize()); err != nil {
		return err
	}
	return check(unsafe.Slice((*uint32)(p), N))
}

// FillDevice runs the kernel on device memory and copies the result back.
func FillDevice() error {
	m, f, err := fill()
	if err != nil {
		return err
	}
	defer C.hipModuleUnload(m)
	var p unsafe.Pointer
	if err := status("hipMalloc", C.hipMalloc(&p, N*4)); err != nil {
		return err
	}
	defer C.hipFree(p)
	block, params := argBlock(p)
	defer C.free(block)
	if err := status("hipModuleLaunchKernel", C.hipModuleLaunchKernel(f, 1, 1, 1, N, 1, 1, 0, nil, params, nil)); err != nil {
		return err
	}
	if err := status("hipDeviceSynchronize", C.hipDeviceSynchronize()); err != nil {
		return err
	}
	out := make([]uint32, N)
	if err := status("hipMemcpyDtoH", C.hipMemcpyDtoH(unsafe.Pointer(&out[0]), C.hipDeviceptr_t(p), N*4)); err != nil {
		return err
	}
	return check(out)
}

func check(got []uint32) error {
	for i, v := range got {
		if v != uint32(i) {
			return fmt.Errorf("word %d is %d after the kernel, want %d", i, v, i)
		}
	}
	return nil
}
