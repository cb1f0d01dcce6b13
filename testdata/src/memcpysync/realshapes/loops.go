package realshapes

// #include <hip/hip_runtime_api.h>
import "C"

import (
	"errors"
	"unsafe"
)

// Vec is device memory with its length next to it.
type Vec struct {
	ptr unsafe.Pointer
	n   int
}

var errCopy = errors.New("copy failed")

// copyVec copies on stream s.
func copyVec(dst, src *Vec, s C.hipStream_t) error { // want copyVec:`copiesInto\(hipMemcpyAsync dst=p0\.ptr stream=p2\)`
	if C.hipMemcpyAsync(dst.ptr, src.ptr, C.size_t(4*src.n), C.hipMemcpyDeviceToDevice, s) != C.hipSuccess {
		return errCopy
	}
	return nil
}

// scaleVec launches a kernel over v on stream s.
func scaleVec(fn C.hipFunction_t, s C.hipStream_t, v *Vec) error { // want scaleVec:`deviceReads\(p2\.n on p1; p2\.ptr on p1\)`
	n := C.int(v.n)
	args := []unsafe.Pointer{unsafe.Pointer(&v.ptr), unsafe.Pointer(&n)}
	if C.hipModuleLaunchKernel(fn, 1, 1, 1, 64, 1, 1, 0, s, &args[0], nil) != C.hipSuccess {
		return errCopy
	}
	return nil
}

// lengths reads only the lengths on the host.
func lengths(v *Vec) int { return v.n }

// The first loop copies into every element, returning on an error (no
// path after it took that return); the second launches over each element
// on another stream, in an if statement's init.
func loopsHazard(fn C.hipFunction_t, a, b C.hipStream_t, src *Vec, dsts []*Vec) error { // want loopsHazard:`readsParams\[4\]`
	for _, d := range dsts {
		if err := copyVec(d, src, a); err != nil {
			return err
		}
	}
	for _, d := range dsts {
		if err := scaleVec(fn, b, d); err != nil { // want `scaleVec reads d\.ptr on a different stream than the copy's`
			return err
		}
	}
	return nil
}

// The same loops on the copy's stream are ordered.
func loopsTwin(fn C.hipFunction_t, a C.hipStream_t, src *Vec, dsts []*Vec) error { // want loopsTwin:`readsParams\[3\]`
	for _, d := range dsts {
		if err := copyVec(d, src, a); err != nil {
			return err
		}
	}
	for _, d := range dsts {
		if err := scaleVec(fn, a, d); err != nil {
			return err
		}
	}
	return nil
}

// Reading another field of each element does not read the copies.
func loopsOtherField(a C.hipStream_t, src *Vec, dsts []*Vec) (int, error) { // want loopsOtherField:`readsParams\[2\]`
	for _, d := range dsts {
		if err := copyVec(d, src, a); err != nil {
			return 0, err
		}
	}
	total := 0
	for _, d := range dsts {
		total += lengths(d)
	}
	return total, nil
}

// A direct copy into every element (its pointer argument inside the
// closure cgo writes around the call), then a launch over each element on
// another stream.
func loopsDirectHazard(fn C.hipFunction_t, a, b C.hipStream_t, src *Vec, dsts []*Vec) { // want loopsDirectHazard:`readsParams\[4\]`
	for _, d := range dsts {
		C.hipMemcpyAsync(d.ptr, src.ptr, C.size_t(4*src.n), C.hipMemcpyDeviceToDevice, a)
	}
	for _, d := range dsts {
		scaleVec(fn, b, d) // want `scaleVec reads d\.ptr on a different stream than the copy's`
	}
}

// The same on the copy's stream.
func loopsDirectTwin(fn C.hipFunction_t, a C.hipStream_t, src *Vec, dsts []*Vec) { // want loopsDirectTwin:`readsParams\[3\]`
	for _, d := range dsts {
		C.hipMemcpyAsync(d.ptr, src.ptr, C.size_t(4*src.n), C.hipMemcpyDeviceToDevice, a)
	}
	for _, d := range dsts {
		scaleVec(fn, a, d)
	}
}
