package callbacks

import "testing"

func TestUpload(t *testing.T) {
	Upload(64) // want `TestUpload reaches system memory \(C.malloc memory \(p\) passed to launch, which hands it to hipModuleLaunchKernel in Upload\)`
}

func TestUploadDevice(t *testing.T) {
	UploadDevice(64)
}

func TestFillHost(t *testing.T) {
	FillHost(&Stream{}) // want `TestFillHost reaches system memory \(Go memory \(p\) passed to launch`
}

func TestFillDevice(t *testing.T) {
	FillDevice(&Stream{})
}
