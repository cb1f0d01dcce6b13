package devpool

// #include <hip/hip_runtime_api.h>
import "C"

import "unsafe"

// CopyAsync queues a copy of src into dst on the copy stream and returns
// an event that completes when it has landed.
func (d *Device) CopyAsync(dst, src *Buffer) (*Event, error) { // want CopyAsync:`copiesInto\(hipMemcpyAsync dst=p0\.ptr stream=r\.copy\) eventOps\(record res0\.ev on r\.copy\)`
	if err := status("hipMemcpyAsync", C.hipMemcpyAsync(dst.ptr, src.ptr, C.size_t(4*src.n), C.hipMemcpyDeviceToDevice, d.copy)); err != nil {
		return nil, err
	}
	return record(d.copy)
}

// Clone returns a pooled copy of b, made on the null stream: it returns
// before the data lands.
func (d *Device) Clone(b *Buffer) (*Buffer, error) { // want Clone:`copiesInto\(hipMemcpy dst=res0\.ptr\) readsParams\[-1\.pool\.free\]`
	c, err := d.pool.Get(b.n)
	if err != nil {
		return nil, err
	}
	if err := status("hipMemcpy", C.hipMemcpy(c.ptr, b.ptr, C.size_t(4*b.n), C.hipMemcpyDeviceToDevice)); err != nil {
		c.Release()
		return nil, err
	}
	return c, nil
}

// Download copies b to host memory, blocking, on the null stream.
func (d *Device) Download(out []float32, b *Buffer) error { // want Download:`synchronizes\(null\) deviceReads\(p1\.ptr on null\)`
	return status("hipMemcpy", C.hipMemcpy(unsafe.Pointer(&out[0]), b.ptr, C.size_t(4*len(out)), C.hipMemcpyDeviceToHost))
}

// Upload copies host data into b, blocking.
func (d *Device) Upload(b *Buffer, in []float32) error {
	return status("hipMemcpy", C.hipMemcpy(b.ptr, unsafe.Pointer(&in[0]), C.size_t(4*len(in)), C.hipMemcpyHostToDevice))
}

// HostCopy copies between two host slices with the runtime: a host-only
// copy, nothing is in flight afterwards.
func HostCopy(dst, src []float32) error {
	return status("hipMemcpy", C.hipMemcpy(unsafe.Pointer(&dst[0]), unsafe.Pointer(&src[0]), C.size_t(4*len(src)), C.hipMemcpyHostToHost))
}

// scaleOn launches the scale kernel over b on stream s.
func (d *Device) scaleOn(s C.hipStream_t, b *Buffer, alpha float32) error { // want scaleOn:`deviceReads\(p1\.n on p0; p1\.ptr on p0\)`
	n := C.int(b.n)
	args := []unsafe.Pointer{unsafe.Pointer(&b.ptr), unsafe.Pointer(&n), unsafe.Pointer(&alpha)}
	return status("hipModuleLaunchKernel", C.hipModuleLaunchKernel(d.scale, C.uint((b.n+255)/256), 1, 1, 256, 1, 1, 0, s, &args[0], nil))
}

// Scale scales b on the compute stream.
func (d *Device) Scale(b *Buffer, alpha float32) error { return d.scaleOn(d.compute, b, alpha) } // want Scale:`deviceReads\(p0\.n on r\.compute; p0\.ptr on r\.compute\)`

// ScaleOnCopyStream scales b on the copy stream, behind the queued copies.
func (d *Device) ScaleOnCopyStream(b *Buffer, alpha float32) error { // want ScaleOnCopyStream:`deviceReads\(p0\.n on r\.copy; p0\.ptr on r\.copy\)`
	return d.scaleOn(d.copy, b, alpha)
}
