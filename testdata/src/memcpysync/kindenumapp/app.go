// Package kindenumapp uses package kindenum as model code does: buffers
// uploaded from the host and read back, clones read before and after a
// synchronize, and copies whose direction the library's own enum names.
package kindenumapp

import (
	"unsafe"

	"memcpysync/kindenum"
)

// headOfUpload reads a buffer made from host data: the upload landed.
func headOfUpload(rt kindenum.Runtime, host []float32) (float32, error) {
	b, err := kindenum.FromHost(rt, host)
	if err != nil {
		return 0, err
	}
	return b.Host()[0], nil
}

// headOfClone reads a clone before it landed.
func headOfClone(b *kindenum.Buffer) (float32, error) {
	c, err := b.Clone()
	if err != nil {
		return 0, err
	}
	return c.Host()[0], nil // want `reads c\.ptr on the host before the device-to-device copy into it by Clone \(C\.hipMemcpy\) is ordered`
}

// headOfCloneSynced waits for the device first.
func headOfCloneSynced(rt kindenum.Runtime, b *kindenum.Buffer) (float32, error) {
	c, err := b.Clone()
	if err != nil {
		return 0, err
	}
	if err := rt.Synchronize(); err != nil {
		return 0, err
	}
	return c.Host()[0], nil
}

// headOfUploaded reads what Upload returned: the host path landed, the
// device path did not, and Upload does not say which it took; the library
// gives no copy for its callers to order.
func headOfUploaded(rt kindenum.Runtime, host []float32) (float32, error) {
	b, err := kindenum.Upload(rt, unsafe.Pointer(&host[0]), 4*len(host), false)
	if err != nil {
		return 0, err
	}
	return b.Host()[0], nil
}

// deviceCopy copies device to device through the library's enum and reads
// the destination at once.
func deviceCopy(dst, src *kindenum.Buffer) float32 { // want deviceCopy:`copiesInto\(hipMemcpy dst=p0\.ptr\) readsParams\[0\.ptr\]`
	kindenum.HIP{}.Memcpy(dst.Ptr(), src.Ptr(), 4, kindenum.DeviceToDevice)
	return dst.Host()[0] // want `reads dst\.ptr on the host before the device-to-device copy into it by Memcpy \(C\.hipMemcpy\) is ordered`
}

// hostCopy copies from the host through the same enum: nothing in flight.
func hostCopy(dst *kindenum.Buffer, host []float32) float32 { // want hostCopy:`readsParams\[0\.ptr\]`
	kindenum.HIP{}.Memcpy(dst.Ptr(), unsafe.Pointer(&host[0]), 4, kindenum.HostToDevice)
	return dst.Host()[0]
}

// legacyDevice goes through the if-chain translation.
func legacyDevice(dst, src *kindenum.Buffer) float32 { // want legacyDevice:`copiesInto\(hipMemcpy dst=p0\.ptr\) readsParams\[0\.ptr\]`
	kindenum.CopyLegacy(dst.Ptr(), src.Ptr(), 4, kindenum.DeviceToDevice)
	return dst.Host()[0] // want `reads dst\.ptr on the host before the device-to-device copy into it by CopyLegacy \(C\.hipMemcpy\) is ordered`
}

// legacyDownload copies device to host through it: nothing in flight.
func legacyDownload(dst, src *kindenum.Buffer) float32 { // want legacyDownload:`readsParams\[0\.ptr\]`
	kindenum.CopyLegacy(dst.Ptr(), src.Ptr(), 4, kindenum.DeviceToHost)
	return dst.Host()[0]
}

// tableDevice goes through a translation no reader follows: the copy's
// kind is unknown (a miss hiplint accepts over guessing).
func tableDevice(dst, src *kindenum.Buffer) float32 { // want tableDevice:`readsParams\[0\.ptr\] deviceReads\(p1\.ptr on null\)`
	kindenum.CopyTable(dst.Ptr(), src.Ptr(), 4, kindenum.DeviceToDevice)
	return dst.Host()[0]
}

