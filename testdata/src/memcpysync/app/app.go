// Package app uses wrap without cgo of its own: the copy-sync rules reach it
// through facts.
package app

import (
	"unsafe"

	"memcpysync/wrap"
)

func wrappedHazard(dst, src unsafe.Pointer) float32 { // want wrappedHazard:`copiesInto\(hipMemcpy dst=p0\) readsParams\[0\]`
	wrap.CopyD2D(dst, src, 64)
	return wrap.Checksum(dst, 16) // want `Checksum reads dst on the host before the device-to-device copy into it by CopyD2D \(C.hipMemcpy\) is ordered`
}

func wrappedSync(dst, src unsafe.Pointer) float32 { // want wrappedSync:`synchronizes\(device\)`
	wrap.CopyD2D(dst, src, 64)
	wrap.Sync()
	return wrap.Checksum(dst, 16)
}

func kindFromCaller(dst, src unsafe.Pointer) float32 { // want kindFromCaller:`copiesInto\(hipMemcpy dst=p0\) readsParams\[0\]`
	wrap.Copy(dst, src, 64, wrap.DeviceToDevice)
	return wrap.Checksum(dst, 16) // want `Checksum reads dst on the host before the device-to-device copy into it by Copy \(C.hipMemcpy\)`
}

func hostToDeviceKind(dst, src unsafe.Pointer) float32 { // want hostToDeviceKind:`readsParams\[0\]`
	wrap.Copy(dst, src, 64, wrap.HostToDevice)
	return wrap.Checksum(dst, 16)
}

func copyAndWait(dst, src unsafe.Pointer) float32 { // want copyAndWait:`synchronizes\(device\)`
	wrap.CopyAndWait(dst, src, 64)
	return wrap.Checksum(dst, 16)
}

// refresh is a second-level wrapper: its callers inherit the copy.
func refresh(b, src *wrap.Buffer) { // want refresh:`copiesInto\(hipMemcpy dst=p0.Ptr\)`
	b.CopyFrom(src)
}

func bufferHazard(b, src wrap.Buffer) float32 { // want bufferHazard:`copiesInto\(hipMemcpy dst=p0.Ptr\) readsParams\[0\.Ptr\]`
	refresh(&b, &src)
	return wrap.Checksum(b.Ptr, 16) // want `Checksum reads b.Ptr on the host before the device-to-device copy into it by refresh \(C.hipMemcpy\)`
}

func streamHazard(st *wrap.Stream, dst, src unsafe.Pointer) float32 { // want streamHazard:`copiesInto\(hipMemcpyAsync dst=p1 stream=p0.s\) readsParams\[1\]`
	st.CopyAsync(dst, src, 64)
	return wrap.Checksum(dst, 16) // want `Checksum reads dst on the host before the device-to-device copy into it by CopyAsync \(C.hipMemcpyAsync\)`
}

func streamSynced(st *wrap.Stream, dst, src unsafe.Pointer) float32 { // want streamSynced:`synchronizes\(p0.s\) readsParams\[1\]`
	st.CopyAsync(dst, src, 64)
	st.Synchronize()
	return wrap.Checksum(dst, 16)
}
