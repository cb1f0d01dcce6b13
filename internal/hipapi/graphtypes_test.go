package hipapi

import "testing"

func TestFirstFamily(t *testing.T) {
	if FirstFamily(0, CUDARuntime) != CUDARuntime || FirstFamily(CUDADriver, HIP) != CUDADriver || FirstFamily(0, 0) != HIP {
		t.Fatal("FirstFamily")
	}
}