// passOn hands its caller's kind on: its caller decides.
func passOn(dst, src *kindenum.Buffer, k kindenum.MemcpyKind) float32 { // want passOn:`copiesInto\(hipMemcpy dst=p0\.ptr kind=p2\{0:10,1:100,2:1000,3:10,4:10,5:10,6:10,7:10\}\)`
	kindenum.HIP{}.Memcpy(dst.Ptr(), src.Ptr(), 4, k)
	return 0
}

// viaPassOn reads after passOn copied device to device.
func viaPassOn(dst, src *kindenum.Buffer) float32 { // want viaPassOn:`copiesInto\(hipMemcpy dst=p0\.ptr\) readsParams\[0\.ptr\]`
	passOn(dst, src, kindenum.DeviceToDevice)
	return dst.Host()[0] // want `reads dst\.ptr on the host before the device-to-device copy into it by passOn \(C\.hipMemcpy\) is ordered`
}

// viaPassOnHost reads after passOn copied from the host.
func viaPassOnHost(dst, src *kindenum.Buffer) float32 { // want viaPassOnHost:`readsParams\[0\.ptr\]`
	passOn(dst, src, kindenum.HostToDevice)
	return dst.Host()[0]
}

// flagDevice copies device to device with the runtime's own value.
func flagDevice(dst, src *kindenum.Buffer) float32 { // want flagDevice:`copiesInto\(hipMemcpy dst=p0\.ptr\) readsParams\[0\.ptr\]`
	kindenum.Copy(dst.Ptr(), src.Ptr(), 4, kindenum.Device)
	return dst.Host()[0] // want `reads dst\.ptr on the host before the device-to-device copy into it by Copy \(C\.hipMemcpy\) is ordered`
}

// flagHost copies from the host: nothing in flight.
func flagHost(dst *kindenum.Buffer, host []float32) float32 { // want flagHost:`readsParams\[0\.ptr\]`
	kindenum.Copy(dst.Ptr(), unsafe.Pointer(&host[0]), 4, kindenum.Host)
	return dst.Host()[0]
}

// methodDevice copies device to device through the receiver's switch.
func methodDevice(dst, src *kindenum.Buffer) float32 { // want methodDevice:`copiesInto\(hipMemcpy dst=p0\.ptr\) readsParams\[0\.ptr\]`
	kindenum.CopyKind(dst.Ptr(), src.Ptr(), 4, kindenum.DeviceToDevice)
	return dst.Host()[0] // want `reads dst\.ptr on the host before the device-to-device copy into it by CopyKind \(C\.hipMemcpy\) is ordered`
}

// methodDownload copies device to host through it: nothing in flight.
func methodDownload(dst, src *kindenum.Buffer) float32 { // want methodDownload:`readsParams\[0\.ptr\]`
	kindenum.CopyKind(dst.Ptr(), src.Ptr(), 4, kindenum.DeviceToHost)
	return dst.Host()[0]
}

// cloneShape reads the clone's shape: host metadata, not the copy.
func cloneShape(t *kindenum.Tensor) int { // want cloneShape:`readsParams\[0\.shape\]`
	c, err := kindenum.CloneTensor(t)
	if err != nil {
		return 0
	}
	return c.Shape()[0]
}

// cloneHead reads the clone's elements before they landed: Host views
// t.storage.Ptr(), and every Storage of the package is a getter of its ptr.
func cloneHead(t *kindenum.Tensor) float32 { // want cloneHead:`readsParams\[0\.shape\]`
	c, err := kindenum.CloneTensor(t)
	if err != nil {
		return 0
	}
	return c.Host()[0] // want `reads c\.storage\.ptr on the host before the device-to-device copy into it by CloneTensor \(C\.hipMemcpy\) is ordered`
}

// cloneHeadSynced waits for the device first.
func cloneHeadSynced(t *kindenum.Tensor) float32 { // want cloneHeadSynced:`readsParams\[0\.shape\]`
	c, err := kindenum.CloneTensor(t)
	if err != nil {
		return 0
	}
	if err := (kindenum.HIP{}).Synchronize(); err != nil {
		return 0
	}
	return c.Host()[0]
}
