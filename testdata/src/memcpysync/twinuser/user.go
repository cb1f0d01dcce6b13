// Package twinuser uses the HIP and CUDA twins of one Go API without cgo of
// its own: the copies and reads reach it through facts.
package twinuser

import (
	cuda "memcpysync/twincuda"
	hip "memcpysync/twinhip"
)

func hipHazard() []float32 {
	dst, _ := hip.Alloc(64)
	src, _ := hip.Alloc(64)
	defer dst.Free()
	dst.CopyFrom(src)
	return dst.HostView() // want `HostView reads dst\.ptr on the host before the device-to-device copy into it by CopyFrom \(C.hipMemcpy\) is ordered`
}

func hipSynced() []float32 { // want hipSynced:`synchronizes\(device\)`
	dst, _ := hip.Alloc(64)
	src, _ := hip.Alloc(64)
	defer dst.Free()
	dst.CopyFrom(src)
	hip.Synchronize()
	return dst.HostView()
}

func cudaHazard() []float32 {
	dst, _ := cuda.Alloc(64)
	src, _ := cuda.Alloc(64)
	defer dst.Free()
	dst.CopyFrom(src)
	return dst.HostView() // want `HostView reads dst\.ptr on the host before the device-to-device copy into it by CopyFrom \(C.cudaMemcpy\) is ordered: the copy returns before the data lands; call C.cudaDeviceSynchronize\(\)`
}

func cudaSynced() []float32 { // want cudaSynced:`synchronizes\(device\)`
	dst, _ := cuda.Alloc(64)
	src, _ := cuda.Alloc(64)
	defer dst.Free()
	dst.CopyFrom(src)
	cuda.Synchronize()
	return dst.HostView()
}

// A blocking device-to-host copy on the null stream waits for the copy.
func hipDownloadThenView(out []float32) []float32 { // want hipDownloadThenView:`synchronizes\(null\)`
	dst, _ := hip.Alloc(64)
	src, _ := hip.Alloc(64)
	defer dst.Free()
	dst.CopyFrom(src)
	dst.Download(out)
	return dst.HostView()
}

// Raw addresses from the getter, copied by the package's Copy.
func cudaGetterHazard() []float32 {
	dst, _ := cuda.Alloc(64)
	src, _ := cuda.Alloc(64)
	cuda.Copy(dst.Ptr(), src.Ptr(), 64)
	return dst.HostView() // want `HostView reads dst\.ptr on the host before the device-to-device copy into it by Copy \(C.cudaMemcpy\) is ordered`
}

func cudaGetterSynced() []float32 { // want cudaGetterSynced:`synchronizes\(device\)`
	dst, _ := cuda.Alloc(64)
	src, _ := cuda.Alloc(64)
	cuda.Copy(dst.Ptr(), src.Ptr(), 64)
	cuda.Synchronize()
	return dst.HostView()
}
