// Package patterns holds XNACK-dependent memory uses and their guarded twins
// in the styles real Go GPU code is written in. HIP prototypes are declared
// by hand, with attributes as local macros. Findings land at entry points:
// the tests of this package (HL4004) and the programs patternsprog,
// patternsguarded (HL4001, HL4002); HL4003 and HL4005 where they are written.
package patterns

/*
#include <stddef.h>
#include <stdlib.h>
typedef int hipError_t;
typedef struct ihipModuleSymbol_t* hipFunction_t;
typedef struct ihipStream_t* hipStream_t;
typedef struct hipDeviceProp_t {
	char gcnArchName[256];
	int managedMemory;
	int pageableMemoryAccess;
} hipDeviceProp_t;
#define HIP_OK 0
#define ATTACH_GLOBAL 1
#define ATTR_CONCURRENT_MANAGED 9
#define ATTR_MANAGED 24
#define ATTR_PAGEABLE 65
hipError_t hipInit(unsigned int flags);
hipError_t hipMalloc(void** ptr, size_t size);
hipError_t hipFree(void* ptr);
hipError_t hipMallocManaged(void** ptr, size_t size, unsigned int flags);
hipError_t hipDeviceGetAttribute(int* value, int attr, int device);
hipError_t hipGetDeviceProperties(hipDeviceProp_t* prop, int device);
hipError_t hipMemPrefetchAsync(const void* ptr, size_t size, int device, hipStream_t stream);
hipError_t hipModuleLaunchKernel(hipFunction_t f, unsigned int gx, unsigned int gy, unsigned int gz,
	unsigned int bx, unsigned int by, unsigned int bz, unsigned int shared, hipStream_t stream,
	void** args, void** extra);
*/
import "C"

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"unsafe"
)

var kernel C.hipFunction_t

var errNoXNACK = errors.New("XNACK is off: set HSA_XNACK=1 on an xnack-capable GPU")

// Style: every call wrapped in check().
func check(r C.hipError_t) error {
	if r != C.HIP_OK {
		return fmt.Errorf("hip error %d", int(r))
	}
	return nil
}

// LaunchMalloc passes C.malloc memory to a kernel.
func LaunchMalloc(n int) error { // want LaunchMalloc:"needsXNACK\\(system\\) initializesHIP"
	buf := C.malloc(C.size_t(n))
	defer C.free(buf)
	args := []unsafe.Pointer{unsafe.Pointer(&buf)}
	return check(C.hipModuleLaunchKernel(kernel, 1, 1, 1, 64, 1, 1, 0, nil, &args[0], nil))
}

// LaunchDevice passes hipMalloc memory: no XNACK needed.
func LaunchDevice(n int) error { // want LaunchDevice:"initializesHIP"
	var d unsafe.Pointer
	if err := check(C.hipMalloc(&d, C.size_t(n))); err != nil {
		return err
	}
	defer C.hipFree(d)
	args := []unsafe.Pointer{unsafe.Pointer(&d)}
	return check(C.hipModuleLaunchKernel(kernel, 1, 1, 1, 64, 1, 1, 0, nil, &args[0], nil))
}

// Style: the status converted to a type with an error method.
type status C.hipError_t

func (s status) error(what string) error {
	if s != C.HIP_OK {
		return fmt.Errorf("%s: hip error %d", what, int(s))
	}
	return nil
}

// NewManaged allocates managed memory.
func NewManaged(n int) (unsafe.Pointer, error) { // want NewManaged:"needsXNACK\\(managed\\) initializesHIP"
	var p unsafe.Pointer
	if err := status(C.hipMallocManaged(&p, C.size_t(n), C.ATTACH_GLOBAL)).error("managed"); err != nil {
		return nil, err
	}
	return p, nil
}

// PageableAccess reads the pageable-memory attribute, passed as a local
// macro: it is 1 only with XNACK on.
func PageableAccess() bool { // want PageableAccess:"reportsXNACK\\(result=0\\) initializesHIP"
	var v C.int
	if status(C.hipDeviceGetAttribute(&v, C.ATTR_PAGEABLE, 0)).error("attribute") != nil {
		return false
	}
	return v == 1
}

// ManagedAccess reads the managed-memory attribute: HMM support, not XNACK.
func ManagedAccess() bool { // want ManagedAccess:"reportsHMM\\(result=0\\) initializesHIP"
	var v C.int
	if status(C.hipDeviceGetAttribute(&v, C.ATTR_MANAGED, 0)).error("attribute") != nil {
		return false
	}
	return v == 1
}

// Style: a Result helper that panics on failure.
func Result(r C.hipError_t) {
	if r != C.HIP_OK {
		panic(fmt.Sprintf("hip error %d", int(r)))
	}
}

