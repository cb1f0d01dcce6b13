// Package handdecl declares the HIP prototypes it uses by hand instead of
// including the headers, and names copy kinds with its own macros and enums.
// cgocall matches runtime functions by name, so these calls are found like
// the ones made through the real headers. Annotations as in hipcalls.
package handdecl

/*
#include <stddef.h>

typedef int hipError_t;
typedef struct ihipStream_t *hipStream_t;

hipError_t hipMalloc(void **ptr, size_t size);
hipError_t hipFree(void *ptr);
hipError_t hipMemcpy(void *dst, const void *src, size_t sizeBytes, int kind);
hipError_t hipMemcpyAsync(void *dst, const void *src, size_t sizeBytes, int kind, hipStream_t stream);
hipError_t hipStreamSynchronize(hipStream_t stream);
hipError_t hipDeviceSynchronize(void);
static hipError_t hipInit(unsigned int flags) { (void)flags; return 0; }

// Not runtime functions: declared by this program, not in hipapi's table.
hipError_t myAlloc(void **ptr, size_t size);
int hipMemcpyFromTheFuture(void *dst, int kind);

#define D2D 3
#define H2D 1
#define KIND_ALIAS D2D
enum { MY_D2H = 2, MY_DEFAULT = 4 };
*/
import "C"

import "unsafe"

const goD2H = 2

// Copies copies with hand-named kinds.
func Copies(dst, src unsafe.Pointer, n C.size_t, s C.hipStream_t, k C.int) {
	C.hipInit(0)                                    // call: hipInit 0
	C.hipMemcpy(dst, src, n, C.D2D)                 // call: hipMemcpy dst | src | n | C.D2D // kind: D2D=3
	C.hipMemcpy(dst, src, n, C.H2D)                 // call: hipMemcpy dst | src | n | C.H2D // kind: H2D=1
	C.hipMemcpy(dst, src, n, C.MY_D2H)              // call: hipMemcpy dst | src | n | C.MY_D2H // kind: MY_D2H=2
	C.hipMemcpy(dst, src, n, C.KIND_ALIAS)          // call: hipMemcpy dst | src | n | C.KIND_ALIAS // kind: KIND_ALIAS=3
	C.hipMemcpy(dst, src, n, goD2H)                 // call: hipMemcpy dst | src | n | goD2H // kind: -=2
	C.hipMemcpy(dst, src, n, k)                     // call: hipMemcpy dst | src | n | k // kind: -=-
	C.hipMemcpyAsync(dst, src, n, C.MY_DEFAULT, s)  // call: hipMemcpyAsync dst | src | n | C.MY_DEFAULT | s // kind: MY_DEFAULT=4
	C.hipMemcpyAsync(dst, src, n, C.D2D+0*C.H2D, s) // call: hipMemcpyAsync dst | src | n | C.D2D + 0 * C.H2D | s // kind: -=3
	defer C.hipMemcpyAsync(dst, src, n, C.H2D, s)   // call: hipMemcpyAsync dst | src | n | C.H2D | s // kind: H2D=1
	r, err := C.hipMemcpy(dst, src, n, C.D2D)       // call: hipMemcpy dst | src | n | C.D2D // kind: D2D=3
	_, _ = r, err
}

// Allocs allocates and frees.
func Allocs(n C.size_t) {
	var p unsafe.Pointer
	if C.hipMalloc(&p, n) != 0 { // call: hipMalloc &p | n
		return
	}
	C.myAlloc(&p, n)
	C.hipMemcpyFromTheFuture(p, C.D2D)
	C.hipStreamSynchronize(nil) // call: hipStreamSynchronize nil
	C.hipDeviceSynchronize()    // call: hipDeviceSynchronize
	C.hipFree(p)                // call: hipFree p
}
