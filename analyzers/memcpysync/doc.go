// Package memcpysync finds reads of a device-to-device copy's destination
// that are not ordered after the copy.
//
// # Analyzer memcpysync
//
// memcpysync: check that the destination of a device-to-device copy is read only after the copy
//
// Device-to-device copies return to the host before the data lands: always in
// CUDA ("for transfers from device memory to device memory, no host-side
// synchronization is performed"), in HIP for hipMemcpyPeer and, since ROCm 5.6,
// for hipMemcpy/hipMemcpyDtoD between device allocations. The copy is queued
// on the null stream of the device current at the call. A later operation sees
// the copied data only when it is ordered after the copy: it runs on that
// device's null stream or one of its blocking streams (for peer copies also the
// destination device's null stream), or the program synchronizes first
// (hipDeviceSynchronize while the copying device is current,
// hipStreamSynchronize of the copy's stream, an event recorded after the copy
// and then hipEventSynchronize or hipStreamWaitEvent on the reading stream, or
// a blocking device-to-host copy on an ordered stream).
//
// Reads are host accesses (dereferences, unsafe.Slice and array conversions
// that are indexed or ranged over, copy, C.memcpy, C.GoBytes, functions that
// read a parameter), copies that use the destination as their source, kernel
// launches with it among the kernel arguments, and goroutines started while
// the copy may be in flight. A read on a non-blocking stream, on another
// device's streams, or on the host is reported.
//
// Checks: HL1001 for the copies that look synchronous (hipMemcpy and
// hipMemcpyWithStream with a device-to-device or default kind, hipMemcpyDtoD,
// hipMemcpyPeer, cudaMemcpy, cudaMemcpyPeer, cuMemcpyDtoD, cuMemcpyPeer,
// cuMemcpy between device pointers); HL1002 for the explicit asynchronous forms
// (hipMemcpyAsync, hipMemcpyDtoDAsync, hipMemcpyPeerAsync and their CUDA
// twins), where the user chose asynchrony and forgot to order the read after
// the copy's stream. The rules are the same; the IDs differ so that projects
// can treat the surprising case (HL1001) and the plain ordering bug (HL1002)
// separately.
//
// Wrapped calls (check(C.hipMemcpy(...)), status(...).error(...)), closures
// that run in place (ctx.Do(func() error {...})), uintptr views of device
// pointers, getters (b.Ptr()) and view accessors (b.Values() returning
// unsafe.Slice of b.ptr), elements of pointer maps (buffers["y"]),
// including copies into them by generated wrappers, and calls through
// interface methods (what every known implementation does) are followed; on
// the branch where a copy's status says it failed, the copy is not in
// flight. Wrappers that read their parameters on the GPU (a download, a
// kernel launch, a C library routine) export the read with its stream, and
// event wrappers their record, wait and synchronize (parts of the one
// Summary fact), copy helpers the record on the event they return, and
// host reads name the part of a parameter they read (r.free, not r.ptr); calls through struct fields that always hold one function or
// method value apply its summaries. A copy kind picked at run time is a
// device-to-device copy where the kinds reaching it include one. A copy into
// memory a function returns (Clone allocating, copying and returning the
// tensor; a field of a returned struct) is part of its summary, and the
// caller's result carries it; a read inside a container's element, or of a
// range loop's variable, reads what is appended or stored into its
// elements.
//
// With -memcpysync.strict, reads ordered only by implicit default-stream
// semantics (a blocking stream after a null-stream copy, the peer destination
// device's null stream, streams whose flags are not known) are reported too:
// for code that must behave the same on every HIP version and platform,
// including builds with per-thread default streams.
package memcpysync

const doc = `check that the destination of a device-to-device copy is read only after the copy

Device-to-device copies (hipMemcpy/hipMemcpyWithStream with a device-to-device
or default kind, hipMemcpyDtoD, hipMemcpyPeer, cudaMemcpy, cudaMemcpyPeer,
cuMemcpyDtoD, cuMemcpyPeer, cuMemcpy between device pointers) return before
the data lands. Reads of the destination on the host, on a non-blocking
stream, on another device or in a goroutine must come after a
synchronization: hipDeviceSynchronize on the copying device, a stream
synchronize of the copy's stream, an event recorded after the copy, or a
blocking device-to-host copy on an ordered stream. Reports HL1001 (copy that
looks synchronous) and HL1002 (explicit async copy read off its stream).`