// ArchXNACK checks gcnArchName for "xnack+".
func ArchXNACK() bool { // want ArchXNACK:"reportsXNACK\\(result=0\\) initializesHIP"
	var prop C.hipDeviceProp_t
	Result(C.hipGetDeviceProperties(&prop, 0))
	return strings.Contains(C.GoString(&prop.gcnArchName[0]), "xnack+")
}

// PrefetchGuarded prefetches managed memory only with XNACK on.
func PrefetchGuarded(n int) error { // want PrefetchGuarded:"errUnlessXNACK\\(result=0\\) initializesHIP"
	if !PageableAccess() {
		return errNoXNACK
	}
	p, err := NewManaged(n)
	if err != nil {
		return err
	}
	Result(C.hipMemPrefetchAsync(p, C.size_t(n), 0, nil))
	return nil
}

// Wrong guards (HL4005): the managed-memory attributes, here as local macros.
func launchIfManaged(n int) {
	if ManagedAccess() { // want `ManagedAccess \(it checks hipDeviceAttributeManagedMemory\) reports HMM \(managed memory\) support, not XNACK`
		LaunchMalloc(n)
	}
}

func launchIfConcurrent(n int) {
	var v C.int
	Result(C.hipDeviceGetAttribute(&v, C.ATTR_CONCURRENT_MANAGED, 0))
	if v == 1 { // want `hipDeviceAttributeConcurrentManagedAccess reports HMM \(managed memory\) support, not XNACK`
		LaunchMalloc(n)
	}
}

// Right guard, same shape.
func launchIfPageable(n int) {
	var v C.int
	Result(C.hipDeviceGetAttribute(&v, C.ATTR_PAGEABLE, 0))
	if v == 1 {
		LaunchMalloc(n)
	}
}

// A device type that caches its attributes in fields.
type Device struct {
	pageable C.int
	managed  C.int
}

func OpenDevice() *Device { // want OpenDevice:"initializesHIP"
	d := &Device{}
	Result(C.hipDeviceGetAttribute(&d.pageable, C.ATTR_PAGEABLE, 0))
	Result(C.hipDeviceGetAttribute(&d.managed, C.ATTR_MANAGED, 0))
	return d
}

func (d *Device) LaunchHost(n int) error { // want LaunchHost:"initializesHIP"
	if d.pageable != 1 {
		return errNoXNACK
	}
	return LaunchMalloc(n)
}

func (d *Device) LaunchHostWrongGuard(n int) error { // want LaunchHostWrongGuard:"initializesHIP"
	if d.managed != 1 { // want `hipDeviceAttributeManagedMemory reports HMM \(managed memory\) support, not XNACK`
		return errNoXNACK
	}
	return LaunchMalloc(n)
}

// Style: every call runs on a locked OS thread through ctx.Do.
type Context struct{ mu sync.Mutex }

func (c *Context) Do(fn func() error) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	return fn()
}

// XNACKEnabled checks gcnArchName inside ctx.Do.
func (c *Context) XNACKEnabled() (on bool) { // want XNACKEnabled:"reportsXNACK\\(result=0\\) initializesHIP"
	c.Do(func() error {
		var prop C.hipDeviceProp_t
		if err := check(C.hipGetDeviceProperties(&prop, 0)); err != nil {
			return err
		}
		on = strings.Contains(C.GoString(&prop.gcnArchName[0]), "xnack+")
		return nil
	})
	return on
}

// LaunchHost launches on C.malloc memory inside ctx.Do.
func (c *Context) LaunchHost(n int) error { // want LaunchHost:"needsXNACK\\(system\\) initializesHIP"
	buf := C.malloc(C.size_t(n))
	defer C.free(buf)
	args := []unsafe.Pointer{unsafe.Pointer(&buf)}
	return c.Do(func() error {
		return check(C.hipModuleLaunchKernel(kernel, 1, 1, 1, 64, 1, 1, 0, nil, &args[0], nil))
	})
}

// LaunchHostGuarded checks first, through the same context.
func (c *Context) LaunchHostGuarded(n int) error { // want LaunchHostGuarded:"initializesHIP"
	if !c.XNACKEnabled() {
		return errNoXNACK
	}
	return c.LaunchHost(n)
}

// EnableLate sets HSA_XNACK after ctx.Do initialized the runtime (HL4003).
func EnableLate(c *Context) { // want EnableLate:"initializesHIP setsHSA_XNACK"
	c.Do(func() error { return check(C.hipInit(0)) })
	os.Setenv("HSA_XNACK", "1") // want `HSA_XNACK is set after a HIP runtime call has already run on this path`
}

// EnableEarly sets it before.
func EnableEarly(c *Context) { // want EnableEarly:"initializesHIP setsHSA_XNACK guardsXNACK"
	os.Setenv("HSA_XNACK", "1")
	c.Do(func() error { return check(C.hipInit(0)) })
}
